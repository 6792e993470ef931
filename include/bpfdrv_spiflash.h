/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* The spiflash driver's ioctls, shared with user space. */
#ifndef __BPFDRV_SPIFLASH_H
#define __BPFDRV_SPIFLASH_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SPIFLASH_SECTOR_SIZE	4096	/* the unit of erase */
#define SPIFLASH_PAGE_SIZE	256	/* the unit of programming */

struct spiflash_info {
	__u8 jedec_id[3];	/* manufacturer, memory type, capacity */
	__u8 reserved;
	__u32 size;		/* bytes */
};

#define SPIFLASH_IOC_INFO	_IOR('F', 1, struct spiflash_info)
/* Erase the sector at the byte offset given as the argument (to 0xff). */
#define SPIFLASH_IOC_ERASE	_IO('F', 2)

#endif /* __BPFDRV_SPIFLASH_H */
