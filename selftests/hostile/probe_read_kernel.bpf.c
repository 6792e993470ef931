// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: read raw kernel memory with bpf_probe_read_kernel(), bypassing
 * the buffers bpfdrv hands out.
 * expect: bpf_probe_read_kernel#113
 */
#include "hostile.h"

extern const void core_pattern __ksym;

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	char buf[8];

	bpf_probe_read_kernel(buf, sizeof(buf), &core_pattern);
	return buf[0];
}

HOSTILE_OPS(probe_read_kernel, .init = (void *)attack);
