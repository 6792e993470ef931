// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: the BPF helpers docs/writing-a-driver.md lists, used from
 * a callback: bpf_printk() with four arguments, from an ioctl. (Timers
 * are bpfdrv's own: timers.bpf.c.)
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define HELPERS_PRINT	0x4801	/* _IO('H', 1) */

SEC("struct_ops/helpers_ioctl")
int BPF_PROG(helpers_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	if (cmd != HELPERS_PRINT)
		return -ENOTTY;
	return bpf_printk("bpfdrv helpers: armed %d %d %d %d", 1, 2, 3, 4);
}

SEC(".struct_ops.link")
struct chr_ext_ops helpers = {
	.ioctl = (void *)helpers_ioctl,
	.name = "helpers",
	.mode = 0600,
};
