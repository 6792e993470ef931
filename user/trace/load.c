// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: loading the programs. Only those some present hook uses
 * are loaded (the others may need module types, CO-RE, that are not
 * there); when the kernel refuses the object, each program is loaded
 * alone to find those it refuses, and the object is loaded without them:
 * a refused program costs only its hooks. Kernels that cannot resolve a
 * percpu ksym get the same programs built without one (trace_irqtp.bpf.o).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "btf.h"
#include "load.h"
#include "trace.skel.h"
#include "trace_irqtp.skel.h"

/* trace_irqtp.bpf.o stands in for trace.bpf.o: the same maps and data */
_Static_assert(sizeof(*((struct trace_bpf *)0)->bss) ==
	       sizeof(*((struct trace_irqtp_bpf *)0)->bss), "trace_irqtp .bss");
_Static_assert(sizeof(*((struct trace_bpf *)0)->rodata) ==
	       sizeof(*((struct trace_irqtp_bpf *)0)->rodata), "trace_irqtp .rodata");
_Static_assert(sizeof(((struct trace_bpf *)0)->maps) ==
	       sizeof(((struct trace_irqtp_bpf *)0)->maps), "trace_irqtp maps");
_Static_assert(sizeof(((struct trace_bpf *)0)->progs) ==
	       sizeof(((struct trace_irqtp_bpf *)0)->progs), "trace_irqtp programs");

/*
 * Programs the kernel refused on their own, and why: the hooks that use
 * them are skipped (or traced another way), the others load.
 */

static const char *refused_why(const struct trace_plan *p, const char *name)
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
bool prog_unusable(const struct trace_plan *p, const struct bpf_program *prog,
		   char *why, size_t size)
{
	const char *r;

	if (bpf_program__fd(prog) >= 0)
		return false;
	r = refused_why(p, bpf_program__name(prog));
	snprintf(why, size, "program %s %s%s", bpf_program__name(prog),
		 r ? "refused: " : "not loaded", r ? r : "");
	return true;
}

struct bpf_program *tp_program(struct trace_bpf *skel, enum tp_prog p)
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
struct bpf_program *tp_exit_program(struct trace_bpf *skel, enum tp_prog p)
{
	switch (p) {
	case TP_IRQ_NAMED: return skel->progs.tp_irq_handler_exit;
	case TP_DEV_IRQ: return skel->progs.tp_devirq_exit;
	default: return NULL;
	}
}

/*
 * Load only the programs some present hook uses: the others may need
 * module types (CO-RE) that are not there. Functions get the programs
 * of every way they may be tried in (choose_ways()), since each hook falls
 * back from one way to the next: func_fentry/func_fexit are loaded for the
 * first function that fentry can trace and copied for the others (an
 * fentry program names its one target when it is loaded), kprobe.multi's
 * where the kernel has fprobe, and the kprobe pair.
 */
static int set_autoload(struct trace_plan *p, struct trace_bpf *skel, bool follow)
{
	struct bpf_program *prog;
	bool funcs = false, drm = false, fops = false, sys = false, irqs = false;
	int i, first = -1;

	p->fentry_loaded_for = -1;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	for (i = 0; i < p->nr_hooks; i++) {
		const struct hook *h = &p->hooks[i];

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
			/* loaded where fentry is a hook's way or its fallback */
			if (h->btf_id && way_tried(p, VIA_FENTRY) && first < 0)
				first = i;
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
	bpf_program__set_autoload(skel->progs.func_mentry, funcs && way_tried(p, VIA_MULTI));
	bpf_program__set_autoload(skel->progs.func_mexit,
				  funcs && way_tried(p, VIA_MULTI) && !p->count_only);
	bpf_program__set_autoload(skel->progs.tp_bpfdrv_fop, fops);
	bpf_program__set_autoload(skel->progs.trace_fork, follow);
	bpf_program__set_autoload(skel->progs.find_ksym, drm);
	if (first < 0)
		return 0;
	bpf_program__set_autoload(skel->progs.func_fentry, true);
	bpf_program__set_autoload(skel->progs.func_fexit, !p->count_only);
	if (bpf_program__set_attach_target(skel->progs.func_fentry, 0, p->hooks[first].target) ||
	    (!p->count_only &&
	     bpf_program__set_attach_target(skel->progs.func_fexit, 0, p->hooks[first].target)))
		return -1;
	p->fentry_loaded_for = first;
	return 0;
}

/* A kernel symbol's address (0 if none), asked of kallsyms by find_ksym. */
static __u64 find_ksym(struct trace_bpf *skel, const char *name)
{
	struct trace_ksym args = {};
	/* a syscall program's context is copied back in place */
	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = &args,
		    .ctx_size_in = sizeof(args));
	int fd = bpf_program__fd(skel->progs.find_ksym);

	if (fd < 0 || strlen(name) >= sizeof(args.name))
		return 0;
	strcpy(args.name, name);
	if (bpf_prog_test_run_opts(fd, &topts) || topts.retval)
		return 0;
	return args.addr;
}

