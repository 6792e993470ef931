/* SPDX-License-Identifier: GPL-2.0 */
/* The names of NVIDIA's ioctls and nodes, for bpfdrv trace (nvidia.c). */
#ifndef __BPFDRV_TRACE_NVIDIA_H
#define __BPFDRV_TRACE_NVIDIA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

const char *nvidia_ioctl_name(unsigned int cmd);
const char *nvidia_uvm_ioctl_name(unsigned int cmd);
void nvidia_print_ioctl_names(FILE *out);
void nvidia_minor_name(unsigned int minor, bool uvm, char *buf, size_t size);

#endif /* __BPFDRV_TRACE_NVIDIA_H */
