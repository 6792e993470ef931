// SPDX-License-Identifier: GPL-2.0
/*
 * gpio_leds: four GPIO output lines behind one device node.
 *
 * - write "1010" (a trailing newline is accepted, so echo works): character
 *   i sets line i, all four at once; anything else is -EINVAL.
 * - read: the lines' levels as "1010\n", read back from the chip. The node is
 *   seekable, so cat sees end-of-file after one line.
 *
 * - the same four lines are LEDs of the kernel's LED class,
 *   /sys/class/leds/gpio_leds:led0 to led3: brightness (0 or 1) and every
 *   trigger work as for any LED (the LED core blinks them in software
 *   through led_set). They go dark when the driver detaches.
 *
 * The lines are claimed by the framework when the driver attaches, from the
 * gpio_chip/gpio_lines declaration below (bpfdrv load --gpio-chip and
 * --gpio-lines point it elsewhere). GPIO kfuncs may sleep, so the programs
 * that call them are sleepable (struct_ops.s).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define NLEDS	4

/* "1010", optionally followed by a newline: bit i = line i. */
static int parse_leds(struct bpfdrv_io *io, __u32 *bits)
{
	char in[NLEDS + 1] = {};
	int i, err;

	if (io->len == NLEDS)
		err = bpfdrv_io_load(io, 0, in, NLEDS);
	else if (io->len == NLEDS + 1)
		err = bpfdrv_io_load(io, 0, in, NLEDS + 1);
	else
		return -EINVAL;
	if (err)
		return err;
	if (io->len == NLEDS + 1 && in[NLEDS] != '\n')
		return -EINVAL;

	*bits = 0;
	for (i = 0; i < NLEDS; i++) {
		if (in[i] == '1')
			*bits |= 1U << i;
		else if (in[i] != '0')
			return -EINVAL;
	}
	return 0;
}

SEC("struct_ops.s/leds_write")
int BPF_PROG(leds_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	__u32 bits = 0;
	int err;

	if (!dev)
		return -ENODEV;
	err = parse_leds(io, &bits);
	if (err)
		return err;
	err = bpfdrv_gpio_set_array(dev, 0, NLEDS, bits);
	return err ? err : io->len;
}

SEC("struct_ops.s/leds_read")
int BPF_PROG(leds_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	char out[NLEDS + 1];
	__u32 bits = 0, i, at;
	__u8 *p;
	int err;

	if (!dev)
		return -ENODEV;
	if (io->pos >= sizeof(out))
		return 0;
	err = bpfdrv_gpio_get_array(dev, 0, NLEDS, &bits);
	if (err)
		return err;
	for (i = 0; i < NLEDS; i++)
		out[i] = bits & (1U << i) ? '1' : '0';
	out[NLEDS] = '\n';

	/* from the file offset on, as much as the caller asked for */
	for (i = 0; i < sizeof(out) && i < io->len; i++) {
		at = io->pos + i;
		if (at >= sizeof(out))
			break;
		p = bpfdrv_io_data(io, i, 1);
		if (!p)
			return -EIO;
		*p = out[at];
	}
	return i;
}

/* The LED class: LED i is line i. */
SEC("struct_ops.s/leds_led_set")
int BPF_PROG(leds_led_set, struct bpfdrv_dev *dev, __u32 led, __u32 brightness)
{
	return bpfdrv_gpio_set(dev, led, brightness);
}

SEC("struct_ops.s/leds_led_get")
int BPF_PROG(leds_led_get, struct bpfdrv_dev *dev, __u32 led)
{
	return bpfdrv_gpio_get(dev, led);
}

SEC(".struct_ops.link")
struct chr_ext_ops gpio_leds = {
	.read = (void *)leds_read,
	.write = (void *)leds_write,
	.led_set = (void *)leds_led_set,
	.led_get = (void *)leds_led_get,
	.name = "gpio_leds",
	.abi_version = BPFDRV_ABI_VERSION,
	.flags = BPFDRV_F_SEEKABLE,
	/* the selftests' loopback chip; lines 8-11 read back what we drive */
	.gpio_chip = "bpfdrv-loopback",
	.gpio_lines = {
		{ .offset = 0, .flags = BPFDRV_GPIO_OUT_LOW },
		{ .offset = 1, .flags = BPFDRV_GPIO_OUT_LOW },
		{ .offset = 2, .flags = BPFDRV_GPIO_OUT_LOW },
		{ .offset = 3, .flags = BPFDRV_GPIO_OUT_LOW },
	},
	.leds = {
		{ .name = "led0" }, { .name = "led1" },
		{ .name = "led2" }, { .name = "led3" },
	},
};
