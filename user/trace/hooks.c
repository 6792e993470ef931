// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: the hook table, the whole policy, and probing the kernel
 * for it.
 *
 * Each hook names the kernel functions or tracepoints it may be, newest
 * name first; at start every candidate is probed (functions in the BTF of
 * their module or in /proc/kallsyms, tracepoints by their btf_trace_<name>
 * type in the kernel's or the module's BTF) and the first one present is
 * attached. Nothing depends on a version number, so a renamed symbol
 * (ivpu_bo_pin -> ivpu_bo_bind, drm_run_job -> drm_sched_job_run) is one
 * more candidate, and a hook that the kernel or machine lacks is reported
 * as absent and skipped. A function that a system call on its device
 * stands for says which (FUNC_SYS), for kernels that probe no function.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <bpf/btf.h>

#include "bpfdrv.h"
#include "bpfdrv_fop.h"
#include "btf.h"
#include "hooks.h"

#define ERRNO TRACE_RET_ERRNO

const char *const via_names[] = {
	[VIA_FENTRY] = "fentry", [VIA_MULTI] = "kprobe.multi", [VIA_KPROBE] = "kprobe",
	[VIA_FOP] = "tracepoint", [VIA_SYSCALL] = "syscall",
};

static const char *const sys_op_names[TRACE_SYS_NR] = {
	[TRACE_SYS_OPEN] = "open", [TRACE_SYS_CLOSE] = "close",
	[TRACE_SYS_READ] = "read", [TRACE_SYS_WRITE] = "write",
	[TRACE_SYS_IOCTL] = "ioctl", [TRACE_SYS_MMAP] = "mmap",
	[TRACE_SYS_POLL] = "poll",
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
/* A tracepoint of the iommu group: per device (arg 0) unless fl says not */
#define TP_DMA_EV(n, p, fl, w, ...) \
	{ .group = TRACE_IOMMU, .name = n, .kind = HOOK_TP, .alt = { __VA_ARGS__ }, \
	  .prog = p, .flags = fl, .what = w }
#define PER_DEV TRACE_CTX_DEV
/* A function with a program of its own, by fentry (its arguments' types) */
#define FENTRY(g, n, p, w, ...) \
	{ .group = g, .name = n, .kind = HOOK_FENTRY, .alt = { __VA_ARGS__ }, \
	  .prog = p, .what = w }
#define LAT(g, n, id, a, b, w) \
	{ .group = g, .name = n, .kind = HOOK_LAT, .lat_id = id, \
	  .needs = { a, b }, .what = w }

/* Indexes of hooks that latencies pair up; keep in sync with the table. */
enum {
	H_VPU_JOB = 12,
	H_SCHED_QUEUE = 17, H_SCHED_RUN, H_SCHED_DONE,
	H_FENCE_INIT = 26, H_FENCE_EMIT, H_FENCE_SIGNALED,
	H_IOPF_REPORT = 80, H_IOPF_RESPONSE,
};

static const struct hook hook_table[] = {
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

	/*
	 * The IOMMU and the DMA API: mappings per device (the dma events of
	 * 6.12 and later, renamed in 7.2), IOMMU page-table updates (no device
	 * in them), I/O page faults as IOMMU drivers report them (AMD, ARM),
	 * VT-d's fault interrupt (its faults are logged, not reported), and
	 * recoverable faults (page requests) and their responses, and the
	 * device's interrupts, for its track of the timeline.
	 */
	TP_DMA_EV("dma_map", TP_DMA_SIZE3, PER_DEV,
		  "DMA API: a buffer mapped for the device (bytes)",
		  "dma_map_phys", "dma_map_page"),
	TP_DMA_EV("dma_unmap", TP_DMA_SIZE2, PER_DEV, "DMA API: a buffer mapping removed (bytes)",
		  "dma_unmap_phys", "dma_unmap_page"),
	TP_DMA_EV("dma_map_sg", TP_DMA, PER_DEV, "DMA API: a scatter-gather list mapped",
		  "dma_map_sg"),
	TP_DMA_EV("dma_unmap_sg", TP_DMA, PER_DEV, "DMA API: a scatter-gather list unmapped",
		  "dma_unmap_sg"),
	TP_DMA_EV("dma_alloc", TP_DMA_SIZE3, PER_DEV, "DMA API: coherent memory allocated (bytes)",
		  "dma_alloc"),
	TP_DMA_EV("dma_free", TP_DMA_SIZE3, PER_DEV, "DMA API: coherent memory freed (bytes)",
		  "dma_free"),
	TP_DMA_EV("dma_alloc_pages", TP_DMA_SIZE3, PER_DEV,
		  "DMA API: pages allocated for DMA (bytes)", "dma_alloc_pages"),
	TP_DMA_EV("dma_free_pages", TP_DMA_SIZE3, PER_DEV, "DMA API: DMA pages freed (bytes)",
		  "dma_free_pages"),
	TP_DMA_EV("iommu_map", TP_DMA_SIZE2, 0,
		  "IOMMU page tables: a range mapped (bytes; no device in the event)", "map"),
	TP_DMA_EV("iommu_unmap", TP_DMA_SIZE2, 0,
		  "IOMMU page tables: a range unmapped (bytes unmapped)", "unmap"),
	TP(TRACE_IOMMU, "io_page_fault", NULL, TP_IOMMU_FAULT,
	   "I/O page fault reported, per device and direction, with its address",
	   "io_page_fault"),
	FUNC(TRACE_IOMMU, "vtd_fault_irq", NULL, 0, 0,
	     "VT-d fault interrupt: non-recoverable faults logged (latency: the handler)",
	     "dmar_fault"),
	TP(TRACE_IOMMU, "vtd_page_request", NULL, TP_COUNT,
	   "VT-d page request (a recoverable fault) received", "prq_report"),
	[H_IOPF_REPORT] = FENTRY(TRACE_IOMMU, "iopf_report", FN_IOPF_REPORT,
				 "recoverable fault (page request) reported, per device",
				 "iommu_report_device_fault"),
	[H_IOPF_RESPONSE] = FENTRY(TRACE_IOMMU, "iopf_response", FN_IOPF_RESPONSE,
				   "page response for a fault group, per device",
				   "iopf_group_response"),
	LAT(TRACE_IOMMU, "iopf_report_to_response", TRACE_LAT_IOPF_REPORT_RESPONSE,
	    H_IOPF_REPORT, H_IOPF_RESPONSE,
	    "recoverable fault handling, first report to page response"),
	TP_DMA_EV("dev_irq", TP_DEV_IRQ, PER_DEV,
		  "interrupt handlers per device (PCI MSI vectors, unshared INTx lines)",
		  "irq_handler_entry"),

	/* any character device: --device PATH or MAJOR[:MINOR] */
	SYS("open", TRACE_SYS_OPEN, TRACE_ARG_INODE_MINOR, "open() of the devices"),
	SYS("close", TRACE_SYS_CLOSE, TRACE_ARG_INODE_MINOR, "close()"),
	SYS("read", TRACE_SYS_READ, TRACE_ARG_FILE_MINOR, "read(), pread64()"),
	SYS("write", TRACE_SYS_WRITE, TRACE_ARG_FILE_MINOR, "write(), pwrite64()"),
	SYS("ioctl", TRACE_SYS_IOCTL, TRACE_ARG_IOCTL_CMD, "ioctl(), per command"),
	SYS("mmap", TRACE_SYS_MMAP, TRACE_ARG_FILE_MINOR, "mmap()"),
	SYS("poll", TRACE_SYS_POLL, TRACE_ARG_FILE_MINOR, "poll(), ppoll()"),
};

#define TABLE_SIZE ((int)(sizeof(hook_table) / sizeof(hook_table[0])))

_Static_assert(TABLE_SIZE < 0xff00, "hook ids must stay below the latency ids");
_Static_assert(TABLE_SIZE <= TRACE_MAX_HOOKS, "raise TRACE_MAX_HOOKS");

int hooks_init(struct trace_plan *p, unsigned int groups)
{
	int i;

	p->groups = groups;
	p->nr_hooks = TABLE_SIZE;
	p->fentry_loaded_for = -1;
	for (i = 0; i < TABLE_SIZE; i++) {
		if (!hook_table[i].name) {	/* an H_* index out of step with the table */
			err("internal error: hook %d is empty", i);
			return -1;
		}
		p->hooks[i] = hook_table[i];
		p->hooks[i].prog_fds[0] = p->hooks[i].prog_fds[1] = -1;
		p->hooks[i].link_fds[0] = p->hooks[i].link_fds[1] = -1;
	}
	if (func_slot(p, TABLE_SIZE) > TRACE_FUNC_SLOTS) {
		err("internal error: raise TRACE_FUNC_SLOTS to %d", func_slot(p, TABLE_SIZE));
		return -1;
	}
	return 0;
}

int func_slot(const struct trace_plan *p, int i)
{
	int j, slot = 0;

	for (j = 0; j < i; j++)
		slot += p->hooks[j].kind == HOOK_FUNC;
	return slot;
}

/* --- probing --- */

static bool module_loaded(const char *module)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s", module);
	return !access(path, F_OK);
}

