// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a global function is verified once, not per call, so a bounded
 * loop that calls one runs its rounds times the function's: nested, far
 * more than any path the verifier walked.
 * expect: is global: its work per call is not bounded
 */
#include "hostile.h"

__attribute__((noinline)) int spin_global(int n)
{
	volatile int x = 0;
	int i;

	for (i = 0; i < 1000 && i < n; i++)
		x += i;
	return x;
}

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	int i, sum = 0;

	for (i = 0; i < 1000; i++)
		sum += spin_global(i);
	return sum & 1;
}

HOSTILE_OPS(loop_global_func, .read = (void *)attack);
