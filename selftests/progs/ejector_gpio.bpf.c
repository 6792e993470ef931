// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for ejection from gpio_edge: a rising edge on its input line
 * (line 4 of the loopback chip, driven through line 12) is a fatal error.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/ejg_edge")
void BPF_PROG(ejg_edge, struct bpfdrv_dev *dev, __u32 line, __u32 value)
{
	bpfdrv_error(dev, "edge on line %u, level %u", line, value);
}

SEC(".struct_ops.link")
struct chr_ext_ops ejector_gpio_ops = {
	.gpio_edge = (void *)ejg_edge,
	.name = "ejector_gpio",
	.gpio_chip = "bpfdrv-loopback",
	.gpio_lines = {
		{ .offset = 4, .flags = BPFDRV_GPIO_IN | BPFDRV_GPIO_EDGE_RISING },
	},
};
