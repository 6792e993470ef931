/* SPDX-License-Identifier: GPL-2.0 */
/* the allow-list: what the struct_ops type asks of it (allow.c) */
#ifndef __BPFDRV_KMOD_ALLOW_H
#define __BPFDRV_KMOD_ALLOW_H

#include "bpfdrv.h"

const struct bpf_func_proto *
bpfdrv_get_func_proto(enum bpf_func_id func_id, const struct bpf_prog *prog);

int bpfdrv_allow_member(u32 moff, const char *cb, void *kdata,
			const void *udata);

int bpfdrv_allow_validate(const void *kdata, const u32 *moffs, int n);
int bpfdrv_allow_unverified(const struct bpf_prog *prog, const char *cb);

#endif /* __BPFDRV_KMOD_ALLOW_H */
