// SPDX-License-Identifier: GPL-2.0
/* Refused at attach: an LED brighter than the most allowed. */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/bad_led_set")
int BPF_PROG(bad_led_set, struct bpfdrv_dev *dev, __u32 led, __u32 value)
{
	return 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops bad_led_max = {
	.led_set = (void *)bad_led_set,
	.name = "bad_led_max",
	.abi_version = BPFDRV_ABI_VERSION,
	.leds = { { .name = "a", .max_brightness = BPFDRV_LED_BRIGHTNESS_MAX + 1 } },
};
