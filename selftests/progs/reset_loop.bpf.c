// SPDX-License-Identifier: GPL-2.0
/*
 * resetloop: a PCI test driver (attach with --device) whose reset_prepare
 * would loop for ever: its bpfdrv_for() loop ends at loop_max_ms, as the
 * reset holds the function's device lock, and the driver is ejected.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops.s/rl_reset_prepare")
void BPF_PROG(rl_reset_prepare, struct bpfdrv_dev *dev)
{
	int i;

	bpfdrv_for(i, dev, 0, 0x7fffffff)
		bpfdrv_dev_yield(dev);
}

SEC(".struct_ops.link")
struct chr_ext_ops resetloop = {
	.reset_prepare = (void *)rl_reset_prepare,
	.name = "resetloop",
	.abi_version = BPFDRV_ABI_VERSION,
};
