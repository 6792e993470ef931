/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the files of PCI support: binding (pci.c), PCI_COMMAND
 * (pci_cmd.c), the interrupt (pci_irq.c), config space and BARs
 * (pci_bar.c), DMA buffers (pci_dma.c), reset (pci_reset.c), power
 * management (pci_pm.c).
 */
#ifndef __BPFDRV_PCI_H
#define __BPFDRV_PCI_H

#include "bpfdrv.h"

/* pci.c: binding */
/* What the binding (pci.c) tells the core (driver.c) of its functions. */
struct bpfdrv_pci_fn_events {
	void (*added)(struct bpfdrv_pci_fn *fn);	/* bound and mapped */
	void (*removed)(struct bpfdrv_pci_fn *fn);	/* unbinding */
};

int bpfdrv_pci_init(const struct bpfdrv_pci_fn_events *events);
void bpfdrv_pci_exit(void);

/* pci_cmd.c: every change to PCI_COMMAND, under fn->cmd_lock */
int bpfdrv_pci_cmd_update(struct bpfdrv_pci_fn *fn, u16 clear, u16 set);
bool bpfdrv_pci_intx_check_mask(struct bpfdrv_pci_fn *fn);
void bpfdrv_pci_intx_unmask(struct bpfdrv_pci_fn *fn);
int bpfdrv_pci_set_master(struct bpfdrv_pci_fn *fn);

/* pci_irq.c */
int bpfdrv_pci_irq_setup(struct bpfdrv_device *bdev, struct bpfdrv_pci_fn *fn);
void bpfdrv_pci_irq_live(struct bpfdrv_device *bdev);
void bpfdrv_pci_irq_free(struct bpfdrv_device *bdev);

/* pci_reset.c: the function's reset, for the driver's callbacks */
extern const struct pci_error_handlers bpfdrv_pci_err_handlers;

/*
 * pci_pm.c: system sleep and runtime PM of the functions, the driver's
 * suspend and resume; runtime PM from the instance's live step to its del
 * step; BAR mappings and their faults keep or make the function active
 */
extern const struct dev_pm_ops bpfdrv_pci_pm_ops;
void bpfdrv_pci_pm_live(struct bpfdrv_device *bdev);
void bpfdrv_pci_pm_stop(struct bpfdrv_device *bdev);
void bpfdrv_pci_pm_map(struct bpfdrv_device *bdev, bool add);
int bpfdrv_pci_pm_fault(struct bpfdrv_device *bdev);
int bpfdrv_pci_pm_valid(const struct chr_ext_ops *ops);

/* pci_bar.c: the calling instance's function, if lockdown allows it */
struct bpfdrv_pci_fn *bpfdrv_pci_fn_of(struct bpfdrv_dev *dev, int *err);
void bpfdrv_pci_msix_find(struct bpfdrv_pci_fn *fn);
bool bpfdrv_pci_msix_hit(const struct bpfdrv_pci_fn *fn, int bar, u64 start,
			 u64 end, u64 granule);
void __iomem *bpfdrv_pci_bar_span(struct bpfdrv_dev *dev, u32 bar, u64 off,
				  u64 len, int *err);

/* pci_dma.c */
void bpfdrv_pci_dma_free_all(struct bpfdrv_pci_fn *fn);
void *bpfdrv_pci_dma_span(struct bpfdrv_dev *dev, u64 pos, u32 len, int *err);

#endif /* __BPFDRV_PCI_H */
