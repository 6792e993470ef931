// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: read the context's hidden pointer member and write through it.
 * expect: invalid mem access 'scalar'|R1 cannot write into rdonly_untrusted_mem
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	__u64 *p = (__u64 *)dev->__kernel_object;

	*p = 1;
	return 0;
}

HOSTILE_OPS(hidden_ptr, .init = (void *)attack);
