/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * QEMU's edu PCI device: its registers, and the user interface shared by
 * the BPF driver (bpf-drivers/edu.bpf.c) and the reference C driver
 * (selftests/kmods/edu_ref.c), so one test or benchmark drives either.
 *
 * Factorial mode (the default): write a decimal number n (0-12 fit in the
 * device's 32 bits), then read "n!\n". The device computes it and raises an
 * interrupt; the read sleeps until then (EAGAIN with O_NONBLOCK). One file
 * at a time owns the unit, from its write until its read; other writers
 * wait. A second write before the read gives EBUSY; a read with nothing
 * pending returns 0.
 *
 * DMA mode (EDU_IOC_SET_MODE): write(2) of up to 4096 bytes moves them into
 * the device's buffer by DMA, read(2) moves them back; each waits for the
 * device's DMA interrupt. Blocking files only (EINVAL with O_NONBLOCK).
 */
#ifndef __BPFDRV_EDU_H
#define __BPFDRV_EDU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define EDU_VENDOR		0x1234
#define EDU_DEVICE		0x11e8
#define EDU_ID_MAGIC		0xed	/* low byte of EDU_REG_ID */

#define EDU_REG_ID		0x00
#define EDU_REG_LIVENESS	0x04	/* reads back ~value */
#define EDU_REG_FACT		0x08
#define EDU_REG_STATUS		0x20
#define EDU_REG_IRQ_STATUS	0x24
#define EDU_REG_IRQ_RAISE	0x60
#define EDU_REG_IRQ_ACK		0x64
#define EDU_REG_DMA_SRC		0x80
#define EDU_REG_DMA_DST		0x88
#define EDU_REG_DMA_COUNT	0x90
#define EDU_REG_DMA_CMD		0x98

#define EDU_STATUS_COMPUTING	0x01
#define EDU_STATUS_IRQ_FACT	0x80
#define EDU_IRQ_FACT		0x01
#define EDU_IRQ_DMA		0x100
#define EDU_DMA_START		0x01
#define EDU_DMA_TO_RAM		0x02
#define EDU_DMA_IRQ		0x04
#define EDU_DMA_DEV_ADDR	0x40000	/* the device's own buffer */
#define EDU_DMA_SIZE		4096
#define EDU_DMA_MASK_BITS	28

/*
 * mmap of the node (ABI 3): the register BAR at offset EDU_MMAP_BAR, the
 * DMA buffer (2 * EDU_DMA_SIZE; its bus address is edu_info.dma_addr) at
 * EDU_MMAP_DMA, both read-write and shared. A process that drives the
 * device through them shares it with the driver's own read and write.
 */
#define EDU_MMAP_BAR		0
#define EDU_MMAP_DMA		0x100000

#define EDU_MODE_FACT		0
#define EDU_MODE_DMA		1

struct edu_info {
	__u32 id;		/* EDU_REG_ID */
	__u32 index;		/* instance number */
	__u64 dma_addr;		/* bus address of the DMA buffer */
	__u64 bar_len;		/* length of BAR0 */
};

/* Raw register access: off and size (4 or 8) are checked by the kernel. */
struct edu_reg {
	__u32 off;
	__u32 size;
	__u64 val;
};

#define EDU_IOC_INFO		_IOR('e', 1, struct edu_info)
#define EDU_IOC_LIVENESS	_IOWR('e', 2, __u32)	/* in: v, out: ~v */
#define EDU_IOC_REG_READ	_IOWR('e', 3, struct edu_reg)
#define EDU_IOC_REG_WRITE	_IOW('e', 4, struct edu_reg)
#define EDU_IOC_SET_MODE	_IOW('e', 5, __u32)
#define EDU_IOC_VERSION		_IOR('e', 6, __u32)	/* of the driver's code */

/*
 * Power management (ABI 13): the driver's suspend and resume calls, and
 * the last 16 of them in order, one hex digit each, the newest lowest:
 * EDU_PM_* below. quiesced_calls: calls of the driver that came while it
 * was quiesced (after a reset_prepare or a suspend that succeeded, before
 * their reset_done or resume), which bpfdrv promises never happen.
 */
struct edu_pm {
	__u32 suspends;
	__u32 resumes;
	__u64 hist;
	__u32 quiesced_calls;
	__u32 pad;
};

#define EDU_PM_SUSPEND_RUNTIME	1
#define EDU_PM_SUSPEND_SYSTEM	2
#define EDU_PM_RESUME_RUNTIME	3
#define EDU_PM_RESUME_SYSTEM	4

#define EDU_IOC_PM		_IOR('e', 7, struct edu_pm)

/*
 * Only in the test build with runtime PM (edu_pm.bpf.o): what the next
 * suspends and resumes do wrong, to test the framework with (0: nothing).
 */
struct edu_pm_fail {
	__s32 suspend_ret;	/* suspend returns it */
	__s32 resume_ret;	/* resume returns it */
	__u32 resume_ms;	/* resume takes this long (yielding) */
	__u32 pad;
};

#define EDU_IOC_PM_FAIL		_IOW('e', 8, struct edu_pm_fail)

#endif /* __BPFDRV_EDU_H */
