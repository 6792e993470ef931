/* SPDX-License-Identifier: GPL-2.0 */
/* the kfuncs' registration, and the I/O buffer's copies (kfuncs.c) */
#ifndef __BPFDRV_KMOD_KFUNCS_H
#define __BPFDRV_KMOD_KFUNCS_H

#include "bpfdrv.h"

int bpfdrv_io_copy_out(struct bpfdrv_io_kern *k, u32 off, const void *src,
		       u32 len);

int bpfdrv_io_copy_in(struct bpfdrv_io_kern *k, u32 off, void *dst, u32 len);
extern struct btf *bpfdrv_btf;
int bpfdrv_kfuncs_init(void);
int bpfdrv_kfuncs_add(struct btf_id_set8 *set);
int bpfdrv_kfuncs_register(void);
void bpfdrv_kfuncs_exit(void);

/* for the sets: gone in 7.x, where trusted arguments are the default */
#ifndef KF_TRUSTED_ARGS
#define KF_TRUSTED_ARGS 0
#endif

#endif /* __BPFDRV_KMOD_KFUNCS_H */
