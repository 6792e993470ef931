// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: loading the programs the probed hooks need and attaching
 * each hook the best way the kernel allows, falling back hook by hook
 * (fentry, kprobes, the system call that stands for a function); and what
 * could not be recorded, from the programs and the kernel's counters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "hooks.h"
#include "trace.skel.h"

/*
 * Programs the kernel refused on their own, and why: the hooks that use
 * them are skipped (or traced another way), the others load.
 */

static const char *refused_why(struct trace_plan *p, const char *name)
{
	int i;

	for (i = 0; i < p->nr_refused; i++)
		if (!strcmp(p->refused[i].name, name))
			return p->refused[i].why;
	return NULL;
}

/*
 * BPFDRV_TRACE_REFUSE=prog,...: treat these programs as refused by the
 * kernel, so that tests reach every fallback on any kernel.
 */
void refuse_for_tests(struct trace_plan *p)
{
	const char *env = getenv("BPFDRV_TRACE_REFUSE");
	char buf[512], *tok, *save = NULL;

	p->nr_refused = 0;
	if (!env)
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok && p->nr_refused < 16;
	     tok = strtok_r(NULL, ",", &save)) {
		snprintf(p->refused[p->nr_refused].name, sizeof(p->refused[0].name), "%s", tok);
		snprintf(p->refused[p->nr_refused++].why, sizeof(p->refused[0].why),
			 "(BPFDRV_TRACE_REFUSE)");
	}
}

/* Is @prog not loaded? Then why, in @why. */
bool prog_unusable(struct trace_plan *p, const struct bpf_program *prog, char *why, size_t size)
{
	const char *r;

	if (bpf_program__fd(prog) >= 0)
		return false;
	r = refused_why(p, bpf_program__name(prog));
	snprintf(why, size, "program %s %s%s", bpf_program__name(prog),
		 r ? "p->refused: " : "not loaded", r ? r : "");
	return true;
}

static struct bpf_program *tp_program(struct trace_bpf *skel, enum tp_prog p)
{
	switch (p) {
	case TP_COUNT: return skel->progs.tp_count;
	case TP_STR_COUNT: return skel->progs.tp_str_count;
	case TP_SCHED_QUEUE: return skel->progs.tp_sched_queue;
	case TP_SCHED_RUN: return skel->progs.tp_sched_run;
	case TP_SCHED_DONE: return skel->progs.tp_sched_done;
	case TP_FENCE_INIT: return skel->progs.tp_fence_init;
	case TP_FENCE_EMIT: return skel->progs.tp_fence_emit;
	case TP_FENCE_SIGNALED: return skel->progs.tp_fence_signaled;
	case TP_FENCE_DESTROY: return skel->progs.tp_fence_destroy;
	case TP_VPU_JOB: return skel->progs.tp_vpu_job;
	case TP_XID: return skel->progs.tp_xid;
	case TP_IRQ_NAMED: return skel->progs.tp_irq_handler_entry;
	case TP_DMA: return skel->progs.tp_dma;
	case TP_DMA_SIZE2: return skel->progs.tp_dma_size2;
	case TP_DMA_SIZE3: return skel->progs.tp_dma_size3;
	case TP_IOMMU_FAULT: return skel->progs.tp_iommu_fault;
	case FN_IOPF_REPORT: return skel->progs.fn_iopf_report;
	case FN_IOPF_RESPONSE: return skel->progs.fn_iopf_response;
	case TP_DEV_IRQ: return skel->progs.tp_devirq_entry;
	}
	return NULL;
}

/* The irq_handler_exit program of a hook timed from irq_handler_entry. */
static struct bpf_program *tp_exit_program(struct trace_bpf *skel, enum tp_prog p)
{
	switch (p) {
	case TP_IRQ_NAMED: return skel->progs.tp_irq_handler_exit;
	case TP_DEV_IRQ: return skel->progs.tp_devirq_exit;
	default: return NULL;
	}
}

/*
 * Load only the programs some present hook uses: the others may need
 * module types (CO-RE) that are not there. func_fentry/func_fexit are
 * loaded for the first function that fentry can trace and copied for the
 * others (an fentry program names its one target when it is loaded); the
 * kprobe pair is the fallback for whatever fentry cannot attach to.
 */
