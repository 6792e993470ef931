// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing programs of `bpfdrv trace` and `bpfdrv stats`.
 *
 * Few programs, many hooks: func_entry/func_exit are attached as a kprobe/
 * kretprobe pair to every traced kernel function, and each tracepoint
 * program to every tracepoint of its shape (the gpu_scheduler events of
 * 6.12 and of 6.17+ have the same arguments). The attach cookie tells a
 * program which hook fired, so user space alone decides what is traced and
 * nothing here names a kernel symbol.
 *
 * Results go to two per-CPU hash maps that user space reads and sums:
 * `hists` (count, errors, latency histogram per hook and sub-key) and
 * `procs` (count per
 * process). Objects whose life spans events (GPU scheduler jobs, dma
 * fences, NPU jobs) remember when and by whom they started, so their later
 * events are charged to that process even when they fire in an interrupt.
 *
 * Structures of modules (drm_sched_job, ivpu_job) are declared here with
 * only the fields used; CO-RE finds them in the module's BTF at load time.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "trace.h"
#include "bpfdrv_fop.h"

char LICENSE[] SEC("license") = "GPL";

/* Filters, set before load: a process id and/or a command name. */
const volatile __u32 targ_tgid;
const volatile bool targ_comm_set;
const volatile char targ_comm[TRACE_COMM_LEN];
/* With targ_tgid: its descendants too, noted in traced as they fork. */
const volatile bool targ_follow;
/* --perfetto: every event also goes to the `events` ring buffer. */
const volatile bool emit_events;
const volatile bool count_only;	/* functions: count at entry, no return probe */
/*
 * Set before the final report (then an RCU grace period passes): no program
 * changes the counts while user space reads them.
 */
bool stopping;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20);	/* user space shrinks it when unused */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);		/* tgid */
	__type(value, __u8);
} traced SEC(".maps");

/* Events that could not be recorded, by cause; user space reports them. */
__u64 lost[TRACE_LOST_NR];

/* Set by user space: the kernel's core DRM ioctl table, for its names. */
__u64 drm_core_ioctls;

#define MINOR_MASK	((1U << 20) - 1)	/* MINORBITS */
#define MAX_ERRNO	4095

struct drm_sched_job {
	struct drm_sched_fence *s_fence;
} __attribute__((preserve_access_index));

/* Where a job's finished fence is in its scheduler fence (gpu_sched). */
struct drm_sched_fence___bpfdrv {
	struct dma_fence finished;
} __attribute__((preserve_access_index));

struct ivpu_job {
	__u32 job_id;
} __attribute__((preserve_access_index));

/* The way from an open DRM file to its driver's ioctl table (drm.ko). */
struct drm_ioctl_desc___bpfdrv {
	unsigned int cmd;
	const char *name;
} __attribute__((preserve_access_index));

struct drm_driver___bpfdrv {
	char *name;
	const struct drm_ioctl_desc___bpfdrv *ioctls;
	int num_ioctls;
} __attribute__((preserve_access_index));

struct drm_device___bpfdrv {
	const struct drm_driver___bpfdrv *driver;
} __attribute__((preserve_access_index));

struct drm_minor___bpfdrv {
	struct drm_device___bpfdrv *dev;
} __attribute__((preserve_access_index));

struct drm_file___bpfdrv {
	struct drm_minor___bpfdrv *minor;
} __attribute__((preserve_access_index));

#define DRM_COMMAND_BASE	0x40
#define DRM_COMMAND_END		0xa0

/*
 * PREEMPT_RT runs softirqs in tasks (ktimers, ksoftirqd, or whichever task
 * re-enabled bottom halves) and counts them in the task, not the preempt
 * count.
 */
struct task_struct___rt {
	int softirq_disable_cnt;
} __attribute__((preserve_access_index));

#define SOFTIRQ_OFFSET		0x00000100

static __always_inline bool rt_serving_softirq(void)
{
	struct task_struct___rt *t = (void *)bpf_get_current_task_btf();

	return BPF_CORE_READ(t, softirq_disable_cnt) & SOFTIRQ_OFFSET;
}

/*
 * Interrupt context from the irq, softirq and x86 vector tracepoints: a
 * depth per CPU, raised at entry and lowered at exit (tp_*irq_enter/exit).
 * Hard interrupts and, outside PREEMPT_RT, softirqs cannot be preempted,
 * so a CPU's depth is the running context's.
 */
struct irq_depth {
	__s32 n[2];	/* hardirq, softirq */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct irq_depth);
} irq_depth SEC(".maps");

/*
 * One program for each end of each kind: the BPF core skips a program
 * that an interrupt enters while it runs on the same CPU, and a softirq's
 * exit interrupted by a hard interrupt's would leave the hard depth raised.
 */
static __always_inline void irq_depth_move(int k, int by)
{
	__u32 zero = 0;
	struct irq_depth *d = bpf_map_lookup_elem(&irq_depth, &zero);

	/* an exit whose entry came before we attached is ignored */
	if (d && (by > 0 || d->n[k] > 0))
		d->n[k] += by;
}

SEC("raw_tp")
int tp_hardirq_enter(void *ctx)
{
	irq_depth_move(0, 1);
	return 0;
}

SEC("raw_tp")
int tp_hardirq_exit(void *ctx)
{
	irq_depth_move(0, -1);
	return 0;
}

SEC("raw_tp")
int tp_softirq_enter(void *ctx)
{
	irq_depth_move(1, 1);
	return 0;
}

SEC("raw_tp")
int tp_softirq_exit(void *ctx)
{
	irq_depth_move(1, -1);
	return 0;
}

#ifdef TRACE_IRQ_FROM_TRACEPOINTS
/*
 * Built for kernels that cannot resolve percpu variables as ksyms (no
 * CONFIG_KALLSYMS_ALL): this object names none, so it loads there.
 */
static __always_inline __u32 irq_tgid(void)
{
	__u32 zero = 0;
	struct irq_depth *d = bpf_map_lookup_elem(&irq_depth, &zero);

	if (d && d->n[0] > 0)
		return TRACE_TGID_HARDIRQ;
	if (bpf_core_field_exists(struct task_struct___rt, softirq_disable_cnt))
		return rt_serving_softirq() ? TRACE_TGID_SOFTIRQ : 0;
	return d && d->n[1] > 0 ? TRACE_TGID_SOFTIRQ : 0;
}
#else
/*
 * The preempt count says whether we run in an interrupt. x86 keeps it in
 * __preempt_count, or (6.1 to 6.14) in pcpu_hot.preempt_count; as in the
 * kernel's bpf_experimental.h.
 */
extern const int __preempt_count __ksym __weak;
struct pcpu_hot___bpfdrv {
	int preempt_count;
} __attribute__((preserve_access_index));
extern const struct pcpu_hot___bpfdrv pcpu_hot __ksym __weak;
/*
 * Kernels with a count of local_interrupt_disable() (interrupt_rc.h) have
 * 8 more bits below the hardirq count, which moved from bit 16 to bit 24.
 */
extern const unsigned long local_interrupt_disable_state __ksym __weak;

#define HARDIRQ_NMI_MASK	0x00ff0000	/* hardirq and NMI counts */
#define HARDIRQ_NMI_MASK_RC	0x7f000000	/* the same, with interrupt_rc */

