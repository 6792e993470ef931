// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL for the device of bpfdrv_dev_wake(), which once passed the
 * verifier and crashed holding the device mutex.
 * expect: NULL pointer passed to trusted (arg0|R1)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	bpfdrv_dev_wake(NULL);
	return 0;
}

HOSTILE_OPS(null_dev, .init = (void *)attack);
