/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report of bpfdrv trace (report.c): --list, the live view at each
 * interval, the summary at the end and what was lost, read through
 * read.h and written by one writer per format behind struct
 * report_format (report_format.h): the text for people (report_text.c,
 * and the top view, top.c) or JSON lines (report_json.c). The session
 * picks the writer.
 */
#ifndef __BPFDRV_TRACE_REPORT_H
#define __BPFDRV_TRACE_REPORT_H

#include "core.h"
#include "read.h"

struct report_format;

/* The report's state, with @fmt its writer: 0, or -1. */
int report_open(struct trace_session *s, const struct report_format *fmt);
void report_close(struct trace_session *s);
/* On stderr: how many hooks each group skipped, and why, grouped. */
void report_skipped(const struct trace_session *s);
void report_list(struct trace_session *s);
void report_interval(struct trace_session *s);
void report_final(struct trace_session *s);
void report_loss(struct trace_session *s, const struct trace_loss *l);

#endif /* __BPFDRV_TRACE_REPORT_H */
