/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every layer of bpfdrv trace is handed: the options of one run and
 * the session, the one struct the session (session.c) owns and passes
 * down. Each layer keeps its own state in a struct of its own header,
 * which the session points to; no state is shared through globals.
 *
 * The layers, each calling only those below it (docs/observability.md
 * draws the files):
 *
 *   session, command line      cli.c, session.c              (and stats.c)
 *   output                     report.c (report_text.c, report_json.c,
 *                              top.c), perfetto.c (timeline_proto.c,
 *                              timeline_json.c)
 *   reading                    read.c: the maps' rows, named; the losses
 *   loading and attaching      attach.c, load.c, hooks.c (the table and
 *                              probing), btf.c, irq_devs.c
 *   names and leaves           nvidia.c, fdinfo.c; trace.h, shared with
 *                              the BPF programs (trace.bpf.c)
 */
#ifndef __BPFDRV_TRACE_CORE_H
#define __BPFDRV_TRACE_CORE_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <linux/types.h>

#define TRACE_NPU	(1U << 0)
#define TRACE_DRM	(1U << 1)
#define TRACE_BPFDRV	(1U << 2)
#define TRACE_NVIDIA	(1U << 3)
#define TRACE_DEV	(1U << 4)	/* the devices of --device */
#define TRACE_IOMMU	(1U << 5)
/* the default: the accelerator paths; iommu sees every device's DMA */
#define TRACE_DEFAULT	(TRACE_NPU | TRACE_DRM | TRACE_BPFDRV | TRACE_NVIDIA)
#define TRACE_ALL	(TRACE_DEFAULT | TRACE_IOMMU)
#define TRACE_MAX_HOOKS	128
#define TRACE_MAX_DEVICES 16

/*
 * How kernel functions are traced. VIA_FOP: bpfdrv.ko's bpfdrv_fop
 * tracepoint, for its file operations. VIA_SYSCALL: the system calls on
 * the device's files, where the kernel lets no function be probed (or
 * --syscalls).
 */
enum func_via { VIA_FENTRY, VIA_MULTI, VIA_KPROBE, VIA_FOP, VIA_SYSCALL };

struct trace_session;

struct trace_opts {
	unsigned int groups;	/* TRACE_NPU | ... */
	__u32 pid;		/* 0: any */
	const char *comm;	/* NULL: any */
	double interval;	/* live view every that many seconds; 0: none */
	double duration;	/* stop after; 0: at Ctrl-C or when cmd exits */
	bool json, list, quiet;
	bool top;		/* -i redraws in place, with processes */
	int via;		/* 0: choose; else 1 + how to trace functions */
	bool irq_tracepoints;	/* tell interrupts from tracepoints, not ksyms */
	unsigned int devices[TRACE_MAX_DEVICES];	/* --device: dev_t (kernel) */
	char *device_names[TRACE_MAX_DEVICES];
	int nr_devices;
	bool count_only;	/* count function calls at entry: no latency */
	const char *perfetto;	/* write a timeline to this file */
	bool follow;		/* pid's descendants too (set for cmd) */
	char **cmd;		/* run this once attached and trace only it */
	FILE *out;		/* NULL: stdout */
	/* instead of the trace report: called per interval and at the end */
	void (*report)(struct trace_session *s, bool final);
	void *priv;		/* for report */
};

struct trace_session {
	struct trace_opts *opts;
	FILE *out;
	struct trace_plan *plan;	/* hooks.h: how it traces, each hook */
	struct trace_bpf *skel;		/* the programs, loaded (load.h) */
	struct trace_links *links;	/* attach.h: what is attached */
	struct trace_names *names;	/* read.h: the names read once */
	struct trace_view *view;	/* report.h: what the last report showed */
	struct trace_top *top;		/* top.h: the top view's last frame */
	struct trace_timeline *timeline;	/* perfetto.h: --perfetto */
	double t_probe, t_load, t_attach;	/* start-up, in seconds */
	double start_time;		/* tracing began (now_s()) */
	int child;			/* the command's pid, while it runs */
	int go_fd;			/* a byte there starts it */
	int status;			/* its wait status, once it ended */
	int exit;			/* the exit status of the run */
};

/* Seconds on CLOCK_MONOTONIC: start-up times, intervals, rates. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* __BPFDRV_TRACE_CORE_H */
