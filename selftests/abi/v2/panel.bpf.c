// SPDX-License-Identifier: GPL-2.0
/*
 * A driver as built for ABI version 2 (frozen): one LED, one key and one
 * sensor, the class devices version 2 added. Writing a byte presses (1) or
 * releases (0) KEY_ENTER; the sensor reads 1000 * the LED's brightness.
 */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

__u32 brightness;

SEC("struct_ops/panel_write")
int BPF_PROG(panel_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u8 c;
	int err;

	if (io->len != 1 || bpfdrv_io_load(io, 0, &c, 1))
		return -EINVAL;
	err = bpfdrv_input_key(dev, KEY_ENTER, c == '1');
	if (!err)
		err = bpfdrv_input_sync(dev);
	return err ?: 1;
}

SEC("struct_ops/panel_led_set")
int BPF_PROG(panel_led_set, struct bpfdrv_dev *dev, __u32 led, __u32 value)
{
	brightness = value;
	return 0;
}

SEC("struct_ops/panel_sensor_read")
int BPF_PROG(panel_sensor_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_sensor_read *rd)
{
	return bpfdrv_sensor_report(rd, brightness * 1000);
}

SEC(".struct_ops.link")
struct chr_ext_ops panel = {
	.write = (void *)panel_write,
	.led_set = (void *)panel_led_set,
	.sensor_read = (void *)panel_sensor_read,
	.name = "panel",
	.abi_version = BPFDRV_ABI_VERSION,
	.leds = { { .name = "status", .max_brightness = 7 } },
	.input_keys = { KEY_ENTER },
	.sensors = { { .type = BPFDRV_SENSOR_TEMP, .label = "panel" } },
};
