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
 * Results go to two hash maps that user space reads: `hists` (count,
 * errors, latency histogram per hook and sub-key) and `procs` (count per
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

char LICENSE[] SEC("license") = "GPL";

/* Filters, set before load: a process id and/or a command name. */
const volatile __u32 targ_tgid;
const volatile bool targ_comm_set;
const volatile char targ_comm[TRACE_COMM_LEN];
/* With targ_tgid: its descendants too, noted in traced as they fork. */
const volatile bool targ_follow;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);		/* tgid */
	__type(value, __u8);
} traced SEC(".maps");

/* Processes forked from traced ones that traced had no room for. */
__u64 follow_lost;

#define MINOR_MASK	((1U << 20) - 1)	/* MINORBITS */
#define MAX_ERRNO	4095

struct drm_sched_job {
	struct drm_sched_fence *s_fence;
} __attribute__((preserve_access_index));

struct ivpu_job {
	__u32 job_id;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct trace_key);
	__type(value, struct trace_hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, struct trace_proc_key);
	__type(value, struct trace_proc);
} procs SEC(".maps");

/* A function call in flight: the thread and the hook. */
struct call_key {
	__u32 tid;
	__u32 hook;
};

struct call {
	__u64 ts;
	__u32 sub;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct call_key);
	__type(value, struct call);
} calls SEC(".maps");

