// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv_accel.ko: the DRM side of the accelerator class. Each instance of
 * a driver that declares chr_ext_ops.accel gets a DRM accel device
 * (/dev/accel/accelN) named after the driver, with shmem-backed GEM
 * buffer objects, their mmap and PRIME sharing, syncobjs, and the driver's
 * own ioctls, whose arguments bpfdrv copies and hands to accel_ioctl, and
 * jobs: queued per ring through the kernel's DRM scheduler, or started
 * from their submit when the ring is idle (direct jobs), started by
 * accel_run_job and ended by the driver's bpfdrv_job_done(), each with a
 * fence that syncobjs carry to user space and to other devices.
 *
 * A driver with accel_dma_bits has a job's buffers mapped for its PCI
 * function's DMA while the job runs: each when the driver first asks for
 * its bus address, all unmapped when the job ends, before its fence is
 * signalled; the job-buffer kfuncs sync a mapped one for the CPU and back
 * around each access.
 *
 * The fence rules (Documentation/driver-api/dma-buf.rst): from run_job to
 * a fence's signal nothing waits for memory or for a lock that a fence
 * waiter may hold. run_job, a direct job's start and the timeouts call
 * the driver through bpfdrv_call_fence() (call.h: no mutex, no sleep, a
 * budget), inside dma_fence_begin_signalling() for lockdep to check.
 *
 * Lifetimes: the DRM device's parent is the instance's device, which DRM
 * holds until its last user (a file, a mapping, an exported dma-buf) is
 * gone; after a detach the DRM device is unplugged and the driver is never
 * called again. Each job holds the DRM device (its buffers need it): jobs
 * killed with their file are freed by the scheduler's work items, later.
 * The accelerator itself (its schedulers) lives on while the DRM device
 * or a job's hardware fence does (fences live in sync files and
 * dma-bufs), and holds this module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/capability.h>
#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/dma-mapping.h>
#include <linux/iosys-map.h>
#include <linux/kref.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>
#include <drm/gpu_scheduler.h>
#include <trace/events/dma_fence.h>

#include "call.h"
#include "../include/bpfdrv_accel.h"
#include "accel.h"
#include "accel_vm.h"
#include "chrdev.h"

#define BPFDRV_ACCEL_NR_IOCTLS	(DRM_BPFDRV_DRIVER_BASE + BPFDRV_ACCEL_IOCTLS_MAX)

/* The APIs that changed since 6.12, as Kbuild found them in the headers */
#ifdef BPFDRV_GEM_VMAP_UNLOCKED
#define bpfdrv_gem_vmap		drm_gem_vmap_unlocked
#define bpfdrv_gem_vunmap	drm_gem_vunmap_unlocked
#else
#define bpfdrv_gem_vmap		drm_gem_vmap
#define bpfdrv_gem_vunmap	drm_gem_vunmap
#endif
#ifdef BPFDRV_SCHED_STAT_RESET
#define BPFDRV_SCHED_STAT_ENDED	DRM_GPU_SCHED_STAT_RESET
#else
#define BPFDRV_SCHED_STAT_ENDED	DRM_GPU_SCHED_STAT_NOMINAL
#endif
/* 7.3 warns about a workqueue that does not say whether it is per-CPU */
#ifndef BPFDRV_WQ_PERCPU
#define WQ_PERCPU	0
#endif
#ifdef BPFDRV_SCHED_START_ERRNO
#define bpfdrv_sched_start(s)	drm_sched_start(s, 0)
#else
#define bpfdrv_sched_start(s)	drm_sched_start(s)
#endif

/*
 * A job submitted to an idle ring starts from its submit call, in the
 * submitter's task, rather than from the scheduler's worker: a direct job
 * (bpfdrv_accel_submit_direct()). N: every job through the scheduler,
 * whose tracepoints then see each one.
 */
static bool direct_submit = true;
module_param(direct_submit, bool, 0644);
MODULE_PARM_DESC(direct_submit,
		 "start a job for an idle ring from its submit ioctl (default: Y)");

/* An ended direct job waits this long at most for its resources to go */
#define BPFDRV_ACCEL_REAP_DELAY		msecs_to_jiffies(10)

struct bpfdrv_accel;
struct bpfdrv_accel_job;

/*
 * A ring: up to max_jobs jobs on the device (the scheduler's credits), in
 * slots taken round the ring in the order they started, which is the
 * order their fences signal in. The scheduler's jobs and direct ones
 * share the slots; start_lock hands the driver one start, or a reset, at
 * a time.
 */
struct bpfdrv_accel_ring {
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];
	struct bpfdrv_accel *a;
	spinlock_t start_lock;		/* the driver's run_job and timeout */
	spinlock_t lock;		/* the window below */
	/* the scheduler's jobs not started yet: no direct job overtakes them */
	atomic_t queued;
	/* direct jobs' timeout, as the scheduler's is for its own */
	struct delayed_work watchdog;
	u64 timeout_ns;
	u32 max_jobs;			/* the driver's accel_ring_jobs */
	u32 head;			/* the slot of the oldest job */
	u32 count;			/* jobs started, fence not signalled */
	struct bpfdrv_accel_job *slots[BPFDRV_ACCEL_RING_JOBS_MAX];
	u64 fence_context;
	atomic64_t fence_seqno;		/* started jobs */
	atomic64_t submitted;		/* the jobs' seqno */
	char name[BPFDRV_NAME_MAX + 8];
};

struct bpfdrv_accel {
	struct drm_device *drm;
	struct bpfdrv_device *bdev;	/* the parent: DRM holds it */
	/* the DRM device's (which each job holds) and each started fence's */
	struct kref ref;
	struct work_struct free_work;
	u32 nr_rings;			/* schedulers set up */
	bool dead;			/* del: no job reaches the driver */
	umode_t mode;			/* the node's, as the driver declared */
	struct bpfdrv_accel_ring rings[BPFDRV_ACCEL_RINGS_MAX];
	struct drm_driver driver;	/* its name and ioctls, per instance */
	struct drm_ioctl_desc ioctls[BPFDRV_ACCEL_NR_IOCTLS];
	/* the driver's ioctls: no update changes them (update.c) */
	struct bpfdrv_accel_ioctl decl[BPFDRV_ACCEL_IOCTLS_MAX];
	char name[BPFDRV_NAME_MAX];
	atomic64_t bo_bytes;		/* of the buffers it created, live */
	/* ended direct jobs, freed by the next submit or by reap_work */
	struct llist_head reaped;
	struct delayed_work reap_work;
	/* job buffers' DMA: the PCI function (held), or why not */
	struct device *dma_dev;
	int dma_err;
	u32 dma_bits;			/* dma_dev's: GET_PARAM */
	u32 timeout_ms;			/* a job's limit: GET_PARAM */
	struct bpfdrv_accel_vms vms;	/* its files' address spaces */
};

/* The scheduler's priority of each of the UAPI's */
#define BPFDRV_ACCEL_PRIOS	3
static const enum drm_sched_priority bpfdrv_accel_prio[BPFDRV_ACCEL_PRIOS] = {
	[BPFDRV_ACCEL_PRIORITY_NORMAL] = DRM_SCHED_PRIORITY_NORMAL,
	[BPFDRV_ACCEL_PRIORITY_LOW] = DRM_SCHED_PRIORITY_LOW,
	[BPFDRV_ACCEL_PRIORITY_HIGH] = DRM_SCHED_PRIORITY_HIGH,
};

/* A file: the instance's, and its queue on each ring at each priority. */
struct bpfdrv_accel_file {
	struct bpfdrv_file_kern *f;
	struct kref ref;		/* the file's, and each job's */
	atomic_t jobs;			/* submitted, not freed */
	struct mutex submit_lock;	/* arm and push in order */
	/* ring r's at UAPI priority p: ent[r * BPFDRV_ACCEL_PRIOS + p] */
	struct drm_sched_entity ent[BPFDRV_ACCEL_RINGS_MAX * BPFDRV_ACCEL_PRIOS];
	u32 nr_ent;
	/* its jobs' time on each ring's device, start to end: fdinfo; r->lock */
	atomic64_t busy_ns[BPFDRV_ACCEL_RINGS_MAX];
};

/* A job's hardware fence: its own lock, and its accelerator held. */
struct bpfdrv_accel_fence {
	struct dma_fence base;
	spinlock_t lock;		/* base's */
	struct bpfdrv_accel *a;		/* from dma_fence_init() on */
};

/*
 * A job, from submit to the scheduler's free_job. Its buffers stay mapped
 * for the kfuncs while it may run; its hardware fence, allocated at
 * submit (run_job must not allocate), is set up when it starts.
 */
struct bpfdrv_accel_job {
	struct drm_sched_job base;
	struct bpfdrv_accel *a;		/* its DRM device held */
	struct bpfdrv_accel_file *af;	/* held */
	u32 ring;
	u64 seqno;
	struct bpfdrv_accel_fence *hw;
	bool hw_started;
	bool direct;			/* started by its submit: no scheduler */
	bool queued;			/* counted in its ring's queued */
	struct llist_node reap_node;
	/* on the device: its slot and since when; ended by the driver */
	u32 slot;
	u64 started_ns;
	bool ended;
	int end_err;
	struct dma_fence *in_fence;	/* its in-syncobj's, or NULL */
	struct bpfdrv_accel_vm *vm;	/* the VM it runs in (held), or NULL */
	struct bpfdrv_accel_vm_dma vm_dma;	/* its mappings the device reached */
	u32 nr_bos;
	struct drm_gem_object *bos[BPFDRV_ACCEL_JOB_BOS_MAX];
	struct iosys_map maps[BPFDRV_ACCEL_JOB_BOS_MAX];
	/*
	 * For dma_dev: built at submit; each mapped when the driver first
	 * asks where the device reaches it (bit i of dma_mapped), unmapped
	 * when the job ends.
	 */
	struct sg_table *sgts[BPFDRV_ACCEL_JOB_BOS_MAX];
	u8 dma_mapped;
	u32 arg_len;
	u8 arg[BPFDRV_ACCEL_JOB_ARG_MAX];
};

