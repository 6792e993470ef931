// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: what the kernel side of an accelerator workload does, from
 * libbpf CO-RE programs (trace.bpf.c) attached only while the command runs.
 *
 * The hook table below is the whole policy. Each hook names the kernel
 * functions or tracepoints it may be, newest name first; at start every
 * candidate is probed (functions in /proc/kallsyms, tracepoints by their
 * btf_trace_<name> type in the kernel's or the module's BTF) and the first
 * one present is attached. Nothing depends on a version number, so a
 * renamed symbol (ivpu_bo_pin -> ivpu_bo_bind, drm_run_job ->
 * drm_sched_job_run) is one more candidate, and a hook that the kernel or
 * machine lacks is reported as absent and skipped.
 *
 * Output is bcc libbpf-tools style: a live table at an interval, a summary
 * with log2 histograms at the end, or JSON, one object per line.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <drm/drm.h>
#include <linux/membarrier.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "bpfdrv_fop.h"
#include "trace.h"
#include "trace_session.h"
#include "trace.skel.h"

enum hook_kind { HOOK_FUNC, HOOK_TP, HOOK_LAT };
/* VIA_FOP: bpfdrv.ko's bpfdrv_fop tracepoint, for its file operations */
enum func_via { VIA_FENTRY, VIA_MULTI, VIA_KPROBE, VIA_FOP };

static const char *const via_names[] = {
	[VIA_FENTRY] = "fentry", [VIA_MULTI] = "kprobe.multi", [VIA_KPROBE] = "kprobe",
	[VIA_FOP] = "tracepoint",
};

enum tp_prog {
	TP_COUNT, TP_STR_COUNT, TP_SCHED_QUEUE, TP_SCHED_RUN, TP_SCHED_DONE,
	TP_FENCE_INIT, TP_FENCE_EMIT, TP_FENCE_SIGNALED, TP_FENCE_DESTROY,
	TP_VPU_JOB,
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
	enum tp_prog prog;		/* HOOK_TP */
	int fop;			/* HOOK_FUNC: 1 + its BPFDRV_FOP_*, or 0 */
	__u32 lat_id;			/* HOOK_LAT: its id; needs[] attached */
	int needs[2];
	const char *what;
	/* found at run time */
	const char *target;
	enum func_via via;		/* HOOK_FUNC: how it is traced */
	__u32 btf_id;			/* in BTF: fentry/fexit can trace it */
	int btf_obj_fd;			/* 0 for vmlinux */
	bool attached;
	char why[96];
	struct bpf_link *links[2];	/* kprobe/kretprobe, or a tracepoint */
	int prog_fds[2], link_fds[2];	/* fentry/fexit: copies of func_fentry/fexit */
};

#define FUNC(g, n, mod, arg_, fl, w, ...) \
	{ .group = g, .name = n, .kind = HOOK_FUNC, .module = mod, \
	  .alt = { __VA_ARGS__ }, .arg = arg_, .flags = fl, .what = w }
/* A file operation of bpfdrv.ko: its tracepoint, or the function */
#define FOP(n, op, arg_, fl, w, fn) \
	{ .group = TRACE_BPFDRV, .name = n, .kind = HOOK_FUNC, .module = "bpfdrv", \
	  .alt = { fn }, .arg = arg_, .flags = fl, .what = w, .fop = 1 + (op) }
#define TP(g, n, mod, p, w, ...) \
	{ .group = g, .name = n, .kind = HOOK_TP, .module = mod, \
	  .alt = { __VA_ARGS__ }, .prog = p, .what = w }
#define TP_FL(g, n, mod, p, fl, w, ...) \
	{ .group = g, .name = n, .kind = HOOK_TP, .module = mod, \
	  .alt = { __VA_ARGS__ }, .prog = p, .flags = fl, .what = w }
#define LAT(g, n, id, a, b, w) \
	{ .group = g, .name = n, .kind = HOOK_LAT, .lat_id = id, \
	  .needs = { a, b }, .what = w }

/* Indexes of hooks that latencies pair up; keep in sync with the table. */
enum {
	H_VPU_JOB = 12,
	H_SCHED_QUEUE = 17, H_SCHED_RUN, H_SCHED_DONE,
	H_FENCE_INIT = 26, H_FENCE_EMIT, H_FENCE_SIGNALED,
};

static struct hook hooks[] = {
	/* Intel NPU (intel_vpu) */
	FUNC(TRACE_NPU, "bo_create_ioctl", "intel_vpu", 0, ERRNO,
	     "DRM_IOCTL_IVPU_BO_CREATE", "ivpu_bo_create_ioctl"),
	FUNC(TRACE_NPU, "submit_ioctl", "intel_vpu", 0, ERRNO,
	     "DRM_IOCTL_IVPU_SUBMIT", "ivpu_submit_ioctl"),
	FUNC(TRACE_NPU, "cmdq_submit_ioctl", "intel_vpu", 0, ERRNO,
	     "DRM_IOCTL_IVPU_CMDQ_SUBMIT (newer kernels)", "ivpu_cmdq_submit_ioctl"),
	FUNC(TRACE_NPU, "get_param_ioctl", "intel_vpu", 0, ERRNO,
	     "DRM_IOCTL_IVPU_GET_PARAM", "ivpu_get_param_ioctl"),
	FUNC(TRACE_NPU, "gem_create_object", "intel_vpu", 0, 0,
	     "buffer object allocation", "ivpu_gem_create_object"),
	FUNC(TRACE_NPU, "mmu_map_sgt", "intel_vpu", 0, ERRNO,
	     "NPU MMU mapping of a buffer", "ivpu_mmu_context_map_sgt"),
	FUNC(TRACE_NPU, "bo_bind", "intel_vpu", 0, ERRNO,
	     "buffer pinned and mapped for a job", "ivpu_bo_bind", "ivpu_bo_pin"),
	FUNC(TRACE_NPU, "ipc_irq", "intel_vpu", 0, 0,
	     "firmware IPC interrupt", "ivpu_ipc_irq_handler"),
	FUNC(TRACE_NPU, "ipc_receive", "intel_vpu", 0, ERRNO,
	     "waiting for a firmware IPC reply", "ivpu_ipc_receive"),
	FUNC(TRACE_NPU, "pm_runtime_suspend", "intel_vpu", 0, ERRNO,
	     "runtime suspend", "ivpu_pm_runtime_suspend_cb"),
	FUNC(TRACE_NPU, "pm_runtime_resume", "intel_vpu", 0, ERRNO,
	     "runtime resume (firmware boot)", "ivpu_pm_runtime_resume_cb"),
	FUNC(TRACE_NPU, "pm_recovery", "intel_vpu", 0, 0,
	     "NPU recovery (hang, firmware error)", "ivpu_pm_trigger_recovery"),
	[H_VPU_JOB] = TP(TRACE_NPU, "vpu_job", "intel_vpu", TP_VPU_JOB,
			 "vpu:job events (create, submit, done, free)", "job"),
	TP(TRACE_NPU, "vpu_jsm", "intel_vpu", TP_STR_COUNT,
	   "vpu:jsm firmware messages ([tx], [rx])", "jsm"),
	TP(TRACE_NPU, "vpu_pm", "intel_vpu", TP_STR_COUNT,
	   "vpu:pm power events", "pm"),
	LAT(TRACE_NPU, "job_submit_to_done", TRACE_LAT_VPU_SUBMIT_DONE,
	    H_VPU_JOB, H_VPU_JOB, "NPU job latency, submit to done"),

