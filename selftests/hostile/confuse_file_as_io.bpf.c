// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: the file context passed where an I/O context is expected, so
 * that the kernel would read the file's memory as an I/O buffer.
 * expect: expected pointer to STRUCT bpfdrv_io but R1 has a pointer to STRUCT bpfdrv_file
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	char buf[8];

	return bpfdrv_io_load((struct bpfdrv_io *)file, 0, buf, sizeof(buf));
}

HOSTILE_OPS(confuse_file_as_io, .read = (void *)attack);
