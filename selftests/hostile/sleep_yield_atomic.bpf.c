// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: yield the CPU (cond_resched()) from a program that is not
 * sleepable, where it runs inside an RCU read section.
 * expect: program must be sleepable to call sleepable kfunc bpfdrv_dev_yield
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_dev_yield(dev);
}

HOSTILE_OPS(sleep_yield_atomic, .init = (void *)attack);
