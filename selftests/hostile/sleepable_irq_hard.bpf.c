// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a sleepable irq_hard, which would sleep in hard-IRQ context.
 * expect: attach to unsupported member irq_hard of struct chr_ext_ops
 */
#include "hostile.h"

SEC("struct_ops.s/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, __u32 vector)
{
	return BPFDRV_IRQ_HANDLED;
}

HOSTILE_OPS(sleepable_irq_hard, .irq_hard = (void *)attack);
