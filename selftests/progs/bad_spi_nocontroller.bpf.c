// SPDX-License-Identifier: GPL-2.0
/* Refused at load: a SPI chip select without a controller. */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_spi_nocontroller = {
	.name = "bad_spi_nocontroller",
	.abi_version = BPFDRV_ABI_VERSION,
	.spi_cs = 1,
};
