// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: I2C addresses without an adapter. */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_i2c_noadapter = {
	.name = "bad_i2c_noadapter",
	.abi_version = BPFDRV_ABI_VERSION,
	.i2c_addrs = { 0x50 },
};
