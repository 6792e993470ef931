// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a file context forged on the stack, to get bpfdrv_file_priv() to
 * return a pointer computed from it.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_file must point to|R1 is fp expected STRUCT bpfdrv_file
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct bpfdrv_file fake = {};
	__u8 *p = bpfdrv_file_priv(&fake, 8);

	if (p)
		p[0] = 1;
	return 0;
}

HOSTILE_OPS(forge_file_stack, .open = (void *)attack);
