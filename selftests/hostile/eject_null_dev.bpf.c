// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: NULL as the device of bpfdrv_eject().
 * expect: NULL pointer passed to trusted (arg0|R1)
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	char msg[8] = "bye";

	bpfdrv_eject(NULL, msg, sizeof(msg));
	return 0;
}

HOSTILE_OPS(eject_null_dev, .init = (void *)attack);
