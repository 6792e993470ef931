// SPDX-License-Identifier: GPL-2.0
/*
 * The one open-ended loop a driver may write: bpfdrv_for(), an open-coded
 * iterator that bounds the time of the call it runs in.
 *
 * The verifier bounds a program's instructions on each path, not the
 * rounds of bpf_loop() or bpf_for(), nested: one read could keep its CPU
 * for hours. So those are not granted (kmod/allow.c), nor may_goto or calls
 * of global functions, and a driver loops with this iterator, whose every
 * round checks the call's budget:
 *
 * - in a callback that cannot sleep, the loops of one call end after
 *   loop_max_ms (irq_hard: irq_hard_max_us; accel_run_job and
 *   accel_timeout, on the dma-fence path: fence_max_us), and the driver
 *   is ejected (irq_hard: by its overrun check);
 * - in a sleepable one, each round may reschedule, and the loops end when
 *   the calling process is killed or the instance is torn down, so they
 *   hold up neither. The exit and timer callbacks, run by kernel threads
 *   that no signal ends, and a live update's takeover, which holds the
 *   update's locks, get the budget instead (an overrunning takeover fails
 *   the update).
 *
 * Between two rounds a program runs no more than one verified path, so a
 * call ends within its budget and one path's instructions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>

#include "call.h"
#include "eject.h"
#include "kfuncs.h"
#include "loop.h"

static unsigned int loop_max_ms = 1000;
module_param(loop_max_ms, uint, 0644);
MODULE_PARM_DESC(loop_max_ms,
		 "Longest the bpfdrv_for() loops of a callback that cannot sleep may run before they end and its driver is ejected, in milliseconds (default: 1000)");

/* struct bpf_iter_bpfdrv as bpfdrv sees it; BPF cannot read it */
struct bpfdrv_loop {
	struct bpfdrv_device *bdev;
	u64 deadline;		/* local_clock(); 0: no budget, yields */
	u32 left;		/* rounds */
	s32 val;		/* the round's value */
};

static_assert(sizeof(struct bpfdrv_loop) == sizeof(struct bpf_iter_bpfdrv));
static_assert(__alignof__(struct bpfdrv_loop) == __alignof__(struct bpf_iter_bpfdrv));

/*
 * The sleepable callbacks whose loops get the budget all the same: exit
 * and timer, run by kernel threads that no signal ends, and a live
 * update's takeover, which holds the update's locks; suspend and resume
 * too, run by the PM core's threads, which a system sleep waits for.
 */
#define BPFDRV_CB_BUDGETED \
	(BIT(BPFDRV_CB_EXIT) | BIT(BPFDRV_CB_TIMER) | BIT(BPFDRV_CB_TAKEOVER) | \
	 BIT(BPFDRV_CB_SUSPEND) | BIT(BPFDRV_CB_RESUME))

/* May the calling program sleep? Sleepable programs hold no RCU lock. */
static bool bpfdrv_loop_may_sleep(void)
{
	return preemptible() && !rcu_preempt_depth();
}

/* The deadline of the call that loops on @bdev, or 0 if it may yield instead. */
static u64 bpfdrv_loop_deadline(struct bpfdrv_device *bdev)
{
	struct bpfdrv_fence_call *fc;
	struct bpfdrv_hard_call *hc;

	/* irq_hard runs beside the mutex's callback, in this task's stead */
	hc = bpfdrv_hard_call_current(bdev);
	if (hc)
		return hc->deadline;
	/* so do the calls on the dma-fence path, each in its own task */
	fc = bpfdrv_fence_call_current(bdev);
	if (fc)
		return fc->deadline;
	if (bpfdrv_loop_may_sleep() && !(BIT(bdev->cb) & BPFDRV_CB_BUDGETED))
		return 0;
	/* under the device mutex: this call's first loop starts the clock */
	if (!bdev->loop_start)
		bdev->loop_start = local_clock();
	return bdev->loop_start + (u64)READ_ONCE(loop_max_ms) * NSEC_PER_MSEC;
}

