// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: a window at an offset that is not a multiple of the page size. */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/bad_mmap_open")
int BPF_PROG(bad_mmap_open, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops bad_mmap_align = {
	.open = (void *)bad_mmap_open,
	.name = "bad_mmap_align",
	.abi_version = BPFDRV_ABI_VERSION,
	.pci_ids = { { 0x1b36, 0x0005 } },
	.mmaps = {
		{ BPFDRV_REGION_BAR(0), BPFDRV_MAP_READ, 100, 0, 0 },
	},
};
