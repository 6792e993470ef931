// SPDX-License-Identifier: GPL-2.0
/*
 * PCI_COMMAND of a function bpfdrv holds: the one register its interrupt
 * handlers (INTx masking), its DMA (bus mastering) and a driver's config
 * writes share. Every read-modify-write of it goes through here.
 */
#include <linux/pci.h>
#include <linux/spinlock.h>

#include "bpfdrv.h"
#include "pci.h"
#include "iommu.h"

/*
 * INTx may be shared with other devices: claim the interrupt only if this
 * function raised it, and mask it at the function (PCI_COMMAND's INTx
 * disable bit) until the callback has run, as uio_pci_generic does; the
 * line stays enabled for the others.
 */
/*
 * PCI_COMMAND is shared: the interrupt handlers mask and unmask INTx in it
 * while a callback may write it (bus mastering, INTx disable). Every
 * read-modify-write of it by bpfdrv runs under fn->cmd_lock, which the
 * hard handler takes too, so that none undoes another's bit.
 */
bool bpfdrv_pci_intx_check_mask(struct bpfdrv_pci_fn *fn)
{
	unsigned long flags;
	bool asserted;

	raw_spin_lock_irqsave(&fn->cmd_lock, flags);
	asserted = pci_check_and_mask_intx(fn->pdev);
	raw_spin_unlock_irqrestore(&fn->cmd_lock, flags);
	return asserted;
}

/* Clear, then set bits of PCI_COMMAND. */
int bpfdrv_pci_cmd_update(struct bpfdrv_pci_fn *fn, u16 clear, u16 set)
{
	unsigned long flags;
	u16 cmd, new;
	int err;

	raw_spin_lock_irqsave(&fn->cmd_lock, flags);
	err = pci_read_config_word(fn->pdev, PCI_COMMAND, &cmd);
	new = (cmd & ~clear) | set;
	if (!err && new != cmd)
		err = pci_write_config_word(fn->pdev, PCI_COMMAND, new);
	raw_spin_unlock_irqrestore(&fn->cmd_lock, flags);
	return pcibios_err_to_errno(err);
}

void bpfdrv_pci_intx_unmask(struct bpfdrv_pci_fn *fn)
{
	bpfdrv_pci_cmd_update(fn, PCI_COMMAND_INTX_DISABLE, 0);
}

/* Make @fn a bus master if its DMA is confined or the admin opted in. */
int bpfdrv_pci_set_master(struct bpfdrv_pci_fn *fn)
{
	unsigned long flags;
	int err = bpfdrv_pci_may_master(fn);

	if (err)
		return err;
	raw_spin_lock_irqsave(&fn->cmd_lock, flags);
	/* a driver bound in its IOMMU group meanwhile: iommu.c */
	if (fn->group_shared)
		err = -EPERM;
	else
		pci_set_master(fn->pdev);	/* config accesses only: no sleep */
	raw_spin_unlock_irqrestore(&fn->cmd_lock, flags);
	return err;
}
