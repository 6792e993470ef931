// SPDX-License-Identifier: GPL-2.0
/*
 * Driver and instance lifecycle: attaching a chr_ext_ops map makes a driver
 * and its device instances; detach, ejection and PCI removal destroy them.
 *
 * bpfdrv_lock guards the lists and what instances reserve (names, PCI
 * functions), never a driver callback. An instance is made in three steps:
 * reserved under the lock, started without it (PCI and GPIO set-up, init,
 * the node), then published under it, or undone if its start failed or a
 * teardown overtook it. Destroying is the mirror: unlinked under the lock,
 * finished (drain, exit, release) without it. So a slow init or exit delays
 * no other driver, bind or unbind.
 *
 * drv->pending counts the instances being started or finished outside the
 * driver's own teardown, which waits for them: no callback of a driver runs
 * once its detach returns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>

#include "call.h"
#include "driver.h"
#include "eject.h"
#include "iommu.h"
#include "node.h"
#include "parts.h"

/* the lists of drivers, instances and PCI functions */
DEFINE_MUTEX(bpfdrv_lock);
static LIST_HEAD(bpfdrv_devices);	/* every instance, by name */
static LIST_HEAD(bpfdrv_drivers);	/* attached and attaching drivers */
static LIST_HEAD(bpfdrv_pci_fns);	/* PCI functions bound to bpfdrv */

static struct bpfdrv_device *bpfdrv_find(const char *name)
{
	struct bpfdrv_device *bdev;

	lockdep_assert_held(&bpfdrv_lock);
	list_for_each_entry(bdev, &bpfdrv_devices, node)
		if (!strcmp(bdev->pub.name, name))
			return bdev;
	return NULL;
}

static struct bpfdrv_driver *bpfdrv_find_driver(const char *name)
{
	struct bpfdrv_driver *drv;

	lockdep_assert_held(&bpfdrv_lock);
	list_for_each_entry(drv, &bpfdrv_drivers, node)
		if (!strcmp(drv->name, name))
			return drv;
	return NULL;
}

/*
 * A driver is kernel code: attaching one, or updating its code, takes
 * CAP_SYS_ADMIN in the initial user namespace, whatever BPF token the
 * loader holds; one that claims hardware (PCI functions, GPIO lines, I2C
 * addresses, a SPI chip select) also takes CAP_SYS_RAWIO, as raw device access from user
 * space does.
 */
bool bpfdrv_driver_capable(const struct chr_ext_ops *ops)
{
	return capable(CAP_SYS_ADMIN) &&
	       ((!bpfdrv_driver_is_pci(ops) && !ops->gpio_chip[0] &&
		 !ops->i2c_adapter[0] && !ops->spi_controller[0]) ||
		capable(CAP_SYS_RAWIO));
}

/* Does @drv serve PCI function @fn? */
static bool bpfdrv_driver_matches(struct bpfdrv_driver *drv,
				  struct bpfdrv_pci_fn *fn)
{
	const struct chr_ext_ops *ops = drv->ops;
	int i;

	if (ops->pci_slot[0])
		return !strcmp(ops->pci_slot, pci_name(fn->pdev));
	for (i = 0; i < BPFDRV_MAX_PCI_IDS && ops->pci_ids[i].vendor; i++)
		if (ops->pci_ids[i].vendor == fn->pdev->vendor &&
		    ops->pci_ids[i].device == fn->pdev->device)
			return true;
	return false;
}

/* Waiters free @drv once pending is 0: wake_up_var() does not touch it. */
static void bpfdrv_pending_done(struct bpfdrv_driver *drv)
{
	if (atomic_dec_and_test(&drv->pending))
		wake_up_var(&drv->pending);
}

/* TASK_IDLE: waiting for a driver's callbacks is no hung task. */
static void bpfdrv_wait_pending(struct bpfdrv_driver *drv)
{
	___wait_var_event(&drv->pending, !atomic_read(&drv->pending),
			  TASK_IDLE, 0, 0, schedule());
}