	/* DRM */
	FUNC(TRACE_DRM, "drm_ioctl", "drm", TRACE_ARG_IOCTL_NR, ERRNO,
	     "every DRM/accel ioctl, per ioctl number", "drm_ioctl"),
	[H_SCHED_QUEUE] = TP(TRACE_DRM, "sched_queue", "gpu_sched", TP_SCHED_QUEUE,
			     "job pushed to a scheduler entity",
			     "drm_sched_job_queue", "drm_sched_job"),
	[H_SCHED_RUN] = TP(TRACE_DRM, "sched_run", "gpu_sched", TP_SCHED_RUN,
			   "job handed to the hardware",
			   "drm_sched_job_run", "drm_run_job"),
	[H_SCHED_DONE] = TP(TRACE_DRM, "sched_done", "gpu_sched", TP_SCHED_DONE,
			    "job's hardware fence signaled",
			    "drm_sched_job_done", "drm_sched_process_job"),
	TP(TRACE_DRM, "sched_dep", "gpu_sched", TP_COUNT,
	   "job waits for a dependency",
	   "drm_sched_job_add_dep", "drm_sched_job_wait_dep"),
	TP(TRACE_DRM, "sched_unschedulable", "gpu_sched", TP_COUNT,
	   "job blocked on a dependency (newer kernels)",
	   "drm_sched_job_unschedulable"),
	LAT(TRACE_DRM, "sched_queue_to_run", TRACE_LAT_SCHED_QUEUE_RUN,
	    H_SCHED_QUEUE, H_SCHED_RUN, "scheduler latency, queue to run"),
	LAT(TRACE_DRM, "sched_run_to_done", TRACE_LAT_SCHED_RUN_DONE,
	    H_SCHED_RUN, H_SCHED_DONE, "hardware latency, run to done"),
	LAT(TRACE_DRM, "sched_queue_to_done", TRACE_LAT_SCHED_QUEUE_DONE,
	    H_SCHED_QUEUE, H_SCHED_DONE, "job latency, queue to done"),
	TP_FL(TRACE_DRM, "vblank", "drm", TP_COUNT, TRACE_CTX_CRTC,
	      "vertical blank, per CRTC", "drm_vblank_event"),
	[H_FENCE_INIT] = TP(TRACE_DRM, "fence_init", NULL, TP_FENCE_INIT,
			    "dma_fence created", "dma_fence_init"),
	[H_FENCE_EMIT] = TP(TRACE_DRM, "fence_emit", NULL, TP_FENCE_EMIT,
			    "dma_fence handed to hardware", "dma_fence_emit"),
	[H_FENCE_SIGNALED] = TP(TRACE_DRM, "fence_signaled", NULL, TP_FENCE_SIGNALED,
				"dma_fence signaled", "dma_fence_signaled"),
	TP(TRACE_DRM, "fence_destroy", NULL, TP_FENCE_DESTROY,
	   "dma_fence freed", "dma_fence_destroy"),
	TP(TRACE_DRM, "fence_wait", NULL, TP_COUNT,
	   "a task starts waiting on a dma_fence", "dma_fence_wait_start"),
	LAT(TRACE_DRM, "fence_init_to_signal", TRACE_LAT_FENCE_INIT_SIGNAL,
	    H_FENCE_INIT, H_FENCE_SIGNALED, "fence lifetime, created to signaled"),
	LAT(TRACE_DRM, "fence_emit_to_signal", TRACE_LAT_FENCE_EMIT_SIGNAL,
	    H_FENCE_EMIT, H_FENCE_SIGNALED, "hardware latency, emitted to signaled"),
	TP(TRACE_DRM, "vblank_queued", "drm", TP_COUNT,
	   "vblank event requested", "drm_vblank_event_queued"),
	TP(TRACE_DRM, "vblank_delivered", "drm", TP_COUNT,
	   "vblank event sent to user space", "drm_vblank_event_delivered"),

	/* bpfdrv's own file operations, per driver (by minor) */
	FOP("open", BPFDRV_FOP_OPEN, TRACE_ARG_INODE_MINOR, ERRNO,
	    "open() of /dev/bpfdrv/*", "bpfdrv_open"),
	FOP("release", BPFDRV_FOP_RELEASE, TRACE_ARG_INODE_MINOR, 0,
	    "last close()", "bpfdrv_release"),
	FOP("read", BPFDRV_FOP_READ, TRACE_ARG_FILE_MINOR, ERRNO,
	    "read(), including waits", "bpfdrv_read"),
	FOP("write", BPFDRV_FOP_WRITE, TRACE_ARG_FILE_MINOR, ERRNO,
	    "write(), including waits", "bpfdrv_write"),
	FOP("ioctl", BPFDRV_FOP_IOCTL, TRACE_ARG_FILE_MINOR, ERRNO,
	    "ioctl()", "bpfdrv_ioctl"),
	FOP("poll", BPFDRV_FOP_POLL, TRACE_ARG_FILE_MINOR, 0,
	    "poll()/select()/epoll", "bpfdrv_poll"),
};

#define NR_HOOKS ((int)(sizeof(hooks) / sizeof(hooks[0])))

_Static_assert(NR_HOOKS < 0xff00, "hook ids must stay below the latency ids");
_Static_assert(NR_HOOKS <= TRACE_MAX_HOOKS, "raise TRACE_MAX_HOOKS");

static double now_s(void);
static int lookup_hist(int fd, const struct trace_key *key, struct trace_hist *sum);
static double t_attach_func;	/* of attach time, spent on functions */
static double t_copy;		/* of which copying fentry programs */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

const char *trace_group_name(unsigned int group)
{
	switch (group) {
	case TRACE_NPU: return "npu";
	case TRACE_DRM: return "drm";
	case TRACE_BPFDRV: return "bpfdrv";
	}
	return "?";
}

/* --- probing --- */

static bool module_loaded(const char *module)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s", module);
	return !access(path, F_OK);
}

/* Mark the function candidates that /proc/kallsyms lists (kprobes). */
static void probe_functions(bool *found)
{
	char line[512], name[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	int i, j;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char type;

		if (sscanf(line, "%*s %c %255s", &type, name) != 2 ||
		    (type != 't' && type != 'T'))
			continue;
		for (i = 0; i < NR_HOOKS; i++) {
			if (hooks[i].kind != HOOK_FUNC)
				continue;
			for (j = 0; j < MAX_ALT && hooks[i].alt[j]; j++)
				if (!strcmp(name, hooks[i].alt[j]))
					found[i * MAX_ALT + j] = true;
		}
	}
	fclose(f);
}

/*
 * The kernel's BTF objects, loaded once: vmlinux and each module's split
 * BTF, with the object fd that an fentry program names as its target.
 */
static struct btf *vmlinux_btf;
static struct kernel_btf {
	char name[64];
	__u32 id;
	int fd;
	struct btf *btf;
} kernel_btfs[512];
static int nr_kernel_btfs = -1;

static void list_kernel_btfs(void)
{
	__u32 id = 0;

	nr_kernel_btfs = 0;
	while (!bpf_btf_get_next_id(id, &id) && nr_kernel_btfs < 512) {
		struct kernel_btf *k = &kernel_btfs[nr_kernel_btfs];
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0)
			continue;
		info.name = (__u64)(unsigned long)k->name;
		info.name_len = sizeof(k->name);
		if (bpf_btf_get_info_by_fd(fd, &info, &len) || !info.kernel_btf) {
			close(fd);
			continue;
		}
		k->id = id;
		k->fd = fd;
		nr_kernel_btfs++;
	}
}

static void free_kernel_btfs(void)
{
	int i;

	for (i = 0; i < nr_kernel_btfs; i++) {
		btf__free(kernel_btfs[i].btf);
		kernel_btfs[i].btf = NULL;
		close(kernel_btfs[i].fd);
	}
	nr_kernel_btfs = -1;
	btf__free(vmlinux_btf);
	vmlinux_btf = NULL;
}

/* @module's BTF (NULL: vmlinux's) and its object fd (0 for vmlinux). */
static struct btf *kernel_btf(const char *module, int *obj_fd)
{
	int i;

	if (!vmlinux_btf)
		vmlinux_btf = btf__load_vmlinux_btf();
	*obj_fd = 0;
	if (!module || !vmlinux_btf)
		return vmlinux_btf;
	if (nr_kernel_btfs < 0)
		list_kernel_btfs();
	for (i = 0; i < nr_kernel_btfs; i++) {
		struct kernel_btf *k = &kernel_btfs[i];

		if (strcmp(k->name, module))
			continue;
		if (!k->btf)
			k->btf = btf__load_from_kernel_by_id_split(k->id, vmlinux_btf);
		*obj_fd = k->fd;
		return k->btf;
	}
	return NULL;
}

