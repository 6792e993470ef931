/* SPDX-License-Identifier: GPL-2.0 */
/* the one way an instance holds a bus device (hold.c) */
#ifndef __BPFDRV_KMOD_HOLD_H
#define __BPFDRV_KMOD_HOLD_H

#include "bpfdrv.h"

int bpfdrv_hold(struct bpfdrv_device *bdev, struct bpfdrv_hold *h,
		struct device *dev, const struct bpfdrv_hold_ops *ops,
		const char *what);

bool bpfdrv_hold_get(struct bpfdrv_hold *h);
void bpfdrv_hold_put(struct bpfdrv_hold *h);
void bpfdrv_hold_release(struct bpfdrv_hold *h);
int bpfdrv_hold_watch_pci(void);

/* What the bus watch (hold.c) tells the core (driver.c). */
struct bpfdrv_hold_events {
	void (*pci_bound)(struct pci_dev *pdev);	/* a driver binds it */
	void (*dep_gone)(struct bpfdrv_device *bdev, const char *what);
};

void bpfdrv_hold_init(const struct bpfdrv_hold_events *events);
void bpfdrv_hold_exit(void);

#endif /* __BPFDRV_KMOD_HOLD_H */
