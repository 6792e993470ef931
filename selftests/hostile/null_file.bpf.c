// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL for the file of bpfdrv_file_priv().
 * expect: NULL pointer passed to trusted (arg0|R1)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	__u8 *p = bpfdrv_file_priv(NULL, 8);

	return p ? p[0] : 0;
}

HOSTILE_OPS(null_file, .open = (void *)attack);