/* Is there a tracepoint @name in @module's BTF (or the kernel's)? */
static bool tracepoint_exists(const char *module, const char *name)
{
	struct btf *btf;
	char tname[128];
	int fd;

	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	btf = kernel_btf(NULL, &fd);
	if (btf && btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF) > 0)
		return true;
	btf = module ? kernel_btf(module, &fd) : NULL;
	return btf && btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF) > 0;
}

/* Does @module (NULL: the kernel) have BTF? */
static bool has_btf(const char *module)
{
	int fd;

	return !!kernel_btf(module, &fd);
}

/*
 * Can @name be traced by fentry/fexit: a function in the BTF of the hook's
 * module, or of the kernel (a module built in)? Notes where it is.
 */
static bool fentry_target(struct hook *h, const char *name)
{
	const char *where[2] = { h->module, NULL };
	int i, fd, id;

	for (i = h->module ? 0 : 1; i < 2; i++) {
		struct btf *btf = kernel_btf(where[i], &fd);

		id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) : -1;
		if (id > 0) {
			h->btf_id = id;
			h->btf_obj_fd = fd;
			return true;
		}
	}
	return false;
}

static void absent(struct hook *h)
{
	if (h->module && !module_loaded(h->module))
		snprintf(h->why, sizeof(h->why), "module %s not loaded", h->module);
	else
		snprintf(h->why, sizeof(h->why), "not in this kernel");
}

/* How functions are traced: chosen by trace_choose_via() or an option. */
static enum func_via func_via;
static bool func_via_forced;	/* by an option: bpfdrv_fop is not used */

/* A bpfdrv file operation that probe_hooks() put on the bpfdrv_fop tracepoint */
static bool fop_traced(const struct hook *h)
{
	return h->kind == HOOK_FUNC && h->target && h->via == VIA_FOP;
}

/*
 * Choose how to trace functions. fentry/fexit have no limit on calls in
 * flight, but on a preemptible kernel a task preempted inside an fentry
 * program makes the kernel skip that program for the next task on the CPU
 * (counted as recursion misses). kprobe.multi programs run with preemption
 * off; since fprobe runs on the function graph tracer (6.14) their returns
 * have no instance limit either. Before that, fprobe's rethook pool held
 * 2 instances per CPU and function, and fentry is the better choice.
 * Counting at entry only (@count_only) needs no return probe: kprobe.multi
 * wherever the kernel has fprobe.
 */
static enum func_via choose_via(bool count_only)
{
	struct btf *btf = kernel_btf(NULL, &(int){ 0 });
	const struct btf_type *t;
	const struct btf_member *m;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, "fprobe", BTF_KIND_STRUCT) : -1;
	if (id <= 0)
		return VIA_FENTRY;
	if (count_only)
		return VIA_MULTI;
	t = btf__type_by_id(btf, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "rethook"))
			return VIA_FENTRY;
	return VIA_MULTI;
}

/*
 * Pick each hook's target: the first candidate this kernel has. Functions
 * in BTF are traced by fentry/fexit; the others, if /proc/kallsyms lists
 * them, by kprobes (read only when needed: it is slow to generate).
 */
static void probe_hooks(unsigned int groups)
{
	bool found[NR_HOOKS * MAX_ALT] = {}, scanned = false;
	int i, j, fop_tp = -1;	/* has bpfdrv.ko the tracepoint? -1: not asked */

	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		h->target = NULL;
		h->btf_id = 0;
		if (!(h->group & groups) || h->kind == HOOK_LAT)
			continue;
		if (h->module && !module_loaded(h->module)) {
			absent(h);
			continue;
		}
		if (h->fop && !func_via_forced) {
			if (fop_tp < 0)
				fop_tp = tracepoint_exists(h->module, "bpfdrv_fop");
			if (fop_tp) {
				h->target = "bpfdrv_fop";
				h->via = VIA_FOP;
				continue;
			}
		}
		for (j = 0; j < MAX_ALT && h->alt[j] && !h->target; j++) {
			if (h->kind == HOOK_TP) {
				if (tracepoint_exists(h->module, h->alt[j]))
					h->target = h->alt[j];
				continue;
			}
			if (func_via != VIA_KPROBE && fentry_target(h, h->alt[j])) {
				h->target = h->alt[j];
				h->via = func_via;
				continue;
			}
			h->via = VIA_KPROBE;
			/*
			 * A function its module's BTF lacks was inlined or
			 * renamed (.isra, .constprop): a kprobe by that name
			 * would not find it either.
			 */
			if (func_via != VIA_KPROBE && has_btf(h->module))
				continue;
			if (!scanned)
				probe_functions(found);
			scanned = true;
			if (found[i * MAX_ALT + j])
				h->target = h->alt[j];
		}
		if (!h->target)
			absent(h);
	}
}

/* --- loading and attaching --- */

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
	}
	return NULL;
}

/*
 * Load only the programs some present hook uses: the others may need
 * module types (CO-RE) that are not there. func_fentry/func_fexit are
 * loaded for the first function that fentry can trace and copied for the
 * others (an fentry program names its one target when it is loaded); the
 * kprobe pair is the fallback for whatever fentry cannot attach to.
 */
static const struct hook *fentry_loaded_for;
static bool count_only;		/* no return probes: links[1] is links[0] */