static const struct hook *fentry_loaded_for;

int set_autoload(struct trace_plan *p, struct trace_bpf *skel, bool follow)
{
	struct bpf_program *prog;
	bool funcs = false, drm = false, fops = false, sys = false, irqs = false;
	const struct hook *first = NULL;
	int i;

	fentry_loaded_for = NULL;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	for (i = 0; i < NR_HOOKS; i++) {
		const struct hook *h = &hooks[i];

		if (!h->target)
			continue;
		/* a function hook falls back to its system call */
		sys |= h->sys_op != TRACE_SYS_NONE;
		drm |= h->arg == TRACE_ARG_IOCTL_NR;
		if (fop_traced(h)) {
			fops = true;
		} else if (h->kind == HOOK_FUNC && h->via != VIA_SYSCALL) {
			funcs = true;
			irqs = true;
			if (h->via == VIA_FENTRY && h->btf_id && !first)
				first = h;
		} else if (h->kind == HOOK_FENTRY) {
			irqs = true;
			prog = tp_program(skel, h->prog);
			bpf_program__set_autoload(prog, true);
			if (bpf_program__set_attach_target(prog, 0, h->target))
				return -1;
		} else if (h->kind == HOOK_TP) {
			irqs = true;
			bpf_program__set_autoload(tp_program(skel, h->prog), true);
			if (tp_exit_program(skel, h->prog))
				bpf_program__set_autoload(tp_exit_program(skel, h->prog), true);
		}
	}
	bpf_program__set_autoload(skel->progs.tp_sys_enter, sys);
	bpf_program__set_autoload(skel->progs.tp_sys_exit, sys);
	bpf_program__set_autoload(skel->progs.tp_hardirq_enter, irqs && p->irq_from_tracepoints);
	bpf_program__set_autoload(skel->progs.tp_hardirq_exit, irqs && p->irq_from_tracepoints);
	bpf_program__set_autoload(skel->progs.tp_softirq_enter, irqs && p->irq_from_tracepoints);
	bpf_program__set_autoload(skel->progs.tp_softirq_exit, irqs && p->irq_from_tracepoints);
	bpf_program__set_autoload(skel->progs.func_entry, funcs);
	bpf_program__set_autoload(skel->progs.func_exit, funcs && !p->count_only);
	bpf_program__set_autoload(skel->progs.func_mentry, funcs && p->func_via == VIA_MULTI);
	bpf_program__set_autoload(skel->progs.func_mexit,
				  funcs && p->func_via == VIA_MULTI && !p->count_only);
	bpf_program__set_autoload(skel->progs.tp_bpfdrv_fop, fops);
	bpf_program__set_autoload(skel->progs.trace_fork, follow);
	bpf_program__set_autoload(skel->progs.find_ksym, drm);
	if (!first)
		return 0;
	bpf_program__set_autoload(skel->progs.func_fentry, true);
	bpf_program__set_autoload(skel->progs.func_fexit, !p->count_only);
	if (bpf_program__set_attach_target(skel->progs.func_fentry, 0, first->target) ||
	    (!p->count_only &&
	     bpf_program__set_attach_target(skel->progs.func_fexit, 0, first->target)))
		return -1;
	fentry_loaded_for = first;
	return 0;
}

/* func_fentry or func_fexit for hook @h: the loaded one or a copy. */
static int fentry_prog(struct bpf_program *tmpl, const struct hook *h)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = bpf_program__expected_attach_type(tmpl),
		.attach_btf_id = h->btf_id,
		.attach_btf_obj_fd = h->btf_obj_fd,
	);

	if (h == fentry_loaded_for)
		return dup(bpf_program__fd(tmpl));
	return bpf_prog_load(BPF_PROG_TYPE_TRACING, bpf_program__name(tmpl), "GPL",
			     bpf_program__insns(tmpl), bpf_program__insn_cnt(tmpl),
			     &opts);
}

