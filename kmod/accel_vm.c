// SPDX-License-Identifier: GPL-2.0
/*
 * Device address spaces of an accelerator: VMs of its files, each a
 * drm_gpuvm whose mappings are ranges of GEM buffers. VM_BIND hands
 * drm_gpuvm a map or an unmap; drm_gpuvm works out the steps (a new
 * mapping, a mapping cut into what is left of it, one removed) and each
 * step reaches the driver (accel_vm_map, accel_vm_unmap: what its device's
 * page tables must say) before it changes the tree.
 *
 * A mapping holds its buffer and a CPU mapping of it (vmap) while it
 * lives, so that a job's kfuncs copy through the VM in any context: they
 * look the address up under the VM's spinlock, which every change of the
 * tree takes. Binds are serialized by a mutex per VM, and run in the
 * ioctl or, queued (BPFDRV_VM_BIND_ASYNC), in the VM's work in order, each
 * signalling its fence: so every bind follows the dma-fence rules. What
 * may sleep or allocate is done before (the new mapping, spares for the
 * pieces of cut ones), what a bind took out is let go after; the driver
 * is called as on the dma-fence path, without the spinlock.
 *
 * For a driver whose PCI function masters the bus (accel_dma_bits), a
 * mapping's pages are also mapped for the function's DMA when it is made,
 * once, until it goes (not per job). A job that asks where its device
 * reaches a mapping holds the mapping until the job is freed, so that a
 * bind cannot take the pages from under a transfer; the mapping is synced
 * for the device when the first running job takes it and for the CPU at
 * each one's end, and unmapped without a CPU sync (the CPU's copy is the
 * newer one once no job holds it). When the
 * instance goes, its jobs ended, every mapping's DMA is revoked.
 *
 * Lifetimes: a VM is its file's until VM_DESTROY or the file's close,
 * which unmap everything (the driver told of each range); a job in it
 * holds it (drm_gpuvm's reference) until the job is freed, and finds it
 * empty then.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-mapping.h>
#include <linux/iosys-map.h>
#include <linux/kref.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_gpuvm.h>
#include <drm/drm_syncobj.h>

#include "call.h"
#include "../include/bpfdrv_accel.h"
#include "accel_vm.h"

#ifdef BPFDRV_GEM_VMAP_UNLOCKED
#define bpfdrv_vm_vmap		drm_gem_vmap_unlocked
#define bpfdrv_vm_vunmap	drm_gem_vunmap_unlocked
#else
#define bpfdrv_vm_vmap		drm_gem_vmap
#define bpfdrv_vm_vunmap	drm_gem_vunmap
#endif

/* how long a bind waits for its in-fence at most */
#define BPFDRV_VM_BIND_WAIT		(10 * HZ)
#define BPFDRV_VM_COPY_MAX		(64 * 1024)

struct bpfdrv_accel_vm {
	struct drm_gpuvm base;		/* its reference: the file's, jobs' */
	struct bpfdrv_accel_vms *s;
	u32 id;
	struct drm_file *owner;		/* bind_lock; NULL once destroyed */
	/*
	 * One bind at a time. Taken on the dma-fence path (a queued bind's
	 * work), so never held to allocate or wait: a bind allocates before.
	 */
	struct mutex bind_lock;
	spinlock_t lock;		/* the tree, for the kfuncs */
	/* queued binds (BPFDRV_VM_BIND_ASYNC), run in order by bind_work */
	spinlock_t queue_lock;
	struct list_head queue;
	u32 queued;
	bool closing;			/* queue_lock: no more queued */
	struct work_struct bind_work;
	u64 fence_context;
	u64 fence_seqno;		/* queue_lock */
};

/* A buffer mapped for the CPU, shared by the pieces a bind cuts. */
struct bpfdrv_vm_cpu {
	struct kref ref;
	struct drm_gem_object *obj;	/* held */
	struct iosys_map map;
};

/* A mapping: its buffer mapped for the CPU, its range for the device. */
struct bpfdrv_accel_va {
	struct drm_gpuva base;
	struct kref ref;		/* the tree's; jobs' that reached it */
	struct bpfdrv_vm_cpu *cpu;	/* held */
	struct sg_table sgt;		/* the range's pages, for dma_dev */
	struct device *dma_dev;		/* NULL: not (or no more) mapped */
	u32 dma_busy;			/* running jobs it is the device's for */
	struct list_head gone;		/* out of the tree: put after the bind */
};

/*
 * A bind, made ready in its ioctl (where it may allocate and sleep) and
 * run under bind_lock (where it may not): the new mapping ready, the
 * pieces a cut leaves allocated (at most two: one mapping cut on both
 * sides, or two on one side each).
 */
struct bpfdrv_vm_bind_op {
	struct list_head node;		/* in vm->queue */
	struct bpfdrv_accel_vm *vm;	/* held */
	struct drm_bpfdrv_vm_bind args;
	struct drm_gem_object *obj;	/* MAP's buffer, held */
	struct bpfdrv_accel_va *va_new;	/* MAP's mapping, until inserted */
	struct bpfdrv_accel_va *spare[2];
	struct list_head gone;		/* what the steps took out */
	struct dma_fence *in_fence;	/* queued: held */
	struct dma_fence *fence;	/* queued: its out-fence */
};

