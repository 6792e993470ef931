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
 * The LED and hwmon cores call the driver like the file operations do:
 * inside the instance's srcu, only while it is live, under its callback
 * mutex (bpfdrv_cb_enter()).
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

/**
 * bpfdrv_cb_enter - start a class callback on an instance
 * @bdev: the instance
 * @cb: the callback, for counts and exit reports
 * @idx: out: the srcu index for bpfdrv_cb_leave()
 *
 * Return: 0 with the instance's srcu read lock and callback mutex held;
 * -ENODEV once it is not live, -EINTR if the caller was killed.
 */
int bpfdrv_cb_enter(struct bpfdrv_device *bdev, enum bpfdrv_cb cb, int *idx)
{
	*idx = srcu_read_lock(&bdev->srcu);
	if (!READ_ONCE(bdev->live)) {
		srcu_read_unlock(&bdev->srcu, *idx);
		return -ENODEV;
	}
	if (bpfdrv_cb_lock(bdev)) {
		srcu_read_unlock(&bdev->srcu, *idx);
		return -EINTR;
	}
	this_cpu_inc(bdev->stats->calls[cb]);
	bpfdrv_cb_begin(bdev, cb);
	return 0;
}

/**
 * bpfdrv_cb_leave - end a class callback, judging its return value
 * @bdev: the instance
 * @idx: the srcu index from bpfdrv_cb_enter()
 * @ret: what the callback returned
 * @max: the largest value it may return
 *
 * Judged before the srcu read lock is dropped: a burst of bad returns
 * ejects bdev->drv, which a detach frees once srcu is drained.
 *
 * Return: @ret if it is 0..@max or an errno, else -EIO.
 */
int bpfdrv_cb_leave(struct bpfdrv_device *bdev, int idx, int ret, u32 max)
{
	enum bpfdrv_cb cb = bdev->cb;	/* under the mutex */

	mutex_unlock(&bdev->lock);
	ret = bpfdrv_check_ret(bdev, cb, ret, max);
	srcu_read_unlock(&bdev->srcu, idx);
	return ret;
}
