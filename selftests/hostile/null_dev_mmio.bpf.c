// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL for the device of an MMIO write.
 * expect: NULL pointer passed to trusted (arg0|R1)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_mmio_write(NULL, 0, 0, 4, 0);
}

HOSTILE_OPS(null_dev_mmio, .init = (void *)attack);
