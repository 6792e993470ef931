// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: reads sleep for 8 seconds, as in sleeper.bpf.c; release
 * counts closes, which any ioctl returns. A process killed while queued
 * behind a sleeping read must still reach release once the read is done,
 * without waiting as a hung task meanwhile.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

extern void bpfdrv_test_msleep(__u32 ms) __ksym;

__u32 releases;

SEC("struct_ops.s/sleeper_release_read")
int BPF_PROG(sleeper_release_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	bpfdrv_test_msleep(8000);
	return 0;
}

SEC("struct_ops/sleeper_release_release")
void BPF_PROG(sleeper_release_release, struct bpfdrv_dev *dev,
	      struct bpfdrv_file *file)
{
	__sync_fetch_and_add(&releases, 1);
}

SEC("struct_ops/sleeper_release_ioctl")
int BPF_PROG(sleeper_release_ioctl, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, unsigned int cmd, struct bpfdrv_io *io)
{
	return releases;
}

SEC(".struct_ops.link")
struct chr_ext_ops sleeper_release_ops = {
	.read = (void *)sleeper_release_read,
	.release = (void *)sleeper_release_release,
	.ioctl = (void *)sleeper_release_ioctl,
	.name = "sleeper_rel",
	.mode = 0666,
};
