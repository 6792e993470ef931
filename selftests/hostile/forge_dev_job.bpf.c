// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a zeroed device instance on the stack, passed to a job kfunc
 * (ABI 7), which ends a job on the ring of whatever instance it names.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_dev must point to|R1 is fp expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct bpfdrv_dev fake = {};

	return bpfdrv_job_done(&fake, 0, 1, 0) < 0 ? 0 : -1;
}

HOSTILE_OPS(forge_dev_job, .init = (void *)attack);