/* 0, or why fentry/fexit cannot trace @h (an errno, in @why) */
static int attach_fentry(struct trace_plan *p, struct trace_bpf *skel, struct hook *h, __u64 cookie,
			 char *why, size_t size)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .tracing.cookie = cookie);
	struct bpf_program *tmpl[2] = { skel->progs.func_fentry, skel->progs.func_fexit };
	int k;

	for (k = 0; k < (p->count_only ? 1 : 2); k++) {
		double t0 = now_s();

		if (prog_unusable(p, tmpl[k], why, size))
			return -1;
		h->prog_fds[k] = fentry_prog(tmpl[k], h);
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

/* A function hook's slot for calls in flight: its rank among them. */
int func_slot(int i)
{
	int j, slot = 0;

	for (j = 0; j < i; j++)
		slot += hooks[j].kind == HOOK_FUNC;
	return slot;
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

/*
 * A function hook: fentry where it was chosen, else kprobes, else the
 * system call that stands for it (attached with the others later). Why
 * each way failed stays in h->why, for --list.
 */
static void attach_func(struct trace_plan *p, struct trace_bpf *skel, int i)
{
	struct hook *h = &hooks[i];
	__u64 cookie = TRACE_FUNC_COOKIE(i, h->arg, h->flags, func_slot(i));
	char why[sizeof(h->why)] = "";
	size_t n;

	if (h->via == VIA_FENTRY && h->btf_id) {
		if (!attach_fentry(p, skel, h, cookie, why, sizeof(why))) {
			h->attached = true;
			return;
		}
		snprintf(h->why, sizeof(h->why), "fentry: %s; ", why);
	}
	close_fds(h->link_fds, 2);
	close_fds(h->prog_fds, 2);
	h->via = VIA_KPROBE;
	n = strlen(h->why);	/* after the earlier ways' reasons */
	if (!attach_kprobes(p, skel, h, cookie, why, sizeof(why))) {
		h->attached = true;
		return;
	}
	snprintf(h->why + n, sizeof(h->why) - n, "kprobe: %s", why);
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
	struct hook *h = &hooks[i];
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
void refresh_irq_devs(struct trace_bpf *skel)
{
	int i;

	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].attached && hooks[i].kind == HOOK_TP && hooks[i].prog == TP_DEV_IRQ)
			trace_fill_irq_devs(bpf_map__fd(skel->maps.irq_devs));
}

static struct bpf_link *sys_links[2];

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
static void attach_syscalls(struct trace_plan *p, struct trace_bpf *skel)
{
	bool ops[TRACE_SYS_NR] = {}, any = false;
	char why[sizeof(hooks[0].why)] = "";
	int i, k;

	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

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
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];
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
static struct bpf_link *irq_links[32];
static int nr_irq_links;
static char irq_why[128];

/*
 * Both ends of tracepoint pair @base (_entry, _exit), to @exit and @entry:
 * 1, 0 if absent, -1
 */
static int attach_irq_pair(struct bpf_program *exit, struct bpf_program *entry,
			   const char *base)
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
	if (nr_irq_links + 2 > (int)(sizeof(irq_links) / sizeof(irq_links[0])))
		return 0;
	/* the exit first: a depth is never raised without its way down */
	for (k = 0; k < 2; k++) {
		snprintf(name, sizeof(name), "%s_%s", base, ends[k]);
		irq_links[nr_irq_links] = bpf_program__attach_raw_tracepoint(progs[k], name);
		if (!irq_links[nr_irq_links]) {
			snprintf(irq_why, sizeof(irq_why), "%s: %s", name, strerror(errno));
			return -1;
		}
		nr_irq_links++;
	}
	return 1;
}