/* A queued bind's fence: holds this module, whose ops it names. */
struct bpfdrv_vm_fence {
	struct dma_fence base;
	spinlock_t lock;		/* its signal */
};

static inline struct bpfdrv_accel_vm *to_vm(struct drm_gpuvm *gpuvm)
{
	return container_of(gpuvm, struct bpfdrv_accel_vm, base);
}

static inline struct bpfdrv_accel_va *to_va(struct drm_gpuva *va)
{
	return container_of(va, struct bpfdrv_accel_va, base);
}

static void bpfdrv_vm_cpu_release(struct kref *ref)
{
	struct bpfdrv_vm_cpu *cpu = container_of(ref, struct bpfdrv_vm_cpu,
						 ref);

	bpfdrv_vm_vunmap(cpu->obj, &cpu->map);
	drm_gem_object_put(cpu->obj);
	kfree(cpu);
}

/* @obj held and mapped for the CPU (process context: takes its lock). */
static struct bpfdrv_vm_cpu *bpfdrv_vm_cpu_new(struct drm_gem_object *obj)
{
	struct bpfdrv_vm_cpu *cpu = kzalloc(sizeof(*cpu), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!cpu)
		return ERR_PTR(-ENOMEM);
	ret = bpfdrv_vm_vmap(obj, &cpu->map);
	if (!ret && cpu->map.is_iomem) {
		bpfdrv_vm_vunmap(obj, &cpu->map);
		ret = -EINVAL;	/* the kfuncs copy with memcpy() */
	}
	if (ret) {
		kfree(cpu);
		return ERR_PTR(ret);
	}
	kref_init(&cpu->ref);
	drm_gem_object_get(obj);
	cpu->obj = obj;
	return cpu;
}

/*
 * @va's pages of [@offset, @offset + @range) of its buffer (pinned by
 * the CPU mapping) mapped for @dev's DMA. A buffer imported from another
 * device is its exporter's to map: it stays unmapped. @gfp: GFP_NOWAIT
 * under bind_lock (the DMA API itself does not sleep).
 */
static int bpfdrv_vm_va_dma_map(struct bpfdrv_accel_va *va, struct device *dev,
				u64 offset, u64 range, gfp_t gfp)
{
	struct drm_gem_object *obj = va->cpu->obj;
	int ret;

	if (!dev || obj->import_attach)
		return 0;
	ret = sg_alloc_table_from_pages(&va->sgt, to_drm_gem_shmem_obj(obj)->pages +
					(offset >> PAGE_SHIFT),
					range >> PAGE_SHIFT, 0, range,
					gfp | __GFP_ACCOUNT | __GFP_NOWARN);
	if (ret)
		return ret;
	ret = dma_map_sgtable(dev, &va->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret) {
		sg_free_table(&va->sgt);
		memset(&va->sgt, 0, sizeof(va->sgt));
		return ret;
	}
	va->dma_dev = dev;
	return 0;
}

/*
 * @va's DMA mapping goes, if it has one: the IOMMU refuses it from now on.
 * No job holds it, so the CPU's copy is the newer one (each job's end
 * synced it): a bounce buffer's older bytes are not copied back over it.
 */
static void bpfdrv_vm_va_dma_unmap(struct bpfdrv_accel_va *va)
{
	if (!va->dma_dev)
		return;
	dma_unmap_sgtable(va->dma_dev, &va->sgt, DMA_BIDIRECTIONAL,
			  DMA_ATTR_SKIP_CPU_SYNC);
	va->dma_dev = NULL;
}

/* A mapping's memory, filled in when it is placed (bpfdrv_vm_va_place). */
static struct bpfdrv_accel_va *bpfdrv_vm_va_alloc(void)
{
	struct bpfdrv_accel_va *va = kzalloc(sizeof(*va), GFP_KERNEL_ACCOUNT);

	if (va) {
		kref_init(&va->ref);
		INIT_LIST_HEAD(&va->gone);
	}
	return va;
}

/* @va, allocated, maps [@offset, @offset + @range) of @cpu's buffer. */
static int bpfdrv_vm_va_place(struct bpfdrv_accel_vm *vm,
			      struct bpfdrv_accel_va *va,
			      struct bpfdrv_vm_cpu *cpu, u64 offset, u64 range,
			      gfp_t gfp)
{
	int ret;

	va->cpu = cpu;
	ret = bpfdrv_vm_va_dma_map(va, vm->s->dma_dev, offset, range, gfp);
	if (ret) {
		va->cpu = NULL;
		return ret;
	}
	kref_get(&cpu->ref);
	return 0;
}

/* Process context, no lock held: a mapping (or a spare) goes. */
static void bpfdrv_vm_va_release(struct kref *ref)
{
	struct bpfdrv_accel_va *va = container_of(ref, struct bpfdrv_accel_va,
						  ref);

	bpfdrv_vm_va_dma_unmap(va);
	if (va->sgt.sgl)
		sg_free_table(&va->sgt);
	if (va->cpu)
		kref_put(&va->cpu->ref, bpfdrv_vm_cpu_release);
	kfree(va);
}

/* A mapping out of the tree (or never in it): gone with its last job. */
static void bpfdrv_vm_va_put(struct bpfdrv_accel_va *va)
{
	if (va)
		kref_put(&va->ref, bpfdrv_vm_va_release);
}

