// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: about the most copying one path may do within bpfdrv's
 * bound (kmod/allow.c): a loop the verifier bounds, not bpfdrv_for(),
 * whose every round copies a 128 KiB map value with bpf_map_update_elem().
 * A read runs it once and returns its time in nanoseconds (8 bytes), then
 * the time of the last run in a timer callback (0 before one; 8 bytes). A
 * write arms the timer (1 ms) to run it there.
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

__u64 timer_ns;

static __always_inline __u64 copy_all(void)
{
	__u32 from = 0, to = 1;
	struct big *v = bpf_map_lookup_elem(&bigs, &from);
	__u64 t;
	int i;

	if (!v)
		return 0;
	t = bpf_ktime_get_ns();
	for (i = 0; i < ROUNDS; i++)
		bpf_map_update_elem(&bigs, &to, v, 0);
	return bpf_ktime_get_ns() - t;
}

SEC("struct_ops/copy_amplify_read")
int BPF_PROG(copy_amplify_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	__u64 t[2];

	if (io->len < sizeof(t))
		return -EINVAL;
	t[0] = copy_all();
	t[1] = timer_ns;
	if (bpfdrv_io_store(io, 0, t, sizeof(t)))
		return -EFAULT;
	return sizeof(t);
}

SEC("struct_ops/copy_amplify_write")
int BPF_PROG(copy_amplify_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	int err = bpfdrv_timer_start(dev, 0, 1000000);

	return err ? err : io->len;
}

SEC("struct_ops/copy_amplify_timer")
void BPF_PROG(copy_amplify_timer, struct bpfdrv_dev *dev, __u32 id)
{
	timer_ns = copy_all();
}

SEC(".struct_ops.link")
struct chr_ext_ops copy_amplify = {
	.read = (void *)copy_amplify_read,
	.write = (void *)copy_amplify_write,
	.timer = (void *)copy_amplify_timer,
	.name = "copy_amplify",
	.mode = 0600,
};
