// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: every read sleeps for 8 seconds in the callback (through the
 * test-only bpfdrv_test_msleep() kfunc), as a driver waiting on slow
 * hardware would, holding its device's mutex.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

extern void bpfdrv_test_msleep(__u32 ms) __ksym;

SEC("struct_ops.s/sleeper_read")
int BPF_PROG(sleeper_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	bpfdrv_test_msleep(8000);
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops sleeper_ops = {
	.read = (void *)sleeper_read,
	.name = "sleeper",
	.mode = 0666,
};