/*
 * The driver's calls of a bind, on the dma-fence path as a queued bind's
 * are: one at a time per instance (one fence slot), no mutex, no sleep.
 */
static int bpfdrv_vm_driver_map(struct bpfdrv_accel_vm *vm, u64 addr,
				u64 range, u32 handle, u64 bo_offset)
{
	int ret;

	spin_lock(&vm->s->call_lock);
	ret = bpfdrv_call_fence(vm->s->bdev, BPFDRV_FENCE_SLOT_VM,
				BPFDRV_CB_ACCEL_VM_MAP, accel_vm_map, 0, 0,
				vm->id, addr, range, handle, bo_offset);
	spin_unlock(&vm->s->call_lock);
	return ret;
}

/* The driver's page tables lose [@addr, @addr + @range): it cannot refuse */
static void bpfdrv_vm_driver_unmap(struct bpfdrv_accel_vm *vm, u64 addr,
				   u64 range)
{
	spin_lock(&vm->s->call_lock);
	bpfdrv_call_fence_void(vm->s->bdev, BPFDRV_FENCE_SLOT_VM,
			       BPFDRV_CB_ACCEL_VM_UNMAP, accel_vm_unmap, vm->id,
			       addr, range);
	spin_unlock(&vm->s->call_lock);
}

static int bpfdrv_vm_step_map(struct drm_gpuva_op *op, void *priv)
{
	struct bpfdrv_vm_bind_op *b = priv;
	struct bpfdrv_accel_vm *vm = b->vm;
	struct drm_gpuva_op_map *m = &op->map;
	struct bpfdrv_accel_va *va = b->va_new;
	unsigned long flags;
	int ret;

	if (WARN_ON_ONCE(!va))
		return -EINVAL;
	ret = bpfdrv_vm_driver_map(vm, m->va.addr, m->va.range, b->args.handle,
				   m->gem.offset);
	if (ret)
		return ret;
	spin_lock_irqsave(&vm->lock, flags);
	drm_gpuva_map(&vm->base, &va->base, m);
	spin_unlock_irqrestore(&vm->lock, flags);
	b->va_new = NULL;
	return 0;
}

/* A spare of @b's, placed over @piece of the mapping @old is cut into. */
static struct bpfdrv_accel_va *bpfdrv_vm_piece(struct bpfdrv_vm_bind_op *b,
					       struct bpfdrv_accel_va *old,
					       struct drm_gpuva_op_map *piece)
{
	struct bpfdrv_accel_va *va;
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(b->spare) && !b->spare[i]; i++)
		;
	if (WARN_ON_ONCE(i == ARRAY_SIZE(b->spare)))
		return ERR_PTR(-EINVAL);
	va = b->spare[i];
	ret = bpfdrv_vm_va_place(b->vm, va, old->cpu, piece->gem.offset,
				 piece->va.range, GFP_NOWAIT);
	if (ret)
		return ERR_PTR(ret);
	b->spare[i] = NULL;
	return va;
}

/*
 * A mapping cut: the driver unmaps the part that goes, and what is left
 * before and after it becomes mappings of their own, each mapped for the
 * device on its own, so that nothing unbound stays reachable.
 */
static int bpfdrv_vm_step_remap(struct drm_gpuva_op *op, void *priv)
{
	struct bpfdrv_vm_bind_op *b = priv;
	struct bpfdrv_accel_vm *vm = b->vm;
	struct drm_gpuva_op_remap *r = &op->remap;
	struct bpfdrv_accel_va *old = to_va(r->unmap->va);
	struct bpfdrv_accel_va *prev = NULL, *next = NULL;
	u64 start = old->base.va.addr, end = start + old->base.va.range;
	unsigned long flags;

	if (r->prev) {
		prev = bpfdrv_vm_piece(b, old, r->prev);
		if (IS_ERR(prev))
			return PTR_ERR(prev);
		start = r->prev->va.addr + r->prev->va.range;
	}
	if (r->next) {
		next = bpfdrv_vm_piece(b, old, r->next);
		if (IS_ERR(next)) {
			if (prev)	/* placed, not in the tree */
				list_add(&prev->gone, &b->gone);
			return PTR_ERR(next);
		}
		end = r->next->va.addr;
	}
	bpfdrv_vm_driver_unmap(vm, start, end - start);
	spin_lock_irqsave(&vm->lock, flags);
	drm_gpuva_remap(prev ? &prev->base : NULL, next ? &next->base : NULL, r);
	spin_unlock_irqrestore(&vm->lock, flags);
	list_add(&old->gone, &b->gone);
	return 0;
}

static int bpfdrv_vm_step_unmap(struct drm_gpuva_op *op, void *priv)
{
	struct bpfdrv_vm_bind_op *b = priv;
	struct bpfdrv_accel_vm *vm = b->vm;
	struct drm_gpuva *va = op->unmap.va;
	unsigned long flags;

	bpfdrv_vm_driver_unmap(vm, va->va.addr, va->va.range);
	spin_lock_irqsave(&vm->lock, flags);
	drm_gpuva_unmap(&op->unmap);
	spin_unlock_irqrestore(&vm->lock, flags);
	list_add(&to_va(va)->gone, &b->gone);
	return 0;
}

/* The last reference went: the tree is empty (destroy unmapped it all). */
static void bpfdrv_vm_free(struct drm_gpuvm *gpuvm)
{
	struct bpfdrv_accel_vm *vm = to_vm(gpuvm);

	mutex_destroy(&vm->bind_lock);
	kfree(vm);
}

