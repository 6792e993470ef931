/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpfdrv trace/stats: what the BPF tracing programs (trace.bpf.c) and the
 * tool (user/trace/, stats.c) share. Every attached hook has a small id; the BPF
 * side learns it from the attach cookie, so one program serves many hooks
 * and user space alone decides which kernel symbols they are.
 */
#ifndef __BPFDRV_TRACE_H
#define __BPFDRV_TRACE_H

#ifndef __bpf__			/* the BPF side has them from vmlinux.h */
#include <stdbool.h>
#include <linux/types.h>
#endif

#define TRACE_COMM_LEN		16
#define TRACE_STR_LEN		40	/* ioctl names: "VIRTGPU_RESOURCE_CREATE_BLOB" */
#define TRACE_DRV_LEN		16
#define TRACE_HIST_SLOTS	32	/* log2 buckets of microseconds */

/* Cookie of a function probe: hook id, what its arguments say, flags. */
#define TRACE_HOOK_MASK		0xffffULL
#define TRACE_ARG_SHIFT		16
#define TRACE_ARG_NONE		0	/* no sub-key */
#define TRACE_ARG_IOCTL_NR	1	/* arg 2 is an ioctl cmd: sub = _IOC_NR */
#define TRACE_ARG_FILE_MINOR	2	/* arg 1 is a struct file: sub = minor */
#define TRACE_ARG_INODE_MINOR	3	/* arg 1 is a struct inode: sub = minor */
#define TRACE_ARG_IOCTL_CMD	4	/* arg 2 is an ioctl cmd: sub = the cmd */
#define TRACE_RET_ERRNO		(1ULL << 24)	/* negative return = error */
#define TRACE_CTX_CRTC		(1ULL << 25)	/* tracepoint arg 0 is a CRTC index */
#define TRACE_CTX_DEV		(1ULL << 26)	/* tracepoint arg 0 is a struct device */
#define TRACE_FAULT_WRITE	1	/* iommu:io_page_fault's IOMMU_FAULT_WRITE */
/* A function hook's slot for its calls in flight (per task). */
#define TRACE_SLOT_SHIFT	32
#define TRACE_FUNC_SLOTS	64	/* a power of 2: the slot is masked */
#define TRACE_COOKIE(hook, arg, flags) \
	((__u64)(hook) | ((__u64)(arg) << TRACE_ARG_SHIFT) | (flags))
#define TRACE_FUNC_COOKIE(hook, arg, flags, slot) \
	(TRACE_COOKIE(hook, arg, flags) | ((__u64)(slot) << TRACE_SLOT_SHIFT))

/*
 * Latencies measured between two events (tracepoint pairs). They are
 * recorded under these hook ids, above every attachable hook's id.
 */
enum trace_lat {
	TRACE_LAT_SCHED_QUEUE_RUN = 0xff00,
	TRACE_LAT_SCHED_RUN_DONE,
	TRACE_LAT_SCHED_QUEUE_DONE,
	TRACE_LAT_FENCE_INIT_SIGNAL,
	TRACE_LAT_FENCE_EMIT_SIGNAL,
	TRACE_LAT_VPU_SUBMIT_DONE,
	TRACE_LAT_IOPF_REPORT_RESPONSE,
};

/*
 * A DRM ioctl's sub-key: its number, and for a driver's own ioctls a hash
 * of the driver's name above it, since every driver numbers them from
 * DRM_COMMAND_BASE.
 */
#define TRACE_IOCTL_NR(sub)	((sub) & 0xff)

/*
 * Events that fire in interrupt context and belong to no traced object
 * are charged to these pseudo-processes, never to the interrupted task.
 */
#define TRACE_TGID_HARDIRQ	0xfffffff0U
#define TRACE_TGID_SOFTIRQ	0xfffffff1U

static inline __attribute__((always_inline)) bool trace_tgid_is_irq(__u32 tgid)
{
	return tgid == TRACE_TGID_HARDIRQ || tgid == TRACE_TGID_SOFTIRQ;
}

/* Events that could not be recorded, by cause (the `lost` array). */
enum trace_lost {
	TRACE_LOST_CALLS,	/* no room for a call in flight: call not counted */
	TRACE_LOST_ROWS,	/* statistics table full */
	TRACE_LOST_PROCS,	/* per-process table full */
	TRACE_LOST_OWNERS,	/* object table full: latency not measured */
	TRACE_LOST_FOLLOW,	/* traced-process table full: child not followed */
	TRACE_LOST_EVENTS,	/* timeline ring buffer full: event not in it */
	TRACE_LOST_NR,
};

/* One row of statistics: a hook and its sub-key (ioctl nr, minor, ...). */
struct trace_key {
	__u32 hook;
	__u32 sub;
};

