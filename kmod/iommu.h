/* SPDX-License-Identifier: GPL-2.0 */
/* bus mastering: whether a function may, and its IOMMU group (iommu.c) */
#ifndef __BPFDRV_KMOD_IOMMU_H
#define __BPFDRV_KMOD_IOMMU_H

#include "bpfdrv.h"

enum bpfdrv_dma bpfdrv_pci_dma(struct pci_dev *pdev);
const char *bpfdrv_dma_name(enum bpfdrv_dma dma);
int bpfdrv_pci_may_master(struct bpfdrv_pci_fn *fn);

bool bpfdrv_pci_group_mate_foreign(struct pci_dev *pdev,
				   const struct device_driver *drv);

void bpfdrv_pci_group_check(struct bpfdrv_pci_fn *fn,
			    const struct bpfdrv_driver *drv);

bool bpfdrv_pci_group_revoke(struct bpfdrv_pci_fn *fn, struct pci_dev *mate,
			     const char *why);

#endif /* __BPFDRV_KMOD_IOMMU_H */
