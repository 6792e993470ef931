// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: two drivers in one object share a map; the first keeps its
 * device there and the second uses it, to act on another driver's device.
 * expect: R1 must be referenced or trusted
 */
#include "hostile.h"

#define __kptr_untrusted __attribute__((btf_type_tag("kptr_untrusted")))

struct shared {
	struct bpfdrv_dev __kptr_untrusted *dev;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct shared);
} shared SEC(".maps");

SEC("struct_ops/keep")
int BPF_PROG(keep, struct bpfdrv_dev *dev)
{
	__u32 zero = 0;
	struct shared *s = bpf_map_lookup_elem(&shared, &zero);

	if (s)
		s->dev = dev;
	return 0;
}

SEC("struct_ops/use")
int BPF_PROG(use, struct bpfdrv_dev *dev)
{
	__u32 zero = 0;
	struct shared *s = bpf_map_lookup_elem(&shared, &zero);
	struct bpfdrv_dev *other;

	if (!s)
		return 0;
	other = s->dev;
	if (other)
		bpfdrv_dev_wake(other);
	return 0;
}

HOSTILE_OPS(cross_driver_a, .init = (void *)keep);
HOSTILE_OPS(cross_driver_b, .init = (void *)use);
