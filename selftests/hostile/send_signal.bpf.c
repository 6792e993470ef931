// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: signal the calling process from a driver; bpfdrv does not
 * grant bpf_send_signal().
 * expect: bpf_send_signal#109
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	return bpf_send_signal(9);
}

HOSTILE_OPS(send_signal, .open = (void *)attack);
