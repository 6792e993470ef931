/* SPDX-License-Identifier: GPL-2.0 */
/* live update (update.c) */
#ifndef __BPFDRV_KMOD_UPDATE_H
#define __BPFDRV_KMOD_UPDATE_H

#include "bpfdrv.h"

int bpfdrv_driver_update(struct chr_ext_ops *ops, struct chr_ext_ops *old);

#endif /* __BPFDRV_KMOD_UPDATE_H */