struct bpfdrv_drain {
	struct rcu_head rcu;
	struct completion done;
};

static void bpfdrv_drained(struct rcu_head *rcu)
{
	complete(&container_of(rcu, struct bpfdrv_drain, rcu)->done);
}

/*
 * synchronize_srcu(), waiting in TASK_IDLE: a callback that sleeps for
 * minutes delays its own device's teardown, and is no hung task.
 */
static void bpfdrv_drain(struct bpfdrv_device *bdev)
{
	struct bpfdrv_drain d;

	init_rcu_head_on_stack(&d.rcu);
	init_completion(&d.done);
	call_srcu(&bdev->srcu, &d.rcu, bpfdrv_drained);
	wait_for_completion_state(&d.done, TASK_IDLE);
	destroy_rcu_head_on_stack(&d.rcu);
}

/*
 * The one place an instance's state changes: forward only, each step
 * from the states listed for it (enum bpfdrv_state).
 */
static void bpfdrv_state_set(struct bpfdrv_device *bdev, enum bpfdrv_state to)
{
	static const u8 from[] = {
		[BPFDRV_STATE_FAILED] = BIT(BPFDRV_STATE_CREATING),
		[BPFDRV_STATE_STARTED] = BIT(BPFDRV_STATE_CREATING),
		[BPFDRV_STATE_LIVE] = BIT(BPFDRV_STATE_STARTED),
		[BPFDRV_STATE_DYING] = BIT(BPFDRV_STATE_STARTED) |
				       BIT(BPFDRV_STATE_LIVE),
		[BPFDRV_STATE_DEAD] = BIT(BPFDRV_STATE_FAILED) |
				      BIT(BPFDRV_STATE_DYING),
	};

	WARN_ONCE(!(from[to] & BIT(bdev->state)), "%s: state %d to %d\n",
		  bdev->pub.name, bdev->state, to);
	WRITE_ONCE(bdev->state, to);
}

/*
 * Step one, under bpfdrv_lock: an instance of @drv holding PCI function
 * @fn (or none), named, not yet visible to user space.
 */
static struct bpfdrv_device *bpfdrv_instance_reserve(struct bpfdrv_driver *drv,
						     struct bpfdrv_pci_fn *fn)
{
	struct chr_ext_ops *ops = drv->ops;
	struct bpfdrv_device *bdev;
	int index, ret;

	lockdep_assert_held(&bpfdrv_lock);
	bdev = kzalloc(sizeof(*bdev), GFP_KERNEL);
	if (!bdev)
		return ERR_PTR(-ENOMEM);
	bdev->stats = alloc_percpu(struct bpfdrv_stats);
	if (!bdev->stats || bpfdrv_pin_init(bdev)) {
		free_percpu(bdev->stats);
		kfree(bdev);
		return ERR_PTR(-ENOMEM);
	}
	/* at most as many instances as minors: the index has 3 digits */
	index = ida_alloc_max(&drv->index_ida, BPFDRV_MINORS - 1, GFP_KERNEL);
	if (index < 0) {
		cleanup_srcu_struct(&bdev->srcu);
		free_percpu(bdev->stats);
		kfree(bdev);
		return ERR_PTR(index);
	}
	bdev->pub.index = index;
	if (fn)	/* attach refused names that do not fit */
		snprintf(bdev->pub.name, sizeof(bdev->pub.name), "%.*s%u",
			 BPFDRV_PCI_NAME_MAX, ops->name, index);
	else
		strscpy(bdev->pub.name, ops->name, sizeof(bdev->pub.name));
	bdev->drv = drv;
	bpfdrv_set_ops(bdev, ops);
	bdev->flags = ops->flags;
	bdev->mode = ops->mode ? ops->mode & 0777 : BPFDRV_DEFAULT_MODE;
	bdev->link = drv->link;
	init_waitqueue_head(&bdev->wq);
	mutex_init(&bdev->lock);
	init_completion(&bdev->gone);
	bpfdrv_parts_init(bdev);
	INIT_LIST_HEAD(&bdev->drv_node);

