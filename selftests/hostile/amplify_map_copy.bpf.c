// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a loop the verifier bounds (no bpfdrv_for()) whose every round
 * copies a 4 MiB map value with bpf_map_update_elem(): few instructions,
 * seconds of copying in a callback that cannot sleep.
 * expect: may copy [0-9]+ MiB on one path
 */
#include "hostile.h"

#define VALUE	(4 << 20)

struct big {
	char bytes[VALUE];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct big);
} bigs SEC(".maps");

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u32 from = 0, to = 1;
	struct big *v = bpf_map_lookup_elem(&bigs, &from);
	int i;

	if (!v)
		return 0;
	for (i = 0; i < 64; i++)
		bpf_map_update_elem(&bigs, &to, v, 0);
	return 0;
}

HOSTILE_OPS(amplify_map_copy, .read = (void *)attack);
