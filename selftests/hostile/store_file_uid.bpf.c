// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: rewrite the opener's uid that the framework recorded.
 * expect: only read is supported
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	file->uid = 0;
	return 0;
}

HOSTILE_OPS(store_file_uid, .open = (void *)attack);