	/* From here the device's release frees everything but the index. */
	ret = bpfdrv_cdev_init(bdev);
	if (!ret && bpfdrv_find(bdev->pub.name))
		ret = -EEXIST;
	if (ret) {
		ida_free(&drv->index_ida, index);
		put_device(&bdev->dev);
		return ERR_PTR(ret);
	}
	list_add_tail(&bdev->node, &bpfdrv_devices);
	bdev->reserved_fn = fn;
	if (fn)
		fn->bdev = bdev;
	bdev->state = BPFDRV_STATE_CREATING;
	atomic_inc(&drv->pending);
	drv->gen++;
	return bdev;
}

/*
 * Step two, without bpfdrv_lock: set up the function, the lines, the I2C
 * clients and the SPI device, run init, add the node and the class
 * devices. Returns init's error, or the set-up's.
 */
static int bpfdrv_instance_start(struct bpfdrv_device *bdev)
{
	int ret;

	ret = bpfdrv_parts_claim(bdev);
	if (ret)
		return ret;

	ret = bpfdrv_call(bdev, BPFDRV_CALL_OWNER, BPFDRV_CB_INIT, init, 0, 0);
	if (ret) {
		dev_info(bdev->dev.parent ?: &bdev->dev,
			 "%s: driver init failed: %d\n", bdev->pub.name, ret);
		return ret;
	}
	/* interrupts and edges reach the driver from now on, not before */
	bpfdrv_state_set(bdev, BPFDRV_STATE_STARTED);
	bpfdrv_parts_live(bdev);

	ret = cdev_device_add(&bdev->cdev, &bdev->dev);
	bdev->added = !ret;
	if (!ret)	/* children of the node */
		ret = bpfdrv_parts_add(bdev);
	return ret;
}

/*
 * Take an instance off its driver's lists, so that no other path tears it
 * down. Its name stays taken until bpfdrv_instance_finish() removed the
 * node.
 */
static void bpfdrv_instance_unlink(struct bpfdrv_device *bdev)
{
	lockdep_assert_held(&bpfdrv_lock);
	list_del_init(&bdev->drv_node);
	/* sleepable loops end on it (loop.c) */
	bpfdrv_state_set(bdev, bdev->state == BPFDRV_STATE_CREATING ?
			 BPFDRV_STATE_FAILED : BPFDRV_STATE_DYING);
	bdev->drv->gen++;
}

/*
 * Without bpfdrv_lock: remove the class devices (they may still call the
 * driver, as the LED core does to turn LEDs off) and then the node, which
 * frees the name; stop the instance (no callback starts, none runs after
 * the drain, exit quiesces the device if init succeeded), then release its
 * lines, interrupt and function. Open files keep the dead device alive and
 * get ENODEV. The interrupt is freed after exit, so that freeing MSI
 * vectors never re-enables INTx on a running device.
 */
static void bpfdrv_instance_finish(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->reserved_fn;
	bool inited = bdev->state == BPFDRV_STATE_DYING;

	bpfdrv_parts_del(bdev);
	if (bdev->added)
		cdev_device_del(&bdev->cdev, &bdev->dev);
	mutex_lock(&bpfdrv_lock);
	list_del_init(&bdev->node);
	mutex_unlock(&bpfdrv_lock);

	bpfdrv_state_set(bdev, BPFDRV_STATE_DEAD);
	bpfdrv_device_wake(bdev);
	bpfdrv_drain(bdev);
	/* irq_hard takes no SRCU: wait for a call that saw it live */
	if (bdev->active_fn && bdev->ops->irq_hard)
		synchronize_rcu();
	bpfdrv_parts_revoke(bdev);	/* before exit quiesces the device */
	if (inited)	/* drained: it runs alone */
		bpfdrv_call_void(bdev, BPFDRV_CALL_OWNER, BPFDRV_CB_EXIT, exit);

	bpfdrv_parts_release(bdev);
	if (fn) {
		mutex_lock(&bpfdrv_lock);
		fn->bdev = NULL;	/* it may serve a driver again */
		mutex_unlock(&bpfdrv_lock);
	}
	ida_free(&bdev->drv->index_ida, bdev->pub.index);
	complete_all(&bdev->gone);
	put_device(&bdev->dev);
}

