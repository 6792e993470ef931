// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: about the most copying one path may do within bpfdrv's
 * bound (kmod/allow.c): a loop the verifier bounds, not bpfdrv_for(),
 * whose every round copies a 128 KiB map value with bpf_map_update_elem().
 * A read runs it once and returns its time in nanoseconds (8 bytes).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define VALUE	(128 * 1024)
#define ROUNDS	300

struct big {
	char bytes[VALUE];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct big);
} bigs SEC(".maps");

SEC("struct_ops/copy_amplify_read")
int BPF_PROG(copy_amplify_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	__u32 from = 0, to = 1;
	struct big *v = bpf_map_lookup_elem(&bigs, &from);
	__u64 t;
	int i;

	if (!v || io->len < sizeof(t))
		return -EINVAL;
	t = bpf_ktime_get_ns();
	for (i = 0; i < ROUNDS; i++)
		bpf_map_update_elem(&bigs, &to, v, 0);
	t = bpf_ktime_get_ns() - t;
	if (bpfdrv_io_store(io, 0, &t, sizeof(t)))
		return -EFAULT;
	return sizeof(t);
}

SEC(".struct_ops.link")
struct chr_ext_ops copy_amplify = {
	.read = (void *)copy_amplify_read,
	.name = "copy_amplify",
	.mode = 0600,
};
