/* SPDX-License-Identifier: GPL-2.0 */
/* an instance's mmap windows (mmap.c) */
#ifndef __BPFDRV_KMOD_MMAP_H
#define __BPFDRV_KMOD_MMAP_H

#include "bpfdrv.h"

void bpfdrv_mmap_open(struct bpfdrv_device *bdev, struct file *filp);
void bpfdrv_mmap_revoke(struct bpfdrv_device *bdev);
int bpfdrv_mmap(struct file *filp, struct vm_area_struct *vma);

#endif /* __BPFDRV_KMOD_MMAP_H */