static __always_inline int preempt_count(void)
{
	if (bpf_ksym_exists(&__preempt_count))
		return *(int *)bpf_this_cpu_ptr(&__preempt_count);
	if (bpf_ksym_exists(&pcpu_hot))
		return ((struct pcpu_hot___bpfdrv *)bpf_this_cpu_ptr(&pcpu_hot))->preempt_count;
	return 0;
}

/* TRACE_TGID_HARDIRQ/SOFTIRQ in interrupt context, else 0. */
static __always_inline __u32 irq_tgid(void)
{
	int pc = preempt_count();
	int hard = bpf_ksym_exists(&local_interrupt_disable_state) ?
		   HARDIRQ_NMI_MASK_RC : HARDIRQ_NMI_MASK;

	if (pc & hard)
		return TRACE_TGID_HARDIRQ;
	if (bpf_core_field_exists(struct task_struct___rt, softirq_disable_cnt))
		return rt_serving_softirq() ? TRACE_TGID_SOFTIRQ : 0;
	return pc & SOFTIRQ_OFFSET ? TRACE_TGID_SOFTIRQ : 0;
}
#endif

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);	/* no atomics per event */
	__uint(max_entries, 4096);
	__type(key, struct trace_key);
	__type(value, struct trace_hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 8192);
	__type(key, struct trace_proc_key);
	__type(value, struct trace_proc);
} procs SEC(".maps");

/*
 * Function calls in flight, one slot per hook, in task storage: entry and
 * exit of a call run in the same task, and a lookup there takes no lock.
 * A hash map's update and delete end with a spin_unlock that may preempt
 * the task inside the program; another task on that CPU entering the same
 * program would then be skipped by the kernel's recursion check.
 * Interrupts have their own per-CPU slots.
 */
struct call {
	__u64 ts;	/* 0: no call in flight */
	__u64 arg1;	/* the DRM file of an ioctl, for its names */
	__u32 sub;
	__u32 pad;
};

struct inflight {
	struct call slot[TRACE_FUNC_SLOTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct inflight);
} task_calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);		/* hardirq, softirq */
	__type(key, __u32);
	__type(value, struct inflight);
} irq_calls SEC(".maps");

/* An object whose events are paired: when it started and for whom. */
struct owner {
	__u64 ts_start;		/* queued, initialized, submitted */
	__u64 ts_mid;		/* run, emitted */
	__u32 tgid;
	__u32 flow;		/* its submit's flow (TRACE_FLOW_*), or 0 */
	char comm[TRACE_COMM_LEN];
};

#define OWNER_MAP(name)						\
	struct {						\
		__uint(type, BPF_MAP_TYPE_HASH);		\
		__uint(max_entries, 16384);			\
		__type(key, __u64);				\
		__type(value, struct owner);			\
	} name SEC(".maps")

OWNER_MAP(sched_jobs);		/* by scheduler fence address */
OWNER_MAP(fences);		/* by dma_fence address */
OWNER_MAP(vpu_jobs);		/* by NPU job id */

/* Are the NUL-terminated names @a and @b (set by user space) equal? */
static __always_inline bool name_eq(const char *a, const volatile char *b)
{
	int i;

	for (i = 0; i < TRACE_COMM_LEN; i++) {
		if (a[i] != b[i])
			return false;
		if (!a[i])
			break;
	}
	return true;
}

static __always_inline bool comm_wanted(const char *comm)
{
	return !targ_comm_set || name_eq(comm, targ_comm);
}

/* Is process @tgid targ_tgid or, when following, one of its descendants? */
static __always_inline bool tgid_wanted(__u32 tgid)
{
	return tgid == targ_tgid ||
	       (targ_follow && bpf_map_lookup_elem(&traced, &tgid));
}

/* A traced process forked: trace the child process too (not threads). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(trace_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 one = 1;

	if (stopping)
		return 0;
	if (ptgid == ctgid || !tgid_wanted(ptgid))
		return 0;
	if (bpf_map_update_elem(&traced, &ctgid, &one, BPF_ANY))
		__sync_fetch_and_add(&lost[TRACE_LOST_FOLLOW], 1);
	return 0;
}

/*
 * Whom an event is charged to: in an interrupt, the interrupt's own row
 * (it belongs to no process, so no filter drops it); else the current
 * process, if the filters let it through.
 */
static __always_inline void current_who(__u32 *tgid, char *comm)
{
	static const char hardirq[TRACE_COMM_LEN] = "[hardirq]";
	static const char softirq[TRACE_COMM_LEN] = "[softirq]";

	*tgid = irq_tgid();
	if (*tgid) {
		__builtin_memcpy(comm, *tgid == TRACE_TGID_HARDIRQ ? hardirq : softirq,
				 TRACE_COMM_LEN);
		return;
	}
	*tgid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(comm, TRACE_COMM_LEN);
}

/* current_who() without the name, for events already filtered */
static __always_inline __u32 current_tgid(void)
{
	return irq_tgid() ?: bpf_get_current_pid_tgid() >> 32;
}

/* Do the filters let the current task, of process @tgid, through? */
static __always_inline bool task_wanted(__u32 tgid)
{
	char comm[TRACE_COMM_LEN];

	if (targ_tgid && !tgid_wanted(tgid))
		return false;
	if (!targ_comm_set)
		return true;
	bpf_get_current_comm(comm, TRACE_COMM_LEN);
	return comm_wanted(comm);
}

static __always_inline bool current_wanted(__u32 *tgid)
{
	*tgid = current_tgid();
	return trace_tgid_is_irq(*tgid) || task_wanted(*tgid);
}

#define PF_KTHREAD	0x00200000	/* include/linux/sched.h */

/*
 * Per-device events pass the process filters in kernel threads too: the
 * kernel maps for a device in its own workers on a process's behalf (a
 * DRM scheduler's run_job), as it does in interrupts.
 */
static __always_inline bool current_wanted_for_dev(__u32 *tgid)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return current_wanted(tgid) || (BPF_CORE_READ(t, flags) & PF_KTHREAD);
}

static __always_inline __u32 log2_u32(__u32 v)
{
	__u32 r, shift;

	r = (v > 0xffff) << 4; v >>= r;
	shift = (v > 0xff) << 3; v >>= shift; r |= shift;
	shift = (v > 0xf) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 hi = v >> 32;

	return hi ? log2_u32(hi) + 32 : log2_u32(v);
}

#define NO_LATENCY	((__u64)-1)

/* The row of (hook, sub), made on first use; *created tells. */
static struct trace_hist *hist_get(__u32 hook, __u32 sub, const char *str,
				   bool *created)
{
	struct trace_key key = { .hook = hook, .sub = sub };
	struct trace_hist *h = bpf_map_lookup_elem(&hists, &key);
	static const struct trace_hist zero;

	*created = false;
	if (h)
		return h;
	*created = !bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
	h = bpf_map_lookup_elem(&hists, &key);
	if (!h)
		__sync_fetch_and_add(&lost[TRACE_LOST_ROWS], 1);
	else if (*created && str)
		bpf_probe_read_kernel_str(h->str, sizeof(h->str), str);
	return h;
}

