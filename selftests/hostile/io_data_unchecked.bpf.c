// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: use bpfdrv_io_data()'s result without the NULL check, for a
 * window past the end of a short call.
 * expect: invalid mem access '(mem|rdwr_buf)_or_null'
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 4000, 96);

	p[0] = 1;
	return 0;
}

HOSTILE_OPS(io_data_unchecked, .write = (void *)attack);
