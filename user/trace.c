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
#include "trace_nvidia.h"
#include "trace_session.h"
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

/* HOOK_SYS: a device's system calls, the only way (the dev group) */
enum hook_kind { HOOK_FUNC, HOOK_TP, HOOK_LAT, HOOK_SYS };
/*
 * VIA_FOP: bpfdrv.ko's bpfdrv_fop tracepoint, for its file operations.
 * VIA_SYSCALL: the system calls on the device's files, where the kernel
 * lets no function be probed (or --syscalls).
 */
enum func_via { VIA_FENTRY, VIA_MULTI, VIA_KPROBE, VIA_FOP, VIA_SYSCALL };

static const char *const via_names[] = {
	[VIA_FENTRY] = "fentry", [VIA_MULTI] = "kprobe.multi", [VIA_KPROBE] = "kprobe",
	[VIA_FOP] = "tracepoint", [VIA_SYSCALL] = "syscall",
};

static const char *const sys_op_names[TRACE_SYS_NR] = {
	[TRACE_SYS_OPEN] = "open", [TRACE_SYS_CLOSE] = "close",
	[TRACE_SYS_READ] = "read", [TRACE_SYS_WRITE] = "write",
	[TRACE_SYS_IOCTL] = "ioctl", [TRACE_SYS_MMAP] = "mmap",
	[TRACE_SYS_POLL] = "poll",
};

