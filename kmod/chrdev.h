/* SPDX-License-Identifier: GPL-2.0 */
/* the nodes' file operations, and a file's life (chrdev.c) */
#ifndef __BPFDRV_KMOD_CHRDEV_H
#define __BPFDRV_KMOD_CHRDEV_H

#include "bpfdrv.h"

struct bpfdrv_file_kern *bpfdrv_file_open(struct bpfdrv_device *bdev,
					  unsigned int f_flags);

void bpfdrv_file_close(struct bpfdrv_file_kern *f);
extern const struct file_operations bpfdrv_fops;

#endif /* __BPFDRV_KMOD_CHRDEV_H */