/*
 * Step three: publish a started instance, or undo one that failed to start
 * or that a teardown (detach, ejection, removal of its function) overtook.
 * @bdev's driver may be freed once this returns.
 */
static void bpfdrv_instance_publish(struct bpfdrv_device *bdev, int ret)
{
	struct bpfdrv_driver *drv = bdev->drv;
	bool keep;

	mutex_lock(&bpfdrv_lock);
	keep = !ret && !drv->stopping && !bdev->abort;
	if (keep) {
		bpfdrv_state_set(bdev, BPFDRV_STATE_LIVE);
		list_add_tail(&bdev->drv_node, &drv->instances);
	} else {
		bpfdrv_instance_unlink(bdev);
	}
	mutex_unlock(&bpfdrv_lock);
	if (!keep)
		bpfdrv_instance_finish(bdev);
	bpfdrv_pending_done(drv);
}

/*
 * Destroy every instance of @drv and let no new one start; without
 * bpfdrv_lock. Waits for the instances started or finished elsewhere.
 */
static void bpfdrv_driver_destroy_instances(struct bpfdrv_driver *drv)
{
	struct bpfdrv_device *bdev, *tmp;
	LIST_HEAD(dying);

	mutex_lock(&bpfdrv_lock);
	drv->stopping = true;
	list_for_each_entry_safe(bdev, tmp, &drv->instances, drv_node) {
		bpfdrv_instance_unlink(bdev);
		list_add_tail(&bdev->drv_node, &dying);
	}
	mutex_unlock(&bpfdrv_lock);
	list_for_each_entry_safe(bdev, tmp, &dying, drv_node) {
		list_del_init(&bdev->drv_node);
		bpfdrv_instance_finish(bdev);
	}
	bpfdrv_wait_pending(drv);
}

/*
 * The eject work: tear every instance down as an unload would, then have
 * the BPF side detach the link so that a waiting loader sees EPOLLHUP and
 * the name becomes free. The driver stays registered (stopping) until then.
 */
static void bpfdrv_eject_workfn(struct work_struct *work)
{
	struct bpfdrv_driver *drv =
		container_of(work, struct bpfdrv_driver, eject_work);
	bool attached;

	if (drv->exit.kind == BPFDRV_EXIT_UNLOAD)
		pr_info("driver %s: unloading\n", drv->name);
	else
		pr_warn("driver %s ejected (callback %s): %s\n", drv->name,
			bpfdrv_cb_names[drv->exit.cb], drv->exit.msg);
	mutex_lock(&bpfdrv_lock);
	/* an attach still running detaches the link when it ends */
	attached = drv->attached;
	drv->stopping = true;
	mutex_unlock(&bpfdrv_lock);
	/*
	 * Kept before the nodes go, so that whoever sees them gone reads why;
	 * the detach that follows records the same exit again.
	 */
	bpfdrv_exit_record(drv->name, &drv->exit);
	bpfdrv_driver_destroy_instances(drv);
	/* a failed attach never gets here: its unwinding cancels this work */
	if (attached && drv->link)
		bpfdrv_link_detach_async(xchg(&drv->detach, NULL), drv->link);
}

/*
 * From here no ejection starts (a callback's report is dropped), and none
 * is running: the detach or failed attach owns the teardown. Called
 * without bpfdrv_lock, which the eject work takes.
 */
static void bpfdrv_driver_stop_eject(struct bpfdrv_driver *drv)
{
	unsigned long flags;

	spin_lock_irqsave(&drv->exit_lock, flags);
	if (drv->exit.kind == BPFDRV_EXIT_NONE) {
		drv->exit.kind = BPFDRV_EXIT_UNLOAD;
		drv->exit.time = ktime_get_real_seconds();
		strscpy(drv->exit.msg, "detached", sizeof(drv->exit.msg));
	}
	spin_unlock_irqrestore(&drv->exit_lock, flags);
	cancel_work_sync(&drv->eject_work);
}