struct trace_hist {
	__u64 count;
	__u64 errors;
	__u64 timed;		/* events that have a latency */
	__u64 total_ns;
	__u64 max_ns;
	__u32 slots[TRACE_HIST_SLOTS];
	/* the squares of the latencies in units of 100 ns, added up, unless */
	__u64 sumsq_100ns2;
	__u64 sumsq_overflow;	/* ... they overflowed: no stddev */
	__u64 bytes;		/* DMA mappings: their sizes added up */
	__u64 addr_min;		/* I/O page faults: the addresses' range */
	__u64 addr_max;
	char str[TRACE_STR_LEN];	/* event string, device or ioctl name, if any */
	char drv[TRACE_DRV_LEN];	/* DRM driver of a driver ioctl */
};

/* An IRQ's device (irq_devs): its name and the name's hash, its sub-key. */
struct trace_irq_dev {
	__u32 sub;
	char name[TRACE_STR_LEN];
};

/* One event of the timeline (--perfetto), from the `events` ring buffer. */
enum trace_tl_kind {
	TRACE_EV_SPAN,		/* a function call: ts, dur */
	TRACE_EV_INSTANT,	/* a tracepoint */
	TRACE_EV_OBJECT,	/* a job's or fence's life: ts, dur */
};

struct trace_tl_event {
	__u64 ts;		/* ns, CLOCK_MONOTONIC */
	__u64 dur;
	__u32 hook;		/* hook or latency id */
	__u32 sub;
	__u32 tgid;		/* or TRACE_TGID_HARDIRQ/SOFTIRQ */
	__u32 tid;		/* 0: charged to an object's owner */
	__u32 kind;
	__u32 flow;		/* TRACE_FLOW_* below, or 0 */
};

/*
 * The flows of a timeline event (--perfetto's arrows): an accelerator
 * job's submit, a DRM ioctl, to the scheduler job it queued and to the
 * job's fence (the scheduler's finished fence, or the fence a job that
 * starts from its submit hands to the hardware). An ioctl in flight holds
 * an id; the job and the fence that take it carry id << TRACE_FLOW_SHIFT
 * | their role (on the job's life, TRACE_LAT_SCHED_QUEUE_DONE, and the
 * fence's fence_signaled), and the ioctl's span the id with the roles
 * taken. Each (id, role) is one flow, from the span to that event.
 */
#define TRACE_FLOW_JOB		1U
#define TRACE_FLOW_FENCE	2U
#define TRACE_FLOW_ROLES	3U
#define TRACE_FLOW_SHIFT	2
#define TRACE_FLOW_CPU_SHIFT	22	/* an id: the CPU, then its count */
#define TRACE_FLOW_COUNT_MASK	((1U << TRACE_FLOW_CPU_SHIFT) - 1)

/* find_ksym's context: a kernel symbol's name in, its address out. */
struct trace_ksym {
	char name[64];		/* NUL-padded */
	__u64 addr;
};

/*
 * Device activity seen from the system calls, where functions cannot be
 * probed: what a syscall is to the tracer, and the kind of character
 * device a file descriptor is (by its major, and for --device its minor).
 */
enum trace_sys_op {
	TRACE_SYS_NONE,
	TRACE_SYS_OPEN,
	TRACE_SYS_CLOSE,
	TRACE_SYS_READ,
	TRACE_SYS_WRITE,
	TRACE_SYS_IOCTL,
	TRACE_SYS_MMAP,
	TRACE_SYS_POLL,
	TRACE_SYS_NR,
};

enum trace_dev_class {
	TRACE_DEV_DRM,		/* DRM and accel nodes */
	TRACE_DEV_BPFDRV,	/* /dev/bpfdrv/ */
	TRACE_DEV_NVIDIA,	/* nvidia.ko: /dev/nvidiactl, /dev/nvidia0... */
	TRACE_DEV_NVIDIA_UVM,	/* nvidia_uvm.ko: /dev/nvidia-uvm */
	TRACE_DEV_USER,		/* the devices --device names */
	TRACE_DEV_NR,
};

#define TRACE_SYSCALLS		512	/* syscall numbers below this are looked at */
#define TRACE_POLL_FDS		8	/* a poll() is a device's if one of these is */
#define TRACE_ANY_MINOR		0xfffffU	/* a sys_devs key: the whole major */

/* Per-process counts. */
struct trace_proc_key {
	__u32 tgid;
	__u32 hook;
	__u32 sub;
	__u32 pad;
};

struct trace_proc {
	__u64 count;
	char comm[TRACE_COMM_LEN];
};

#endif /* __BPFDRV_TRACE_H */
