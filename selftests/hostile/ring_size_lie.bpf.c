// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: pass a ring in a 64-byte map value as 4096 bytes, so
 * bpfdrv_io_to_ring() would write past the value.
 * expect: invalid access to map value|but R2 does not describe verifier-readable memory
 */
#include "hostile.h"

struct small_ring BPFDRV_RING(56);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct small_ring);
} rings SEC(".maps");

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u32 zero = 0;
	void *r = bpf_map_lookup_elem(&rings, &zero);

	if (!r)
		return -EIO;
	return bpfdrv_io_to_ring(io, r, 4096);
}

HOSTILE_OPS(ring_size_lie, .write = (void *)attack);
