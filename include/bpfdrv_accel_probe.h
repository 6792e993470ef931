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
#define ACCEL_PROBE_DONE	4
#define ACCEL_PROBE_EJECT	5	/* no argument: bpfdrv_eject() */
#define ACCEL_PROBE_SLOT	6	/* a job's slot, and a store through it */
#define ACCEL_PROBE_PT		7	/* accel_probe_vm: its page tables */
#define ACCEL_PROBE_IOCTLS	8	/* how many */

/*
 * accel_probe_vm: VMs of ACCEL_PROBE_VA_BITS address bits, and a page
 * table for each of VMs 1 to ACCEL_PROBE_VMS that accel_vm_map and
 * accel_vm_unmap keep (a map into another VM: ENOSPC). An entry is
 * ACCEL_PROBE_PTE_VALID | the buffer's handle << 32 | its page; PT reads
 * 64 of them from page first of VM vm.
 */
#define ACCEL_PROBE_VA_BITS	20
#define ACCEL_PROBE_VA_PAGES	(1U << (ACCEL_PROBE_VA_BITS - 12))
#define ACCEL_PROBE_VMS		4
#define ACCEL_PROBE_PTE_VALID	(1ULL << 63)
#define ACCEL_PROBE_PT_ENTRIES	64
struct accel_probe_pt {
	__u32 vm;
	__u32 first;
	__u64 pte[ACCEL_PROBE_PT_ENTRIES];	/* out */
};

/* its parameters: GET_PARAM of BPFDRV_ACCEL_PARAM_DRIVER + these */
#define ACCEL_PROBE_PARAM_PINGS	0	/* PINGs so far */
#define ACCEL_PROBE_PARAM_INDEX	1	/* index * 3 + 1, for index < 4 */
#define ACCEL_PROBE_PARAM_BAD	2	/* returns 7: not a value it may */

/* its rings, the jobs each has on the device at once, and their limit */
#define ACCEL_PROBE_RINGS	2
#ifndef ACCEL_PROBE_RING_JOBS		/* accel_probe_multi: 4 */
#define ACCEL_PROBE_RING_JOBS	1
#endif
#ifndef ACCEL_PROBE_TIMEOUT_MS		/* accel_probe_long: 60000 */
#define ACCEL_PROBE_TIMEOUT_MS	300
#endif

/* a job's argument: what its run_job does */
#define PROBE_JOB_STORE		0	/* value into buffer 0 at 0; done */
#define PROBE_JOB_COPY		1	/* 64 bytes of buffer 0 into buffer 1; done */
#define PROBE_JOB_HOLD		2	/* nothing: ends by DONE or its timeout */
#define PROBE_JOB_FAIL		3	/* run_job returns -value */
#define PROBE_JOB_DONE_ERR	4	/* ended at once with -value */
/*
 * The job kfuncs at their edges, for a buffer 0 of value bytes: their
 * results into buffer 0 as struct accel_probe_edges; done
 */
#define PROBE_JOB_EDGES		5
/* run_job loops without end: its budget on the fence path ends it */
#define PROBE_JOB_LOOP		6
/*
 * accel_probe_vm: for each of PROBE_VM_WALK_PAGES pages of the job's VM
 * from page value, the 8 bytes at its start (bpfdrv_job_vm_load()), or
 * PROBE_VM_FAULT | -errno, into buffer 0; done. (64 pages a job overran
 * the dma-fence path's 10 ms under TCG on 6.12.)
 */
#define PROBE_JOB_VM_WALK	7
#define PROBE_VM_WALK_PAGES	16
#define PROBE_VM_FAULT		0xfa17000000000000ULL
struct accel_probe_job {
	__u32 mode;
	__u32 value;
};

struct accel_probe_edges {
	__s32 load_past_end;	/* 4 bytes at value - 2 */
	__s32 load_wrap;	/* 4 bytes at 2^32 - 2 */
	__s32 store_past_end;	/* 4 bytes at value */
	__s32 load_no_bo;	/* from buffer 7, which it does not have */
	__s32 load_other_ring;	/* from buffer 0 of the other, idle, ring */
	__s32 done_other_seqno;	/* bpfdrv_job_done(ring, seqno + 1, 0) */
	__s32 done_bad_err;	/* bpfdrv_job_done(ring, seqno, 1) */
	__s64 dma;		/* bpfdrv_job_bo_dma(): no accel_dma_bits */
	__s32 load_too_big;	/* BPFDRV_JOB_BO_COPY_MAX + 1 bytes at 0 */
	__s32 vm_no_vm;		/* bpfdrv_job_vm_load(): the job names no VM */
	__s32 vm_too_big;	/* ... of BPFDRV_JOB_BO_COPY_MAX + 1 bytes */
	__s32 vm_dma_no_vm;	/* bpfdrv_job_vm_dma(): no VM either */
};

/* DONE: bpfdrv_job_done(ring, seqno, err), its result in ret */
struct accel_probe_done {
	__u32 ring;
	__s32 err;
	__u64 seqno;
	__s32 ret;	/* out */
	__u32 pad;
};

/*
 * SLOT: slot = bpfdrv_job_slot(ring, seqno); with a slot, value stored
 * at 0 of buffer 0 of the job in it; and the kfuncs on a slot past the
 * ring's (ACCEL_PROBE_RING_JOBS).
 */
struct accel_probe_slot {
	__u32 ring;
	__u32 value;
	__u64 seqno;
	__s32 slot;		/* out */
	__s32 store;		/* out */
	__s32 past_load;	/* out: bpfdrv_job_bo_load, slot RING_JOBS */
	__s32 past_slot;	/* out: bpfdrv_job_slot(ring, 0) */
};

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
	__u64 jobs;		/* run_job calls */
	__u64 timeouts;		/* accel_timeout calls */
	__u64 last_timeout;	/* the seqno it got last */
	__u64 loops;		/* rounds of LOOP jobs */
};

#endif /* __BPFDRV_ACCEL_PROBE_H */
