/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The msixtest test driver (selftests/progs/msixtest.bpf.c), attached
 * with --device on QEMU's igb function (82576: 10 MSI-X vectors): it asks
 * for several interrupt vectors (ABI 13) and MSIXT_IOC_RING makes the
 * device raise one of them a number of times (EICS). A read blocks until
 * an interrupt has completed since the file was opened (or last read),
 * and gives the counts.
 */
#ifndef __BPFDRV_MSIXTEST_H
#define __BPFDRV_MSIXTEST_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define MSIXT_VECTORS	16	/* counted per vector: 0..15 */

enum msixtest_mode {
	MSIXT_HARD,	/* irq_hard handles every vector */
	MSIXT_WAKE_ODD,	/* odd vectors: BPFDRV_IRQ_WAKE, irq finishes them */
	MSIXT_MODES
};

struct msixtest_ring {
	__u32 vector;	/* the device's MSI-X vector, < 10 */
	__u32 times;	/* EICS writes, back to back */
};

struct msixtest_counts {
	__u32 hard[MSIXT_VECTORS];	/* irq_hard calls, by the index it got */
	__u32 thread[MSIXT_VECTORS];	/* irq calls, by the index it got */
	__u64 done;			/* interrupts completed */
	__u32 bad;			/* calls with an index >= MSIXT_VECTORS */
	__u32 pad;
};

#define MSIXT_IOC_MODE		_IOW('X', 1, __u32)
#define MSIXT_IOC_RING		_IOW('X', 2, struct msixtest_ring)
#define MSIXT_IOC_COUNTS	_IOR('X', 3, struct msixtest_counts)

#endif /* __BPFDRV_MSIXTEST_H */