/* Mark the function candidates that /proc/kallsyms lists (kprobes). */
static void probe_functions(struct trace_plan *p, bool *found)
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
		for (i = 0; i < p->nr_hooks; i++) {
			if (p->hooks[i].kind != HOOK_FUNC)
				continue;
			for (j = 0; j < MAX_ALT && p->hooks[i].alt[j]; j++)
				if (!strcmp(name, p->hooks[i].alt[j]))
					found[i * MAX_ALT + j] = true;
		}
	}
	fclose(f);
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

/*
 * BPFDRV_TRACE_ABSENT=function,...: treat these functions as not in this
 * kernel, so that tests reach the fallbacks of a driver version without
 * them.
 */
static bool absent_for_tests(const char *fn)
{
	const char *env = getenv("BPFDRV_TRACE_ABSENT");
	size_t len = strlen(fn);

	for (; env && *env; env += strcspn(env, ","), env += !!*env)
		if (!strncmp(env, fn, len) && (env[len] == ',' || !env[len]))
			return true;
	return false;
}

static void absent(struct hook *h)
{
	if (h->module && !module_loaded(h->module))
		snprintf(h->why, sizeof(h->why), "module %s not loaded", h->module);
	else
		snprintf(h->why, sizeof(h->why), "not in this kernel");
}

