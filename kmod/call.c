// SPDX-License-Identifier: GPL-2.0
/*
 * What call.h keeps out of line: the mask of a driver's callbacks, made
 * when its code is set, the judge of its return values, which call.h
 * runs on every call and which reports rarely, and the power management
 * of a call (the device resumed first; pci_pm.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/pm_runtime.h>
#include <linux/sched/clock.h>
#include <linux/wait_bit.h>

#include "call.h"
#include "eject.h"

/* The callbacks @ops has, for bpfdrv_call_peek(): BIT(enum bpfdrv_cb). */
u32 bpfdrv_cb_mask(const struct chr_ext_ops *ops)
{
	const void *cbs[BPFDRV_CB_NR] = {
		[BPFDRV_CB_INIT] = ops->init,
		[BPFDRV_CB_EXIT] = ops->exit,
		[BPFDRV_CB_OPEN] = ops->open,
		[BPFDRV_CB_RELEASE] = ops->release,
		[BPFDRV_CB_READ] = ops->read,
		[BPFDRV_CB_WRITE] = ops->write,
		[BPFDRV_CB_IOCTL] = ops->ioctl,
		[BPFDRV_CB_POLL] = ops->poll,
		[BPFDRV_CB_IRQ] = ops->irq,
		[BPFDRV_CB_GPIO_EDGE] = ops->gpio_edge,
		[BPFDRV_CB_TAKEOVER] = ops->takeover,
		[BPFDRV_CB_LED_SET] = ops->led_set,
		[BPFDRV_CB_LED_GET] = ops->led_get,
		[BPFDRV_CB_LED_BLINK] = ops->led_blink,
		[BPFDRV_CB_SENSOR_READ] = ops->sensor_read,
		[BPFDRV_CB_IRQ_HARD] = ops->irq_hard,
		[BPFDRV_CB_ACCEL_IOCTL] = ops->accel_ioctl,
		[BPFDRV_CB_ACCEL_RUN_JOB] = ops->accel_run_job,
		[BPFDRV_CB_ACCEL_TIMEOUT] = ops->accel_timeout,
		[BPFDRV_CB_TIMER] = ops->timer,
		[BPFDRV_CB_ACCEL_GET_PARAM] = ops->accel_get_param,
		[BPFDRV_CB_ACCEL_VM_MAP] = ops->accel_vm_map,
		[BPFDRV_CB_ACCEL_VM_UNMAP] = ops->accel_vm_unmap,
		[BPFDRV_CB_RESET_PREPARE] = ops->reset_prepare,
		[BPFDRV_CB_RESET_DONE] = ops->reset_done,
		[BPFDRV_CB_ERROR_DETECTED] = ops->error_detected,
		[BPFDRV_CB_SLOT_RESET] = ops->slot_reset,
		[BPFDRV_CB_ERROR_RESUME] = ops->error_resume,
		[BPFDRV_CB_SUSPEND] = ops->suspend,
		[BPFDRV_CB_RESUME] = ops->resume,
	};
	u32 mask = 0;
	int cb;

	BUILD_BUG_ON(BPFDRV_CB_NR > 32);
	for (cb = 0; cb < BPFDRV_CB_NR; cb++)
		if (cbs[cb])
			mask |= BIT(cb);
	return mask;
}

/*
 * @ret is neither 0..@max nor an ordinary errno: count it, and eject the
 * driver on a burst, a broken driver rather than a slip. Exported:
 * bpfdrv_accel.ko calls drivers through call.h too. The caller has
 * pinned the instance, and with it bdev->drv.
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
EXPORT_SYMBOL_GPL(bpfdrv_bad_ret);

/*
 * A fence-path call's budget: a native driver starts a job in
 * microseconds; under TCG ten times more. Its loops end at it, and the
 * driver is ejected (loop.c).
 */
static unsigned int fence_max_us = 10000;
module_param(fence_max_us, uint, 0644);
MODULE_PARM_DESC(fence_max_us,
		 "Longest the bpfdrv_for() loops of accel_run_job or accel_timeout may run before they end and the driver is ejected, in microseconds (default: 10000)");

