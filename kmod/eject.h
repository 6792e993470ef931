/* SPDX-License-Identifier: GPL-2.0 */
/* ejection: exit records and detaching a driver from any context (eject.c) */
#ifndef __BPFDRV_KMOD_EJECT_H
#define __BPFDRV_KMOD_EJECT_H

#include "bpfdrv.h"

void bpfdrv_driver_eject(struct bpfdrv_driver *drv, enum bpfdrv_exit_kind kind,
			 enum bpfdrv_cb cb, const char *msg);

void bpfdrv_exit_record(const char *name, const struct bpfdrv_exit_info *info);

struct bpfdrv_link_detach *bpfdrv_link_detach_alloc(void);

void bpfdrv_link_detach_async(struct bpfdrv_link_detach *d,
			      struct bpf_link *link);

void bpfdrv_eject_exit(void);
int bpfdrv_eject_kfuncs_init(void);

#endif /* __BPFDRV_KMOD_EJECT_H */