enum tp_prog {
	TP_COUNT, TP_STR_COUNT, TP_SCHED_QUEUE, TP_SCHED_RUN, TP_SCHED_DONE,
	TP_FENCE_INIT, TP_FENCE_EMIT, TP_FENCE_SIGNALED, TP_FENCE_DESTROY,
	TP_VPU_JOB, TP_XID, TP_IRQ_NAMED,
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

#define FUNC(g, n, mod, arg_, fl, w, ...) \
	{ .group = g, .name = n, .kind = HOOK_FUNC, .module = mod, \
	  .alt = { __VA_ARGS__ }, .arg = arg_, .flags = fl, .what = w }
/* A function a system call on a device of class cls stands for. */
#define FUNC_SYS(g, n, mod, arg_, fl, w, op, cls, ...) \
	{ .group = g, .name = n, .kind = HOOK_FUNC, .module = mod, \
	  .alt = { __VA_ARGS__ }, .arg = arg_, .flags = fl, .what = w, \
	  .sys_op = op, .dev_class = cls }
/* A file operation of bpfdrv.ko: its tracepoint, the function or the syscall */
#define FOP(n, op, arg_, fl, w, fn, sop) \
	{ .group = TRACE_BPFDRV, .name = n, .kind = HOOK_FUNC, .module = "bpfdrv", \
	  .alt = { fn }, .arg = arg_, .flags = fl, .what = w, .fop = 1 + (op), \
	  .sys_op = sop, .dev_class = TRACE_DEV_BPFDRV }
/* A system call on the devices --device names */
#define SYS(n, op, arg_, w) \
	{ .group = TRACE_DEV, .name = n, .kind = HOOK_SYS, .arg = arg_, .flags = ERRNO, \
	  .what = w, .sys_op = op, .dev_class = TRACE_DEV_USER }
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
	FUNC_SYS(TRACE_DRM, "drm_ioctl", "drm", TRACE_ARG_IOCTL_NR, ERRNO,
		 "every DRM/accel ioctl, per ioctl number", TRACE_SYS_IOCTL,
		 TRACE_DEV_DRM, "drm_ioctl"),
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
	    "open() of /dev/bpfdrv/*", "bpfdrv_open", TRACE_SYS_OPEN),
	FOP("release", BPFDRV_FOP_RELEASE, TRACE_ARG_INODE_MINOR, 0,
	    "last close() (as a syscall: every close())", "bpfdrv_release",
	    TRACE_SYS_CLOSE),
	FOP("read", BPFDRV_FOP_READ, TRACE_ARG_FILE_MINOR, ERRNO,
	    "read(), including waits", "bpfdrv_read", TRACE_SYS_READ),
	FOP("write", BPFDRV_FOP_WRITE, TRACE_ARG_FILE_MINOR, ERRNO,
	    "write(), including waits", "bpfdrv_write", TRACE_SYS_WRITE),
	FOP("ioctl", BPFDRV_FOP_IOCTL, TRACE_ARG_FILE_MINOR, ERRNO,
	    "ioctl()", "bpfdrv_ioctl", TRACE_SYS_IOCTL),
	FOP("poll", BPFDRV_FOP_POLL, TRACE_ARG_FILE_MINOR, 0,
	    "poll()/select()/epoll (as a syscall: poll/ppoll)", "bpfdrv_poll",
	    TRACE_SYS_POLL),

	/*
	 * NVIDIA's driver (nvidia.ko, nvidia_uvm.ko): the functions of its
	 * file operations, else the system calls on its nodes; interrupts by
	 * function, or by handler name from the irq tracepoints.
	 */
	FUNC_SYS(TRACE_NVIDIA, "open", "nvidia", TRACE_ARG_INODE_MINOR, ERRNO,
		 "open() of /dev/nvidia*", TRACE_SYS_OPEN, TRACE_DEV_NVIDIA,
		 "nvidia_open"),
	FUNC_SYS(TRACE_NVIDIA, "close", "nvidia", TRACE_ARG_INODE_MINOR, 0,
		 "last close() (as a syscall: every close())", TRACE_SYS_CLOSE,
		 TRACE_DEV_NVIDIA, "nvidia_close"),
	FUNC_SYS(TRACE_NVIDIA, "ioctl", "nvidia", TRACE_ARG_IOCTL_CMD, ERRNO,
		 "ioctl(), per escape code (NV_ESC_*)", TRACE_SYS_IOCTL,
		 TRACE_DEV_NVIDIA, "nvidia_unlocked_ioctl"),
	FUNC_SYS(TRACE_NVIDIA, "mmap", "nvidia", TRACE_ARG_FILE_MINOR, ERRNO,
		 "mmap() of GPU or system memory", TRACE_SYS_MMAP,
		 TRACE_DEV_NVIDIA, "nvidia_mmap"),
	FUNC_SYS(TRACE_NVIDIA, "uvm_open", "nvidia_uvm", TRACE_ARG_INODE_MINOR, ERRNO,
		 "open() of /dev/nvidia-uvm*", TRACE_SYS_OPEN, TRACE_DEV_NVIDIA_UVM,
		 "uvm_open_entry", "uvm_open"),
	FUNC_SYS(TRACE_NVIDIA, "uvm_close", "nvidia_uvm", TRACE_ARG_INODE_MINOR, 0,
		 "last close() (as a syscall: every close())", TRACE_SYS_CLOSE,
		 TRACE_DEV_NVIDIA_UVM, "uvm_release_entry", "uvm_release"),
	FUNC_SYS(TRACE_NVIDIA, "uvm_ioctl", "nvidia_uvm", TRACE_ARG_IOCTL_CMD, ERRNO,
		 "ioctl(), per UVM_* command", TRACE_SYS_IOCTL, TRACE_DEV_NVIDIA_UVM,
		 "uvm_unlocked_ioctl_entry", "uvm_unlocked_ioctl"),
	FUNC_SYS(TRACE_NVIDIA, "uvm_mmap", "nvidia_uvm", TRACE_ARG_FILE_MINOR, ERRNO,
		 "mmap() of managed memory", TRACE_SYS_MMAP, TRACE_DEV_NVIDIA_UVM,
		 "uvm_mmap_entry", "uvm_mmap"),
	FUNC(TRACE_NVIDIA, "fault", "nvidia", 0, 0,
	     "CPU page fault on a mapping", "nvidia_fault"),
	FUNC(TRACE_NVIDIA, "vma_open", "nvidia", 0, 0,
	     "mapping copied (fork, split)", "nvidia_vma_open"),
	FUNC(TRACE_NVIDIA, "vma_release", "nvidia", 0, 0,
	     "mapping removed", "nvidia_vma_release"),
	FUNC(TRACE_NVIDIA, "isr", "nvidia", 0, 0,
	     "interrupt handler (INTx, MSI)", "nvidia_isr"),
	FUNC(TRACE_NVIDIA, "isr_msix", "nvidia", 0, 0,
	     "interrupt handler (MSI-X)", "nvidia_isr_msix"),
	FUNC(TRACE_NVIDIA, "isr_bh", "nvidia", 0, 0,
	     "interrupt bottom half (thread)", "nvidia_isr_kthread_bh"),
	FUNC(TRACE_NVIDIA, "isr_msix_bh", "nvidia", 0, 0,
	     "interrupt bottom half, MSI-X (thread)", "nvidia_isr_msix_kthread_bh"),
	TP(TRACE_NVIDIA, "irq_handler", "nvidia", TP_IRQ_NAMED,
	   "hard interrupt handlers named nvidia, per IRQ (irq tracepoints)",
	   "irq_handler_entry"),
	FUNC(TRACE_NVIDIA, "uvm_fault_replayable", "nvidia_uvm", 0, 0,
	     "GPU replayable page faults serviced (one batch a call)",
	     "uvm_parent_gpu_service_replayable_faults",
	     "uvm_gpu_service_replayable_faults"),
	FUNC(TRACE_NVIDIA, "uvm_fault_non_replayable", "nvidia_uvm", 0, 0,
	     "GPU non-replayable fault buffer serviced",
	     "uvm_parent_gpu_service_non_replayable_fault_buffer",
	     "uvm_gpu_service_non_replayable_fault_buffer"),
	FUNC(TRACE_NVIDIA, "uvm_cpu_fault", "nvidia_uvm", 0, 0,
	     "CPU page fault on managed memory", "uvm_vm_fault_entry", "uvm_vm_fault"),
	FUNC(TRACE_NVIDIA, "p2p_get_pages", "nvidia", 0, ERRNO,
	     "peer-to-peer pages pinned (GPUDirect RDMA)", "nvidia_p2p_get_pages"),
	FUNC(TRACE_NVIDIA, "p2p_put_pages", "nvidia", 0, ERRNO,
	     "peer-to-peer pages released", "nvidia_p2p_put_pages"),
	FUNC(TRACE_NVIDIA, "p2p_dma_map", "nvidia", 0, ERRNO,
	     "peer-to-peer pages DMA-mapped for a peer", "nvidia_p2p_dma_map_pages"),
	FUNC(TRACE_NVIDIA, "p2p_dma_unmap", "nvidia", 0, ERRNO,
	     "peer-to-peer DMA mapping removed", "nvidia_p2p_dma_unmap_pages"),
	FUNC(TRACE_NVIDIA, "suspend", "nvidia", 0, ERRNO,
	     "GPU suspend (system or runtime)", "nv_pmops_suspend", "nvidia_suspend"),
	FUNC(TRACE_NVIDIA, "resume", "nvidia", 0, ERRNO,
	     "GPU resume", "nv_pmops_resume", "nvidia_resume"),
	TP(TRACE_NVIDIA, "xid", "nvidia", TP_XID,
	   "Xid error reports, per Xid, with the message", "nvidia_dev_xid"),

	/* any character device: --device PATH or MAJOR[:MINOR] */
	SYS("open", TRACE_SYS_OPEN, TRACE_ARG_INODE_MINOR, "open() of the devices"),
	SYS("close", TRACE_SYS_CLOSE, TRACE_ARG_INODE_MINOR, "close()"),
	SYS("read", TRACE_SYS_READ, TRACE_ARG_FILE_MINOR, "read(), pread64()"),
	SYS("write", TRACE_SYS_WRITE, TRACE_ARG_FILE_MINOR, "write(), pwrite64()"),
	SYS("ioctl", TRACE_SYS_IOCTL, TRACE_ARG_IOCTL_CMD, "ioctl(), per command"),
	SYS("mmap", TRACE_SYS_MMAP, TRACE_ARG_FILE_MINOR, "mmap()"),
	SYS("poll", TRACE_SYS_POLL, TRACE_ARG_FILE_MINOR, "poll(), ppoll()"),
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
	case TRACE_NVIDIA: return "nvidia";
	case TRACE_DEV: return "dev";
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

