// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL as the device of a DMA copy, a context that is not the
 * first argument.
 * expect: NULL pointer passed to trusted (arg2|R3)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return bpfdrv_io_to_dma(io, 0, NULL, 0, 8);
}

HOSTILE_OPS(null_dev_dma, .write = (void *)attack);
