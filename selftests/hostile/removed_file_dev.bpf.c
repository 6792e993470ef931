// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: bpfdrv_file_dev() returned a device pointer that 6.12's verifier
 * did not treat as trusted, so the device kfuncs could not demand trusted
 * arguments. It is gone: callbacks get the device as an argument.
 * expect: 'bpfdrv_file_dev': not found in kernel or module BTFs
 */
#include "hostile.h"

extern struct bpfdrv_dev *bpfdrv_file_dev(struct bpfdrv_file *file) __ksym;

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct bpfdrv_dev *d = bpfdrv_file_dev(file);

	return d ? d->index : 0;
}

HOSTILE_OPS(removed_file_dev, .open = (void *)attack);
