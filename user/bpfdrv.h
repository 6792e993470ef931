/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the bpfdrv tool's source files. */
#ifndef __BPFDRV_TOOL_H
#define __BPFDRV_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "bpfdrv_abi.h"

#define SYSFS_CLASS	"/sys/class/bpfdrv"

void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int check_module(void);
int read_line(const char *path, char *buf, size_t size);

/* user/pci.c: handing PCI functions to bpfdrv's pci_driver */
bool pci_bdf_valid(const char *bdf);
int pci_bind(const char *bdf);
int pci_bind_matching(const struct bpfdrv_pci_id *ids, int nr_ids);
int cmd_bind(int argc, char **argv);
int cmd_unbind(int argc, char **argv);

/* user/new.c: driver skeletons */
int cmd_new(int argc, char **argv);

#endif /* __BPFDRV_TOOL_H */