static void hist_record(struct trace_hist *h, __u64 delta_ns, bool error)
{
	__u64 us = delta_ns / 1000, sq;
	__u32 slot;

	/* this CPU's copy: only a program nested in this one could race */
	h->count++;
	if (error)
		h->errors++;
	if (delta_ns == NO_LATENCY)
		return;
	h->timed++;
	h->total_ns += delta_ns;
	/* 100 ns units: sub-microsecond spreads count; 10 s squared fits */
	sq = (delta_ns + 50) / 100;
	sq *= sq;
	if (delta_ns >= 400ULL * 1000000000 || h->sumsq_100ns2 + sq < sq)
		h->sumsq_overflow = 1;
	else
		h->sumsq_100ns2 += sq;
	if (delta_ns > h->max_ns)
		h->max_ns = delta_ns;
	slot = log2_u64(us);
	if (slot >= TRACE_HIST_SLOTS)
		slot = TRACE_HIST_SLOTS - 1;
	h->slots[slot]++;
}

static void hist_add(__u32 hook, __u32 sub, __u64 delta_ns, bool error,
		     const char *str)
{
	bool created;
	struct trace_hist *h = hist_get(hook, sub, str, &created);

	if (h)
		hist_record(h, delta_ns, error);
}

/*
 * Count an event for @tgid; @comm (NULL: the current one) names a new row.
 * True if this made the row.
 */
static bool proc_add(__u32 tgid, const char *comm, __u32 hook, __u32 sub)
{
	struct trace_proc_key key = { .tgid = tgid, .hook = hook, .sub = sub };
	struct trace_proc *p = bpf_map_lookup_elem(&procs, &key);
	struct trace_proc init = { .count = 1 };
	__u32 who;

	if (p) {
		p->count++;
		return false;
	}
	if (comm)
		__builtin_memcpy(init.comm, comm, TRACE_COMM_LEN);
	else
		current_who(&who, init.comm);
	if (!bpf_map_update_elem(&procs, &key, &init, BPF_NOEXIST))
		return true;
	p = bpf_map_lookup_elem(&procs, &key);	/* a nested program made it */
	if (p)
		p->count++;
	else
		__sync_fetch_and_add(&lost[TRACE_LOST_PROCS], 1);
	return false;
}

/*
 * A timeline event; a full ring buffer is counted, never silent. @ts
 * EMIT_NOW reads the clock only when a timeline is written: the helper
 * call would not be optimized away, and a slow clocksource makes it costly.
 */
#define EMIT_NOW	0
static __always_inline void emit_flow(__u32 kind, __u32 hook, __u32 sub, __u32 tgid,
				      bool current, __u64 ts, __u64 dur, __u32 flow)
{
	struct trace_tl_event *e;

	if (!emit_events)
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost[TRACE_LOST_EVENTS], 1);
		return;
	}
	e->ts = ts ?: bpf_ktime_get_ns();
	e->dur = dur;
	e->hook = hook;
	e->sub = sub;
	e->tgid = tgid;
	e->tid = !current ? 0 : trace_tgid_is_irq(tgid) ? tgid : (__u32)bpf_get_current_pid_tgid();
	e->kind = kind;
	e->flow = flow;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void emit(__u32 kind, __u32 hook, __u32 sub, __u32 tgid,
				 bool current, __u64 ts, __u64 dur)
{
	emit_flow(kind, hook, sub, tgid, current, ts, dur, 0);
}

/*
 * The timeline's flows (--perfetto only): a DRM ioctl in flight holds a
 * flow id; the scheduler job it queues takes it, and so does the job's
 * fence, the scheduler's finished fence of the job, or for a job that
 * starts from its submit, the fence handed to the hardware there
 * (dma_fence_emit): one job and one fence, and the ioctl's span says
 * which took it.
 */
struct flow_state {
	__u32 id;		/* the ioctl's; 0: none */
	__u32 taken;		/* TRACE_FLOW_JOB | TRACE_FLOW_FENCE */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct flow_state);
} task_flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} flow_seq SEC(".maps");

/* A DRM ioctl starts: a fresh id, unique per CPU and count. */
static __always_inline void flow_begin(void)
{
	struct flow_state *f;
	__u32 zero = 0, *n;

	if (!emit_events)
		return;
	n = bpf_map_lookup_elem(&flow_seq, &zero);
	f = bpf_task_storage_get(&task_flows, bpf_get_current_task_btf(), NULL,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!n || !f)
		return;
	*n = (*n + 1) & TRACE_FLOW_COUNT_MASK;
	f->id = (bpf_get_smp_processor_id() & 0xff) << TRACE_FLOW_CPU_SHIFT | (*n ?: 1);
	f->taken = 0;
}

/* It returns: its span's flow word (which roles were taken), or 0. */
static __always_inline __u32 flow_end(void)
{
	struct flow_state *f;
	__u32 word = 0;

	if (!emit_events)
		return 0;
	f = bpf_task_storage_get(&task_flows, bpf_get_current_task_btf(), NULL, 0);
	if (!f)
		return 0;
	if (f->id && f->taken)
		word = f->id << TRACE_FLOW_SHIFT | f->taken;
	f->id = 0;
	return word;
}

/* An object the current task's flow reaches takes @role of it: its word, or 0. */
static __always_inline __u32 flow_take(__u32 role)
{
	struct flow_state *f;

	if (!emit_events)
		return 0;
	f = bpf_task_storage_get(&task_flows, bpf_get_current_task_btf(), NULL, 0);
	if (!f || !f->id || (f->taken & role))
		return 0;
	f->taken |= role;
	return f->id << TRACE_FLOW_SHIFT | role;
}

/*
 * An event of the current task (or interrupt) @tgid, already filtered: its
 * row, count, process row and timeline instant. Returns the row, for what
 * the caller adds to it, or NULL.
 */
static __always_inline struct trace_hist *count_current(__u32 hook, __u32 sub,
							const char *str, __u32 tgid)
{
	struct trace_hist *h;
	bool created;

	h = hist_get(hook, sub, str, &created);
	if (h)
		hist_record(h, NO_LATENCY, false);
	proc_add(tgid, NULL, hook, sub);
	emit(TRACE_EV_INSTANT, hook, sub, tgid, true, EMIT_NOW, 0);
	return h;
}

static __always_inline __u32 cookie_hook(void *ctx)
{
	return bpf_get_attach_cookie(ctx) & TRACE_HOOK_MASK;
}

/* --- kernel functions: count, errors and latency per call --- */

/*
 * DRM's types are in drm.ko's BTF: without it, the verifier must see the
 * code that reads them as dead (programs that may name a DRM file load
 * on kernels whose drm.ko is not loaded).
 */
#define HAVE_DRM	bpf_core_type_exists(struct drm_file___bpfdrv)

static __always_inline const struct drm_driver___bpfdrv *drm_driver_of(__u64 filp)
{
	struct drm_file___bpfdrv *dfile;

	if (!HAVE_DRM)
		return NULL;
	dfile = BPF_CORE_READ((struct file *)filp, private_data);

	return BPF_CORE_READ(dfile, minor, dev, driver);
}

