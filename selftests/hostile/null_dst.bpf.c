// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL as the destination of bpfdrv_io_load(), for the kernel to
 * copy into.
 * expect: NULL pointer passed to trusted (arg2|R3)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return bpfdrv_io_load(io, 0, NULL, 8);
}

HOSTILE_OPS(null_dst, .read = (void *)attack);
