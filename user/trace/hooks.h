/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hook table, the whole policy of bpfdrv trace, and probing the kernel
 * for it (hooks.c): the lowest layer but its leaves. A session copies the
 * table into its plan (hooks_init()); probing, loading and attaching fill
 * in each hook's state there, and the layers above read it through the
 * plan the session hands them.
 */
#ifndef __BPFDRV_TRACE_HOOKS_H
#define __BPFDRV_TRACE_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "core.h"
#include "trace.h"

struct bpf_link;

/*
 * HOOK_SYS: a device's system calls, the only way (the dev group).
 * HOOK_FENTRY: a function with a program of its own, which reads its
 * arguments by their types (fentry only).
 */
enum hook_kind { HOOK_FUNC, HOOK_TP, HOOK_LAT, HOOK_SYS, HOOK_FENTRY };

extern const char *const via_names[];

enum tp_prog {
	TP_COUNT, TP_STR_COUNT, TP_SCHED_QUEUE, TP_SCHED_RUN, TP_SCHED_DONE,
	TP_FENCE_INIT, TP_FENCE_EMIT, TP_FENCE_SIGNALED, TP_FENCE_DESTROY,
	TP_VPU_JOB, TP_XID, TP_IRQ_NAMED, TP_DMA, TP_DMA_SIZE2, TP_DMA_SIZE3,
	TP_IOMMU_FAULT, FN_IOPF_REPORT, FN_IOPF_RESPONSE, TP_DEV_IRQ,
};

#define MAX_ALT 3

struct hook {
	unsigned int group;
	const char *name;
	enum hook_kind kind;
	const char *module;		/* where the symbols live; NULL: vmlinux */
	const char *alt[MAX_ALT];	/* candidates, newest first */
	unsigned int arg;		/* HOOK_FUNC: TRACE_ARG_* */
	__u64 flags;			/* TRACE_RET_ERRNO, TRACE_CTX_CRTC */
	enum tp_prog prog;		/* HOOK_TP, HOOK_FENTRY */
	int fop;			/* HOOK_FUNC: 1 + its BPFDRV_FOP_*, or 0 */
	/* the system call that stands for it, if any, on which devices */
	enum trace_sys_op sys_op;
	enum trace_dev_class dev_class;
	__u32 lat_id;			/* HOOK_LAT: its id; needs[] attached */
	int needs[2];
	const char *what;
	/* found at run time, in the session's copy */
	const char *target;
	enum func_via via;		/* HOOK_FUNC: how it is traced */
	__u32 btf_id;			/* in BTF: fentry/fexit can trace it */
	int btf_obj_fd;			/* 0 for vmlinux */
	bool attached;
	char why[224];			/* skipped: why; attached: why not the first way */
	struct bpf_link *links[2];	/* kprobe/kretprobe, or a tracepoint */
	int prog_fds[2], link_fds[2];	/* fentry/fexit: copies of func_fentry/fexit */
};

/* Programs the kernel refused on their own, and why. */
struct refused_prog {
	char name[64];
	char why[128];
};

/*
 * How one session traces, as probing and loading decided, and each
 * hook's state: owned by the session and handed down to what needs it.
 */
struct trace_plan {
	struct hook hooks[TRACE_MAX_HOOKS];	/* the table's copy */
	int nr_hooks;
	unsigned int groups;		/* the groups asked for */
	enum func_via func_via;		/* how functions are traced first */
	bool func_via_forced;		/* by an option: bpfdrv_fop is not used */
	/* the ways a function is tried in, each after the one before failed */
	enum func_via ways[3];
	int nr_ways;
	char ways_why[192];		/* why in that order, for --list */
	bool count_only;		/* no return probes: links[1] is links[0] */
	bool irq_from_tracepoints;	/* trace_irqtp.bpf.o: see load.c */
	int fentry_loaded_for;		/* the hook func_fentry is loaded for; -1 */
	/* the character devices of each class, for the syscall programs */
	unsigned int sys_dev_keys[TRACE_MAX_DEVICES + 8];
	enum trace_dev_class sys_dev_classes[TRACE_MAX_DEVICES + 8];
	int nr_sys_devs;
	struct refused_prog refused[16];
	int nr_refused;
	double t_attach_func;		/* of attach time, spent on functions */
	double t_copy;			/* of which copying fentry programs */
};

/* The table into @p: 0, or -1 if it is out of step with itself. */
int hooks_init(struct trace_plan *p, unsigned int groups);

/* Probing: which candidate of each hook is here, and how. */
void choose_ways(struct trace_plan *p, int forced);
enum func_via first_way(const struct trace_plan *p, const struct hook *h);
enum func_via next_way(const struct trace_plan *p, const struct hook *h, enum func_via via);
bool way_tried(const struct trace_plan *p, enum func_via via);
void probe_sys_devs(struct trace_plan *p, const struct trace_opts *o);
bool use_syscalls(struct trace_plan *p, struct hook *h);
bool fop_traced(const struct hook *h);
void probe_hooks(struct trace_plan *p);
/* A function hook's slot for calls in flight: its rank among them. */
int func_slot(const struct trace_plan *p, int i);

/* The table's facts about hook @i, for the layers above. */
int trace_hook_by_id(const struct trace_plan *p, __u32 id);
const char *trace_hook_name(const struct trace_plan *p, int i);
bool trace_hook_per_minor(const struct trace_plan *p, int i);
bool trace_hook_per_device(const struct trace_plan *p, int i);
bool trace_hook_is_ioctl(const struct trace_plan *p, int i);
bool trace_hook_is_fault(const struct trace_plan *p, int i);
const char *trace_group_name(unsigned int group);

#endif /* __BPFDRV_TRACE_HOOKS_H */
