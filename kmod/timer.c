// SPDX-License-Identifier: GPL-2.0
/*
 * A driver's timers (ABI 10). bpf_timer runs BPF in softirq outside
 * bpfdrv's call primitive: unpinned against update and detach, without a
 * budget, re-armable at 0 ns, and alive until the map is freed, so it is
 * not granted (kmod/allow.c). Instead each instance has BPFDRV_TIMERS_MAX
 * timers: bpfdrv_timer_start() arms one, and when it fires a worker runs
 * the driver's timer callback through call.h like any other callback
 * (under the instance's lock, pinned, its bpfdrv_for() loops budgeted by
 * loop_max_ms, as no signal ends a worker). A timer fires once per
 * arming, BPFDRV_TIMER_MIN_NS and a tick after it at the soonest, so a
 * callback that arms its own timer runs once a tick at most. The timers
 * are stopped before the driver's exit runs: none fires once the detach
 * returns.
 */
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "call.h"
#include "parts.h"
#include "kfuncs.h"

struct bpfdrv_timer {
	struct delayed_work work;
	struct bpfdrv_device *bdev;
	u32 id;
};

struct bpfdrv_timers {
	spinlock_t lock;	/* stopped, and arming against stopping */
	bool stopped;
	struct bpfdrv_timer t[BPFDRV_TIMERS_MAX];
};

/* A day: a longer delay is a driver's bug, not a plan. */
#define BPFDRV_TIMER_MAX_NS	(24ULL * 3600 * NSEC_PER_SEC)

static void bpfdrv_timer_fire(struct work_struct *work)
{
	struct bpfdrv_timer *t = container_of(to_delayed_work(work),
					      struct bpfdrv_timer, work);

	/* not before init succeeded, nor once teardown began */
	bpfdrv_call_void(t->bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_TIMER, timer,
			 t->id);
}

static int bpfdrv_timers_claim(struct bpfdrv_device *bdev)
{
	struct bpfdrv_timers *ts;
	int i;

	ts = kzalloc(sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	spin_lock_init(&ts->lock);
	for (i = 0; i < BPFDRV_TIMERS_MAX; i++) {
		INIT_DELAYED_WORK(&ts->t[i].work, bpfdrv_timer_fire);
		ts->t[i].bdev = bdev;
		ts->t[i].id = i;
	}
	bdev->timers = ts;
	return 0;
}

/* Drained, before exit: no timer is armed or fires after this. */
static void bpfdrv_timers_revoke(struct bpfdrv_device *bdev)
{
	struct bpfdrv_timers *ts = bdev->timers;
	int i;

	if (!ts)
		return;
	spin_lock_irq(&ts->lock);
	ts->stopped = true;
	spin_unlock_irq(&ts->lock);
	for (i = 0; i < BPFDRV_TIMERS_MAX; i++)
		cancel_delayed_work_sync(&ts->t[i].work);
}

/* The last reference: a start that failed never revoked them. */
static void bpfdrv_timers_free(struct bpfdrv_device *bdev)
{
	bpfdrv_timers_revoke(bdev);
	kfree(bdev->timers);
	bdev->timers = NULL;
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_timer_start - arm one of an instance's timers (ABI 10)
 * @dev: the instance
 * @id: the timer, 0 to BPFDRV_TIMERS_MAX - 1
 * @delay_ns: from now; at least BPFDRV_TIMER_MIN_NS and a scheduler tick
 *	      (a shorter one is raised to it), at most a day
 *
 * When it fires, the driver's timer callback runs with @id. Arming an
 * armed timer moves it. Any callback, irq_hard included.
 *
 * Return: 0; -EINVAL for an @id out of range or a delay over a day;
 * -ENODEV once the instance is being torn down.
 */
__bpf_kfunc int bpfdrv_timer_start(struct bpfdrv_dev *dev, u32 id,
				   u64 delay_ns)
{
	struct bpfdrv_timers *ts = to_bpfdrv_device(dev)->timers;
	unsigned long flags, delay;
	int ret = 0;

	if (id >= BPFDRV_TIMERS_MAX || delay_ns > BPFDRV_TIMER_MAX_NS)
		return -EINVAL;
	if (!ts)
		return -ENODEV;
	delay = max(nsecs_to_jiffies(max(delay_ns, BPFDRV_TIMER_MIN_NS)), 1UL);
	spin_lock_irqsave(&ts->lock, flags);
	if (ts->stopped)
		ret = -ENODEV;
	else
		mod_delayed_work(system_long_wq, &ts->t[id].work, delay);
	spin_unlock_irqrestore(&ts->lock, flags);
	return ret;
}

/**
 * bpfdrv_timer_cancel - disarm one of an instance's timers (ABI 10)
 * @dev: the instance
 * @id: the timer
 *
 * Does not wait for a callback already running (it may be the caller).
 *
 * Return: 1 if it was armed, 0 if not; -EINVAL for an @id out of range;
 * -ENODEV as bpfdrv_timer_start().
 */
__bpf_kfunc int bpfdrv_timer_cancel(struct bpfdrv_dev *dev, u32 id)
{
	struct bpfdrv_timers *ts = to_bpfdrv_device(dev)->timers;

	if (id >= BPFDRV_TIMERS_MAX)
		return -EINVAL;
	if (!ts)
		return -ENODEV;
	return cancel_delayed_work(&ts->t[id].work);
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_timer_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_timer_start, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_timer_cancel, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_timer_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_timers = {
	.name = "timers",
	.kfuncs = &bpfdrv_timer_kfunc_ids,
	.claim = bpfdrv_timers_claim,
	.revoke = bpfdrv_timers_revoke,
	.free = bpfdrv_timers_free,
};
