// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: the formatting helpers format scalars only. A write of 16
 * bytes, { u8 mode; u8 pad[7]; u64 value; }, picks a format; the next read
 * returns what the helper returned (an error as the read's) and the text.
 * %s and %p would read the memory at value: bpfdrv's wrappers refuse them.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

enum { FMT_SNPRINTF_S, FMT_SNPRINTF_D, FMT_SNPRINTF_PX, FMT_PRINTK_S,
       FMT_PRINTK_D, FMT_VPRINTK_S };

__u8 mode;
__u64 value;
char out[64];

SEC("struct_ops/fmt_write")
int BPF_PROG(fmt_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u64 in[2];

	if (io->len != sizeof(in) || bpfdrv_io_load(io, 0, in, sizeof(in)))
		return -EINVAL;
	mode = in[0];
	value = in[1];
	return sizeof(in);
}

SEC("struct_ops/fmt_read")
int BPF_PROG(fmt_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u64 v = value;
	long ret;

	__builtin_memset(out, 0, sizeof(out));
	switch (mode) {
	case FMT_SNPRINTF_S:
		ret = BPF_SNPRINTF(out, sizeof(out), "%s", v);
		break;
	case FMT_SNPRINTF_D:
		ret = BPF_SNPRINTF(out, sizeof(out), "%llu", v);
		break;
	case FMT_SNPRINTF_PX:
		ret = BPF_SNPRINTF(out, sizeof(out), "%px", v);
		break;
	case FMT_PRINTK_S:
		ret = bpf_printk("fmt_scalars %s", v);
		break;
	case FMT_PRINTK_D:
		ret = bpf_printk("fmt_scalars %llu", v);
		break;
	case FMT_VPRINTK_S:
		ret = bpf_printk("fmt_scalars %d %d %d %s", 1, 2, 3, v);
		break;
	default:
		return -EINVAL;
	}
	if (ret < 0)
		return ret;
	if (io->len < sizeof(out) || bpfdrv_io_store(io, 0, out, sizeof(out)))
		return -EINVAL;
	return sizeof(out);
}

SEC(".struct_ops.link")
struct chr_ext_ops fmt_scalars = {
	.read = (void *)fmt_read,
	.write = (void *)fmt_write,
	.name = "fmt_scalars",
	.mode = 0600,
};
