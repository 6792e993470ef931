// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: write past the per-device storage bpfdrv_dev_priv() granted.
 * expect: invalid access to memory, mem_size=256 off=256 size=1
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	__u8 *p = bpfdrv_dev_priv(dev, BPFDRV_DEV_PRIV_SIZE);

	if (p)
		p[BPFDRV_DEV_PRIV_SIZE] = 1;
	return 0;
}

HOSTILE_OPS(dev_priv_past_end, .init = (void *)attack);
