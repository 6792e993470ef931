// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: call a sleeping kfunc from irq_hard, which runs in hard-IRQ
 * context.
 * expect: program must be sleepable to call sleepable kfunc bpfdrv_dev_yield
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, __u32 vector)
{
	return bpfdrv_dev_yield(dev) ? BPFDRV_IRQ_NONE : BPFDRV_IRQ_HANDLED;
}

HOSTILE_OPS(yield_in_irq_hard, .irq_hard = (void *)attack);
