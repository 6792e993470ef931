// SPDX-License-Identifier: GPL-2.0
/*
 * PCI functions for BPF drivers.
 *
 * bpfdrv registers a pci_driver with no ID table, so it binds only what an
 * administrator hands it through driver_override (as vfio-pci and
 * uio_pci_generic do). A bound function has its memory BARs mapped; an
 * attached chr_ext_ops driver that declares the function's IDs (or its
 * slot) makes it a device instance with its own node, interrupt and DMA
 * buffer. This file binds functions and hands them to instances; the
 * kfuncs, which act only on the calling instance's function, are in
 * pci_bar.c (config space, BARs) and pci_dma.c, the interrupt in
 * pci_irq.c and PCI_COMMAND in pci_cmd.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "bpfdrv.h"
#include "pci.h"
#include "hold.h"
#include "iommu.h"
#include "parts.h"

/*
 * Called before the driver's init, on a function the instance holds
 * (fn->bdev, set by the caller): the node gets the function as its
 * parent, and the driver its interrupt (pci_irq.c).
 */
static void bpfdrv_pci_instance_teardown(struct bpfdrv_device *bdev);

static int bpfdrv_pci_instance_setup(struct bpfdrv_device *bdev,
				     struct bpfdrv_pci_fn *fn)
{
	struct pci_dev *pdev = fn->pdev;
	int ret;

	bdev->active_fn = fn;
	bdev->pub.bus = BPFDRV_BUS_PCI;
	bdev->pub.vendor = pdev->vendor;
	bdev->pub.device = pdev->device;
	bdev->dev.parent = &pdev->dev;
	bpfdrv_pci_group_check(fn, bdev->drv);
	bdev->dma = bpfdrv_pci_dma(pdev);
	if (bdev->dma == BPFDRV_DMA_IOMMU && fn->group_shared)
		bdev->dma = BPFDRV_DMA_REFUSED;

	ret = bpfdrv_pci_irq_setup(bdev, fn);
	if (ret) {
		pci_err(pdev, "%s: cannot set up the interrupt: %d\n", bdev->pub.name, ret);
		bpfdrv_pci_instance_teardown(bdev);
	}
	return ret;
}

/*
 * After the driver's exit quiesced the device: free its interrupt, stop
 * its DMA before the buffer is freed, and leave the function ready for the
 * next driver. The caller then lets go of the function (fn->bdev).
 */
static void bpfdrv_pci_instance_teardown(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->active_fn;

	bpfdrv_pci_irq_free(bdev);
	pci_clear_master(fn->pdev);
	bpfdrv_pci_dma_free_all(fn);
	bdev->active_fn = NULL;
}

static const struct bpfdrv_pci_fn_events *bpfdrv_pci_fn_events;

bool bpfdrv_pci_lockdown_seen;

static int bpfdrv_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct bpfdrv_pci_fn *fn;
	int bar, ret;

	if (bpfdrv_pci_locked_down())
		return -EPERM;
	fn = devm_kzalloc(&pdev->dev, sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	fn->pdev = pdev;
	INIT_LIST_HEAD(&fn->dma_freed);
	mutex_init(&fn->dma_lock);
	raw_spin_lock_init(&fn->cmd_lock);

	ret = pci_enable_device(pdev);
	if (ret)
		return ret;
	/*
	 * Firmware or the previous driver may have left it bus-mastering:
	 * off until bpfdrv_pci_set_master(), the one way to turn it on.
	 */
	pci_clear_master(pdev);
	ret = pci_request_regions(pdev, KBUILD_MODNAME);
	if (ret)
		goto err_disable;
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		if (!(pci_resource_flags(pdev, bar) & (IORESOURCE_MEM | IORESOURCE_IO)) ||
		    !pci_resource_len(pdev, bar))
			continue;
		if (pci_resource_flags(pdev, bar) & IORESOURCE_IO)
			__set_bit(bar, &fn->bar_io);
		fn->bar[bar] = pci_iomap(pdev, bar, 0);
		if (!fn->bar[bar]) {
			ret = -ENOMEM;
			goto err_unmap;
		}
		fn->bar_len[bar] = pci_resource_len(pdev, bar);
	}
	bpfdrv_pci_msix_find(fn);
	pci_save_state(pdev);	/* what an error's recovery restores */
	pci_set_drvdata(pdev, fn);
	bpfdrv_pci_fn_events->added(fn);
	return 0;

err_unmap:
	while (--bar >= 0)
		if (fn->bar[bar])
			pci_iounmap(pdev, fn->bar[bar]);
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
	return ret;
}

static void bpfdrv_pci_remove(struct pci_dev *pdev)
{
	struct bpfdrv_pci_fn *fn = pci_get_drvdata(pdev);
	int bar;

	bpfdrv_pci_fn_events->removed(fn);
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++)
		if (fn->bar[bar])
			pci_iounmap(pdev, fn->bar[bar]);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
}

static struct pci_driver bpfdrv_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = NULL,	/* driver_override only */
	.probe = bpfdrv_pci_probe,
	.remove = bpfdrv_pci_remove,
	.err_handler = &bpfdrv_pci_err_handlers,
	.driver.pm = &bpfdrv_pci_pm_ops,
};

/*
 * @events: what the core does when a function comes and goes (driver.c,
 * handed over by main.c: this layer calls no layer above it by name).
 */
