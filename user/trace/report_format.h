/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface of a report's writer, one per format (report_text.c,
 * report_json.c): report.c decides what is reported and hands it to the
 * writer the session picked. A writer prints; it reads nothing.
 */
#ifndef __BPFDRV_TRACE_REPORT_FORMAT_H
#define __BPFDRV_TRACE_REPORT_FORMAT_H

#include <stdio.h>
#include <linux/types.h>

#include "core.h"
#include "hooks.h"
#include "read.h"

struct report_format {
	/* --list: its head, one line per hook, then how interrupts are told */
	void (*list_head)(FILE *out);
	void (*list_hook)(FILE *out, const struct hook *h, const char *kind,
			  const char *status);
	void (*irq_context)(FILE *out, const char *how);
	/* the ways functions are tried in, in order, and why so */
	void (*functions)(FILE *out, const char *const *ways, int n, const char *why);
	void (*startup)(FILE *out, const struct trace_session *s);
	/*
	 * The live view: @delta[hook] events since the last, @elapsed seconds
	 * into the run, @dt since the last; @lost since the last
	 */
	void (*interval)(FILE *out, const struct trace_plan *p, const __u64 *delta,
			 double elapsed, double dt, __u64 lost);
	/* the summary, after @duration seconds */
	void (*summary)(FILE *out, const struct trace_plan *p,
			const struct trace_row *rows, int n,
			const struct trace_proc_row *procs, int np, double duration);
	void (*loss)(FILE *out, const struct trace_loss *l);
};

#endif /* __BPFDRV_TRACE_REPORT_FORMAT_H */
