// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a sensor reading built on the stack, given a value from init.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_sensor_read must point to|R1 is fp expected STRUCT bpfdrv_sensor_read
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct bpfdrv_sensor_read fake = {};

	return bpfdrv_sensor_report(&fake, 1);
}

HOSTILE_OPS(forge_sensor_read, .init = (void *)attack);
