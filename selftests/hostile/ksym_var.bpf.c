// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: read a kernel variable through its __ksym address, which the
 * verifier lets a program do; bpfdrv refuses it before verification.
 * expect: takes the address of a kernel variable
 */
#include "hostile.h"

extern const int __preempt_count __ksym;

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return *(const int *)&__preempt_count;
}

HOSTILE_OPS(ksym_var, .init = (void *)attack);
