// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: write past the per-file storage bpfdrv_file_priv() granted.
 * expect: invalid access to memory, mem_size=64 off=64 size=1
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	__u8 *p = bpfdrv_file_priv(file, BPFDRV_FILE_PRIV_SIZE);

	if (p)
		p[BPFDRV_FILE_PRIV_SIZE] = 1;
	return 0;
}

HOSTILE_OPS(file_priv_past_end, .open = (void *)attack);
