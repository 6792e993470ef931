// SPDX-License-Identifier: GPL-2.0
/*
 * Broken driver: uses the pointer from bpfdrv_io_data() without the NULL
 * check the kfunc's KF_RET_NULL demands.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/nocheck_write")
int BPF_PROG(nocheck_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	__u8 *p = bpfdrv_io_data(io, 0, 1);

	return *p;
}

SEC(".struct_ops.link")
struct chr_ext_ops bad_kfunc_ops = {
	.write = (void *)nocheck_write,
	.name = "bad_kfunc",
};
