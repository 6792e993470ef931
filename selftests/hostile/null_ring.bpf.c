// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL as the ring of bpfdrv_io_to_ring().
 * expect: NULL pointer passed to trusted (arg1|R2)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return bpfdrv_io_to_ring(io, NULL, 64);
}

HOSTILE_OPS(null_ring, .write = (void *)attack);