/*
 * The character devices of each class, for the syscall programs: fixed
 * majors, or those /proc/devices lists under the driver's name.
 */
static unsigned int sys_dev_keys[TRACE_MAX_DEVICES + 8];
static enum trace_dev_class sys_dev_classes[TRACE_MAX_DEVICES + 8];
static int nr_sys_devs;

#define KDEV(major, minor)	(((major) << 20) | (minor))	/* the kernel's dev_t */

static void sys_dev_add(unsigned int key, enum trace_dev_class cls)
{
	if (nr_sys_devs < (int)(sizeof(sys_dev_keys) / sizeof(sys_dev_keys[0]))) {
		sys_dev_keys[nr_sys_devs] = key;
		sys_dev_classes[nr_sys_devs++] = cls;
	}
}

/* The major /proc/devices gives character devices named @name, or -1. */
static int chrdev_major(const char *name)
{
	char line[128], dev[64];
	FILE *f = fopen("/proc/devices", "r");
	bool chr = false;
	int major = -1, m;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Character", 9))
			chr = true;
		else if (!strncmp(line, "Block", 5))
			chr = false;
		else if (chr && sscanf(line, "%d %63s", &m, dev) == 2 && !strcmp(dev, name))
			major = m;
	}
	fclose(f);
	return major;
}

static void probe_sys_devs(const struct trace_opts *o)
{
	int i, m;

	nr_sys_devs = 0;
	sys_dev_add(KDEV(226, TRACE_ANY_MINOR), TRACE_DEV_DRM);	/* DRM_MAJOR */
	sys_dev_add(KDEV(261, TRACE_ANY_MINOR), TRACE_DEV_DRM);	/* ACCEL_MAJOR */
	sys_dev_add(KDEV(195, TRACE_ANY_MINOR), TRACE_DEV_NVIDIA);	/* NV_MAJOR_DEVICE_NUMBER */
	m = chrdev_major("nvidia-uvm");
	if (m > 0)
		sys_dev_add(KDEV(m, TRACE_ANY_MINOR), TRACE_DEV_NVIDIA_UVM);
	m = chrdev_major("bpfdrv");
	if (m > 0)
		sys_dev_add(KDEV(m, TRACE_ANY_MINOR), TRACE_DEV_BPFDRV);
	for (i = 0; i < o->nr_devices; i++)
		sys_dev_add(o->devices[i], TRACE_DEV_USER);
}

