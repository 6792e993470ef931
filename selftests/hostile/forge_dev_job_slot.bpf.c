// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a zeroed device instance on the stack, passed to
 * bpfdrv_job_slot() (ABI 9), which tells the slot of a job on whatever
 * instance's ring it names, and so reaches its buffers.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_dev must point to|R1 is fp expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct bpfdrv_dev fake = {};

	return bpfdrv_job_slot(&fake, 0, 1) < 0 ? 0 : -1;
}

HOSTILE_OPS(forge_dev_job_slot, .init = (void *)attack);