static int set_autoload(struct trace_bpf *skel, bool follow)
{
	struct bpf_program *prog;
	bool funcs = false, drm = false, fops = false;
	const struct hook *first = NULL;
	int i;

	fentry_loaded_for = NULL;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	for (i = 0; i < NR_HOOKS; i++) {
		const struct hook *h = &hooks[i];

		if (!h->target)
			continue;
		if (fop_traced(h)) {
			fops = true;
		} else if (h->kind == HOOK_FUNC) {
			funcs = true;
			if (h->via == VIA_FENTRY && h->btf_id && !first)
				first = h;
			drm |= h->arg == TRACE_ARG_IOCTL_NR;
		} else if (h->kind == HOOK_TP) {
			bpf_program__set_autoload(tp_program(skel, h->prog), true);
		}
	}
	bpf_program__set_autoload(skel->progs.func_entry, funcs);
	bpf_program__set_autoload(skel->progs.func_exit, funcs && !count_only);
	bpf_program__set_autoload(skel->progs.func_mentry, funcs && func_via == VIA_MULTI);
	bpf_program__set_autoload(skel->progs.func_mexit,
				  funcs && func_via == VIA_MULTI && !count_only);
	bpf_program__set_autoload(skel->progs.tp_bpfdrv_fop, fops);
	bpf_program__set_autoload(skel->progs.trace_fork, follow);
	bpf_program__set_autoload(skel->progs.find_ksym, drm);
	if (!first)
		return 0;
	bpf_program__set_autoload(skel->progs.func_fentry, true);
	bpf_program__set_autoload(skel->progs.func_fexit, !count_only);
	if (bpf_program__set_attach_target(skel->progs.func_fentry, 0, first->target) ||
	    (!count_only &&
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

static bool attach_fentry(struct trace_bpf *skel, struct hook *h, __u64 cookie)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .tracing.cookie = cookie);
	struct bpf_program *tmpl[2] = { skel->progs.func_fentry, skel->progs.func_fexit };
	int k;

	if (bpf_program__fd(tmpl[0]) < 0)
		return false;
	for (k = 0; k < (count_only ? 1 : 2); k++) {
		double t0 = now_s();

		h->prog_fds[k] = fentry_prog(tmpl[k], h);
		t_copy += now_s() - t0;
		if (h->prog_fds[k] < 0)
			return false;
		h->link_fds[k] = bpf_link_create(h->prog_fds[k], 0,
						 bpf_program__expected_attach_type(tmpl[k]),
						 &lopts);
		if (h->link_fds[k] < 0)
			return false;
	}
	return true;
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
static int func_slot(int i)
{
	int j, slot = 0;

	for (j = 0; j < i; j++)
		slot += hooks[j].kind == HOOK_FUNC;
	return slot;
}

static void attach_hook(struct trace_bpf *skel, int i)
{
	struct hook *h = &hooks[i];
	__u64 cookie;
	int e;

	if (h->kind == HOOK_FUNC) {
		LIBBPF_OPTS(bpf_kprobe_opts, kopts);

		cookie = TRACE_FUNC_COOKIE(i, h->arg, h->flags, func_slot(i));
		if (h->via == VIA_FENTRY && h->btf_id && attach_fentry(skel, h, cookie)) {
			h->attached = true;
			return;
		}
		close_fds(h->link_fds, 2);
		close_fds(h->prog_fds, 2);
		h->via = VIA_KPROBE;	/* the fallback */
		kopts.bpf_cookie = cookie;
		h->links[0] = bpf_program__attach_kprobe_opts(skel->progs.func_entry,
							      h->target, &kopts);
		if (h->links[0] && count_only) {
			h->links[1] = h->links[0];
		} else if (h->links[0]) {
			kopts.retprobe = true;
			h->links[1] = bpf_program__attach_kprobe_opts(
				skel->progs.func_exit, h->target, &kopts);
		}
	} else {
		LIBBPF_OPTS(bpf_raw_tracepoint_opts, topts);

		cookie = TRACE_COOKIE(i, 0, h->flags);
		topts.cookie = cookie;
		h->links[0] = bpf_program__attach_raw_tracepoint_opts(
			tp_program(skel, h->prog), h->target, &topts);
		h->links[1] = h->links[0];
	}
	if (h->links[0] && h->links[1]) {
		h->attached = true;
		return;
	}
	e = errno;
	snprintf(h->why, sizeof(h->why), "attach failed: %s", strerror(e));
	bpf_link__destroy(h->links[0]);
	h->links[0] = h->links[1] = NULL;
}

static struct bpf_link *multi_links[2];
static struct bpf_link *fop_link;

/* bpfdrv's file operations: one link to bpfdrv_fop, a cookie per op. */
static void attach_fops(struct trace_bpf *skel)
{
	int i, n = 0, e;

	for (i = 0; i < NR_HOOKS; i++) {
		const struct hook *h = &hooks[i];

		if (fop_traced(h)) {
			skel->bss->fop_cookies[h->fop - 1] = TRACE_COOKIE(i, h->arg, h->flags);
			n++;
		}
	}
	if (!n)
		return;
	fop_link = bpf_program__attach_raw_tracepoint(skel->progs.tp_bpfdrv_fop,
						      "bpfdrv_fop");
	e = errno;
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (!fop_traced(h))
			continue;
		h->attached = !!fop_link;
		if (!fop_link)
			snprintf(h->why, sizeof(h->why), "attach failed: %s", strerror(e));
	}
}

/* Every kprobe.multi function in two links; false if the kernel refused. */
static bool attach_multi(struct trace_bpf *skel)
{
	const char *syms[NR_HOOKS];
	__u64 cookies[NR_HOOKS];
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
	for (k = 0; k < (count_only ? 1 : 2); k++) {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, mopts, .syms = syms,
			    .cookies = cookies, .cnt = n, .retprobe = k);

		multi_links[k] = bpf_program__attach_kprobe_multi_opts(
			k ? skel->progs.func_mexit : skel->progs.func_mentry, NULL, &mopts);
		if (!multi_links[k])
			return false;
	}
	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].kind == HOOK_FUNC && hooks[i].target &&
		    hooks[i].via == VIA_MULTI)
			hooks[i].attached = true;
	return true;
}

static void attach_hooks(struct trace_bpf *skel)
{
	double t0 = now_s();
	int i;

	if (!attach_multi(skel)) {
		/* one function the kernel refuses fails them all: go one by one */
		bpf_link__destroy(multi_links[0]);
		bpf_link__destroy(multi_links[1]);
		multi_links[0] = multi_links[1] = NULL;
		for (i = 0; i < NR_HOOKS; i++)
			if (hooks[i].via == VIA_MULTI)
				hooks[i].via = VIA_KPROBE;
	}
	attach_fops(skel);
	t_attach_func += now_s() - t0;
	for (i = 0; i < NR_HOOKS; i++) {
		double t0 = now_s();

		if (!hooks[i].target || hooks[i].kind == HOOK_LAT || hooks[i].attached ||
		    hooks[i].via == VIA_FOP)
			continue;
		attach_hook(skel, i);
		if (hooks[i].kind == HOOK_FUNC)
			t_attach_func += now_s() - t0;
	}
	/* A latency is measured when both of its events are. */
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (h->kind != HOOK_LAT || !(h->group & trace_groups_active))
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

static void detach_hooks(void)
{
	int i;

	bpf_link__destroy(multi_links[0]);
	bpf_link__destroy(multi_links[1]);
	multi_links[0] = multi_links[1] = NULL;
	bpf_link__destroy(fop_link);
	fop_link = NULL;
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (h->kind == HOOK_FUNC && h->links[1] != h->links[0])
			bpf_link__destroy(h->links[1]);
		if (h->kind != HOOK_LAT)
			bpf_link__destroy(h->links[0]);
		h->links[0] = h->links[1] = NULL;
		close_fds(h->link_fds, 2);
		close_fds(h->prog_fds, 2);
	}
}

/* --- reading the results --- */

unsigned int trace_groups_active;

int trace_hook_by_id(__u32 id)
{
	int i;

	if (id < (__u32)NR_HOOKS)
		return hooks[id].kind == HOOK_LAT ? -1 : (int)id;
	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].kind == HOOK_LAT && hooks[i].lat_id == id)
			return i;
	return -1;
}

const char *trace_hook_name(int i) { return hooks[i].name; }
const char *trace_hook_target(int i) { return hooks[i].target; }
unsigned int trace_hook_group(int i) { return hooks[i].group; }
bool trace_hook_attached(int i) { return hooks[i].attached; }
bool trace_hook_per_minor(int i)
{
	return hooks[i].kind == HOOK_FUNC &&
	       (hooks[i].arg == TRACE_ARG_FILE_MINOR ||
		hooks[i].arg == TRACE_ARG_INODE_MINOR);
}

/* bpfdrv driver names by minor, from /sys/class/bpfdrv/<name>/dev. */
static struct { unsigned int minor; char name[64]; } drivers[256];
static int nr_drivers;

static void scan_drivers(void)
{
	DIR *d = opendir("/sys/class/bpfdrv");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && nr_drivers < 256) {
		char path[320], buf[32];
		unsigned int maj, min;
		FILE *f;
		int i;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/bpfdrv/%s/dev", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2) {
			for (i = 0; i < nr_drivers && drivers[i].minor != min; i++)
				;
			if (i == nr_drivers)
				nr_drivers++;
			drivers[i].minor = min;
			snprintf(drivers[i].name, sizeof(drivers[i].name), "%.63s",
				 de->d_name);
		}
		fclose(f);
	}
	closedir(d);
}

const char *trace_driver_name(unsigned int minor)
{
	int i;

	for (i = 0; i < nr_drivers; i++)
		if (drivers[i].minor == minor)
			return drivers[i].name;
	return NULL;
}

static bool hook_is_ioctl(int hook)
{
	return hooks[hook].kind == HOOK_FUNC && hooks[hook].arg == TRACE_ARG_IOCTL_NR;
}

/* The sub-key that JSON shows: a DRM ioctl's number, without the driver. */
static __u32 sub_number(int hook, __u32 sub)
{
	return hook_is_ioctl(hook) ? TRACE_IOCTL_NR(sub) : sub;
}

/*
 * A row's sub-key in words: the ioctl's name as the kernel's descriptor
 * gives it (the number where it has none), driver name, CRTC or event
 * string.
 */
