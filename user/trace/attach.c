// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: attaching each hook the cheapest way the kernel allows
 * without losing calls, falling back hook by hook (the ways of
 * choose_ways(), then the system call that stands for a function); and the
 * kernel's counts of what the attached programs missed. What is attached
 * is the session's struct trace_links; each hook's own links are in its
 * state in the plan.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "attach.h"
#include "bpfdrv.h"
#include "btf.h"
#include "irq_devs.h"
#include "load.h"
#include "trace.skel.h"

/* func_fentry or func_fexit for hook @h: the loaded one or a copy. */
static int fentry_prog(const struct trace_plan *p, struct bpf_program *tmpl,
		       const struct hook *h)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = bpf_program__expected_attach_type(tmpl),
		.attach_btf_id = h->btf_id,
		.attach_btf_obj_fd = h->btf_obj_fd,
	);

	if (p->fentry_loaded_for >= 0 && h == &p->hooks[p->fentry_loaded_for])
		return dup(bpf_program__fd(tmpl));
	return bpf_prog_load(BPF_PROG_TYPE_TRACING, bpf_program__name(tmpl), "GPL",
			     bpf_program__insns(tmpl), bpf_program__insn_cnt(tmpl),
			     &opts);
}

/* 0, or why fentry/fexit cannot trace @h (an errno, in @why) */
static int attach_fentry(struct trace_plan *p, struct trace_bpf *skel, struct hook *h,
			 __u64 cookie, char *why, size_t size)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .tracing.cookie = cookie);
	struct bpf_program *tmpl[2] = { skel->progs.func_fentry, skel->progs.func_fexit };
	int k;

	for (k = 0; k < (p->count_only ? 1 : 2); k++) {
		double t0 = now_s();

		if (prog_unusable(p, tmpl[k], why, size))
			return -1;
		h->prog_fds[k] = fentry_prog(p, tmpl[k], h);
		p->t_copy += now_s() - t0;
		if (h->prog_fds[k] < 0)
			goto fail;
		h->link_fds[k] = bpf_link_create(h->prog_fds[k], 0,
						 bpf_program__expected_attach_type(tmpl[k]),
						 &lopts);
		if (h->link_fds[k] < 0)
			goto fail;
	}
	return 0;
fail:
	snprintf(why, size, "%s", strerror(errno));
	return -1;
}

static void close_fds(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

/* Can kprobes be made here? Not without CONFIG_KPROBES (no kprobe PMU). */
static bool have_kprobes(void)
{
	return !access("/sys/bus/event_source/devices/kprobe", F_OK) ||
	       !access("/sys/kernel/tracing/kprobe_events", F_OK) ||
	       !access("/sys/kernel/debug/tracing/kprobe_events", F_OK);
}

/* A kprobe/kretprobe pair on @h; 0, or why not in @why. */
static int attach_kprobes(struct trace_plan *p, struct trace_bpf *skel, struct hook *h,
			  __u64 cookie, char *why, size_t size)
{
	LIBBPF_OPTS(bpf_kprobe_opts, kopts, .bpf_cookie = cookie);

	if (!have_kprobes()) {
		snprintf(why, size, "not in this kernel");
		return -1;
	}
	if (prog_unusable(p, skel->progs.func_entry, why, size) ||
	    (!p->count_only && prog_unusable(p, skel->progs.func_exit, why, size)))
		return -1;
	h->links[0] = bpf_program__attach_kprobe_opts(skel->progs.func_entry,
						      h->target, &kopts);
	if (h->links[0] && p->count_only) {
		h->links[1] = h->links[0];
	} else if (h->links[0]) {
		kopts.retprobe = true;
		h->links[1] = bpf_program__attach_kprobe_opts(skel->progs.func_exit,
							      h->target, &kopts);
	}
	if (h->links[0] && h->links[1])
		return 0;
	snprintf(why, size, "%s", strerror(errno));
	bpf_link__destroy(h->links[0]);
	h->links[0] = h->links[1] = NULL;
	return -1;
}

/* Hook @h alone by kprobe.multi; 0, or why not in @why. */
static int attach_multi_one(struct trace_plan *p, struct trace_bpf *skel, struct hook *h,
			    __u64 cookie, char *why, size_t size)
{
	const char *syms[1] = { h->target };
	int k;

	for (k = 0; k < (p->count_only ? 1 : 2); k++) {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, mopts, .syms = syms,
			    .cookies = &cookie, .cnt = 1, .retprobe = k);
		struct bpf_program *prog = k ? skel->progs.func_mexit : skel->progs.func_mentry;

		if (prog_unusable(p, prog, why, size))
			goto fail;
		h->links[k] = bpf_program__attach_kprobe_multi_opts(prog, NULL, &mopts);
		if (!h->links[k]) {
			snprintf(why, size, "%s", strerror(errno));
			goto fail;
		}
	}
	if (p->count_only)
		h->links[1] = h->links[0];
	return 0;
fail:
	bpf_link__destroy(h->links[0]);
	h->links[0] = NULL;
	h->links[1] = NULL;
	return -1;
}

