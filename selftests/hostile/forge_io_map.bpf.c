// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: an I/O context built in a map value, with a large length, passed
 * to bpfdrv_io_load().
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_io must point to|R1 is map_value expected STRUCT bpfdrv_io
 */
#include "hostile.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfdrv_io);
} fakes SEC(".maps");

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct bpfdrv_io *fake;
	__u32 zero = 0;
	char buf[8];

	fake = bpf_map_lookup_elem(&fakes, &zero);
	if (!fake)
		return 0;
	fake->len = 1 << 30;
	return bpfdrv_io_load(fake, 1 << 20, buf, sizeof(buf));
}

HOSTILE_OPS(forge_io_map, .read = (void *)attack);
