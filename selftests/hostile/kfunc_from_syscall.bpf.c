// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: call a bpfdrv kfunc from a program that is not a chr_ext_ops
 * callback (a syscall program run from user space), with a pointer of its
 * own making. bpfdrv load refuses the object; test_beside loads it
 * itself, and the verifier must refuse the call.
 * expect: is a syscall program: a driver object holds chr_ext_ops callbacks only
 */
#include "hostile.h"

SEC("syscall")
int attack(void *ctx)
{
	bpfdrv_dev_wake(ctx);
	return 0;
}

SEC("struct_ops/nop")
int BPF_PROG(nop, struct bpfdrv_dev *dev)
{
	return 0;
}

HOSTILE_OPS(kfunc_from_syscall, .init = (void *)nop);