static const struct drm_gpuvm_ops bpfdrv_vm_ops = {
	.vm_free = bpfdrv_vm_free,
	.sm_step_map = bpfdrv_vm_step_map,
	.sm_step_remap = bpfdrv_vm_step_remap,
	.sm_step_unmap = bpfdrv_vm_step_unmap,
};

static u64 bpfdrv_vm_end(const struct bpfdrv_accel_vms *s)
{
	return 1ULL << s->va_bits;
}

/* After a bind, no lock held: what it took out of the tree, and spares. */
static void bpfdrv_vm_bind_op_free(struct bpfdrv_vm_bind_op *b)
{
	struct bpfdrv_accel_va *va, *tmp;
	int i;

	list_for_each_entry_safe(va, tmp, &b->gone, gone) {
		list_del(&va->gone);
		bpfdrv_vm_va_put(va);
	}
	bpfdrv_vm_va_put(b->va_new);
	for (i = 0; i < ARRAY_SIZE(b->spare); i++)
		bpfdrv_vm_va_put(b->spare[i]);
	if (b->obj)
		drm_gem_object_put(b->obj);
	dma_fence_put(b->in_fence);
	dma_fence_put(b->fence);
	drm_gpuvm_put(&b->vm->base);
	kfree(b);
}

static void bpfdrv_vm_queue_work(struct work_struct *work);

/* Everything in @vm unmapped (the driver told), and its file's no more. */
static void bpfdrv_vm_empty(struct bpfdrv_accel_vm *vm)
{
	struct bpfdrv_vm_bind_op b = { .vm = vm };
	u64 start = BPFDRV_ACCEL_VA_PAGE;
	struct bpfdrv_accel_va *va, *tmp;

	/* queued binds fail at once, and none is queued after */
	spin_lock(&vm->queue_lock);
	vm->closing = true;
	spin_unlock(&vm->queue_lock);
	flush_work(&vm->bind_work);
	INIT_LIST_HEAD(&b.gone);
	mutex_lock(&vm->bind_lock);
	/* the whole VM, whose steps unmap only: nothing can fail */
	drm_gpuvm_sm_unmap(&vm->base, &b, start, bpfdrv_vm_end(vm->s) - start);
	vm->owner = NULL;
	mutex_unlock(&vm->bind_lock);
	list_for_each_entry_safe(va, tmp, &b.gone, gone) {
		list_del(&va->gone);
		bpfdrv_vm_va_put(va);
	}
}

void bpfdrv_accel_vms_init(struct bpfdrv_accel_vms *s, struct drm_device *drm,
			   struct bpfdrv_device *bdev, u32 va_bits,
			   struct device *dma_dev, int dma_err)
{
	s->drm = drm;
	s->bdev = bdev;
	s->va_bits = va_bits;
	s->dma_dev = dma_dev;
	s->dma_err = dma_err;
	spin_lock_init(&s->call_lock);
	xa_init_flags(&s->vms, XA_FLAGS_ALLOC1);
}

/* @vm's mappings lose their DMA: the device is done with them for good. */
static void bpfdrv_vm_revoke(struct bpfdrv_accel_vm *vm)
{
	struct drm_gpuva *gva;
	unsigned long flags;

	mutex_lock(&vm->bind_lock);
	drm_gpuvm_for_each_va(gva, &vm->base) {
		spin_lock_irqsave(&vm->lock, flags);
		bpfdrv_vm_va_dma_unmap(to_va(gva));
		spin_unlock_irqrestore(&vm->lock, flags);
	}
	mutex_unlock(&vm->bind_lock);
}

/*
 * The instance goes and its jobs have ended: no VM's mapping stays
 * reachable by the PCI function (which may be bound to another driver
 * next), though files keep the VMs until they close.
 */
void bpfdrv_accel_vms_revoke(struct bpfdrv_accel_vms *s)
{
	struct bpfdrv_accel_vm *vm;
	unsigned long id = 0;

	if (!s->dma_dev)
		return;
	for (;;) {
		xa_lock(&s->vms);
		vm = xa_find(&s->vms, &id, ULONG_MAX, XA_PRESENT);
		if (vm)
			drm_gpuvm_get(&vm->base);
		xa_unlock(&s->vms);
		if (!vm)
			break;
		bpfdrv_vm_revoke(vm);
		drm_gpuvm_put(&vm->base);
		id++;
	}
}

/* Every file is closed: their VMs are gone from the table. */
void bpfdrv_accel_vms_fini(struct bpfdrv_accel_vms *s)
{
	WARN_ON(!xa_empty(&s->vms));
	xa_destroy(&s->vms);
}

static unsigned int bpfdrv_vm_count(struct bpfdrv_accel_vms *s,
				    struct drm_file *file)
{
	struct bpfdrv_accel_vm *vm;
	unsigned long id;
	unsigned int n = 0;

	xa_lock(&s->vms);
	xa_for_each(&s->vms, id, vm)
		n += vm->owner == file;
	xa_unlock(&s->vms);
	return n;
}

int bpfdrv_accel_vm_create(struct bpfdrv_accel_vms *s, struct drm_file *file,
			   struct drm_bpfdrv_vm_create *args)
{
	struct drm_gem_object *r_obj;
	struct bpfdrv_accel_vm *vm;
	u64 start = BPFDRV_ACCEL_VA_PAGE;
	u32 id;
	int ret;

