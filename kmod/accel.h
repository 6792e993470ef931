/* SPDX-License-Identifier: GPL-2.0 */
/* the accelerator class: bpfdrv_accel.ko registers it with bpfdrv.ko (accel.c) */
#ifndef __BPFDRV_KMOD_ACCEL_H
#define __BPFDRV_KMOD_ACCEL_H

#include "bpfdrv.h"

/*
 * The accelerator class lives in a module of its own, bpfdrv_accel.ko,
 * which needs DRM: bpfdrv.ko loads it when a driver declares the class
 * and pins it for as long as an instance has one (accel.c).
 */
struct bpfdrv_accel_class {
	struct module *owner;
	int (*add)(struct bpfdrv_device *bdev);		/* sets bdev->accel */
	void (*del)(struct bpfdrv_device *bdev);	/* and clears it */
	/* the kfuncs' work, on bdev->accel, in any context (no sleep) */
	int (*job_done)(void *accel, u32 ring, u64 seqno, int err);
	int (*job_slot)(void *accel, u32 ring, u64 seqno);
	int (*job_bo_copy)(void *accel, u32 ring, int slot, u32 bo, u32 off,
			   void *buf, u32 len, bool store);
	s64 (*job_bo_dma)(void *accel, u32 ring, int slot, u32 bo, u32 off,
			  u32 len);
	int (*job_vm_copy)(void *accel, u32 ring, int slot, u64 addr,
			   void *buf, u32 len, bool store);
	s64 (*job_vm_dma)(void *accel, u32 ring, int slot, u64 addr, u32 len);
};

int bpfdrv_accel_register(const struct bpfdrv_accel_class *cls);
void bpfdrv_accel_unregister(const struct bpfdrv_accel_class *cls);

#endif /* __BPFDRV_KMOD_ACCEL_H */
