/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way to call a driver (in the spirit of sched_ext's SCX_CALL_OP):
 * bpfdrv_call() and bpfdrv_call_void(). Every callback but irq_hard, which
 * runs in hard-IRQ context under RCU (pci_irq.c), goes through them:
 *
 *   enter:  pin the instance (bpfdrv_pin(): a detach drains the pins
 *           before it frees the driver), the gate of the call's kind, a
 *           peek at the mask of the driver's callbacks without the mutex,
 *           the device resumed (power management, pci_pm.c: only where
 *           the instance's pm_flags are not 0), the callback mutex,
 *           the callback looked up under it (an update swaps them under
 *           it), the count and which callback runs;
 *   call;
 *   leave:  unlock, then judge the return value while the driver is still
 *           pinned (a burst of bad returns ejects it), then unpin.
 *
 * bpfdrv_call_fence() is the same call for the dma-fence signalling path
 * (accel_run_job, accel_timeout), without the mutex: see there.
 *
 * Inline: this is the hot path of every system call on a node.
 */
#ifndef __BPFDRV_CALL_H
#define __BPFDRV_CALL_H

#include <linux/bits.h>
#include <linux/lockdep.h>
#include <linux/sched.h>

#include "bpfdrv.h"

/* Who calls, deciding when the call may run and how it gets the mutex. */
enum bpfdrv_call_kind {
	/* a file operation: until detach marks the instance dead; killable */
	BPFDRV_CALL_FILE,
	/* a close, which must reach the driver even from a killed process */
	BPFDRV_CALL_RELEASE,
	/* class callbacks, timers, GPIO edges: while live; killable */
	BPFDRV_CALL_LIVE,
	/*
	 * the IRQ thread: as LIVE, but it does not wait for a system resume
	 * (the PM core waits for IRQ threads before it powers devices down)
	 */
	BPFDRV_CALL_IRQ,
	/* init and exit: the instance's starter or finisher, alone with it */
	BPFDRV_CALL_OWNER,
	/* takeover: a live update, holding the mutex, calls its new code */
	BPFDRV_CALL_UPDATE,
	/*
	 * a reset of the PCI function, or its suspend or resume (pci_pm.c),
	 * holding the mutex through it: live
	 */
	BPFDRV_CALL_HELD,
	/* on the dma-fence path: while live, no mutex, budgeted */
	BPFDRV_CALL_FENCE,
};

struct bpfdrv_call {
	struct bpfdrv_device *bdev;
	const struct chr_ext_ops *ops;	/* the code this call runs */
	enum bpfdrv_call_kind kind;
	enum bpfdrv_cb cb;
	struct bpfdrv_pin pin;
	struct bpfdrv_fence_call *fence;	/* BPFDRV_CALL_FENCE's slot */
	bool pm;			/* holds a runtime PM reference */
};

int bpfdrv_call_pm_get(struct bpfdrv_call *c);
void bpfdrv_call_pm_put(struct bpfdrv_call *c);

int bpfdrv_bad_ret(struct bpfdrv_device *bdev, enum bpfdrv_cb cb, int ret,
		   u32 max);

/*
 * A callback's return value as the caller's: at most @max, or an ordinary
 * errno. Anything else is the driver's bug, reported as EIO.
 */
static __always_inline int bpfdrv_check_ret(struct bpfdrv_device *bdev,
					    enum bpfdrv_cb cb, int ret, u32 max)
{
	if (likely((ret >= 0 && ret <= max) || (ret < 0 && ret > -ERESTARTSYS)))
		return ret;
	return bpfdrv_bad_ret(bdev, cb, ret, max);
}

u32 bpfdrv_cb_mask(const struct chr_ext_ops *ops);

/* An instance's callbacks, and the mask of them bpfdrv_call_peek() reads. */
static inline void bpfdrv_set_ops(struct bpfdrv_device *bdev,
				  struct chr_ext_ops *ops)
{
	WRITE_ONCE(bdev->ops, ops);
	WRITE_ONCE(bdev->cb_mask, bpfdrv_cb_mask(ops));
}

/*
 * Does the driver have callback @cb? Peeked without the mutex, so that a
 * call the driver does not handle never queues behind one that sleeps; the
 * mask is a word of the instance, which an update rewrites after the
 * callbacks (the call looks again under the mutex).
 */
static __always_inline bool bpfdrv_call_peek(struct bpfdrv_device *bdev,
					     enum bpfdrv_cb cb)
{
	return READ_ONCE(bdev->cb_mask) & BIT(cb);
}

/*
 * Take the callback mutex behind a live update waiting for it: the update
 * then gets it between two calls instead of losing it to a stream of
 * callers. Killable: a process queued behind a callback that sleeps can be
 * killed, and is no hung task (the IRQ threads get no signal, but are no
 * hung-task report either).
 */
static __always_inline int bpfdrv_call_lock(struct bpfdrv_device *bdev)
{
	if (unlikely(READ_ONCE(bdev->update_waiting)) &&
	    wait_var_event_killable(&bdev->update_waiting,
				    !READ_ONCE(bdev->update_waiting)))
		return -EINTR;
	return mutex_lock_killable(&bdev->lock);
}

/*
 * A killed process's close must still reach the driver, nor may it wait
 * uninterruptibly behind a callback that sleeps for minutes: killed, it
 * polls for the mutex in TASK_IDLE.
 */
static inline void bpfdrv_call_lock_release(struct bpfdrv_device *bdev)
{
	if (!bpfdrv_call_lock(bdev))
		return;
	while (!mutex_trylock(&bdev->lock))
		schedule_timeout_idle(1);
}

static __always_inline bool bpfdrv_call_gate(struct bpfdrv_device *bdev,
					     enum bpfdrv_call_kind kind)
{
	switch (kind) {
	case BPFDRV_CALL_LIVE:
	case BPFDRV_CALL_IRQ:
	case BPFDRV_CALL_HELD:
		return bpfdrv_live(bdev);
	case BPFDRV_CALL_OWNER:
		return true;
	default:
		return !bpfdrv_dead(bdev);
	}
}

/*
 * The callback mutex of a call that must find the device resumed
 * (bdev->pm_flags not 0; pci_pm.c): a system sleep is waited for, then a
 * runtime PM reference resumes the device, then the mutex; a system
 * suspend that came between (it holds the mutex while it runs) lets go of
 * both and waits again. Out of the hot path of instances without power
 * management.
 */
static inline int bpfdrv_call_lock_pm(struct bpfdrv_call *c)
{
	struct bpfdrv_device *bdev = c->bdev;
	int ret;

	for (;;) {
		ret = bpfdrv_call_pm_get(c);
		if (ret)
			return ret;
		if (c->kind == BPFDRV_CALL_RELEASE) {
			bpfdrv_call_lock_release(bdev);
		} else {
			ret = bpfdrv_call_lock(bdev);
			if (ret) {
				bpfdrv_call_pm_put(c);
				return ret;
			}
		}
		if (c->kind == BPFDRV_CALL_IRQ ||
		    !test_bit(BPFDRV_PM_F_ASLEEP, &bdev->pm_flags))
			return 0;
		mutex_unlock(&bdev->lock);
		bpfdrv_call_pm_put(c);
	}
}

/**
 * bpfdrv_call_enter - start a call of a driver's callback on an instance
 * @c: the call, filled in
 * @bdev: the instance
 * @kind: who calls
 * @cb: which callback, for counts and exit reports
 * @member: its offset in struct chr_ext_ops
 * @new: for BPFDRV_CALL_UPDATE, the update's callbacks; else NULL
 *
 * Return: 0 with the instance pinned and its callback mutex held;
 * -ENODEV if the gate of @kind is shut, -ENOENT if the driver has no such
 * callback, -EINTR if the caller was killed while it waited.
 */
static __always_inline int bpfdrv_call_enter(struct bpfdrv_call *c,
					     struct bpfdrv_device *bdev,
					     enum bpfdrv_call_kind kind,
					     enum bpfdrv_cb cb, size_t member,
					     const struct chr_ext_ops *new)
{
	int ret;

	c->bdev = bdev;
	c->kind = kind;
	c->cb = cb;
	c->pm = false;
	c->pin = bpfdrv_pin(bdev);
	if (unlikely(!bpfdrv_call_gate(bdev, kind))) {
		ret = -ENODEV;
		goto out;
	}
	if (kind == BPFDRV_CALL_UPDATE || kind == BPFDRV_CALL_HELD) {
		lockdep_assert_held(&bdev->lock);
		c->ops = new ?: bdev->ops;
		if (!*(void **)((u8 *)c->ops + member)) {
			ret = -ENOENT;
			goto out;
		}
		goto called;
	}
	if (!bpfdrv_call_peek(bdev, cb)) {
		ret = -ENOENT;
		goto out;
	}
	/* init and exit: no runtime PM yet, or the teardown resumed it */
	if (unlikely(READ_ONCE(bdev->pm_flags)) && kind != BPFDRV_CALL_OWNER) {
		ret = bpfdrv_call_lock_pm(c);
		if (unlikely(ret))
			goto out;
		goto locked;
	}
	switch (kind) {
	case BPFDRV_CALL_RELEASE:
		bpfdrv_call_lock_release(bdev);
		break;
	case BPFDRV_CALL_OWNER:
		mutex_lock(&bdev->lock);	/* uncontended */
		break;
	default:
		ret = bpfdrv_call_lock(bdev);
		if (unlikely(ret))
			goto out;
	}
locked:
	/* again under the mutex: an update may have swapped them */
	c->ops = bdev->ops;
	if (unlikely(!*(void **)((u8 *)c->ops + member))) {
		mutex_unlock(&bdev->lock);
		bpfdrv_call_pm_put(c);
		ret = -ENOENT;
		goto out;
	}
called:
	this_cpu_inc(bdev->stats->calls[cb]);
	bdev->cb = cb;
	bdev->loop_start = 0;	/* its bpfdrv_for() loops start their clock */
	bdev->loop_overran = false;
	return 0;
out:
	bpfdrv_unpin(bdev, c->pin);
	return ret;
}

/* End a call: @ret judged (at most @max) while the driver is pinned. */
static __always_inline int bpfdrv_call_leave(struct bpfdrv_call *c, int ret,
					     u32 max)
{
	struct bpfdrv_device *bdev = c->bdev;

	if (c->kind != BPFDRV_CALL_UPDATE && c->kind != BPFDRV_CALL_HELD)
		mutex_unlock(&bdev->lock);
	if (unlikely(c->pm))
		bpfdrv_call_pm_put(c);
	ret = bpfdrv_check_ret(bdev, c->cb, ret, max);
	bpfdrv_unpin(bdev, c->pin);
	return ret;
}

/*
 * Stop the instance's calls for a while (a reset of its PCI function, its
 * suspend or resume): its
 * callback mutex, held until bpfdrv_call_resume(), by one task; only
 * BPFDRV_CALL_HELD calls of that task run meanwhile, the others wait as
 * behind a long callback.
 */
static inline void bpfdrv_call_hold(struct bpfdrv_device *bdev)
{
	mutex_lock(&bdev->lock);
}

static inline void bpfdrv_call_resume(struct bpfdrv_device *bdev)
{
	mutex_unlock(&bdev->lock);
}

#define BPFDRV_OPS(member)	offsetof(struct chr_ext_ops, member)

/**
 * bpfdrv_call - call a driver's callback that returns a value
 * @bdev: the instance
 * @kind: who calls (enum bpfdrv_call_kind)
 * @cb: which callback (enum bpfdrv_cb)
 * @member: its member of struct chr_ext_ops
 * @max: the largest value it may return
 * @absent: the result when the driver has no such callback
 * @...: its arguments after the device
 *
 * Return: its judged return value, @absent, -ENODEV or -EINTR.
 */
#define bpfdrv_call(bdev, kind, cb, member, max, absent, ...)		\
({									\
	struct bpfdrv_call __c;						\
	int __ret = bpfdrv_call_enter(&__c, bdev, kind, cb,		\
				      BPFDRV_OPS(member), NULL);	\
	if (likely(!__ret)) {						\
		__ret = __c.ops->member(&(bdev)->pub, ##__VA_ARGS__);	\
		__ret = bpfdrv_call_leave(&__c, __ret, max);		\
	} else if (__ret == -ENOENT) {					\
		__ret = (absent);					\
	}								\
	__ret;								\
})

/**
 * bpfdrv_call_void - call a driver's callback that returns nothing
 *
 * As bpfdrv_call(). Return: 0 if it was called, else -ENODEV, -ENOENT or
 * -EINTR.
 */
#define bpfdrv_call_void(bdev, kind, cb, member, ...)			\
({									\
	struct bpfdrv_call __c;						\
	int __ret = bpfdrv_call_enter(&__c, bdev, kind, cb,		\
				      BPFDRV_OPS(member), NULL);	\
	if (likely(!__ret)) {						\
		__c.ops->member(&(bdev)->pub, ##__VA_ARGS__);		\
		bpfdrv_call_leave(&__c, 0, 0);				\
	}								\
	__ret;								\
})

/**
 * bpfdrv_call_update - call the takeover callback of a live update's code
 * @bdev: the instance, its mutex held by the update
 * @new: the update's callbacks
 *
 * Return: takeover's judged return value (0 on success), 0 if it has none,
 * -ENODEV if the instance is being torn down.
 */
#define bpfdrv_call_update(bdev, new)					\
({									\
	struct bpfdrv_call __c;						\
	int __ret = bpfdrv_call_enter(&__c, bdev, BPFDRV_CALL_UPDATE,	\
				      BPFDRV_CB_TAKEOVER,		\
				      BPFDRV_OPS(takeover), new);	\
	if (!__ret) {							\
		__ret = __c.ops->takeover(&(bdev)->pub);		\
		__ret = bpfdrv_call_leave(&__c, __ret, 0);		\
	} else if (__ret == -ENOENT) {					\
		__ret = 0;						\
	}								\
	__ret;								\
})

int bpfdrv_fence_enter(struct bpfdrv_call *c, struct bpfdrv_device *bdev,
		       u32 slot, enum bpfdrv_cb cb, size_t member);
int bpfdrv_fence_leave(struct bpfdrv_call *c, int ret, u32 max);

/**
 * bpfdrv_call_fence - call a driver's callback on the dma-fence path
 * @bdev: the instance
 * @slot: the caller's slot, < BPFDRV_FENCE_SLOTS: no two calls with the
 *	  same slot run at once (a ring's start_lock: one run_job, or its
 *	  timeout, at a time)
 * @cb: which callback (enum bpfdrv_cb)
 * @member: its member of struct chr_ext_ops
 * @max: the largest value it may return
 * @absent: the result when the driver has no such callback
 * @...: its arguments after the device
 *
 * A fence is a promise to other devices and to memory reclaim: whatever
 * waits for it may hold any lock, or be reclaim itself. So the call takes
 * no mutex (callbacks hold it while they allocate, fault or sleep), its
 * program cannot sleep (struct_ops.c refuses a sleepable one), calls only
 * the kfuncs that neither sleep nor allocate (allow.c), and its
 * bpfdrv_for() loops end after fence_max_us, ejecting the driver
 * (loop.c). It runs as irq_hard does: beside the other callbacks, pinned
 * (a teardown drains it) and under RCU (an update waits for it). The
 * caller marks its signalling section (dma_fence_begin_signalling()).
 *
 * Return: its judged return value, @absent, or -ENODEV once not live.
 */
#define bpfdrv_call_fence(bdev, slot, cb, member, max, absent, ...)	\
({									\
	struct bpfdrv_call __c;						\
	int __ret = bpfdrv_fence_enter(&__c, bdev, slot, cb,		\
				       BPFDRV_OPS(member));		\
	if (likely(!__ret)) {						\
		__ret = __c.ops->member(&(bdev)->pub, ##__VA_ARGS__);	\
		__ret = bpfdrv_fence_leave(&__c, __ret, max);		\
	} else if (__ret == -ENOENT) {					\
		__ret = (absent);					\
	}								\
	__ret;								\
})

/* Is the callback at byte @moff of struct chr_ext_ops on the fence path? */
static inline bool bpfdrv_fence_member(u32 moff)
{
	return moff == BPFDRV_OPS(accel_run_job) ||
	       moff == BPFDRV_OPS(accel_timeout) ||
	       moff == BPFDRV_OPS(accel_vm_map) ||
	       moff == BPFDRV_OPS(accel_vm_unmap);
}

/* bpfdrv_call_fence() for a callback that returns nothing: 0 if called */
#define bpfdrv_call_fence_void(bdev, slot, cb, member, ...)		\
({									\
	struct bpfdrv_call __c;						\
	int __ret = bpfdrv_fence_enter(&__c, bdev, slot, cb,		\
				       BPFDRV_OPS(member));		\
	if (likely(!__ret)) {						\
		__c.ops->member(&(bdev)->pub, ##__VA_ARGS__);		\
		bpfdrv_fence_leave(&__c, 0, 0);				\
	}								\
	__ret;								\
})

/*
 * The callback that @bdev runs in the current task: irq_hard's (which
 * interrupts the others), a call's on the fence path, or the one holding
 * the mutex. For the loops' budget and the reports that name it.
 */
static inline struct bpfdrv_fence_call *
bpfdrv_fence_call_current(struct bpfdrv_device *bdev)
{
	int i;

	for (i = 0; i < BPFDRV_FENCE_SLOTS; i++)
		if (READ_ONCE(bdev->fence_calls[i].task) == current)
			return &bdev->fence_calls[i];
	return NULL;
}

/*
 * The slot of the vector whose irq_hard runs in the current task (or, in
 * hard-IRQ context, interrupted it), or NULL. Hard IRQs do not nest, and
 * on PREEMPT_RT each vector's handler is its own thread: one at most.
 */
static inline struct bpfdrv_hard_call *
bpfdrv_hard_call_current(struct bpfdrv_device *bdev)
{
	unsigned int i, n = READ_ONCE(bdev->hard_slots);

	for (i = 0; i < n; i++)
		if (READ_ONCE(bdev->hard_calls[i].task) == current)
			return &bdev->hard_calls[i];
	return NULL;
}

static inline enum bpfdrv_cb bpfdrv_cb_current(struct bpfdrv_device *bdev)
{
	struct bpfdrv_fence_call *fc;

	if (bpfdrv_hard_call_current(bdev))
		return BPFDRV_CB_IRQ_HARD;
	fc = bpfdrv_fence_call_current(bdev);
	return fc ? fc->cb : bdev->cb;
}

#endif /* __BPFDRV_CALL_H */
