/* SPDX-License-Identifier: GPL-2.0 */
/* bpfdrv trace's report as text (report_text.c), and its pieces stats uses. */
#ifndef __BPFDRV_TRACE_REPORT_TEXT_H
#define __BPFDRV_TRACE_REPORT_TEXT_H

#include <stdio.h>

#include "hooks.h"
#include "read.h"
#include "trace.h"

struct report_format;
extern const struct report_format report_text;

/* A row's log2 histogram of microseconds, bcc's way. */
void trace_print_hist(FILE *out, const struct trace_hist *h);
/* Column widths that fit the longest hook and detail names (at least @hw, @dw). */
void trace_name_widths(const struct trace_plan *p, const struct trace_row *rows, int n,
		       const struct trace_proc_row *procs, int np, int *hw, int *dw);

#endif /* __BPFDRV_TRACE_REPORT_TEXT_H */
