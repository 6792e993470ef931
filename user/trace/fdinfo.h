/* SPDX-License-Identifier: GPL-2.0 */
/* The DRM clients of processes, from their fdinfo (fdinfo.c). */
#ifndef __BPFDRV_TRACE_FDINFO_H
#define __BPFDRV_TRACE_FDINFO_H

#include <stdio.h>
#include <linux/types.h>

/* An open DRM or accel file of a process (drm-usage-stats.rst). */
struct trace_drm_client {
	__u32 pid;
	unsigned long long id;		/* drm-client-id */
	char driver[32];		/* drm-driver */
	long long engine_ns;		/* drm-engine-*, all engines */
	int engines;			/* how many it names */
	long long memory;		/* drm-total-*, bytes; -1: not given */
};

/*
 * One fdinfo file's keys into @c (zeroed by the caller): 1 if it is a DRM
 * client's. Values that are not the document's (a unit it does not name,
 * a number past the range, a line too long) are left out.
 */
int trace_drm_client_read(FILE *f, struct trace_drm_client *c);

/*
 * The clients of the processes @pids, at most @max, each once however
 * many descriptors share it. Returns how many.
 */
int trace_drm_clients(const __u32 *pids, int nr_pids,
		      struct trace_drm_client *out, int max);

#endif /* __BPFDRV_TRACE_FDINFO_H */
