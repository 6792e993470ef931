// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: tell bpfdrv_job_bo_load() the 8-byte stack buffer holds 512
 * bytes, so the kernel would copy a job's buffer over the program's
 * stack frame.
 * expect: invalid (indirect access to|read from) stack
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,
	     struct bpfdrv_io *arg)
{
	char buf[8];

	bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(ring, 0), 0, buf, 512);
	return buf[0];
}

HOSTILE_OPS(job_load_past_stack, .accel_run_job = (void *)attack,
	    .accel = 1, .accel_rings = 1);
