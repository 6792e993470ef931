/* SPDX-License-Identifier: GPL-2.0 */
/* bpfdrv_for()'s iterator (loop.c) */
#ifndef __BPFDRV_KMOD_LOOP_H
#define __BPFDRV_KMOD_LOOP_H

#include "bpfdrv.h"

int bpfdrv_loop_kfuncs_init(void);

int bpf_iter_bpfdrv_new(struct bpf_iter_bpfdrv *it, struct bpfdrv_dev *dev,
			int start, int end);

int *bpf_iter_bpfdrv_next(struct bpf_iter_bpfdrv *it);
void bpf_iter_bpfdrv_destroy(struct bpf_iter_bpfdrv *it);

#endif /* __BPFDRV_KMOD_LOOP_H */