void trace_sub_name(int hook, __u32 sub, const struct trace_hist *hist,
		    char *buf, size_t size)
{
	const struct hook *h = &hooks[hook];
	static const char prefix[] = "DRM_IOCTL_";
	__u32 nr = TRACE_IOCTL_NR(sub);
	const char *name;

	buf[0] = '\0';
	if (hook_is_ioctl(hook)) {
		if (hist && hist->str[0]) {
			name = hist->str;
			if (!strncmp(name, prefix, sizeof(prefix) - 1))
				name += sizeof(prefix) - 1;
			snprintf(buf, size, "%.*s", TRACE_STR_LEN, name);
		} else if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
			snprintf(buf, size, "DRIVER+0x%02x", nr - DRM_COMMAND_BASE);
		} else {
			snprintf(buf, size, "0x%02x", nr);
		}
	} else if (trace_hook_per_minor(hook)) {
		name = trace_driver_name(sub);
		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "minor%u", sub);
	} else if (h->flags & TRACE_CTX_CRTC) {
		snprintf(buf, size, "crtc%u", sub);
	} else if (hist && hist->str[0]) {
		snprintf(buf, size, "%.*s", TRACE_STR_LEN, hist->str);
	}
}

/* The detail of the row (hook id, sub) in words, for the timeline. */
void trace_row_name(struct trace_session *s, __u32 hook_id, __u32 sub,
		    char *buf, size_t size)
{
	struct trace_key key = { .hook = hook_id, .sub = sub };
	int hook = trace_hook_by_id(hook_id);
	struct trace_hist hist;

	buf[0] = '\0';
	if (hook < 0)
		return;
	if (!nr_drivers)
		scan_drivers();
	trace_sub_name(hook, sub, lookup_hist(bpf_map__fd(s->skel->maps.hists), &key,
					      &hist) ? NULL : &hist, buf, size);
}

/* A row's DRM driver, for driver ioctls. */
static void row_driver(const struct trace_hist *hist, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s", TRACE_DRV_LEN, hist ? hist->drv : "");
}

/* Make room in *rows for element @n (doubling); false if out of memory. */
static bool grow_rows(void **rows, int n, int *cap, size_t size)
{
	int want = *cap ? *cap * 2 : 64;
	void *p;

	if (n < *cap)
		return true;
	p = realloc(*rows, want * size);
	if (!p)
		return false;
	*rows = p;
	*cap = want;
	return true;
}

static int row_cmp(const void *a, const void *b)
{
	const struct trace_row *x = a, *y = b;

	if (x->hook != y->hook)
		return x->hook - y->hook;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

/*
 * Every CPU's copy of @key's value (@size bytes each); NULL if none. The
 * maps are per CPU: a row is the sum of its CPUs' copies. Each event adds
 * to one copy only, so the names of a new row are in the copy of the CPU
 * that made it.
 */
static void *lookup_percpu(int fd, const void *key, size_t size, int *cpus)
{
	void *v;

	*cpus = libbpf_num_possible_cpus();
	v = *cpus > 0 ? calloc(*cpus, size) : NULL;
	if (v && bpf_map_lookup_elem(fd, key, v)) {
		free(v);
		v = NULL;
	}
	return v;
}

static int lookup_hist(int fd, const struct trace_key *key, struct trace_hist *sum)
{
	struct trace_hist *v;
	int cpus, c, i;

	v = lookup_percpu(fd, key, sizeof(*v), &cpus);
	if (!v)
		return -1;
	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < cpus; c++) {
		sum->count += v[c].count;
		sum->errors += v[c].errors;
		sum->timed += v[c].timed;
		sum->total_ns += v[c].total_ns;
		if (v[c].max_ns > sum->max_ns)
			sum->max_ns = v[c].max_ns;
		for (i = 0; i < TRACE_HIST_SLOTS; i++)
			sum->slots[i] += v[c].slots[i];
		if (!sum->str[0])
			memcpy(sum->str, v[c].str, sizeof(sum->str));
		if (!sum->drv[0])
			memcpy(sum->drv, v[c].drv, sizeof(sum->drv));
	}
	free(v);
	return 0;
}

static int lookup_proc(int fd, const struct trace_proc_key *key, struct trace_proc *sum)
{
	struct trace_proc *v;
	int cpus, c;

	v = lookup_percpu(fd, key, sizeof(*v), &cpus);
	if (!v)
		return -1;
	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < cpus; c++) {
		sum->count += v[c].count;
		if (!sum->comm[0])
			memcpy(sum->comm, v[c].comm, sizeof(sum->comm));
	}
	free(v);
	return 0;
}

/*
 * Counting only (-C), a function's calls are counted in the process rows
 * alone, one map update per call: a (hook, sub) row's count is their sum.
 */
static void count_from_procs(struct trace_session *s, struct trace_row *rows, int n)
{
	int fd = bpf_map__fd(s->skel->maps.procs), i;
	struct trace_proc_key key, next, *prev = NULL;
	struct trace_proc v;

	for (i = 0; i < n; i++)
		if (hooks[rows[i].hook].kind == HOOK_FUNC)
			rows[i].hist.count = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (lookup_proc(fd, &key, &v))
			continue;
		for (i = 0; i < n; i++)
			if (hooks[rows[i].hook].kind == HOOK_FUNC &&
			    (__u32)rows[i].hook == key.hook && rows[i].sub == key.sub)
				rows[i].hist.count += v.count;
	}
}

/* All (hook, sub-key) rows, sorted by hook then sub-key. */
int trace_read_rows(struct trace_session *s, struct trace_row **rowsp)
{
	int fd = bpf_map__fd(s->skel->maps.hists), n = 0, cap = 0;
	struct trace_key key, next, *prev = NULL;
	struct trace_row *rows = NULL;

	scan_drivers();
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct trace_row r = {};
		int hook;

		key = next;
		prev = &key;
		hook = trace_hook_by_id(key.hook);
		if (hook < 0 || lookup_hist(fd, &key, &r.hist))
			continue;
		r.hook = hook;
		r.sub = key.sub;
		trace_sub_name(hook, key.sub, &r.hist, r.sub_name, sizeof(r.sub_name));
		if (!grow_rows((void **)&rows, n, &cap, sizeof(*rows)))
			break;
		rows[n++] = r;
	}
	if (count_only)
		count_from_procs(s, rows, n);
	if (n)
		qsort(rows, n, sizeof(*rows), row_cmp);
	*rowsp = rows;
	return n;
}

static int proc_cmp(const void *a, const void *b)
{
	const struct trace_proc_row *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->hook != y->hook)
		return x->hook - y->hook;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

int trace_read_procs(struct trace_session *s, struct trace_proc_row **rowsp)
{
	int fd = bpf_map__fd(s->skel->maps.procs), n = 0, cap = 0;
	struct trace_proc_key key, next, *prev = NULL;
	struct trace_proc_row *rows = NULL;
	int hfd = bpf_map__fd(s->skel->maps.hists);

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct trace_hist hist, *hp;
		struct trace_key hkey;
		struct trace_proc v;
		struct trace_proc_row r = {};
		int hook;

		key = next;
		prev = &key;
		hook = trace_hook_by_id(key.hook);
		if (hook < 0 || lookup_proc(fd, &key, &v))
			continue;
		r.tgid = key.tgid;
		r.hook = hook;
		r.sub = key.sub;
		r.count = v.count;
		memcpy(r.comm, v.comm, TRACE_COMM_LEN);
		r.comm[TRACE_COMM_LEN] = '\0';
		hkey.hook = key.hook;
		hkey.sub = key.sub;
		hp = lookup_hist(hfd, &hkey, &hist) ? NULL : &hist;
		trace_sub_name(hook, key.sub, hp, r.sub_name, sizeof(r.sub_name));
		row_driver(hp, r.driver, sizeof(r.driver));
		if (!grow_rows((void **)&rows, n, &cap, sizeof(*rows)))
			break;
		rows[n++] = r;
	}
	if (n)
		qsort(rows, n, sizeof(*rows), proc_cmp);
	*rowsp = rows;
	return n;
}

/* --- printing --- */

void trace_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

void trace_print_hist(FILE *out, const struct trace_hist *h)
{
	int i, last = -1, width = 40;
	__u32 max = 0;

	for (i = 0; i < TRACE_HIST_SLOTS; i++) {
		if (h->slots[i])
			last = i;
		if (h->slots[i] > max)
			max = h->slots[i];
	}
	if (last < 0)
		return;
	fprintf(out, "%24s : %-8s distribution\n", "usecs", "count");
	for (i = 0; i <= last; i++) {
		unsigned long long lo = i ? 1ULL << i : 0, hi = (1ULL << (i + 1)) - 1;
		int stars = max ? (int)((unsigned long long)h->slots[i] * width / max) : 0;
		char range[32];

		snprintf(range, sizeof(range), "%llu -> %llu", lo, hi);
		fprintf(out, "%24s : %-8u |%-*.*s|\n", range, h->slots[i], width,
			stars, "****************************************");
	}
}