/* After bpfdrv_driver_destroy_instances(), off the driver list. */
static void bpfdrv_driver_free(struct bpfdrv_driver *drv)
{
	ida_destroy(&drv->index_ida);
	drv->ops->driver = NULL;
	kfree(drv->detach);
	kfree(drv);
}

/*
 * Start the instances an attach reserved, in order; after the first
 * failure the others are undone unstarted. If the attach stopped waiting,
 * a failure ejects the driver instead.
 */
static void bpfdrv_start_workfn(struct work_struct *work)
{
	struct bpfdrv_driver *drv =
		container_of(work, struct bpfdrv_driver, start_work);
	char msg[BPFDRV_EXIT_MSG_MAX] = "";
	struct bpfdrv_device *bdev;
	int ret = drv->start_err, err;
	bool last;

	/* publishing the last one may let a detach free @drv: no loop test on it */
	do {
		bdev = list_first_entry(&drv->starting, struct bpfdrv_device,
					drv_node);
		list_del_init(&bdev->drv_node);
		last = list_empty(&drv->starting);
		err = ret ? -ECANCELED : bpfdrv_instance_start(bdev);
		if (err && !ret) {
			ret = err;
			snprintf(msg, sizeof(msg),
				 "%s could not start: error %d (see the kernel log)",
				 bdev->pub.name, err);
		}
		if (last) {
			drv->start_err = ret;
			if (atomic_cmpxchg(&drv->start_state, BPFDRV_START_WAITING,
					   BPFDRV_START_DONE) == BPFDRV_START_WAITING) {
				complete(&drv->started);	/* attach reports */
			} else if (ret) {
				/* listed as starting until the detach */
				bpfdrv_driver_eject(drv, BPFDRV_EXIT_ERROR,
						    BPFDRV_CB_INIT, msg);
			} else {
				mutex_lock(&bpfdrv_lock);
				drv->slow_start = false;
				mutex_unlock(&bpfdrv_lock);
			}
		}
		bpfdrv_instance_publish(bdev, err);
	} while (!last);
}

/*
 * How long an attach waits for its instances to start. Longer inits go on
 * in the background: reg runs under the BPF core's struct_ops mutex, and a
 * slow init must not hold up every struct_ops attach in the system.
 */
#define BPFDRV_ATTACH_WAIT	(HZ / 2)

/*
 * Attach: a driver without PCI IDs gets one instance now; a PCI driver gets
 * one per bound function it serves, now and whenever one is bound later.
 * If an instance fails to start within BPFDRV_ATTACH_WAIT, the attach fails
 * and nothing is left; if later, the driver is ejected with the reason.
 * Runs in the attaching process, under the BPF core's struct_ops mutex.
 */
