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
 * tree takes. Binds are serialized by a mutex per VM and run in the
 * ioctl; the driver is called without the spinlock.
 *
 * For a driver whose PCI function masters the bus (accel_dma_bits), a
 * mapping's pages are also mapped for the function's DMA when it is made,
 * once, until it goes (not per job). A job that asks where its device
 * reaches a mapping holds the mapping until the job is freed, so that a
 * bind cannot take the pages from under a transfer; the mapping is synced
 * for the device at that call and for the CPU when the job ends. When the
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
	struct mutex bind_lock;		/* one bind at a time */
	spinlock_t lock;		/* the tree, for the kfuncs */
};

/* A mapping: its buffer held and mapped for the CPU while it lives. */
struct bpfdrv_accel_va {
	struct drm_gpuva base;
	struct kref ref;		/* the tree's; jobs' that reached it */
	struct drm_gem_object *obj;
	struct iosys_map map;
	struct sg_table sgt;		/* the range's pages, for dma_dev */
	struct device *dma_dev;		/* NULL: not (or no more) mapped */
	u32 dma_busy;			/* running jobs it is the device's for */
};

static inline struct bpfdrv_accel_vm *to_vm(struct drm_gpuvm *gpuvm)
{
	return container_of(gpuvm, struct bpfdrv_accel_vm, base);
}

static inline struct bpfdrv_accel_va *to_va(struct drm_gpuva *va)
{
	return container_of(va, struct bpfdrv_accel_va, base);
}

/* What a bind hands its steps: the buffer's handle, for the driver. */
struct bpfdrv_vm_bind_ctx {
	struct bpfdrv_accel_vm *vm;
	u32 handle;
};

/*
 * The pages of [@offset, @offset + @range) of @va's buffer (pinned by its
 * vmap) mapped for @dev's DMA. A buffer imported from another device is
 * its exporter's to map: it stays unmapped.
 */
