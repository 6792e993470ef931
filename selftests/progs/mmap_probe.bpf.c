// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for the mmap checks, on QEMU's pci-testdev (BAR 0: 4 KiB of
 * memory, BAR 1: I/O ports) and virtio-rng-pci (BAR 0: I/O ports, BAR 1:
 * the MSI-X table, BAR 4: 16 KiB of memory). Its windows, one per MiB of
 * the node, each meet a check on one device or the other. init gives each
 * instance a DMA buffer of 5000 bytes: two pages. ioctl MMAP_PROBE_EJECT
 * makes the driver eject itself, to revoke mappings that way.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define MiB	0x100000ULL
#define RW	(BPFDRV_MAP_READ | BPFDRV_MAP_WRITE)
#define MMAP_PROBE_EJECT	0x4d01	/* _IO('M', 1) */

SEC("struct_ops.s/mmap_probe_init")
int BPF_PROG(mmap_probe_init, struct bpfdrv_dev *dev)
{
	__s64 addr = bpfdrv_dma_alloc(dev, 5000, 32);

	return addr < 0 ? addr : 0;
}

SEC("struct_ops.s/mmap_probe_ioctl")
int BPF_PROG(mmap_probe_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	if (cmd != MMAP_PROBE_EJECT)
		return -ENOTTY;
	bpfdrv_error(dev, "asked to eject by ioctl");
	return -EIO;
}

SEC(".struct_ops.link")
struct chr_ext_ops mmap_probe = {
	.init = (void *)mmap_probe_init,
	.ioctl = (void *)mmap_probe_ioctl,
	.name = "mmap_probe",
	.abi_version = BPFDRV_ABI_VERSION,
	.pci_ids = { { 0x1b36, 0x0005 }, { 0x1af4, 0x1005 } },
	.mode = 0600,
	.mmaps = {
		/* testdev: read-only; virtio-rng: I/O ports */
		{ BPFDRV_REGION_BAR(0), BPFDRV_MAP_READ, 0 * MiB, 0, 0 },
		/* testdev: I/O ports; virtio-rng: the MSI-X table */
		{ BPFDRV_REGION_BAR(1), RW, 1 * MiB, 0, 0 },
		/* testdev: no BAR 4; virtio-rng: mappable */
		{ BPFDRV_REGION_BAR(4), RW, 2 * MiB, 0, 0 },
		/* testdev: starts at the end of BAR 0 */
		{ BPFDRV_REGION_BAR(0), RW, 3 * MiB, 4096, 0 },
		/* the DMA buffer, whole (two pages) */
		{ BPFDRV_REGION_DMA(0), RW, 4 * MiB, 0, 0 },
		/* its second page only */
		{ BPFDRV_REGION_DMA(0), RW, 5 * MiB, 4096, 4096 },
	},
};
