// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: the same with libbpf's bpf_for(), the BPF core's number
 * iterator, which has no budget either.
 * expect: kfunc bpf_iter_num_new is not one bpfdrv grants
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	int i, j;

	bpf_for(i, 0, 1 << 30)
		bpf_for(j, 0, 1 << 30)
			;
	return 0;
}

HOSTILE_OPS(loop_bpf_for, .read = (void *)attack);
