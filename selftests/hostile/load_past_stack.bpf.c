// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: tell bpfdrv_io_load() the 8-byte stack buffer holds 64 bytes, so
 * the kernel would copy past it over the program's stack frame.
 * expect: invalid (indirect access to|read from) stack
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	char buf[8];

	bpfdrv_io_load(io, 0, buf, 64 + 448);
	return buf[0];
}

HOSTILE_OPS(load_past_stack, .write = (void *)attack);
