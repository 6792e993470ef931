// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: an input key code past KEY_MAX. */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_input_key = {
	.name = "bad_input_key",
	.abi_version = BPFDRV_ABI_VERSION,
	.input_keys = { KEY_A, KEY_MAX + 1 },
};
