/* SPDX-License-Identifier: GPL-2.0 */
/* The top view of bpfdrv trace, redrawn in place each interval (top.c). */
#ifndef __BPFDRV_TRACE_TOP_H
#define __BPFDRV_TRACE_TOP_H

#include <linux/types.h>

#include "core.h"

/*
 * One frame: @totals[hook] now, @prev at the last frame, @dt seconds
 * ago; @prev_lost events lost by then. Returns the events lost by now.
 */
__u64 top_frame(struct trace_session *s, const __u64 *totals, const __u64 *prev,
		__u64 prev_lost, double dt);
void top_free(struct trace_session *s);

#endif /* __BPFDRV_TRACE_TOP_H */