int bpfdrv_driver_attach(struct chr_ext_ops *ops, struct bpf_link *link)
{
	struct bpfdrv_device *bdev;
	struct bpfdrv_driver *drv;
	struct bpfdrv_pci_fn *fn;
	bool ejected;
	int ret = 0;

	if (!bpfdrv_driver_capable(ops))
		return -EPERM;
	if (ops->driver)
		return -EBUSY;
	if (bpfdrv_driver_is_pci(ops) && bpfdrv_pci_locked_down())
		return -EPERM;
	drv = kzalloc(sizeof(*drv), GFP_KERNEL);
	if (!drv)
		return -ENOMEM;
	drv->detach = bpfdrv_link_detach_alloc();
	if (!drv->detach) {
		kfree(drv);
		return -ENOMEM;
	}
	drv->ops = ops;
	strscpy(drv->name, ops->name, sizeof(drv->name));
	drv->link = link;
	INIT_LIST_HEAD(&drv->instances);
	INIT_LIST_HEAD(&drv->starting);
	ida_init(&drv->index_ida);
	spin_lock_init(&drv->exit_lock);
	INIT_WORK(&drv->eject_work, bpfdrv_eject_workfn);
	INIT_WORK(&drv->start_work, bpfdrv_start_workfn);
	init_completion(&drv->started);

	mutex_lock(&bpfdrv_lock);
	if (bpfdrv_find_driver(ops->name)) {
		mutex_unlock(&bpfdrv_lock);
		kfree(drv->detach);
		kfree(drv);
		return -EEXIST;
	}
	ops->driver = drv;
	/* from here a function bound meanwhile may get an instance too */
	list_add_tail(&drv->node, &bpfdrv_drivers);
	list_for_each_entry(fn, &bpfdrv_pci_fns, node) {
		if (!bpfdrv_driver_is_pci(ops))
			break;
		if (fn->bdev || !bpfdrv_driver_matches(drv, fn))
			continue;
		bdev = bpfdrv_instance_reserve(drv, fn);
		if (IS_ERR(bdev)) {
			ret = PTR_ERR(bdev);
			break;
		}
		list_add_tail(&bdev->drv_node, &drv->starting);
	}
	if (!bpfdrv_driver_is_pci(ops)) {
		bdev = bpfdrv_instance_reserve(drv, NULL);
		if (IS_ERR(bdev))
			ret = PTR_ERR(bdev);
		else
			list_add_tail(&bdev->drv_node, &drv->starting);
	}
	mutex_unlock(&bpfdrv_lock);

	if (!list_empty(&drv->starting)) {
		/* a failed reservation: the work undoes the others unstarted */
		drv->start_err = ret;
		schedule_work(&drv->start_work);
		/* killed or timed out: the loader's link goes with it, or not */
		if (wait_for_completion_killable_timeout(&drv->started,
							 BPFDRV_ATTACH_WAIT) <= 0) {
			/* listed in /sys/kernel/bpfdrv/starting until done */
			mutex_lock(&bpfdrv_lock);
			drv->slow_start = true;
			mutex_unlock(&bpfdrv_lock);
			if (atomic_cmpxchg(&drv->start_state, BPFDRV_START_WAITING,
					   BPFDRV_START_ASYNC) == BPFDRV_START_WAITING) {
				pr_info("driver %s: init takes long, it goes on in the background\n",
					ops->name);
				goto attached;
			}
			mutex_lock(&bpfdrv_lock);
			drv->slow_start = false;
			mutex_unlock(&bpfdrv_lock);
		}
		/* done in time: wait for the work to return before unwinding */
		flush_work(&drv->start_work);
		ret = drv->start_err;
	}
	if (ret)
		goto err;

attached:
	mutex_lock(&bpfdrv_lock);
	drv->attached = true;
	ejected = drv->stopping;
	mutex_unlock(&bpfdrv_lock);
	/* ejected while attaching: the eject work left the link to us */
	if (ejected && link)
		bpfdrv_link_detach_async(xchg(&drv->detach, NULL), link);
	return 0;

err:
	/* an init may have ejected already: stop that before unwinding */
	bpfdrv_driver_stop_eject(drv);
	bpfdrv_driver_destroy_instances(drv);
	mutex_lock(&bpfdrv_lock);
	list_del(&drv->node);
	mutex_unlock(&bpfdrv_lock);
	bpfdrv_driver_free(drv);
	return ret;
}

/* /sys/kernel/bpfdrv/starting: attached drivers whose inits still run. */
static ssize_t starting_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct bpfdrv_driver *drv;
	int len = 0;

	mutex_lock(&bpfdrv_lock);
	list_for_each_entry(drv, &bpfdrv_drivers, node)
		if (drv->slow_start)
			len += sysfs_emit_at(buf, len, "%s\n", drv->name);
	mutex_unlock(&bpfdrv_lock);
	return len;
}

/*
 * /sys/kernel/bpfdrv/drivers: every attached driver, a line each:
 * NAME LINK_ID INSTANCES UPDATES (LINK_ID 0 without a link).
 */
