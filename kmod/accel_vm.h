/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device address spaces of an accelerator (accel_vm.c), for its DRM side
 * (accel_drm.c): the VM ioctls, a job's VM, and the copies its kfuncs
 * make through it.
 */
#ifndef __BPFDRV_KMOD_ACCEL_VM_H
#define __BPFDRV_KMOD_ACCEL_VM_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "../include/bpfdrv_abi.h"

struct bpfdrv_device;
struct device;
struct drm_device;
struct drm_file;
struct drm_bpfdrv_vm_create;
struct drm_bpfdrv_vm_destroy;
struct drm_bpfdrv_vm_bind;
struct bpfdrv_accel_vm;
struct bpfdrv_accel_va;

/* An accelerator's VMs: numbered across its files, as its driver sees them */
struct bpfdrv_accel_vms {
	struct drm_device *drm;
	struct bpfdrv_device *bdev;
	u32 va_bits;			/* the driver's accel_va_bits; 0: none */
	struct xarray vms;		/* id -> VM, ids from 1 */
	struct device *dma_dev;		/* mappings for its DMA, or NULL... */
	int dma_err;			/* ...and why not */
	spinlock_t call_lock;		/* the VMs' driver calls: one slot */
};

/* The mappings a job's device reaches by DMA: held until the job's free */
struct bpfdrv_accel_vm_dma {
	struct bpfdrv_accel_va *va[BPFDRV_JOB_VM_DMA_MAX];
	u32 nr;
};

/* Whether this kernel has drm_gpuvm, which VMs are made of. */
#define BPFDRV_ACCEL_HAS_VMS	IS_ENABLED(CONFIG_DRM_GPUVM)

void bpfdrv_accel_vms_init(struct bpfdrv_accel_vms *s, struct drm_device *drm,
			   struct bpfdrv_device *bdev, u32 va_bits,
			   struct device *dma_dev, int dma_err);
void bpfdrv_accel_vms_revoke(struct bpfdrv_accel_vms *s);
void bpfdrv_accel_vms_fini(struct bpfdrv_accel_vms *s);

int bpfdrv_accel_vm_create(struct bpfdrv_accel_vms *s, struct drm_file *file,
			   struct drm_bpfdrv_vm_create *args);
int bpfdrv_accel_vm_destroy(struct bpfdrv_accel_vms *s, struct drm_file *file,
			    struct drm_bpfdrv_vm_destroy *args);
int bpfdrv_accel_vm_bind(struct bpfdrv_accel_vms *s, struct drm_file *file,
			 struct drm_bpfdrv_vm_bind *args);
void bpfdrv_accel_vm_file_close(struct bpfdrv_accel_vms *s,
				struct drm_file *file);

/* A job's VM: @file's VM @id, held; put in process context. */
struct bpfdrv_accel_vm *bpfdrv_accel_vm_get(struct bpfdrv_accel_vms *s,
					    struct drm_file *file, u32 id);
void bpfdrv_accel_vm_put(struct bpfdrv_accel_vm *vm);
/* Any context: @len bytes at @addr of @vm, inside one mapping. */
int bpfdrv_accel_vm_copy(struct bpfdrv_accel_vm *vm, u64 addr, void *buf,
			 u32 len, bool store);
/*
 * Any context: the bus address of @addr, [@addr, @addr + @len) inside one
 * mapping and one DMA segment; the mapping synced for the device and held
 * in @held (serialized by the caller)...
 */
s64 bpfdrv_accel_vm_dma(struct bpfdrv_accel_vm *vm,
			struct bpfdrv_accel_vm_dma *held, u64 addr, u32 len);
/* ...synced for the CPU when the job ends (any context)... */
void bpfdrv_accel_vm_dma_end(struct bpfdrv_accel_vm *vm,
			     struct bpfdrv_accel_vm_dma *held);
/* ...and let go when it is freed (process context). */
void bpfdrv_accel_vm_dma_put(struct bpfdrv_accel_vm_dma *held);

#endif /* __BPFDRV_KMOD_ACCEL_VM_H */