/* An object whose events are paired: when it started and for whom. */
struct owner {
	__u64 ts_start;		/* queued, initialized, submitted */
	__u64 ts_mid;		/* run, emitted */
	__u32 tgid;
	__u32 pad;
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

static __always_inline bool comm_wanted(const char *comm)
{
	int i;

	if (!targ_comm_set)
		return true;
	for (i = 0; i < TRACE_COMM_LEN; i++) {
		if (comm[i] != targ_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
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

	if (ptgid == ctgid || !tgid_wanted(ptgid))
		return 0;
	if (bpf_map_update_elem(&traced, &ctgid, &one, BPF_ANY))
		__sync_fetch_and_add(&follow_lost, 1);
	return 0;
}

/* The current task, if the filters let it through. */
static __always_inline bool current_wanted(__u32 *tgid, char *comm)
{
	*tgid = bpf_get_current_pid_tgid() >> 32;
	if (targ_tgid && !tgid_wanted(*tgid))
		return false;
	bpf_get_current_comm(comm, TRACE_COMM_LEN);
	return comm_wanted(comm);
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

static struct trace_hist *hist_get(__u32 hook, __u32 sub, const char *str)
{
	struct trace_key key = { .hook = hook, .sub = sub };
	struct trace_hist *h = bpf_map_lookup_elem(&hists, &key);
	static const struct trace_hist zero;

	if (h)
		return h;
	bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
	h = bpf_map_lookup_elem(&hists, &key);
	if (h && str)
		bpf_probe_read_kernel_str(h->str, sizeof(h->str), str);
	return h;
}

static void hist_add(__u32 hook, __u32 sub, __u64 delta_ns, bool error,
		     const char *str)
{
	struct trace_hist *h = hist_get(hook, sub, str);
	__u32 slot;

	if (!h)
		return;
	__sync_fetch_and_add(&h->count, 1);
	if (error)
		__sync_fetch_and_add(&h->errors, 1);
	if (delta_ns == NO_LATENCY)
		return;
	__sync_fetch_and_add(&h->timed, 1);
	__sync_fetch_and_add(&h->total_ns, delta_ns);
	if (delta_ns > h->max_ns)
		h->max_ns = delta_ns;	/* racy, good enough for a maximum */
	slot = log2_u64(delta_ns / 1000);
	if (slot >= TRACE_HIST_SLOTS)
		slot = TRACE_HIST_SLOTS - 1;
	__sync_fetch_and_add(&h->slots[slot], 1);
}

static void proc_add(__u32 tgid, const char *comm, __u32 hook, __u32 sub)
{
	struct trace_proc_key key = { .tgid = tgid, .hook = hook, .sub = sub };
	struct trace_proc *p = bpf_map_lookup_elem(&procs, &key);
	struct trace_proc init = { .count = 1 };

	if (p) {
		__sync_fetch_and_add(&p->count, 1);
		return;
	}
	__builtin_memcpy(init.comm, comm, TRACE_COMM_LEN);
	if (bpf_map_update_elem(&procs, &key, &init, BPF_NOEXIST))
		if ((p = bpf_map_lookup_elem(&procs, &key)))
			__sync_fetch_and_add(&p->count, 1);
}

static __always_inline __u32 cookie_hook(void *ctx)
{
	return bpf_get_attach_cookie(ctx) & TRACE_HOOK_MASK;
}

/* --- kernel functions: count, errors and latency per call --- */

SEC("kprobe")
int BPF_KPROBE(func_entry, void *arg1, unsigned long arg2)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	struct call_key key = {
		.tid = (__u32)bpf_get_current_pid_tgid(),
		.hook = cookie & TRACE_HOOK_MASK,
	};
	struct call c = { .ts = bpf_ktime_get_ns() };
	char comm[TRACE_COMM_LEN];
	__u32 tgid;
	dev_t rdev;

	if (!current_wanted(&tgid, comm))
		return 0;
	switch ((cookie >> TRACE_ARG_SHIFT) & 0xff) {
	case TRACE_ARG_IOCTL_NR:
		c.sub = arg2 & 0xff;
		break;
	case TRACE_ARG_FILE_MINOR:
		rdev = BPF_CORE_READ((struct file *)arg1, f_inode, i_rdev);
		c.sub = rdev & MINOR_MASK;
		break;
	case TRACE_ARG_INODE_MINOR:
		rdev = BPF_CORE_READ((struct inode *)arg1, i_rdev);
		c.sub = rdev & MINOR_MASK;
		break;
	}
	bpf_map_update_elem(&calls, &key, &c, BPF_ANY);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(func_exit, long ret)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	struct call_key key = {
		.tid = (__u32)bpf_get_current_pid_tgid(),
		.hook = cookie & TRACE_HOOK_MASK,
	};
	char comm[TRACE_COMM_LEN];
	struct call *c;
	__u64 delta;
	bool error;
	__u32 sub;

	c = bpf_map_lookup_elem(&calls, &key);
	if (!c)
		return 0;	/* filtered out at entry, or entered before we attached */
	delta = bpf_ktime_get_ns() - c->ts;
	sub = c->sub;
	bpf_map_delete_elem(&calls, &key);
	error = (cookie & TRACE_RET_ERRNO) && ret < 0 && ret >= -MAX_ERRNO;
	hist_add(key.hook, sub, delta, error, NULL);
	bpf_get_current_comm(comm, sizeof(comm));
	proc_add(bpf_get_current_pid_tgid() >> 32, comm, key.hook, sub);
	return 0;
}

/* --- tracepoints --- */

/* Any tracepoint: count it for the current process. */
SEC("raw_tp")
int tp_count(struct bpf_raw_tracepoint_args *ctx)
{
	char comm[TRACE_COMM_LEN];
	__u32 tgid, hook = cookie_hook(ctx);

	if (!current_wanted(&tgid, comm))
		return 0;
	hist_add(hook, 0, NO_LATENCY, false, NULL);
	proc_add(tgid, comm, hook, 0);
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
	char comm[TRACE_COMM_LEN], str[TRACE_STR_LEN];
	__u32 tgid, hook = cookie_hook(ctx);
	__u32 sub;

	if (!current_wanted(&tgid, comm))
		return 0;
	sub = str_key((const char *)ctx->args[0], str);
	hist_add(hook, sub, NO_LATENCY, false, str);
	proc_add(tgid, comm, hook, sub);
	return 0;
}

/*
 * Charge an event of a paired object to the process that started it, or
 * to the current one when we did not see the start.
 */
static __always_inline bool charge(struct owner *o, __u32 hook, __u32 sub,
				   const char *str)
{
	char comm[TRACE_COMM_LEN];
	__u32 tgid;

	if (o) {
		hist_add(hook, sub, NO_LATENCY, false, str);
		proc_add(o->tgid, o->comm, hook, sub);
		return true;
	}
	if (!current_wanted(&tgid, comm))
		return false;
	hist_add(hook, sub, NO_LATENCY, false, str);
	proc_add(tgid, comm, hook, sub);
	return true;
}

static __always_inline void owner_start(void *map, __u64 id)
{
	struct owner o = { .ts_start = bpf_ktime_get_ns() };

	if (!current_wanted(&o.tgid, o.comm))
		return;
	bpf_map_update_elem(map, &id, &o, BPF_ANY);
}

static __always_inline void lat_add(__u32 lat, __u64 since, struct owner *o)
{
	if (!since)
		return;
	hist_add(lat, 0, bpf_ktime_get_ns() - since, false, NULL);
	proc_add(o->tgid, o->comm, lat, 0);
}

/* gpu_scheduler: drm_sched_job_queue (6.17+) / drm_sched_job (6.12) */
SEC("raw_tp")
int tp_sched_queue(struct bpf_raw_tracepoint_args *ctx)
{
	struct drm_sched_job *job = (void *)ctx->args[0];
	__u64 fence = (__u64)BPF_CORE_READ(job, s_fence);

	owner_start(&sched_jobs, fence);
	charge(bpf_map_lookup_elem(&sched_jobs, &fence), cookie_hook(ctx), 0, NULL);
	return 0;
}

/* drm_sched_job_run (6.17+) / drm_run_job (6.12) */
SEC("raw_tp")
int tp_sched_run(struct bpf_raw_tracepoint_args *ctx)
{
	struct drm_sched_job *job = (void *)ctx->args[0];
	__u64 fence = (__u64)BPF_CORE_READ(job, s_fence);
	struct owner *o = bpf_map_lookup_elem(&sched_jobs, &fence);

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

	charge(o, cookie_hook(ctx), 0, NULL);
	if (!o)
		return 0;
	lat_add(TRACE_LAT_SCHED_RUN_DONE, o->ts_mid, o);
	lat_add(TRACE_LAT_SCHED_QUEUE_DONE, o->ts_start, o);
	bpf_map_delete_elem(&sched_jobs, &fence);
	return 0;
}

/* dma_fence:dma_fence_init */
SEC("raw_tp")
int tp_fence_init(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 fence = ctx->args[0];

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

	if (!o) {
		owner_start(&fences, fence);
		o = bpf_map_lookup_elem(&fences, &fence);
	}
	if (o)
		o->ts_mid = bpf_ktime_get_ns();
	charge(o, cookie_hook(ctx), 0, NULL);
	return 0;
}

/* dma_fence:dma_fence_signaled */
SEC("raw_tp")
int tp_fence_signaled(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 fence = ctx->args[0];
	struct owner *o = bpf_map_lookup_elem(&fences, &fence);

	charge(o, cookie_hook(ctx), 0, NULL);
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
