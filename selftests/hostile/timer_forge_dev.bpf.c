// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a zeroed device instance on the stack, whose timers
 * bpfdrv_timer_start() and bpfdrv_timer_cancel() (ABI 10) would reach
 * through a made-up pointer.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_dev must point to|R1 is fp expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct bpfdrv_dev fake = {};

	bpfdrv_timer_cancel(&fake, 0);
	return bpfdrv_timer_start(&fake, 0, 0);
}

HOSTILE_OPS(timer_forge_dev, .init = (void *)attack);
