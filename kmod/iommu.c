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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "bpfdrv.h"

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

/* May @fn master the bus? If its DMA is confined or the admin opted in. */
int bpfdrv_pci_may_master(struct bpfdrv_pci_fn *fn)
{
	switch (bpfdrv_pci_dma(fn->pdev)) {
	case BPFDRV_DMA_IOMMU:
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
