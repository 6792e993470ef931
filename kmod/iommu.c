// SPDX-License-Identifier: GPL-2.0
/*
 * Bus mastering, the one way to turn it on: a device that masters the bus
 * (DMA, and MSI, which is a memory write) reaches all memory unless an
 * IOMMU translates its addresses. A PCI function gets it only when its DMA
 * goes through a translating IOMMU domain, so it reaches no more than the
 * DMA API mapped for it. Without an IOMMU, or in passthrough, the
 * administrator must opt in with allow_unsafe_dma=1, which taints the
 * kernel, as VFIO's enable_unsafe_noiommu_mode does; else MSI falls back
 * to INTx and DMA buffers are refused.
 *
 * The devices of an IOMMU group share one DMA domain: what the DMA API
 * mapped for one, the others reach. As VFIO asks of a group, a function
 * masters the bus only while every other device of its group is unbound,
 * a bridge, bound to a driver that manages no DMA of its own (pci-stub,
 * vfio-pci, pcieport), or bpfdrv's and not serving another BPF driver.
 * That is checked when an instance starts; a driver bound in the group
 * later (hold.c sees it) stops the function's bus mastering, and an
 * instance that was mastering is ejected.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "bpfdrv.h"
#include "driver.h"
#include "iommu.h"

static bool allow_unsafe_dma;
module_param(allow_unsafe_dma, bool, 0644);
MODULE_PARM_DESC(allow_unsafe_dma,
		 "Let PCI functions no IOMMU translates master the bus (DMA, MSI); taints the kernel (default: 0)");

enum bpfdrv_dma bpfdrv_pci_dma(struct pci_dev *pdev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(&pdev->dev);

	if (domain && iommu_is_dma_domain(domain))
		return BPFDRV_DMA_IOMMU;
	return READ_ONCE(allow_unsafe_dma) ? BPFDRV_DMA_UNSAFE : BPFDRV_DMA_REFUSED;
}

const char *bpfdrv_dma_name(enum bpfdrv_dma dma)
{
	switch (dma) {
	case BPFDRV_DMA_IOMMU:
		return "iommu";
	case BPFDRV_DMA_UNSAFE:
		return "unsafe";
	case BPFDRV_DMA_REFUSED:
		return "refused";
	case BPFDRV_DMA_NONE:
		break;
	}
	return "-";
}

/*
 * Whether @pdev, bound to @drv, shares a DMA domain with what bpfdrv does
 * not control: a driver that uses the DMA API (bpfdrv's own aside).
 */
bool bpfdrv_pci_group_mate_foreign(struct pci_dev *pdev,
				   const struct device_driver *drv)
{
	if (!drv || pdev->hdr_type != PCI_HEADER_TYPE_NORMAL)
		return false;
	return !to_pci_driver(drv)->driver_managed_dma &&
	       strcmp(drv->name, KBUILD_MODNAME);
}

struct bpfdrv_group_scan {
	struct pci_dev *self;
	unsigned int nr_ours;			/* bound to bpfdrv */
	struct pci_dev *ours[BPFDRV_GROUP_SCAN_MAX];
	char why[BPFDRV_GROUP_WHY_MAX];
};

static int bpfdrv_group_scan_one(struct device *dev, void *data)
{
	struct bpfdrv_group_scan *scan = data;
	const struct device_driver *drv;
	struct pci_dev *pdev;

	if (!dev_is_pci(dev)) {
		snprintf(scan->why, sizeof(scan->why), "%s (not PCI)",
			 dev_name(dev));
		return 1;
	}
	pdev = to_pci_dev(dev);
	if (pdev == scan->self)
		return 0;
	/* a driver bound after this read is seen by hold.c */
	drv = READ_ONCE(dev->driver);
	if (bpfdrv_pci_group_mate_foreign(pdev, drv)) {
		snprintf(scan->why, sizeof(scan->why), "%s (bound to %s)",
			 pci_name(pdev), drv->name);
		return 1;
	}
	if (!drv || pdev->hdr_type != PCI_HEADER_TYPE_NORMAL ||
	    to_pci_driver(drv)->driver_managed_dma)
		return 0;
	if (scan->nr_ours == BPFDRV_GROUP_SCAN_MAX) {
		snprintf(scan->why, sizeof(scan->why), "more than %d functions",
			 BPFDRV_GROUP_SCAN_MAX);
		return 1;
	}
	scan->ours[scan->nr_ours++] = pci_dev_get(pdev);
	return 0;
}