/*
 * A function hook: each way choose_ways() ordered, from the hook's own,
 * until one attaches; then the system call that stands for it (attached
 * with the others later). Why each way failed stays in h->why, for --list.
 */
static void attach_func(struct trace_plan *p, struct trace_bpf *skel, int i)
{
	struct hook *h = &p->hooks[i];
	__u64 cookie = TRACE_FUNC_COOKIE(i, h->arg, h->flags, func_slot(p, i));
	char why[sizeof(h->why)];
	size_t n;
	int rc;

	for (;;) {
		why[0] = '\0';
		if (h->via == VIA_FENTRY)
			rc = attach_fentry(p, skel, h, cookie, why, sizeof(why));
		else if (h->via == VIA_MULTI)
			rc = attach_multi_one(p, skel, h, cookie, why, sizeof(why));
		else if (h->via == VIA_KPROBE)
			rc = attach_kprobes(p, skel, h, cookie, why, sizeof(why));
		else
			break;
		if (!rc) {
			h->attached = true;
			return;
		}
		close_fds(h->link_fds, 2);
		close_fds(h->prog_fds, 2);
		n = strlen(h->why);	/* after the earlier ways' reasons */
		snprintf(h->why + n, sizeof(h->why) - n, "%s%s: %s", n ? "; " : "",
			 via_names[h->via], why);
		h->via = next_way(p, h, h->via);
	}
	use_syscalls(p, h);	/* VIA_SYSCALL: attach_syscalls(p) tries it */
}

/* A HOOK_FENTRY: its own program, loaded for its target. */
static void attach_own_fentry(struct trace_plan *p, struct hook *h,
			      struct bpf_program *prog, __u64 cookie)
{
	LIBBPF_OPTS(bpf_trace_opts, opts, .cookie = cookie);

	if (prog_unusable(p, prog, h->why, sizeof(h->why)))
		return;
	h->links[0] = bpf_program__attach_trace_opts(prog, &opts);
	if (!h->links[0]) {
		snprintf(h->why, sizeof(h->why), "attach failed: %s", strerror(errno));
		return;
	}
	h->links[1] = h->links[0];
	h->attached = true;
}

static void attach_hook(struct trace_plan *p, struct trace_bpf *skel, int i)
{
	LIBBPF_OPTS(bpf_raw_tracepoint_opts, topts);
	struct hook *h = &p->hooks[i];
	struct bpf_program *prog = tp_program(skel, h->prog);
	struct bpf_program *exit = tp_exit_program(skel, h->prog);
	char why[sizeof(h->why)];

	if (h->kind == HOOK_FUNC) {
		attach_func(p, skel, i);
		return;
	}
	if (h->kind == HOOK_FENTRY) {
		attach_own_fentry(p, h, prog, TRACE_COOKIE(i, 0, h->flags));
		return;
	}
	if (prog_unusable(p, prog, why, sizeof(why)) ||
	    (exit && prog_unusable(p, exit, why, sizeof(why)))) {
		snprintf(h->why, sizeof(h->why), "%s", why);
		return;
	}
	if (h->prog == TP_DEV_IRQ && trace_fill_irq_devs(bpf_map__fd(skel->maps.irq_devs)) <= 0) {
		snprintf(h->why, sizeof(h->why), "no IRQ of a PCI function is its own");
		return;
	}
	topts.cookie = TRACE_COOKIE(i, 0, h->flags);
	/* the exit first: an entry is never left without its exit */
	h->links[1] = exit ? bpf_program__attach_raw_tracepoint_opts(exit, "irq_handler_exit",
								      &topts) : NULL;
	if (!exit || h->links[1])
		h->links[0] = bpf_program__attach_raw_tracepoint_opts(prog, h->target, &topts);
	if (!exit)
		h->links[1] = h->links[0];
	if (h->links[0] && h->links[1]) {
		h->attached = true;
		return;
	}
	snprintf(h->why, sizeof(h->why), "attach failed: %s", strerror(errno));
	if (h->links[1] != h->links[0])
		bpf_link__destroy(h->links[1]);
	bpf_link__destroy(h->links[0]);
	h->links[0] = h->links[1] = NULL;
}

