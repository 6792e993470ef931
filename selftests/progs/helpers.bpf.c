// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: the BPF helpers docs/writing-a-driver.md lists, used from
 * callbacks: bpf_printk() with four arguments, a bpf_timer armed by an
 * ioctl whose callback counts its runs (read back by another ioctl). A
 * timer needs its map held by user space (bpf_timer_init() refuses one no
 * process holds, which a pinned driver's maps are once its loader exits),
 * so the map is pinned by name.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define HELPERS_ARM	0x4801	/* _IO('H', 1) */
#define HELPERS_FIRED	0x4802	/* _IO('H', 2) */
#define CLOCK_MONOTONIC	1

struct timer_elem {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct timer_elem);
	__uint(pinning, LIBBPF_PIN_BY_NAME);	/* /sys/fs/bpf/bpfdrv_timers */
} bpfdrv_timers SEC(".maps");

__u32 fired;

static int helpers_timer_fn(void *map, __u32 *key, struct timer_elem *e)
{
	__sync_fetch_and_add(&fired, 1);
	return 0;
}

SEC("struct_ops/helpers_ioctl")
int BPF_PROG(helpers_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct timer_elem *e;
	__u32 key = 0;
	int ret;

	switch (cmd) {
	case HELPERS_ARM:
		e = bpf_map_lookup_elem(&bpfdrv_timers, &key);
		if (!e)
			return -EIO;
		ret = bpf_timer_init(&e->timer, &bpfdrv_timers, CLOCK_MONOTONIC);
		if (ret)
			return ret;
		ret = bpf_timer_set_callback(&e->timer, helpers_timer_fn);
		if (ret)
			return ret;
		bpf_printk("bpfdrv helpers: armed %d %d %d %d", 1, 2, 3, 4);
		return bpf_timer_start(&e->timer, 1000000, 0);
	case HELPERS_FIRED:
		return fired;
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops helpers = {
	.ioctl = (void *)helpers_ioctl,
	.name = "helpers",
	.mode = 0600,
};