static void attach_irq_context(struct trace_plan *p, struct trace_bpf *skel)
{
	static const char *const hard[] = {
		"irq_handler", "local_timer", "irq_work", "call_function",
		"call_function_single", "reschedule", "thermal_apic",
		"x86_platform_ipi", "error_apic", "spurious_apic",
	};
	int i;

	irq_why[0] = '\0';
	if (!p->irq_from_tracepoints || !bpf_program__autoload(skel->progs.tp_hardirq_enter) ||
	    prog_unusable(p, skel->progs.tp_hardirq_enter, irq_why, sizeof(irq_why)) ||
	    prog_unusable(p, skel->progs.tp_hardirq_exit, irq_why, sizeof(irq_why)) ||
	    prog_unusable(p, skel->progs.tp_softirq_enter, irq_why, sizeof(irq_why)) ||
	    prog_unusable(p, skel->progs.tp_softirq_exit, irq_why, sizeof(irq_why)))
		return;
	for (i = 0; i < (int)(sizeof(hard) / sizeof(hard[0])); i++)
		attach_irq_pair(skel->progs.tp_hardirq_exit, skel->progs.tp_hardirq_enter,
				hard[i]);
	/*
	 * PREEMPT_RT serves softirqs in tasks, told by the task's count, not
	 * the depth: their programs would only run preemptible there, and one
	 * preempted would make the kernel skip the hard ones on its CPU.
	 */
	if (kernel_struct_has("task_struct", "softirq_disable_cnt") <= 0)
		attach_irq_pair(skel->progs.tp_softirq_exit, skel->progs.tp_softirq_enter,
				"softirq");
}


static struct bpf_link *multi_links[2];
/* How interrupt context is told apart in this session, in words. */
void irq_context(struct trace_plan *p, const struct trace_opts *o, char *buf, size_t size)
{
	if (!p->irq_from_tracepoints)
		snprintf(buf, size, "told by the preempt count (a percpu ksym)");
	else if (nr_irq_links)
		snprintf(buf, size, "told by %d irq, softirq and x86 vector tracepoints%s",
			 nr_irq_links, o->irq_tracepoints ? "" :
			 " (percpu ksyms cannot be resolved here)");
	else if (irq_why[0])
		snprintf(buf, size, "not told apart: %s", irq_why);
	else
		snprintf(buf, size, "not needed (no hook here fires in one)");
}

static struct bpf_link *fop_link;

/* bpfdrv's file operations: one link to bpfdrv_fop, a cookie per op. */
static void attach_fops(struct trace_plan *p, struct trace_bpf *skel)
{
	char why[sizeof(hooks[0].why)] = "";
	int i, n = 0;

	for (i = 0; i < NR_HOOKS; i++) {
		const struct hook *h = &hooks[i];

		if (fop_traced(h)) {
			skel->bss->fop_cookies[h->fop - 1] = TRACE_COOKIE(i, h->arg, h->flags);
			n++;
		}
	}
	if (!n)
		return;
	if (!prog_unusable(p, skel->progs.tp_bpfdrv_fop, why, sizeof(why))) {
		fop_link = bpf_program__attach_raw_tracepoint(skel->progs.tp_bpfdrv_fop,
							      "bpfdrv_fop");
		snprintf(why, sizeof(why), "%s", strerror(errno));
	}
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (!fop_traced(h))
			continue;
		h->attached = !!fop_link;
		if (fop_link)
			continue;
		/* the system calls on the driver's node instead */
		snprintf(h->why, sizeof(h->why), "tracepoint: %s", why);
		use_syscalls(p, h);
	}
}

/* Every kprobe.multi function in two links; false (and why) if refused. */
static bool attach_multi(struct trace_plan *p, struct trace_bpf *skel, char *why, size_t size)
{
	const char *syms[TRACE_MAX_HOOKS];
	__u64 cookies[TRACE_MAX_HOOKS];
	int i, n = 0, k;

	for (i = 0; i < NR_HOOKS; i++) {
		const struct hook *h = &hooks[i];

		if (h->kind != HOOK_FUNC || !h->target || h->via != VIA_MULTI)
			continue;
		syms[n] = h->target;
		cookies[n++] = TRACE_FUNC_COOKIE(i, h->arg, h->flags, func_slot(i));
	}
	if (!n)
		return true;
	for (k = 0; k < (p->count_only ? 1 : 2); k++) {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, mopts, .syms = syms,
			    .cookies = cookies, .cnt = n, .retprobe = k);
		struct bpf_program *prog = k ? skel->progs.func_mexit : skel->progs.func_mentry;

		if (prog_unusable(p, prog, why, size))
			return false;
		multi_links[k] = bpf_program__attach_kprobe_multi_opts(prog, NULL, &mopts);
		if (!multi_links[k]) {
			snprintf(why, size, "%s", strerror(errno));
			return false;
		}
	}
	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].kind == HOOK_FUNC && hooks[i].target &&
		    hooks[i].via == VIA_MULTI)
			hooks[i].attached = true;
	return true;
}