/* Once a second: IRQs allocated or freed since, for dev_irq. */
void refresh_irq_devs(struct trace_session *s)
{
	const struct trace_plan *p = s->plan;
	int i;

	for (i = 0; i < p->nr_hooks; i++)
		if (p->hooks[i].attached && p->hooks[i].kind == HOOK_TP &&
		    p->hooks[i].prog == TP_DEV_IRQ)
			trace_fill_irq_devs(bpf_map__fd(s->skel->maps.irq_devs));
}

/* The system calls of each operation (x86-64 numbers from the C library). */
static const struct { int nr; enum trace_sys_op op; } sys_numbers[] = {
	{ __NR_open, TRACE_SYS_OPEN }, { __NR_openat, TRACE_SYS_OPEN },
#ifdef __NR_openat2
	{ __NR_openat2, TRACE_SYS_OPEN },
#endif
	{ __NR_close, TRACE_SYS_CLOSE },
	{ __NR_read, TRACE_SYS_READ }, { __NR_pread64, TRACE_SYS_READ },
	{ __NR_write, TRACE_SYS_WRITE }, { __NR_pwrite64, TRACE_SYS_WRITE },
	{ __NR_ioctl, TRACE_SYS_IOCTL }, { __NR_mmap, TRACE_SYS_MMAP },
	{ __NR_poll, TRACE_SYS_POLL }, { __NR_ppoll, TRACE_SYS_POLL },
};

/* Every hook traced by its system calls: one enter and one exit link. */
static void attach_syscalls(struct trace_plan *p, struct trace_bpf *skel,
			    struct trace_links *l)
{
	struct bpf_link **sys_links = l->sys;
	bool ops[TRACE_SYS_NR] = {}, any = false;
	char why[sizeof(p->hooks[0].why)] = "";
	int i, k;

	for (i = 0; i < p->nr_hooks; i++) {
		struct hook *h = &p->hooks[i];

		if (!h->target || h->attached || h->via != VIA_SYSCALL)
			continue;
		skel->bss->sys_cookies[h->dev_class][h->sys_op] =
			TRACE_COOKIE(i, h->arg, h->flags);
		ops[h->sys_op] = any = true;
	}
	if (!any)
		return;
	for (i = 0; i < (int)(sizeof(sys_numbers) / sizeof(sys_numbers[0])); i++)
		if (sys_numbers[i].nr < TRACE_SYSCALLS && ops[sys_numbers[i].op])
			skel->bss->sys_ops[sys_numbers[i].nr] = sys_numbers[i].op;
	for (i = 0; i < p->nr_sys_devs; i++)
		bpf_map__update_elem(skel->maps.sys_devs, &p->sys_dev_keys[i], sizeof(__u32),
				     &p->sys_dev_classes[i], sizeof(__u32), BPF_ANY);
	if (!prog_unusable(p, skel->progs.tp_sys_enter, why, sizeof(why)) &&
	    !prog_unusable(p, skel->progs.tp_sys_exit, why, sizeof(why))) {
		/* the exit first: an enter is never left without its exit */
		sys_links[1] = bpf_program__attach_raw_tracepoint(skel->progs.tp_sys_exit,
								  "sys_exit");
		sys_links[0] = sys_links[1] ?
			bpf_program__attach_raw_tracepoint(skel->progs.tp_sys_enter,
							   "sys_enter") : NULL;
		if (!sys_links[0])
			snprintf(why, sizeof(why), "attach failed: %s", strerror(errno));
	}
	for (i = 0; i < p->nr_hooks; i++) {
		struct hook *h = &p->hooks[i];
		size_t n = strlen(h->why);

		if (!h->target || h->attached || h->via != VIA_SYSCALL)
			continue;
		h->attached = !!sys_links[0];
		if (!h->attached)
			snprintf(h->why + n, sizeof(h->why) - n, "%ssyscall: %s",
				 n ? "; " : "", why);
	}
	if (!sys_links[0]) {
		for (k = 0; k < 2; k++) {
			bpf_link__destroy(sys_links[k]);
			sys_links[k] = NULL;
		}
	}
}