/* A buffer object: shmem, charged to its device's total while it lives. */
struct bpfdrv_accel_bo {
	struct drm_gem_shmem_object shmem;
	u64 charged;			/* 0: imported */
};

static inline struct bpfdrv_accel *to_accel(struct drm_device *drm)
{
	return drm->dev_private;
}

/* The last holder went: bpfdrv_accel_free() in process context, ours. */
static struct workqueue_struct *bpfdrv_accel_wq;
/*
 * The rings' run_job and free_job work: per-CPU and high priority, so
 * that a job submitted to an idle ring starts on the submitter's CPU
 * while the submitter waits, rather than by waking another (an ordered
 * queue, the scheduler's default, is unbound); for reclaim, as the
 * scheduler's own.
 */
static struct workqueue_struct *bpfdrv_accel_sched_wq;

static void bpfdrv_accel_last_put(struct kref *ref)
{
	struct bpfdrv_accel *a = container_of(ref, struct bpfdrv_accel, ref);

	queue_work(bpfdrv_accel_wq, &a->free_work);
}

/* Any context: a fence goes in its last holder's. */
static void bpfdrv_accel_put(struct bpfdrv_accel *a)
{
	kref_put(&a->ref, bpfdrv_accel_last_put);
}

static void bpfdrv_accel_bo_free(struct drm_gem_object *obj)
{
	struct bpfdrv_accel_bo *bo =
		container_of(obj, struct bpfdrv_accel_bo, shmem.base);

	atomic64_sub(bo->charged, &to_accel(obj->dev)->bo_bytes);
	drm_gem_shmem_object_free(obj);
}

static const struct drm_gem_object_funcs bpfdrv_accel_bo_funcs = {
	.free = bpfdrv_accel_bo_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/* Charged to the caller's memory cgroup, as its pages are. */
static struct drm_gem_object *bpfdrv_accel_bo_alloc(struct drm_device *drm,
						    size_t size)
{
	struct bpfdrv_accel_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);

	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->shmem.base.funcs = &bpfdrv_accel_bo_funcs;
	return &bo->shmem.base;
}

static int bpfdrv_accel_bo_create(struct drm_device *drm, void *data,
				  struct drm_file *file)
{
	struct drm_bpfdrv_bo_create *args = data;
	struct bpfdrv_accel *a = to_accel(drm);
	struct drm_gem_shmem_object *shmem;
	u64 size;
	int ret;

	if (args->flags || !args->size || args->size > BPFDRV_ACCEL_BO_MAX)
		return -EINVAL;
	size = PAGE_ALIGN(args->size);
	if (atomic64_add_return(size, &a->bo_bytes) > BPFDRV_ACCEL_BO_TOTAL) {
		atomic64_sub(size, &a->bo_bytes);
		return -ENOSPC;
	}
	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem)) {
		atomic64_sub(size, &a->bo_bytes);
		return PTR_ERR(shmem);
	}
	container_of(shmem, struct bpfdrv_accel_bo, shmem)->charged = size;
	ret = drm_gem_handle_create(file, &shmem->base, &args->handle);
	drm_gem_object_put(&shmem->base);	/* the handle holds it */
	args->size = size;
	return ret;
}

static int bpfdrv_accel_bo_info(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct drm_bpfdrv_bo_info *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	ret = drm_gem_create_mmap_offset(obj);
	if (!ret) {
		args->size = obj->size;
		args->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	}
	drm_gem_object_put(obj);
	return ret;
}

/* --- jobs --- */

static const char *bpfdrv_accel_fence_driver(struct dma_fence *fence)
{
	return "bpfdrv_accel";
}

static const char *bpfdrv_accel_fence_timeline(struct dma_fence *fence)
{
	return "ring";
}

/* Its last reference: in any context, after the signal. */
static void bpfdrv_accel_fence_release(struct dma_fence *fence)
{
	struct bpfdrv_accel_fence *f =
		container_of(fence, struct bpfdrv_accel_fence, base);
	struct bpfdrv_accel *a = f->a;

	dma_fence_free(fence);		/* after RCU: base is f's start */
	bpfdrv_accel_put(a);
}

static const struct dma_fence_ops bpfdrv_accel_fence_ops = {
	.get_driver_name = bpfdrv_accel_fence_driver,
	.get_timeline_name = bpfdrv_accel_fence_timeline,
	.release = bpfdrv_accel_fence_release,
};

static inline struct bpfdrv_accel_job *to_job(struct drm_sched_job *sj)
{
	return container_of(sj, struct bpfdrv_accel_job, base);
}

/*
 * The device reaches buffer @bo of @job from here (bus addresses)... Any
 * context: the DMA API maps without sleeping.
 */
static int bpfdrv_accel_job_map(struct bpfdrv_accel_job *job, u32 bo)
{
	int ret;

	if (job->dma_mapped & BIT(bo))
		return 0;
	ret = dma_map_sgtable(job->a->dma_dev, job->sgts[bo],
			      DMA_BIDIRECTIONAL, 0);
	if (!ret)
		job->dma_mapped |= BIT(bo);
	return ret;
}

/* ... to here: the IOMMU refuses it from now on. Any context. */
static void bpfdrv_accel_job_unmap(struct bpfdrv_accel_job *job)
{
	u32 i;

	for (i = 0; i < job->nr_bos; i++)
		if (job->dma_mapped & BIT(i))
			dma_unmap_sgtable(job->a->dma_dev, job->sgts[i],
					  DMA_BIDIRECTIONAL, 0);
	job->dma_mapped = 0;
}

/* Signal a job's hardware fence, with @err if non-zero, and let it go. */
static void bpfdrv_accel_fence_end(struct bpfdrv_accel_fence *hw, int err)
{
	bool cookie = dma_fence_begin_signalling();

	if (err)
		dma_fence_set_error(&hw->base, err);
	dma_fence_signal(&hw->base);
	dma_fence_end_signalling(cookie);
	dma_fence_put(&hw->base);	/* the ring's */
}

/* Under r->lock: the job in @slot, or the oldest not ended (-1), or NULL. */
static struct bpfdrv_accel_job *bpfdrv_accel_ring_job(struct bpfdrv_accel_ring *r,
						      int slot)
{
	struct bpfdrv_accel_job *job;
	u32 i;

	if (slot >= 0) {
		if (slot >= r->max_jobs ||
		    (slot + r->max_jobs - r->head) % r->max_jobs >= r->count)
			return NULL;
		job = r->slots[slot];
		return job->ended ? NULL : job;
	}
	for (i = 0; i < r->count; i++) {
		job = r->slots[(r->head + i) % r->max_jobs];
		if (!job->ended)
			return job;
	}
	return NULL;
}

/* Under r->lock: the job numbered @seqno on the device, not ended. */
static struct bpfdrv_accel_job *bpfdrv_accel_ring_find(struct bpfdrv_accel_ring *r,
						       u64 seqno)
{
	struct bpfdrv_accel_job *job;
	u32 i;

	for (i = 0; i < r->count; i++) {
		job = r->slots[(r->head + i) % r->max_jobs];
		if (job->seqno == seqno && !job->ended)
			return job;
	}
	return NULL;
}

/*
 * A direct job whose fence signalled: freed in process context, by the
 * next submit (which then finds its buffers still mapped for the kernel)
 * or, if none comes, by reap_work. Any context; the caller holds @a.
 */
static void bpfdrv_accel_job_retire(struct bpfdrv_accel *a,
				    struct bpfdrv_accel_job *job)
{
	if (llist_add(&job->reap_node, &a->reaped))
		queue_delayed_work(bpfdrv_accel_wq, &a->reap_work,
				   BPFDRV_ACCEL_REAP_DELAY);
}

/*
 * Under r->lock: @job ends with @err: the device is done with its buffers.
 * Then the ended jobs at the window's head leave it, oldest first, their
 * fences signalled in the order they started (a fence context's rule).
 * A signalled job may be freed at once: only its fence is the ring's.
 */
static void bpfdrv_accel_ring_end_job(struct bpfdrv_accel_ring *r,
				      struct bpfdrv_accel_job *job, int err)
{
	bool direct;

	atomic64_add(ktime_get_ns() - job->started_ns, &job->af->busy_ns[job->ring]);
	job->ended = true;
	job->end_err = err;
	bpfdrv_accel_job_unmap(job);
	if (job->vm)
		bpfdrv_accel_vm_dma_end(job->vm, &job->vm_dma);
	while (r->count && r->slots[r->head]->ended) {
		job = r->slots[r->head];
		r->slots[r->head] = NULL;
		r->head = (r->head + 1) % r->max_jobs;
		r->count--;
		/* the scheduler may free its own jobs once this signals */
		direct = job->direct;
		bpfdrv_accel_fence_end(job->hw, job->end_err);
		if (direct)
			bpfdrv_accel_job_retire(r->a, job);
	}
}

