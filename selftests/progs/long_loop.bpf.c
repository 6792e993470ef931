// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: an ioctl that loops for the milliseconds its integer
 * argument says (io->arg), as a driver polling slow hardware would.
 * LONG_LOOP_YIELD calls bpfdrv_dev_yield() each round and after a loop
 * that ended early, and returns its error once the device is torn down;
 * LONG_LOOP_SPIN does not: its bpfdrv_for() rounds still let the CPU go
 * (no soft lockup) and end with the teardown.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define LONG_LOOP_YIELD	0x4c01	/* _IO('L', 1): milliseconds as the argument */
#define LONG_LOOP_SPIN	0x4c02	/* _IO('L', 2) */

SEC("struct_ops.s/long_loop_ioctl")
int BPF_PROG(long_loop_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	__u64 start = bpf_ktime_get_ns(), ns = io->arg * 1000000;
	int i, j, ret;

	if (cmd != LONG_LOOP_YIELD && cmd != LONG_LOOP_SPIN)
		return -ENOTTY;
	bpfdrv_for(i, dev, 0, 1 << 23) {
		if (bpf_ktime_get_ns() - start >= ns)
			return 0;
		if (cmd == LONG_LOOP_YIELD) {
			ret = bpfdrv_dev_yield(dev);
			if (ret)
				return ret;
		}
		/* a round of "hardware polling": the iterator's calls */
		bpfdrv_for(j, dev, 0, 256)
			;
	}
	/* ended early: the device is going, or the caller was killed */
	return cmd == LONG_LOOP_YIELD ? bpfdrv_dev_yield(dev) : 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops long_loop_ops = {
	.ioctl = (void *)long_loop_ioctl,
	.name = "long_loop",
	.mode = 0666,
};
