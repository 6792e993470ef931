// SPDX-License-Identifier: GPL-2.0
/*
 * Device address spaces on a kernel without drm_gpuvm (CONFIG_DRM_GPUVM,
 * which only drivers select): none. An accelerator whose driver declares
 * accel_va_bits is refused at its creation, with the reason (accel_drm.c).
 */

#include <linux/errno.h>

#include "accel_vm.h"

void bpfdrv_accel_vms_init(struct bpfdrv_accel_vms *s, struct drm_device *drm,
			   struct bpfdrv_device *bdev, u32 va_bits,
			   struct device *dma_dev, int dma_err)
{
	s->va_bits = 0;
}

void bpfdrv_accel_vms_revoke(struct bpfdrv_accel_vms *s)
{
}

void bpfdrv_accel_vms_fini(struct bpfdrv_accel_vms *s)
{
}

int bpfdrv_accel_vm_create(struct bpfdrv_accel_vms *s, struct drm_file *file,
			   struct drm_bpfdrv_vm_create *args)
{
	return -EOPNOTSUPP;
}

int bpfdrv_accel_vm_destroy(struct bpfdrv_accel_vms *s, struct drm_file *file,
			    struct drm_bpfdrv_vm_destroy *args)
{
	return -EOPNOTSUPP;
}

int bpfdrv_accel_vm_bind(struct bpfdrv_accel_vms *s, struct drm_file *file,
			 struct drm_bpfdrv_vm_bind *args)
{
	return -EOPNOTSUPP;
}

void bpfdrv_accel_vm_file_close(struct bpfdrv_accel_vms *s,
				struct drm_file *file)
{
}

struct bpfdrv_accel_vm *bpfdrv_accel_vm_get(struct bpfdrv_accel_vms *s,
					    struct drm_file *file, u32 id)
{
	return NULL;
}

void bpfdrv_accel_vm_put(struct bpfdrv_accel_vm *vm)
{
}

int bpfdrv_accel_vm_copy(struct bpfdrv_accel_vm *vm, u64 addr, void *buf,
			 u32 len, bool store)
{
	return -ENOENT;
}

s64 bpfdrv_accel_vm_dma(struct bpfdrv_accel_vm *vm,
			struct bpfdrv_accel_vm_dma *held, u64 addr, u32 len)
{
	return -ENOENT;
}

void bpfdrv_accel_vm_dma_end(struct bpfdrv_accel_vm *vm,
			     struct bpfdrv_accel_vm_dma *held)
{
}

void bpfdrv_accel_vm_dma_put(struct bpfdrv_accel_vm_dma *held)
{
}
