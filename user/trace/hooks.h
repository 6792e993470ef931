/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of bpfdrv trace share: the hook table and probing the
 * kernel for it (trace_hooks.c), loading and attaching the programs
 * (trace_attach.c), reading and printing the results (trace_report.c).
 * trace.c runs a session and the command line.
 */
#ifndef __BPFDRV_TRACE_HOOKS_H
#define __BPFDRV_TRACE_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <linux/types.h>

#include "trace.h"
#include "session.h"

struct bpf_program;
struct btf;

/*
 * HOOK_SYS: a device's system calls, the only way (the dev group).
 * HOOK_FENTRY: a function with a program of its own, which reads its
 * arguments by their types (fentry only).
 */
enum hook_kind { HOOK_FUNC, HOOK_TP, HOOK_LAT, HOOK_SYS, HOOK_FENTRY };
/*
 * VIA_FOP: bpfdrv.ko's bpfdrv_fop tracepoint, for its file operations.
 * VIA_SYSCALL: the system calls on the device's files, where the kernel
 * lets no function be probed (or --syscalls).
 */
enum func_via { VIA_FENTRY, VIA_MULTI, VIA_KPROBE, VIA_FOP, VIA_SYSCALL };

extern const char *const via_names[];
extern const char *const sys_op_names[TRACE_SYS_NR];

enum tp_prog {
	TP_COUNT, TP_STR_COUNT, TP_SCHED_QUEUE, TP_SCHED_RUN, TP_SCHED_DONE,
	TP_FENCE_INIT, TP_FENCE_EMIT, TP_FENCE_SIGNALED, TP_FENCE_DESTROY,
	TP_VPU_JOB, TP_XID, TP_IRQ_NAMED, TP_DMA, TP_DMA_SIZE2, TP_DMA_SIZE3,
	TP_IOMMU_FAULT, FN_IOPF_REPORT, FN_IOPF_RESPONSE, TP_DEV_IRQ,
};

#define MAX_ALT 3
#define ERRNO TRACE_RET_ERRNO

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
	/* found at run time */
	const char *target;
	enum func_via via;		/* HOOK_FUNC: how it is traced */
	__u32 btf_id;			/* in BTF: fentry/fexit can trace it */
	int btf_obj_fd;			/* 0 for vmlinux */
	bool attached;
	char why[160];			/* skipped: why; attached: why not the first way */
	struct bpf_link *links[2];	/* kprobe/kretprobe, or a tracepoint */
	int prog_fds[2], link_fds[2];	/* fentry/fexit: copies of func_fentry/fexit */
};


/* The table (trace_hooks.c): the whole policy. */
extern struct hook hooks[];
extern const int nr_hooks;
#define NR_HOOKS nr_hooks

/* Programs the kernel refused on their own, and why. */
struct refused_prog {
	char name[64];
	char why[128];
};

/*
 * How one session traces, as probing and loading decided: owned by the
 * session (trace_session_run()) and handed down to what needs it.
 */
struct trace_plan {
	unsigned int groups;		/* the groups asked for */
	enum func_via func_via;		/* how functions are traced */
	bool func_via_forced;		/* by an option: bpfdrv_fop is not used */
	bool count_only;		/* no return probes: links[1] is links[0] */
	bool irq_from_tracepoints;	/* trace_irqtp.bpf.o: see open_skel() */
	/* the character devices of each class, for the syscall programs */
	unsigned int sys_dev_keys[TRACE_MAX_DEVICES + 8];
	enum trace_dev_class sys_dev_classes[TRACE_MAX_DEVICES + 8];
	int nr_sys_devs;
	struct refused_prog refused[16];
	int nr_refused;
	double t_attach_func;		/* of attach time, spent on functions */
	double t_copy;			/* of which copying fentry programs */
};

/* Probing (trace_hooks.c): which candidate of each hook is here, and how. */
struct btf *kernel_btf(const char *module, int *obj_fd);
bool tracepoint_exists(const char *module, const char *name);
void free_kernel_btfs(void);
int kernel_struct_has(const char *type, const char *member);
enum func_via choose_via(bool count_only);
void probe_sys_devs(struct trace_plan *p, const struct trace_opts *o);
bool use_syscalls(struct trace_plan *p, struct hook *h);
bool fop_traced(const struct hook *h);
void probe_hooks(struct trace_plan *p);

/* The devices of IRQs, for dev_irq (trace_irq_devs.c). */
int trace_fill_irq_devs(int map_fd);

/* Loading and attaching (trace_attach.c). */
void refresh_irq_devs(struct trace_bpf *skel);
void refuse_for_tests(struct trace_plan *p);
bool prog_unusable(struct trace_plan *p, const struct bpf_program *prog,
		   char *why, size_t size);
int set_autoload(struct trace_plan *p, struct trace_bpf *skel, bool follow);
int func_slot(int i);
void attach_hooks(struct trace_plan *p, struct trace_bpf *skel);
void detach_hooks(void);
void irq_context(struct trace_plan *p, const struct trace_opts *o,
		 char *buf, size_t size);

/* Reading and printing (trace_report.c). */
void print_list(struct trace_session *s);
void trace_report_interval(struct trace_session *s);
void trace_report_final(struct trace_session *s);
void print_loss(struct trace_session *s, const struct trace_loss *l);

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* __BPFDRV_TRACE_HOOKS_H */
