/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The ejector test driver (selftests/progs/ejector.bpf.c): a small FIFO
 * whose ioctls arm a fatal error in the next call of one callback, or make
 * reads return bad lengths, so that every way a driver gets ejected can be
 * triggered from user space. An instance named ej_init* fails in init.
 */
#ifndef __BPFDRV_EJECTOR_H
#define __BPFDRV_EJECTOR_H

#include <linux/ioctl.h>

enum ejector_cb {
	EJ_NONE,
	EJ_OPEN,
	EJ_RELEASE,
	EJ_READ,
	EJ_WRITE,
	EJ_IOCTL,	/* this very ioctl */
	EJ_POLL,
	EJ_IRQ,		/* raises an edu interrupt (instances on edu) */
};

#define EJ_IOC_ARM	_IOW('J', 1, __u32)	/* an enum ejector_cb */
#define EJ_IOC_BADRET	_IO('J', 2)		/* reads return 2^20 from now */

#endif /* __BPFDRV_EJECTOR_H */