/*
 * Can this kernel resolve a percpu variable as a ksym (the preempt count)?
 * Not without CONFIG_KALLSYMS_ALL: the verifier then refuses every program
 * that names one ("ldimm64 failed to find the address"), so interrupts are
 * told from tracepoints by an object that names none (trace_irqtp.bpf.o).
 */
bool percpu_ksym_resolves(void)
{
	static const char *const vars[] = { "__preempt_count", "pcpu_hot" };
	struct btf *btf = kernel_btf(NULL, &(int){ 0 });
	struct bpf_insn insns[4] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_BTF_ID },
		{},
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int i, id = -1, fd;

	for (i = 0; i < 2 && id <= 0; i++)
		id = btf ? btf__find_by_name_kind(btf, vars[i], BTF_KIND_VAR) : -1;
	if (id <= 0)
		return false;	/* neither: the preempt count would read 0 */
	insns[0].imm = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "percpu_ksym", "GPL", insns, 4,
			   NULL);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * The per-CPU tables hold a copy of each row for every possible CPU, all
 * allocated at load and charged to the user's memory cgroup: on a server
 * with hundreds of CPUs (or a cloud VM with as many hotplug slots), full
 * size would take hundreds of MB, and fail to load in a container that
 * allows less. Each table keeps within its budget; a full table is counted
 * and reported (rows_full, procs_full), never silent.
 */
#define TRACE_HISTS_BUDGET	(32 << 20)
#define TRACE_PROCS_BUDGET	(16 << 20)
#define TRACE_MIN_ROWS		256

static void size_percpu_map(struct bpf_map *map, size_t value_size, size_t budget, int cpus)
{
	__u32 rows = bpf_map__max_entries(map);

	if (cpus > 0 && rows * value_size * cpus > budget)
		rows = budget / (value_size * cpus);
	bpf_map__set_max_entries(map, rows < TRACE_MIN_ROWS ? TRACE_MIN_ROWS : rows);
}

/* The object, opened and set up for this session's options and hooks. */
static struct trace_bpf *open_skel(struct trace_plan *p, const struct trace_opts *o)
{
	struct trace_bpf *skel = calloc(1, sizeof(*skel));
	struct bpf_program *prog;
	int i, e;