/* A DRM ioctl's sub-key: its number, and the driver for driver ioctls. */
static __always_inline __u32 ioctl_sub(__u64 filp, __u32 nr)
{
	char name[TRACE_DRV_LEN] = {};
	__u32 h = 2166136261U;
	int i;

	if (!HAVE_DRM || nr < DRM_COMMAND_BASE || nr >= DRM_COMMAND_END)
		return nr;
	bpf_probe_read_kernel_str(name, sizeof(name),
				  BPF_CORE_READ(drm_driver_of(filp), name));
	for (i = 0; i < TRACE_DRV_LEN && name[i]; i++)
		h = (h ^ (__u8)name[i]) * 16777619U;
	return nr | (h << 8);
}

/*
 * A new DRM ioctl row: its name from the kernel's own descriptor (core
 * table, or the driver's), checked against the number, since a number
 * past the table's end reads whatever follows it.
 */
static void ioctl_names(struct trace_hist *h, __u64 filp, __u32 nr)
{
	const struct drm_driver___bpfdrv *drv;
	struct drm_ioctl_desc___bpfdrv *desc;
	__u64 base, size = bpf_core_type_size(struct drm_ioctl_desc___bpfdrv);
	__u32 index;

	if (!HAVE_DRM || !bpf_core_type_exists(struct drm_ioctl_desc___bpfdrv))
		return;
	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
		drv = drm_driver_of(filp);
		bpf_probe_read_kernel_str(h->drv, sizeof(h->drv),
					  BPF_CORE_READ(drv, name));
		index = nr - DRM_COMMAND_BASE;
		if (!drv || index >= (__u32)BPF_CORE_READ(drv, num_ioctls))
			return;
		base = (__u64)BPF_CORE_READ(drv, ioctls);
	} else {
		index = nr;
		base = drm_core_ioctls;
	}
	if (!base)
		return;
	desc = (void *)(base + index * size);
	if ((BPF_CORE_READ(desc, cmd) & 0xff) != nr)
		return;
	if (bpf_probe_read_kernel_str(h->str, sizeof(h->str),
				      BPF_CORE_READ(desc, name)) <= 0)
		h->str[0] = '\0';
}

