// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL as the device whose timer bpfdrv_timer_start() (ABI 10)
 * arms.
 * expect: NULL pointer passed to trusted (arg0|R1)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_timer_start(NULL, 0, 0);
}

HOSTILE_OPS(timer_null_dev, .init = (void *)attack);