void attach_hooks(struct trace_plan *p, struct trace_bpf *skel)
{
	char why[sizeof(hooks[0].why) / 2] = "";
	double t0 = now_s();
	int i;

	attach_irq_context(p, skel);
	if (!attach_multi(p, skel, why, sizeof(why))) {
		/* one function the kernel refuses fails them all: go one by one */
		bpf_link__destroy(multi_links[0]);
		bpf_link__destroy(multi_links[1]);
		multi_links[0] = multi_links[1] = NULL;
		for (i = 0; i < NR_HOOKS; i++) {
			if (hooks[i].via != VIA_MULTI)
				continue;
			hooks[i].via = VIA_KPROBE;
			snprintf(hooks[i].why, sizeof(hooks[i].why), "kprobe.multi: %s; ",
				 why);
		}
	}
	attach_fops(p, skel);
	p->t_attach_func += now_s() - t0;
	for (i = 0; i < NR_HOOKS; i++) {
		double t0 = now_s();

		if (!hooks[i].target || hooks[i].kind == HOOK_LAT || hooks[i].attached ||
		    hooks[i].kind == HOOK_SYS || hooks[i].via == VIA_FOP ||
		    (hooks[i].kind == HOOK_FUNC && hooks[i].via == VIA_SYSCALL))
			continue;
		attach_hook(p, skel, i);
		if (hooks[i].kind == HOOK_FUNC)
			p->t_attach_func += now_s() - t0;
	}
	attach_syscalls(p, skel);
	/* A latency is measured when both of its events are. */
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (h->kind != HOOK_LAT || !(h->group & p->groups))
			continue;
		if (hooks[h->needs[0]].attached && hooks[h->needs[1]].attached) {
			h->attached = true;
			h->target = hooks[h->needs[1]].target;
		} else if (h->needs[0] == h->needs[1]) {
			snprintf(h->why, sizeof(h->why), "needs %s",
				 hooks[h->needs[0]].name);
		} else {
			snprintf(h->why, sizeof(h->why), "needs %s and %s",
				 hooks[h->needs[0]].name, hooks[h->needs[1]].name);
		}
	}
}

void detach_hooks(void)
{
	int i;

	bpf_link__destroy(multi_links[0]);
	bpf_link__destroy(multi_links[1]);
	multi_links[0] = multi_links[1] = NULL;
	bpf_link__destroy(fop_link);
	fop_link = NULL;
	for (i = 0; i < 2; i++) {
		bpf_link__destroy(sys_links[i]);
		sys_links[i] = NULL;
	}
	while (nr_irq_links > 0)
		bpf_link__destroy(irq_links[--nr_irq_links]);
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (h->links[1] != h->links[0])
			bpf_link__destroy(h->links[1]);
		if (h->kind != HOOK_LAT)
			bpf_link__destroy(h->links[0]);
		h->links[0] = h->links[1] = NULL;
		close_fds(h->link_fds, 2);
		close_fds(h->prog_fds, 2);
	}
}

/* --- events that could not be recorded --- */

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
 * Everything that was not recorded: the programs' own counts (tables
 * full), programs the kernel skipped (recursion), and kprobe misses
 * (a kretprobe has a fixed number of instances for calls in flight).
 */
void trace_read_loss(struct trace_session *s, struct trace_loss *l)
{
	struct bpf_program *prog;
	int i, k;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < TRACE_LOST_NR; i++) {
		l->bpf[i] = s->skel->bss->lost[i];
		l->total += l->bpf[i];
	}
	bpf_object__for_each_program(prog, s->skel->obj)
		l->recursion += prog_misses(bpf_program__fd(prog));
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (h->kind != HOOK_FUNC)
			continue;
		for (k = 0; k < 2; k++) {
			if (h != fentry_loaded_for)	/* a dup of a skeleton program */
				l->recursion += prog_misses(h->prog_fds[k]);
			if (!k || h->links[1] != h->links[0])
				l->probe += kprobe_misses(h->links[k]);
		}
	}
	l->probe += kprobe_misses(multi_links[0]) + kprobe_misses(multi_links[1]);
	l->total += l->recursion + l->probe;
}
