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
 *
 * Errors of the function's link (PCIe AER, DPC): the PCI core's recovery
 * calls error_detected, then, as the drivers voted, slot_reset, then
 * resume, each under the device lock; a recovery that fails never calls
 * resume. So these are ordinary calls, not a hold: the driver fails what
 * it must between them. Its mmaps are zapped at error_detected, as a link
 * in error is no place for a process's loads.
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
	struct bpfdrv_device *bdev = bpfdrv_pci_fn_instance(pci_get_drvdata(pdev));

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

/* What a driver's BPFDRV_ERS_* vote means to the PCI core. */
static pci_ers_result_t bpfdrv_pci_ers(int vote)
{
	switch (vote) {
	case BPFDRV_ERS_CAN_RECOVER:
		return PCI_ERS_RESULT_CAN_RECOVER;
	case BPFDRV_ERS_NEED_RESET:
		return PCI_ERS_RESULT_NEED_RESET;
	case BPFDRV_ERS_RECOVERED:
		return PCI_ERS_RESULT_RECOVERED;
	default:	/* DISCONNECT, or an error of the call */
		return PCI_ERS_RESULT_DISCONNECT;
	}
}

static pci_ers_result_t bpfdrv_pci_error_detected(struct pci_dev *pdev,
						  pci_channel_state_t state)
{
	struct bpfdrv_device *bdev = bpfdrv_pci_fn_instance(pci_get_drvdata(pdev));
	u32 bstate = state == pci_channel_io_normal ? BPFDRV_PCI_ERR_NORMAL :
		     state == pci_channel_io_frozen ? BPFDRV_PCI_ERR_FROZEN :
		     BPFDRV_PCI_ERR_FAILURE;
	int vote;

	if (!bdev)	/* bound, unused: nothing to lose */
		return bstate == BPFDRV_PCI_ERR_FAILURE ? PCI_ERS_RESULT_DISCONNECT :
		       PCI_ERS_RESULT_NEED_RESET;
	bpfdrv_mmap_revoke(bdev);
	/* without the callback: a reset, the safe answer */
	vote = bpfdrv_call(bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_ERROR_DETECTED,
			   error_detected, BPFDRV_ERS_DISCONNECT,
			   BPFDRV_ERS_NEED_RESET, bstate);
	put_device(&bdev->dev);
	if (bstate == BPFDRV_PCI_ERR_FAILURE)
		return PCI_ERS_RESULT_DISCONNECT;
	return bpfdrv_pci_ers(vote);
}

/*
 * After the link's reset: the config space as it was saved at the last
 * reset or bind, bus mastering as bpfdrv had set it, then the driver.
 */
static pci_ers_result_t bpfdrv_pci_slot_reset(struct pci_dev *pdev)
{
	struct bpfdrv_device *bdev = bpfdrv_pci_fn_instance(pci_get_drvdata(pdev));
	int vote;

	pci_restore_state(pdev);
	pci_save_state(pdev);
	if (pdev->is_busmaster)
		pci_set_master(pdev);
	if (!bdev)
		return PCI_ERS_RESULT_RECOVERED;
	vote = bpfdrv_call(bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_SLOT_RESET,
			   slot_reset, BPFDRV_ERS_RECOVERED, BPFDRV_ERS_RECOVERED);
	put_device(&bdev->dev);
	return vote == BPFDRV_ERS_RECOVERED ? PCI_ERS_RESULT_RECOVERED :
	       PCI_ERS_RESULT_DISCONNECT;
}

static void bpfdrv_pci_error_resume(struct pci_dev *pdev)
{
	struct bpfdrv_device *bdev = bpfdrv_pci_fn_instance(pci_get_drvdata(pdev));

	if (!bdev)
		return;
	bpfdrv_call_void(bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_ERROR_RESUME,
			 error_resume);
	put_device(&bdev->dev);
}

const struct pci_error_handlers bpfdrv_pci_err_handlers = {
	.reset_prepare = bpfdrv_pci_reset_prepare,
	.reset_done = bpfdrv_pci_reset_done,
	.error_detected = bpfdrv_pci_error_detected,
	.slot_reset = bpfdrv_pci_slot_reset,
	.resume = bpfdrv_pci_error_resume,
};