/* The slot of this hook's call in flight in this task (or interrupt). */
static __always_inline struct call *call_slot(__u64 cookie, __u32 tgid, bool create)
{
	__u32 slot = (cookie >> TRACE_SLOT_SHIFT) & (TRACE_FUNC_SLOTS - 1), irq;
	struct inflight *in;

	if (trace_tgid_is_irq(tgid)) {
		irq = tgid == TRACE_TGID_SOFTIRQ;
		in = bpf_map_lookup_elem(&irq_calls, &irq);
	} else {
		in = bpf_task_storage_get(&task_calls, bpf_get_current_task_btf(), NULL,
					  create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	}
	return in ? &in->slot[slot] : NULL;
}

/*
 * A call of a function hook ends (or, counting only, starts): record it.
 * Counting only, the process row is the only count (user space sums them),
 * and the (hook, sub) row is made with the first, for its names.
 */
static __always_inline void func_count(__u64 cookie, __u32 sub, __u32 tgid,
				       __u64 arg1, __u64 delta, bool error)
{
	__u32 hook = cookie & TRACE_HOOK_MASK;
	struct trace_hist *h;
	bool created;

	if (count_only && !proc_add(tgid, NULL, hook, sub))
		return;
	h = hist_get(hook, sub, NULL, &created);
	if (h && created && ((cookie >> TRACE_ARG_SHIFT) & 0xff) == TRACE_ARG_IOCTL_NR)
		ioctl_names(h, arg1, TRACE_IOCTL_NR(sub));
	if (count_only)
		return;
	if (h)
		hist_record(h, delta, error);
	proc_add(tgid, NULL, hook, sub);	/* filtered at entry */
}

static __always_inline int func_enter(__u64 cookie, __u64 arg1, __u64 arg2)
{
	struct call *c;
	__u32 tgid, sub = 0;
	dev_t rdev;

	if (!current_wanted(&tgid))
		return 0;
	switch ((cookie >> TRACE_ARG_SHIFT) & 0xff) {
	case TRACE_ARG_IOCTL_NR:
		sub = ioctl_sub(arg1, arg2 & 0xff);
		break;
	case TRACE_ARG_IOCTL_CMD:
		sub = arg2;
		break;
	case TRACE_ARG_FILE_MINOR:
		rdev = BPF_CORE_READ((struct file *)arg1, f_inode, i_rdev);
		sub = rdev & MINOR_MASK;
		break;
	case TRACE_ARG_INODE_MINOR:
		rdev = BPF_CORE_READ((struct inode *)arg1, i_rdev);
		sub = rdev & MINOR_MASK;
		break;
	}
	if (count_only) {
		func_count(cookie, sub, tgid, arg1, NO_LATENCY, false);
		emit(TRACE_EV_INSTANT, cookie & TRACE_HOOK_MASK, sub, tgid, true,
		     EMIT_NOW, 0);
		return 0;
	}
	c = call_slot(cookie, tgid, true);
	if (!c) {
		__sync_fetch_and_add(&lost[TRACE_LOST_CALLS], 1);
		return 0;
	}
	c->arg1 = arg1;
	c->sub = sub;
	c->ts = bpf_ktime_get_ns();
	if (((cookie >> TRACE_ARG_SHIFT) & 0xff) == TRACE_ARG_IOCTL_NR)
		flow_begin();
	return 0;
}

/* Is @ret an errno, for a hook whose cookie says it returns them? */
static __always_inline bool ret_is_errno(__u64 cookie, long ret)
{
	/* int-returning functions leave the upper half of the register undefined */
	return (cookie & TRACE_RET_ERRNO) && (int)ret < 0 && (int)ret >= -MAX_ERRNO;
}

static __always_inline int func_leave(__u64 cookie, long ret)
{
	__u32 hook = cookie & TRACE_HOOK_MASK, tgid = current_tgid();
	struct call *c;
	__u64 delta;

	c = call_slot(cookie, tgid, false);
	if (!c || !c->ts)
		return 0;	/* entered before we attached, or filtered */
	delta = bpf_ktime_get_ns() - c->ts;
	/* the row first: it names the ioctl the timeline reads the event by */
	func_count(cookie, c->sub, tgid, c->arg1, delta, ret_is_errno(cookie, ret));
	emit_flow(TRACE_EV_SPAN, hook, c->sub, tgid, true, c->ts, delta,
		  ((cookie >> TRACE_ARG_SHIFT) & 0xff) == TRACE_ARG_IOCTL_NR ? flow_end() : 0);
	c->ts = 0;
	return 0;
}

/* Kernels with BPF trampolines: fentry/fexit, one copy per function. */
SEC("fentry")
int func_fentry(__u64 *ctx)
{
	__u64 arg1 = 0, arg2 = 0;

	if (stopping)
		return 0;
	bpf_get_func_arg(ctx, 0, &arg1);
	bpf_get_func_arg(ctx, 1, &arg2);
	return func_enter(bpf_get_attach_cookie(ctx), arg1, arg2);
}

SEC("fexit")
int func_fexit(__u64 *ctx)
{
	__u64 ret = 0;

	if (stopping)
		return 0;
	bpf_get_func_ret(ctx, &ret);
	return func_leave(bpf_get_attach_cookie(ctx), (long)ret);
}

/*
 * Kernels whose fprobe runs on the function graph tracer (6.14+): one
 * kprobe.multi link for the entries and one for the returns of every
 * function. These programs run with preemption off, so a task preempted
 * inside one never makes the kernel skip the program for the next task
 * on its CPU, as it does fentry programs on preemptible kernels.
 */
SEC("kprobe.multi")
int BPF_KPROBE(func_mentry, void *arg1, unsigned long arg2)
{
	if (stopping)
		return 0;
	return func_enter(bpf_get_attach_cookie(ctx), (__u64)arg1, arg2);
}

SEC("kretprobe.multi")
int BPF_KRETPROBE(func_mexit, long ret)
{
	if (stopping)
		return 0;
	return func_leave(bpf_get_attach_cookie(ctx), ret);
}

/* The fallback: a kprobe/kretprobe pair (kretprobes can miss calls). */
SEC("kprobe")
int BPF_KPROBE(func_entry, void *arg1, unsigned long arg2)
{
	if (stopping)
		return 0;
	return func_enter(bpf_get_attach_cookie(ctx), (__u64)arg1, arg2);
}

SEC("kretprobe")
int BPF_KRETPROBE(func_exit, long ret)
{
	if (stopping)
		return 0;
	return func_leave(bpf_get_attach_cookie(ctx), ret);
}

/*
 * bpfdrv.ko's own tracepoint (bpfdrv_trace.h): one event when a file
 * operation returns, timed by the module. One program, no return probe and
 * nothing kept between entry and exit: the cheap way to time these calls.
 * fop_cookies[op] is the cookie of the hook that op is, 0 if not traced.
 */
__u64 fop_cookies[BPFDRV_FOP_NR];

SEC("raw_tp")
int tp_bpfdrv_fop(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 minor = ctx->args[0], op = ctx->args[1], tgid;
	long ret = ctx->args[2];
	__u64 dur = ctx->args[3], cookie;

	if (stopping || op >= BPFDRV_FOP_NR)
		return 0;
	cookie = fop_cookies[op];
	/* a file operation runs in its caller's task, never in an interrupt */
	tgid = bpf_get_current_pid_tgid() >> 32;
	if (!cookie || !task_wanted(tgid))
		return 0;
	if (emit_events)	/* the clock is read only for a timeline */
		emit(TRACE_EV_SPAN, cookie & TRACE_HOOK_MASK, minor, tgid, true,
		     bpf_ktime_get_ns() - dur, dur);
	func_count(cookie, minor, tgid, 0, count_only ? NO_LATENCY : dur,
		   ret_is_errno(cookie, ret));
	return 0;
}

/* --- tracepoints --- */

/* Any tracepoint: count it for the current process (or interrupt). */
SEC("raw_tp")
int tp_count(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u32 tgid, hook = cookie & TRACE_HOOK_MASK, sub = 0;

	if (stopping)
		return 0;
	if (!current_wanted(&tgid))
		return 0;
	if (cookie & TRACE_CTX_CRTC)
		sub = (__u32)ctx->args[0];
	count_current(hook, sub, NULL, tgid);
	return 0;
}

/* A short hash of an event's string argument, its sub-key. */
static __always_inline __u32 str_key(const char *kstr, char *buf)
{
	__u32 h = 2166136261U;
	int i;

	__builtin_memset(buf, 0, TRACE_STR_LEN);
	bpf_probe_read_kernel_str(buf, TRACE_STR_LEN, kstr);
	for (i = 0; i < TRACE_STR_LEN; i++) {
		if (!buf[i])
			break;
		h = (h ^ (__u8)buf[i]) * 16777619U;
	}
	return h;
}

/* Tracepoints whose first argument names the event: vpu:jsm, vpu:pm. */
SEC("raw_tp")
int tp_str_count(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tgid, hook = cookie_hook(ctx);
	char str[TRACE_STR_LEN];
	__u32 sub;

	if (stopping)
		return 0;
	if (!current_wanted(&tgid))
		return 0;
	sub = str_key((const char *)ctx->args[0], str);
	count_current(hook, sub, str, tgid);
	return 0;
}

/*
 * Charge an event of a paired object to the process that started it, or
 * to the current one when we did not see the start.
 */
static __always_inline bool charge_flow(struct owner *o, __u32 hook, __u32 sub,
					const char *str, __u32 flow)
{
	__u32 tgid;

	if (o) {
		hist_add(hook, sub, NO_LATENCY, false, str);
		proc_add(o->tgid, o->comm, hook, sub);
		emit_flow(TRACE_EV_INSTANT, hook, sub, o->tgid, false, EMIT_NOW, 0, flow);
		return true;
	}
	if (!current_wanted(&tgid))
		return false;
	count_current(hook, sub, str, tgid);
	return true;
}

static __always_inline bool charge(struct owner *o, __u32 hook, __u32 sub,
				   const char *str)
{
	return charge_flow(o, hook, sub, str, 0);
}

static __always_inline void owner_start(void *map, __u64 id)
{
	struct owner o = { .ts_start = bpf_ktime_get_ns() };

	if (!current_wanted(&o.tgid))
		return;
	current_who(&o.tgid, o.comm);
	if (bpf_map_update_elem(map, &id, &o, BPF_ANY))
		__sync_fetch_and_add(&lost[TRACE_LOST_OWNERS], 1);
}

static __always_inline void lat_add_flow(__u32 lat, __u64 since, struct owner *o,
					 __u32 flow)
{
	__u64 now = bpf_ktime_get_ns();

	if (!since)
		return;
	hist_add(lat, 0, now - since, false, NULL);
	proc_add(o->tgid, o->comm, lat, 0);
	emit_flow(TRACE_EV_OBJECT, lat, 0, o->tgid, false, since, now - since, flow);
}

static __always_inline void lat_add(__u32 lat, __u64 since, struct owner *o)
{
	lat_add_flow(lat, since, o, 0);
}

/* gpu_scheduler: drm_sched_job_queue (6.17+) / drm_sched_job (6.12) */
SEC("raw_tp")
int tp_sched_queue(struct bpf_raw_tracepoint_args *ctx)
{
	struct drm_sched_job *job = (void *)ctx->args[0];
	__u64 fence = (__u64)BPF_CORE_READ(job, s_fence);

	__u64 finished = fence + bpf_core_field_offset(struct drm_sched_fence___bpfdrv, finished);
	struct owner *o, *fo;

	if (stopping)
		return 0;
	owner_start(&sched_jobs, fence);
	o = bpf_map_lookup_elem(&sched_jobs, &fence);
	if (o)
		o->flow = flow_take(TRACE_FLOW_JOB);
	/* its finished fence, initialized in this submit too, ends a flow */
	fo = o && o->flow ? bpf_map_lookup_elem(&fences, &finished) : NULL;
	if (fo && !fo->flow)
		fo->flow = flow_take(TRACE_FLOW_FENCE);
	charge(o, cookie_hook(ctx), 0, NULL);
	return 0;
}

/* drm_sched_job_run (6.17+) / drm_run_job (6.12) */
SEC("raw_tp")
int tp_sched_run(struct bpf_raw_tracepoint_args *ctx)
{
	struct drm_sched_job *job = (void *)ctx->args[0];
	__u64 fence = (__u64)BPF_CORE_READ(job, s_fence);
	struct owner *o = bpf_map_lookup_elem(&sched_jobs, &fence);

	if (stopping)
		return 0;
	if (o) {
		o->ts_mid = bpf_ktime_get_ns();
		lat_add(TRACE_LAT_SCHED_QUEUE_RUN, o->ts_start, o);
	}
	charge(o, cookie_hook(ctx), 0, NULL);
	return 0;
}

/* drm_sched_job_done (6.17+) / drm_sched_process_job (6.12): the fence */
SEC("raw_tp")
int tp_sched_done(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 fence = ctx->args[0];
	struct owner *o = bpf_map_lookup_elem(&sched_jobs, &fence);

	if (stopping)
		return 0;
	charge(o, cookie_hook(ctx), 0, NULL);
	if (!o)
		return 0;
	lat_add(TRACE_LAT_SCHED_RUN_DONE, o->ts_mid, o);
	lat_add_flow(TRACE_LAT_SCHED_QUEUE_DONE, o->ts_start, o, o->flow);
	bpf_map_delete_elem(&sched_jobs, &fence);
	return 0;
}

/* dma_fence:dma_fence_init */
SEC("raw_tp")
int tp_fence_init(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 fence = ctx->args[0];

	if (stopping)
		return 0;
	owner_start(&fences, fence);
	charge(bpf_map_lookup_elem(&fences, &fence), cookie_hook(ctx), 0, NULL);
	return 0;
}

/* dma_fence:dma_fence_emit: handed to the hardware */
SEC("raw_tp")
int tp_fence_emit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 fence = ctx->args[0];
	struct owner *o = bpf_map_lookup_elem(&fences, &fence);

	if (stopping)
		return 0;
	if (!o) {
		owner_start(&fences, fence);
		o = bpf_map_lookup_elem(&fences, &fence);
	}
	if (o) {
		o->ts_mid = bpf_ktime_get_ns();
		o->flow = o->flow ?: flow_take(TRACE_FLOW_FENCE);
	}
	charge(o, cookie_hook(ctx), 0, NULL);
	return 0;
}

