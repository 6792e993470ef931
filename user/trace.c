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
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <drm/drm.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "trace.h"
#include "trace_session.h"
#include "trace.skel.h"

enum hook_kind { HOOK_FUNC, HOOK_TP, HOOK_LAT };

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
	__u64 flags;			/* HOOK_FUNC: TRACE_RET_ERRNO */
	enum tp_prog prog;		/* HOOK_TP */
	__u32 lat_id;			/* HOOK_LAT: its id; needs[] attached */
	int needs[2];
	const char *what;
	/* found at run time */
	const char *target;
	bool attached;
	char why[96];
	struct bpf_link *links[2];
};

#define FUNC(g, n, mod, arg_, fl, w, ...) \
	{ .group = g, .name = n, .kind = HOOK_FUNC, .module = mod, \
	  .alt = { __VA_ARGS__ }, .arg = arg_, .flags = fl, .what = w }
#define TP(g, n, mod, p, w, ...) \
	{ .group = g, .name = n, .kind = HOOK_TP, .module = mod, \
	  .alt = { __VA_ARGS__ }, .prog = p, .what = w }
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
	TP(TRACE_DRM, "vblank", "drm", TP_COUNT, "vertical blank", "drm_vblank_event"),
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
	FUNC(TRACE_BPFDRV, "open", "bpfdrv", TRACE_ARG_INODE_MINOR, ERRNO,
	     "open() of /dev/bpfdrv/*", "bpfdrv_open"),
	FUNC(TRACE_BPFDRV, "release", "bpfdrv", TRACE_ARG_INODE_MINOR, 0,
	     "last close()", "bpfdrv_release"),
	FUNC(TRACE_BPFDRV, "read", "bpfdrv", TRACE_ARG_FILE_MINOR, ERRNO,
	     "read(), including waits", "bpfdrv_read"),
	FUNC(TRACE_BPFDRV, "write", "bpfdrv", TRACE_ARG_FILE_MINOR, ERRNO,
	     "write(), including waits", "bpfdrv_write"),
	FUNC(TRACE_BPFDRV, "ioctl", "bpfdrv", TRACE_ARG_FILE_MINOR, ERRNO,
	     "ioctl()", "bpfdrv_ioctl"),
	FUNC(TRACE_BPFDRV, "poll", "bpfdrv", TRACE_ARG_FILE_MINOR, 0,
	     "poll()/select()/epoll", "bpfdrv_poll"),
};

#define NR_HOOKS ((int)(sizeof(hooks) / sizeof(hooks[0])))

_Static_assert(NR_HOOKS < 0xff00, "hook ids must stay below the latency ids");
_Static_assert(NR_HOOKS <= TRACE_MAX_HOOKS, "raise TRACE_MAX_HOOKS");

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

/* Mark the function candidates that /proc/kallsyms lists. */
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

static struct btf *vmlinux_btf;

/* Is there a tracepoint @name in @module's BTF (or the kernel's)? */
static bool tracepoint_exists(const char *module, const char *name)
{
	char tname[128], path[160];
	struct btf *btf;
	bool found;

	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	if (!vmlinux_btf)
		vmlinux_btf = btf__load_vmlinux_btf();
	if (!vmlinux_btf)
		return false;
	if (btf__find_by_name_kind(vmlinux_btf, tname, BTF_KIND_TYPEDEF) > 0)
		return true;
	if (!module)
		return false;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", module);
	btf = btf__parse_split(path, vmlinux_btf);
	if (!btf)
		return false;
	found = btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF) > 0;
	btf__free(btf);
	return found;
}

static void absent(struct hook *h)
{
	if (h->module && !module_loaded(h->module))
		snprintf(h->why, sizeof(h->why), "module %s not loaded", h->module);
	else
		snprintf(h->why, sizeof(h->why), "not in this kernel");
}

