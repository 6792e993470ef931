// SPDX-License-Identifier: GPL-2.0
/*
 * Devices an instance depends on but does not own, such as a GPIO chip or
 * an I2C adapter, must not go while the instance uses them. bpfdrv watches
 * the bus of each one's parent device: when that parent is deleted or its
 * driver unbound (both come before its driver removes the chip or
 * adapter), the instances that depend on it are torn down (the driver is
 * ejected, kind removed) and waited for.
 *
 * A chip or adapter without a parent device is not watched; the caller
 * says so in the kernel log, or holds its module instead.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/notifier.h>

#include "bpfdrv.h"

/* Buses watched for the removal of parents, until the module goes. */
#define BPFDRV_WATCH_BUSES	4
static const struct bus_type *bpfdrv_watch_buses[BPFDRV_WATCH_BUSES];
static struct notifier_block bpfdrv_watch_nbs[BPFDRV_WATCH_BUSES];
static DEFINE_MUTEX(bpfdrv_watch_bus_lock);
/* Every watch in place, until bpfdrv_watch_stop(). */
static LIST_HEAD(bpfdrv_watches);
static DEFINE_MUTEX(bpfdrv_watches_lock);

/* @parent is going: tear down every instance that depends on it, and wait. */
static void bpfdrv_watch_parent_gone(struct device *parent)
{
	struct bpfdrv_device *bdev = NULL;
	struct bpfdrv_watch *w;
	char what[BPFDRV_WATCH_WHAT_MAX];

	do {
		bdev = NULL;
		mutex_lock(&bpfdrv_watches_lock);
		list_for_each_entry(w, &bpfdrv_watches, node) {
			if (w->parent == parent) {
				bdev = w->bdev;
				get_device(&bdev->dev);
				strscpy(what, w->what, sizeof(what));
				break;
			}
		}
		mutex_unlock(&bpfdrv_watches_lock);
		if (bdev) {
			bpfdrv_instance_dep_gone(bdev, what);
			/* its teardown stops the watch */
			wait_for_completion_state(&bdev->gone, TASK_IDLE);
			put_device(&bdev->dev);
		}
	} while (bdev);
}

static int bpfdrv_watch_notify(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	if (action == BUS_NOTIFY_DEL_DEVICE || action == BUS_NOTIFY_UNBIND_DRIVER)
		bpfdrv_watch_parent_gone(data);
	return NOTIFY_DONE;
}

/* Watch the bus of @parent; once per bus, until the module goes. */
static int bpfdrv_watch_bus(struct device *parent)
{
	int i, ret = 0;

	mutex_lock(&bpfdrv_watch_bus_lock);
	for (i = 0; i < BPFDRV_WATCH_BUSES; i++)
		if (!bpfdrv_watch_buses[i] || bpfdrv_watch_buses[i] == parent->bus)
			break;
	if (i == BPFDRV_WATCH_BUSES) {
		ret = -ENOSPC;
	} else if (!bpfdrv_watch_buses[i]) {
		bpfdrv_watch_nbs[i].notifier_call = bpfdrv_watch_notify;
		ret = bus_register_notifier(parent->bus, &bpfdrv_watch_nbs[i]);
		if (!ret)
			bpfdrv_watch_buses[i] = parent->bus;
	}
	mutex_unlock(&bpfdrv_watch_bus_lock);
	return ret;
}

/**
 * bpfdrv_watch_start - tear @bdev down before @parent goes
 * @bdev: the instance, being created
 * @w: its watch, unused
 * @parent: the parent device of what it depends on, or NULL
 * @what: what that is, for the exit report ("GPIO chip foo")
 *
 * Return: true if watched; false if @parent is NULL or has no bus, or the
 * bus cannot be watched.
 */
bool bpfdrv_watch_start(struct bpfdrv_device *bdev, struct bpfdrv_watch *w,
			struct device *parent, const char *what)
{
	if (!parent || !parent->bus || bpfdrv_watch_bus(parent))
		return false;
	w->bdev = bdev;
	w->parent = get_device(parent);
	strscpy(w->what, what, sizeof(w->what));
	mutex_lock(&bpfdrv_watches_lock);
	list_add_tail(&w->node, &bpfdrv_watches);
	mutex_unlock(&bpfdrv_watches_lock);
	return true;
}

/* Stop a watch, if started; the parent stays referenced until release. */
void bpfdrv_watch_stop(struct bpfdrv_watch *w)
{
	if (!w->parent)
		return;
	mutex_lock(&bpfdrv_watches_lock);
	list_del_init(&w->node);
	mutex_unlock(&bpfdrv_watches_lock);
}

void bpfdrv_watch_exit(void)
{
	int i;

	for (i = 0; i < BPFDRV_WATCH_BUSES && bpfdrv_watch_buses[i]; i++)
		bus_unregister_notifier(bpfdrv_watch_buses[i], &bpfdrv_watch_nbs[i]);
}
