// SPDX-License-Identifier: GPL-2.0
/*
 * spiflash: a SPI NOR flash (the common 25-series command set) as a
 * seekable node, like an MTD character device.
 *
 * init reads the JEDEC ID (command 0x9f) and takes the size from its
 * capacity byte (2^n bytes); a chip select where nothing answers reads all
 * 1s or all 0s, and init fails. After a live update, takeover reads them
 * again: the new code's globals start empty. read gives the flash's bytes (command 0x03,
 * up to 4 KiB per call). write programs them (write enable, then page
 * program 0x02, one 256-byte page per call at most), which as on any NOR
 * flash only clears bits: erase first with SPIFLASH_IOC_ERASE (a 4 KiB
 * sector, command 0x20). After program and erase the driver polls the
 * status register until the chip is no longer busy.
 *
 * Declared for the test controller of selftests/kmods/spi_flash_sim.c,
 * chip select 0, mode 0, 1 MHz; bpfdrv load --spi-controller and --spi-cs
 * point it at another chip.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_spiflash.h"

char _license[] SEC("license") = "GPL";

#define CMD_PAGE_PROGRAM	0x02
#define CMD_READ		0x03
#define CMD_RDSR		0x05
#define CMD_WREN		0x06
#define CMD_ERASE_4K		0x20
#define CMD_RDID		0x9f
#define SR_BUSY			0x01
#define BUSY_POLLS		1000	/* a sector erase takes under 400 ms */

#define READ_MAX		4096
#define CMD_LEN			4	/* command and 24-bit address */

__u8 jedec_id[3];
__u32 flash_size;
/* callbacks of an instance run one at a time: one buffer serves all */
__u8 rx[READ_MAX];
__u8 tx[CMD_LEN + SPIFLASH_PAGE_SIZE];

static int spiflash_cmd(struct bpfdrv_dev *dev, __u8 cmd)
{
	__u8 byte[1] = { cmd };

	return bpfdrv_spi_transfer(dev, byte, sizeof(byte));
}

/* Wait for a program or erase to complete. */
static int spiflash_wait(struct bpfdrv_dev *dev)
{
	__u8 cmd[1] = { CMD_RDSR }, sr[1];
	int i, err;

	for (i = 0; i < BUSY_POLLS; i++) {
		err = bpfdrv_spi_write_then_read(dev, cmd, sizeof(cmd), sr,
						 sizeof(sr));
		if (err)
			return err;
		if (!(sr[0] & SR_BUSY))
			return 0;
		bpfdrv_dev_yield(dev);
	}
	return -ETIMEDOUT;
}

static void spiflash_addr(__u8 *cmd, __u8 op, __u32 addr)
{
	cmd[0] = op;
	cmd[1] = addr >> 16;
	cmd[2] = addr >> 8;
	cmd[3] = addr;
}

/* Read the JEDEC ID, and the size from it. */
static int spiflash_identify(struct bpfdrv_dev *dev)
{
	__u8 cmd[1] = { CMD_RDID };
	int err;

	err = bpfdrv_spi_write_then_read(dev, cmd, sizeof(cmd), jedec_id,
					 sizeof(jedec_id));
	if (err)
		return err;
	/* nothing answers: the bus floats high, or is held low */
	if ((jedec_id[0] == 0xff && jedec_id[1] == 0xff) ||
	    (!jedec_id[0] && !jedec_id[1]))
		return -ENODEV;
	/* 64 KiB to 16 MiB: what 24-bit addresses reach */
	if (jedec_id[2] < 0x10 || jedec_id[2] > 0x18)
		return -EOPNOTSUPP;
	flash_size = 1U << jedec_id[2];
	return 0;
}

SEC("struct_ops.s/spiflash_init")
int BPF_PROG(spiflash_init, struct bpfdrv_dev *dev)
{
	return spiflash_identify(dev);
}

/* New code after a live update: what it knows of the chip, it asks the chip. */
SEC("struct_ops.s/spiflash_takeover")
int BPF_PROG(spiflash_takeover, struct bpfdrv_dev *dev)
{
	return spiflash_identify(dev);
}

SEC("struct_ops.s/spiflash_read")
int BPF_PROG(spiflash_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 cmd[CMD_LEN];
	__u64 pos = io->pos;
	__u32 n;
	int err;

	if (pos >= flash_size)
		return 0;
	n = flash_size - pos;
	if (n > io->len)
		n = io->len;
	if (n > READ_MAX)
		n = READ_MAX;
	if (!n)
		return 0;
	spiflash_addr(cmd, CMD_READ, pos);
	err = bpfdrv_spi_write_then_read(dev, cmd, sizeof(cmd), rx, n);
	return err ?: bpfdrv_io_store_at(io, rx, sizeof(rx), 0, n) ?: n;
}

SEC("struct_ops.s/spiflash_write")
int BPF_PROG(spiflash_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	/* 64-bit, so that the bound checked is the one passed */
	__u64 pos = io->pos, n, len;
	int err;

	if (pos >= flash_size)
		return -ENOSPC;
	/* up to the end of the page: a program wraps within its page */
	n = SPIFLASH_PAGE_SIZE - (pos & (SPIFLASH_PAGE_SIZE - 1));
	if (n > io->len)
		n = io->len;
	if (!n)
		return 0;
	err = bpfdrv_io_load_at(io, tx, sizeof(tx), CMD_LEN, n);
	if (err)
		return err;
	spiflash_addr(tx, CMD_PAGE_PROGRAM, pos);
	/* n is at most a page; say so where the verifier sees it */
	len = CMD_LEN + n;
	if (len > sizeof(tx))
		return -EINVAL;
	err = spiflash_cmd(dev, CMD_WREN) ?:
	      bpfdrv_spi_transfer(dev, tx, len) ?:
	      spiflash_wait(dev);
	return err ?: n;
}

SEC("struct_ops.s/spiflash_ioctl")
int BPF_PROG(spiflash_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct spiflash_info *info;
	__u8 erase[CMD_LEN];

	switch (cmd) {
	case SPIFLASH_IOC_INFO:
		info = (void *)bpfdrv_io_data(io, 0, sizeof(*info));
		if (!info)
			return -EINVAL;
		__builtin_memcpy(info->jedec_id, jedec_id, sizeof(jedec_id));
		info->reserved = 0;
		info->size = flash_size;
		return 0;
	case SPIFLASH_IOC_ERASE:
		if (io->arg >= flash_size ||
		    io->arg & (SPIFLASH_SECTOR_SIZE - 1))
			return -EINVAL;
		spiflash_addr(erase, CMD_ERASE_4K, io->arg);
		return spiflash_cmd(dev, CMD_WREN) ?:
		       bpfdrv_spi_transfer(dev, erase, sizeof(erase)) ?:
		       spiflash_wait(dev);
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops spiflash_ops = {
	.init = (void *)spiflash_init,
	.read = (void *)spiflash_read,
	.write = (void *)spiflash_write,
	.ioctl = (void *)spiflash_ioctl,
	.takeover = (void *)spiflash_takeover,
	.name = "spiflash",
	.abi_version = BPFDRV_ABI_VERSION,
	.flags = BPFDRV_F_SEEKABLE,
	.spi_controller = "bpfdrv-spi-sim",
	.spi_cs = 0,
	.spi_mode = BPFDRV_SPI_MODE_0,
	.spi_max_speed_hz = 1000000,
};
