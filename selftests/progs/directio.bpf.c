// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for BPFDRV_F_DIRECT_IO: read and write see the caller's
 * memory, so bpfdrv_io_data() must give them NULL. read reports what it got
 * ('N' for NULL, 'P' for a pointer) and ignores whether its store worked,
 * as a careless driver would: the framework must still make a faulted call
 * again, not return the 1 it claims. write accepts its bytes only if it got
 * NULL. ioctl is not direct: its bpfdrv_io_data() works.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/dio_read")
int BPF_PROG(dio_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	char got = bpfdrv_io_data(io, 0, 1) ? 'P' : 'N';

	bpfdrv_io_store(io, 0, &got, 1);
	return 1;
}

SEC("struct_ops/dio_write")
int BPF_PROG(dio_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	return bpfdrv_io_data(io, 0, 1) ? -EINVAL : io->len;
}

/* any command with data: its first byte becomes 'P' through the pointer */
SEC("struct_ops/dio_ioctl")
int BPF_PROG(dio_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 0, 1);

	if (!p)
		return -EINVAL;
	*p = 'P';
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops directio = {
	.read = (void *)dio_read,
	.write = (void *)dio_write,
	.ioctl = (void *)dio_ioctl,
	.name = "directio",
	.abi_version = BPFDRV_ABI_VERSION,
	.flags = BPFDRV_F_DIRECT_IO,
	.mode = 0666,
};
