// SPDX-License-Identifier: GPL-2.0
/*
 * The accelerator class as a part of an instance: the declaration's check
 * and the plug of bpfdrv_accel.ko (accel_drm.c), which holds the DRM side.
 * DRM is a module of its own on most kernels; keeping it out of bpfdrv.ko
 * lets bpfdrv.ko load where DRM is absent or unwanted, and loads DRM only
 * for a driver that asks for it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/dma-mapping.h>
#include <linux/kmod.h>
#include <linux/module.h>

#include "bpfdrv.h"
#include "pci.h"
#include "accel.h"
#include "parts.h"
#include "kfuncs.h"

static DEFINE_MUTEX(bpfdrv_accel_lock);
static const struct bpfdrv_accel_class *bpfdrv_accel_cls;

int bpfdrv_accel_register(const struct bpfdrv_accel_class *cls)
{
	int ret = 0;

	mutex_lock(&bpfdrv_accel_lock);
	if (bpfdrv_accel_cls)
		ret = -EBUSY;
	else
		bpfdrv_accel_cls = cls;
	mutex_unlock(&bpfdrv_accel_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(bpfdrv_accel_register);

/* Its module goes: no instance pins it, so none has the class. */
void bpfdrv_accel_unregister(const struct bpfdrv_accel_class *cls)
{
	mutex_lock(&bpfdrv_accel_lock);
	if (bpfdrv_accel_cls == cls)
		bpfdrv_accel_cls = NULL;
	mutex_unlock(&bpfdrv_accel_lock);
}
EXPORT_SYMBOL_GPL(bpfdrv_accel_unregister);

/* The class, pinned; loads its module on first use. NULL: none. */
static const struct bpfdrv_accel_class *bpfdrv_accel_get(void)
{
	const struct bpfdrv_accel_class *cls;

	mutex_lock(&bpfdrv_accel_lock);
	cls = bpfdrv_accel_cls;
	mutex_unlock(&bpfdrv_accel_lock);
	if (!cls)
		request_module("bpfdrv_accel");

	mutex_lock(&bpfdrv_accel_lock);
	cls = bpfdrv_accel_cls;
	if (cls && !try_module_get(cls->owner))
		cls = NULL;
	mutex_unlock(&bpfdrv_accel_lock);
	return cls;
}