/*
 * The character devices of each class, for the syscall programs: fixed
 * majors, or those /proc/devices lists under the driver's name.
 */

#define KDEV(major, minor)	(((major) << 20) | (minor))	/* the kernel's dev_t */

static void sys_dev_add(struct trace_plan *p, unsigned int key, enum trace_dev_class cls)
{
	if (p->nr_sys_devs < (int)(sizeof(p->sys_dev_keys) / sizeof(p->sys_dev_keys[0]))) {
		p->sys_dev_keys[p->nr_sys_devs] = key;
		p->sys_dev_classes[p->nr_sys_devs++] = cls;
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

void probe_sys_devs(struct trace_plan *p, const struct trace_opts *o)
{
	int i, m;

	p->nr_sys_devs = 0;
	sys_dev_add(p, KDEV(226, TRACE_ANY_MINOR), TRACE_DEV_DRM);	/* DRM_MAJOR */
	sys_dev_add(p, KDEV(261, TRACE_ANY_MINOR), TRACE_DEV_DRM);	/* ACCEL_MAJOR */
	sys_dev_add(p, KDEV(195, TRACE_ANY_MINOR), TRACE_DEV_NVIDIA);	/* NV_MAJOR_DEVICE_NUMBER */
	m = chrdev_major("nvidia-uvm");
	if (m > 0)
		sys_dev_add(p, KDEV(m, TRACE_ANY_MINOR), TRACE_DEV_NVIDIA_UVM);
	m = chrdev_major("bpfdrv");
	if (m > 0)
		sys_dev_add(p, KDEV(m, TRACE_ANY_MINOR), TRACE_DEV_BPFDRV);
	for (i = 0; i < o->nr_devices; i++)
		sys_dev_add(p, o->devices[i], TRACE_DEV_USER);
}

static bool sys_class_present(struct trace_plan *p, enum trace_dev_class cls)
{
	int i;

	for (i = 0; i < p->nr_sys_devs; i++)
		if (p->sys_dev_classes[i] == cls)
			return true;
	return false;
}

/* Trace hook @h by the system calls on its devices, if it has them. */
bool use_syscalls(struct trace_plan *p, struct hook *h)
{
	if (h->sys_op == TRACE_SYS_NONE || !sys_class_present(p, h->dev_class))
		return false;
	h->via = VIA_SYSCALL;
	h->target = sys_op_names[h->sys_op];
	return true;
}

/* A bpfdrv file operation that probe_hooks(p) put on the bpfdrv_fop tracepoint */
bool fop_traced(const struct hook *h)
{
	return h->kind == HOOK_FUNC && h->target && h->via == VIA_FOP;
}

/* Is @word in @s as a word of its own (uname -v's build flags)? */
static bool has_word(const char *s, const char *word)
{
	size_t len = strlen(word);
	const char *at;

	for (at = strstr(s, word); at; at = strstr(at + 1, word))
		if ((at == s || at[-1] == ' ') && (!at[len] || at[len] == ' '))
			return true;
	return false;
}

/*
 * Can a task be preempted inside a tracing program here: 1, 0, or -1
 * when nothing says. The running model where PREEMPT_DYNAMIC can change
 * it (its debugfs file marks it "(lazy)"), else the build's (uname -v).
 * Its name into @model.
 */
static int kernel_preemptible(char *model, size_t size)
{
	char line[128] = "", *mode, *end;
	struct utsname u;
	FILE *f;

	if (uname(&u))
		u.version[0] = '\0';
	if (has_word(u.version, "PREEMPT_RT")) {
		snprintf(model, size, "PREEMPT_RT");
		return 1;
	}
	f = fopen("/sys/kernel/debug/sched/preempt", "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	mode = strchr(line, '(');
	end = mode ? strchr(mode, ')') : NULL;
	if (end) {
		*end = '\0';
		snprintf(model, size, "preempt=%s", ++mode);
		return strcmp(mode, "none") && strcmp(mode, "voluntary");
	}
	if (has_word(u.version, "PREEMPT_DYNAMIC")) {
		snprintf(model, size, "PREEMPT_DYNAMIC, its mode unknown");
		return -1;
	}
	snprintf(model, size, "%s", has_word(u.version, "PREEMPT") ? "PREEMPT" :
		 "built without preemption");
	return has_word(u.version, "PREEMPT");
}

static void set_ways(struct trace_plan *p, enum func_via a, enum func_via b,
		     enum func_via c)
{
	p->ways[0] = a;
	p->ways[1] = b;
	p->ways[2] = c;
	p->nr_ways = 3;
}

/*
 * The order functions are tried in: each hook takes the first way that
 * attaches it (attach.c), so the order is the cost, cheapest first, among
 * the ways that lose no call on this kernel (docs/observability.md):
 *
 * - fentry/fexit: a BPF trampoline called directly from the function's
 *   first instruction, the cheapest (in make bench, a third to a half of
 *   kprobe.multi's cost per call). But a task preempted inside an fentry
 *   program makes the kernel skip that program for the next task on the
 *   CPU (its recursion check, counted as recursion misses): it loses calls
 *   on a kernel that can preempt there (full, lazy, RT);
 * - kprobe.multi (fprobe): its programs run with preemption off. Since
 *   fprobe runs on the function graph tracer (6.14) its returns have no
 *   instance limit; before (struct fprobe has a rethook) it held 2 return
 *   instances per CPU and function, and lost more than fentry. Entries
 *   alone (-C) never lose;
 * - kprobe/kretprobe: a kretprobe has a few instances per CPU;
 * - then the system calls that stand for a function (VIA_SYSCALL, after
 *   these), where the kernel lets no function be probed.
 *
 * @forced (1 + a way, from an option) goes first, the others after it.
 */
void choose_ways(struct trace_plan *p, int forced)
{
	int rethook = kernel_struct_has("fprobe", "rethook"), preempt, i, n;
	char model[64];

	preempt = kernel_preemptible(model, sizeof(model));
	if (rethook < 0) {
		set_ways(p, VIA_FENTRY, VIA_KPROBE, VIA_KPROBE);
		p->nr_ways = 2;
		snprintf(p->ways_why, sizeof(p->ways_why),
			 "fentry is the cheapest; no fprobe (kprobe.multi) in this kernel");
	} else if (!preempt) {
		if (rethook && !p->count_only)
			set_ways(p, VIA_FENTRY, VIA_KPROBE, VIA_MULTI);
		else
			set_ways(p, VIA_FENTRY, VIA_MULTI, VIA_KPROBE);
		snprintf(p->ways_why, sizeof(p->ways_why),
			 "fentry is the cheapest, and loses no call where programs are not preempted (%s)",
			 model);
	} else if (p->count_only || !rethook) {
		set_ways(p, VIA_MULTI, VIA_FENTRY, VIA_KPROBE);
		snprintf(p->ways_why, sizeof(p->ways_why),
			 "kprobe.multi: fentry loses calls where its programs are preempted (%s)",
			 model);
	} else {
		set_ways(p, VIA_FENTRY, VIA_KPROBE, VIA_MULTI);
		snprintf(p->ways_why, sizeof(p->ways_why),
			 "fentry: preempted (%s) it loses calls, but this fprobe (rethook) loses more",
			 model);
	}
	if (forced == 1 + VIA_SYSCALL) {
		p->nr_ways = 0;
		snprintf(p->ways_why, sizeof(p->ways_why), "--syscalls");
	} else if (forced) {
		for (i = n = 0; i < p->nr_ways; i++)
			if (p->ways[i] != (enum func_via)(forced - 1))
				p->ways[n++] = p->ways[i];
		memmove(p->ways + 1, p->ways, n * sizeof(p->ways[0]));
		p->ways[0] = forced - 1;
		p->nr_ways = n + 1;
		snprintf(p->ways_why, sizeof(p->ways_why), "%s asked for",
			 via_names[forced - 1]);
	}
	p->func_via = p->nr_ways ? p->ways[0] : VIA_SYSCALL;
}

/* Is @via one of the ways functions are tried in? */
bool way_tried(const struct trace_plan *p, enum func_via via)
{
	int i;

	for (i = 0; i < p->nr_ways; i++)
		if (p->ways[i] == via)
			return true;
	return false;
}

/*
 * The way to try for function hook @h after @via (VIA_SYSCALL after the
 * last): fentry only where its function is in BTF.
 */
enum func_via next_way(const struct trace_plan *p, const struct hook *h, enum func_via via)
{
	int i = 0;

	while (i < p->nr_ways && p->ways[i] != via)
		i++;
	for (i++; i < p->nr_ways; i++)
		if (p->ways[i] != VIA_FENTRY || h->btf_id)
			return p->ways[i];
	return VIA_SYSCALL;
}

/* The first way to try for function hook @h. */
enum func_via first_way(const struct trace_plan *p, const struct hook *h)
{
	if (!p->nr_ways)
		return VIA_SYSCALL;
	if (p->ways[0] != VIA_FENTRY || h->btf_id)
		return p->ways[0];
	return next_way(p, h, p->ways[0]);
}

/*
 * Pick each hook's target: the first candidate this kernel has. Functions
 * in BTF may be traced every way choose_ways() ordered; the others, if
 * /proc/kallsyms lists them (read only when needed: it is slow to
 * generate), every way but fentry.
 */
void probe_hooks(struct trace_plan *p)
{
	unsigned int groups = p->groups;
	bool found[TRACE_MAX_HOOKS * MAX_ALT] = {}, scanned = false;
	int i, j, fop_tp = -1;	/* has bpfdrv.ko the tracepoint? -1: not asked */

	for (i = 0; i < p->nr_hooks; i++) {
		struct hook *h = &p->hooks[i];

		h->target = NULL;
		h->btf_id = 0;
		h->why[0] = '\0';
		if (!(h->group & groups) || h->kind == HOOK_LAT)
			continue;
		if (h->kind == HOOK_SYS) {
			if (!use_syscalls(p, h))
				snprintf(h->why, sizeof(h->why), "no --device given");
			continue;
		}
		if (h->module && !module_loaded(h->module)) {
			absent(h);
			continue;
		}
		if (h->kind == HOOK_FUNC && p->func_via == VIA_SYSCALL) {
			if (!use_syscalls(p, h))
				snprintf(h->why, sizeof(h->why), "--syscalls: %s",
					 h->sys_op ? "its devices are not here" :
					 "no system call stands for it");
			continue;
		}
		if (h->fop && !p->func_via_forced) {
			if (fop_tp < 0)
				fop_tp = tracepoint_exists(h->module, "bpfdrv_fop");
			if (fop_tp) {
				h->target = "bpfdrv_fop";
				h->via = VIA_FOP;
				continue;
			}
		}
		for (j = 0; j < MAX_ALT && h->alt[j] && !h->target; j++) {
			if (absent_for_tests(h->alt[j]))
				continue;
			if (h->kind == HOOK_TP) {
				if (tracepoint_exists(h->module, h->alt[j]))
					h->target = h->alt[j];
				continue;
			}
			if (h->kind == HOOK_FENTRY) {
				if (fentry_target(h, h->alt[j]))
					h->target = h->alt[j];
				continue;
			}
			if (p->func_via != VIA_KPROBE && fentry_target(h, h->alt[j])) {
				h->target = h->alt[j];
				h->via = first_way(p, h);
				continue;
			}
			h->via = first_way(p, h);	/* not fentry: not in BTF */
			/*
			 * A function its module's BTF lacks was inlined or
			 * renamed (.isra, .constprop): a kprobe by that name
			 * would not find it either.
			 */
			if (p->func_via != VIA_KPROBE && has_btf(h->module))
				continue;
			if (!scanned)
				probe_functions(p, found);
			scanned = true;
			if (found[i * MAX_ALT + j])
				h->target = h->alt[j];
		}
		/* a driver version without the function: its system calls */
		if (!h->target && h->kind == HOOK_FUNC && use_syscalls(p, h))
			snprintf(h->why, sizeof(h->why), "%s not in this kernel: by its system calls",
				 h->alt[0]);
		if (!h->target)
			absent(h);
	}
}

/* --- the table's facts, for the layers above --- */

/* The index of the hook whose id (an attachable hook's, a latency's) is @id. */
int trace_hook_by_id(const struct trace_plan *p, __u32 id)
{
	int i;

	if (id < (__u32)p->nr_hooks)
		return p->hooks[id].kind == HOOK_LAT ? -1 : (int)id;
	for (i = 0; i < p->nr_hooks; i++)
		if (p->hooks[i].kind == HOOK_LAT && p->hooks[i].lat_id == id)
			return i;
	return -1;
}

const char *trace_hook_name(const struct trace_plan *p, int i)
{
	return p->hooks[i].name;
}

/* Are the hook's rows per device minor (its file's or inode's)? */
bool trace_hook_per_minor(const struct trace_plan *p, int i)
{
	const struct hook *h = &p->hooks[i];

	return (h->kind == HOOK_FUNC || h->kind == HOOK_SYS) &&
	       (h->arg == TRACE_ARG_FILE_MINOR || h->arg == TRACE_ARG_INODE_MINOR);
}

/* iommu:io_page_fault: rows per device and direction, with addresses */
bool trace_hook_is_fault(const struct trace_plan *p, int i)
{
	return p->hooks[i].kind == HOOK_TP && p->hooks[i].prog == TP_IOMMU_FAULT;
}

/* Are the hook's rows per device (its sub-key a device name's hash)? */
bool trace_hook_per_device(const struct trace_plan *p, int i)
{
	const struct hook *h = &p->hooks[i];

	return (h->kind == HOOK_TP && (h->flags & TRACE_CTX_DEV)) ||
	       trace_hook_is_fault(p, i) || h->kind == HOOK_FENTRY;
}

/* A DRM ioctl hook: its sub-key is the ioctl's number and driver. */
bool trace_hook_is_ioctl(const struct trace_plan *p, int i)
{
	return p->hooks[i].kind == HOOK_FUNC && p->hooks[i].arg == TRACE_ARG_IOCTL_NR;
}

const char *trace_group_name(unsigned int group)
{
	switch (group) {
	case TRACE_NPU: return "npu";
	case TRACE_DRM: return "drm";
	case TRACE_BPFDRV: return "bpfdrv";
	case TRACE_NVIDIA: return "nvidia";
	case TRACE_DEV: return "dev";
	case TRACE_IOMMU: return "iommu";
	}
	return "?";
}
