// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: call a GPIO kfunc, which may sleep, from a program that is not
 * sleepable.
 * expect: program must be sleepable to call sleepable kfunc bpfdrv_gpio_set
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_gpio_set(dev, 0, 1);
}

HOSTILE_OPS(sleep_gpio_atomic, .init = (void *)attack);
