/* SPDX-License-Identifier: GPL-2.0 */
/* the device class, minors, names, an instance's node (node.c) */
#ifndef __BPFDRV_KMOD_NODE_H
#define __BPFDRV_KMOD_NODE_H

#include "bpfdrv.h"

int bpfdrv_node_init(void);
void bpfdrv_node_exit(void);
int bpfdrv_cdev_init(struct bpfdrv_device *bdev);
bool bpfdrv_name_valid(const char *name);

#endif /* __BPFDRV_KMOD_NODE_H */