	if (!skel || trace_bpf__create_skeleton(skel))
		goto fail;
	/* the same source and layout, built without percpu ksyms */
	if (p->irq_from_tracepoints)
		skel->skeleton->data = trace_irqtp_bpf__elf_bytes(&skel->skeleton->data_sz);
	if (bpf_object__open_skeleton(skel->skeleton, NULL))
		goto fail;
	skel->rodata->targ_tgid = o->pid;
	skel->rodata->targ_follow = o->follow;
	skel->rodata->count_only = p->count_only;
	if (o->perfetto)
		skel->rodata->emit_events = true;
	else	/* the ring buffer stays, smallest */
		bpf_map__set_max_entries(skel->maps.events, getpagesize());
	size_percpu_map(skel->maps.hists, sizeof(struct trace_hist), TRACE_HISTS_BUDGET,
			libbpf_num_possible_cpus());
	size_percpu_map(skel->maps.procs, sizeof(struct trace_proc), TRACE_PROCS_BUDGET,
			libbpf_num_possible_cpus());
	if (o->comm) {
		skel->rodata->targ_comm_set = true;
		strncpy((char *)skel->rodata->targ_comm, o->comm, TRACE_COMM_LEN - 1);
	}
	/* NVIDIA's interrupt handlers are named after its module */
	strcpy((char *)skel->rodata->irq_name, "nvidia");
	if (set_autoload(p, skel, o->follow))
		goto fail;
	for (i = 0; i < p->nr_refused; i++) {
		prog = bpf_object__find_program_by_name(skel->obj, p->refused[i].name);
		if (prog)
			bpf_program__set_autoload(prog, false);
	}
	return skel;
fail:
	e = errno;
	trace_bpf__destroy(skel);
	errno = e;
	return NULL;
}

/*
 * After the object failed to load: find the programs that the kernel
 * refuses on their own (each loaded alone), and note why.
 */
static int find_refused(struct trace_plan *p, const struct trace_opts *o)
{
	char names[32][64];
	struct bpf_program *prog;
	struct trace_bpf *skel = open_skel(p, o);
	int n = 0, found = 0, i, e;

	if (!skel)
		return 0;
	bpf_object__for_each_program(prog, skel->obj)
		if (bpf_program__autoload(prog) && n < 32)
			snprintf(names[n++], sizeof(names[0]), "%.63s", bpf_program__name(prog));
	trace_bpf__destroy(skel);
	for (i = 0; i < n && p->nr_refused < (int)(sizeof(p->refused) /
						   sizeof(p->refused[0])); i++) {
		size_t mark = libbpf_log_mark();
		struct refused_prog *r = &p->refused[p->nr_refused];

		skel = open_skel(p, o);
		if (!skel)
			break;
		bpf_object__for_each_program(prog, skel->obj)
			if (strcmp(bpf_program__name(prog), names[i]))
				bpf_program__set_autoload(prog, false);
		if (trace_bpf__load(skel)) {
			e = errno;
			_Static_assert(sizeof(r->name) == sizeof(names[0]), "names");
			memcpy(r->name, names[i], sizeof(r->name));
			if (!libbpf_log_reason(mark, r->why, sizeof(r->why)))
				snprintf(r->why, sizeof(r->why), "%s", strerror(e));
			p->nr_refused++;
			found++;
		}
		trace_bpf__destroy(skel);
	}
	return found;
}

/* Load what the kernel accepts: a refused program only loses its hooks. */
static int load_skel(struct trace_session *s, const struct trace_opts *o)
{
	int tries, e = 0;

	for (tries = 0; tries < 3; tries++) {
		s->skel = open_skel(s->plan, o);
		if (!s->skel) {
			err("cannot open the tracing programs: %s", strerror(errno));
			return -1;
		}
		if (!trace_bpf__load(s->skel))
			return 0;
		e = errno;
		trace_bpf__destroy(s->skel);
		s->skel = NULL;
		if (!find_refused(s->plan, o))
			break;
	}
	err("cannot load the tracing programs: %s (-v shows libbpf's log)", strerror(e));
	return -1;
}

int trace_load(struct trace_session *s)
{
	if (load_skel(s, s->opts))
		return -1;
	if (bpf_program__fd(s->skel->progs.find_ksym) >= 0)
		s->skel->bss->drm_core_ioctls = find_ksym(s->skel, "drm:drm_ioctls") ?:
						find_ksym(s->skel, "drm_ioctls");
	return 0;
}

void trace_unload(struct trace_session *s)
{
	trace_bpf__destroy(s->skel);
	s->skel = NULL;
}