/*
 * Interrupt context from tracepoints (trace_irqtp.bpf.o): every entry and
 * exit of a hard interrupt handler, x86 system vector and softirq moves a
 * depth per CPU. Their number, for --list; 0 if none could attach.
 */

/*
 * Both ends of tracepoint pair @base (_entry, _exit), to @exit and @entry:
 * 1, 0 if absent, -1
 */
static int attach_irq_pair(struct trace_links *l, struct bpf_program *exit,
			   struct bpf_program *entry, const char *base)
{
	struct bpf_program *progs[2] = { exit, entry };
	const char *ends[2] = { "exit", "entry" };
	char name[64];
	int k;

	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "%s_%s", base, ends[k]);
		if (!tracepoint_exists(NULL, name))
			return 0;
	}
	if (l->nr_irq + 2 > (int)(sizeof(l->irq) / sizeof(l->irq[0])))
		return 0;
	/* the exit first: a depth is never raised without its way down */
	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "%s_%s", base, ends[k]);
		l->irq[l->nr_irq] = bpf_program__attach_raw_tracepoint(progs[k], name);
		if (!l->irq[l->nr_irq]) {
			snprintf(l->irq_why, sizeof(l->irq_why), "%s: %s", name,
				 strerror(errno));
			return -1;
		}
		l->nr_irq++;
	}
	return 1;
}

static void attach_irq_context(struct trace_plan *p, struct trace_bpf *skel,
			       struct trace_links *l)
{
	char *irq_why = l->irq_why;
	size_t sz = sizeof(l->irq_why);
	static const char *const hard[] = {
		"irq_handler", "local_timer", "irq_work", "call_function",
		"call_function_single", "reschedule", "thermal_apic",
		"x86_platform_ipi", "error_apic", "spurious_apic",
	};
	int i;

	irq_why[0] = '\0';
	if (!p->irq_from_tracepoints || !bpf_program__autoload(skel->progs.tp_hardirq_enter) ||
	    prog_unusable(p, skel->progs.tp_hardirq_enter, irq_why, sz) ||
	    prog_unusable(p, skel->progs.tp_hardirq_exit, irq_why, sz) ||
	    prog_unusable(p, skel->progs.tp_softirq_enter, irq_why, sz) ||
	    prog_unusable(p, skel->progs.tp_softirq_exit, irq_why, sz))
		return;
	for (i = 0; i < (int)(sizeof(hard) / sizeof(hard[0])); i++)
		attach_irq_pair(l, skel->progs.tp_hardirq_exit, skel->progs.tp_hardirq_enter,
				hard[i]);
	/*
	 * PREEMPT_RT serves softirqs in tasks, told by the task's count, not
	 * the depth: their programs would only run preemptible there, and one
	 * preempted would make the kernel skip the hard ones on its CPU.
	 */
	if (kernel_struct_has("task_struct", "softirq_disable_cnt") <= 0)
		attach_irq_pair(l, skel->progs.tp_softirq_exit, skel->progs.tp_softirq_enter,
				"softirq");
}

/* How interrupt context is told apart in this session, in words. */
void irq_context(const struct trace_session *s, char *buf, size_t size)
{
	const struct trace_links *l = s->links;

	if (!s->plan->irq_from_tracepoints)
		snprintf(buf, size, "told by the preempt count (a percpu ksym)");
	else if (l->nr_irq)
		snprintf(buf, size, "told by %d irq, softirq and x86 vector tracepoints%s",
			 l->nr_irq, s->opts->irq_tracepoints ? "" :
			 " (percpu ksyms cannot be resolved here)");
	else if (l->irq_why[0])
		snprintf(buf, size, "not told apart: %s", l->irq_why);
	else
		snprintf(buf, size, "not needed (no hook here fires in one)");
}

