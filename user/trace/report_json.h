/* SPDX-License-Identifier: GPL-2.0 */
/* bpfdrv trace's report as JSON lines (report_json.c), and a piece stats uses. */
#ifndef __BPFDRV_TRACE_REPORT_JSON_H
#define __BPFDRV_TRACE_REPORT_JSON_H

#include <stdio.h>

#include "trace.h"

struct report_format;
extern const struct report_format report_json;

/* A row's histogram: [{"lo":16,"hi":31,"count":3}, ...] */
void trace_json_hist(FILE *out, const struct trace_hist *h);

#endif /* __BPFDRV_TRACE_REPORT_JSON_H */
