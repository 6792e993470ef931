/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The aerprobe test driver (selftests/progs/aer_probe.bpf.c), attached with
 * --device on a PCIe function with AER: it votes as user space says in
 * error_detected and slot_reset, counts the recovery's callbacks, and
 * fails its ioctls with EIO from error_detected until error_resume.
 */
#ifndef __BPFDRV_AERPROBE_H
#define __BPFDRV_AERPROBE_H

#include <linux/ioctl.h>
#include <linux/types.h>

struct aerprobe_votes {
	__u32 detected;		/* error_detected's BPFDRV_ERS_* */
	__u32 slot;		/* slot_reset's */
};

struct aerprobe_counts {
	__u32 detected;		/* error_detected calls */
	__u32 last_state;	/* the last one's BPFDRV_PCI_ERR_* */
	__u32 slot_resets;
	__u32 resumes;
	__u32 offline;		/* between error_detected and error_resume */
	__u32 reg;		/* BAR 0's register 8 (a NIC's status), read now */
};

#define AERP_IOC_VOTES	_IOW('a', 1, struct aerprobe_votes)
#define AERP_IOC_COUNTS	_IOR('a', 2, struct aerprobe_counts)
#define AERP_IOC_PING	_IO('a', 3)	/* 0, or EIO while offline */

#endif /* __BPFDRV_AERPROBE_H */
