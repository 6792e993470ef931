// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: keep a CPU for hours from one read with nested bpf_loop(), whose
 * rounds the verifier does not count (it checks the callback once).
 * expect: cannot use helper bpf_loop
 */
#include "hostile.h"

static long inner(__u64 i, void *ctx)
{
	return 0;
}

static long outer(__u64 i, void *ctx)
{
	bpf_loop(1 << 23, inner, NULL, 0);
	return 0;
}

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	bpf_loop(1 << 23, outer, NULL, 0);
	return 0;
}

HOSTILE_OPS(loop_bpf_loop, .read = (void *)attack);
