// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for QEMU's pci-testdev, whose BAR 1 is I/O ports: the
 * bpfdrv_mmio_*() kfuncs reach it as they reach memory BARs. An ioctl
 * reads or writes one port of BAR 1, at the offset its integer argument
 * gives (for a write, the byte in bits 8-15).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define PORTIO_READ32	0x5001	/* _IO('P', 1): the dword at offset arg */
#define PORTIO_WRITE8	0x5002	/* _IO('P', 2): byte arg >> 8 at offset arg & 0xff */
#define PORTIO_LEN	0x5003	/* _IO('P', 3): the length of BAR arg */

SEC("struct_ops.s/portio_ioctl")
int BPF_PROG(portio_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	__u64 val = 0;
	int ret;

	switch (cmd) {
	case PORTIO_READ32:
		ret = bpfdrv_mmio_read(dev, 1, io->arg, 4, &val);
		return ret ?: (int)(val & 0x7fffffff);
	case PORTIO_WRITE8:
		return bpfdrv_mmio_write(dev, 1, io->arg & 0xff, 1, io->arg >> 8);
	case PORTIO_LEN:
		return bpfdrv_pci_bar_len(dev, io->arg);
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops portio = {
	.ioctl = (void *)portio_ioctl,
	.name = "portio",
	.pci_ids = { { 0x1b36, 0x0005 } },
	.mode = 0600,
};
