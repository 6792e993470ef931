// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: have bpfdrv_io_load() copy caller data into the program's
 * read-only data (frozen .rodata map).
 * expect: write into map forbidden
 */
#include "hostile.h"

const volatile char table[16] = "constant table";

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return bpfdrv_io_load(io, 0, (void *)table, sizeof(table));
}

HOSTILE_OPS(load_into_rodata, .write = (void *)attack);
