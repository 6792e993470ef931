// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL for the I/O context of bpfdrv_io_load().
 * expect: NULL pointer passed to trusted (arg0|R1)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	char buf[8];

	return bpfdrv_io_load(NULL, 0, buf, sizeof(buf));
}

HOSTILE_OPS(null_io, .read = (void *)attack);
