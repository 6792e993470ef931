// SPDX-License-Identifier: GPL-2.0
/*
 * Live update: BPF_LINK_UPDATE of an attached driver's link gives every
 * instance the new map's callbacks while files stay open. Nothing else
 * changes: nodes, open files, per-file and per-device storage, claimed
 * lines, bound functions, interrupts and DMA buffers stay as they are.
 *
 * The swap point is each instance's callback mutex, under which every
 * callback is looked up and run. The update takes the mutex of every
 * instance (waiting at most BPFDRV_UPDATE_WAIT for calls in flight: it
 * runs under the BPF core's struct_ops update mutex), lets the new code
 * take over each instance, then swaps under bpfdrv_lock. A call thus runs
 * wholly on the old code or wholly on the new, and once update returns no
 * old code runs, so the kernel may free the old map at once: irq_hard,
 * which takes no mutex, runs under RCU, and the update waits for it; so
 * do the callbacks on the dma-fence path (accel_run_job, accel_timeout).
 *
 * What the driver is (name, node mode, flags, PCI IDs or slot, GPIO chip
 * and lines, I2C adapter and addresses, SPI device, class devices, mmap
 * windows, interrupt vectors, and whether it has the irq, irq_hard,
 * gpio_edge, led_get and led_blink callbacks, which decided its
 * interrupts and LED operations) cannot
 * change: such an update is refused and the old code goes on. So is one
 * that meets an instance starting or finishing.
 * The last update's outcome is in /sys/kernel/bpfdrv/last_update.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "call.h"
#include "driver.h"
#include "update.h"

/* How long an update waits for the calls in flight on all instances. */
#define BPFDRV_UPDATE_WAIT	HZ

/* The outcome of the last update: one line, under bpfdrv_update_msg_lock. */
static DEFINE_SPINLOCK(bpfdrv_update_msg_lock);
static char bpfdrv_update_msg[BPFDRV_NAME_MAX + BPFDRV_EXIT_MSG_MAX + 16];

static __printf(3, 4) int bpfdrv_update_result(const char *name, int err,
					       const char *fmt, ...)
{
	char msg[BPFDRV_EXIT_MSG_MAX];
	va_list args;

	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	if (err)
		pr_info("update of driver %s refused: %s\n", name, msg);
	spin_lock(&bpfdrv_update_msg_lock);
	snprintf(bpfdrv_update_msg, sizeof(bpfdrv_update_msg), "%s %s %s\n",
		 name, err ? "refused" : "done", msg);
	spin_unlock(&bpfdrv_update_msg_lock);
	return err;
}

/* /sys/kernel/bpfdrv/last_update: NAME done|refused MESSAGE */
static ssize_t last_update_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	int len;

	spin_lock(&bpfdrv_update_msg_lock);
	len = sysfs_emit(buf, "%s", bpfdrv_update_msg);
	spin_unlock(&bpfdrv_update_msg_lock);
	return len;
}

struct kobj_attribute bpfdrv_attr_last_update = __ATTR_RO(last_update);

