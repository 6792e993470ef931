// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a kprobe program beside the driver's callbacks, which bpfdrv
 * neither checks nor grants anything to: bpfdrv load refuses the object
 * rather than load a program it would never attach.
 * expect: is a kprobe program: a driver object holds chr_ext_ops callbacks only
 */
#include "hostile.h"

__u64 seen;

SEC("kprobe/do_sys_openat2")
int beside_snoop(void *ctx)
{
	seen++;
	return 0;
}

SEC("struct_ops/nop")
int BPF_PROG(nop, struct bpfdrv_dev *dev)
{
	return 0;
}

HOSTILE_OPS(beside_kprobe, .init = (void *)nop);