	if (!s->va_bits)
		return -EOPNOTSUPP;
	if (args->flags)
		return -EINVAL;
	/* a file's VMs are created and destroyed by its ioctls only */
	if (bpfdrv_vm_count(s, file) >= BPFDRV_ACCEL_FILE_VMS_MAX)
		return -ENOSPC;
	vm = kzalloc(sizeof(*vm), GFP_KERNEL_ACCOUNT);
	if (!vm)
		return -ENOMEM;
	r_obj = drm_gpuvm_resv_object_alloc(s->drm);
	if (!r_obj) {
		kfree(vm);
		return -ENOMEM;
	}
	mutex_init(&vm->bind_lock);
	spin_lock_init(&vm->lock);
	spin_lock_init(&vm->queue_lock);
	INIT_LIST_HEAD(&vm->queue);
	INIT_WORK(&vm->bind_work, bpfdrv_vm_queue_work);
	vm->fence_context = dma_fence_context_alloc(1);
	vm->s = s;
	vm->owner = file;
	drm_gpuvm_init(&vm->base, "bpfdrv", 0, s->drm, r_obj, start,
		       bpfdrv_vm_end(s) - start, 0, 0, &bpfdrv_vm_ops);
	drm_gem_object_put(r_obj);	/* the VM holds it */
	ret = xa_alloc(&s->vms, &id, vm, xa_limit_31b, GFP_KERNEL_ACCOUNT);
	if (ret) {
		drm_gpuvm_put(&vm->base);
		return ret;
	}
	vm->id = id;
	args->vm_id = id;
	return 0;
}

/* @file's VM @id, taken out of the table. */
static struct bpfdrv_accel_vm *bpfdrv_vm_take(struct bpfdrv_accel_vms *s,
					      struct drm_file *file, u32 id)
{
	struct bpfdrv_accel_vm *vm;

	xa_lock(&s->vms);
	vm = xa_load(&s->vms, id);
	if (vm && vm->owner == file)
		__xa_erase(&s->vms, id);
	else
		vm = NULL;
	xa_unlock(&s->vms);
	return vm;
}

int bpfdrv_accel_vm_destroy(struct bpfdrv_accel_vms *s, struct drm_file *file,
			    struct drm_bpfdrv_vm_destroy *args)
{
	struct bpfdrv_accel_vm *vm;

	if (args->pad)
		return -EINVAL;
	vm = bpfdrv_vm_take(s, file, args->vm_id);
	if (!vm)
		return -ENOENT;
	bpfdrv_vm_empty(vm);
	drm_gpuvm_put(&vm->base);
	return 0;
}

void bpfdrv_accel_vm_file_close(struct bpfdrv_accel_vms *s,
				struct drm_file *file)
{
	struct bpfdrv_accel_vm *vm;
	unsigned long id;

	xa_for_each(&s->vms, id, vm) {
		vm = bpfdrv_vm_take(s, file, id);
		if (!vm)
			continue;
		bpfdrv_vm_empty(vm);
		drm_gpuvm_put(&vm->base);
	}
}

struct bpfdrv_accel_vm *bpfdrv_accel_vm_get(struct bpfdrv_accel_vms *s,
					    struct drm_file *file, u32 id)
{
	struct bpfdrv_accel_vm *vm;

	xa_lock(&s->vms);
	vm = xa_load(&s->vms, id);
	if (vm && vm->owner == file)
		drm_gpuvm_get(&vm->base);
	else
		vm = NULL;
	xa_unlock(&s->vms);
	return vm;
}

void bpfdrv_accel_vm_put(struct bpfdrv_accel_vm *vm)
{
	if (vm)
		drm_gpuvm_put(&vm->base);
}

/* Under vm->lock: the one mapping of [@addr, @addr + @len), or NULL. */
static struct bpfdrv_accel_va *bpfdrv_vm_find(struct bpfdrv_accel_vm *vm,
					      u64 addr, u32 len)
{
	struct drm_gpuva *gva;

	if (!len || addr + len < addr)
		return NULL;
	gva = drm_gpuva_find_first(&vm->base, addr, len);
	if (!gva || gva->va.addr > addr ||
	    addr + len > gva->va.addr + gva->va.range)
		return NULL;
	return to_va(gva);
}

int bpfdrv_accel_vm_copy(struct bpfdrv_accel_vm *vm, u64 addr, void *buf,
			 u32 len, bool store)
{
	struct bpfdrv_accel_va *va;
	unsigned long flags;
	void *p;
	int ret = 0;

	if (len > BPFDRV_VM_COPY_MAX)
		return -E2BIG;
	spin_lock_irqsave(&vm->lock, flags);
	va = bpfdrv_vm_find(vm, addr, len);
	if (!va) {
		ret = -EFAULT;	/* not mapped, or not by one mapping */
	} else {
		p = va->cpu->map.vaddr + va->base.gem.offset + (addr - va->base.va.addr);
		/* the device's while a job holds it: a bounce buffer may be newer */
		if (va->dma_busy)
			dma_sync_sgtable_for_cpu(va->dma_dev, &va->sgt,
						 DMA_BIDIRECTIONAL);
		if (store)
			memcpy(p, buf, len);
		else
			memcpy(buf, p, len);
		if (va->dma_busy)
			dma_sync_sgtable_for_device(va->dma_dev, &va->sgt,
						    DMA_BIDIRECTIONAL);
	}
	spin_unlock_irqrestore(&vm->lock, flags);
	return ret;
}

