// SPDX-License-Identifier: GPL-2.0
/* Attach fails: an I2C adapter that does not exist (-ENODEV). */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops i2c_missing = {
	.name = "i2c_missing",
	.abi_version = BPFDRV_ABI_VERSION,
	.i2c_adapter = "no such adapter",
	.i2c_addrs = { 0x50 },
};
