/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attaching the loaded programs (attach.c): each hook the best way the
 * kernel allows, falling back hook by hook; the links that are not one
 * hook's; and the kernel's counts of what they missed.
 */
#ifndef __BPFDRV_TRACE_ATTACH_H
#define __BPFDRV_TRACE_ATTACH_H

#include <stddef.h>
#include <linux/types.h>

#include "core.h"
#include "hooks.h"

/* What one session attached besides each hook's own links (hooks.h). */
struct trace_links {
	struct bpf_link *multi[2];	/* every kprobe.multi function: entry, exit */
	struct bpf_link *fop;		/* bpfdrv_fop, for bpfdrv's file operations */
	struct bpf_link *sys[2];	/* sys_enter, sys_exit */
	struct bpf_link *irq[32];	/* interrupt context from tracepoints */
	int nr_irq;
	char irq_why[128];		/* why those could not attach */
};

/* The fork tracepoint that follows the traced processes: 0, or -1. */
int attach_fork(struct trace_session *s);
/* Every probed hook that can be: into s->links and the plan's hooks. */
int attach_hooks(struct trace_session *s);
/* The hooks that attached and are not latencies (pairs of others). */
int attached_hooks(const struct trace_plan *p);
void detach_hooks(struct trace_session *s);
/* Once a second: IRQs allocated or freed since, for dev_irq. */
void refresh_irq_devs(struct trace_session *s);
/* How interrupt context is told apart in this session, in words. */
void irq_context(const struct trace_session *s, char *buf, size_t size);
/* Program runs the kernel skipped, and kprobe misses. */
void attach_missed(const struct trace_session *s, __u64 *recursion, __u64 *probe);

#endif /* __BPFDRV_TRACE_ATTACH_H */
