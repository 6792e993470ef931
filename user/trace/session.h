/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracing session that `bpfdrv trace` and `bpfdrv stats` share
 * (trace.c): options, the rows read back from the BPF maps, and the
 * printing helpers. stats.c supplies its own report callback.
 */
#ifndef __BPFDRV_TRACE_SESSION_H
#define __BPFDRV_TRACE_SESSION_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

#include "trace.h"

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

struct trace_plan;

struct trace_session {
	struct trace_opts *opts;
	struct trace_plan *plan;	/* how it traces (trace_hooks.h) */
	struct trace_bpf *skel;
	FILE *out;
	double start_time, last_time;
	double t_probe, t_load, t_attach;	/* start-up, in seconds */
	__u64 prev[TRACE_MAX_HOOKS];
	__u64 prev_lost;
	/* the top view's last process counts, to show what each did since */
	struct trace_proc_row *prev_procs;
	int nr_prev_procs;
	/* and its DRM clients' (trace_fdinfo.h) */
	struct trace_drm_client *prev_clients;
	int nr_prev_clients;
};

/* Events that could not be recorded (trace_read_loss). */
struct trace_loss {
	__u64 bpf[TRACE_LOST_NR];	/* counted by the programs, by cause */
	__u64 recursion;		/* programs the kernel skipped */
	__u64 probe;			/* kprobe and kretprobe misses */
	__u64 total;
};

struct trace_row {
	int hook;		/* index in the hook table */
	__u32 sub;
	char sub_name[48];	/* ioctl name, driver name, event string */
	struct trace_hist hist;
};

struct trace_proc_row {
	__u32 tgid;
	int hook;
	__u32 sub;
	__u64 count;
	char comm[TRACE_COMM_LEN + 1];
	char sub_name[48];
	char driver[TRACE_DRV_LEN + 1];	/* of a DRM driver ioctl */
};

int trace_session_run(struct trace_opts *o);
int trace_hook_by_id(__u32 id);
void trace_row_name(struct trace_session *s, __u32 hook_id, __u32 sub,
		    char *buf, size_t size);

/* The --perfetto timeline (trace_perfetto.c). */
struct trace_timeline;
struct trace_timeline *trace_timeline_open(struct trace_session *s, const char *path);
void trace_timeline_poll(struct trace_timeline *t, int ms);
/* the events written (a life's begin and end are two); *err: 0 or -errno */
unsigned long long trace_timeline_close(struct trace_timeline *t, int *err);
int trace_parse_common(int opt, const char *arg, struct trace_opts *o);
int trace_read_rows(struct trace_session *s, struct trace_row **rows);
int trace_read_procs(struct trace_session *s, struct trace_proc_row **rows);
const char *trace_hook_name(int hook);
const char *trace_hook_target(int hook);
unsigned int trace_hook_group(int hook);
bool trace_hook_attached(int hook);
bool trace_hook_per_minor(int hook);
bool trace_hook_per_device(int hook);
const char *trace_group_name(unsigned int group);
const char *trace_driver_name(unsigned int minor);
void trace_print_hist(FILE *out, const struct trace_hist *h);
void trace_json_hist(FILE *out, const struct trace_hist *h);
double trace_stddev_us(const struct trace_hist *h);
void trace_json_who(FILE *out, __u32 tgid, const char *comm);
void trace_read_loss(struct trace_session *s, struct trace_loss *l);


#endif /* __BPFDRV_TRACE_SESSION_H */
