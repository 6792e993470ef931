// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: allocate a DMA buffer (a sleeping allocation) from a program
 * that is not sleepable.
 * expect: program must be sleepable to call sleepable kfunc bpfdrv_dma_alloc
 */
#include "hostile.h"

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_dma_alloc(dev, 4096, 32) < 0;
}

HOSTILE_OPS(sleep_dma_atomic, .init = (void *)attack);
