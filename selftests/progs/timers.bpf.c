// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: bpfdrv's timers (ABI 10). ioctl ARM { id, delay_ns } arms a
 * timer and returns what bpfdrv_timer_start() did; COUNT returns how often
 * timer @arg fired; MODE sets what the callback does: count, re-arm itself
 * at once (and trace each run, for the detach test), or loop without end.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define TIMERS_ARM	0x40105401	/* _IOW('T', 1, struct arm) */
#define TIMERS_COUNT	0x40045402	/* _IOW('T', 2, __u32) */
#define TIMERS_MODE	0x40045403	/* _IOW('T', 3, __u32) */

enum { MODE_COUNT, MODE_REARM, MODE_LOOP };

/* what a run adds to the count: 1000 in the live update's version */
#ifndef TIMERS_STEP
#define TIMERS_STEP	1
#endif

struct arm {
	__u32 id;
	__u32 pad;
	__u64 delay_ns;
};

__u32 mode;
__u32 fired[BPFDRV_TIMERS_MAX];

SEC("struct_ops/timers_timer")
void BPF_PROG(timers_timer, struct bpfdrv_dev *dev, __u32 id)
{
	int i, j;

	if (id >= BPFDRV_TIMERS_MAX)
		return;
	__sync_fetch_and_add(&fired[id], TIMERS_STEP);
	switch (mode) {
	case MODE_REARM:
		bpf_printk("timers: fired %u", id);
		bpfdrv_timer_start(dev, id, 0);
		break;
	case MODE_LOOP:
		bpfdrv_for(i, dev, 0, 1 << 30)
			bpfdrv_for(j, dev, 0, 1 << 30)
				;
		break;
	}
}

SEC("struct_ops/timers_ioctl")
int BPF_PROG(timers_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct arm a;
	__u32 v;

	switch (cmd) {
	case TIMERS_ARM:
		if (bpfdrv_io_load(io, 0, &a, sizeof(a)))
			return -EFAULT;
		return bpfdrv_timer_start(dev, a.id, a.delay_ns);
	case TIMERS_COUNT:
		if (bpfdrv_io_load(io, 0, &v, sizeof(v)))
			return -EFAULT;
		return v < BPFDRV_TIMERS_MAX ? fired[v] : -EINVAL;
	case TIMERS_MODE:
		if (bpfdrv_io_load(io, 0, &v, sizeof(v)))
			return -EFAULT;
		mode = v;
		return 0;
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops timers = {
	.ioctl = (void *)timers_ioctl,
	.timer = (void *)timers_timer,
	.name = "timers",
	.mode = 0600,
};
