// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a device instance in a map value, passed to bpfdrv_dev_priv().
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_dev must point to|R1 is map_value expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfdrv_dev);
} fakes SEC(".maps");

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct bpfdrv_dev *fake;
	__u32 zero = 0;
	__u8 *p;

	fake = bpf_map_lookup_elem(&fakes, &zero);
	if (!fake)
		return 0;
	p = bpfdrv_dev_priv(fake, 8);
	if (p)
		p[0] = 1;
	return 0;
}

HOSTILE_OPS(forge_dev_map, .init = (void *)attack);