/* Pick each hook's target: the first candidate this kernel has. */
static void probe_hooks(unsigned int groups)
{
	bool found[NR_HOOKS * MAX_ALT] = {};
	int i, j;

	probe_functions(found);
	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		h->target = NULL;
		if (!(h->group & groups) || h->kind == HOOK_LAT)
			continue;
		for (j = 0; j < MAX_ALT && h->alt[j] && !h->target; j++) {
			if (h->kind == HOOK_FUNC ? found[i * MAX_ALT + j] :
			    tracepoint_exists(h->module, h->alt[j]))
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

/* Load only the programs some present hook uses: the others may need
 * module types (CO-RE) that are not there.
 */
static void set_autoload(struct trace_bpf *skel, bool follow)
{
	struct bpf_program *prog;
	bool funcs = false;
	int i;

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	for (i = 0; i < NR_HOOKS; i++) {
		if (!hooks[i].target)
			continue;
		if (hooks[i].kind == HOOK_FUNC)
			funcs = true;
		else if (hooks[i].kind == HOOK_TP)
			bpf_program__set_autoload(tp_program(skel, hooks[i].prog), true);
	}
	bpf_program__set_autoload(skel->progs.func_entry, funcs);
	bpf_program__set_autoload(skel->progs.func_exit, funcs);
	bpf_program__set_autoload(skel->progs.trace_fork, follow);
}

static void attach_hook(struct trace_bpf *skel, int i)
{
	struct hook *h = &hooks[i];
	int e;

	if (h->kind == HOOK_FUNC) {
		LIBBPF_OPTS(bpf_kprobe_opts, kopts);

		kopts.bpf_cookie = TRACE_COOKIE(i, h->arg, h->flags);
		h->links[0] = bpf_program__attach_kprobe_opts(skel->progs.func_entry,
							      h->target, &kopts);
		if (h->links[0]) {
			kopts.retprobe = true;
			h->links[1] = bpf_program__attach_kprobe_opts(
				skel->progs.func_exit, h->target, &kopts);
		}
	} else {
		LIBBPF_OPTS(bpf_raw_tracepoint_opts, topts);

		topts.cookie = TRACE_COOKIE(i, 0, 0);
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

static void attach_hooks(struct trace_bpf *skel)
{
	int i;

	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].target && hooks[i].kind != HOOK_LAT)
			attach_hook(skel, i);
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

	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		if (h->kind == HOOK_FUNC)
			bpf_link__destroy(h->links[1]);
		if (h->kind != HOOK_LAT)
			bpf_link__destroy(h->links[0]);
		h->links[0] = h->links[1] = NULL;
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

#define IOC(name) { _IOC_NR(DRM_IOCTL_##name), #name }
static const struct { unsigned int nr; const char *name; } drm_ioctls[] = {
	IOC(VERSION), IOC(GET_UNIQUE), IOC(GET_MAGIC), IOC(GET_CLIENT),
	IOC(SET_VERSION), IOC(GEM_CLOSE), IOC(GEM_FLINK), IOC(GEM_OPEN),
	IOC(GET_CAP), IOC(SET_CLIENT_CAP), IOC(SET_MASTER), IOC(DROP_MASTER),
	IOC(PRIME_HANDLE_TO_FD), IOC(PRIME_FD_TO_HANDLE), IOC(WAIT_VBLANK),
	IOC(MODE_GETRESOURCES), IOC(MODE_GETCRTC), IOC(MODE_SETCRTC),
	IOC(MODE_GETENCODER), IOC(MODE_GETCONNECTOR), IOC(MODE_GETPROPERTY),
	IOC(MODE_SETPROPERTY), IOC(MODE_GETPROPBLOB), IOC(MODE_GETFB),
	IOC(MODE_ADDFB), IOC(MODE_RMFB), IOC(MODE_PAGE_FLIP), IOC(MODE_DIRTYFB),
	IOC(MODE_CREATE_DUMB), IOC(MODE_MAP_DUMB), IOC(MODE_DESTROY_DUMB),
	IOC(MODE_GETPLANERESOURCES), IOC(MODE_GETPLANE), IOC(MODE_SETPLANE),
	IOC(MODE_ADDFB2), IOC(MODE_OBJ_GETPROPERTIES), IOC(MODE_OBJ_SETPROPERTY),
	IOC(MODE_ATOMIC), IOC(MODE_CREATEPROPBLOB), IOC(MODE_DESTROYPROPBLOB),
	IOC(SYNCOBJ_CREATE), IOC(SYNCOBJ_DESTROY), IOC(SYNCOBJ_HANDLE_TO_FD),
	IOC(SYNCOBJ_FD_TO_HANDLE), IOC(SYNCOBJ_WAIT), IOC(SYNCOBJ_RESET),
	IOC(SYNCOBJ_SIGNAL),
};

/* A row's sub-key in words: ioctl name, driver name or event string. */
void trace_sub_name(int hook, __u32 sub, const struct trace_hist *hist,
		    char *buf, size_t size)
{
	const struct hook *h = &hooks[hook];
	const char *name;
	size_t i;

	buf[0] = '\0';
	if (h->kind == HOOK_FUNC && h->arg == TRACE_ARG_IOCTL_NR) {
		for (i = 0; i < sizeof(drm_ioctls) / sizeof(drm_ioctls[0]); i++)
			if (drm_ioctls[i].nr == sub) {
				snprintf(buf, size, "%s", drm_ioctls[i].name);
				return;
			}
		if (sub >= DRM_COMMAND_BASE && sub < DRM_COMMAND_END)
			snprintf(buf, size, "DRIVER+0x%02x", sub - DRM_COMMAND_BASE);
		else
			snprintf(buf, size, "0x%02x", sub);
	} else if (trace_hook_per_minor(hook)) {
		name = trace_driver_name(sub);
		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "minor%u", sub);
	} else if (hist && hist->str[0]) {
		snprintf(buf, size, "%.*s", TRACE_STR_LEN, hist->str);
	}
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
		if (hook < 0 || bpf_map_lookup_elem(fd, &key, &r.hist))
			continue;
		r.hook = hook;
		r.sub = key.sub;
		trace_sub_name(hook, key.sub, &r.hist, r.sub_name, sizeof(r.sub_name));
		if (!grow_rows((void **)&rows, n, &cap, sizeof(*rows)))
			break;
		rows[n++] = r;
	}
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
		struct trace_key hkey;
		struct trace_hist hist;
		struct trace_proc v;
		struct trace_proc_row r = {};
		int hook;

		key = next;
		prev = &key;
		hook = trace_hook_by_id(key.hook);
		if (hook < 0 || bpf_map_lookup_elem(fd, &key, &v))
			continue;
		r.tgid = key.tgid;
		r.hook = hook;
		r.sub = key.sub;
		r.count = v.count;
		memcpy(r.comm, v.comm, sizeof(r.comm));
		r.comm[TRACE_COMM_LEN] = '\0';
		hkey.hook = key.hook;
		hkey.sub = key.sub;
		trace_sub_name(hook, key.sub,
			       bpf_map_lookup_elem(hfd, &hkey, &hist) ? NULL : &hist,
			       r.sub_name, sizeof(r.sub_name));
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
		const char *kind = h->kind == HOOK_FUNC ? "kprobe" :
				   h->kind == HOOK_TP ? "tracepoint" : "latency";
		char status[128];

		if (!(h->group & s->opts->groups))
			continue;
		if (h->attached)
			snprintf(status, sizeof(status), "attached");
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
	if (s->opts->json)
		fputs("}}\n", s->out);
	else if (first)
		fprintf(s->out, "%8s (no events)\n", "");
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
		for (i = 0; i < np; i++)
			fprintf(out, "%-7u %-16s %-22s %-18s %10llu\n", procs[i].tgid,
				procs[i].comm, hooks[procs[i].hook].name,
				procs[i].sub_name[0] ? procs[i].sub_name : "-",
				(unsigned long long)procs[i].count);
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

static void print_summary_json(struct trace_session *s, struct trace_row *rows,
			       int n, struct trace_proc_row *procs, int np)
{
	FILE *out = s->out;
	int i;

	for (i = 0; i < n; i++) {
		const struct trace_row *r = &rows[i];
		const struct hook *h = &hooks[r->hook];

		fprintf(out, "{\"type\":\"stat\",\"group\":\"%s\",\"hook\":\"%s\","
			"\"target\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(h->group), h->name, h->target ? h->target : "",
			r->sub);
		trace_json_str(out, r->sub_name);
		fprintf(out, ",\"count\":%llu,\"errors\":%llu,\"timed\":%llu,"
			"\"total_ns\":%llu,\"max_ns\":%llu,\"hist_us\":",
			(unsigned long long)r->hist.count, (unsigned long long)r->hist.errors,
			(unsigned long long)r->hist.timed, (unsigned long long)r->hist.total_ns,
			(unsigned long long)r->hist.max_ns);
		trace_json_hist(out, &r->hist);
		fputs("}\n", out);
	}
	for (i = 0; i < np; i++) {
		fprintf(out, "{\"type\":\"proc\",\"pid\":%u,\"comm\":", procs[i].tgid);
		trace_json_str(out, procs[i].comm);
		fprintf(out, ",\"group\":\"%s\",\"hook\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(hooks[procs[i].hook].group),
			hooks[procs[i].hook].name, procs[i].sub);
		trace_json_str(out, procs[i].sub_name);
		fprintf(out, ",\"count\":%llu}\n", (unsigned long long)procs[i].count);
	}
	fprintf(out, "{\"type\":\"end\",\"duration_s\":%.3f}\n", now_s() - s->start_time);
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

int trace_session_run(struct trace_opts *o)
{
	struct trace_session s = { .opts = o, .out = o->out ? o->out : stdout };
	double next, end;
	int go_fd = -1, ret = 1, status = 0, i, nattached = 0;
	pid_t child = 0;

	trace_groups_active = o->groups;
	for (i = 0; i < NR_HOOKS; i++)
		if (!hooks[i].name) {	/* an H_* index out of step with the table */
			err("internal error: hook %d is empty", i);
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
	if (o->comm) {
		s.skel->rodata->targ_comm_set = true;
		strncpy((char *)s.skel->rodata->targ_comm, o->comm, TRACE_COMM_LEN - 1);
	}
	probe_hooks(o->groups);
	set_autoload(s.skel, o->follow);
	if (trace_bpf__load(s.skel)) {
		err("cannot load the tracing programs: %s (-v shows libbpf's log)",
			  strerror(errno));
		goto out;
	}
	if (o->follow) {
		s.skel->links.trace_fork = bpf_program__attach(s.skel->progs.trace_fork);
		if (!s.skel->links.trace_fork) {
			err("cannot follow the forks of process %u: %s", o->pid,
			    strerror(errno));
			goto out;
		}
	}
	attach_hooks(s.skel);
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
	if (o->report)
		o->report(&s, true);
	else
		trace_report_final(&s);
	fflush(s.out);
	ret = 0;
	if (o->cmd && !child)
		ret = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (o->follow && s.skel->bss->follow_lost) {
		err("%llu processes started by the traced ones were not followed (table full): the counts are incomplete",
		    (unsigned long long)s.skel->bss->follow_lost);
		ret = ret ?: 1;
	}
out:
	if (go_fd >= 0)
		close(go_fd);	/* the child sees EOF and exits */
	if (child > 0) {	/* tracing ended first: so does the command */
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	detach_hooks();
	trace_bpf__destroy(s.skel);
	btf__free(vmlinux_btf);
	vmlinux_btf = NULL;
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
		"  -q, --quiet          do not list the skipped hooks\n"
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
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct trace_opts o = { .groups = TRACE_NPU | TRACE_DRM | TRACE_BPFDRV };
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+g:li:d:p:fc:jo:qh", opts, NULL)) != -1) {
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
