// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: the I/O context passed as a device instance to bpfdrv_dev_priv().
 * expect: expected pointer to STRUCT bpfdrv_dev but R1 has a pointer to STRUCT bpfdrv_io
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_dev_priv((struct bpfdrv_dev *)io, 8);

	if (p)
		p[0] = 1;
	return 0;
}

HOSTILE_OPS(confuse_io_as_dev, .write = (void *)attack);