static int bpfdrv_vm_va_dma_map(struct bpfdrv_accel_va *va, struct device *dev,
				u64 offset, u64 range)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(va->obj);
	int ret;

	if (!dev || va->obj->import_attach)
		return 0;
	ret = sg_alloc_table_from_pages(&va->sgt, shmem->pages +
					(offset >> PAGE_SHIFT),
					range >> PAGE_SHIFT, 0, range,
					GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	ret = dma_map_sgtable(dev, &va->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret) {
		sg_free_table(&va->sgt);
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

/* A new mapping for the tree: its buffer held and mapped for the CPU. */
static struct bpfdrv_accel_va *bpfdrv_vm_va_new(struct bpfdrv_accel_vm *vm,
						struct drm_gem_object *obj,
						u64 offset, u64 range)
{
	struct bpfdrv_accel_va *va = kzalloc(sizeof(*va), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!va)
		return ERR_PTR(-ENOMEM);
	ret = bpfdrv_vm_vmap(obj, &va->map);
	if (!ret && va->map.is_iomem) {
		bpfdrv_vm_vunmap(obj, &va->map);
		ret = -EINVAL;	/* the kfuncs copy with memcpy() */
	}
	if (ret) {
		kfree(va);
		return ERR_PTR(ret);
	}
	kref_init(&va->ref);
	va->obj = obj;
	ret = bpfdrv_vm_va_dma_map(va, vm->s->dma_dev, offset, range);
	if (ret) {
		bpfdrv_vm_vunmap(obj, &va->map);
		kfree(va);
		return ERR_PTR(ret);
	}
	drm_gem_object_get(obj);
	return va;
}

static void bpfdrv_vm_va_release(struct kref *ref)
{
	struct bpfdrv_accel_va *va = container_of(ref, struct bpfdrv_accel_va,
						  ref);

	bpfdrv_vm_va_dma_unmap(va);
	if (va->sgt.sgl)
		sg_free_table(&va->sgt);
	bpfdrv_vm_vunmap(va->obj, &va->map);
	drm_gem_object_put(va->obj);
	kfree(va);
}

/* A mapping out of the tree (or never in it): gone with its last job. */
static void bpfdrv_vm_va_put(struct bpfdrv_accel_va *va)
{
	kref_put(&va->ref, bpfdrv_vm_va_release);
}

/* The driver's page tables lose [@addr, @addr + @range): it cannot refuse */
static void bpfdrv_vm_driver_unmap(struct bpfdrv_accel_vm *vm, u64 addr,
				   u64 range)
{
	bpfdrv_call_void(vm->s->bdev, BPFDRV_CALL_RELEASE,
			 BPFDRV_CB_ACCEL_VM_UNMAP, accel_vm_unmap, vm->id, addr,
			 range);
}

static int bpfdrv_vm_step_map(struct drm_gpuva_op *op, void *priv)
{
	struct bpfdrv_vm_bind_ctx *ctx = priv;
	struct bpfdrv_accel_vm *vm = ctx->vm;
	struct drm_gpuva_op_map *m = &op->map;
	struct bpfdrv_accel_va *va;
	unsigned long flags;
	int ret;

	va = bpfdrv_vm_va_new(vm, m->gem.obj, m->gem.offset, m->va.range);
	if (IS_ERR(va))
		return PTR_ERR(va);
	ret = bpfdrv_call(vm->s->bdev, BPFDRV_CALL_LIVE,
			  BPFDRV_CB_ACCEL_VM_MAP, accel_vm_map, 0, 0, vm->id,
			  m->va.addr, m->va.range, ctx->handle, m->gem.offset);
	if (ret) {
		bpfdrv_vm_va_put(va);
		return ret;
	}
	spin_lock_irqsave(&vm->lock, flags);
	drm_gpuva_map(&vm->base, &va->base, m);
	spin_unlock_irqrestore(&vm->lock, flags);
	return 0;
}

/*
 * A mapping cut: the driver unmaps the part that goes, and what is left
 * before and after it becomes mappings of their own.
 */
static int bpfdrv_vm_step_remap(struct drm_gpuva_op *op, void *priv)
{
	struct bpfdrv_vm_bind_ctx *ctx = priv;
	struct bpfdrv_accel_vm *vm = ctx->vm;
	struct drm_gpuva_op_remap *r = &op->remap;
	struct drm_gpuva *old = r->unmap->va;
	struct drm_gem_object *obj = old->gem.obj;
	struct bpfdrv_accel_va *prev = NULL, *next = NULL;
	u64 start = old->va.addr, end = old->va.addr + old->va.range;
	unsigned long flags;

	if (r->prev) {
		prev = bpfdrv_vm_va_new(vm, obj, r->prev->gem.offset,
					r->prev->va.range);
		if (IS_ERR(prev))
			return PTR_ERR(prev);
		start = r->prev->va.addr + r->prev->va.range;
	}
	if (r->next) {
		next = bpfdrv_vm_va_new(vm, obj, r->next->gem.offset,
					r->next->va.range);
		if (IS_ERR(next)) {
			if (prev)
				bpfdrv_vm_va_put(prev);
			return PTR_ERR(next);
		}
		end = r->next->va.addr;
	}
	bpfdrv_vm_driver_unmap(vm, start, end - start);
	spin_lock_irqsave(&vm->lock, flags);
	drm_gpuva_remap(prev ? &prev->base : NULL, next ? &next->base : NULL, r);
	spin_unlock_irqrestore(&vm->lock, flags);
	bpfdrv_vm_va_put(to_va(old));
	return 0;
}

static int bpfdrv_vm_step_unmap(struct drm_gpuva_op *op, void *priv)
{
	struct bpfdrv_vm_bind_ctx *ctx = priv;
	struct bpfdrv_accel_vm *vm = ctx->vm;
	struct drm_gpuva *va = op->unmap.va;
	unsigned long flags;

	bpfdrv_vm_driver_unmap(vm, va->va.addr, va->va.range);
	spin_lock_irqsave(&vm->lock, flags);
	drm_gpuva_unmap(&op->unmap);
	spin_unlock_irqrestore(&vm->lock, flags);
	bpfdrv_vm_va_put(to_va(va));
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

/* Everything in @vm unmapped (the driver told), and its file's no more. */
static void bpfdrv_vm_empty(struct bpfdrv_accel_vm *vm)
{
	struct bpfdrv_vm_bind_ctx ctx = { .vm = vm };
	u64 start = BPFDRV_ACCEL_VA_PAGE;

	mutex_lock(&vm->bind_lock);
	/* the whole VM, whose steps unmap only: nothing can fail */
	drm_gpuvm_sm_unmap(&vm->base, &ctx, start, bpfdrv_vm_end(vm->s) - start);
	vm->owner = NULL;
	mutex_unlock(&vm->bind_lock);
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
		p = va->map.vaddr + va->base.gem.offset + (addr - va->base.va.addr);
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

/* The in-fence, waited for (interruptibly, bounded) before the bind. */
static int bpfdrv_vm_bind_wait(struct drm_file *file,
			       const struct drm_bpfdrv_vm_bind *args)
{
	struct dma_fence *fence;
	long t;
	int ret;

	if (!args->in_syncobj)
		return args->in_point ? -EINVAL : 0;
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

/* The bind is done: the out-syncobj gets a signalled fence. */
static int bpfdrv_vm_bind_signal(struct drm_file *file,
				 const struct drm_bpfdrv_vm_bind *args)
{
	struct dma_fence_chain *chain = NULL;
	struct drm_syncobj *out;
	struct dma_fence *stub;

	if (!args->out_syncobj)
		return 0;
	out = drm_syncobj_find(file, args->out_syncobj);
	if (!out)
		return -ENOENT;
	if (args->out_point) {
		chain = dma_fence_chain_alloc();
		if (!chain) {
			drm_syncobj_put(out);
			return -ENOMEM;
		}
	}
	stub = dma_fence_get_stub();
	if (chain)
		drm_syncobj_add_point(out, chain, stub, args->out_point);
	else
		drm_syncobj_replace_fence(out, stub);
	dma_fence_put(stub);
	drm_syncobj_put(out);
	return 0;
}

static int bpfdrv_vm_bind_valid(const struct bpfdrv_accel_vms *s,
				const struct drm_bpfdrv_vm_bind *args)
{
	u64 mask = BPFDRV_ACCEL_VA_PAGE - 1;

	if (args->flags || args->op > BPFDRV_VM_BIND_UNMAP ||
	    (args->out_point && !args->out_syncobj) ||
	    (args->addr | args->range | args->bo_offset) & mask ||
	    !args->range || args->addr < BPFDRV_ACCEL_VA_PAGE ||
	    args->addr + args->range < args->addr ||
	    args->addr + args->range > bpfdrv_vm_end(s))
		return -EINVAL;
	if (args->op == BPFDRV_VM_BIND_UNMAP && (args->handle || args->bo_offset))
		return -EINVAL;
	return 0;
}

static int bpfdrv_vm_sm_map(struct bpfdrv_accel_vm *vm,
			    struct bpfdrv_vm_bind_ctx *ctx,
			    const struct drm_bpfdrv_vm_bind *args,
			    struct drm_gem_object *obj)
{
#ifdef BPFDRV_GPUVM_MAP_REQ
	struct drm_gpuvm_map_req req = {
		.map.va.addr = args->addr,
		.map.va.range = args->range,
		.map.gem.obj = obj,
		.map.gem.offset = args->bo_offset,
	};

	return drm_gpuvm_sm_map(&vm->base, ctx, &req);
#else
	return drm_gpuvm_sm_map(&vm->base, ctx, args->addr, args->range, obj,
				args->bo_offset);
#endif
}

int bpfdrv_accel_vm_bind(struct bpfdrv_accel_vms *s, struct drm_file *file,
			 struct drm_bpfdrv_vm_bind *args)
{
	struct bpfdrv_vm_bind_ctx ctx = { .handle = args->handle };
	struct drm_gem_object *obj = NULL;
	struct bpfdrv_accel_vm *vm;
	int ret, idx;

	if (!s->va_bits)
		return -EOPNOTSUPP;
	ret = bpfdrv_vm_bind_valid(s, args);
	if (ret)
		return ret;
	vm = bpfdrv_accel_vm_get(s, file, args->vm_id);
	if (!vm)
		return -ENOENT;
	ctx.vm = vm;
	if (args->op == BPFDRV_VM_BIND_MAP) {
		obj = drm_gem_object_lookup(file, args->handle);
		if (!obj) {
			ret = -ENOENT;
			goto out;
		}
		if (args->bo_offset >= obj->size ||
		    args->range > obj->size - args->bo_offset) {
			ret = -EINVAL;
			goto out;
		}
	}
	ret = bpfdrv_vm_bind_wait(file, args);
	if (ret)
		goto out;
	/* the unplug waits for it: no mapping made after the revoke */
	if (!drm_dev_enter(s->drm, &idx)) {
		ret = -ENODEV;
		goto out;
	}
	mutex_lock(&vm->bind_lock);
	if (!vm->owner)
		ret = -ENOENT;	/* destroyed meanwhile */
	else if (obj)
		ret = bpfdrv_vm_sm_map(vm, &ctx, args, obj);
	else
		ret = drm_gpuvm_sm_unmap(&vm->base, &ctx, args->addr,
					 args->range);
	mutex_unlock(&vm->bind_lock);
	drm_dev_exit(idx);
	if (!ret)
		ret = bpfdrv_vm_bind_signal(file, args);
out:
	if (obj)
		drm_gem_object_put(obj);
	bpfdrv_accel_vm_put(vm);
	return ret;
}
