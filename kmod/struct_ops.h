/* SPDX-License-Identifier: GPL-2.0 */
/* the chr_ext_ops struct_ops type (struct_ops.c) */
#ifndef __BPFDRV_KMOD_STRUCT_OPS_H
#define __BPFDRV_KMOD_STRUCT_OPS_H

#include "bpfdrv.h"

int bpfdrv_struct_ops_init(void);

#endif /* __BPFDRV_KMOD_STRUCT_OPS_H */