/* End the job numbered @seqno on @r with @err. Any context. */
static int bpfdrv_accel_ring_end(struct bpfdrv_accel_ring *r, u64 seqno,
				 int err)
{
	struct bpfdrv_accel_job *job;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&r->lock, flags);
	job = bpfdrv_accel_ring_find(r, seqno);
	if (job) {
		bpfdrv_accel_ring_end_job(r, job, err);
		ret = 0;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}

/*
 * End every job on @r's device: the one numbered @seqno with @err, the
 * others with @err_rest (a timeout's reset, or the device gone).
 */
static void bpfdrv_accel_ring_end_all(struct bpfdrv_accel_ring *r, u64 seqno,
				      int err, int err_rest)
{
	struct bpfdrv_accel_job *job;
	unsigned long flags;

	spin_lock_irqsave(&r->lock, flags);
	while ((job = bpfdrv_accel_ring_job(r, -1)))
		bpfdrv_accel_ring_end_job(r, job,
					  job->seqno == seqno ? err : err_rest);
	spin_unlock_irqrestore(&r->lock, flags);
}

static int bpfdrv_accel_job_done(void *accel, u32 ring, u64 seqno, int err)
{
	struct bpfdrv_accel *a = accel;

	if (ring >= a->nr_rings)
		return -ENOENT;
	return bpfdrv_accel_ring_end(&a->rings[ring], seqno, err);
}

static int bpfdrv_accel_job_slot(void *accel, u32 ring, u64 seqno)
{
	struct bpfdrv_accel *a = accel;
	struct bpfdrv_accel_ring *r;
	struct bpfdrv_accel_job *job;
	unsigned long flags;
	int ret;

	if (ring >= a->nr_rings)
		return -ENOENT;
	r = &a->rings[ring];
	spin_lock_irqsave(&r->lock, flags);
	job = bpfdrv_accel_ring_find(r, seqno);
	ret = job ? job->slot : -ENOENT;
	spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}

/*
 * The CPU's copy from or into buffer @bo of a running @job. Mapped for the
 * device, the buffer is the device's: synced for the CPU, then back, so
 * that a bounce buffer (swiotlb, confidential VMs) neither hides what the
 * device wrote nor, at the unmap, overwrites what the CPU did.
 */
static void bpfdrv_accel_job_bo_access(struct bpfdrv_accel_job *job, u32 bo,
				       u32 off, void *buf, u32 len, bool store)
{
	struct sg_table *sgt = job->dma_mapped & BIT(bo) ? job->sgts[bo] : NULL;

	if (sgt)
		dma_sync_sgtable_for_cpu(job->a->dma_dev, sgt, DMA_BIDIRECTIONAL);
	if (store)
		memcpy(job->maps[bo].vaddr + off, buf, len);
	else
		memcpy(buf, job->maps[bo].vaddr + off, len);
	if (sgt)
		dma_sync_sgtable_for_device(job->a->dma_dev, sgt,
					    DMA_BIDIRECTIONAL);
}

static int bpfdrv_accel_job_bo_copy(void *accel, u32 ring, int slot, u32 bo,
				    u32 off, void *buf, u32 len, bool store)
{
	struct bpfdrv_accel *a = accel;
	struct bpfdrv_accel_ring *r;
	struct bpfdrv_accel_job *job;
	unsigned long flags;
	int ret = 0;

	if (ring >= a->nr_rings)
		return -ENOENT;
	/* the copy runs under the ring's lock, interrupts off */
	if (len > BPFDRV_JOB_BO_COPY_MAX)
		return -E2BIG;
	r = &a->rings[ring];
	spin_lock_irqsave(&r->lock, flags);
	job = bpfdrv_accel_ring_job(r, slot);
	if (!job || bo >= job->nr_bos)
		ret = -ENOENT;
	else if (!bpfdrv_range_ok(off, len, job->bos[bo]->size))
		ret = -ERANGE;
	else
		bpfdrv_accel_job_bo_access(job, bo, off, buf, len, store);
	spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}

/* A copy through the VM of a running job: under its ring's lock. */
static int bpfdrv_accel_job_vm_copy(void *accel, u32 ring, int slot, u64 addr,
				    void *buf, u32 len, bool store)
{
	struct bpfdrv_accel *a = accel;
	struct bpfdrv_accel_ring *r;
	struct bpfdrv_accel_job *job;
	unsigned long flags;
	int ret;

	if (ring >= a->nr_rings)
		return -ENOENT;
	if (len > BPFDRV_JOB_BO_COPY_MAX)
		return -E2BIG;
	r = &a->rings[ring];
	spin_lock_irqsave(&r->lock, flags);
	job = bpfdrv_accel_ring_job(r, slot);
	if (!job || !job->vm)
		ret = -ENOENT;
	else
		ret = bpfdrv_accel_vm_copy(job->vm, addr, buf, len, store);
	spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}

/* Where the device reaches an address of a running job's VM. */
static s64 bpfdrv_accel_job_vm_dma(void *accel, u32 ring, int slot, u64 addr,
				   u32 len)
{
	struct bpfdrv_accel *a = accel;
	struct bpfdrv_accel_ring *r;
	struct bpfdrv_accel_job *job;
	unsigned long flags;
	s64 ret;

	if (ring >= a->nr_rings)
		return -ENOENT;
	r = &a->rings[ring];
	spin_lock_irqsave(&r->lock, flags);
	job = bpfdrv_accel_ring_job(r, slot);
	if (!job || !job->vm)
		ret = -ENOENT;
	else
		ret = bpfdrv_accel_vm_dma(job->vm, &job->vm_dma, addr, len);
	spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}

static s64 bpfdrv_accel_job_bo_dma(void *accel, u32 ring, int slot, u32 bo,
				   u32 off, u32 len)
{
	struct bpfdrv_accel *a = accel;
	struct bpfdrv_accel_ring *r;
	struct bpfdrv_accel_job *job;
	struct scatterlist *sg;
	unsigned long flags;
	u64 start = 0;
	s64 ret;
	u32 i;

	if (!a->dma_dev)
		return a->dma_err;
	if (ring >= a->nr_rings)
		return -ENOENT;
	r = &a->rings[ring];
	spin_lock_irqsave(&r->lock, flags);
	job = bpfdrv_accel_ring_job(r, slot);
	if (!job || bo >= job->nr_bos) {
		ret = -ENOENT;
	} else if (!len || !bpfdrv_range_ok(off, len, job->bos[bo]->size)) {
		ret = -ERANGE;
	} else if (!job->sgts[bo]) {
		ret = -EOPNOTSUPP;
	} else if (bpfdrv_accel_job_map(job, bo)) {
		ret = -ENOMEM;
	} else {
		/* the DMA segment that holds [off, off + len), if one does */
		ret = -E2BIG;
		for_each_sgtable_dma_sg(job->sgts[bo], sg, i) {
			if (off < start + sg_dma_len(sg)) {
				if (off + len <= start + sg_dma_len(sg))
					ret = sg_dma_address(sg) + (off - start);
				break;
			}
			start += sg_dma_len(sg);
		}
	}
	spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}

/* Under r->lock: @job takes @r's next slot, or -EBUSY: more than credits. */
static int bpfdrv_accel_ring_add_locked(struct bpfdrv_accel_ring *r,
					struct bpfdrv_accel_job *job)
{
	if (WARN_ON_ONCE(r->count >= r->max_jobs))
		return -EBUSY;
	job->slot = (r->head + r->count++) % r->max_jobs;
	r->slots[job->slot] = job;
	job->started_ns = ktime_get_ns();
	dma_fence_get(&job->hw->base);	/* the ring's */
	return 0;
}

/*
 * @job, in its slot, handed to the driver on the fence path; under
 * start_lock (one slot per ring and callback) and RCU: del waits for it
 * (the instance lives), and a job started after del fails at once.
 */
static void bpfdrv_accel_job_call(struct bpfdrv_accel *a,
				  struct bpfdrv_accel_ring *r,
				  struct bpfdrv_accel_job *job)
{
	struct bpfdrv_io_kern io = {
		.pub.len = job->arg_len,
		.data = job->arg,
		.size = job->arg_len,
	};
	u64 seqno = job->seqno;
	int ret = -ENODEV;

	trace_dma_fence_emit(&job->hw->base);
	if (!READ_ONCE(a->dead))
		ret = bpfdrv_call_fence(a->bdev, 2 * job->ring,
					BPFDRV_CB_ACCEL_RUN_JOB, accel_run_job,
					0, -ENODEV, job->ring, seqno, &io.pub);
	if (ret)
		bpfdrv_accel_ring_end(r, seqno, ret);
}

/* Its fence, allocated at submit, set up as it starts: it holds @a. */
static void bpfdrv_accel_job_hw_init(struct bpfdrv_accel *a,
				     struct bpfdrv_accel_ring *r,
				     struct bpfdrv_accel_job *job)
{
	struct bpfdrv_accel_fence *hw = job->hw;

	kref_get(&a->ref);
	hw->a = a;
	spin_lock_init(&hw->lock);
	dma_fence_init(&hw->base, &bpfdrv_accel_fence_ops, &hw->lock,
		       r->fence_context, atomic64_inc_return(&r->fence_seqno));
	job->hw_started = true;
}