static ssize_t drivers_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct bpfdrv_driver *drv;
	int len = 0;

	mutex_lock(&bpfdrv_lock);
	list_for_each_entry(drv, &bpfdrv_drivers, node) {
		if (!drv->attached || drv->stopping)
			continue;
		len += sysfs_emit_at(buf, len, "%s %u %zu %u\n", drv->name,
				     drv->link ? drv->link->id : 0,
				     list_count_nodes(&drv->instances),
				     drv->updates);
	}
	mutex_unlock(&bpfdrv_lock);
	return len;
}

struct kobj_attribute bpfdrv_attr_starting = __ATTR_RO(starting);
struct kobj_attribute bpfdrv_attr_drivers = __ATTR_RO(drivers);

/* Detach: destroy every instance after draining its callers. */
void bpfdrv_driver_detach(struct chr_ext_ops *ops)
{
	struct bpfdrv_driver *drv = ops->driver;

	if (!drv)
		return;
	bpfdrv_driver_stop_eject(drv);
	bpfdrv_driver_destroy_instances(drv);
	mutex_lock(&bpfdrv_lock);
	list_del(&drv->node);
	mutex_unlock(&bpfdrv_lock);
	bpfdrv_exit_record(ops->name, &drv->exit);
	bpfdrv_driver_free(drv);
}

/*
 * bpfdrv unload: tear driver @name down in the eject work, where waiting
 * for its callbacks holds none of the BPF core's locks; the link detach
 * that follows finds nothing left to wait for. The link's fd reports
 * EPOLLHUP when the driver is gone.
 */
static int bpfdrv_driver_unload(const char *name)
{
	struct bpfdrv_driver *drv;
	int ret = 0;

	mutex_lock(&bpfdrv_lock);
	drv = bpfdrv_find_driver(name);
	if (!drv || !drv->attached)
		ret = -ENOENT;
	else if (!drv->link)
		ret = -EOPNOTSUPP;	/* nothing would detach it after */
	else
		bpfdrv_driver_eject(drv, BPFDRV_EXIT_UNLOAD, BPFDRV_CB_NONE,
				    "detached");
	mutex_unlock(&bpfdrv_lock);
	return ret;
}

/*
 * "echo NAME > unload" (bpfdrv unload): detach driver NAME as an ejection
 * does; its link's fd reports EPOLLHUP once it is gone.
 */
static ssize_t unload_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	char name[BPFDRV_NAME_MAX];
	size_t len = count;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len && buf[len - 1] == '\n')
		len--;
	if (len >= sizeof(name))
		return -EINVAL;
	memcpy(name, buf, len);
	name[len] = '\0';
	ret = bpfdrv_driver_unload(name);
	return ret ? ret : count;
}

struct kobj_attribute bpfdrv_attr_unload = __ATTR_WO(unload);

/*
 * A PCI function was bound to bpfdrv: give it to the first attached driver
 * that serves it. A driver whose init refuses it leaves it bound, unused.
 */
void bpfdrv_pci_fn_added(struct bpfdrv_pci_fn *fn)
{
	struct bpfdrv_device *bdev = NULL;
	struct bpfdrv_driver *drv;
	char name[BPFDRV_NAME_MAX];
	int ret;

	mutex_lock(&bpfdrv_lock);
	list_add_tail(&fn->node, &bpfdrv_pci_fns);
	list_for_each_entry(drv, &bpfdrv_drivers, node) {
		if (drv->stopping || !bpfdrv_driver_matches(drv, fn))
			continue;
		bdev = bpfdrv_instance_reserve(drv, fn);
		/* drv may go once the lock is dropped */
		strscpy(name, drv->name, sizeof(name));
		break;
	}
	mutex_unlock(&bpfdrv_lock);
	if (!bdev)
		return;
	ret = IS_ERR(bdev) ? PTR_ERR(bdev) : bpfdrv_instance_start(bdev);
	if (ret)
		dev_warn(&fn->pdev->dev, "driver %s refused this device: %d\n",
			 name, ret);
	if (!IS_ERR(bdev))
		bpfdrv_instance_publish(bdev, ret);
}

