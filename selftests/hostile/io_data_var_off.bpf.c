// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: index the granted I/O window with an unchecked value from the
 * caller's data.
 * expect: invalid access to memory|unbounded memory access
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 0, 16);
	__u32 i;

	if (!p)
		return -EINVAL;
	i = p[0] * 4096;
	p[i] = 1;
	return 0;
}

HOSTILE_OPS(io_data_var_off, .write = (void *)attack);
