// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: ask bpfdrv_io_data() for a window whose size is not known at
 * load time, so the verifier could not bound the accesses.
 * expect: is not a const|must be a known constant
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 0, io->len);

	if (p)
		p[0] = 1;
	return 0;
}

HOSTILE_OPS(io_data_var_size, .write = (void *)attack);