/* The bus address of @off in @va, if [@off, @off + @len) is one segment. */
static s64 bpfdrv_vm_va_bus(struct bpfdrv_accel_va *va, u64 off, u32 len)
{
	struct scatterlist *sg;
	u64 start = 0;
	u32 i;

	for_each_sgtable_dma_sg(&va->sgt, sg, i) {
		if (off < start + sg_dma_len(sg))
			return off + len <= start + sg_dma_len(sg) ?
			       sg_dma_address(sg) + (off - start) : -E2BIG;
		start += sg_dma_len(sg);
	}
	return -E2BIG;
}

s64 bpfdrv_accel_vm_dma(struct bpfdrv_accel_vm *vm,
			struct bpfdrv_accel_vm_dma *held, u64 addr, u32 len)
{
	struct bpfdrv_accel_va *va;
	unsigned long flags;
	s64 ret;
	u32 i;

	if (!vm->s->dma_dev)
		return vm->s->dma_err;
	spin_lock_irqsave(&vm->lock, flags);
	va = bpfdrv_vm_find(vm, addr, len);
	if (!va) {
		ret = -EFAULT;
		goto out;
	}
	if (!va->dma_dev) {
		ret = -EOPNOTSUPP;	/* imported from another device */
		goto out;
	}
	ret = bpfdrv_vm_va_bus(va, addr - va->base.va.addr, len);
	if (ret < 0)
		goto out;
	for (i = 0; i < held->nr && held->va[i] != va; i++)
		;
	if (i == held->nr) {
		if (held->nr == BPFDRV_JOB_VM_DMA_MAX) {
			ret = -ENOSPC;
			goto out;
		}
		kref_get(&va->ref);
		held->va[held->nr++] = va;
		/* the device's from now: what the CPU wrote reaches it */
		if (!va->dma_busy++)
			dma_sync_sgtable_for_device(va->dma_dev, &va->sgt,
						    DMA_BIDIRECTIONAL);
	}
out:
	spin_unlock_irqrestore(&vm->lock, flags);
	return ret;
}

void bpfdrv_accel_vm_dma_end(struct bpfdrv_accel_vm *vm,
			     struct bpfdrv_accel_vm_dma *held)
{
	unsigned long flags;
	u32 i;

	if (!held->nr)
		return;
	spin_lock_irqsave(&vm->lock, flags);
	for (i = 0; i < held->nr; i++) {
		/* what the device wrote reaches the CPU */
		if (held->va[i]->dma_dev)
			dma_sync_sgtable_for_cpu(held->va[i]->dma_dev,
						 &held->va[i]->sgt,
						 DMA_BIDIRECTIONAL);
		held->va[i]->dma_busy--;
	}
	spin_unlock_irqrestore(&vm->lock, flags);
}

void bpfdrv_accel_vm_dma_put(struct bpfdrv_accel_vm_dma *held)
{
	while (held->nr)
		bpfdrv_vm_va_put(held->va[--held->nr]);
}

/* The sync bind's in-fence, waited for (interruptibly, bounded) first. */
static int bpfdrv_vm_bind_wait(struct drm_file *file,
			       const struct drm_bpfdrv_vm_bind *args)
{
	struct dma_fence *fence;
	long t;
	int ret;

	if (!args->in_syncobj)
		return 0;
	ret = drm_syncobj_find_fence(file, args->in_syncobj, args->in_point, 0,
				     &fence);
	if (ret)
		return ret;
	t = dma_fence_wait_timeout(fence, true, BPFDRV_VM_BIND_WAIT);
	ret = fence->error;
	dma_fence_put(fence);
	if (t < 0)
		return t;
	if (!t)
		return -ETIMEDOUT;
	return ret;
}

