/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* The echo driver's ioctls, shared with user space. */
#ifndef __BPFDRV_ECHO_H
#define __BPFDRV_ECHO_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Capacity of an echo device's buffer. */
#define ECHO_CAPACITY		(128 * 1024)

struct echo_info {
	__u32 stored;	/* bytes waiting to be read back */
	__u32 capacity;
	__u64 total_written;
};

#define ECHO_IOC_INFO	_IOR('E', 1, struct echo_info)
#define ECHO_IOC_CLEAR	_IO('E', 2)
/* The version of the driver's code (changes with a live update). */
#define ECHO_IOC_VERSION	_IOR('E', 3, __u32)

#endif /* __BPFDRV_ECHO_H */
