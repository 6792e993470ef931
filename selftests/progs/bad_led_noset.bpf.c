// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: LEDs without a led_set callback. */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct chr_ext_ops bad_led_noset = {
	.name = "bad_led_noset",
	.abi_version = BPFDRV_ABI_VERSION,
	.leds = { { .name = "a" } },
};
