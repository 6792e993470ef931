// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: per-open-file state. write stores the bytes in the file's
 * private storage; read returns this file's bytes, so two open files of one
 * device read back different data. No ioctl, so ioctl must give ENOTTY.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

struct file_state {
	__u32 len;
	__u8 data[32];
};

SEC("struct_ops/fs_write")
int BPF_PROG(fs_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	struct file_state *st = bpfdrv_file_state(file, struct file_state);
	__u32 n = min(io->len, sizeof(st->data));

	if (!st)
		return -EINVAL;
	if (n > sizeof(st->data))	/* bound for the verifier */
		return -EINVAL;
	if (bpfdrv_io_load(io, 0, st->data, n))
		return -EIO;
	st->len = n;
	return n;
}

SEC("struct_ops/fs_read")
int BPF_PROG(fs_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	struct file_state *st = bpfdrv_file_state(file, struct file_state);
	__u32 n;

	if (!st)
		return -EINVAL;
	n = min(io->len, st->len);
	if (n > sizeof(st->data))
		return -EINVAL;
	if (bpfdrv_io_store(io, 0, st->data, n))
		return -EIO;
	st->len = 0;
	return n;
}

SEC(".struct_ops.link")
struct chr_ext_ops filestate_ops = {
	.read = (void *)fs_read,
	.write = (void *)fs_write,
	.name = "filestate",
	.mode = 0666,
};
