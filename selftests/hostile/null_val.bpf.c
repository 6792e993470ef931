// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL as the value pointer an MMIO read writes its result to.
 * expect: NULL pointer passed to trusted (arg4|R5)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_mmio_read(dev, 0, 0, 8, NULL);
}

HOSTILE_OPS(null_val, .init = (void *)attack);
