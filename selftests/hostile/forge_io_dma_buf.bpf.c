// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: an I/O context forged on the stack, its hidden data pointer aimed
 * at core_pattern, handed to bpfdrv_dma_buf_to_io() to overwrite it with
 * the contents of a DMA buffer.
 * expect: (arg#2|R3) pointer type STRUCT bpfdrv_io must point to|R3 is fp expected STRUCT bpfdrv_io
 */
#include "hostile.h"

extern const void core_pattern __ksym;

SEC("struct_ops.s/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct {
		struct bpfdrv_io io;
		__u64 data;
		__u32 size;
	} fake = { .io.len = 8, .data = (__u64)&core_pattern, .size = 8 };

	return bpfdrv_dma_buf_to_io(dev, BPFDRV_DMA_POS(0, 0), &fake.io, 0, 8);
}

HOSTILE_OPS(forge_io_dma_buf, .write = (void *)attack);
