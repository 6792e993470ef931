/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The fwprobe test driver (selftests/progs/fw_probe.bpf.c), attached with
 * --device on an edu function: it declares the firmware file probe.fw and
 * calls the firmware kfuncs with the arguments user space gives, so a test
 * reaches each of their checks (selftests/test_fw.c).
 */
#ifndef __BPFDRV_FWPROBE_H
#define __BPFDRV_FWPROBE_H

#include <linux/ioctl.h>
#include <linux/types.h>

enum fwprobe_op {
	FWP_SIZE,	/* bpfdrv_fw_size(fw) */
	FWP_TO_DMA,	/* bpfdrv_fw_to_dma_buf(fw, fw_off, pos, len) */
	FWP_TO_BAR,	/* bpfdrv_fw_to_bar(fw, fw_off, pos, len) */
	FWP_DMA_READ,	/* data: 64 bytes of DMA buffer 0 at pos */
	FWP_REG_READ,	/* ret: the 32-bit register at pos of BAR0 */
};

#define FWP_DMA_SIZE	4096	/* DMA buffer 0, allocated at init */

struct fwprobe_call {
	__u32 op;	/* enum fwprobe_op */
	__u32 fw;
	__u64 fw_off;
	__u64 pos;
	__u32 len;
	__u32 pad;
	__s64 ret;	/* out: the kfunc's return */
	__u8 data[64];	/* out: FWP_DMA_READ */
};

#define FWP_IOC_CALL	_IOWR('w', 1, struct fwprobe_call)

#endif /* __BPFDRV_FWPROBE_H */
