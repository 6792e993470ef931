/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The irqtest test driver (selftests/progs/irqtest.bpf.c), attached with
 * --device on an edu function: IRQT_IOC_RAISE raises an edu interrupt and
 * IRQT_IOC_MODE says what the next ones do in irq_hard. A read blocks
 * until an interrupt raised since the file was opened (or last read) has
 * completed, and gives the counts.
 */
#ifndef __BPFDRV_IRQTEST_H
#define __BPFDRV_IRQTEST_H

#include <linux/ioctl.h>
#include <linux/types.h>

enum irqtest_mode {
	IRQT_HANDLED,	/* acknowledge, wake readers, BPFDRV_IRQ_HANDLED */
	IRQT_WAKE,	/* acknowledge, BPFDRV_IRQ_WAKE: irq finishes it */
	IRQT_SLOW,	/* spin for millions of iterations first */
	IRQT_BADRET,	/* return 7 */
	IRQT_EJECT,	/* report a fatal error with bpfdrv_error() */
	IRQT_MODES
};

struct irqtest_counts {
	__u64 hard;	/* interrupts irq_hard acknowledged */
	__u64 thread;	/* irq calls */
	__u64 slept;	/* of those, calls of a sleepable kfunc that returned 0 */
	__u64 none;	/* irq_hard calls that found nothing to acknowledge */
	__u64 done;	/* interrupts completed: by irq_hard, or by irq if woken */
};

#define IRQT_IOC_MODE	_IOW('Q', 1, __u32)	/* an enum irqtest_mode */
#define IRQT_IOC_RAISE	_IO('Q', 2)
#define IRQT_IOC_COUNTS	_IOR('Q', 3, struct irqtest_counts)

#endif /* __BPFDRV_IRQTEST_H */
