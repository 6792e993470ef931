// SPDX-License-Identifier: GPL-2.0
/*
 * A reset of a PCI function an instance holds (an FLR or a bus reset, from
 * the function's sysfs reset, bpfdrv reset, or the PCI core): the PCI core
 * saves the config space, calls reset_prepare, resets, restores, calls
 * reset_done, all in one task under the function's device lock. The
 * instance's callback mutex is held from the first to the second, so no
 * call reaches the driver while its device is in reset: callers wait, as
 * they would behind a long callback. Its mmaps are zapped first and their
 * faults wait too (the DMA lock), so no process touches the BARs then.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pci.h>

#include "call.h"
#include "driver.h"
#include "mmap.h"
#include "pci.h"

static void bpfdrv_pci_reset_prepare(struct pci_dev *pdev)
{
	struct bpfdrv_pci_fn *fn = pci_get_drvdata(pdev);
	struct bpfdrv_device *bdev;

	mutex_lock(&bpfdrv_lock);
	bdev = fn->bdev;
	if (bdev)
		get_device(&bdev->dev);
	mutex_unlock(&bpfdrv_lock);
	fn->reset_bdev = bdev;
	if (!bdev) {
		mutex_lock(&fn->dma_lock);
		return;
	}
	/* a starting instance's init, a running call, end first */
	bpfdrv_call_hold(bdev);
	bpfdrv_call_void(bdev, BPFDRV_CALL_HELD, BPFDRV_CB_RESET_PREPARE,
			 reset_prepare);
	/* faults in flight end first; later ones wait for reset_done */
	mutex_lock(&fn->dma_lock);
	bpfdrv_mmap_revoke(bdev);
}

static void bpfdrv_pci_reset_done(struct pci_dev *pdev)
{
	struct bpfdrv_pci_fn *fn = pci_get_drvdata(pdev);
	struct bpfdrv_device *bdev = fn->reset_bdev;

	/* reset_done may allocate DMA buffers, which take it */
	mutex_unlock(&fn->dma_lock);
	if (!bdev)
		return;
	fn->reset_bdev = NULL;
	bpfdrv_call_void(bdev, BPFDRV_CALL_HELD, BPFDRV_CB_RESET_DONE,
			 reset_done);
	bpfdrv_call_resume(bdev);
	put_device(&bdev->dev);
}

const struct pci_error_handlers bpfdrv_pci_err_handlers = {
	.reset_prepare = bpfdrv_pci_reset_prepare,
	.reset_done = bpfdrv_pci_reset_done,
};
