// SPDX-License-Identifier: GPL-2.0
/*
 * The judge of a driver's return values, out of line: call.h runs it on
 * every call, and it reports rarely.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>

#include "call.h"

/*
 * @ret is neither 0..@max nor an ordinary errno: count it, and eject the
 * driver on a burst, a broken driver rather than a slip. The caller is
 * inside the instance's SRCU section, which pins bdev->drv.
 */
noinline __cold int bpfdrv_bad_ret(struct bpfdrv_device *bdev,
				   enum bpfdrv_cb cb, int ret, u32 max)
{
	char msg[BPFDRV_EXIT_MSG_MAX];

	this_cpu_inc(bdev->stats->bad_returns);
	dev_warn_ratelimited(&bdev->dev, "driver returned %d (at most %u allowed)\n",
			     ret, max);
	if (time_after(jiffies, READ_ONCE(bdev->bad_since) + HZ)) {
		WRITE_ONCE(bdev->bad_since, jiffies);
		atomic_set(&bdev->bad_burst, 0);
	}
	if (atomic_inc_return(&bdev->bad_burst) == BPFDRV_BAD_RET_BURST) {
		snprintf(msg, sizeof(msg),
			 "%s returned %d (at most %u allowed), %d bad returns within a second",
			 bpfdrv_cb_names[cb], ret, max, BPFDRV_BAD_RET_BURST);
		bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_PROTOCOL, cb, msg);
	}
	return -EIO;
}
/* bpfdrv_accel.ko calls drivers through call.h too */
EXPORT_SYMBOL_GPL(bpfdrv_bad_ret);