/* bpfdrv's file operations: one link to bpfdrv_fop, a cookie per op. */
static void attach_fops(struct trace_plan *p, struct trace_bpf *skel, struct trace_links *l)
{
	char why[sizeof(p->hooks[0].why)] = "";
	int i, n = 0;

	for (i = 0; i < p->nr_hooks; i++) {
		const struct hook *h = &p->hooks[i];

		if (fop_traced(h)) {
			skel->bss->fop_cookies[h->fop - 1] = TRACE_COOKIE(i, h->arg, h->flags);
			n++;
		}
	}
	if (!n)
		return;
	if (!prog_unusable(p, skel->progs.tp_bpfdrv_fop, why, sizeof(why))) {
		l->fop = bpf_program__attach_raw_tracepoint(skel->progs.tp_bpfdrv_fop,
							    "bpfdrv_fop");
		snprintf(why, sizeof(why), "%s", strerror(errno));
	}
	for (i = 0; i < p->nr_hooks; i++) {
		struct hook *h = &p->hooks[i];

		if (!fop_traced(h))
			continue;
		h->attached = !!l->fop;
		if (l->fop)
			continue;
		/* the system calls on the driver's node instead */
		snprintf(h->why, sizeof(h->why), "tracepoint: %s", why);
		use_syscalls(p, h);
	}
}

/* Every kprobe.multi function in two links; false (and why) if refused. */
static bool attach_multi(struct trace_plan *p, struct trace_bpf *skel, struct trace_links *l,
			 char *why, size_t size)
{
	const char *syms[TRACE_MAX_HOOKS];
	__u64 cookies[TRACE_MAX_HOOKS];
	int i, n = 0, k;

	for (i = 0; i < p->nr_hooks; i++) {
		const struct hook *h = &p->hooks[i];

		if (h->kind != HOOK_FUNC || !h->target || h->via != VIA_MULTI)
			continue;
		syms[n] = h->target;
		cookies[n++] = TRACE_FUNC_COOKIE(i, h->arg, h->flags, func_slot(p, i));
	}
	if (!n)
		return true;
	for (k = 0; k < (p->count_only ? 1 : 2); k++) {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, mopts, .syms = syms,
			    .cookies = cookies, .cnt = n, .retprobe = k);
		struct bpf_program *prog = k ? skel->progs.func_mexit : skel->progs.func_mentry;

		if (prog_unusable(p, prog, why, size))
			return false;
		l->multi[k] = bpf_program__attach_kprobe_multi_opts(prog, NULL, &mopts);
		if (!l->multi[k]) {
			snprintf(why, size, "%s", strerror(errno));
			return false;
		}
	}
	for (i = 0; i < p->nr_hooks; i++)
		if (p->hooks[i].kind == HOOK_FUNC && p->hooks[i].target &&
		    p->hooks[i].via == VIA_MULTI)
			p->hooks[i].attached = true;
	return true;
}

/* The fork tracepoint that follows a traced process's children: 0, or -1. */
int attach_fork(struct trace_session *s)
{
	char why[128] = "";

	if (!prog_unusable(s->plan, s->skel->progs.trace_fork, why, sizeof(why))) {
		s->skel->links.trace_fork = bpf_program__attach(s->skel->progs.trace_fork);
		snprintf(why, sizeof(why), "%s", strerror(errno));
	}
	if (!s->skel->links.trace_fork) {
		err("cannot follow the forks of process %u: %s", s->opts->pid, why);
		return -1;
	}
	return 0;
}

