// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: the exploit that once worked. An I/O context forged on the stack,
 * its hidden data pointer aimed at core_pattern, handed to bpfdrv_io_store()
 * to overwrite it.
 * expect: (arg#0|R1) pointer type STRUCT bpfdrv_io must point to|R1 is fp expected STRUCT bpfdrv_io
 */
#include "hostile.h"

extern const void core_pattern __ksym;

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct {
		struct bpfdrv_io io;
		__u64 data;
		__u32 size;
	} fake = { .io.len = 8, .data = (__u64)&core_pattern, .size = 8 };
	char evil[8] = "|/tmp/x";

	return bpfdrv_io_store(&fake.io, 0, evil, sizeof(evil));
}

HOSTILE_OPS(forge_io_stack, .write = (void *)attack);
