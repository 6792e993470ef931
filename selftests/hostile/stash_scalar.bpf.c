// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: keep a device instance's address as a number in a map, and turn
 * it back into a pointer in a later call (or another instance's call).
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_dev must point to|R1 is scalar expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} addr SEC(".maps");

SEC("struct_ops/keep")
int BPF_PROG(keep, struct bpfdrv_dev *dev)
{
	__u32 zero = 0;
	__u64 *a = bpf_map_lookup_elem(&addr, &zero);

	if (a)
		*a = (__u64)dev;
	return 0;
}

SEC("struct_ops/use")
int BPF_PROG(use, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	__u32 zero = 0;
	__u64 *a = bpf_map_lookup_elem(&addr, &zero);

	if (a && *a)
		bpfdrv_dev_wake((struct bpfdrv_dev *)*a);
	return 0;
}

HOSTILE_OPS(stash_scalar, .init = (void *)keep, .open = (void *)use);
