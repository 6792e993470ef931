// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a bpfdrv_for() loop on a device instance forged on the stack,
 * to read its budget from memory the program chose.
 * expect: (arg#1|R2) pointer type STRUCT bpfdrv_dev must point to|R2 is fp expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct bpfdrv_dev fake = {};
	int i, n = 0;

	bpfdrv_for(i, &fake, 0, 1 << 30)
		n++;
	return n & 1;
}

HOSTILE_OPS(loop_forge_dev, .read = (void *)attack);
