// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: an I2C address I2C reserves. */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_i2c_addr = {
	.name = "bad_i2c_addr",
	.abi_version = BPFDRV_ABI_VERSION,
	.i2c_adapter = "SMBus stub driver",
	.i2c_addrs = { 0x03 },
};
