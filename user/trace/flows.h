/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline's events on their way to a writer (flows.c): each written
 * at once, unless it begins or ends a flow (trace.h's TRACE_FLOW_*), which
 * waits for the flow's other end, so that no flow in the file dangles.
 */
#ifndef __BPFDRV_TRACE_FLOWS_H
#define __BPFDRV_TRACE_FLOWS_H

#include <linux/types.h>

#include "timeline.h"
#include "trace.h"

/* An event, named and placed; @name and @cat outlive the timeline. */
struct timeline_event {
	enum trace_tl_kind kind;
	struct timeline_place place;
	const char *name, *cat;
	__u64 ts, dur;
	__u32 flow;		/* the programs' flow word, or 0 */
};

struct timeline_flows;

struct timeline_flows *flows_open(const struct timeline_format *fmt,
				  struct timeline_writer *w);
void flows_event(struct timeline_flows *f, const struct timeline_event *e);
/*
 * The events still waiting, written with the flows whose ends met; the
 * events written (a life's begin and end are two). Frees @f.
 */
unsigned long long flows_close(struct timeline_flows *f);

#endif /* __BPFDRV_TRACE_FLOWS_H */
