/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface of the --perfetto timeline's writers: perfetto.c reads
 * the events and places each on a track; a writer puts them in its
 * format, Perfetto's protobuf (timeline_proto.c) or Chrome's trace-event
 * JSON (timeline_json.c). Timestamps are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef __BPFDRV_TRACE_TIMELINE_H
#define __BPFDRV_TRACE_TIMELINE_H

#include <stdio.h>
#include <linux/types.h>

#define TIMELINE_IRQ_PID	0
#define TIMELINE_DEVICES_PID	0x7fffffffU	/* no process has it: above pid_max */
#define TIMELINE_HARDIRQ_TID	1
#define TIMELINE_SOFTIRQ_TID	2

/* Where an event goes: a thread, the interrupts, or a device. */
enum timeline_place_kind { TL_THREAD, TL_IRQ, TL_DEVICE };

struct timeline_place {
	enum timeline_place_kind kind;
	__u32 pid;		/* the process; TIMELINE_*_PID for the others */
	__u32 tid;		/* the thread; hardirq or softirq; the device's */
};

/*
 * The flows an event begins and ends (ids unique in the file): a submit's
 * span begins one to its job and one to its fence; the job's life and
 * the fence's signal each end one.
 */
struct timeline_flow {
	__u64 out[2];		/* flows from here */
	int nr_out;
	__u64 in;		/* the flow that ends here; 0: none */
};

struct timeline_writer;

struct timeline_format {
	const char *format;
	struct timeline_writer *(*open)(FILE *f);
	/* a call from @ts for @dur ns; @fl: its flows, or NULL */
	void (*span)(struct timeline_writer *w, const struct timeline_place *p,
		     const char *name, const char *cat, __u64 ts, __u64 dur,
		     const struct timeline_flow *fl);
	void (*instant)(struct timeline_writer *w, const struct timeline_place *p,
			const char *name, const char *cat, __u64 ts,
			const struct timeline_flow *fl);
	/* an object's life (a job's, a fence's), of the process that began it */
	void (*life)(struct timeline_writer *w, const struct timeline_place *p,
		     const char *name, const char *cat, __u64 ts, __u64 dur,
		     const struct timeline_flow *fl);
	/* names, at the end; tid 0: the process */
	void (*name)(struct timeline_writer *w, __u32 pid, __u32 tid,
		     const char *name);
	/* the file's end: 0, or -errno; frees @w, closes its file */
	int (*close)(struct timeline_writer *w);
};

#endif /* __BPFDRV_TRACE_TIMELINE_H */
