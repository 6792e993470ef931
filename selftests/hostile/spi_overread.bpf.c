// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a SPI transfer longer than the buffer it names, so that the
 * bytes received would land past it.
 * expect: invalid access to map value, value_size=16 off=0 size=4096
 */
#include "hostile.h"

__u8 small[16];

SEC("struct_ops.s/attack")
int BPF_PROG(attack, struct bpfdrv_dev *dev)
{
	return bpfdrv_spi_transfer(dev, small, BPFDRV_SPI_XFER_MAX) < 0 ? 0 : -1;
}

HOSTILE_OPS(spi_overread, .init = (void *)attack);
