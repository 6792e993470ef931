// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a bpfdrv_for() loop on a NULL device instance, whose budget
 * bpfdrv would read through it.
 * expect: NULL pointer passed to trusted (arg1|R2)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	int i, n = 0;

	bpfdrv_for(i, (struct bpfdrv_dev *)0, 0, 1 << 30)
		n++;
	return n & 1;
}

HOSTILE_OPS(loop_null_dev, .read = (void *)attack);
