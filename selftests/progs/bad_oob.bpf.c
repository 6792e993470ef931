// SPDX-License-Identifier: GPL-2.0
/* Broken driver: reads past the 8 bytes bpfdrv_io_data() granted. */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/oob_read")
int BPF_PROG(oob_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 0, 8);

	if (!p)
		return -EINVAL;
	p[8] = 1;	/* one past the end */
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops bad_oob_ops = {
	.read = (void *)oob_read,
	.name = "bad_oob",
};
