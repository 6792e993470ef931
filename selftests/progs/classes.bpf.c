// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for the class devices: two LEDs, two input keys and three
 * sensors, with values the test sets through the node and checks through
 * the kernel's own interfaces (/sys/class/leds, evdev, hwmon).
 *
 * write: one struct classes_cmd. read: struct classes_state, what the LED
 * core asked of the driver.
 *
 * LED "a" (max 255) has hardware blink: led_blink records the delays and
 * accepts. LED "b" (max 1) refuses to blink, so the LED core blinks it in
 * software through led_set, which the state counts.
 */
#include <linux/input-event-codes.h>

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

enum {
	CMD_SENSOR_SET = 1,	/* sensor arg reads value */
	CMD_SENSOR_ERR,		/* sensor arg fails with -value (0: no more) */
	CMD_SENSOR_SILENT,	/* sensor arg succeeds without a value */
	CMD_KEY,		/* report key arg = value, then sync */
	CMD_LED_GET,		/* led_get of LED arg returns value */
};

struct classes_cmd {
	__u32 op;
	__u32 arg;
	__s64 value;
};

#define NLEDS		2
#define NSENSORS	3

struct classes_state {
	__u32 brightness[NLEDS];	/* the last led_set */
	__u32 led_sets[NLEDS];		/* led_set calls */
	__u32 blink_on[NLEDS];		/* the last accepted led_blink */
	__u32 blink_off[NLEDS];
	__u32 blinks[NLEDS];		/* led_blink calls */
	__u32 sensor_reads;
};

struct classes_state state;
__s64 sensor_value[NSENSORS];
__s32 sensor_err[NSENSORS];
__u8 sensor_silent[NSENSORS];
__s32 led_get_value[NLEDS] = { -1, -1 };	/* -1: the last set */

SEC("struct_ops/classes_write")
int BPF_PROG(classes_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct classes_cmd cmd;
	__u32 i;
	int err;

	if (io->len != sizeof(cmd))
		return -EINVAL;
	if (bpfdrv_io_load(io, 0, &cmd, sizeof(cmd)))
		return -EIO;
	i = cmd.arg;
	switch (cmd.op) {
	case CMD_SENSOR_SET:
		if (i >= NSENSORS)
			return -EINVAL;
		sensor_value[i] = cmd.value;
		break;
	case CMD_SENSOR_ERR:
		if (i >= NSENSORS)
			return -EINVAL;
		sensor_err[i] = -cmd.value;
		break;
	case CMD_SENSOR_SILENT:
		if (i >= NSENSORS)
			return -EINVAL;
		sensor_silent[i] = cmd.value != 0;
		break;
	case CMD_KEY:
		/* the kfuncs' errors (undeclared code, bad value) go back */
		err = bpfdrv_input_key(dev, cmd.arg, cmd.value);
		if (!err)
			err = bpfdrv_input_sync(dev);
		if (err)
			return err;
		break;
	case CMD_LED_GET:
		if (i >= NLEDS)
			return -EINVAL;
		led_get_value[i] = cmd.value;
		break;
	default:
		return -EINVAL;
	}
	return sizeof(cmd);
}

SEC("struct_ops/classes_read")
int BPF_PROG(classes_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	if (io->len < sizeof(state))
		return -EINVAL;
	return bpfdrv_io_store(io, 0, &state, sizeof(state)) ?: sizeof(state);
}

SEC("struct_ops/classes_led_set")
int BPF_PROG(classes_led_set, struct bpfdrv_dev *dev, __u32 led,
	     __u32 brightness)
{
	if (led >= NLEDS)
		return -EINVAL;
	state.brightness[led] = brightness;
	state.led_sets[led]++;
	return 0;
}

SEC("struct_ops/classes_led_get")
int BPF_PROG(classes_led_get, struct bpfdrv_dev *dev, __u32 led)
{
	if (led >= NLEDS)
		return -EINVAL;
	if (led_get_value[led] != -1)
		return led_get_value[led];
	return state.brightness[led];
}

SEC("struct_ops/classes_led_blink")
int BPF_PROG(classes_led_blink, struct bpfdrv_dev *dev, __u32 led,
	     __u32 delay_on, __u32 delay_off)
{
	if (led >= NLEDS)
		return -EINVAL;
	state.blinks[led]++;
	if (led != 0)
		return -EOPNOTSUPP;
	state.blink_on[led] = delay_on;
	state.blink_off[led] = delay_off;
	return 0;
}

SEC("struct_ops/classes_sensor_read")
int BPF_PROG(classes_sensor_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_sensor_read *rd)
{
	__u32 i = rd->sensor;

	state.sensor_reads++;
	if (i >= NSENSORS)
		return -EINVAL;
	if (sensor_err[i])
		return sensor_err[i];
	if (sensor_silent[i])
		return 0;
	return bpfdrv_sensor_report(rd, sensor_value[i]);
}

SEC(".struct_ops.link")
struct chr_ext_ops classes = {
	.read = (void *)classes_read,
	.write = (void *)classes_write,
	.led_set = (void *)classes_led_set,
	.led_get = (void *)classes_led_get,
	.led_blink = (void *)classes_led_blink,
	.sensor_read = (void *)classes_sensor_read,
	.name = "classes",
	.abi_version = BPFDRV_ABI_VERSION,
	.leds = {
		{ .name = "a", .max_brightness = 255 },
		{ .name = "b" },
	},
	.input_keys = { KEY_A, BTN_0 },
	.sensors = {
		{ .type = BPFDRV_SENSOR_TEMP, .label = "board" },
		{ .type = BPFDRV_SENSOR_TEMP },
		{ .type = BPFDRV_SENSOR_IN, .label = "vcore" },
	},
};
