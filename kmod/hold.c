// SPDX-License-Identifier: GPL-2.0
/*
 * The one way an instance holds a bus device it does not own: the I2C
 * adapter its clients sit on, its SPI device, its GPIO chip's parent.
 *
 * bpfdrv_hold() references the device and watches its bus for the
 * device's own removal (or its driver's unbind): an attach is refused when
 * it cannot. The kfuncs use the resource between bpfdrv_hold_get() and
 * bpfdrv_hold_put(). When the device goes, the bus notifier revokes the
 * hold: it stops what calls the driver on the device's behalf (the
 * interrupts of GPIO lines), waits only for the kfuncs in flight (a bus
 * transfer), marks it gone so the kfuncs fail with ENODEV from then on,
 * drops what the device's removal needs gone (an adapter reference, GPIO
 * lines, its own reference), and ejects the instance's driver (kind
 * removed). It never waits for the instance's teardown: the teardown may
 * need a lock the removal holds (a controller's, the I2C core's).
 * bpfdrv_hold_release(), in the instance's teardown, gives back the rest,
 * whether the hold was revoked or not.
 *
 * The same watch sees a driver about to be bound on the PCI bus: the
 * functions bpfdrv serves in that device's IOMMU group must stop mastering
 * the bus (iommu.c), before the driver's probe maps anything for it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "bpfdrv.h"
#include "hold.h"

/* A bus whose notifier is registered, until the module goes. */
struct bpfdrv_hold_bus {
	struct list_head node;
	const struct bus_type *bus;
	struct notifier_block nb;
};

static LIST_HEAD(bpfdrv_hold_buses);
static DEFINE_MUTEX(bpfdrv_hold_bus_lock);
/* What the core does when a held device goes (driver.c, via main.c). */
static const struct bpfdrv_hold_events *bpfdrv_hold_events;

/* Every hold in place; a revocation runs whole under it. */
static LIST_HEAD(bpfdrv_holds);
static DEFINE_MUTEX(bpfdrv_holds_lock);

/* Revoke one hold of @dev, if any: returns its instance, referenced. */
static struct bpfdrv_device *bpfdrv_hold_revoke_one(struct device *dev,
						    char *what)
{
	struct bpfdrv_device *bdev = NULL;
	struct bpfdrv_hold *h;

	mutex_lock(&bpfdrv_holds_lock);
	list_for_each_entry(h, &bpfdrv_holds, node) {
		if (h->dev != dev)
			continue;
		list_del_init(&h->node);
		/* its interrupts' callbacks may call the kfuncs drained next */
		if (h->ops->stop)
			h->ops->stop(h);
		/* the kfuncs in flight end; none starts after */
		down_write(&h->use);
		h->gone = true;
		if (h->ops->revoke)
			h->ops->revoke(h);
		up_write(&h->use);
		/* nothing uses it now; its removal may wait for this one */
		put_device(h->dev);
		bdev = h->bdev;
		get_device(&bdev->dev);
		strscpy(what, h->what, BPFDRV_HOLD_WHAT_MAX);
		break;
	}
	mutex_unlock(&bpfdrv_holds_lock);
	return bdev;
}

static int bpfdrv_hold_notify(struct notifier_block *nb, unsigned long action,
			      void *data)
{
	char what[BPFDRV_HOLD_WHAT_MAX];
	struct bpfdrv_device *bdev;
	struct device *dev = data;

	if (action == BUS_NOTIFY_BIND_DRIVER && dev_is_pci(dev)) {
		bpfdrv_hold_events->pci_bound(to_pci_dev(dev));
		return NOTIFY_DONE;
	}
	if (action != BUS_NOTIFY_DEL_DEVICE && action != BUS_NOTIFY_UNBIND_DRIVER)
		return NOTIFY_DONE;
	while ((bdev = bpfdrv_hold_revoke_one(dev, what))) {
		bpfdrv_hold_events->dep_gone(bdev, what);
		put_device(&bdev->dev);
	}
	return NOTIFY_DONE;
}