/*
 * A driver that uses the DMA API is being bound to @mate (hold.c saw it):
 * the functions bpfdrv serves in its IOMMU group stop mastering the bus,
 * and the instances that were mastering are ejected.
 */
void bpfdrv_pci_group_bound(struct pci_dev *mate)
{
	char what[BPFDRV_HOLD_WHAT_MAX], why[BPFDRV_GROUP_WHY_MAX];
	struct bpfdrv_device *bdev;
	struct bpfdrv_pci_fn *fn;

	if (!bpfdrv_pci_group_mate_foreign(mate, mate->dev.driver))
		return;
	snprintf(why, sizeof(why), "%s (bound to %s)", pci_name(mate),
		 mate->dev.driver->name);
	snprintf(what, sizeof(what), "its IOMMU group to %s", why);
	do {
		bdev = NULL;
		mutex_lock(&bpfdrv_lock);
		list_for_each_entry(fn, &bpfdrv_pci_fns, node) {
			if (!bpfdrv_pci_group_revoke(fn, mate, why) || !fn->bdev)
				continue;
			bdev = fn->bdev;
			get_device(&bdev->dev);
			break;
		}
		mutex_unlock(&bpfdrv_lock);
		if (bdev) {
			bpfdrv_instance_dep_gone(bdev, what);
			put_device(&bdev->dev);
		}
	} while (bdev);
}

/*
 * A PCI function is being unbound or removed: its instance goes first, and
 * the PCI core may free the function once this returns. An instance that
 * is still starting, or that a detach is tearing down, is waited for.
 */
void bpfdrv_pci_fn_removed(struct bpfdrv_pci_fn *fn)
{
	struct bpfdrv_exit_info info = { .kind = BPFDRV_EXIT_REMOVED };
	struct bpfdrv_driver *drv = NULL;
	struct bpfdrv_device *bdev;

	mutex_lock(&bpfdrv_lock);
	bdev = fn->bdev;
	if (bdev && !bpfdrv_going(bdev)) {
		info.time = ktime_get_real_seconds();
		snprintf(info.msg, sizeof(info.msg), "%s lost PCI function %s",
			 bdev->pub.name, pci_name(fn->pdev));
		bpfdrv_exit_record(bdev->drv->name, &info);
	}
	if (bdev && bdev->state == BPFDRV_STATE_LIVE) {
		drv = bdev->drv;
		bpfdrv_instance_unlink(bdev);
		atomic_inc(&drv->pending);	/* its detach waits for us */
	} else if (bdev) {
		bdev->abort = true;	/* its creator undoes it */
		get_device(&bdev->dev);
	}
	list_del(&fn->node);
	mutex_unlock(&bpfdrv_lock);

	if (drv) {
		bpfdrv_instance_finish(bdev);
		bpfdrv_pending_done(drv);
	} else if (bdev) {
		wait_for_completion_state(&bdev->gone, TASK_IDLE);
		put_device(&bdev->dev);
	}
}

/*
 * Something @bdev depends on (@what: "GPIO chip foo") is going; hold.c saw
 * the device go: eject the driver, or have a starting instance undo
 * itself. Neither is waited for.
 */
void bpfdrv_instance_dep_gone(struct bpfdrv_device *bdev, const char *what)
{
	char msg[BPFDRV_EXIT_MSG_MAX];

	mutex_lock(&bpfdrv_lock);
	if (bpfdrv_creating(bdev)) {
		bdev->abort = true;	/* its creator undoes it */
	} else if (!bpfdrv_going(bdev)) {
		snprintf(msg, sizeof(msg), "%s lost %s", bdev->pub.name, what);
		bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_REMOVED,
				    BPFDRV_CB_NONE, msg);
	}
	mutex_unlock(&bpfdrv_lock);
}