int attach_hooks(struct trace_session *s)
{
	struct trace_plan *p = s->plan;
	struct trace_bpf *skel = s->skel;
	struct trace_links *l = calloc(1, sizeof(*l));
	char why[sizeof(p->hooks[0].why) / 2] = "";
	double t0 = now_s();
	int i;

	if (!l) {
		err("out of memory");
		return -1;
	}
	s->links = l;
	attach_irq_context(p, skel, l);
	if (!attach_multi(p, skel, l, why, sizeof(why))) {
		/*
		 * one function the kernel refuses fails them all: each is
		 * tried alone (attach_func), then the ways after it
		 */
		bpf_link__destroy(l->multi[0]);
		bpf_link__destroy(l->multi[1]);
		l->multi[0] = l->multi[1] = NULL;
	}
	attach_fops(p, skel, l);
	p->t_attach_func += now_s() - t0;
	for (i = 0; i < p->nr_hooks; i++) {
		const struct hook *h = &p->hooks[i];
		double t0 = now_s();

		if (!h->target || h->kind == HOOK_LAT || h->attached ||
		    h->kind == HOOK_SYS || h->via == VIA_FOP ||
		    (h->kind == HOOK_FUNC && h->via == VIA_SYSCALL))
			continue;
		attach_hook(p, skel, i);
		if (h->kind == HOOK_FUNC)
			p->t_attach_func += now_s() - t0;
	}
	attach_syscalls(p, skel, l);
	/* A latency is measured when both of its events are. */
	for (i = 0; i < p->nr_hooks; i++) {
		struct hook *h = &p->hooks[i];
		const struct hook *a = &p->hooks[h->needs[0]], *b = &p->hooks[h->needs[1]];

		if (h->kind != HOOK_LAT || !(h->group & p->groups))
			continue;
		if (a->attached && b->attached) {
			h->attached = true;
			h->target = b->target;
		} else if (h->needs[0] == h->needs[1]) {
			snprintf(h->why, sizeof(h->why), "needs %s", a->name);
		} else {
			snprintf(h->why, sizeof(h->why), "needs %s and %s", a->name, b->name);
		}
	}
	return 0;
}

/* The hooks that attached and are not latencies (pairs of others). */
int attached_hooks(const struct trace_plan *p)
{
	int i, n = 0;

	for (i = 0; i < p->nr_hooks; i++)
		if (p->hooks[i].attached && p->hooks[i].kind != HOOK_LAT)
			n++;
	return n;
}

void detach_hooks(struct trace_session *s)
{
	struct trace_plan *p = s->plan;
	struct trace_links *l = s->links;
	int i;

	if (l) {
		bpf_link__destroy(l->multi[0]);
		bpf_link__destroy(l->multi[1]);
		bpf_link__destroy(l->fop);
		for (i = 0; i < 2; i++)
			bpf_link__destroy(l->sys[i]);
		while (l->nr_irq > 0)
			bpf_link__destroy(l->irq[--l->nr_irq]);
		free(l);
		s->links = NULL;
	}
	for (i = 0; p && i < p->nr_hooks; i++) {
		struct hook *h = &p->hooks[i];

		if (h->links[1] != h->links[0])
			bpf_link__destroy(h->links[1]);
		if (h->kind != HOOK_LAT)
			bpf_link__destroy(h->links[0]);
		h->links[0] = h->links[1] = NULL;
		close_fds(h->link_fds, 2);
		close_fds(h->prog_fds, 2);
	}
}

/* --- what the attached programs missed, as the kernel counts it --- */

static __u64 prog_misses(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return fd >= 0 && !bpf_prog_get_info_by_fd(fd, &info, &len) ?
	       info.recursion_misses : 0;
}

static __u64 kprobe_misses(struct bpf_link *link)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);

	if (!link || bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len))
		return 0;
	if (info.type == BPF_LINK_TYPE_KPROBE_MULTI)
		return info.kprobe_multi.missed;
	if (info.type != BPF_LINK_TYPE_PERF_EVENT ||
	    (info.perf_event.type != BPF_PERF_EVENT_KPROBE &&
	     info.perf_event.type != BPF_PERF_EVENT_KRETPROBE))
		return 0;
	return info.perf_event.kprobe.missed;
}

/*
 * Program runs the kernel skipped (recursion), and kprobe misses (a
 * kretprobe has a fixed number of instances for calls in flight).
 */
void attach_missed(const struct trace_session *s, __u64 *recursion, __u64 *probe)
{
	const struct trace_plan *p = s->plan;
	struct bpf_program *prog;
	__u64 skipped = 0;
	int i, k;

	*probe = 0;
	bpf_object__for_each_program(prog, s->skel->obj)
		skipped += prog_misses(bpf_program__fd(prog));
	*recursion = skipped;
	for (i = 0; i < p->nr_hooks; i++) {
		const struct hook *h = &p->hooks[i];

		if (h->kind != HOOK_FUNC)
			continue;
		for (k = 0; k < 2; k++) {
			if (i != p->fentry_loaded_for)	/* a dup of a skeleton program */
				*recursion += prog_misses(h->prog_fds[k]);
			if (!k || h->links[1] != h->links[0])
				*probe += kprobe_misses(h->links[k]);
		}
	}
	if (s->links)
		*probe += kprobe_misses(s->links->multi[0]) + kprobe_misses(s->links->multi[1]);
}