/* Watch @bus for removals, once, until the module goes. */
static int bpfdrv_hold_watch_bus(const struct bus_type *bus)
{
	struct bpfdrv_hold_bus *b;
	int ret = 0;

	mutex_lock(&bpfdrv_hold_bus_lock);
	list_for_each_entry(b, &bpfdrv_hold_buses, node)
		if (b->bus == bus)
			goto out;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	b->bus = bus;
	b->nb.notifier_call = bpfdrv_hold_notify;
	ret = bus_register_notifier(bus, &b->nb);
	if (ret)
		kfree(b);
	else
		list_add_tail(&b->node, &bpfdrv_hold_buses);
out:
	mutex_unlock(&bpfdrv_hold_bus_lock);
	return ret;
}

/**
 * bpfdrv_hold - hold @dev for @bdev until its teardown
 * @bdev: the instance, being created
 * @h: its hold, unused
 * @dev: the device, on a bus
 * @ops: how to revoke and release what the instance has of it
 * @what: what it is, for the exit report ("I2C adapter foo")
 *
 * Return: 0, holding; -ENODEV if @dev is on no bus (its removal cannot be
 * seen), or the error of watching its bus. On error nothing is held and
 * bpfdrv_hold_release() does nothing.
 */
int bpfdrv_hold(struct bpfdrv_device *bdev, struct bpfdrv_hold *h,
		struct device *dev, const struct bpfdrv_hold_ops *ops,
		const char *what)
{
	int ret;

	if (!dev || !dev->bus)
		return -ENODEV;
	ret = bpfdrv_hold_watch_bus(dev->bus);
	if (ret)
		return ret;
	h->bdev = bdev;
	h->ops = ops;
	h->gone = false;
	init_rwsem(&h->use);
	strscpy(h->what, what, sizeof(h->what));
	h->dev = get_device(dev);
	mutex_lock(&bpfdrv_holds_lock);
	list_add_tail(&h->node, &bpfdrv_holds);
	mutex_unlock(&bpfdrv_holds_lock);
	return 0;
}

/**
 * bpfdrv_hold_get - start using a held resource (a kfunc)
 * @h: the hold
 *
 * Return: true if it is held and not revoked: bpfdrv_hold_put() ends the
 * use. False otherwise (the kfunc fails with ENODEV).
 */
bool bpfdrv_hold_get(struct bpfdrv_hold *h)
{
	if (!READ_ONCE(h->dev))
		return false;
	down_read(&h->use);
	if (h->gone) {
		up_read(&h->use);
		return false;
	}
	return true;
}

void bpfdrv_hold_put(struct bpfdrv_hold *h)
{
	up_read(&h->use);
}

/**
 * bpfdrv_hold_release - give back what @h holds
 * @h: the hold, held or not
 *
 * The instance is dead and drained: no kfunc runs. After this no
 * revocation of it starts, and ops->release() gives the rest back (it
 * reads h->gone).
 */
void bpfdrv_hold_release(struct bpfdrv_hold *h)
{
	if (!h->dev)
		return;
	mutex_lock(&bpfdrv_holds_lock);
	list_del_init(&h->node);
	mutex_unlock(&bpfdrv_holds_lock);
	h->ops->release(h);
	if (!h->gone)
		put_device(h->dev);
	h->dev = NULL;
}

/* Before any bus is watched: what the notifier tells the core. */
void bpfdrv_hold_init(const struct bpfdrv_hold_events *events)
{
	bpfdrv_hold_events = events;
}

/* See drivers bound on the PCI bus, for the IOMMU groups (iommu.c). */
int bpfdrv_hold_watch_pci(void)
{
	return bpfdrv_hold_watch_bus(&pci_bus_type);
}

void bpfdrv_hold_exit(void)
{
	struct bpfdrv_hold_bus *b, *tmp;

	list_for_each_entry_safe(b, tmp, &bpfdrv_hold_buses, node) {
		bus_unregister_notifier(b->bus, &b->nb);
		kfree(b);
	}
}
