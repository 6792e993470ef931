/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the results (read.c): the rows of the BPF maps, summed over the
 * CPUs and named, per (hook, sub-key) and per process; what could not be
 * recorded. The reporting layers above read only through here.
 */
#ifndef __BPFDRV_TRACE_READ_H
#define __BPFDRV_TRACE_READ_H

#include <stddef.h>
#include <linux/types.h>

#include "core.h"
#include "trace.h"

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

/* All (hook, sub-key) rows, sorted by hook then sub-key; *rows to free. */
int trace_read_rows(struct trace_session *s, struct trace_row **rows);
/* All per-process rows, sorted by process, hook and sub-key. */
int trace_read_procs(struct trace_session *s, struct trace_proc_row **rows);
void trace_read_loss(struct trace_session *s, struct trace_loss *l);
/* A cause of loss (TRACE_LOST_*) by its name in the reports. */
const char *trace_lost_name(int cause);
/* The names read once (bpfdrv's drivers), freed at the end. */
void trace_read_free(struct trace_session *s);

/* The detail of the row (hook id, sub) in words, for the timeline. */
void trace_row_name(struct trace_session *s, __u32 hook_id, __u32 sub,
		    char *buf, size_t size);
/* A row's DRM driver, for driver ioctls. */
void trace_row_driver(const struct trace_hist *hist, char *buf, size_t size);
/* The sub-key that JSON shows: a DRM ioctl's number, without the driver. */
__u32 trace_sub_number(const struct trace_plan *p, int hook, __u32 sub);
/* A row's latencies' standard deviation in microseconds; NaN if unknown. */
double trace_stddev_us(const struct trace_hist *h);

#endif /* __BPFDRV_TRACE_READ_H */
