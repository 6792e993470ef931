// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: read a kernel variable through its __ksym address, which the
 * verifier lets a program do; bpfdrv refuses it before verification.
 * expect: takes the address of a kernel variable
 */
#include "hostile.h"

extern const int bpf_prog_active __ksym;	/* in every matrix kernel's BTF */

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return *(const int *)&bpf_prog_active;
}

HOSTILE_OPS(ksym_var, .init = (void *)attack);