/* What of the driver @new would change from @old, or NULL if nothing. */
static const char *bpfdrv_update_changes(const struct chr_ext_ops *new,
					 const struct chr_ext_ops *old)
{
	if (strcmp(new->name, old->name))
		return "its name";
	if (new->mode != old->mode)
		return "its node mode";
	if (new->flags != old->flags)
		return "its flags";
	if (memcmp(new->pci_ids, old->pci_ids, sizeof(new->pci_ids)))
		return "its PCI IDs";
	if (strcmp(new->pci_slot, old->pci_slot))
		return "its PCI slot";
	if (strcmp(new->gpio_chip, old->gpio_chip))
		return "its GPIO chip";
	if (memcmp(new->gpio_lines, old->gpio_lines, sizeof(new->gpio_lines)))
		return "its GPIO lines";
	if (!new->irq != !old->irq)
		return "whether it has an irq callback";
	if (!new->irq_hard != !old->irq_hard)
		return "whether it has an irq_hard callback";
	if (new->irq_vectors_min != old->irq_vectors_min ||
	    new->irq_vectors_max != old->irq_vectors_max)
		return "its interrupt vectors";
	if (!new->gpio_edge != !old->gpio_edge)
		return "whether it has a gpio_edge callback";
	if (memcmp(new->leds, old->leds, sizeof(new->leds)))
		return "its LEDs";
	if (!new->led_get != !old->led_get || !new->led_blink != !old->led_blink)
		return "whether it has led_get and led_blink callbacks";
	if (memcmp(new->input_keys, old->input_keys, sizeof(new->input_keys)))
		return "its input keys";
	if (memcmp(new->sensors, old->sensors, sizeof(new->sensors)))
		return "its sensors";
	if (strcmp(new->i2c_adapter, old->i2c_adapter))
		return "its I2C adapter";
	if (memcmp(new->i2c_addrs, old->i2c_addrs, sizeof(new->i2c_addrs)))
		return "its I2C addresses";
	if (strcmp(new->spi_controller, old->spi_controller) ||
	    new->spi_cs != old->spi_cs || new->spi_mode != old->spi_mode ||
	    new->spi_max_speed_hz != old->spi_max_speed_hz)
		return "its SPI device";
	if (memcmp(new->mmaps, old->mmaps, sizeof(new->mmaps)))
		return "its mmap windows";
	if (new->accel != old->accel ||
	    memcmp(new->accel_ioctls, old->accel_ioctls,
		   sizeof(new->accel_ioctls)))
		return "its accelerator ioctls";
	if (new->accel_rings != old->accel_rings ||
	    new->accel_timeout_ms != old->accel_timeout_ms ||
	    new->accel_ring_jobs != old->accel_ring_jobs)
		return "its accelerator rings";
	if (new->accel_dma_bits != old->accel_dma_bits)
		return "its accelerator's DMA";
	if (memcmp(new->firmware, old->firmware, sizeof(new->firmware)))
		return "its firmware files";
	if (new->pm_autosuspend_ms != old->pm_autosuspend_ms)
		return "its autosuspend delay";
	return NULL;
}

/*
 * The update is refused after the new code's takeover ran on the first
 * @n instances (all of them when the commit is refused): the old code,
 * which keeps serving, takes them back (its
 * own takeover, if it has one), as the new one may have changed their
 * state. Its result is only logged: the old code is the one that runs.
 */
static void bpfdrv_update_rollback(struct bpfdrv_device **held, int n,
				   struct chr_ext_ops *old)
{
	int i, ret;

	for (i = 0; i < n && old->takeover; i++) {
		ret = bpfdrv_call_update(held[i], old);
		if (ret && ret != -ENODEV)
			dev_warn(&held[i]->dev,
				 "the old code's takeover after a refused update: %d\n",
				 ret);
	}
}

/* The callback mutex of @bdev, if the calls in flight end by @deadline. */
static bool bpfdrv_update_lock(struct bpfdrv_device *bdev,
			       unsigned long deadline)
{
	while (!mutex_trylock(&bdev->lock)) {
		if (time_after(jiffies, deadline) || fatal_signal_pending(current))
			return false;
		schedule_timeout_idle(1);
	}
	return true;
}

