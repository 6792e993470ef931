// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: tell bpfdrv_eject() an 8-byte message holds 512 bytes, so the
 * kernel would copy the program's stack beyond it into the exit record.
 * expect: invalid (indirect access to|read from) stack
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	char msg[8] = "bye";

	bpfdrv_eject(dev, msg, 512);
	return 0;
}

HOSTILE_OPS(eject_msg_past_stack, .init = (void *)attack);
