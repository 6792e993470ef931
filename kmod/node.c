// SPDX-License-Identifier: GPL-2.0
/*
 * The node of an instance: the bpfdrv device class, its minor numbers, the
 * device's release, and its sysfs attributes (/sys/class/bpfdrv/<name>/).
 * chrdev.c holds the file operations; driver.c makes and destroys nodes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "bpfdrv.h"
#include "chrdev.h"
#include "node.h"
#include "parts.h"

static dev_t bpfdrv_devt;
static DEFINE_IDA(bpfdrv_minor_ida);

static char *bpfdrv_devnode(const struct device *dev, umode_t *mode)
{
	const struct bpfdrv_device *bdev =
		container_of(dev, struct bpfdrv_device, dev);

	if (mode)
		*mode = bdev->mode;
	return kasprintf(GFP_KERNEL, "bpfdrv/%s", dev_name(dev));
}

/* the core's and the parts' files: bpfdrv_node_init() */
static const struct attribute_group *bpfdrv_groups[BPFDRV_PARTS_GROUPS_MAX];

static const struct class bpfdrv_class = {
	.name = "bpfdrv",
	.devnode = bpfdrv_devnode,
	.dev_groups = bpfdrv_groups,
};

bool bpfdrv_name_valid(const char *name)
{
	size_t i, len = strnlen(name, BPFDRV_NAME_MAX);

	if (len == 0 || len == BPFDRV_NAME_MAX || !bpfdrv_isalnum(name[0]))
		return false;
	for (i = 1; i < len; i++)
		if (!bpfdrv_isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

static void bpfdrv_device_release(struct device *dev)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	if (dev->devt)
		ida_free(&bpfdrv_minor_ida, MINOR(dev->devt));
	bpfdrv_parts_free(bdev);
	cleanup_srcu_struct(&bdev->srcu);
	free_percpu(bdev->stats);
	kfree(bdev);
}

/*
 * Give a new instance, named in bdev->pub.name, its device and cdev (not
 * added). From here, even on error, put_device() frees it.
 */
int bpfdrv_cdev_init(struct bpfdrv_device *bdev)
{
	int minor;

	device_initialize(&bdev->dev);
	bdev->dev.class = &bpfdrv_class;
	bdev->dev.release = bpfdrv_device_release;
	minor = ida_alloc_max(&bpfdrv_minor_ida, BPFDRV_MINORS - 1, GFP_KERNEL);
	if (minor < 0)
		return minor == -ENOSPC ? -EMFILE : minor;
	bdev->pub.minor = minor;
	bdev->dev.devt = MKDEV(MAJOR(bpfdrv_devt), minor);
	cdev_init(&bdev->cdev, &bpfdrv_fops);
	bdev->cdev.owner = THIS_MODULE;
	return dev_set_name(&bdev->dev, "%s", bdev->pub.name);
}

/* sysfs: /sys/class/bpfdrv/<name>/{driver,open_count,link_id,stats}; the parts' beside */

static ssize_t driver_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	/* The driver lives while the node does: unreg removes it first. */
	return sysfs_emit(buf, "%s\n", bdev->drv->name);
}
static DEVICE_ATTR_RO(driver);

static ssize_t open_count_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	return sysfs_emit(buf, "%d\n", atomic_read(&bdev->open_count));
}
static DEVICE_ATTR_RO(open_count);

static ssize_t link_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	/* The id is assigned after attach; the link outlives this file. */
	return sysfs_emit(buf, "%u\n", bdev->link ? READ_ONCE(bdev->link->id) : 0);
}
static DEVICE_ATTR_RO(link_id);

static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);
	struct bpfdrv_stats sum = {};
	int cpu, op, len = 0;

	for_each_possible_cpu(cpu) {
		struct bpfdrv_stats *s = per_cpu_ptr(bdev->stats, cpu);

		for (op = 0; op < BPFDRV_CB_NR; op++)
			sum.calls[op] += s->calls[op];
		sum.bad_returns += s->bad_returns;
		sum.direct_retries += s->direct_retries;
	}
	/* the file operations, counted on the paths above */
	for (op = BPFDRV_CB_OPEN; op <= BPFDRV_CB_POLL; op++)
		len += sysfs_emit_at(buf, len, "%s %llu\n", bpfdrv_cb_names[op],
				     sum.calls[op]);
	/* the class callbacks (led.c, hwmon.c) */
	for (op = BPFDRV_CB_LED_SET; op <= BPFDRV_CB_SENSOR_READ; op++)
		len += sysfs_emit_at(buf, len, "%s %llu\n", bpfdrv_cb_names[op],
				     sum.calls[op]);
	/* the interrupt callbacks (pci_irq.c, gpio.c) and live updates */
	len += sysfs_emit_at(buf, len, "irq %llu\nirq_hard %llu\ngpio_edge %llu\ntakeover %llu\n",
			     sum.calls[BPFDRV_CB_IRQ], sum.calls[BPFDRV_CB_IRQ_HARD],
			     sum.calls[BPFDRV_CB_GPIO_EDGE],
			     sum.calls[BPFDRV_CB_TAKEOVER]);
	/* the accelerator class (accel_drm.c), then the PCI function's */
	for (op = BPFDRV_CB_ACCEL_IOCTL; op <= BPFDRV_CB_ACCEL_TIMEOUT; op++)
		len += sysfs_emit_at(buf, len, "%s %llu\n", bpfdrv_cb_names[op],
				     sum.calls[op]);
	for (op = BPFDRV_CB_ACCEL_GET_PARAM; op < BPFDRV_CB_NR; op++)
		len += sysfs_emit_at(buf, len, "%s %llu\n", bpfdrv_cb_names[op],
				     sum.calls[op]);
	len += sysfs_emit_at(buf, len, "bad_returns %llu\n", sum.bad_returns);
	len += sysfs_emit_at(buf, len, "direct_retries %llu\n",
			     sum.direct_retries);
	return len;
}
static DEVICE_ATTR_RO(stats);

static struct attribute *bpfdrv_attrs[] = {
	&dev_attr_driver.attr,
	&dev_attr_open_count.attr,
	&dev_attr_link_id.attr,
	&dev_attr_stats.attr,
	NULL
};

static const struct attribute_group bpfdrv_group = {
	.attrs = bpfdrv_attrs,
};

int bpfdrv_node_init(void)
{
	int ret;

	bpfdrv_parts_sysfs(bpfdrv_groups, &bpfdrv_group);
	ret = alloc_chrdev_region(&bpfdrv_devt, 0, BPFDRV_MINORS, "bpfdrv");
	if (ret)
		return ret;
	ret = class_register(&bpfdrv_class);
	if (ret)
		unregister_chrdev_region(bpfdrv_devt, BPFDRV_MINORS);
	return ret;
}

void bpfdrv_node_exit(void)
{
	class_unregister(&bpfdrv_class);
	unregister_chrdev_region(bpfdrv_devt, BPFDRV_MINORS);
}
