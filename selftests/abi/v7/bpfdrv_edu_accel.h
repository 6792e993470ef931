/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * edu_accel (bpf-drivers/edu_accel.bpf.c): QEMU's edu device as a DRM
 * accelerator. A job on its ring computes the factorials of the values in
 * its buffer EDU_ACCEL_BO_IN into its buffer EDU_ACCEL_BO_OUT, as __u32s.
 */
#ifndef __BPFDRV_EDU_ACCEL_H
#define __BPFDRV_EDU_ACCEL_H

#include <linux/types.h>

#define EDU_ACCEL_BO_IN		0	/* index in the job's buffers */
#define EDU_ACCEL_BO_OUT	1
#define EDU_ACCEL_VALUES_MAX	1024	/* values of one job */
#define EDU_ACCEL_VALUE_MAX	12	/* 13! does not fit 32 bits */

/* the job's argument (drm_bpfdrv_submit.arg) */
struct edu_accel_job {
	__u32 count;	/* values, 1..EDU_ACCEL_VALUES_MAX */
};

#endif /* __BPFDRV_EDU_ACCEL_H */