int bpfdrv_pci_init(const struct bpfdrv_pci_fn_events *events)
{
	int ret = bpfdrv_hold_watch_pci();

	bpfdrv_pci_fn_events = events;

	return ret ?: pci_register_driver(&bpfdrv_pci_driver);
}

void bpfdrv_pci_exit(void)
{
	pci_unregister_driver(&bpfdrv_pci_driver);
}

/* Declarations of a PCI driver that need the whole of them. */
static int bpfdrv_pci_valid(const struct chr_ext_ops *ops)
{
	int ret = bpfdrv_pci_pm_valid(ops);

	if (ret)
		return ret;
	/* instance names append the index; truncated ones would collide */
	if (bpfdrv_driver_is_pci(ops) && strlen(ops->name) > BPFDRV_PCI_NAME_MAX) {
		pr_info("PCI driver name %s is too long: at most %d characters, instances append a number\n",
			ops->name, BPFDRV_PCI_NAME_MAX);
		return -ENAMETOOLONG;
	}
	if (ops->irq_hard && !bpfdrv_driver_is_pci(ops)) {
		pr_info("%s: irq_hard needs a PCI driver (pci_ids or pci_slot)\n",
			ops->name);
		return -EINVAL;
	}
	/* ABI 13: both 0 is one vector, as before */
	if (!ops->irq_vectors_min && !ops->irq_vectors_max)
		return 0;
	if (!bpfdrv_driver_is_pci(ops)) {
		pr_info("%s: irq_vectors_min/_max need a PCI driver (pci_ids or pci_slot)\n",
			ops->name);
		return -EINVAL;
	}
	if (ops->irq_vectors_min > ops->irq_vectors_max ||
	    ops->irq_vectors_max > BPFDRV_MAX_IRQ_VECTORS) {
		pr_info("%s: invalid interrupt vectors %u..%u (want irq_vectors_min <= irq_vectors_max <= %d)\n",
			ops->name, ops->irq_vectors_min, ops->irq_vectors_max,
			BPFDRV_MAX_IRQ_VECTORS);
		return -EINVAL;
	}
	if (!ops->irq && !ops->irq_hard) {
		pr_info("%s: interrupt vectors need an irq or irq_hard callback\n",
			ops->name);
		return -EINVAL;
	}
	return 0;
}

/* An instance of a PCI driver holds a function (bdev->reserved_fn): set it up. */
static int bpfdrv_pci_claim(struct bpfdrv_device *bdev)
{
	return bdev->reserved_fn ? bpfdrv_pci_instance_setup(bdev, bdev->reserved_fn) : 0;
}

/* init succeeded: its shared INTx line, then runtime PM (pci_pm.c) */
static void bpfdrv_pci_live(struct bpfdrv_device *bdev)
{
	if (!bdev->active_fn)
		return;
	bpfdrv_pci_irq_live(bdev);
	bpfdrv_pci_pm_live(bdev);
}

static void bpfdrv_pci_release(struct bpfdrv_device *bdev)
{
	if (bdev->active_fn)
		bpfdrv_pci_instance_teardown(bdev);
}

/*
 * sysfs: the instance's interrupts and its function's bus mastering.
 * irq_count: those the driver handled, on all its vectors.
 */
static ssize_t irq_count_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);
	u64 sum = 0;
	int i;

	for (i = 0; i < BPFDRV_MAX_IRQ_VECTORS; i++)
		sum += atomic64_read(&bdev->irq_counts[i]);
	return sysfs_emit(buf, "%llu\n", sum);
}
static DEVICE_ATTR_RO(irq_count);

/* irq_vectors: how many it has (0: none); irq_counts: "INDEX COUNT" each */
static ssize_t irq_vectors_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(bdev->irq_vectors));
}
static DEVICE_ATTR_RO(irq_vectors);

static ssize_t irq_counts_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);
	u32 i, n = min_t(u32, READ_ONCE(bdev->irq_vectors), BPFDRV_MAX_IRQ_VECTORS);
	int len = 0;

	for (i = 0; i < n; i++)
		len += sysfs_emit_at(buf, len, "%u %llu\n", i,
				     atomic64_read(&bdev->irq_counts[i]));
	return len;
}
static DEVICE_ATTR_RO(irq_counts);

/* decided at setup: iommu, unsafe, refused; - without a function */
static ssize_t dma_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	return sysfs_emit(buf, "%s\n", bpfdrv_dma_name(bdev->dma));
}
static DEVICE_ATTR_RO(dma);

static struct attribute *bpfdrv_pci_attrs[] = {
	&dev_attr_irq_count.attr,
	&dev_attr_irq_vectors.attr,
	&dev_attr_irq_counts.attr,
	&dev_attr_dma.attr,
	NULL
};

static const struct attribute_group bpfdrv_pci_sysfs = {
	.attrs = bpfdrv_pci_attrs,
};

const struct bpfdrv_part bpfdrv_part_pci = {
	.name = "pci",
	.sysfs = &bpfdrv_pci_sysfs,
	.valid = bpfdrv_pci_valid,
	.claim = bpfdrv_pci_claim,
	.live = bpfdrv_pci_live,
	.del = bpfdrv_pci_pm_stop,	/* resumed before exit */
	.release = bpfdrv_pci_release,
};
