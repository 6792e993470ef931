// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: rename the device instance the framework looks up by name.
 * expect: only read is supported
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	dev->name[0] = 'x';
	return 0;
}

HOSTILE_OPS(store_dev_name, .init = (void *)attack);
