// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: the target test_beside aims programs at. Its read callback
 * calls a static subprogram and returns 0 (end of file) only if that
 * subprogram still doubles: a program put in place of either would show
 * in what a read returns.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

/* in .data: the compiler cannot fold twice()'s call away */
int half = 21;

static __noinline int twice(int x)
{
	return 2 * x;
}

SEC("struct_ops/beside_read")
int BPF_PROG(beside_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return twice(half) == 42 ? 0 : -EIO;
}

SEC(".struct_ops.link")
struct chr_ext_ops beside_target = {
	.read = (void *)beside_read,
	.name = "beside_target",
	.mode = 0600,
};
