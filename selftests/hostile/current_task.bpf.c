// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: take the current task's kernel pointer to reach its memory.
 * expect: bpf_get_current_task#35
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	return bpf_get_current_task() != 0;
}

HOSTILE_OPS(current_task, .open = (void *)attack);