void trace_json_hist(FILE *out, const struct trace_hist *h)
{
	bool first = true;
	int i;

	fputs("[", out);
	for (i = 0; i < TRACE_HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		fprintf(out, "%s{\"lo\":%llu,\"hi\":%llu,\"count\":%u}", first ? "" : ",",
			i ? 1ULL << i : 0ULL, (1ULL << (i + 1)) - 1, h->slots[i]);
		first = false;
	}
	fputs("]", out);
}

static void print_list(struct trace_session *s)
{
	FILE *out = s->out;
	int i;

	if (!s->opts->json)
		fprintf(out, "%-7s %-22s %-10s %-28s %s\n", "GROUP", "HOOK", "KIND",
			"TARGET", "STATUS");
	for (i = 0; i < NR_HOOKS; i++) {
		const struct hook *h = &hooks[i];
		const char *kind = h->kind == HOOK_FUNC ? via_names[h->via] :
				   h->kind == HOOK_TP ? "tracepoint" : "latency";
		char status[128];

		if (!(h->group & s->opts->groups))
			continue;
		if (h->attached)
			snprintf(status, sizeof(status), "attached%s",
				 h->kind == HOOK_FUNC && count_only && h->via != VIA_FOP ?
				 ", entry only" : "");
		else
			snprintf(status, sizeof(status), "skipped: %s", h->why);
		if (s->opts->json) {
			fprintf(out, "{\"type\":\"hook\",\"group\":\"%s\",\"hook\":\"%s\","
				"\"kind\":\"%s\",\"target\":", trace_group_name(h->group),
				h->name, kind);
			if (h->target)
				trace_json_str(out, h->target);
			else
				fputs("null", out);
			fprintf(out, ",\"attached\":%s,\"status\":",
				h->attached ? "true" : "false");
			trace_json_str(out, status);
			fputs(",\"what\":", out);
			trace_json_str(out, h->what);
			fputs("}\n", out);
		} else {
			fprintf(out, "%-7s %-22s %-10s %-28s %s\n", trace_group_name(h->group),
				h->name, kind, h->target ? h->target : "-", status);
		}
	}
	if (s->opts->json)
		fprintf(out, "{\"type\":\"startup\",\"total_s\":%.3f,\"probe_s\":%.3f,"
			"\"load_s\":%.3f,\"attach_s\":%.3f,\"attach_functions_s\":%.3f,\"copy_programs_s\":%.3f}\n",
			s->t_probe + s->t_load + s->t_attach, s->t_probe, s->t_load,
			s->t_attach, t_attach_func, t_copy);
	else
		fprintf(out, "\nStarted in %.2f s: probing %.2f s, loading %.2f s, "
			"attaching %.2f s (functions %.2f s).\n",
			s->t_probe + s->t_load + s->t_attach, s->t_probe, s->t_load,
			s->t_attach, t_attach_func);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Live view: what each hook did since the last interval. */
static void trace_report_interval(struct trace_session *s)
{
	__u64 totals[NR_HOOKS] = {};
	struct trace_loss loss;
	struct trace_row *rows;
	double t = now_s(), dt = t - s->last_time;
	bool first = true;
	int i, n;

	n = trace_read_rows(s, &rows);
	for (i = 0; i < n; i++)
		totals[rows[i].hook] += rows[i].hist.count;
	free(rows);
	if (s->opts->json) {
		fprintf(s->out, "{\"type\":\"interval\",\"elapsed_s\":%.3f,\"counts\":{",
			t - s->start_time);
	} else {
		time_t wall = time(NULL);
		char ts[16];

		strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&wall));
		fprintf(s->out, "\n%s %-7s %-22s %10s %10s\n", ts, "GROUP", "HOOK",
			"COUNT", "RATE/s");
	}
	for (i = 0; i < NR_HOOKS; i++) {
		__u64 d = totals[i] - s->prev[i];

		s->prev[i] = totals[i];
		if (!d)
			continue;
		if (s->opts->json) {
			fprintf(s->out, "%s\"%s/%s\":%llu", first ? "" : ",",
				trace_group_name(hooks[i].group), hooks[i].name,
				(unsigned long long)d);
		} else {
			fprintf(s->out, "%8s %-7s %-22s %10llu %10.1f\n", "",
				trace_group_name(hooks[i].group), hooks[i].name,
				(unsigned long long)d, dt > 0 ? d / dt : 0.0);
		}
		first = false;
	}
	trace_read_loss(s, &loss);
	if (s->opts->json)
		fprintf(s->out, "},\"lost\":%llu}\n",
			(unsigned long long)(loss.total - s->prev_lost));
	else if (first)
		fprintf(s->out, "%8s (no events)\n", "");
	if (!s->opts->json && loss.total > s->prev_lost)
		fprintf(s->out, "%8s LOST %llu events: the counts are incomplete\n", "",
			(unsigned long long)(loss.total - s->prev_lost));
	s->prev_lost = loss.total;
	fflush(s->out);
	s->last_time = t;
}

static void print_summary_text(struct trace_session *s, struct trace_row *rows,
			       int n, struct trace_proc_row *procs, int np)
{
	FILE *out = s->out;
	int i;

	fprintf(out, "\nTraced for %.1f s.\n\n%-7s %-22s %-18s %10s %7s %10s %10s\n",
		now_s() - s->start_time, "GROUP", "HOOK", "DETAIL", "COUNT",
		"ERRORS", "AVG(us)", "MAX(us)");
	for (i = 0; i < n; i++) {
		const struct trace_hist *h = &rows[i].hist;
		char avg[24] = "-", max[24] = "-";

		if (h->timed) {
			snprintf(avg, sizeof(avg), "%.1f", h->total_ns / 1e3 / h->timed);
			snprintf(max, sizeof(max), "%.1f", h->max_ns / 1e3);
		}
		fprintf(out, "%-7s %-22s %-18s %10llu %7llu %10s %10s\n",
			trace_group_name(hooks[rows[i].hook].group),
			hooks[rows[i].hook].name, rows[i].sub_name[0] ? rows[i].sub_name : "-",
			(unsigned long long)h->count, (unsigned long long)h->errors,
			avg, max);
	}
	if (!n)
		fprintf(out, "(no events)\n");

	if (np) {
		fprintf(out, "\n%-7s %-16s %-22s %-18s %10s\n", "PID", "COMM", "HOOK",
			"DETAIL", "COUNT");
		for (i = 0; i < np; i++) {
			char pid[16] = "-";

			if (!trace_tgid_is_irq(procs[i].tgid))
				snprintf(pid, sizeof(pid), "%u", procs[i].tgid);
			fprintf(out, "%-7s %-16s %-22s %-18s %10llu\n", pid,
				procs[i].comm, hooks[procs[i].hook].name,
				procs[i].sub_name[0] ? procs[i].sub_name : "-",
				(unsigned long long)procs[i].count);
		}
	}

	for (i = 0; i < n; i++) {
		const struct trace_hist *h = &rows[i].hist;

		if (!h->timed)
			continue;
		fprintf(out, "\n%s %s%s%s: %llu, avg %.1f us\n",
			trace_group_name(hooks[rows[i].hook].group),
			hooks[rows[i].hook].name, rows[i].sub_name[0] ? " " : "",
			rows[i].sub_name, (unsigned long long)h->timed,
			h->total_ns / 1e3 / h->timed);
		trace_print_hist(out, h);
	}
}

/* "context": where a process row's events ran; irq rows have no pid. */
void trace_json_who(FILE *out, __u32 tgid, const char *comm)
{
	if (tgid == TRACE_TGID_HARDIRQ)
		fputs("\"pid\":null,\"context\":\"hardirq\",\"comm\":", out);
	else if (tgid == TRACE_TGID_SOFTIRQ)
		fputs("\"pid\":null,\"context\":\"softirq\",\"comm\":", out);
	else
		fprintf(out, "\"pid\":%u,\"context\":\"task\",\"comm\":", tgid);
	trace_json_str(out, comm);
}

