// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: the file context passed as the destination of bpfdrv_io_load(),
 * to overwrite the kernel's file struct with data from user space.
 * expect: pointer type UNKNOWN +is not supported|only read is supported
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return bpfdrv_io_load(io, 0, (void *)file, 8);
}

HOSTILE_OPS(ctx_as_dst, .write = (void *)attack);
