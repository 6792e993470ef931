// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for DMA buffers (ABI 3), on QEMU's pci-testdev, which does
 * no DMA itself: the buffers are checked through the copy kfuncs and
 * through the mmap windows, buffer n at n MiB of the node.
 *
 * ioctl DMA_ALLOC (arg: nr | size << 8) and DMA_FREE (arg: nr) return the
 * kfunc's result (alloc: 0 for a bus address); DMA_WRITE(nr) and
 * DMA_READ(nr) copy 64 bytes between the call and the start of buffer nr.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define DMA_ALLOC	0x4401		/* _IO('D', 1) */
#define DMA_FREE	0x4402		/* _IO('D', 2) */
#define DMA_NR(cmd)	((cmd) & 0xf)
#define DMA_IS_WRITE(cmd)	(((cmd) & ~0xfU) == 0x40404410)	/* _IOW('D', 0x10 + nr, 64) */
#define DMA_IS_READ(cmd)	(((cmd) & ~0xfU) == 0x80404420)	/* _IOR('D', 0x20 + nr, 64) */
#define MiB		0x100000ULL
#define RW		(BPFDRV_MAP_READ | BPFDRV_MAP_WRITE)
#define WINDOW(n)	{ BPFDRV_REGION_DMA(n), RW, (n) * MiB, 0, 0 }

SEC("struct_ops.s/dma_bufs_ioctl")
int BPF_PROG(dma_bufs_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	__s64 ret;

	if (cmd == DMA_ALLOC) {
		ret = bpfdrv_dma_buf_alloc(dev, io->arg & 0xff, io->arg >> 8, 32);
		return ret < 0 ? ret : 0;
	}
	if (cmd == DMA_FREE)
		return bpfdrv_dma_buf_free(dev, io->arg);
	if (DMA_IS_WRITE(cmd))
		return bpfdrv_io_to_dma_buf(io, 0, dev,
					    BPFDRV_DMA_POS(DMA_NR(cmd), 0), 64);
	if (DMA_IS_READ(cmd))
		return bpfdrv_dma_buf_to_io(dev, BPFDRV_DMA_POS(DMA_NR(cmd), 0),
					    io, 0, 64);
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops dma_bufs = {
	.ioctl = (void *)dma_bufs_ioctl,
	.name = "dma_bufs",
	.abi_version = BPFDRV_ABI_VERSION,
	.pci_ids = { { 0x1b36, 0x0005 } },
	.mode = 0600,
	.mmaps = { WINDOW(0), WINDOW(1), WINDOW(2), WINDOW(3), WINDOW(4),
		   WINDOW(5), WINDOW(6), WINDOW(7) },
};
