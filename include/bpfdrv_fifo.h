/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* The fifo driver's constants, shared with user space. */
#ifndef __BPFDRV_FIFO_H
#define __BPFDRV_FIFO_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Bytes a fifo device holds before writers block. */
#define FIFO_CAPACITY	4096

/* The version of the driver's code (changes with a live update). */
#define FIFO_IOC_VERSION	_IOR('F', 1, __u32)

#endif /* __BPFDRV_FIFO_H */