int bpfdrv_driver_update(struct chr_ext_ops *ops, struct chr_ext_ops *old)
{
	struct bpfdrv_driver *drv = old->driver;
	unsigned long deadline = jiffies + BPFDRV_UPDATE_WAIT;
	struct bpfdrv_device **held = NULL, *bdev;
	unsigned int i, n = 0, locked = 0, gen, count = 0;
	const char *change;
	int ret = 0;

	/* as attach: new kernel code, maybe with hardware access */
	if (!bpfdrv_driver_capable(old))
		return -EPERM;
	if (!drv)
		return bpfdrv_update_result(old->name, -ENOLINK, "not attached");
	change = bpfdrv_update_changes(ops, old);
	if (change)
		return bpfdrv_update_result(old->name, -EINVAL,
					    "the new code changes %s", change);
	if (ops->driver)
		return bpfdrv_update_result(old->name, -EBUSY,
					    "the new map is attached already");
	if (bpfdrv_driver_is_pci(old) && bpfdrv_pci_locked_down())
		return bpfdrv_update_result(old->name, -EPERM,
					    "the kernel is locked down");

	mutex_lock(&bpfdrv_lock);
	if (!drv->attached || drv->stopping || drv->slow_start ||
	    atomic_read(&drv->pending)) {
		ret = -EBUSY;
	} else {
		held = kcalloc(max_t(size_t, list_count_nodes(&drv->instances), 1),
			       sizeof(*held), GFP_KERNEL);
		if (!held) {
			ret = -ENOMEM;
		} else {
			list_for_each_entry(bdev, &drv->instances, drv_node) {
				get_device(&bdev->dev);
				held[n++] = bdev;
			}
		}
	}
	gen = drv->gen;
	mutex_unlock(&bpfdrv_lock);
	if (ret == -EBUSY)
		return bpfdrv_update_result(old->name, ret,
					    "an instance is starting or stopping; try again");
	if (ret)
		return ret;

	/* wait for the calls in flight; none starts until we are done */
	for (i = 0; i < n; i++)
		WRITE_ONCE(held[i]->update_waiting, true);
	for (locked = 0; locked < n; locked++) {
		if (!bpfdrv_update_lock(held[locked], deadline)) {
			ret = bpfdrv_update_result(old->name, -EBUSY,
						   "%s stayed in its %s callback for more than %d ms",
						   held[locked]->pub.name,
						   bpfdrv_cb_names[held[locked]->cb],
						   jiffies_to_msecs(BPFDRV_UPDATE_WAIT));
			goto out;
		}
	}
	for (i = 0; i < n && ops->takeover; i++) {
		bdev = held[i];
		ret = bpfdrv_call_update(bdev, ops);
		/* being torn down: the commit refuses */
		if (ret == -ENODEV && bpfdrv_dead(bdev))
			continue;
		if (!ret && bdev->loop_overran)
			ret = bpfdrv_update_result(old->name, -ETIME,
						   "takeover on %s looped past its budget (loop_max_ms)",
						   bdev->pub.name);
		else if (ret)
			ret = bpfdrv_update_result(old->name, ret,
						   "takeover failed on %s: %d",
						   bdev->pub.name, ret);
		if (ret) {
			bpfdrv_update_rollback(held, i, old);
			goto out;
		}
	}

	mutex_lock(&bpfdrv_lock);
	if (drv->stopping || drv->gen != gen || atomic_read(&drv->pending)) {
		ret = -EBUSY;
	} else {
		drv->ops = ops;
		for (i = 0; i < n; i++)
			bpfdrv_set_ops(held[i], ops);
		ops->driver = drv;
		old->driver = NULL;
		count = ++drv->updates;
	}
	mutex_unlock(&bpfdrv_lock);
	if (ret) {
		if (ops->takeover)
			bpfdrv_update_rollback(held, n, old);
		bpfdrv_update_result(old->name, ret,
				     "an instance came or went meanwhile; try again");
	} else {
		bpfdrv_update_result(old->name, 0, "%u instance%s, update %u",
				     n, n == 1 ? "" : "s", count);
	}
out:
	for (i = 0; i < locked; i++)
		mutex_unlock(&held[i]->lock);
	for (i = 0; i < n; i++) {
		WRITE_ONCE(held[i]->update_waiting, false);
		wake_up_var(&held[i]->update_waiting);
	}
	/* irq_hard and the fence path call the old code, no mutex held off */
	if (!ret && (old->irq_hard || old->accel_run_job || old->accel_timeout))
		synchronize_rcu();
	for (i = 0; i < n; i++)
		put_device(&held[i]->dev);
	kfree(held);
	return ret;
}