/* dma_fence:dma_fence_signaled */
SEC("raw_tp")
int tp_fence_signaled(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 fence = ctx->args[0];
	struct owner *o = bpf_map_lookup_elem(&fences, &fence);

	if (stopping)
		return 0;
	charge_flow(o, cookie_hook(ctx), 0, NULL, o ? o->flow : 0);
	if (!o)
		return 0;
	lat_add(TRACE_LAT_FENCE_EMIT_SIGNAL, o->ts_mid, o);
	lat_add(TRACE_LAT_FENCE_INIT_SIGNAL, o->ts_start, o);
	bpf_map_delete_elem(&fences, &fence);
	return 0;
}

/* dma_fence:dma_fence_destroy: forget fences that were never signaled */
SEC("raw_tp")
int tp_fence_destroy(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 fence = ctx->args[0];
	struct owner *o = bpf_map_lookup_elem(&fences, &fence);

	if (stopping)
		return 0;
	charge(o, cookie_hook(ctx), 0, NULL);
	if (o)
		bpf_map_delete_elem(&fences, &fence);
	return 0;
}

/* vpu:job (6.13+): "create", "submit", "done", "free" with the job */
SEC("raw_tp")
int tp_vpu_job(struct bpf_raw_tracepoint_args *ctx)
{
	struct ivpu_job *job = (void *)ctx->args[1];
	char str[TRACE_STR_LEN];
	__u32 sub = str_key((const char *)ctx->args[0], str);
	__u64 id = BPF_CORE_READ(job, job_id);
	struct owner *o;

	if (stopping)
		return 0;
	if (str[0] == 's' && str[1] == 'u')	/* submit */
		owner_start(&vpu_jobs, id);
	o = bpf_map_lookup_elem(&vpu_jobs, &id);
	charge(o, cookie_hook(ctx), sub, str);
	if (o && str[0] == 'd') {		/* done */
		lat_add(TRACE_LAT_VPU_SUBMIT_DONE, o->ts_start, o);
		bpf_map_delete_elem(&vpu_jobs, &id);
	}
	return 0;
}

/* nvidia:nvidia_dev_xid(pdev, error_code, msg): per Xid, with its message */
SEC("raw_tp")
int tp_xid(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tgid, hook = cookie_hook(ctx), code = ctx->args[1];

	if (stopping)
		return 0;
	if (!current_wanted(&tgid))
		return 0;
	count_current(hook, code, (const char *)ctx->args[2], tgid);
	return 0;
}

/* --- the IOMMU group: DMA mappings and I/O page faults, per device --- */

/* A struct device's name (dev_name()), hashed to a sub-key, and kept. */
static __always_inline __u32 dev_key(__u64 dev, char *buf)
{
	return str_key(BPF_CORE_READ((struct device *)dev, kobj.name), buf);
}

/*
 * DMA API (dma:*) and IOMMU (iommu:map, iommu:unmap) tracepoints: counted
 * per device where argument 0 is one (TRACE_CTX_DEV), with @bytes.
 */
static __always_inline int dma_event(struct bpf_raw_tracepoint_args *ctx, __u64 bytes)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u32 tgid, hook = cookie & TRACE_HOOK_MASK, sub = 0;
	char str[TRACE_STR_LEN] = {};
	bool dev = cookie & TRACE_CTX_DEV;
	struct trace_hist *h;

	if (stopping)
		return 0;
	if (dev ? !current_wanted_for_dev(&tgid) : !current_wanted(&tgid))
		return 0;
	if (dev)
		sub = dev_key(ctx->args[0], str);
	h = count_current(hook, sub, dev ? str : NULL, tgid);
	if (h)
		h->bytes += bytes;
	return 0;
}

/*
 * One program per place of the size: a raw tracepoint program may read no
 * argument past the last of every tracepoint it is attached to.
 */
SEC("raw_tp")
int tp_dma(struct bpf_raw_tracepoint_args *ctx)
{
	return dma_event(ctx, 0);
}

/*
 * dma_unmap_phys(dev, addr, size, ...), iommu:map(iova, paddr, size),
 * iommu:unmap(iova, size, unmapped_size)
 */
SEC("raw_tp")
int tp_dma_size2(struct bpf_raw_tracepoint_args *ctx)
{
	return dma_event(ctx, ctx->args[2]);
}

/* dma_map_phys(dev, phys, dma, size, ...), dma_alloc, dma_free(dev, virt, dma, size, ...) */
SEC("raw_tp")
int tp_dma_size3(struct bpf_raw_tracepoint_args *ctx)
{
	return dma_event(ctx, ctx->args[3]);
}

/*
 * iommu:io_page_fault(dev, iova, flags): per device and direction (the
 * sub-key's low bit: IOMMU_FAULT_WRITE), with the last faulting address.
 */
SEC("raw_tp")
int tp_iommu_fault(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tgid, hook = cookie_hook(ctx), sub;
	char str[TRACE_STR_LEN] = {};
	struct trace_hist *h;

	if (stopping)
		return 0;
	if (!current_wanted(&tgid))
		return 0;
	sub = (dev_key(ctx->args[0], str) & ~1U) | (ctx->args[2] & TRACE_FAULT_WRITE);
	h = count_current(hook, sub, str, tgid);
	if (h) {
		if (h->count == 1 || ctx->args[1] < h->addr_min)
			h->addr_min = ctx->args[1];
		if (ctx->args[1] > h->addr_max)
			h->addr_max = ctx->args[1];
	}
	return 0;
}

