// SPDX-License-Identifier: GPL-2.0
/*
 * Test drivers for the SPI kfuncs' checks. spi_probe has the test
 * controller's chip select 1, where nothing is wired (the bus reads all
 * 1s); spi_none declares no SPI device. The ioctls run one kfunc with the
 * length given as the argument, from buffers larger than any transfer may
 * be, and return its error or the last byte received.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define SPI_PROBE_TRANSFER	_IO('P', 1)
#define SPI_PROBE_WRITE_THEN_READ _IO('P', 2)
#define BUF_SIZE		(2 * BPFDRV_SPI_XFER_MAX)

__u8 buf[BUF_SIZE];

static int probe(struct bpfdrv_dev *dev, unsigned int cmd, __u64 arg)
{
	__u8 tx[1] = { 0x9f };
	int ret;

	if (!arg || arg > BUF_SIZE)
		return -ERANGE;
	buf[arg - 1] = 0;
	switch (cmd) {
	case SPI_PROBE_TRANSFER:
		ret = bpfdrv_spi_transfer(dev, buf, arg);
		break;
	case SPI_PROBE_WRITE_THEN_READ:
		ret = bpfdrv_spi_write_then_read(dev, tx, sizeof(tx), buf, arg);
		break;
	default:
		return -ENOTTY;
	}
	return ret ?: buf[arg - 1];
}

SEC("struct_ops.s/spi_probe_ioctl")
int BPF_PROG(spi_probe_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	return probe(dev, cmd, io->arg);
}

SEC("struct_ops.s/spi_none_ioctl")
int BPF_PROG(spi_none_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	return probe(dev, cmd, io->arg);
}

SEC(".struct_ops.link")
struct chr_ext_ops spi_probe = {
	.ioctl = (void *)spi_probe_ioctl,
	.name = "spi_probe",
	.abi_version = BPFDRV_ABI_VERSION,
	.spi_controller = "bpfdrv-spi-sim",
	.spi_cs = 1,
};

SEC(".struct_ops.link")
struct chr_ext_ops spi_none = {
	.ioctl = (void *)spi_none_ioctl,
	.name = "spi_none",
	.abi_version = BPFDRV_ABI_VERSION,
};
