/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The edu_stale test driver (selftests/progs/edu_stale.bpf.c): a job's
 * argument is one of these, as a __u32.
 */
#ifndef __BPFDRV_EDU_STALE_H
#define __BPFDRV_EDU_STALE_H

#include <linux/types.h>

/* keep buffer 0's bus address, done; EPROTO if the kfunc's edges fail */
#define EDU_STALE_KEEP	0
#define EDU_STALE_LOAD	1	/* buffer 0's first 4 KiB into edu, by DMA */
#define EDU_STALE_WRITE	2	/* edu's 4 KiB to the kept address, by DMA */
#define EDU_STALE_STORE	3	/* edu's 4 KiB into buffer 0, by DMA */

#endif /* __BPFDRV_EDU_STALE_H */
