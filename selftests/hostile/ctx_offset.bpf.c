// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: pointer arithmetic on the I/O context, so the kernel's
 * container_of() would land on other memory.
 * expect: must have zero offset|expected pointer to STRUCT bpfdrv_io
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	char buf[8];

	return bpfdrv_io_load((struct bpfdrv_io *)((char *)io + 8), 0, buf,
			      sizeof(buf));
}

HOSTILE_OPS(ctx_offset, .read = (void *)attack);
