// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv_accel.ko: the DRM side of the accelerator class. Each instance of
 * a driver that declares chr_ext_ops.accel gets a DRM accel device
 * (/dev/accel/accelN) named after the driver, with shmem-backed GEM
 * buffer objects, their mmap and PRIME sharing, syncobjs, and the driver's
 * own ioctls, whose arguments bpfdrv copies and hands to accel_ioctl.
 *
 * The DRM device's parent is the instance's device, which DRM holds until
 * its last user (a file, a mapping, an exported dma-buf) is gone; after a
 * detach the DRM device is unplugged and the driver is never called again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include "call.h"
#include "../include/bpfdrv_accel.h"

#define BPFDRV_ACCEL_NR_IOCTLS	(DRM_BPFDRV_DRIVER_BASE + BPFDRV_ACCEL_IOCTLS_MAX)

struct bpfdrv_accel {
	struct drm_device *drm;
	struct bpfdrv_device *bdev;	/* the parent: DRM holds it */
	struct drm_driver driver;	/* its name and ioctls, per instance */
	struct drm_ioctl_desc ioctls[BPFDRV_ACCEL_NR_IOCTLS];
	/* the driver's ioctls: no update changes them (update.c) */
	struct bpfdrv_accel_ioctl decl[BPFDRV_ACCEL_IOCTLS_MAX];
	char name[BPFDRV_NAME_MAX];
	atomic64_t bo_bytes;		/* of the buffers it created, live */
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

static struct drm_gem_object *bpfdrv_accel_bo_alloc(struct drm_device *drm,
						    size_t size)
{
	struct bpfdrv_accel_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL);

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

/* The driver's ioctl @nr: its argument copied by drm_ioctl(), at @data. */
static int bpfdrv_accel_driver_ioctl(struct drm_device *drm, void *data,
				     struct drm_file *file, u32 nr)
{
	struct bpfdrv_accel *a = to_accel(drm);
	struct bpfdrv_file_kern *f = file->driver_priv;
	u32 size = a->decl[nr].size;
	struct bpfdrv_io_kern io = {
		.pub.len = size,
		.pub.nonblock = !!(file->filp->f_flags & O_NONBLOCK),
		.data = data,
		.size = size,
	};

	return bpfdrv_call(a->bdev, BPFDRV_CALL_FILE, BPFDRV_CB_ACCEL_IOCTL,
			   accel_ioctl, 0, -ENOTTY, &f->pub, nr, &io.pub);
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
static int bpfdrv_accel_open(struct drm_device *drm, struct drm_file *file)
{
	struct bpfdrv_file_kern *f;

	f = bpfdrv_file_open(to_accel(drm)->bdev, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	file->driver_priv = f;
	return 0;
}

static void bpfdrv_accel_postclose(struct drm_device *drm,
				   struct drm_file *file)
{
	bpfdrv_file_close(file->driver_priv);
}

static int bpfdrv_accel_fop_open(struct inode *inode, struct file *filp)
{
	struct drm_file *file;
	struct bpfdrv_file_kern *f;
	int ret = accel_open(inode, filp);

	if (ret)
		return ret;
	file = filp->private_data;
	f = file->driver_priv;
	WRITE_ONCE(f->pub.f_flags, filp->f_flags);
	return 0;
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
	.fop_flags = FOP_UNSIGNED_OFFSET,
};

static const struct drm_driver bpfdrv_accel_driver_template = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM | DRIVER_SYNCOBJ,
	.open = bpfdrv_accel_open,
	.postclose = bpfdrv_accel_postclose,
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

/* The driver's template with the instance's name and ioctl table. */
static void bpfdrv_accel_fill(struct bpfdrv_accel *a,
			      const struct chr_ext_ops *ops)
{
	unsigned int i, dir;

	strscpy(a->name, ops->name, sizeof(a->name));
	memcpy(a->decl, ops->accel_ioctls, sizeof(a->decl));
	bpfdrv_accel_ioctl_desc(&a->ioctls[DRM_BPFDRV_BO_CREATE],
				DRM_BPFDRV_BO_CREATE, _IOC_READ | _IOC_WRITE,
				sizeof(struct drm_bpfdrv_bo_create),
				bpfdrv_accel_bo_create, "BPFDRV_BO_CREATE");
	bpfdrv_accel_ioctl_desc(&a->ioctls[DRM_BPFDRV_BO_INFO],
				DRM_BPFDRV_BO_INFO, _IOC_READ | _IOC_WRITE,
				sizeof(struct drm_bpfdrv_bo_info),
				bpfdrv_accel_bo_info, "BPFDRV_BO_INFO");
	a->driver = bpfdrv_accel_driver_template;
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

static void bpfdrv_accel_release(struct drm_device *drm, void *data)
{
	kfree(data);
}

static int bpfdrv_accel_add(struct bpfdrv_device *bdev)
{
	struct bpfdrv_accel *a = kzalloc(sizeof(*a), GFP_KERNEL);
	struct drm_device *drm;
	int ret;

	if (!a)
		return -ENOMEM;
	bpfdrv_accel_fill(a, bdev->ops);
	a->bdev = bdev;
	drm = drm_dev_alloc(&a->driver, &bdev->dev);
	if (IS_ERR(drm)) {
		kfree(a);
		return PTR_ERR(drm);
	}
	/* @a holds @drm's driver: freed with it, last */
	ret = drmm_add_action_or_reset(drm, bpfdrv_accel_release, a);
	if (ret) {
		drm_dev_put(drm);
		return ret;
	}
	drm->dev_private = a;
	a->drm = drm;
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
 * Before the instance's node goes: ioctls fail with ENODEV from now on;
 * buffers live on while handles, mappings or dma-bufs hold them.
 */
static void bpfdrv_accel_del(struct bpfdrv_device *bdev)
{
	struct bpfdrv_accel *a = bdev->accel;

	bdev->accel = NULL;
	drm_dev_unplug(a->drm);
	drm_dev_put(a->drm);
}

static const struct bpfdrv_accel_class bpfdrv_accel_class = {
	.owner = THIS_MODULE,
	.add = bpfdrv_accel_add,
	.del = bpfdrv_accel_del,
};

static int __init bpfdrv_accel_init(void)
{
	return bpfdrv_accel_register(&bpfdrv_accel_class);
}

static void __exit bpfdrv_accel_exit(void)
{
	bpfdrv_accel_unregister(&bpfdrv_accel_class);
}

module_init(bpfdrv_accel_init);
module_exit(bpfdrv_accel_exit);
MODULE_DESCRIPTION("bpfdrv: DRM accelerator devices for BPF drivers");
MODULE_LICENSE("GPL");
