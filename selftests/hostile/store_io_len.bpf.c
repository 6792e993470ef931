// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: enlarge io->len before asking for the buffer.
 * expect: only read is supported
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 *p;

	io->len = 1 << 20;
	p = bpfdrv_io_data(io, 65536, 8);
	if (p)
		p[0] = 1;
	return 0;
}

HOSTILE_OPS(store_io_len, .write = (void *)attack);