/* The loops of a call that may not sleep ran out of time. */
static void bpfdrv_loop_overrun(struct bpfdrv_loop *loop)
{
	struct bpfdrv_device *bdev = loop->bdev;
	enum bpfdrv_cb cb = bpfdrv_cb_current(bdev);
	char msg[BPFDRV_EXIT_MSG_MAX];

	if (cb == BPFDRV_CB_IRQ_HARD)
		return;		/* irq_hard's overrun check ejects */
	if (cb == BPFDRV_CB_TAKEOVER) {
		/* the new code's: the update refuses it, the old one serves */
		bdev->loop_overran = true;
		return;
	}
	if (bpfdrv_fence_call_current(bdev))
		snprintf(msg, sizeof(msg),
			 "%s looped past its budget on the dma-fence path (fence_max_us)",
			 bpfdrv_cb_names[cb]);
	else
		snprintf(msg, sizeof(msg), "%s looped for more than %u ms",
			 bpfdrv_cb_names[cb], READ_ONCE(loop_max_ms));
	dev_warn_ratelimited(&bdev->dev, "%s; its loops were ended\n", msg);
	bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_PROTOCOL, cb, msg);
}

__bpf_kfunc_start_defs();

/**
 * bpf_iter_bpfdrv_new - start a loop over [@start, @end) in a callback
 * @it: the loop's state, on the program's stack
 * @dev: the callback's device instance
 * @start: the first value
 * @end: one past the last
 *
 * Use through bpfdrv_for(). The loop may end early: when the call runs out
 * of its budget, or in a sleepable callback when the process is killed or
 * the instance is torn down.
 *
 * Return: 0, or -EINVAL if @start > @end (the loop then runs no round).
 */
__bpf_kfunc int bpf_iter_bpfdrv_new(struct bpf_iter_bpfdrv *it,
				    struct bpfdrv_dev *dev, int start, int end)
{
	struct bpfdrv_loop *loop = (void *)it;

	loop->bdev = to_bpfdrv_device(dev);
	loop->deadline = bpfdrv_loop_deadline(loop->bdev);
	loop->val = (s32)((u32)start - 1);	/* the first round adds one */
	if (start > end) {
		loop->left = 0;
		return -EINVAL;
	}
	loop->left = (s64)end - start;
	return 0;
}

/**
 * bpf_iter_bpfdrv_next - the next round's value
 * @it: the loop's state
 *
 * Return: a pointer to the value, or NULL when the loop ends.
 */
__bpf_kfunc int *bpf_iter_bpfdrv_next(struct bpf_iter_bpfdrv *it)
{
	struct bpfdrv_loop *loop = (void *)it;

	if (!loop->left)
		return NULL;
	if (loop->deadline) {
		if (unlikely(local_clock() > loop->deadline)) {
			bpfdrv_loop_overrun(loop);
			goto end;
		}
	} else {
		cond_resched();
		/*
		 * going, not only dead: the teardown removes class devices
		 * before it marks the instance dead, and the LED core calls
		 * the driver then, under the lock this loop's call holds
		 */
		if (unlikely(fatal_signal_pending(current) ||
			     bpfdrv_going(loop->bdev)))
			goto end;
	}
	loop->left--;
	loop->val = (s32)((u32)loop->val + 1);
	return &loop->val;
end:
	loop->left = 0;
	return NULL;
}

/**
 * bpf_iter_bpfdrv_destroy - end a loop
 * @it: the loop's state
 */
__bpf_kfunc void bpf_iter_bpfdrv_destroy(struct bpf_iter_bpfdrv *it)
{
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_loop_kfunc_ids)
BTF_ID_FLAGS(func, bpf_iter_bpfdrv_new, KF_ITER_NEW | KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpf_iter_bpfdrv_next, KF_ITER_NEXT | KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_iter_bpfdrv_destroy, KF_ITER_DESTROY)
BTF_KFUNCS_END(bpfdrv_loop_kfunc_ids)

/* bpfdrv_for()'s iterator, for chr_ext_ops programs (kfuncs.c) */
int bpfdrv_loop_kfuncs_init(void)
{
	return bpfdrv_kfuncs_add(&bpfdrv_loop_kfunc_ids);
}