static bool bpfdrv_accel_ioctl_name_valid(const char *name)
{
	size_t i, len = strnlen(name, BPFDRV_ACCEL_IOCTL_NAME_MAX);

	if (!len || len == BPFDRV_ACCEL_IOCTL_NAME_MAX || isdigit(name[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!isupper(name[i]) && !isdigit(name[i]) && name[i] != '_')
			return false;
	return true;
}

static unsigned int bpfdrv_accel_ioctl_count(const struct chr_ext_ops *ops)
{
	unsigned int n = 0;

	while (n < BPFDRV_ACCEL_IOCTLS_MAX && ops->accel_ioctls[n].name[0])
		n++;
	return n;
}

static int bpfdrv_accel_ioctls_valid(const struct chr_ext_ops *ops)
{
	unsigned int i, j, n = bpfdrv_accel_ioctl_count(ops);

	for (i = n; i < BPFDRV_ACCEL_IOCTLS_MAX; i++) {
		if (memchr_inv(&ops->accel_ioctls[i], 0,
			       sizeof(ops->accel_ioctls[i]))) {
			pr_info("driver %s: accel ioctl %u follows the end of its accel_ioctls (an entry with an empty name)\n",
				ops->name, i);
			return -EINVAL;
		}
	}
	for (i = 0; i < n; i++) {
		const struct bpfdrv_accel_ioctl *d = &ops->accel_ioctls[i];

		if (!bpfdrv_accel_ioctl_name_valid(d->name)) {
			pr_info("driver %s: invalid name for accel ioctl %u (want 1-%d of [A-Z0-9_], not starting with a digit)\n",
				ops->name, i, BPFDRV_ACCEL_IOCTL_NAME_MAX - 1);
			return -EINVAL;
		}
		if (d->size > BPFDRV_ACCEL_IOCTL_SIZE_MAX ||
		    d->dir & ~(BPFDRV_ACCEL_IN | BPFDRV_ACCEL_OUT) ||
		    !d->size != !d->dir) {
			pr_info("driver %s: accel ioctl %s: size %u and dir %#x (want both 0, or size 1..%u and dir IN, OUT or both)\n",
				ops->name, d->name, d->size, d->dir,
				BPFDRV_ACCEL_IOCTL_SIZE_MAX);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(ops->accel_ioctls[j].name, d->name)) {
				pr_info("driver %s: accel ioctl %s is declared twice\n",
					ops->name, d->name);
				return -EINVAL;
			}
		}
	}
	if (n && !ops->accel_ioctl) {
		pr_info("driver %s declares accel ioctls but has no accel_ioctl callback\n",
			ops->name);
		return -EINVAL;
	}
	return 0;
}

static int bpfdrv_accel_jobs_valid(const struct chr_ext_ops *ops)
{
	if (ops->accel_rings > BPFDRV_ACCEL_RINGS_MAX ||
	    ops->accel_timeout_ms > BPFDRV_ACCEL_TIMEOUT_MS_MAX ||
	    ops->accel_ring_jobs > BPFDRV_ACCEL_RING_JOBS_MAX) {
		pr_info("driver %s: %u accel rings of %u jobs, a %u ms job timeout (at most %u, %u and %u)\n",
			ops->name, ops->accel_rings, ops->accel_ring_jobs,
			ops->accel_timeout_ms, BPFDRV_ACCEL_RINGS_MAX,
			BPFDRV_ACCEL_RING_JOBS_MAX, BPFDRV_ACCEL_TIMEOUT_MS_MAX);
		return -EINVAL;
	}
	if (!ops->accel_rings != !ops->accel_run_job) {
		pr_info("driver %s: accel rings need an accel_run_job callback, and it rings\n",
			ops->name);
		return -EINVAL;
	}
	if (ops->accel_ring_jobs && !ops->accel_rings) {
		pr_info("driver %s has accel_ring_jobs but no accel rings\n",
			ops->name);
		return -EINVAL;
	}
	if (ops->accel_timeout && !ops->accel_run_job) {
		pr_info("driver %s has accel_timeout but no accel_run_job\n",
			ops->name);
		return -EINVAL;
	}
	if (ops->accel_dma_bits &&
	    (ops->accel_dma_bits < BPFDRV_ACCEL_DMA_BITS_MIN ||
	     ops->accel_dma_bits > 64 || !ops->accel_rings ||
	     !bpfdrv_driver_is_pci(ops))) {
		pr_info("driver %s: accel_dma_bits %u (want 0, or %u..64 in a PCI driver with accel rings)\n",
			ops->name, ops->accel_dma_bits,
			BPFDRV_ACCEL_DMA_BITS_MIN);
		return -EINVAL;
	}
	if (ops->accel_va_bits &&
	    (ops->accel_va_bits < BPFDRV_ACCEL_VA_BITS_MIN ||
	     ops->accel_va_bits > BPFDRV_ACCEL_VA_BITS_MAX)) {
		pr_info("driver %s: accel_va_bits %u (want 0, or %u..%u)\n",
			ops->name, ops->accel_va_bits, BPFDRV_ACCEL_VA_BITS_MIN,
			BPFDRV_ACCEL_VA_BITS_MAX);
		return -EINVAL;
	}
	if ((ops->accel_vm_map || ops->accel_vm_unmap) && !ops->accel_va_bits) {
		pr_info("driver %s has accel_vm_map or accel_vm_unmap but no accel_va_bits\n",
			ops->name);
		return -EINVAL;
	}
	return 0;
}

static int bpfdrv_accel_valid(const struct chr_ext_ops *ops)
{
	const struct bpfdrv_accel_class *cls;
	int ret;

	if (ops->accel > 1) {
		pr_info("driver %s: accel is %u (want 0 or 1)\n", ops->name,
			ops->accel);
		return -EINVAL;
	}
	ret = bpfdrv_accel_ioctls_valid(ops) ?: bpfdrv_accel_jobs_valid(ops);
	if (ret)
		return ret;
	if (!ops->accel) {
		if (bpfdrv_accel_ioctl_count(ops) || ops->accel_ioctl ||
		    ops->accel_get_param || ops->accel_va_bits ||
		    ops->accel_rings || ops->accel_dma_bits ||
		    ops->accel_ring_jobs) {
			pr_info("driver %s has accel ioctls or rings but is no accelerator (accel = 0)\n",
				ops->name);
			return -EINVAL;
		}
		return 0;
	}
	/* refused at load, with the reason, rather than per instance */
	cls = bpfdrv_accel_get();
	if (!cls) {
		return bpfdrv_refuse_err(-EOPNOTSUPP,
					 "driver %s is an accelerator, but bpfdrv_accel.ko (the DRM accel class) cannot be loaded",
					 ops->name);
	}
	module_put(cls->owner);
	return 0;
}

static int bpfdrv_accel_claim(struct bpfdrv_device *bdev)
{
	if (!bdev->ops->accel)
		return 0;
	bdev->accel_cls = bpfdrv_accel_get();
	if (!bdev->accel_cls) {
		dev_info(&bdev->dev, "the DRM accel class went away\n");
		return -ENODEV;
	}
	return 0;
}

/*
 * Job buffers for the PCI function's DMA: the function must master the
 * bus, which only an IOMMU (or the admin's opt-in) allows (iommu.c).
 * Without it the instance still serves, and bpfdrv_job_bo_dma() says why.
 */
static void bpfdrv_accel_dma_setup(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	u32 bits = bdev->ops->accel_dma_bits;
	int err;

	bdev->accel_dma_dev = NULL;
	bdev->accel_dma_err = -EOPNOTSUPP;
	if (!bits)
		return;
	err = fn ? bpfdrv_pci_set_master(fn) : -ENODEV;
	if (!err && dma_set_mask_and_coherent(&fn->pdev->dev, DMA_BIT_MASK(bits)))
		err = -EIO;
	bdev->accel_dma_err = err;
	if (err)
		dev_info(&bdev->dev, "its job buffers are not mapped for DMA: %d\n",
			 err);
	else
		bdev->accel_dma_dev = &fn->pdev->dev;
}

static int bpfdrv_accel_add(struct bpfdrv_device *bdev)
{
	if (!bdev->accel_cls)
		return 0;
	bpfdrv_accel_dma_setup(bdev);
	return bdev->accel_cls->add(bdev);
}

static void bpfdrv_accel_del(struct bpfdrv_device *bdev)
{
	if (bdev->accel)
		bdev->accel_cls->del(bdev);
}

/* The class's DRM device let go of the instance: its module may go. */
static void bpfdrv_accel_free(struct bpfdrv_device *bdev)
{
	if (bdev->accel_cls)
		module_put(bdev->accel_cls->owner);
}

/*
 * The job kfuncs: bpfdrv.ko's, so that the allow-list and the kfunc
 * filter treat them as the others, with their work done by the class.
 * bdev->accel is cleared, and an RCU grace period waited for, before the
 * class frees it: each kfunc calls the class inside one RCU read section.
 * @ret is the class's @op on the instance's accelerator, or -ENODEV.
 */
#define bpfdrv_accel_call(dev, ret, op, ...)				\
do {									\
	struct bpfdrv_device *__bdev = to_bpfdrv_device(dev);		\
	void *__accel;							\
									\
	rcu_read_lock();						\
	__accel = READ_ONCE(__bdev->accel);				\
	(ret) = __accel ? __bdev->accel_cls->op(__accel, __VA_ARGS__) :	\
			  -ENODEV;					\
	rcu_read_unlock();						\
} while (0)

/* BPFDRV_JOB_SLOT_BO(ring, slot, bo), taken apart: slot -1 is the oldest */
#define BPFDRV_JOB_RING_OF(ring_bo)	((ring_bo) >> 16)
#define BPFDRV_JOB_SLOT_OF(ring_bo)	((int)(((ring_bo) >> 8) & 0xff) - 1)
#define BPFDRV_JOB_BO_OF(ring_bo)	((ring_bo) & 0xff)

__bpf_kfunc_start_defs();

/**
 * bpfdrv_job_done - end a job on a ring of an accelerator
 * @dev: the instance
 * @ring: the ring
 * @seqno: the job's number, as accel_run_job got it
 * @err: 0, or the -errno its fence is signalled with
 *
 * Callable from every callback, irq_hard included. The job's fence is
 * signalled once the jobs started before it on the ring have ended too.
 *
 * Return: 0; -ENOENT if that job is not on @ring's device (not started,
 * or ended);
 * -EINVAL for an errno out of range; -ENODEV if the instance has no
 * accelerator (any longer).
 */
__bpf_kfunc int bpfdrv_job_done(struct bpfdrv_dev *dev, u32 ring, u64 seqno,
				int err)
{
	int ret;

	if (err > 0 || err < -MAX_ERRNO)
		return -EINVAL;
	bpfdrv_accel_call(dev, ret, job_done, ring, seqno, err);
	return ret;
}

/**
 * bpfdrv_job_slot - the slot of a job on a ring's device (ABI 9)
 * @dev: the instance
 * @ring: the ring
 * @seqno: the job's number, as accel_run_job got it
 *
 * A job keeps its slot from its start to its end: its buffers are
 * BPFDRV_JOB_SLOT_BO(@ring, slot, index) for the job-buffer kfuncs.
 * Callable from every callback, irq_hard included.
 *
 * Return: the slot, 0 to chr_ext_ops.accel_ring_jobs - 1; -ENOENT if that
 * job is not on @ring's device; -ENODEV as bpfdrv_job_done().
 */
__bpf_kfunc int bpfdrv_job_slot(struct bpfdrv_dev *dev, u32 ring, u64 seqno)
{
	int ret;

	bpfdrv_accel_call(dev, ret, job_slot, ring, seqno);
	return ret;
}

/**
 * bpfdrv_job_bo_load - copy from a buffer of a job on a ring's device
 * @dev: the instance
 * @ring_bo: BPFDRV_JOB_BO(ring, index of the buffer in the job's list), or
 *	     BPFDRV_JOB_SLOT_BO(ring, slot, index)
 * @off: the offset in the buffer
 * @dst: where to
 * @dst__sz: bytes
 *
 * The copy runs with interrupts off: at most BPFDRV_JOB_BO_COPY_MAX
 * bytes a call.
 *
 * Return: 0; -ERANGE past the buffer's end; -E2BIG past
 * BPFDRV_JOB_BO_COPY_MAX; -ENOENT if no such job is on the ring's device
 * or it has no such buffer; -ENODEV if the instance has no accelerator.
 */
__bpf_kfunc int bpfdrv_job_bo_load(struct bpfdrv_dev *dev, u32 ring_bo, u32 off,
				   void *dst, u32 dst__sz)
{
	int ret;

	bpfdrv_accel_call(dev, ret, job_bo_copy, BPFDRV_JOB_RING_OF(ring_bo),
			  BPFDRV_JOB_SLOT_OF(ring_bo),
			  BPFDRV_JOB_BO_OF(ring_bo), off, dst, dst__sz, false);
	return ret;
}

/**
 * bpfdrv_job_bo_store - copy into a buffer of a job on a ring's device
 * @dev: the instance
 * @ring_bo: as bpfdrv_job_bo_load()
 * @off: the offset in the buffer
 * @src: where from
 * @src__sz: bytes
 *
 * Return: as bpfdrv_job_bo_load().
 */
__bpf_kfunc int bpfdrv_job_bo_store(struct bpfdrv_dev *dev, u32 ring_bo,
				    u32 off, void *src, u32 src__sz)
{
	int ret;

	bpfdrv_accel_call(dev, ret, job_bo_copy, BPFDRV_JOB_RING_OF(ring_bo),
			  BPFDRV_JOB_SLOT_OF(ring_bo),
			  BPFDRV_JOB_BO_OF(ring_bo), off, src, src__sz, true);
	return ret;
}

/**
 * bpfdrv_job_bo_dma - where the device reaches a job's buffer (ABI 8)
 * @dev: the instance
 * @ring_bo: as bpfdrv_job_bo_load()
 * @off: the offset in the buffer
 * @len: bytes from there, 1 or more, that the device will access
 *
 * A buffer of a job on the ring's device is mapped for the PCI
 * function's DMA (chr_ext_ops.accel_dma_bits) at the first call for it,
 * until the job ends; the device must be done with it by then. Any
 * context, irq_hard included.
 *
 * Return: the bus address of @off; -ERANGE past the buffer's end; -E2BIG
 * if the range is not contiguous on the bus (no IOMMU merged its pages);
 * -ENOENT if no such job is on the ring's device or it has no such buffer;
 * -EOPNOTSUPP if the driver maps no job buffers, or the buffer is
 * imported from another device; -ENOMEM if it cannot be mapped; -EPERM or
 * -EIO if the function may not master the bus (no IOMMU) or drive that
 * many address bits; -ENODEV.
 */
__bpf_kfunc s64 bpfdrv_job_bo_dma(struct bpfdrv_dev *dev, u32 ring_bo, u32 off,
				  u32 len)
{
	s64 ret;

	bpfdrv_accel_call(dev, ret, job_bo_dma, BPFDRV_JOB_RING_OF(ring_bo),
			  BPFDRV_JOB_SLOT_OF(ring_bo),
			  BPFDRV_JOB_BO_OF(ring_bo), off, len);
	return ret;
}

/**
 * bpfdrv_job_vm_load - copy from the VM of a job on a ring's device (ABI 11)
 * @dev: the instance
 * @ring_job: BPFDRV_JOB_BO(ring, 0) or BPFDRV_JOB_SLOT_BO(ring, slot, 0)
 * @addr: the address in the job's VM
 * @dst: where to
 * @dst__sz: bytes, at most BPFDRV_JOB_BO_COPY_MAX
 *
 * The job names a VM (SUBMIT's vm_id); @addr to @addr + @dst__sz lies
 * inside one of its mappings. Any context, irq_hard included.
 *
 * Return: 0; -EFAULT if that range is not mapped by one mapping (now: a
 * bind may have unmapped it); -ENOENT if no such job is on the ring's
 * device or it names no VM; -E2BIG past the copy's limit; -ENODEV.
 */
__bpf_kfunc int bpfdrv_job_vm_load(struct bpfdrv_dev *dev, u32 ring_job,
				   u64 addr, void *dst, u32 dst__sz)
{
	int ret;

	bpfdrv_accel_call(dev, ret, job_vm_copy, BPFDRV_JOB_RING_OF(ring_job),
			  BPFDRV_JOB_SLOT_OF(ring_job), addr, dst, dst__sz,
			  false);
	return ret;
}

/**
 * bpfdrv_job_vm_store - copy into the VM of a job on a ring's device (ABI 11)
 * @dev: the instance
 * @ring_job: as bpfdrv_job_vm_load()
 * @addr: the address in the job's VM
 * @src: where from
 * @src__sz: bytes
 *
 * Return: as bpfdrv_job_vm_load().
 */
__bpf_kfunc int bpfdrv_job_vm_store(struct bpfdrv_dev *dev, u32 ring_job,
				    u64 addr, void *src, u32 src__sz)
{
	int ret;

	bpfdrv_accel_call(dev, ret, job_vm_copy, BPFDRV_JOB_RING_OF(ring_job),
			  BPFDRV_JOB_SLOT_OF(ring_job), addr, src, src__sz,
			  true);
	return ret;
}

/**
 * bpfdrv_job_vm_dma - where the device reaches an address of a job's VM (ABI 12)
 * @dev: the instance
 * @ring_job: as bpfdrv_job_vm_load()
 * @addr: the address in the job's VM
 * @len: bytes from there, 1 or more, that the device will access
 *
 * A mapping of a VM is mapped for the PCI function's DMA
 * (chr_ext_ops.accel_dma_bits) from its bind until its unbind, not per
 * job; the job holds the mappings it asks for (at most
 * BPFDRV_JOB_VM_DMA_MAX) until it is freed, so that an unbind meanwhile
 * does not take their pages from the device. The mapping is synced for
 * the device when the first running job asks for it and for the CPU when
 * each such job ends. Any context,
 * irq_hard included.
 *
 * Return: the bus address of @addr; -EFAULT if @addr to @addr + @len is
 * not inside one mapping; -E2BIG if it is not contiguous on the bus;
 * -ENOSPC if the job holds BPFDRV_JOB_VM_DMA_MAX other mappings;
 * -EOPNOTSUPP if the driver maps nothing for DMA or the buffer is imported
 * from another device; -ENOENT if no such job is on the ring's device or
 * it names no VM; -EPERM or -EIO as bpfdrv_job_bo_dma(); -ENODEV.
 */
__bpf_kfunc s64 bpfdrv_job_vm_dma(struct bpfdrv_dev *dev, u32 ring_job,
				  u64 addr, u32 len)
{
	s64 ret;

	bpfdrv_accel_call(dev, ret, job_vm_dma, BPFDRV_JOB_RING_OF(ring_job),
			  BPFDRV_JOB_SLOT_OF(ring_job), addr, len);
	return ret;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_accel_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_job_done, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_job_slot, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_job_bo_load, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_job_bo_store, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_job_bo_dma, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_job_vm_load, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_job_vm_store, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_job_vm_dma, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_accel_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_accel = {
	.name = "accel",
	.kfuncs = &bpfdrv_accel_kfunc_ids,
	.valid = bpfdrv_accel_valid,
	.claim = bpfdrv_accel_claim,
	.add = bpfdrv_accel_add,
	.del = bpfdrv_accel_del,
	.free = bpfdrv_accel_free,
};
