/* SPDX-License-Identifier: GPL-2.0 */
/* Which device each IRQ is, from sysfs, for the dev_irq hook (irq_devs.c). */
#ifndef __BPFDRV_TRACE_IRQ_DEVS_H
#define __BPFDRV_TRACE_IRQ_DEVS_H

/* The irq_devs map (@map_fd) filled: how many IRQs have a device, or -1. */
int trace_fill_irq_devs(int map_fd);

#endif /* __BPFDRV_TRACE_IRQ_DEVS_H */
