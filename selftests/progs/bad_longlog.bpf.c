// SPDX-License-Identifier: GPL-2.0
/*
 * Broken driver with a long verifier log: 64 unrolled steps before an
 * out-of-bounds store, so the log runs well past 4 KiB and the error is at
 * its end. The loader must still print the error (and -v all of it).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/longlog_write")
int BPF_PROG(longlog_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 0, 8);
	__u32 sum = 0;
	int i;

	if (!p)
		return -EINVAL;
#pragma unroll
	for (i = 0; i < 64; i++)
		sum += p[i & 7] * (i + 1);
	p[8] = sum;	/* one past the end */
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops bad_longlog_ops = {
	.write = (void *)longlog_write,
	.name = "bad_longlog",
};