static bool sys_class_present(enum trace_dev_class cls)
{
	int i;

	for (i = 0; i < nr_sys_devs; i++)
		if (sys_dev_classes[i] == cls)
			return true;
	return false;
}

/* Trace hook @h by the system calls on its devices, if it has them. */
static bool use_syscalls(struct hook *h)
{
	if (h->sys_op == TRACE_SYS_NONE || !sys_class_present(h->dev_class))
		return false;
	h->via = VIA_SYSCALL;
	h->target = sys_op_names[h->sys_op];
	return true;
}

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
		h->why[0] = '\0';
		if (!(h->group & groups) || h->kind == HOOK_LAT)
			continue;
		if (h->kind == HOOK_SYS) {
			if (!use_syscalls(h))
				snprintf(h->why, sizeof(h->why), "no --device given");
			continue;
		}
		if (h->module && !module_loaded(h->module)) {
			absent(h);
			continue;
		}
		if (h->kind == HOOK_FUNC && func_via == VIA_SYSCALL) {
			if (!use_syscalls(h))
				snprintf(h->why, sizeof(h->why), "--syscalls: %s",
					 h->sys_op ? "its devices are not here" :
					 "no system call stands for it");
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

/*
 * Programs the kernel refused on their own, and why: the hooks that use
 * them are skipped (or traced another way), the others load.
 */
static struct refused_prog {
	char name[64];
	char why[128];
} refused[16];
static int nr_refused;

static const char *refused_why(const char *name)
{
	int i;

	for (i = 0; i < nr_refused; i++)
		if (!strcmp(refused[i].name, name))
			return refused[i].why;
	return NULL;
}

/*
 * BPFDRV_TRACE_REFUSE=prog,...: treat these programs as refused by the
 * kernel, so that tests reach every fallback on any kernel.
 */
static void refuse_for_tests(void)
{
	const char *env = getenv("BPFDRV_TRACE_REFUSE");
	char buf[512], *tok, *save = NULL;

	nr_refused = 0;
	if (!env)
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok && nr_refused < 16;
	     tok = strtok_r(NULL, ",", &save)) {
		snprintf(refused[nr_refused].name, sizeof(refused[0].name), "%s", tok);
		snprintf(refused[nr_refused++].why, sizeof(refused[0].why),
			 "(BPFDRV_TRACE_REFUSE)");
	}
}

/* Is @prog not loaded? Then why, in @why. */
static bool prog_unusable(const struct bpf_program *prog, char *why, size_t size)
{
	const char *r;

	if (bpf_program__fd(prog) >= 0)
		return false;
	r = refused_why(bpf_program__name(prog));
	snprintf(why, size, "program %s %s%s", bpf_program__name(prog),
		 r ? "refused: " : "not loaded", r ? r : "");
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

static bool irq_from_tracepoints;	/* trace_irqtp.bpf.o: see open_skel() */

static int set_autoload(struct trace_bpf *skel, bool follow)
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
		} else if (h->kind == HOOK_TP) {
			irqs = true;
			bpf_program__set_autoload(tp_program(skel, h->prog), true);
			if (h->prog == TP_IRQ_NAMED)
				bpf_program__set_autoload(skel->progs.tp_irq_handler_exit, true);
		}
	}
	bpf_program__set_autoload(skel->progs.tp_sys_enter, sys);
	bpf_program__set_autoload(skel->progs.tp_sys_exit, sys);
	bpf_program__set_autoload(skel->progs.tp_irq_enter, irqs && irq_from_tracepoints);
	bpf_program__set_autoload(skel->progs.tp_irq_exit, irqs && irq_from_tracepoints);
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

