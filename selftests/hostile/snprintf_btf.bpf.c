// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: bpf_snprintf_btf() formats any kernel address as a typed
 * object; bpfdrv does not grant it.
 * expect: bpf_snprintf_btf#149
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct btf_ptr p = { .ptr = (void *)0xffffffff81000000ULL };
	char buf[64];

	return bpf_snprintf_btf(buf, sizeof(buf), &p, sizeof(p), 0);
}

HOSTILE_OPS(snprintf_btf, .init = (void *)attack);
