// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a device forged on the stack passed to bpfdrv_eject(), which
 * would follow its hidden driver pointer to schedule work.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_dev must point to|R1 is fp expected STRUCT bpfdrv_dev
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	struct bpfdrv_dev fake = {};
	char msg[8] = "bye";

	bpfdrv_eject(&fake, msg, sizeof(msg));
	return 0;
}

HOSTILE_OPS(eject_forged_dev, .init = (void *)attack);