/* @job, started or freed, no longer holds direct jobs back. */
static void bpfdrv_accel_ring_unqueue(struct bpfdrv_accel_ring *r,
				      struct bpfdrv_accel_job *job)
{
	if (job->queued) {
		job->queued = false;
		atomic_dec(&r->queued);
	}
}

/* The scheduler's pick: start it on the device, through the driver. */
static struct dma_fence *bpfdrv_accel_run_job(struct drm_sched_job *sj)
{
	struct bpfdrv_accel_job *job = to_job(sj);
	struct bpfdrv_accel *a = job->a;
	struct bpfdrv_accel_ring *r = &a->rings[job->ring];
	int err = sj->s_fence->finished.error;
	bool cookie;

	/*
	 * Its file went, or its in-fence failed (not every kernel's scheduler
	 * passes that on): it does not run, and its fence says why.
	 */
	if (!err && job->in_fence)
		err = job->in_fence->error;
	if (err) {
		bpfdrv_accel_ring_unqueue(r, job);
		return ERR_PTR(err);
	}

	cookie = dma_fence_begin_signalling();
	spin_lock(&r->start_lock);
	/* numbered in the order jobs start, direct or not */
	bpfdrv_accel_job_hw_init(a, r, job);
	dma_fence_get(&job->hw->base);		/* the scheduler's */
	bpfdrv_accel_ring_unqueue(r, job);
	/* prepare_job saw its slot free, and no direct job took it since */
	spin_lock_irq(&r->lock);
	err = bpfdrv_accel_ring_add_locked(r, job);
	spin_unlock_irq(&r->lock);
	if (!err) {
		rcu_read_lock();
		bpfdrv_accel_job_call(a, r, job);
		rcu_read_unlock();
	} else {
		dma_fence_get(&job->hw->base);	/* as the ring's */
		bpfdrv_accel_fence_end(job->hw, err);
	}
	spin_unlock(&r->start_lock);
	dma_fence_end_signalling(cookie);
	return &job->hw->base;
}

/*
 * Before the scheduler picks a job: a slot free on the device. Direct
 * jobs take slots its credits do not count; none starts while one of its
 * own waits (queued: counted before it is pushed, and a direct job checks
 * and takes its slot in one section of r->lock), so a slot free here
 * stays free for run_job.
 */
static struct dma_fence *bpfdrv_accel_prepare_job(struct drm_sched_job *sj,
						  struct drm_sched_entity *e)
{
	struct bpfdrv_accel_job *job = to_job(sj);
	struct bpfdrv_accel_ring *r = &job->a->rings[job->ring];
	struct dma_fence *oldest = NULL;

	spin_lock_irq(&r->lock);
	if (r->count >= r->max_jobs)
		oldest = dma_fence_get(&r->slots[r->head]->hw->base);
	spin_unlock_irq(&r->lock);
	return oldest;
}

/*
 * Job @seqno overran: the driver resets @r's device, with no job started
 * beside it. The job ends with ETIMEDOUT, the others on the device with
 * ECANCELED (their slots empty as the driver's queue did). Nothing if it
 * ended meanwhile.
 */
static void bpfdrv_accel_ring_reset(struct bpfdrv_accel *a,
				    struct bpfdrv_accel_ring *r, u32 ring,
				    u64 seqno)
{
	bool on, cookie = dma_fence_begin_signalling();

	spin_lock(&r->start_lock);
	spin_lock_irq(&r->lock);
	on = bpfdrv_accel_ring_find(r, seqno);
	spin_unlock_irq(&r->lock);
	if (on) {
		rcu_read_lock();
		if (!READ_ONCE(a->dead))
			bpfdrv_call_fence_void(a->bdev, 2 * ring + 1,
					       BPFDRV_CB_ACCEL_TIMEOUT,
					       accel_timeout, ring, seqno);
		rcu_read_unlock();
		bpfdrv_accel_ring_end_all(r, seqno, -ETIMEDOUT, -ECANCELED);
	}
	spin_unlock(&r->start_lock);
	dma_fence_end_signalling(cookie);
}

/*
 * A scheduler's job overran. Its stop hands the job (taken off its list
 * to call this) back and, the job having ended, has it freed
 * (free_guilty); its start resumes the ring.
 */
static enum drm_gpu_sched_stat bpfdrv_accel_timedout_job(struct drm_sched_job *sj)
{
	struct bpfdrv_accel_job *job = to_job(sj);
	struct bpfdrv_accel_ring *r = &job->a->rings[job->ring];

	drm_sched_wqueue_stop(&r->sched);
	bpfdrv_accel_ring_reset(job->a, r, job->ring, job->seqno);
	drm_sched_stop(&r->sched, sj);
	bpfdrv_sched_start(&r->sched);
	return BPFDRV_SCHED_STAT_ENDED;
}

/*
 * The scheduler's timeout for direct jobs: the oldest on the device that
 * has not ended, reset once it is timeout_ns old. Armed as one starts.
 */
static void bpfdrv_accel_ring_watchdog(struct work_struct *work)
{
	struct bpfdrv_accel_ring *r = container_of(to_delayed_work(work),
						   struct bpfdrv_accel_ring,
						   watchdog);
	struct bpfdrv_accel_job *job;
	u64 seqno = 0, age = 0;
	u32 i, ring = 0;

	spin_lock_irq(&r->lock);
	for (i = 0; i < r->count; i++) {
		job = r->slots[(r->head + i) % r->max_jobs];
		if (job->direct && !job->ended) {
			seqno = job->seqno;
			ring = job->ring;
			age = ktime_get_ns() - job->started_ns;
			break;
		}
	}
	spin_unlock_irq(&r->lock);
	if (!seqno)
		return;
	if (age < r->timeout_ns)
		queue_delayed_work(bpfdrv_accel_sched_wq, &r->watchdog,
				   nsecs_to_jiffies(r->timeout_ns - age) + 1);
	else
		bpfdrv_accel_ring_reset(r->a, r, ring, seqno);
}

/* A file's last job or the file itself went. */
static void bpfdrv_accel_file_last_put(struct kref *ref)
{
	kfree(container_of(ref, struct bpfdrv_accel_file, ref));
}

static void bpfdrv_accel_job_free(struct bpfdrv_accel_job *job)
{
	u32 i;

	/* killed in its queue, or not submitted */
	bpfdrv_accel_ring_unqueue(&job->a->rings[job->ring], job);
	bpfdrv_accel_job_unmap(job);	/* ended without running */
	for (i = 0; i < job->nr_bos; i++) {
		if (job->sgts[i]) {
			sg_free_table(job->sgts[i]);
			kfree(job->sgts[i]);
		}
		bpfdrv_gem_vunmap(job->bos[i], &job->maps[i]);
		drm_gem_object_put(job->bos[i]);
	}
	if (job->hw_started)
		dma_fence_put(&job->hw->base);
	else
		kfree(job->hw);
	dma_fence_put(job->in_fence);
	bpfdrv_accel_vm_dma_put(&job->vm_dma);
	bpfdrv_accel_vm_put(job->vm);
	if (job->af) {
		atomic_dec(&job->af->jobs);
		kref_put(&job->af->ref, bpfdrv_accel_file_last_put);
	}
	/* its buffers went first: the DRM device may go now, @a after it */
	drm_dev_put(job->a->drm);
	kfree(job);
}

static void bpfdrv_accel_free_job(struct drm_sched_job *sj)
{
	drm_sched_job_cleanup(sj);
	bpfdrv_accel_job_free(to_job(sj));
}

#ifdef BPFDRV_SCHED_CANCEL_JOB
/* drm_sched_fini() on a job still pending: its fence is signalled */
static void bpfdrv_accel_cancel_job(struct drm_sched_job *sj)
{
	struct bpfdrv_accel_job *job = to_job(sj);

	bpfdrv_accel_ring_end(&job->a->rings[job->ring], job->seqno,
			      -ECANCELED);
}
#endif

static const struct drm_sched_backend_ops bpfdrv_accel_sched_ops = {
	.prepare_job = bpfdrv_accel_prepare_job,
	.run_job = bpfdrv_accel_run_job,
	.timedout_job = bpfdrv_accel_timedout_job,
	.free_job = bpfdrv_accel_free_job,
#ifdef BPFDRV_SCHED_CANCEL_JOB
	.cancel_job = bpfdrv_accel_cancel_job,
#endif
};

/* A list of @obj's pages, pinned by its vmap, for the device's DMA. */
static int bpfdrv_accel_job_sgt(struct bpfdrv_accel_job *job, u32 i)
{
	struct drm_gem_object *obj = job->bos[i];
	struct sg_table *sgt;

	if (!job->a->dma_dev || obj->import_attach)
		return 0;	/* the exporter's device's to map */
	sgt = drm_gem_shmem_get_sg_table(to_drm_gem_shmem_obj(obj));
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);
	job->sgts[i] = sgt;
	return 0;
}

