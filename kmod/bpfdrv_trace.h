/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpfdrv's tracepoint: one event per file operation on a bpfdrv device,
 * when it returns, with how long it took. The module reads the clock only
 * while the tracepoint is enabled, so a tracer needs no return probe (the
 * costly part of timing a call) and untraced calls pay nothing.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM bpfdrv

#if !defined(_BPFDRV_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _BPFDRV_TRACE_H

#include <linux/tracepoint.h>

#include "../include/bpfdrv_fop.h"

/*
 * @duration_ns is measured with local_clock(), ftrace's default clock: no
 * indirect call to a clocksource, and this CPU's clock where the call ends.
 */
TRACE_EVENT(bpfdrv_fop,
	    TP_PROTO(unsigned int minor, unsigned int op, long ret,
		     u64 duration_ns),
	    TP_ARGS(minor, op, ret, duration_ns),
	    TP_STRUCT__entry(__field(unsigned int, minor)
			     __field(unsigned int, op)
			     __field(long, ret)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->minor = minor;
			   __entry->op = op;
			   __entry->ret = ret;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("minor=%u op=%s ret=%ld duration_ns=%llu",
		      __entry->minor,
		      __print_symbolic(__entry->op,
				       { BPFDRV_FOP_OPEN, "open" },
				       { BPFDRV_FOP_RELEASE, "release" },
				       { BPFDRV_FOP_READ, "read" },
				       { BPFDRV_FOP_WRITE, "write" },
				       { BPFDRV_FOP_IOCTL, "ioctl" },
				       { BPFDRV_FOP_POLL, "poll" }),
		      __entry->ret, __entry->duration_ns)
);

#endif /* _BPFDRV_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE bpfdrv_trace
#include <trace/define_trace.h>