/*
 * Recoverable faults: a page request group is reported fault by fault
 * (iommu_report_device_fault) and answered once (iopf_group_response); the
 * latency runs from its first report to the response, keyed by device,
 * PASID and group index. Faults of another type start nothing.
 */
struct iopf_key {
	__u64 dev;
	__u32 pasid;
	__u32 grpid;
};

/* The I/O page fault types (6.8 and later), the fields used: CO-RE. */
struct iommu_fault_page_request___bpfdrv {
	__u32 pasid;
	__u32 grpid;
} __attribute__((preserve_access_index));

struct iommu_fault___bpfdrv {
	__u32 type;
	union {
		struct iommu_fault_page_request___bpfdrv prm;
	};
} __attribute__((preserve_access_index));

struct iopf_fault___bpfdrv {
	struct iommu_fault___bpfdrv fault;
} __attribute__((preserve_access_index));

struct iommu_fault_param___bpfdrv {
	struct device *dev;
} __attribute__((preserve_access_index));

struct iopf_group___bpfdrv {
	struct iopf_fault___bpfdrv last_fault;
	struct iommu_fault_param___bpfdrv *fault_param;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct iopf_key);
	__type(value, struct owner);
} iopf_groups SEC(".maps");

#define IOMMU_FAULT_PAGE_REQ_TYPE	1	/* enum iommu_fault_type */

/* Count a recoverable fault's event on its device's row. */
static __always_inline void iopf_count(__u32 hook, __u64 dev, struct owner *o)
{
	char str[TRACE_STR_LEN] = {};
	__u32 sub = dev_key(dev, str);

	charge(o, hook, sub, str);
}

SEC("fentry")
int BPF_PROG(fn_iopf_report, struct device *dev, struct iopf_fault___bpfdrv *evt)
{
	struct iopf_key key = { .dev = (__u64)dev };
	struct owner o = { .ts_start = bpf_ktime_get_ns() };

	if (stopping)
		return 0;
	if (BPF_CORE_READ(evt, fault.type) != IOMMU_FAULT_PAGE_REQ_TYPE)
		return 0;
	key.pasid = BPF_CORE_READ(evt, fault.prm.pasid);
	key.grpid = BPF_CORE_READ(evt, fault.prm.grpid);
	if (current_wanted(&o.tgid)) {
		current_who(&o.tgid, o.comm);
		/* the group's first report starts it */
		if (bpf_map_update_elem(&iopf_groups, &key, &o, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&iopf_groups, &key))
			__sync_fetch_and_add(&lost[TRACE_LOST_OWNERS], 1);
	}
	iopf_count(cookie_hook(ctx), key.dev, bpf_map_lookup_elem(&iopf_groups, &key));
	return 0;
}

SEC("fentry")
int BPF_PROG(fn_iopf_response, struct iopf_group___bpfdrv *group, int status)
{
	struct iopf_key key = {};
	struct owner *o;

	if (stopping)
		return 0;
	key.dev = (__u64)BPF_CORE_READ(group, fault_param, dev);
	key.pasid = BPF_CORE_READ(group, last_fault.fault.prm.pasid);
	key.grpid = BPF_CORE_READ(group, last_fault.fault.prm.grpid);
	o = bpf_map_lookup_elem(&iopf_groups, &key);
	iopf_count(cookie_hook(ctx), key.dev, o);
	if (o) {
		lat_add(TRACE_LAT_IOPF_REPORT_RESPONSE, o->ts_start, o);
		bpf_map_delete_elem(&iopf_groups, &key);
	}
	return 0;
}

/*
 * irq:irq_handler_entry/exit of the handlers named irq_name (a driver's
 * interrupt, where its functions cannot be probed): count and latency.
 * A hard handler runs to its exit on its CPU: one start per CPU.
 */
const volatile char irq_name[TRACE_COMM_LEN];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} irq_handler_start SEC(".maps");

static __always_inline bool irq_named(struct irqaction *action)
{
	char name[TRACE_COMM_LEN] = {};

	bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(action, name));
	return name_eq(name, irq_name);
}

SEC("raw_tp")
int tp_irq_handler_entry(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	__u64 *start = bpf_map_lookup_elem(&irq_handler_start, &zero);

	if (!start)
		return 0;
	*start = 0;
	if (!stopping && irq_named((struct irqaction *)ctx->args[1]))
		*start = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tp")
int tp_irq_handler_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0, irq = ctx->args[0], hook = cookie_hook(ctx);
	__u64 *start = bpf_map_lookup_elem(&irq_handler_start, &zero), delta;

	if (!start || !*start)
		return 0;
	delta = bpf_ktime_get_ns() - *start;
	*start = 0;
	hist_add(hook, irq, delta, false, NULL);
	proc_add(TRACE_TGID_HARDIRQ, "[hardirq]", hook, irq);
	emit(TRACE_EV_SPAN, hook, irq, TRACE_TGID_HARDIRQ, false,
	     bpf_ktime_get_ns() - delta, delta);
	return 0;
}

/*
 * irq:irq_handler_entry/exit of the IRQs that user space found one device
 * for (irq_devs: a PCI function's MSI vectors, an INTx line no other
 * function has): per device, the handler's time, on the device's track of
 * the timeline. The device's own: counted whichever task was interrupted.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);			/* the IRQ */
	__type(value, struct trace_irq_dev);
} irq_devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} dev_irq_start SEC(".maps");

SEC("raw_tp")
int tp_devirq_entry(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0, irq = ctx->args[0];
	__u64 *start = bpf_map_lookup_elem(&dev_irq_start, &zero);

	if (!start)
		return 0;
	*start = 0;
	if (!stopping && bpf_map_lookup_elem(&irq_devs, &irq))
		*start = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tp")
int tp_devirq_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0, irq = ctx->args[0], hook = cookie_hook(ctx);
	__u64 *start = bpf_map_lookup_elem(&dev_irq_start, &zero), delta;
	struct trace_irq_dev *d;

	if (!start || !*start)
		return 0;
	delta = bpf_ktime_get_ns() - *start;
	*start = 0;
	d = bpf_map_lookup_elem(&irq_devs, &irq);
	if (!d)
		return 0;
	hist_add(hook, d->sub, delta, false, d->name);
	proc_add(TRACE_TGID_HARDIRQ, "[hardirq]", hook, d->sub);
	emit(TRACE_EV_SPAN, hook, d->sub, TRACE_TGID_HARDIRQ, false,
	     bpf_ktime_get_ns() - delta, delta);
	return 0;
}

/* --- system calls on device files: where functions cannot be probed --- */

/*
 * Set by user space: what each syscall number is (enum trace_sys_op), the
 * hook cookie of each device class and operation (0: not traced), and the
 * devices of each class, by major:minor or major:TRACE_ANY_MINOR.
 */