/* The job's buffers, looked up and mapped for the kfuncs. */
static int bpfdrv_accel_job_bos(struct bpfdrv_accel_job *job,
				struct drm_file *file,
				const struct drm_bpfdrv_submit *args)
{
	struct drm_gem_object *obj;
	u32 i;
	int ret;

	for (i = 0; i < args->nr_bos; i++) {
		obj = drm_gem_object_lookup(file, args->bos[i]);
		if (!obj)
			return -ENOENT;
		ret = bpfdrv_gem_vmap(obj, &job->maps[i]);
		if (!ret && job->maps[i].is_iomem) {
			bpfdrv_gem_vunmap(obj, &job->maps[i]);
			ret = -EINVAL;	/* the kfuncs copy with memcpy() */
		}
		if (ret) {
			drm_gem_object_put(obj);
			return ret;
		}
		job->bos[job->nr_bos++] = obj;
		ret = bpfdrv_accel_job_sgt(job, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* The direct jobs that ended, freed: their buffers' vmaps, references. */
static void bpfdrv_accel_reap(struct bpfdrv_accel *a)
{
	struct bpfdrv_accel_job *job, *next;

	llist_for_each_entry_safe(job, next, llist_del_all(&a->reaped), reap_node)
		bpfdrv_accel_job_free(job);
}

static void bpfdrv_accel_reap_work(struct work_struct *work)
{
	bpfdrv_accel_reap(container_of(to_delayed_work(work),
				       struct bpfdrv_accel, reap_work));
}

/*
 * Start @job from its submit call if its ring has a slot free, none of
 * the scheduler's jobs waits to start (it would start first) and @job
 * waits for no fence: the scheduler's worker, its fences and its free
 * are a hop and a work item each that a job for an idle ring need not
 * pay. It runs on the fence path as run_job does, under start_lock; the
 * watchdog times it out. Else it is counted queued, so that no later
 * direct job overtakes it, and goes through the scheduler.
 *
 * Return: its fence (a reference; the job may be freed already) with its
 * number in @seqno, or NULL.
 */
static struct dma_fence *bpfdrv_accel_submit_direct(struct bpfdrv_accel *a,
						    struct bpfdrv_accel_ring *r,
						    struct bpfdrv_accel_job *job,
						    bool waits, u64 *seqno)
{
	struct dma_fence *fence = NULL;
	bool cookie;

	/* no lock for a job that waits: the check below is the one that holds */
	if (!READ_ONCE(direct_submit) || waits || atomic_read(&r->queued) ||
	    READ_ONCE(r->count) >= r->max_jobs ||
	    (job->in_fence && (!dma_fence_is_signaled(job->in_fence) ||
			       job->in_fence->error)))
		goto queue;

	cookie = dma_fence_begin_signalling();
	spin_lock(&r->start_lock);
	spin_lock_irq(&r->lock);
	if (!atomic_read(&r->queued) && r->count < r->max_jobs) {
		job->direct = true;
		job->seqno = atomic64_inc_return(&r->submitted);
		*seqno = job->seqno;
		bpfdrv_accel_job_hw_init(a, r, job);
		fence = dma_fence_get(&job->hw->base);
		bpfdrv_accel_ring_add_locked(r, job);
	}
	spin_unlock_irq(&r->lock);
	if (fence) {
		rcu_read_lock();
		bpfdrv_accel_job_call(a, r, job);
		rcu_read_unlock();
		queue_delayed_work(bpfdrv_accel_sched_wq, &r->watchdog,
				   nsecs_to_jiffies(r->timeout_ns) + 1);
	}
	spin_unlock(&r->start_lock);
	dma_fence_end_signalling(cookie);
	if (fence)
		return fence;
queue:
	job->queued = true;
	atomic_inc(&r->queued);
	return NULL;
}

/*
 * Implicit sync: a job's buffers, each once, their reservation objects
 * locked and a fence slot reserved in each from before the job's fence
 * exists until it is added.
 */
struct bpfdrv_accel_resv {
	struct drm_gem_object *objs[BPFDRV_ACCEL_JOB_BOS_MAX];
	u32 nr;
	struct ww_acquire_ctx ctx;
};

static int bpfdrv_accel_resv_lock(struct bpfdrv_accel_resv *rv,
				  const struct bpfdrv_accel_job *job)
{
	u32 i, k;
	int ret;

	rv->nr = 0;
	for (i = 0; i < job->nr_bos; i++) {
		for (k = 0; k < rv->nr && rv->objs[k] != job->bos[i]; k++)
			;
		if (k == rv->nr)
			rv->objs[rv->nr++] = job->bos[i];
	}
	if (!rv->nr)
		return 0;
	ret = drm_gem_lock_reservations(rv->objs, rv->nr, &rv->ctx);
	if (ret) {
		rv->nr = 0;
		return ret;
	}
	for (i = 0; i < rv->nr; i++) {
		ret = dma_resv_reserve_fences(rv->objs[i]->resv, 1);
		if (ret) {
			drm_gem_unlock_reservations(rv->objs, rv->nr, &rv->ctx);
			rv->nr = 0;
			return ret;
		}
	}
	return 0;
}

/* Each buffer gets @fence (NULL: the job failed) as a write, unlocked. */
static void bpfdrv_accel_resv_unlock(struct bpfdrv_accel_resv *rv,
				     struct dma_fence *fence)
{
	u32 i;

	if (!rv->nr)
		return;
	for (i = 0; fence && i < rv->nr; i++)
		dma_resv_add_fence(rv->objs[i]->resv, fence,
				   DMA_RESV_USAGE_WRITE);
	drm_gem_unlock_reservations(rv->objs, rv->nr, &rv->ctx);
}

/* A fence of @a's own jobs: ordered among them explicitly, not waited for */
static bool bpfdrv_accel_fence_ours(struct bpfdrv_accel *a, struct dma_fence *f)
{
	struct drm_sched_fence *sf;
	u32 i;

	if (f->ops == &bpfdrv_accel_fence_ops)
		return container_of(f, struct bpfdrv_accel_fence, base)->a == a;
	sf = to_drm_sched_fence(f);
	for (i = 0; sf && i < a->nr_rings; i++)
		if (sf->sched == &a->rings[i].sched)
			return true;
	return false;
}

/*
 * The fences other devices put on the job's buffers (reads and writes: a
 * job may write), not yet signalled: with @sj NULL, whether there is one;
 * else each becomes one of @sj's dependencies.
 */
static int bpfdrv_accel_implicit(struct bpfdrv_accel *a,
				 const struct bpfdrv_accel_resv *rv,
				 struct drm_sched_job *sj)
{
	struct dma_resv_iter cursor;
	struct dma_fence *f;
	int ret;
	u32 i;

	for (i = 0; i < rv->nr; i++) {
		dma_resv_for_each_fence(&cursor, rv->objs[i]->resv,
					DMA_RESV_USAGE_READ, f) {
			if (bpfdrv_accel_fence_ours(a, f) ||
			    dma_fence_is_signaled(f))
				continue;
			if (!sj)
				return 1;
			ret = drm_sched_job_add_dependency(sj, dma_fence_get(f));
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int bpfdrv_accel_submit_valid(const struct bpfdrv_accel *a,
				     const struct drm_bpfdrv_submit *args)
{
	if (args->ring >= a->nr_rings || args->nr_bos > BPFDRV_ACCEL_JOB_BOS_MAX ||
	    args->arg_len > BPFDRV_ACCEL_JOB_ARG_MAX ||
	    args->flags & ~BPFDRV_SUBMIT_NO_IMPLICIT ||
	    args->priority >= BPFDRV_ACCEL_PRIOS ||
	    (args->in_point && !args->in_syncobj) ||
	    (args->out_point && !args->out_syncobj))
		return -EINVAL;
	/* as the DRM drivers do: a high priority is the admin's to give */
	if (args->priority == BPFDRV_ACCEL_PRIORITY_HIGH &&
	    !capable(CAP_SYS_NICE))
		return -EACCES;
	return 0;
}

/* @fence in the out-syncobj: replaced, or as the timeline's point */
static void bpfdrv_accel_out_fence(struct drm_syncobj *out,
				   struct dma_fence_chain *chain,
				   struct dma_fence *fence, u64 point)
{
	if (chain)
		drm_syncobj_add_point(out, chain, fence, point);
	else
		drm_syncobj_replace_fence(out, fence);
}

static int bpfdrv_accel_submit(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct drm_bpfdrv_submit *args = data;
	struct bpfdrv_accel *a = to_accel(drm);
	struct bpfdrv_accel_file *af = file->driver_priv;
	struct dma_fence_chain *chain = NULL;
	struct drm_syncobj *out = NULL;
	struct bpfdrv_accel_resv rv;
	struct bpfdrv_accel_job *job;
	struct drm_sched_entity *ent;
	struct dma_fence *fence, *in;
	int ret, waits = 0;

	ret = bpfdrv_accel_submit_valid(a, args);
	if (ret)
		return ret;
	/* each queued job pins its buffers: a file has so many at most */
	if (atomic_inc_return(&af->jobs) > BPFDRV_ACCEL_FILE_JOBS_MAX) {
		atomic_dec(&af->jobs);
		return -EBUSY;
	}
	/* charged to the caller; run_job must not allocate its fence */
	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (job)
		job->hw = kzalloc(sizeof(*job->hw), GFP_KERNEL_ACCOUNT);
	if (!job || !job->hw) {
		kfree(job);
		atomic_dec(&af->jobs);
		return -ENOMEM;
	}
	drm_dev_get(drm);
	job->a = a;
	kref_get(&af->ref);
	job->af = af;
	job->ring = args->ring;
	job->arg_len = args->arg_len;
	memcpy(job->arg, args->arg, args->arg_len);
	ret = bpfdrv_accel_job_bos(job, file, args);
	if (ret)
		goto err_free;
	if (args->vm_id) {
		job->vm = bpfdrv_accel_vm_get(&a->vms, file, args->vm_id);
		if (!job->vm) {
			ret = -ENOENT;
			goto err_free;
		}
	}
	if (args->out_syncobj) {
		out = drm_syncobj_find(file, args->out_syncobj);
		if (!out) {
			ret = -ENOENT;
			goto err_free;
		}
		chain = args->out_point ? dma_fence_chain_alloc() : NULL;
		if (args->out_point && !chain) {
			ret = -ENOMEM;
			goto err_free;
		}
	}
	if (args->in_syncobj) {
		/* on an error it leaves a fence it put: not the job's */
		ret = drm_syncobj_find_fence(file, args->in_syncobj,
					     args->in_point, 0, &in);
		if (ret)
			goto err_free;
		job->in_fence = in;
	}
	ret = bpfdrv_accel_resv_lock(&rv, job);
	if (ret)
		goto err_free;
	if (!(args->flags & BPFDRV_SUBMIT_NO_IMPLICIT))
		waits = bpfdrv_accel_implicit(a, &rv, NULL);
	fence = bpfdrv_accel_submit_direct(a, &a->rings[job->ring], job,
					   waits, &args->seqno);
	if (fence)
		goto out;

	ent = &af->ent[args->ring * BPFDRV_ACCEL_PRIOS + args->priority];
	ret = drm_sched_job_init(&job->base, ent, 1, af, file->client_id);
	if (ret)
		goto err_unlock;
	if (job->in_fence) {
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(job->in_fence));
		if (ret)
			goto err_cleanup;
	}
	if (waits) {
		ret = bpfdrv_accel_implicit(a, &rv, &job->base);
		if (ret)
			goto err_cleanup;
	}

	mutex_lock(&af->submit_lock);
	job->seqno = atomic64_inc_return(&a->rings[job->ring].submitted);
	args->seqno = job->seqno;
	drm_sched_job_arm(&job->base);
	fence = dma_fence_get(&job->base.s_fence->finished);
	drm_sched_entity_push_job(&job->base);	/* the scheduler owns it */
	mutex_unlock(&af->submit_lock);
out:
	bpfdrv_accel_resv_unlock(&rv, fence);
	if (out) {
		bpfdrv_accel_out_fence(out, chain, fence, args->out_point);
		drm_syncobj_put(out);
	}
	dma_fence_put(fence);
	/* the jobs that ended before, their buffers still mapped by this one */
	bpfdrv_accel_reap(a);
	return 0;

err_cleanup:
	drm_sched_job_cleanup(&job->base);
err_unlock:
	bpfdrv_accel_resv_unlock(&rv, NULL);
err_free:
	dma_fence_chain_free(chain);
	if (out)
		drm_syncobj_put(out);
	bpfdrv_accel_job_free(job);
	return ret;
}

static int bpfdrv_accel_rings_init(struct bpfdrv_accel *a,
				   const struct chr_ext_ops *ops)
{
	u32 timeout_ms = ops->accel_timeout_ms ?: BPFDRV_ACCEL_TIMEOUT_MS;
	struct drm_sched_init_args args = {
		.ops = &bpfdrv_accel_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		/* a job takes one */
		.credit_limit = ops->accel_ring_jobs ?: 1,
		.submit_wq = bpfdrv_accel_sched_wq,
		.timeout = msecs_to_jiffies(timeout_ms),
		.dev = a->drm->dev,
	};
	u32 nr = ops->accel_rings;
	struct bpfdrv_accel_ring *r;
	u64 context;
	int ret;

	a->timeout_ms = timeout_ms;
	if (!nr)
		return 0;	/* no jobs: no fence context (a WARN for 0) */
	context = dma_fence_context_alloc(nr);

	for (; a->nr_rings < nr; a->nr_rings++) {
		r = &a->rings[a->nr_rings];
		r->a = a;
		spin_lock_init(&r->start_lock);
		spin_lock_init(&r->lock);
		INIT_DELAYED_WORK(&r->watchdog, bpfdrv_accel_ring_watchdog);
		r->timeout_ns = (u64)timeout_ms * NSEC_PER_MSEC;
		r->max_jobs = args.credit_limit;
		r->fence_context = context + a->nr_rings;
		snprintf(r->name, sizeof(r->name), "%s.%u", a->name, a->nr_rings);
		args.name = r->name;
		ret = drm_sched_init(&r->sched, &args);
		if (ret)
			return ret;
		r->sched_list[0] = &r->sched;
	}
	return 0;
}

static int bpfdrv_accel_vm_create_ioctl(struct drm_device *drm, void *data,
					struct drm_file *file)
{
	return bpfdrv_accel_vm_create(&to_accel(drm)->vms, file, data);
}

static int bpfdrv_accel_vm_destroy_ioctl(struct drm_device *drm, void *data,
					 struct drm_file *file)
{
	return bpfdrv_accel_vm_destroy(&to_accel(drm)->vms, file, data);
}

static int bpfdrv_accel_vm_bind_ioctl(struct drm_device *drm, void *data,
				      struct drm_file *file)
{
	return bpfdrv_accel_vm_bind(&to_accel(drm)->vms, file, data);
}

/* A parameter the driver answers: its accel_get_param, if it has one. */
static int bpfdrv_accel_driver_param(struct bpfdrv_accel *a,
				     struct bpfdrv_accel_file *af,
				     struct drm_bpfdrv_get_param *args)
{
	struct bpfdrv_io_kern io = {
		.pub.len = sizeof(args->value),
		.data = (u8 *)&args->value,
		.size = sizeof(args->value),
	};

	args->value = 0;
	return bpfdrv_call(a->bdev, BPFDRV_CALL_FILE,
			   BPFDRV_CB_ACCEL_GET_PARAM, accel_get_param, 0,
			   -EINVAL, &af->f->pub,
			   args->param - BPFDRV_ACCEL_PARAM_DRIVER, args->index,
			   &io.pub);
}

static int bpfdrv_accel_get_param(struct drm_device *drm, void *data,
				  struct drm_file *file)
{
	struct drm_bpfdrv_get_param *args = data;
	struct bpfdrv_accel *a = to_accel(drm);

	if (args->param >= BPFDRV_ACCEL_PARAM_DRIVER)
		return bpfdrv_accel_driver_param(a, file->driver_priv, args);
	if (args->index && (args->param != BPFDRV_ACCEL_PARAM_RING_JOBS ||
			    args->index >= a->nr_rings))
		return -EINVAL;
	switch (args->param) {
	case BPFDRV_ACCEL_PARAM_ABI_VERSION:
		args->value = BPFDRV_ABI_VERSION;
		break;
	case BPFDRV_ACCEL_PARAM_RINGS:
		args->value = a->nr_rings;
		break;
	case BPFDRV_ACCEL_PARAM_RING_JOBS:
		if (!a->nr_rings)
			return -EINVAL;
		args->value = a->rings[args->index].max_jobs;
		break;
	case BPFDRV_ACCEL_PARAM_TIMEOUT_MS:
		args->value = a->timeout_ms;
		break;
	case BPFDRV_ACCEL_PARAM_BO_MAX:
		args->value = BPFDRV_ACCEL_BO_MAX;
		break;
	case BPFDRV_ACCEL_PARAM_BO_TOTAL:
		args->value = BPFDRV_ACCEL_BO_TOTAL;
		break;
	case BPFDRV_ACCEL_PARAM_BO_USED:
		args->value = atomic64_read(&a->bo_bytes);
		break;
	case BPFDRV_ACCEL_PARAM_FILE_JOBS:
		args->value = BPFDRV_ACCEL_FILE_JOBS_MAX;
		break;
	case BPFDRV_ACCEL_PARAM_JOB_BOS:
		args->value = BPFDRV_ACCEL_JOB_BOS_MAX;
		break;
	case BPFDRV_ACCEL_PARAM_JOB_ARG:
		args->value = BPFDRV_ACCEL_JOB_ARG_MAX;
		break;
	case BPFDRV_ACCEL_PARAM_DMA_BITS:
		args->value = a->dma_bits;
		break;
	case BPFDRV_ACCEL_PARAM_FEATURES:
		args->value = BPFDRV_ACCEL_FEATURE_TIMELINE |
			      BPFDRV_ACCEL_FEATURE_IMPLICIT |
			      BPFDRV_ACCEL_FEATURE_PRIORITY |
			      (a->vms.va_bits ? BPFDRV_ACCEL_FEATURE_VM : 0);
		break;
	case BPFDRV_ACCEL_PARAM_VA_BITS:
		args->value = a->vms.va_bits;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* The driver's ioctl @nr: its argument copied by drm_ioctl(), at @data. */
static int bpfdrv_accel_driver_ioctl(struct drm_device *drm, void *data,
				     struct drm_file *file, u32 nr)
{
	struct bpfdrv_accel *a = to_accel(drm);
	struct bpfdrv_accel_file *af = file->driver_priv;
	u32 size = a->decl[nr].size;
	struct bpfdrv_io_kern io = {
		.pub.len = size,
		.pub.nonblock = !!(file->filp->f_flags & O_NONBLOCK),
		.data = data,
		.size = size,
	};

	return bpfdrv_call(a->bdev, BPFDRV_CALL_FILE, BPFDRV_CB_ACCEL_IOCTL,
			   accel_ioctl, 0, -ENOTTY, &af->f->pub, nr, &io.pub);
}

/* drm_ioctl() does not say which ioctl it runs: one entry point each. */
#define BPFDRV_ACCEL_IOCTL_FN(nr)					\
static int bpfdrv_accel_ioctl_##nr(struct drm_device *drm, void *data,	\
				   struct drm_file *file)		\
{									\
	return bpfdrv_accel_driver_ioctl(drm, data, file, nr);		\
}

BPFDRV_ACCEL_IOCTL_FN(0)
BPFDRV_ACCEL_IOCTL_FN(1)
BPFDRV_ACCEL_IOCTL_FN(2)
BPFDRV_ACCEL_IOCTL_FN(3)
BPFDRV_ACCEL_IOCTL_FN(4)
BPFDRV_ACCEL_IOCTL_FN(5)
BPFDRV_ACCEL_IOCTL_FN(6)
BPFDRV_ACCEL_IOCTL_FN(7)
BPFDRV_ACCEL_IOCTL_FN(8)
BPFDRV_ACCEL_IOCTL_FN(9)
BPFDRV_ACCEL_IOCTL_FN(10)
BPFDRV_ACCEL_IOCTL_FN(11)
BPFDRV_ACCEL_IOCTL_FN(12)
BPFDRV_ACCEL_IOCTL_FN(13)
BPFDRV_ACCEL_IOCTL_FN(14)
BPFDRV_ACCEL_IOCTL_FN(15)

static drm_ioctl_t * const bpfdrv_accel_ioctl_fns[BPFDRV_ACCEL_IOCTLS_MAX] = {
	bpfdrv_accel_ioctl_0, bpfdrv_accel_ioctl_1, bpfdrv_accel_ioctl_2,
	bpfdrv_accel_ioctl_3, bpfdrv_accel_ioctl_4, bpfdrv_accel_ioctl_5,
	bpfdrv_accel_ioctl_6, bpfdrv_accel_ioctl_7, bpfdrv_accel_ioctl_8,
	bpfdrv_accel_ioctl_9, bpfdrv_accel_ioctl_10, bpfdrv_accel_ioctl_11,
	bpfdrv_accel_ioctl_12, bpfdrv_accel_ioctl_13, bpfdrv_accel_ioctl_14,
	bpfdrv_accel_ioctl_15,
};

/*
 * A file of the accel node is a file of the instance to the driver. DRM
 * calls this before it sets file->filp: the open callback sees no flags,
 * bpfdrv_accel_fop_open() sets them once the open is done.
 */
static void bpfdrv_accel_file_free(struct bpfdrv_accel_file *af)
{
	while (af->nr_ent)
		drm_sched_entity_destroy(&af->ent[--af->nr_ent]);
	if (af->f)
		bpfdrv_file_close(af->f);
	/* jobs killed with its queues are freed later, by the scheduler */
	kref_put(&af->ref, bpfdrv_accel_file_last_put);
}

/*
 * The node's permissions are the driver's declared mode on a node of
 * root's, as its /dev/bpfdrv node has: udev gives accel nodes to the
 * render group (Debian: 0660), which must not widen what the driver
 * allows. DRM's ioctls ignore how a file was opened, so a caller needs
 * both read and write; CAP_DAC_OVERRIDE passes, as it does on any node.
 */
static int bpfdrv_accel_may_open(struct bpfdrv_accel *a)
{
	umode_t mode = a->mode;

	if (uid_eq(current_fsuid(), GLOBAL_ROOT_UID))
		mode >>= 6;
	else if (in_group_p(GLOBAL_ROOT_GID))
		mode >>= 3;
	if ((mode & 6) == 6 || capable(CAP_DAC_OVERRIDE))
		return 0;
	return -EACCES;
}

static int bpfdrv_accel_open(struct drm_device *drm, struct drm_file *file)
{
	struct bpfdrv_accel *a = to_accel(drm);
	struct bpfdrv_accel_file *af;
	int ret = bpfdrv_accel_may_open(a);
	u32 i;

	if (ret)
		return ret;
	af = kzalloc(sizeof(*af), GFP_KERNEL_ACCOUNT);
	if (!af)
		return -ENOMEM;
	kref_init(&af->ref);
	mutex_init(&af->submit_lock);
	for (; af->nr_ent < a->nr_rings * BPFDRV_ACCEL_PRIOS; af->nr_ent++) {
		i = af->nr_ent;
		ret = drm_sched_entity_init(&af->ent[i],
					    bpfdrv_accel_prio[i % BPFDRV_ACCEL_PRIOS],
					    a->rings[i / BPFDRV_ACCEL_PRIOS].sched_list,
					    1, NULL);
		if (ret)
			goto err;
	}
	af->f = bpfdrv_file_open(a->bdev, 0);
	if (IS_ERR(af->f)) {
		ret = PTR_ERR(af->f);
		af->f = NULL;
		goto err;
	}
	file->driver_priv = af;
	return 0;
err:
	bpfdrv_accel_file_free(af);
	return ret;
}

/* Its queued jobs run (or fail, the device gone) before it goes. */
static void bpfdrv_accel_postclose(struct drm_device *drm,
				   struct drm_file *file)
{
	bpfdrv_accel_vm_file_close(&to_accel(drm)->vms, file);
	bpfdrv_accel_file_free(file->driver_priv);
}

static int bpfdrv_accel_fop_open(struct inode *inode, struct file *filp)
{
	struct bpfdrv_accel_file *af;
	struct drm_file *file;
	int ret = accel_open(inode, filp);

	if (ret)
		return ret;
	file = filp->private_data;
	af = file->driver_priv;
	WRITE_ONCE(af->f->pub.f_flags, filp->f_flags);
	return 0;
}

/*
 * What the file used (Documentation/gpu/drm-usage-stats.rst), as nvtop
 * and bpfdrv trace --top read it: each ring's busy time for its jobs, and
 * its buffers.
 */
static void bpfdrv_accel_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct bpfdrv_accel *a = to_accel(file->minor->dev);
	struct bpfdrv_accel_file *af = file->driver_priv;
	struct bpfdrv_accel_job *job;
	struct bpfdrv_accel_ring *r;
	unsigned long flags;
	u64 ns, now;
	u32 i, k;

	for (i = 0; i < a->nr_rings; i++) {
		/* the jobs that ended, and those on the device until now */
		r = &a->rings[i];
		spin_lock_irqsave(&r->lock, flags);
		now = ktime_get_ns();
		ns = atomic64_read(&af->busy_ns[i]);
		for (k = 0; k < r->count; k++) {
			job = r->slots[(r->head + k) % r->max_jobs];
			if (job->af == af && !job->ended)
				ns += now - job->started_ns;
		}
		spin_unlock_irqrestore(&r->lock, flags);
		drm_printf(p, "drm-engine-ring%u:\t%llu ns\n", i, ns);
	}
	drm_show_memory_stats(p, file);
}

/* DRM_ACCEL_FOPS, but for the open */
static const struct file_operations bpfdrv_accel_fops = {
	.owner = THIS_MODULE,
	.open = bpfdrv_accel_fop_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.show_fdinfo = drm_show_fdinfo,
	.fop_flags = FOP_UNSIGNED_OFFSET,
};

static const struct drm_driver bpfdrv_accel_driver_template = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE,
	.open = bpfdrv_accel_open,
	.postclose = bpfdrv_accel_postclose,
	.show_fdinfo = bpfdrv_accel_show_fdinfo,
	.gem_create_object = bpfdrv_accel_bo_alloc,
	DRM_GEM_SHMEM_DRIVER_OPS,
	.fops = &bpfdrv_accel_fops,
	.desc = "bpfdrv accelerator",
	.major = BPFDRV_ABI_VERSION,
};

static void bpfdrv_accel_ioctl_desc(struct drm_ioctl_desc *d, u32 nr, u32 dir,
				    u32 size, drm_ioctl_t *func,
				    const char *name)
{
	d->cmd = _IOC(dir, DRM_IOCTL_BASE, DRM_COMMAND_BASE + nr, size);
	d->func = func;
	d->name = name;
}

/* bpfdrv's own ioctls, on every accel node (include/bpfdrv_accel.h) */
struct bpfdrv_accel_own_ioctl {
	u32 nr, dir, size;
	drm_ioctl_t *func;
	const char *name;
};

#define BPFDRV_ACCEL_OWN(n, d, type, fn) \
	{ DRM_BPFDRV_##n, d, sizeof(struct type), fn, "BPFDRV_" #n }
#define BPFDRV_IOC_RW	(_IOC_READ | _IOC_WRITE)
static const struct bpfdrv_accel_own_ioctl bpfdrv_accel_own_ioctls[] = {
	BPFDRV_ACCEL_OWN(BO_CREATE, BPFDRV_IOC_RW, drm_bpfdrv_bo_create,
			 bpfdrv_accel_bo_create),
	BPFDRV_ACCEL_OWN(BO_INFO, BPFDRV_IOC_RW, drm_bpfdrv_bo_info,
			 bpfdrv_accel_bo_info),
	BPFDRV_ACCEL_OWN(SUBMIT, BPFDRV_IOC_RW, drm_bpfdrv_submit,
			 bpfdrv_accel_submit),
	BPFDRV_ACCEL_OWN(GET_PARAM, BPFDRV_IOC_RW, drm_bpfdrv_get_param,
			 bpfdrv_accel_get_param),
	BPFDRV_ACCEL_OWN(VM_CREATE, BPFDRV_IOC_RW, drm_bpfdrv_vm_create,
			 bpfdrv_accel_vm_create_ioctl),
	BPFDRV_ACCEL_OWN(VM_DESTROY, _IOC_WRITE, drm_bpfdrv_vm_destroy,
			 bpfdrv_accel_vm_destroy_ioctl),
	BPFDRV_ACCEL_OWN(VM_BIND, _IOC_WRITE, drm_bpfdrv_vm_bind,
			 bpfdrv_accel_vm_bind_ioctl),
};

/* The driver's template with the instance's name and ioctl table. */
static void bpfdrv_accel_fill(struct bpfdrv_accel *a,
			      const struct chr_ext_ops *ops)
{
	unsigned int i, dir;

	strscpy(a->name, ops->name, sizeof(a->name));
	memcpy(a->decl, ops->accel_ioctls, sizeof(a->decl));
	for (i = 0; i < ARRAY_SIZE(bpfdrv_accel_own_ioctls); i++) {
		const struct bpfdrv_accel_own_ioctl *o = &bpfdrv_accel_own_ioctls[i];

		bpfdrv_accel_ioctl_desc(&a->ioctls[o->nr], o->nr, o->dir, o->size,
					o->func, o->name);
	}
	a->driver = bpfdrv_accel_driver_template;
	/* no dumb buffers: they would bypass the limits of BPFDRV_BO_CREATE */
	a->driver.dumb_create = NULL;
	a->driver.name = a->name;
	a->driver.ioctls = a->ioctls;
	a->driver.num_ioctls = DRM_BPFDRV_DRIVER_BASE;
	for (i = 0; i < BPFDRV_ACCEL_IOCTLS_MAX && a->decl[i].name[0]; i++) {
		dir = (a->decl[i].dir & BPFDRV_ACCEL_IN ? _IOC_WRITE : 0) |
		      (a->decl[i].dir & BPFDRV_ACCEL_OUT ? _IOC_READ : 0);
		bpfdrv_accel_ioctl_desc(&a->ioctls[DRM_BPFDRV_DRIVER_BASE + i],
					DRM_BPFDRV_DRIVER_BASE + i, dir,
					a->decl[i].size,
					bpfdrv_accel_ioctl_fns[i],
					a->decl[i].name);
		a->driver.num_ioctls++;
	}
}

/*
 * Its last holder went: no file, job or started fence is left, so the
 * schedulers are idle. In bpfdrv_accel_wq, which the module's exit drains.
 */
static void bpfdrv_accel_free(struct work_struct *work)
{
	struct bpfdrv_accel *a = container_of(work, struct bpfdrv_accel,
					      free_work);

	cancel_delayed_work_sync(&a->reap_work);
	while (a->nr_rings) {
		cancel_delayed_work_sync(&a->rings[--a->nr_rings].watchdog);
		drm_sched_fini(&a->rings[a->nr_rings].sched);
	}
	put_device(a->dma_dev);
	bpfdrv_accel_vms_fini(&a->vms);
	kfree(a);
	module_put(THIS_MODULE);
}

/*
 * The node as the driver declared it (devtmpfs; the accel class names
 * it), as its /dev/bpfdrv node is. A udev rule may change it (Debian's
 * gives accel nodes to render, 0660): bpfdrv_accel_may_open() still
 * holds to the declaration.
 */
static char *bpfdrv_accel_devnode(const struct device *kdev, umode_t *mode,
				  kuid_t *uid, kgid_t *gid)
{
	const struct drm_minor *minor = dev_get_drvdata(kdev);

	if (mode)
		*mode = to_accel(minor->dev)->mode;
	return NULL;
}

static const struct device_type bpfdrv_accel_minor_type = {
	.name = "accel_minor",
	.devnode = bpfdrv_accel_devnode,
};

/* The DRM device's last user went: its hold on the accelerator goes. */
static void bpfdrv_accel_release(struct drm_device *drm, void *data)
{
	bpfdrv_accel_put(data);
}

static int bpfdrv_accel_add(struct bpfdrv_device *bdev)
{
	struct bpfdrv_accel *a = kzalloc(sizeof(*a), GFP_KERNEL);
	struct drm_device *drm;
	int ret;

	if (!a)
		return -ENOMEM;
	if (bdev->ops->accel_va_bits && !BPFDRV_ACCEL_HAS_VMS) {
		dev_info(&bdev->dev, "its driver declares accel_va_bits, but this kernel has no drm_gpuvm (CONFIG_DRM_GPUVM): no address spaces\n");
		kfree(a);
		return -EOPNOTSUPP;
	}
	bpfdrv_accel_fill(a, bdev->ops);
	a->bdev = bdev;
	a->mode = bdev->mode;
	kref_init(&a->ref);
	INIT_WORK(&a->free_work, bpfdrv_accel_free);
	INIT_DELAYED_WORK(&a->reap_work, bpfdrv_accel_reap_work);
	__module_get(THIS_MODULE);	/* put by bpfdrv_accel_free() */
	a->dma_err = bdev->accel_dma_err;
	/*
	 * PRIME imports map a dma-buf for the importing device (6.12 does it
	 * for every import): the instance's device reaches no hardware, and
	 * its addresses are the CPU's.
	 */
	ret = dma_coerce_mask_and_coherent(&bdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		bpfdrv_accel_put(a);
		return ret;
	}
	drm = drm_dev_alloc(&a->driver, &bdev->dev);
	if (IS_ERR(drm)) {
		bpfdrv_accel_put(a);
		return PTR_ERR(drm);
	}
	/* @a holds @drm's driver: freed after it */
	ret = drmm_add_action_or_reset(drm, bpfdrv_accel_release, a);
	if (ret) {
		drm_dev_put(drm);
		return ret;
	}
	drm->dev_private = a;
	a->drm = drm;
	a->dma_dev = get_device(bdev->accel_dma_dev);	/* put by free */
	a->dma_bits = a->dma_dev ? bdev->ops->accel_dma_bits : 0;
	bpfdrv_accel_vms_init(&a->vms, drm, bdev, bdev->ops->accel_va_bits,
			      a->dma_dev, a->dma_err);
	ret = bpfdrv_accel_rings_init(a, bdev->ops);
	if (ret) {
		dev_info(&bdev->dev, "cannot set up its job rings: %d\n", ret);
		drm_dev_put(drm);
		return ret;
	}
	drm->accel->kdev->type = &bpfdrv_accel_minor_type;
	ret = drm_dev_register(drm, 0);
	if (ret) {
		dev_info(&bdev->dev, "cannot register its DRM accel device: %d\n",
			 ret);
		drm_dev_put(drm);
		return ret;
	}
	bdev->accel = a;
	return 0;
}

/*
 * Before the instance's node goes: ioctls fail with ENODEV from now on,
 * the running jobs and those still queued too; buffers live on while
 * handles, mappings or dma-bufs hold them, the accelerator while jobs
 * and fences do.
 */
static void bpfdrv_accel_del(struct bpfdrv_device *bdev)
{
	struct bpfdrv_accel *a = bdev->accel;
	u32 i;

	/* the kfuncs let go of it; a job started later fails itself */
	WRITE_ONCE(a->dead, true);
	WRITE_ONCE(bdev->accel, NULL);
	/* a run_job that saw it alive has put its job on the device */
	synchronize_rcu();
	for (i = 0; i < a->nr_rings; i++)
		bpfdrv_accel_ring_end_all(&a->rings[i], 0, -ENODEV, -ENODEV);
	drm_dev_unplug(a->drm);
	/* no bind runs past the unplug: the VMs' DMA goes with the jobs' */
	bpfdrv_accel_vms_revoke(&a->vms);
	drm_dev_put(a->drm);
}

static const struct bpfdrv_accel_class bpfdrv_accel_class = {
	.owner = THIS_MODULE,
	.add = bpfdrv_accel_add,
	.del = bpfdrv_accel_del,
	.job_done = bpfdrv_accel_job_done,
	.job_slot = bpfdrv_accel_job_slot,
	.job_bo_copy = bpfdrv_accel_job_bo_copy,
	.job_bo_dma = bpfdrv_accel_job_bo_dma,
	.job_vm_copy = bpfdrv_accel_job_vm_copy,
	.job_vm_dma = bpfdrv_accel_job_vm_dma,
};

static int __init bpfdrv_accel_init(void)
{
	int ret;

	bpfdrv_accel_wq = alloc_workqueue("bpfdrv_accel", WQ_UNBOUND, 0);
	if (!bpfdrv_accel_wq)
		return -ENOMEM;
	bpfdrv_accel_sched_wq = alloc_workqueue("bpfdrv_accel_sched",
						WQ_PERCPU | WQ_MEM_RECLAIM |
						WQ_HIGHPRI, 0);
	if (!bpfdrv_accel_sched_wq) {
		destroy_workqueue(bpfdrv_accel_wq);
		return -ENOMEM;
	}
	ret = bpfdrv_accel_register(&bpfdrv_accel_class);
	if (ret) {
		destroy_workqueue(bpfdrv_accel_sched_wq);
		destroy_workqueue(bpfdrv_accel_wq);
	}
	return ret;
}

/* No accelerator holds the module: the last one's free may still return. */
static void __exit bpfdrv_accel_exit(void)
{
	bpfdrv_accel_unregister(&bpfdrv_accel_class);
	destroy_workqueue(bpfdrv_accel_wq);
	destroy_workqueue(bpfdrv_accel_sched_wq);
}

module_init(bpfdrv_accel_init);
module_exit(bpfdrv_accel_exit);
MODULE_DESCRIPTION("bpfdrv: DRM accelerator devices for BPF drivers");
MODULE_LICENSE("GPL");
