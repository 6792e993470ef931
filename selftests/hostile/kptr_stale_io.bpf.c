// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: keep an io context in a map as an untrusted kptr during one
 * call and read through it in a later one, when it points at a dead stack
 * frame. The verifier admits the read (a BPF_PROBE_MEM load); bpfdrv
 * refuses the program when its map is written.
 * expect: instruction [0-9]+ reads through an untrusted pointer
 */
#include "hostile.h"

struct stash {
	struct bpfdrv_io __kptr_untrusted *io;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stash);
} stash SEC(".maps");

SEC("struct_ops/keep")
int BPF_PROG(keep, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u32 zero = 0;
	struct stash *s = bpf_map_lookup_elem(&stash, &zero);

	if (s)
		s->io = io;
	return 0;
}

SEC("struct_ops/use")
int BPF_PROG(use, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u32 zero = 0;
	struct stash *s = bpf_map_lookup_elem(&stash, &zero);
	struct bpfdrv_io *old;

	if (!s)
		return 0;
	old = s->io;
	return old ? old->len : 0;
}

HOSTILE_OPS(kptr_stale_io, .write = (void *)keep, .read = (void *)use);
