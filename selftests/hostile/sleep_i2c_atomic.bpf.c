// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: an I2C transfer (it sleeps) from a non-sleepable program.
 * expect: program must be sleepable to call sleepable kfunc bpfdrv_i2c_read_byte
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_i2c_read_byte(dev, 0) < 0 ? 0 : -1;
}

HOSTILE_OPS(sleep_i2c_atomic, .init = (void *)attack);
