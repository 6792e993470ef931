// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a bpf_snprintf() format in .data, which the loader maps
 * writable and could flip from %d to %s after bpfdrv's check.
 * expect: does not point to a readonly map
 */
#include "hostile.h"

char fmt[8] = "%d";

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	__u64 args[1] = { 0 };
	char out[16];

	return bpf_snprintf(out, sizeof(out), fmt, args, sizeof(args));
}

HOSTILE_OPS(fmt_snprintf_data, .init = (void *)attack);
