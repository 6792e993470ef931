// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a device instance forged on the stack, passed to
 * bpfdrv_dev_wake() (which takes the device's wait queue).
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_dev must point to|R1 is fp expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct bpfdrv_dev fake = {};

	bpfdrv_dev_wake(&fake);
	return 0;
}

HOSTILE_OPS(forge_dev_wake, .init = (void *)attack);