/* 0, or why fentry/fexit cannot trace @h (an errno, in @why) */
static int attach_fentry(struct trace_bpf *skel, struct hook *h, __u64 cookie,
			 char *why, size_t size)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .tracing.cookie = cookie);
	struct bpf_program *tmpl[2] = { skel->progs.func_fentry, skel->progs.func_fexit };
	int k;

	for (k = 0; k < (count_only ? 1 : 2); k++) {
		double t0 = now_s();

		if (prog_unusable(tmpl[k], why, size))
			return -1;
		h->prog_fds[k] = fentry_prog(tmpl[k], h);
		t_copy += now_s() - t0;
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
static int func_slot(int i)
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
static int attach_kprobes(struct trace_bpf *skel, struct hook *h, __u64 cookie,
			  char *why, size_t size)
{
	LIBBPF_OPTS(bpf_kprobe_opts, kopts, .bpf_cookie = cookie);

	if (!have_kprobes()) {
		snprintf(why, size, "not in this kernel");
		return -1;
	}
	if (prog_unusable(skel->progs.func_entry, why, size) ||
	    (!count_only && prog_unusable(skel->progs.func_exit, why, size)))
		return -1;
	h->links[0] = bpf_program__attach_kprobe_opts(skel->progs.func_entry,
						      h->target, &kopts);
	if (h->links[0] && count_only) {
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
static void attach_func(struct trace_bpf *skel, int i)
{
	struct hook *h = &hooks[i];
	__u64 cookie = TRACE_FUNC_COOKIE(i, h->arg, h->flags, func_slot(i));
	char why[sizeof(h->why)] = "";
	size_t n;

	if (h->via == VIA_FENTRY && h->btf_id) {
		if (!attach_fentry(skel, h, cookie, why, sizeof(why))) {
			h->attached = true;
			return;
		}
		snprintf(h->why, sizeof(h->why), "fentry: %s; ", why);
	}
	close_fds(h->link_fds, 2);
	close_fds(h->prog_fds, 2);
	h->via = VIA_KPROBE;
	n = strlen(h->why);	/* after the earlier ways' reasons */
	if (!attach_kprobes(skel, h, cookie, why, sizeof(why))) {
		h->attached = true;
		return;
	}
	snprintf(h->why + n, sizeof(h->why) - n, "kprobe: %s", why);
	use_syscalls(h);	/* VIA_SYSCALL: attach_syscalls() tries it */
}

static void attach_hook(struct trace_bpf *skel, int i)
{
	LIBBPF_OPTS(bpf_raw_tracepoint_opts, topts);
	struct hook *h = &hooks[i];
	struct bpf_program *prog = tp_program(skel, h->prog);
	char why[sizeof(h->why)];

	if (h->kind == HOOK_FUNC) {
		attach_func(skel, i);
		return;
	}
	if (prog_unusable(prog, why, sizeof(why)) ||
	    (h->prog == TP_IRQ_NAMED &&
	     prog_unusable(skel->progs.tp_irq_handler_exit, why, sizeof(why)))) {
		snprintf(h->why, sizeof(h->why), "%s", why);
		return;
	}
	topts.cookie = TRACE_COOKIE(i, 0, h->flags);
	h->links[0] = bpf_program__attach_raw_tracepoint_opts(prog, h->target, &topts);
	h->links[1] = h->links[0];
	if (h->links[0] && h->prog == TP_IRQ_NAMED)	/* the exit too */
		h->links[1] = bpf_program__attach_raw_tracepoint_opts(
			skel->progs.tp_irq_handler_exit, "irq_handler_exit", &topts);
	if (h->links[0] && h->links[1]) {
		h->attached = true;
		return;
	}
	snprintf(h->why, sizeof(h->why), "attach failed: %s", strerror(errno));
	bpf_link__destroy(h->links[0]);
	h->links[0] = h->links[1] = NULL;
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
static void attach_syscalls(struct trace_bpf *skel)
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
	for (i = 0; i < nr_sys_devs; i++)
		bpf_map__update_elem(skel->maps.sys_devs, &sys_dev_keys[i], sizeof(__u32),
				     &sys_dev_classes[i], sizeof(__u32), BPF_ANY);
	if (!prog_unusable(skel->progs.tp_sys_enter, why, sizeof(why)) &&
	    !prog_unusable(skel->progs.tp_sys_exit, why, sizeof(why))) {
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

/* Both ends of tracepoint pair @base (_entry, _exit): 1, 0 if absent, -1 */
static int attach_irq_pair(struct trace_bpf *skel, const char *base, __u64 cookie)
{
	LIBBPF_OPTS(bpf_raw_tracepoint_opts, topts, .cookie = cookie);
	struct bpf_program *progs[2] = { skel->progs.tp_irq_exit, skel->progs.tp_irq_enter };
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
		irq_links[nr_irq_links] = bpf_program__attach_raw_tracepoint_opts(progs[k],
										  name, &topts);
		if (!irq_links[nr_irq_links]) {
			snprintf(irq_why, sizeof(irq_why), "%s: %s", name, strerror(errno));
			return -1;
		}
		nr_irq_links++;
	}
	return 1;
}

static void attach_irq_context(struct trace_bpf *skel)
{
	static const char *const hard[] = {
		"irq_handler", "local_timer", "irq_work", "call_function",
		"call_function_single", "reschedule", "thermal_apic",
		"x86_platform_ipi", "error_apic", "spurious_apic",
	};
	int i;

	irq_why[0] = '\0';
	if (!irq_from_tracepoints || !bpf_program__autoload(skel->progs.tp_irq_enter) ||
	    prog_unusable(skel->progs.tp_irq_enter, irq_why, sizeof(irq_why)) ||
	    prog_unusable(skel->progs.tp_irq_exit, irq_why, sizeof(irq_why)))
		return;
	for (i = 0; i < (int)(sizeof(hard) / sizeof(hard[0])); i++)
		attach_irq_pair(skel, hard[i], 0);
	attach_irq_pair(skel, "softirq", 1);
}


static struct bpf_link *multi_links[2];
static struct bpf_link *fop_link;

/* bpfdrv's file operations: one link to bpfdrv_fop, a cookie per op. */
static void attach_fops(struct trace_bpf *skel)
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
	if (!prog_unusable(skel->progs.tp_bpfdrv_fop, why, sizeof(why))) {
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
		use_syscalls(h);
	}
}

/* Every kprobe.multi function in two links; false (and why) if refused. */
static bool attach_multi(struct trace_bpf *skel, char *why, size_t size)
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
		struct bpf_program *prog = k ? skel->progs.func_mexit : skel->progs.func_mentry;

		if (prog_unusable(prog, why, size))
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

static void attach_hooks(struct trace_bpf *skel)
{
	char why[sizeof(hooks[0].why) / 2] = "";
	double t0 = now_s();
	int i;

	attach_irq_context(skel);
	if (!attach_multi(skel, why, sizeof(why))) {
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
	attach_fops(skel);
	t_attach_func += now_s() - t0;
	for (i = 0; i < NR_HOOKS; i++) {
		double t0 = now_s();

		if (!hooks[i].target || hooks[i].kind == HOOK_LAT || hooks[i].attached ||
		    hooks[i].kind == HOOK_SYS || hooks[i].via == VIA_FOP ||
		    (hooks[i].kind == HOOK_FUNC && hooks[i].via == VIA_SYSCALL))
			continue;
		attach_hook(skel, i);
		if (hooks[i].kind == HOOK_FUNC)
			t_attach_func += now_s() - t0;
	}
	attach_syscalls(skel);
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

/* --- reading the results --- */

unsigned int trace_groups_active;
static const struct trace_opts *session_opts;	/* for the names of --device */

#define MINOR_MASK	0xfffffU

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
	return (hooks[i].kind == HOOK_FUNC || hooks[i].kind == HOOK_SYS) &&
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

/* The device node of a minor, for the class of hook @h. */
static void minor_name(const struct hook *h, __u32 minor, char *buf, size_t size)
{
	const char *name = NULL;
	int i;

	switch (h->dev_class) {
	case TRACE_DEV_BPFDRV:
		name = trace_driver_name(minor);
		break;
	case TRACE_DEV_NVIDIA:
	case TRACE_DEV_NVIDIA_UVM:
		nvidia_minor_name(minor, h->dev_class == TRACE_DEV_NVIDIA_UVM, buf, size);
		return;
	case TRACE_DEV_USER:	/* the --device that names exactly this one */
		for (i = 0; session_opts && i < session_opts->nr_devices; i++)
			if ((session_opts->devices[i] & MINOR_MASK) == minor)
				name = session_opts->device_names[i];
		break;
	default:
		break;
	}
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "minor%u", minor);
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
	} else if (h->arg == TRACE_ARG_IOCTL_CMD) {
		name = h->dev_class == TRACE_DEV_NVIDIA ? nvidia_ioctl_name(sub) :
		       h->dev_class == TRACE_DEV_NVIDIA_UVM ? nvidia_uvm_ioctl_name(sub) :
		       NULL;
		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "0x%x", sub);
	} else if (trace_hook_per_minor(hook)) {
		minor_name(h, sub, buf, size);
	} else if (h->prog == TP_XID && h->kind == HOOK_TP) {
		snprintf(buf, size, "%u %.*s", sub, TRACE_STR_LEN, hist ? hist->str : "");
	} else if (h->prog == TP_IRQ_NAMED && h->kind == HOOK_TP) {
		snprintf(buf, size, "irq%u", sub);
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

/* Are the hook's events calls (func_count()): a function's or a syscall's? */
static bool counted_by_call(int hook)
{
	return hooks[hook].kind == HOOK_FUNC || hooks[hook].kind == HOOK_SYS;
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
		if (counted_by_call(rows[i].hook))
			rows[i].hist.count = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (lookup_proc(fd, &key, &v))
			continue;
		for (i = 0; i < n; i++)
			if (counted_by_call(rows[i].hook) &&
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

/* How events in interrupts are told from the interrupted task's. */
static void print_irq_context(struct trace_session *s)
{
	char how[192];

	if (!irq_from_tracepoints)
		snprintf(how, sizeof(how), "told by the preempt count (a percpu ksym)");
	else if (nr_irq_links)
		snprintf(how, sizeof(how),
			 "told by %d irq, softirq and x86 vector tracepoints%s",
			 nr_irq_links, s->opts->irq_tracepoints ? "" :
			 " (percpu ksyms cannot be resolved here)");
	else if (irq_why[0])
		snprintf(how, sizeof(how), "not told apart: %s", irq_why);
	else
		snprintf(how, sizeof(how), "not needed (no hook here fires in one)");
	if (s->opts->json) {
		fputs("{\"type\":\"irq_context\",\"how\":", s->out);
		trace_json_str(s->out, how);
		fputs("}\n", s->out);
	} else {
		fprintf(s->out, "\nInterrupt context: %s.\n", how);
	}
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
		const char *kind = h->kind == HOOK_FUNC || h->kind == HOOK_SYS ?
				   via_names[h->via] :
				   h->kind == HOOK_TP ? "tracepoint" : "latency";
		char status[256];

		if (!(h->group & s->opts->groups))
			continue;
		if (!h->attached)
			kind = "-";
		if (h->attached)	/* and why not a way tried before */
			snprintf(status, sizeof(status), "attached%s%s%s%s",
				 h->kind == HOOK_FUNC && count_only && h->via <= VIA_KPROBE ?
				 ", entry only" : "", h->why[0] ? " (" : "", h->why,
				 h->why[0] ? ")" : "");
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
	print_irq_context(s);
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

/*
 * Can this kernel resolve a percpu variable as a ksym (the preempt count)?
 * Not without CONFIG_KALLSYMS_ALL: the verifier then refuses every program
 * that names one ("ldimm64 failed to find the address"), so interrupts are
 * told from tracepoints by an object that names none (trace_irqtp.bpf.o).
 */
static bool percpu_ksym_resolves(void)
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

/* The object, opened and set up for this session's options and hooks. */
static struct trace_bpf *open_skel(const struct trace_opts *o)
{
	struct trace_bpf *skel = calloc(1, sizeof(*skel));
	struct bpf_program *prog;
	int i, e;

	if (!skel || trace_bpf__create_skeleton(skel))
		goto fail;
	/* the same source and layout, built without percpu ksyms */
	if (irq_from_tracepoints)
		skel->skeleton->data = trace_irqtp_bpf__elf_bytes(&skel->skeleton->data_sz);
	if (bpf_object__open_skeleton(skel->skeleton, NULL))
		goto fail;
	skel->rodata->targ_tgid = o->pid;
	skel->rodata->targ_follow = o->follow;
	skel->rodata->count_only = count_only;
	if (o->perfetto)
		skel->rodata->emit_events = true;
	else	/* the ring buffer stays, smallest */
		bpf_map__set_max_entries(skel->maps.events, getpagesize());
	if (o->comm) {
		skel->rodata->targ_comm_set = true;
		strncpy((char *)skel->rodata->targ_comm, o->comm, TRACE_COMM_LEN - 1);
	}
	/* NVIDIA's interrupt handlers are named after its module */
	strcpy((char *)skel->rodata->irq_name, "nvidia");
	if (set_autoload(skel, o->follow))
		goto fail;
	for (i = 0; i < nr_refused; i++) {
		prog = bpf_object__find_program_by_name(skel->obj, refused[i].name);
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
static int find_refused(const struct trace_opts *o)
{
	char names[32][64];
	struct bpf_program *prog;
	struct trace_bpf *skel = open_skel(o);
	int n = 0, found = 0, i, e;

	if (!skel)
		return 0;
	bpf_object__for_each_program(prog, skel->obj)
		if (bpf_program__autoload(prog) && n < 32)
			snprintf(names[n++], sizeof(names[0]), "%.63s", bpf_program__name(prog));
	trace_bpf__destroy(skel);
	for (i = 0; i < n && nr_refused < (int)(sizeof(refused) / sizeof(refused[0])); i++) {
		size_t mark = libbpf_log_mark();
		struct refused_prog *r = &refused[nr_refused];

		skel = open_skel(o);
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
			nr_refused++;
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
		s->skel = open_skel(o);
		if (!s->skel) {
			err("cannot open the tracing programs: %s", strerror(errno));
			return -1;
		}
		if (!trace_bpf__load(s->skel))
			return 0;
		e = errno;
		trace_bpf__destroy(s->skel);
		s->skel = NULL;
		if (!find_refused(o))
			break;
	}
	err("cannot load the tracing programs: %s (-v shows libbpf's log)", strerror(e));
	return -1;
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
	session_opts = o;
	refuse_for_tests();
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
	/* a command is traced with everything it starts, as strace -f does */
	o->follow = o->pid && (o->follow || o->cmd);
	count_only = o->count_only;
	t0 = now_s();
	func_via = o->via ? (enum func_via)(o->via - 1) : choose_via(o->count_only);
	func_via_forced = o->via;
	probe_sys_devs(o);
	irq_from_tracepoints = o->irq_tracepoints || !percpu_ksym_resolves();
	probe_hooks(o->groups);
	s.t_probe = now_s() - t0;
	t0 = now_s();
	if (load_skel(&s, o))
		goto out;
	if (bpf_program__fd(s.skel->progs.find_ksym) >= 0)
		s.skel->bss->drm_core_ioctls = find_ksym(s.skel, "drm:drm_ioctls") ?:
					       find_ksym(s.skel, "drm_ioctls");
	if (o->follow) {
		char why[128] = "";

		if (!prog_unusable(s.skel->progs.trace_fork, why, sizeof(why))) {
			s.skel->links.trace_fork =
				bpf_program__attach(s.skel->progs.trace_fork);
			snprintf(why, sizeof(why), "%s", strerror(errno));
		}
		if (!s.skel->links.trace_fork) {
			err("cannot follow the forks of process %u: %s", o->pid, why);
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
		err("nothing to trace: no hook of the chosen groups can be attached here");
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
		else if (!strcmp(tok, "nvidia"))
			*groups |= TRACE_NVIDIA;
		else if (!strcmp(tok, "dev"))
			*groups |= TRACE_DEV;
		else if (!strcmp(tok, "all"))
			*groups |= TRACE_ALL;
		else
			break;
	}
	if (tok || !*groups) {
		err("invalid group list '%s': npu, drm, bpfdrv, nvidia, dev or all, comma-separated",
			  arg);
		return -1;
	}
	return 0;
}

/* --device PATH or MAJOR[:MINOR]: a character device for the dev group */
static int parse_device(const char *arg, struct trace_opts *o)
{
	unsigned int major, minor = TRACE_ANY_MINOR;
	struct stat st;
	char *end;

	if (o->nr_devices >= TRACE_MAX_DEVICES) {
		err("at most %d devices", TRACE_MAX_DEVICES);
		return -1;
	}
	if (arg[0] == '/') {
		if (stat(arg, &st)) {
			err("%s: %s", arg, strerror(errno));
			return -1;
		}
		if (!S_ISCHR(st.st_mode)) {
			err("%s is not a character device", arg);
			return -1;
		}
		major = major(st.st_rdev);
		minor = minor(st.st_rdev);
	} else {
		errno = 0;
		major = strtoul(arg, &end, 10);
		if (!errno && *end == ':')
			minor = strtoul(end + 1, &end, 10);
		if (errno || end == arg || *end || major >= 4096 ||
		    (minor != TRACE_ANY_MINOR && minor >= TRACE_ANY_MINOR)) {
			err("invalid device '%s': a path, or MAJOR[:MINOR]", arg);
			return -1;
		}
	}
	o->devices[o->nr_devices] = (major << 20) | minor;
	o->device_names[o->nr_devices++] = (char *)arg;
	return 0;
}

static void usage_trace(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv trace [OPTIONS] [-- COMMAND [ARGS]]\n"
		"  Trace the Intel NPU (intel_vpu), DRM, NVIDIA's driver and bpfdrv's\n"
		"  own drivers: counts per process, ioctl and callback latency\n"
		"  histograms, GPU scheduler and dma_fence latencies. Hooks this kernel\n"
		"  lacks or refuses are skipped, each with its reason (see --list).\n"
		"  -g, --groups LIST    npu,drm,bpfdrv,nvidia,dev (default: all, which\n"
		"                       is all but dev)\n"
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
		"      --syscalls       trace the system calls on the devices' files\n"
		"                       instead of functions (chosen by itself where\n"
		"                       the kernel refuses function probes)\n"
		"      --device DEV     the dev group: a character device by PATH or\n"
		"                       MAJOR[:MINOR], traced by its system calls\n"
		"                       (repeatable)\n"
		"      --irq-tracepoints  tell interrupts from the irq tracepoints, as\n"
		"                       where percpu ksyms cannot be resolved\n"
		"      --ioctl-names    print NVIDIA's ioctl numbers and names, and exit\n"
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
		{ "syscalls", no_argument, NULL, 'S' },
		{ "device", required_argument, NULL, 'D' },
		{ "irq-tracepoints", no_argument, NULL, 'I' },
		{ "ioctl-names", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct trace_opts o = { .groups = TRACE_ALL };
	bool groups_given = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+g:li:d:p:fc:jo:qCh", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			if (parse_groups(optarg, &o.groups))
				return 2;
			groups_given = true;
			break;
		case 'S':
			o.via = 1 + VIA_SYSCALL;
			break;
		case 'I':
			o.irq_tracepoints = true;
			break;
		case 'N':	/* the tables names come from, e.g. to check them */
			nvidia_print_ioctl_names(stdout);
			return 0;
		case 'D':
			if (parse_device(optarg, &o))
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
	/* --device alone: trace those devices; with -g: as the list says */
	if (o.nr_devices && !groups_given)
		o.groups = TRACE_DEV;
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
