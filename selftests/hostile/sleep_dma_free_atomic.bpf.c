// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: free a DMA buffer (which revokes its mappings, and sleeps) from
 * a program that is not sleepable.
 * expect: program must be sleepable to call sleepable kfunc bpfdrv_dma_buf_free
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_dma_buf_free(dev, 0);
}

HOSTILE_OPS(sleep_dma_free_atomic, .init = (void *)attack);