/* Where a bind's fence goes: out_syncobj, and a chain link for a point */
struct bpfdrv_vm_out {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

static int bpfdrv_vm_out_get(struct drm_file *file,
			     const struct drm_bpfdrv_vm_bind *args,
			     struct bpfdrv_vm_out *out)
{
	out->syncobj = NULL;
	out->chain = NULL;
	out->point = args->out_point;
	if (!args->out_syncobj)
		return 0;
	out->syncobj = drm_syncobj_find(file, args->out_syncobj);
	if (!out->syncobj)
		return -ENOENT;
	if (out->point) {
		out->chain = dma_fence_chain_alloc();
		if (!out->chain) {
			drm_syncobj_put(out->syncobj);
			out->syncobj = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/* @fence (the bind's; a signalled stub for a sync one) given, or dropped */
static void bpfdrv_vm_out_put(struct bpfdrv_vm_out *out,
			      struct dma_fence *fence)
{
	if (!out->syncobj)
		return;
	if (fence && out->chain)
		drm_syncobj_add_point(out->syncobj, out->chain, fence,
				      out->point);
	else if (fence)
		drm_syncobj_replace_fence(out->syncobj, fence);
	else
		dma_fence_chain_free(out->chain);
	drm_syncobj_put(out->syncobj);
}

static int bpfdrv_vm_bind_valid(const struct bpfdrv_accel_vms *s,
				const struct drm_bpfdrv_vm_bind *args)
{
	u64 mask = BPFDRV_ACCEL_VA_PAGE - 1;

	if (args->flags & ~BPFDRV_VM_BIND_ASYNC ||
	    args->op > BPFDRV_VM_BIND_UNMAP ||
	    (args->out_point && !args->out_syncobj) ||
	    (args->in_point && !args->in_syncobj) ||
	    (args->addr | args->range | args->bo_offset) & mask ||
	    !args->range || args->addr < BPFDRV_ACCEL_VA_PAGE ||
	    args->addr + args->range < args->addr ||
	    args->addr + args->range > bpfdrv_vm_end(s))
		return -EINVAL;
	if (args->op == BPFDRV_VM_BIND_UNMAP && (args->handle || args->bo_offset))
		return -EINVAL;
	return 0;
}

/* Under bind_lock: @b's steps, from drm_gpuvm. */
static int bpfdrv_vm_bind_steps(struct bpfdrv_vm_bind_op *b)
{
	struct bpfdrv_accel_vm *vm = b->vm;
	const struct drm_bpfdrv_vm_bind *args = &b->args;

	if (args->op == BPFDRV_VM_BIND_UNMAP)
		return drm_gpuvm_sm_unmap(&vm->base, b, args->addr, args->range);
#ifdef BPFDRV_GPUVM_MAP_REQ
	{
		struct drm_gpuvm_map_req req = {
			.map.va.addr = args->addr,
			.map.va.range = args->range,
			.map.gem.obj = b->obj,
			.map.gem.offset = args->bo_offset,
		};

		return drm_gpuvm_sm_map(&vm->base, b, &req);
	}
#else
	return drm_gpuvm_sm_map(&vm->base, b, args->addr, args->range, b->obj,
				args->bo_offset);
#endif
}

/*
 * Run @b: no allocation that may sleep, no wait, so that a queued bind's
 * fence signals as the dma-fence rules require. The unplug waits for it:
 * no mapping is made after the instance's DMA was revoked.
 */
static int bpfdrv_vm_bind_run(struct bpfdrv_vm_bind_op *b)
{
	struct bpfdrv_accel_vm *vm = b->vm;
	int ret, idx;

	if (!drm_dev_enter(vm->s->drm, &idx))
		return -ENODEV;
	mutex_lock(&vm->bind_lock);
	ret = vm->owner ? bpfdrv_vm_bind_steps(b) : -ENOENT;
	mutex_unlock(&vm->bind_lock);
	drm_dev_exit(idx);
	return ret;
}

/*
 * @b made ready: its VM and buffer held, its new mapping mapped for the
 * CPU and the device, spares for the pieces of cut mappings.
 */
static struct bpfdrv_vm_bind_op *
bpfdrv_vm_bind_prepare(struct bpfdrv_accel_vms *s, struct drm_file *file,
		       const struct drm_bpfdrv_vm_bind *args)
{
	struct bpfdrv_vm_bind_op *b;
	struct bpfdrv_vm_cpu *cpu;
	int i, ret = -ENOMEM;

	b = kzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT);
	if (!b)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&b->gone);
	b->args = *args;
	b->vm = bpfdrv_accel_vm_get(s, file, args->vm_id);
	if (!b->vm) {
		kfree(b);
		return ERR_PTR(-ENOENT);
	}
	for (i = 0; i < ARRAY_SIZE(b->spare); i++) {
		b->spare[i] = bpfdrv_vm_va_alloc();
		if (!b->spare[i])
			goto fail;
	}
	if (args->op != BPFDRV_VM_BIND_MAP)
		return b;
	b->obj = drm_gem_object_lookup(file, args->handle);
	if (!b->obj) {
		ret = -ENOENT;
		goto fail;
	}
	if (args->bo_offset >= b->obj->size ||
	    args->range > b->obj->size - args->bo_offset) {
		ret = -EINVAL;
		goto fail;
	}
	b->va_new = bpfdrv_vm_va_alloc();
	if (!b->va_new)
		goto fail;
	cpu = bpfdrv_vm_cpu_new(b->obj);
	if (IS_ERR(cpu)) {
		ret = PTR_ERR(cpu);
		goto fail;
	}
	ret = bpfdrv_vm_va_place(b->vm, b->va_new, cpu, args->bo_offset,
				 args->range, GFP_KERNEL);
	kref_put(&cpu->ref, bpfdrv_vm_cpu_release);	/* the mapping's now */
	if (ret)
		goto fail;
	return b;
fail:
	bpfdrv_vm_bind_op_free(b);
	return ERR_PTR(ret);
}

static const char *bpfdrv_vm_fence_driver(struct dma_fence *fence)
{
	return "bpfdrv_accel";
}

static const char *bpfdrv_vm_fence_timeline(struct dma_fence *fence)
{
	return "vm_bind";
}

static void bpfdrv_vm_fence_release(struct dma_fence *fence)
{
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops bpfdrv_vm_fence_ops = {
	.get_driver_name = bpfdrv_vm_fence_driver,
	.get_timeline_name = bpfdrv_vm_fence_timeline,
	.release = bpfdrv_vm_fence_release,
};

/*
 * A queued bind's in-fence, waited for in its work: at most
 * BPFDRV_VM_BIND_WAIT, and not at all once its VM is closing.
 */
static int bpfdrv_vm_queued_wait(struct bpfdrv_vm_bind_op *b)
{
	unsigned long end = jiffies + BPFDRV_VM_BIND_WAIT;
	long t;

	if (!b->in_fence)
		return 0;
	do {
		if (READ_ONCE(b->vm->closing))
			return -ENOENT;
		t = dma_fence_wait_timeout(b->in_fence, false, HZ / 10);
		if (t)
			return t < 0 ? t : b->in_fence->error;
	} while (time_before(jiffies, end));
	return -ETIMEDOUT;
}

/* The queued binds of a VM, one after the other, each fence in order. */
static void bpfdrv_vm_queue_work(struct work_struct *work)
{
	struct bpfdrv_accel_vm *vm = container_of(work, struct bpfdrv_accel_vm,
						  bind_work);
	struct bpfdrv_vm_bind_op *b;
	bool cookie;
	int ret;

	for (;;) {
		spin_lock(&vm->queue_lock);
		b = list_first_entry_or_null(&vm->queue, struct bpfdrv_vm_bind_op,
					     node);
		spin_unlock(&vm->queue_lock);
		if (!b)
			break;
		ret = bpfdrv_vm_queued_wait(b);
		cookie = dma_fence_begin_signalling();
		if (!ret)
			ret = READ_ONCE(vm->closing) ? -ENOENT :
			      bpfdrv_vm_bind_run(b);
		if (ret)
			dma_fence_set_error(b->fence, ret);
		dma_fence_signal(b->fence);
		dma_fence_end_signalling(cookie);
		spin_lock(&vm->queue_lock);
		list_del(&b->node);
		vm->queued--;
		spin_unlock(&vm->queue_lock);
		bpfdrv_vm_bind_op_free(b);	/* the queue held the VM too */
	}
}

/*
 * BPFDRV_VM_BIND_ASYNC: @b queued behind the VM's others; its fence, to
 * out_syncobj now, signals once it ran (its error, if it failed).
 */
static int bpfdrv_vm_bind_queue(struct bpfdrv_vm_bind_op *b,
				struct drm_file *file)
{
	struct bpfdrv_accel_vm *vm = b->vm;
	struct bpfdrv_vm_fence *f;
	struct bpfdrv_vm_out out;
	struct dma_fence *in;
	int ret;

	if (b->args.in_syncobj) {
		ret = drm_syncobj_find_fence(file, b->args.in_syncobj,
					     b->args.in_point, 0, &in);
		if (ret)
			return ret;
		b->in_fence = in;
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	ret = bpfdrv_vm_out_get(file, &b->args, &out);
	if (ret) {
		kfree(f);
		return ret;
	}
	spin_lock_init(&f->lock);
	spin_lock(&vm->queue_lock);
	if (vm->closing || vm->queued >= BPFDRV_VM_BIND_QUEUED_MAX) {
		ret = vm->closing ? -ENOENT : -EBUSY;
		spin_unlock(&vm->queue_lock);
		bpfdrv_vm_out_put(&out, NULL);
		kfree(f);
		return ret;
	}
	__module_get(THIS_MODULE);	/* the fence's ops: put by its release */
	/* numbered in the queue's order, which is the order they signal */
	dma_fence_init(&f->base, &bpfdrv_vm_fence_ops, &f->lock,
		       vm->fence_context, ++vm->fence_seqno);
	b->fence = dma_fence_get(&f->base);	/* and one for out_syncobj */
	list_add_tail(&b->node, &vm->queue);
	vm->queued++;
	spin_unlock(&vm->queue_lock);
	bpfdrv_vm_out_put(&out, &f->base);
	dma_fence_put(&f->base);
	queue_work(system_unbound_wq, &vm->bind_work);
	return 0;
}

int bpfdrv_accel_vm_bind(struct bpfdrv_accel_vms *s, struct drm_file *file,
			 struct drm_bpfdrv_vm_bind *args)
{
	struct bpfdrv_vm_bind_op *b;
	struct bpfdrv_vm_out out;
	struct dma_fence *stub;
	bool queued;
	int ret;

	if (!s->va_bits)
		return -EOPNOTSUPP;
	ret = bpfdrv_vm_bind_valid(s, args);
	if (ret)
		return ret;
	b = bpfdrv_vm_bind_prepare(s, file, args);
	if (IS_ERR(b))
		return PTR_ERR(b);
	if (args->flags & BPFDRV_VM_BIND_ASYNC) {
		ret = bpfdrv_vm_bind_queue(b, file);
		if (ret)
			bpfdrv_vm_bind_op_free(b);
		return ret;
	}
	ret = bpfdrv_vm_bind_wait(file, args);
	if (ret)
		goto out;
	/* after the queued ones only: wait for the last one's fence first */
	spin_lock(&b->vm->queue_lock);
	queued = b->vm->queued;
	spin_unlock(&b->vm->queue_lock);
	if (queued) {
		ret = -EBUSY;
		goto out;
	}
	ret = bpfdrv_vm_out_get(file, args, &out);
	if (ret)
		goto out;
	ret = bpfdrv_vm_bind_run(b);
	stub = ret ? NULL : dma_fence_get_stub();
	bpfdrv_vm_out_put(&out, stub);
	dma_fence_put(stub);
out:
	bpfdrv_vm_bind_op_free(b);
	return ret;
}