/**
 * bpfdrv_pci_group_check - may @fn master the bus, as far as its IOMMU
 *	group goes?
 * @fn: a function whose instance, of @drv, is starting
 * @drv: the BPF driver
 *
 * Sets fn->group_shared (and fn->group_why) if another device of the group
 * is bound to a driver that uses the DMA API, or is bpfdrv's and serves
 * another BPF driver.
 */
void bpfdrv_pci_group_check(struct bpfdrv_pci_fn *fn,
			    const struct bpfdrv_driver *drv)
{
	struct bpfdrv_group_scan *scan;
	struct iommu_group *group;
	struct bpfdrv_pci_fn *mate;
	unsigned int i;

	WRITE_ONCE(fn->group_shared, false);
	group = iommu_group_get(&fn->pdev->dev);
	if (!group)
		return;
	scan = kzalloc(sizeof(*scan), GFP_KERNEL);
	if (!scan) {
		strscpy(fn->group_why, "its scan (no memory)");
		WRITE_ONCE(fn->group_shared, true);
		goto out;
	}
	scan->self = fn->pdev;
	iommu_group_for_each_dev(group, scan, bpfdrv_group_scan_one);
	mutex_lock(&bpfdrv_lock);
	for (i = 0; i < scan->nr_ours && !scan->why[0]; i++) {
		mate = pci_get_drvdata(scan->ours[i]);
		if (mate && mate->bdev && mate->bdev->drv != drv)
			snprintf(scan->why, sizeof(scan->why),
				 "%s (serving bpfdrv driver %s)",
				 pci_name(scan->ours[i]), mate->bdev->drv->name);
	}
	mutex_unlock(&bpfdrv_lock);
	for (i = 0; i < scan->nr_ours; i++)
		pci_dev_put(scan->ours[i]);
	if (scan->why[0]) {
		strscpy(fn->group_why, scan->why);
		WRITE_ONCE(fn->group_shared, true);
	}
	kfree(scan);
out:
	iommu_group_put(group);
}

/**
 * bpfdrv_pci_group_revoke - a driver that uses the DMA API is being bound
 *	to @mate: @fn, if in its IOMMU group, masters the bus no more
 * @fn: a function bound to bpfdrv
 * @mate: the device
 * @why: the device, for the log ("0000:01:02.0 (bound to virtio-pci)")
 *
 * Return: true if @fn was mastering the bus until now.
 */
bool bpfdrv_pci_group_revoke(struct bpfdrv_pci_fn *fn, struct pci_dev *mate,
			     const char *why)
{
	struct iommu_group *group = iommu_group_get(&mate->dev);
	struct iommu_group *fn_group = iommu_group_get(&fn->pdev->dev);
	unsigned long flags;
	bool was = false;

	if (!group || fn_group != group || fn->pdev == mate)
		goto out;
	raw_spin_lock_irqsave(&fn->cmd_lock, flags);
	was = !fn->group_shared && fn->pdev->is_busmaster;
	fn->group_shared = true;
	strscpy(fn->group_why, why);
	pci_clear_master(fn->pdev);
	raw_spin_unlock_irqrestore(&fn->cmd_lock, flags);
	if (was)
		pci_warn(fn->pdev, "bus mastering stopped: %s shares this function's IOMMU group\n",
			 why);
out:
	iommu_group_put(fn_group);
	iommu_group_put(group);
	return was;
}

/* May @fn master the bus? If its DMA is confined or the admin opted in. */
int bpfdrv_pci_may_master(struct bpfdrv_pci_fn *fn)
{
	switch (bpfdrv_pci_dma(fn->pdev)) {
	case BPFDRV_DMA_IOMMU:
		if (READ_ONCE(fn->group_shared)) {
			pci_info_ratelimited(fn->pdev, "bus mastering refused: %s shares this function's IOMMU group (unbind it, as VFIO would ask)\n",
					     fn->group_why);
			return -EPERM;
		}
		break;
	case BPFDRV_DMA_UNSAFE:
		if (!fn->dma_unsafe) {
			pci_warn(fn->pdev, "bus mastering without an IOMMU (allow_unsafe_dma=1): the device can reach all memory; tainting the kernel\n");
			add_taint(TAINT_USER, LOCKDEP_STILL_OK);
			fn->dma_unsafe = true;
		}
		break;
	default:
		pci_info_ratelimited(fn->pdev, "bus mastering refused: no IOMMU translates this function's DMA (bpfdrv's allow_unsafe_dma=1 allows it and taints the kernel)\n");
		return -EPERM;
	}
	return 0;
}