/* bpfdrv_call_fence()'s start: 0 with the slot taken, pinned, under RCU. */
int bpfdrv_fence_enter(struct bpfdrv_call *c, struct bpfdrv_device *bdev,
		       u32 slot, enum bpfdrv_cb cb, size_t member)
{
	struct bpfdrv_fence_call *fc = &bdev->fence_calls[slot];

	c->bdev = bdev;
	c->kind = BPFDRV_CALL_FENCE;
	c->cb = cb;
	c->fence = fc;
	c->pin = bpfdrv_pin(bdev);
	if (!bpfdrv_call_gate(bdev, BPFDRV_CALL_LIVE)) {
		bpfdrv_unpin(bdev, c->pin);
		return -ENODEV;
	}
	/* an update swaps the callbacks, then waits for RCU (update.c) */
	rcu_read_lock();
	c->ops = READ_ONCE(bdev->ops);
	if (!*(void **)((u8 *)c->ops + member)) {
		rcu_read_unlock();
		bpfdrv_unpin(bdev, c->pin);
		return -ENOENT;
	}
	fc->cb = cb;
	fc->deadline = local_clock() +
		       (u64)READ_ONCE(fence_max_us) * NSEC_PER_USEC;
	WRITE_ONCE(fc->task, current);
	this_cpu_inc(bdev->stats->calls[cb]);
	return 0;
}
EXPORT_SYMBOL_GPL(bpfdrv_fence_enter);

/* Its end: @ret judged (at most @max) while the driver is pinned. */
int bpfdrv_fence_leave(struct bpfdrv_call *c, int ret, u32 max)
{
	struct bpfdrv_device *bdev = c->bdev;

	WRITE_ONCE(c->fence->task, NULL);
	rcu_read_unlock();
	ret = bpfdrv_check_ret(bdev, c->cb, ret, max);
	bpfdrv_unpin(bdev, c->pin);
	return ret;
}
EXPORT_SYMBOL_GPL(bpfdrv_fence_leave);

/*
 * Before a call takes the mutex, on an instance with power management
 * (pci_pm.c): wait while the system sleeps (not the IRQ thread: the PM
 * core waits for it before it powers the device down), fail once a
 * resume failed, and hold a runtime PM reference, which resumes the
 * device, for instances that runtime-suspend. A close reaches the driver
 * whatever happens.
 *
 * Return: 0 (c->pm says whether a reference is held), -EINTR if killed
 * while it waited, -EIO if the device cannot be resumed.
 */
int bpfdrv_call_pm_get(struct bpfdrv_call *c)
{
	struct bpfdrv_device *bdev = c->bdev;
	unsigned long *flags = &bdev->pm_flags;
	bool release = c->kind == BPFDRV_CALL_RELEASE;
	int ret;

	if (c->kind != BPFDRV_CALL_IRQ &&
	    test_bit(BPFDRV_PM_F_ASLEEP, flags)) {
		if (release)
			wait_var_event(flags, !test_bit(BPFDRV_PM_F_ASLEEP, flags));
		else if (wait_var_event_killable(flags,
						 !test_bit(BPFDRV_PM_F_ASLEEP, flags)))
			return -EINTR;
	}
	if (test_bit(BPFDRV_PM_F_BROKEN, flags) && !release)
		return -EIO;
	if (!test_bit(BPFDRV_PM_F_RUNTIME, flags))
		return 0;
	ret = pm_runtime_resume_and_get(bdev->pm_dev);
	if (ret < 0)
		return release ? 0 : -EIO;
	c->pm = true;
	return 0;
}
EXPORT_SYMBOL_GPL(bpfdrv_call_pm_get);

/* After the call: the device may autosuspend once idle for its delay. */
void bpfdrv_call_pm_put(struct bpfdrv_call *c)
{
	if (!c->pm)
		return;
	c->pm = false;
	pm_runtime_mark_last_busy(c->bdev->pm_dev);
	pm_runtime_put_autosuspend(c->bdev->pm_dev);
}
EXPORT_SYMBOL_GPL(bpfdrv_call_pm_put);
