/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * edu_accel (bpf-drivers/edu_accel.bpf.c): QEMU's edu device as a DRM
 * accelerator. A job on its ring computes the factorials of the values in
 * its buffer EDU_ACCEL_BO_IN into its buffer EDU_ACCEL_BO_OUT, as __u32s
 * (EDU_ACCEL_OP_FACT), or copies bytes of EDU_ACCEL_BO_IN into the
 * device's memory and from there into EDU_ACCEL_BO_OUT, by DMA
 * (EDU_ACCEL_OP_DMA), or copies bytes from one address of the VM the job
 * names to another the same way (EDU_ACCEL_OP_DMA_VM).
 */
#ifndef __BPFDRV_EDU_ACCEL_H
#define __BPFDRV_EDU_ACCEL_H

#include <linux/types.h>

#define EDU_ACCEL_BO_IN		0	/* index in the job's buffers */
#define EDU_ACCEL_BO_OUT	1
#define EDU_ACCEL_VALUES_MAX	1024	/* values of one job */
#define EDU_ACCEL_VALUE_MAX	12	/* 13! does not fit 32 bits */
#define EDU_ACCEL_DMA_MAX	4096	/* bytes of a DMA job: edu's memory */
#define EDU_ACCEL_VA_BITS	32	/* a VM's size: 4 GiB */

#define EDU_ACCEL_OP_FACT	0
#define EDU_ACCEL_OP_DMA	1
#define EDU_ACCEL_OP_DMA_VM	2

/* the job's argument (drm_bpfdrv_submit.arg) */
struct edu_accel_job {
	__u32 count;	/* values, 1..VALUES_MAX; DMA: bytes, 1..DMA_MAX */
	__u32 op;	/* EDU_ACCEL_OP_*; absent (a 4-byte argument): FACT */
	/* DMA_VM (a 24-byte argument): addresses in the job's VM */
	__u64 src;
	__u64 dst;
};

#endif /* __BPFDRV_EDU_ACCEL_H */
