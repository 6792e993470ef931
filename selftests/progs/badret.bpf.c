// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver that lies: read claims one byte more than was asked for and
 * write claims more than it was given. The framework must answer EIO and
 * copy nothing beyond the buffer. There is no open callback, and an
 * exclusive flag: a second open must get EBUSY.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/bad_read")
int BPF_PROG(bad_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	return io->len + 1;
}

SEC("struct_ops/bad_write")
int BPF_PROG(bad_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	return -1000;	/* not an errno */
}

SEC(".struct_ops.link")
struct chr_ext_ops badret_ops = {
	.read = (void *)bad_read,
	.write = (void *)bad_write,
	.name = "badret",
	.mode = 0666,
	.flags = BPFDRV_F_EXCLUSIVE,
};
