// SPDX-License-Identifier: GPL-2.0
/*
 * Class devices of an instance (ABI 2): LEDs (led.c), an input device
 * (input.c) and a hwmon device (hwmon.c), declared in chr_ext_ops and
 * registered under the instance (hwmon.c says where), so user space drives a
 * BPF driver through the kernel's own interfaces (/sys/class/leds, evdev,
 * /sys/class/hwmon).
 *
 * They are added once init succeeded and the node exists, and removed
 * first in teardown, while the instance is still live: the LED core turns
 * its LEDs off through the driver then, and no class device outlives the
 * node it hangs from.
 *
 * The LED and hwmon cores call the driver through bpfdrv_call() (call.h),
 * like the file operations, but only while the instance is live.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "bpfdrv.h"

/* Checks of the class declarations that need the callbacks too. */
int bpfdrv_classes_valid(const struct chr_ext_ops *ops)
{
	int ret;

	ret = bpfdrv_leds_valid(ops);
	if (!ret)
		ret = bpfdrv_sensors_valid(ops);
	return ret;
}

/*
 * LEDs last: a taken LED name is the failure user space can cause, and
 * then the input and hwmon devices are undone too.
 */
int bpfdrv_classes_add(struct bpfdrv_device *bdev)
{
	int ret;

	ret = bpfdrv_hwmon_add(bdev);
	if (!ret)
		ret = bpfdrv_input_add(bdev);
	if (!ret)
		ret = bpfdrv_leds_add(bdev);
	return ret;
}

/* Also for an instance whose classes were added only in part, or not. */
void bpfdrv_classes_del(struct bpfdrv_device *bdev)
{
	bpfdrv_leds_del(bdev);
	bpfdrv_input_del(bdev);
	bpfdrv_hwmon_del(bdev);
}
