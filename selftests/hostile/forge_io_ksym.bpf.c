// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a kernel symbol's address (core_pattern) cast to an I/O context.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_io must point to|R1 is scalar expected STRUCT bpfdrv_io
 */
#include "hostile.h"

extern const void core_pattern __ksym;

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	char evil[8] = "|/tmp/x";

	return bpfdrv_io_store((struct bpfdrv_io *)&core_pattern, 0, evil,
			       sizeof(evil));
}

HOSTILE_OPS(forge_io_ksym, .write = (void *)attack);
