// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: two windows that overlap. */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/bad_mmap_open")
int BPF_PROG(bad_mmap_open, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops bad_mmap_overlap = {
	.open = (void *)bad_mmap_open,
	.name = "bad_mmap_overlap",
	.abi_version = BPFDRV_ABI_VERSION,
	.pci_ids = { { 0x1b36, 0x0005 } },
	.mmaps = {
		{ BPFDRV_REGION_BAR(0), BPFDRV_MAP_READ, 0, 0, 8192 },
		{ BPFDRV_REGION_DMA(0), BPFDRV_MAP_READ, 4096, 0, 0 },
	},
};
