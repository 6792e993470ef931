/* SPDX-License-Identifier: GPL-2.0 */
/* drivers and instances: attach, detach, functions and devices that come and go (driver.c) */
#ifndef __BPFDRV_KMOD_DRIVER_H
#define __BPFDRV_KMOD_DRIVER_H

#include "bpfdrv.h"

bool bpfdrv_driver_capable(const struct chr_ext_ops *ops);

/* the lists of drivers, instances and functions; see driver.c */
extern struct mutex bpfdrv_lock;
int bpfdrv_driver_attach(struct chr_ext_ops *ops, struct bpf_link *link);
void bpfdrv_driver_detach(struct chr_ext_ops *ops);
void bpfdrv_pci_fn_added(struct bpfdrv_pci_fn *fn);
void bpfdrv_pci_fn_removed(struct bpfdrv_pci_fn *fn);
void bpfdrv_pci_group_bound(struct pci_dev *pdev);
void bpfdrv_instance_dep_gone(struct bpfdrv_device *bdev, const char *what);

/*
 * The instance that holds @fn, referenced (put_device()), or NULL: for the
 * PCI core's callbacks (pci_reset.c, pci_pm.c), which come under the
 * function's device lock but not bpfdrv_lock, which guards fn->bdev.
 */
static inline struct bpfdrv_device *bpfdrv_pci_fn_instance(struct bpfdrv_pci_fn *fn)
{
	struct bpfdrv_device *bdev;

	mutex_lock(&bpfdrv_lock);
	bdev = fn->bdev;
	if (bdev)
		get_device(&bdev->dev);
	mutex_unlock(&bpfdrv_lock);
	return bdev;
}

#endif /* __BPFDRV_KMOD_DRIVER_H */
