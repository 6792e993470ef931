// SPDX-License-Identifier: GPL-2.0
/* Refused at load: SPI mode bits bpfdrv does not know (SPI_3WIRE). */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_spi_mode = {
	.name = "bad_spi_mode",
	.abi_version = BPFDRV_ABI_VERSION,
	.spi_controller = "bpfdrv-spi-sim",
	.spi_mode = 0x10,
};
