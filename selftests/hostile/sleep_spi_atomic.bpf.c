// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a SPI transfer (it sleeps) from a non-sleepable program.
 * expect: program must be sleepable to call sleepable kfunc bpfdrv_spi_transfer
 */
#include "hostile.h"

__u8 byte[1];

SEC("struct_ops/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_spi_transfer(dev, byte, sizeof(byte)) < 0 ? 0 : -1;
}

HOSTILE_OPS(sleep_spi_atomic, .init = (void *)attack);
