// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: keep the I/O context of one call in a map (as an untrusted
 * kernel pointer) and use it in a later call, after its buffer is gone.
 * expect: R1 must be referenced or trusted
 */
#include "hostile.h"

#define __kptr_untrusted __attribute__((btf_type_tag("kptr_untrusted")))

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
	char buf[8] = {};

	if (!s)
		return 0;
	old = s->io;
	if (!old)
		return 0;
	return bpfdrv_io_store(old, 0, buf, sizeof(buf));
}

HOSTILE_OPS(stash_kptr, .write = (void *)keep, .read = (void *)use);