static void print_summary_json(struct trace_session *s, struct trace_row *rows,
			       int n, struct trace_proc_row *procs, int np)
{
	FILE *out = s->out;
	char drv[TRACE_DRV_LEN + 1];
	int i;

	for (i = 0; i < n; i++) {
		const struct trace_row *r = &rows[i];
		const struct hook *h = &hooks[r->hook];

		fprintf(out, "{\"type\":\"stat\",\"group\":\"%s\",\"hook\":\"%s\","
			"\"target\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(h->group), h->name, h->target ? h->target : "",
			sub_number(r->hook, r->sub));
		trace_json_str(out, r->sub_name);
		if (hook_is_ioctl(r->hook)) {
			row_driver(&r->hist, drv, sizeof(drv));
			fputs(",\"driver\":", out);
			trace_json_str(out, drv);
		}
		fprintf(out, ",\"count\":%llu,\"errors\":%llu,\"timed\":%llu,"
			"\"total_ns\":%llu,\"max_ns\":%llu,\"hist_us\":",
			(unsigned long long)r->hist.count, (unsigned long long)r->hist.errors,
			(unsigned long long)r->hist.timed, (unsigned long long)r->hist.total_ns,
			(unsigned long long)r->hist.max_ns);
		trace_json_hist(out, &r->hist);
		fputs("}\n", out);
	}
	for (i = 0; i < np; i++) {
		fputs("{\"type\":\"proc\",", out);
		trace_json_who(out, procs[i].tgid, procs[i].comm);
		fprintf(out, ",\"group\":\"%s\",\"hook\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(hooks[procs[i].hook].group),
			hooks[procs[i].hook].name, sub_number(procs[i].hook, procs[i].sub));
		trace_json_str(out, procs[i].sub_name);
		if (hook_is_ioctl(procs[i].hook)) {
			fputs(",\"driver\":", out);
			trace_json_str(out, procs[i].driver);
		}
		fprintf(out, ",\"count\":%llu}\n", (unsigned long long)procs[i].count);
	}
	fprintf(out, "{\"type\":\"end\",\"duration_s\":%.3f}\n", now_s() - s->start_time);
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

static const char *const lost_names[TRACE_LOST_NR] = {
	[TRACE_LOST_CALLS] = "calls_full",
	[TRACE_LOST_ROWS] = "rows_full",
	[TRACE_LOST_PROCS] = "procs_full",
	[TRACE_LOST_OWNERS] = "objects_full",
	[TRACE_LOST_FOLLOW] = "children_not_followed",
	[TRACE_LOST_EVENTS] = "timeline_full",
};

static void print_loss(struct trace_session *s, const struct trace_loss *l)
{
	int i;

	if (s->opts->json) {
		fprintf(s->out, "{\"type\":\"lost\",\"total\":%llu,\"probe_missed\":%llu,"
			"\"recursion_missed\":%llu", (unsigned long long)l->total,
			(unsigned long long)l->probe, (unsigned long long)l->recursion);
		for (i = 0; i < TRACE_LOST_NR; i++)
			fprintf(s->out, ",\"%s\":%llu", lost_names[i],
				(unsigned long long)l->bpf[i]);
		fputs("}\n", s->out);
		return;
	}
	if (!l->total) {
		fprintf(s->out, "\nNo events lost.\n");
		return;
	}
	fprintf(s->out, "\nLOST %llu events: the counts are incomplete "
		"(probe misses %llu, skipped by recursion %llu",
		(unsigned long long)l->total, (unsigned long long)l->probe,
		(unsigned long long)l->recursion);
	for (i = 0; i < TRACE_LOST_NR; i++)
		if (l->bpf[i])
			fprintf(s->out, ", %s %llu", lost_names[i],
				(unsigned long long)l->bpf[i]);
	fputs(")\n", s->out);
}

static void trace_report_final(struct trace_session *s)
{
	struct trace_proc_row *procs;
	struct trace_row *rows;
	int n, np;

	n = trace_read_rows(s, &rows);
	np = trace_read_procs(s, &procs);
	if (s->opts->json)
		print_summary_json(s, rows, n, procs, np);
	else
		print_summary_text(s, rows, n, procs, np);
	free(rows);
	free(procs);
}

/* --- the session --- */

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

/* Fork the command now, exec it once we are attached (a byte on @fd). */
static pid_t start_child(char **argv, int *go_fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p)) {
		err("pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		err("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		char c;

		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* tracing failed to start */
		close(p[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "bpfdrv: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go_fd = p[1];
	return pid;
}

/*
 * Stop counting before the final report, so that its rows agree with each
 * other: the programs see `stopping`, and MEMBARRIER_CMD_GLOBAL returns after
 * an RCU grace period, when every program run that began before has ended.
 */
static void quiesce(struct trace_session *s)
{
	s->skel->bss->stopping = true;
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		usleep(100 * 1000);	/* nohz_full CPUs: no global barrier */
}

int trace_session_run(struct trace_opts *o)
{
	struct trace_session s = { .opts = o, .out = o->out ? o->out : stdout };
	struct trace_timeline *timeline = NULL;
	struct trace_loss loss;
	double next, end, t0;
	int go_fd = -1, ret = 1, status = 0, i, nattached = 0;
	pid_t child = 0;

	trace_groups_active = o->groups;
	for (i = 0; i < NR_HOOKS; i++) {
		if (!hooks[i].name) {	/* an H_* index out of step with the table */
			err("internal error: hook %d is empty", i);
			return 1;
		}
		hooks[i].prog_fds[0] = hooks[i].prog_fds[1] = -1;
		hooks[i].link_fds[0] = hooks[i].link_fds[1] = -1;
	}
	if (func_slot(NR_HOOKS) > TRACE_FUNC_SLOTS) {
		err("internal error: raise TRACE_FUNC_SLOTS to %d", func_slot(NR_HOOKS));
		return 1;
	}
	if (o->follow && !o->pid && !o->cmd) {
		err("-f follows the processes a traced one starts: give -p PID or -- COMMAND");
		return 2;
	}
	if (o->cmd) {
		child = start_child(o->cmd, &go_fd);
		if (child < 0)
			return 1;
		if (!o->pid)
			o->pid = child;
	}
	s.skel = trace_bpf__open();
	if (!s.skel) {
		err("cannot open the tracing programs: %s", strerror(errno));
		goto out;
	}
	s.skel->rodata->targ_tgid = o->pid;
	/* a command is traced with everything it starts, as strace -f does */
	o->follow = o->pid && (o->follow || o->cmd);
	s.skel->rodata->targ_follow = o->follow;
	count_only = o->count_only;
	s.skel->rodata->count_only = count_only;
	if (o->perfetto)
		s.skel->rodata->emit_events = true;
	else	/* the ring buffer stays, smallest */
		bpf_map__set_max_entries(s.skel->maps.events, getpagesize());
	if (o->comm) {
		s.skel->rodata->targ_comm_set = true;
		strncpy((char *)s.skel->rodata->targ_comm, o->comm, TRACE_COMM_LEN - 1);
	}
	t0 = now_s();
	func_via = o->via ? (enum func_via)(o->via - 1) : choose_via(o->count_only);
	func_via_forced = o->via;
	probe_hooks(o->groups);
	s.t_probe = now_s() - t0;
	if (set_autoload(s.skel, o->follow)) {
		err("cannot prepare the tracing programs: %s", strerror(errno));
		goto out;
	}
	t0 = now_s();
	if (trace_bpf__load(s.skel)) {
		err("cannot load the tracing programs: %s (-v shows libbpf's log)",
			  strerror(errno));
		goto out;
	}
	s.skel->bss->drm_core_ioctls = find_ksym(s.skel, "drm:drm_ioctls") ?:
				       find_ksym(s.skel, "drm_ioctls");
	if (o->follow) {
		s.skel->links.trace_fork = bpf_program__attach(s.skel->progs.trace_fork);
		if (!s.skel->links.trace_fork) {
			err("cannot follow the forks of process %u: %s", o->pid,
			    strerror(errno));
			goto out;
		}
	}
	s.t_load = now_s() - t0;
	t0 = now_s();
	attach_hooks(s.skel);
	s.t_attach = now_s() - t0;
	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].attached && hooks[i].kind != HOOK_LAT)
			nattached++;

	if (o->list) {
		print_list(&s);
		ret = 0;
		goto out;
	}
	/* One line per hook we cannot trace here; never an error. */
	for (i = 0; i < NR_HOOKS; i++)
		if ((hooks[i].group & o->groups) && !hooks[i].attached && !o->quiet)
			fprintf(stderr, "bpfdrv: skipping %s/%s (%s)\n",
				trace_group_name(hooks[i].group), hooks[i].name,
				hooks[i].why);
	if (!nattached) {
		err("nothing to trace: no hook of the chosen groups exists here");
		goto out;
	}

	if (o->perfetto) {
		timeline = trace_timeline_open(&s, o->perfetto);
		if (!timeline)
			goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "bpfdrv: tracing %d hooks%s\n", nattached,
		child ? "" : "; Ctrl-C to end");
	s.start_time = s.last_time = now_s();
	next = o->interval > 0 ? s.start_time + o->interval : 0;
	end = o->duration > 0 ? s.start_time + o->duration : 0;
	if (child) {
		if (write(go_fd, "g", 1) != 1)
			err("cannot start %s", o->cmd[0]);
		close(go_fd);
		go_fd = -1;
	}
	while (!stop) {
		struct timespec tick = { 0, 50 * 1000 * 1000 };
		double t;

		if (timeline)
			trace_timeline_poll(timeline, 50);
		else
			nanosleep(&tick, NULL);
		t = now_s();
		if (child && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (next && t >= next) {
			if (o->report)
				o->report(&s, false);
			else
				trace_report_interval(&s);
			next += o->interval;
		}
		if (end && t >= end)
			break;
	}
	quiesce(&s);
	if (o->report)
		o->report(&s, true);
	else
		trace_report_final(&s);
	fflush(s.out);
	ret = 0;
	if (o->cmd && !child)
		ret = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (timeline) {
		fprintf(stderr, "bpfdrv: wrote %llu timeline events to %s\n",
			trace_timeline_close(timeline), o->perfetto);
		timeline = NULL;
	}
	trace_read_loss(&s, &loss);
	print_loss(&s, &loss);
	fflush(s.out);
	if (loss.total) {
		err("%llu events were not recorded: the counts are incomplete",
		    (unsigned long long)loss.total);
		ret = ret ?: 1;
	}
out:
	if (timeline)
		trace_timeline_close(timeline);
	if (go_fd >= 0)
		close(go_fd);	/* the child sees EOF and exits */
	if (child > 0) {	/* tracing ended first: so does the command */
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	detach_hooks();
	trace_bpf__destroy(s.skel);
	free_kernel_btfs();
	return ret;
}

/* --- options shared by trace and stats --- */

static int parse_seconds(const char *arg, const char *what, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || *v <= 0 || *v > 86400 * 365) {
		err("invalid %s '%s': a number of seconds > 0", what, arg);
		return -1;
	}
	return 0;
}

int trace_parse_common(int opt, const char *arg, struct trace_opts *o)
{
	char *end;
	long v;

	switch (opt) {
	case 'i':
		return parse_seconds(arg, "interval", &o->interval);
	case 'd':
		return parse_seconds(arg, "duration", &o->duration);
	case 'j':
		o->json = true;
		return 0;
	case 'f':
		o->follow = true;
		return 0;
	case 'p':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v <= 0 || v > 0x3fffffff) {
			err("invalid PID '%s'", arg);
			return -1;
		}
		o->pid = v;
		return 0;
	case 'c':
		if (!*arg || strlen(arg) >= TRACE_COMM_LEN) {
			err("invalid COMM '%s': 1-%d characters", arg,
				  TRACE_COMM_LEN - 1);
			return -1;
		}
		o->comm = arg;
		return 0;
	case 'o':
		o->out = fopen(arg, "w");
		if (!o->out) {
			err("%s: %s", arg, strerror(errno));
			return -1;
		}
		return 0;
	}
	return 1;
}

static int parse_groups(const char *arg, unsigned int *groups)
{
	char buf[64], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	*groups = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "npu"))
			*groups |= TRACE_NPU;
		else if (!strcmp(tok, "drm"))
			*groups |= TRACE_DRM;
		else if (!strcmp(tok, "bpfdrv"))
			*groups |= TRACE_BPFDRV;
		else if (!strcmp(tok, "all"))
			*groups |= TRACE_NPU | TRACE_DRM | TRACE_BPFDRV;
		else
			break;
	}
	if (tok || !*groups) {
		err("invalid group list '%s': npu, drm, bpfdrv or all, comma-separated",
			  arg);
		return -1;
	}
	return 0;
}

