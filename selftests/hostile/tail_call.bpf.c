// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a tail call, which would run a program bpfdrv never checked
 * in the driver's place (bpf_tail_call is not granted).
 * expect: cannot use helper bpf_tail_call|unknown func bpf_tail_call
 */
#include "hostile.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} progs SEC(".maps");

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	bpf_tail_call(ctx, &progs, 0);
	return 0;
}

HOSTILE_OPS(tail_call, .init = (void *)attack);
