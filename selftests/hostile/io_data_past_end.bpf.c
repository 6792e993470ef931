// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: write one byte past the 8 bytes bpfdrv_io_data() granted.
 * expect: invalid access to memory, mem_size=8 off=8 size=1
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 0, 8);

	if (!p)
		return -EINVAL;
	p[8] = 1;
	return 0;
}

HOSTILE_OPS(io_data_past_end, .write = (void *)attack);