static void usage_trace(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv trace [OPTIONS] [-- COMMAND [ARGS]]\n"
		"  Trace the Intel NPU (intel_vpu), DRM and bpfdrv's own drivers:\n"
		"  counts per process, ioctl and callback latency histograms, GPU\n"
		"  scheduler and dma_fence latencies. Hooks this kernel lacks are skipped.\n"
		"  -g, --groups LIST    npu,drm,bpfdrv (default: all)\n"
		"  -l, --list           show each hook, what it attached to, and exit\n"
		"  -i, --interval SECS  print a live table every SECS seconds\n"
		"  -d, --duration SECS  stop after SECS seconds (default: Ctrl-C)\n"
		"  -p, --pid PID        only this process\n"
		"  -f, --follow         with -p: and the processes it starts from now on\n"
		"  -c, --comm COMM      only processes with this command name\n"
		"  -j, --json           JSON, one object per line\n"
		"  -o, --output FILE    write the report to FILE\n"
		"      --perfetto FILE  also write a timeline (Chrome trace-event JSON\n"
		"                       for ui.perfetto.dev or chrome://tracing)\n"
		"  -q, --quiet          do not list the skipped hooks\n"
		"  -C, --count-only     count function calls at entry, without their\n"
		"                       latency and errors: the cheapest way\n"
		"      --fentry, --kprobe-multi, --kprobes\n"
		"                       trace functions this way, not the one chosen\n"
		"                       for this kernel (see --list)\n"
		"  -- COMMAND           run COMMAND once attached, trace it and every\n"
		"                       process it starts, stop when it exits (exit\n"
		"                       status: its status)\n");
}

int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "groups", required_argument, NULL, 'g' },
		{ "list", no_argument, NULL, 'l' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "follow", no_argument, NULL, 'f' },
		{ "comm", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "count-only", no_argument, NULL, 'C' },
		{ "kprobes", no_argument, NULL, 'K' },
		{ "fentry", no_argument, NULL, 'F' },
		{ "kprobe-multi", no_argument, NULL, 'M' },
		{ "perfetto", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct trace_opts o = { .groups = TRACE_NPU | TRACE_DRM | TRACE_BPFDRV };
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+g:li:d:p:fc:jo:qCh", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			if (parse_groups(optarg, &o.groups))
				return 2;
			break;
		case 'l':
			o.list = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'C':
			o.count_only = true;
			break;
		case 'K':
			o.via = 1 + VIA_KPROBE;
			break;
		case 'F':
			o.via = 1 + VIA_FENTRY;
			break;
		case 'M':
			o.via = 1 + VIA_MULTI;
			break;
		case 'P':
			o.perfetto = optarg;
			break;
		case 'h':
			usage_trace(stdout);
			return 0;
		case '?':
			usage_trace(stderr);
			return 2;
		default:
			if (trace_parse_common(opt, optarg, &o))
				return 2;
		}
	}
	if (optind < argc)
		o.cmd = argv + optind;
	if (o.cmd && o.list) {
		err("--list takes no command");
		return 2;
	}
	if (geteuid()) {
		err("tracing needs root (CAP_BPF and CAP_PERFMON)");
		return 1;
	}
	ret = trace_session_run(&o);
	if (o.out)
		fclose(o.out);
	return ret;
}