__u8 sys_ops[TRACE_SYSCALLS];
__u64 sys_cookies[TRACE_DEV_NR][TRACE_SYS_NR];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);		/* dev_t, the kernel's encoding */
	__type(value, __u32);		/* enum trace_dev_class */
} sys_devs SEC(".maps");

/* A syscall in flight, per task: syscalls do not nest in a task. */
struct sys_call {
	__u64 ts;	/* 0: none */
	__u64 cookie;
	__u64 file;
	__u32 sub;
	__u32 op;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sys_call);
} sys_calls SEC(".maps");

#define S_IFMT		00170000
#define S_IFCHR		0020000
#define MINORBITS	20

/* The open file behind the current task's descriptor @fd, or NULL. */
static __always_inline struct file *fd_file(long fd)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
	struct file **fds = BPF_CORE_READ(fdt, fd);
	struct file *f = NULL;

	if (fd < 0 || fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	return f;
}

/* The class of the traced character device @f is, or -1; its minor. */
static __always_inline int dev_class(struct file *f, __u32 *minor)
{
	struct inode *inode = BPF_CORE_READ(f, f_inode);
	__u32 dev, key, *cls;

	if (!f || (BPF_CORE_READ(inode, i_mode) & S_IFMT) != S_IFCHR)
		return -1;
	dev = BPF_CORE_READ(inode, i_rdev);
	key = dev;
	cls = bpf_map_lookup_elem(&sys_devs, &key);
	if (!cls) {
		key = dev | TRACE_ANY_MINOR;
		cls = bpf_map_lookup_elem(&sys_devs, &key);
	}
	if (!cls || *cls >= TRACE_DEV_NR)
		return -1;
	*minor = dev & MINOR_MASK;
	return *cls;
}

/* The hook cookie of @op on @f's device, 0 if not traced; its minor. */
static __always_inline __u64 sys_cookie(struct file *f, __u32 op, __u32 *minor)
{
	int cls = dev_class(f, minor);

	if (cls < 0 || op >= TRACE_SYS_NR)
		return 0;
	return sys_cookies[cls][op];
}

/* poll(): the first of its first TRACE_POLL_FDS descriptors that is traced */
static __always_inline __u64 poll_cookie(__u64 ufds, __u64 nfds, struct file **fp,
					 __u32 *minor)
{
	struct { int fd; short events, revents; } p;
	__u64 cookie;
	int i;

	for (i = 0; i < TRACE_POLL_FDS && i < nfds; i++) {
		if (bpf_probe_read_user(&p, sizeof(p), (void *)(ufds + i * sizeof(p))))
			return 0;
		*fp = fd_file(p.fd);
		cookie = sys_cookie(*fp, TRACE_SYS_POLL, minor);
		if (cookie)
			return cookie;
	}
	return 0;
}

/* Commands the VFS answers itself (do_vfs_ioctl): the driver never sees them. */
static __always_inline bool vfs_ioctl(__u32 cmd)
{
	return cmd == 0x5451 || cmd == 0x5450 ||	/* FIOCLEX, FIONCLEX */
	       cmd == 0x5421 || cmd == 0x5452 ||	/* FIONBIO, FIOASYNC */
	       cmd == 0x5460;				/* FIOQSIZE */
}

SEC("raw_tp")
int tp_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (void *)ctx->args[0];
	long nr = ctx->args[1];
	struct file *f = NULL;
	struct sys_call *c;
	__u32 op, minor = 0, sub, cmd = 0;
	__u64 cookie = 0;

	if (stopping || nr < 0 || nr >= TRACE_SYSCALLS)
		return 0;
	op = sys_ops[nr];
	if (op == TRACE_SYS_NONE || !task_wanted(bpf_get_current_pid_tgid() >> 32))
		return 0;
	switch (op) {
	case TRACE_SYS_OPEN:
		break;		/* the file is known at the exit */
	case TRACE_SYS_POLL:
		cookie = poll_cookie(BPF_CORE_READ(regs, di), BPF_CORE_READ(regs, si),
				     &f, &minor);
		break;
	case TRACE_SYS_MMAP:
		f = fd_file(BPF_CORE_READ(regs, r8));
		cookie = sys_cookie(f, op, &minor);
		break;
	case TRACE_SYS_IOCTL:
		cmd = BPF_CORE_READ(regs, si);
		if (vfs_ioctl(cmd))
			return 0;
		/* fall through */
	default:
		f = fd_file(BPF_CORE_READ(regs, di));
		cookie = sys_cookie(f, op, &minor);
	}
	if (op != TRACE_SYS_OPEN && !cookie)
		return 0;
	sub = minor;
	switch ((cookie >> TRACE_ARG_SHIFT) & 0xff) {
	case TRACE_ARG_IOCTL_NR:
		sub = ioctl_sub((__u64)f, cmd & 0xff);
		break;
	case TRACE_ARG_IOCTL_CMD:
		sub = cmd;
		break;
	}
	c = bpf_task_storage_get(&sys_calls, bpf_get_current_task_btf(), NULL,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!c) {
		__sync_fetch_and_add(&lost[TRACE_LOST_CALLS], 1);
		return 0;
	}
	c->cookie = cookie;
	c->file = (__u64)f;
	c->sub = sub;
	c->op = op;
	c->ts = bpf_ktime_get_ns();
	if (((cookie >> TRACE_ARG_SHIFT) & 0xff) == TRACE_ARG_IOCTL_NR)
		flow_begin();
	return 0;
}

SEC("raw_tp")
int tp_sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
	long ret = ctx->args[1];
	struct sys_call *c;
	__u64 cookie, file, ts, delta;
	__u32 tgid, sub;

	if (stopping)
		return 0;
	c = bpf_task_storage_get(&sys_calls, bpf_get_current_task_btf(), NULL, 0);
	if (!c || !c->ts)
		return 0;
	ts = c->ts;
	c->ts = 0;
	cookie = c->cookie;
	file = c->file;
	sub = c->sub;
	if (c->op == TRACE_SYS_OPEN) {
		/* a failed open leaves no file to tell which device it was */
		if (ret < 0)
			return 0;
		file = (__u64)fd_file(ret);
		cookie = sys_cookie((struct file *)file, TRACE_SYS_OPEN, &sub);
		if (!cookie)
			return 0;
	}
	delta = bpf_ktime_get_ns() - ts;
	tgid = bpf_get_current_pid_tgid() >> 32;
	func_count(cookie, sub, tgid, file, delta, ret_is_errno(cookie, ret));
	emit_flow(TRACE_EV_SPAN, cookie & TRACE_HOOK_MASK, sub, tgid, true, ts, delta,
		  ((cookie >> TRACE_ARG_SHIFT) & 0xff) == TRACE_ARG_IOCTL_NR ? flow_end() : 0);
	return 0;
}

/* --- run once by user space (BPF_PROG_TEST_RUN) --- */

/* A kernel symbol's address, for a table that BTF does not describe. */
SEC("syscall")
int find_ksym(struct trace_ksym *args)
{
	char name[sizeof(args->name)];
	__u64 addr = 0;

	/* the helper wants the buffer's last byte to be the NUL */
	__builtin_memcpy(name, args->name, sizeof(name));
	name[sizeof(name) - 1] = '\0';
	bpf_kallsyms_lookup_name(name, sizeof(name), 0, &addr);
	args->addr = addr;
	return 0;
}
