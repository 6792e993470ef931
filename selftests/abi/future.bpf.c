// SPDX-License-Identifier: GPL-2.0
/*
 * A driver built for an ABI newer than the module's: bpfdrv load refuses it
 * before loading, and the module refuses it when registered by another
 * loader (bpftool), both naming the two versions.
 */
#include "bpfdrv.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/future_read")
int BPF_PROG(future_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops future = {
	.read = (void *)future_read,
	.name = "future",
	.abi_version = BPFDRV_ABI_VERSION + 1,
};
