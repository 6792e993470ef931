// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: the device instance passed as a ring to bpfdrv_io_to_ring(), to
 * write caller data over the kernel's device struct.
 * expect: pointer type UNKNOWN +is not supported|only read is supported
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return bpfdrv_io_to_ring(io, (void *)dev, 32);
}

HOSTILE_OPS(ctx_as_ring, .write = (void *)attack);
