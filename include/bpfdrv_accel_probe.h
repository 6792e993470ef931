/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* The accel_probe test driver's ioctls (selftests/progs/accel_probe.bpf.c). */
#ifndef __BPFDRV_ACCEL_PROBE_H
#define __BPFDRV_ACCEL_PROBE_H

#include <linux/types.h>

/* indexes in its accel_ioctls: the ioctl is DRM_BPFDRV_DRIVER_BASE + index */
#define ACCEL_PROBE_ADD		0
#define ACCEL_PROBE_PING	1
#define ACCEL_PROBE_FAIL	2
#define ACCEL_PROBE_STATE	3

struct accel_probe_add {
	__u32 a;
	__u32 b;
	__u32 sum;	/* out: a + b */
	__u32 calls;	/* out: ADDs on this file, this one included */
};

struct accel_probe_state {
	__u64 opens;
	__u64 releases;
	__u64 pings;
	__u64 last_file;	/* id of the file opened last */
};

#endif /* __BPFDRV_ACCEL_PROBE_H */
