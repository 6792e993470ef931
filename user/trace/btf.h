/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF, loaded once and kept until btf_free() (btf.c): what
 * probing asks of it (a module's function, a tracepoint, a struct's
 * member), and the object fd an fentry program names as its target.
 */
#ifndef __BPFDRV_TRACE_BTF_H
#define __BPFDRV_TRACE_BTF_H

#include <stdbool.h>

struct btf;

/* @module's BTF (NULL: vmlinux's) and its object fd (0 for vmlinux). */
struct btf *kernel_btf(const char *module, int *obj_fd);
/* Does @module (NULL: the kernel) have BTF? */
bool has_btf(const char *module);
/* Is there a tracepoint @name in @module's BTF (or the kernel's)? */
bool tracepoint_exists(const char *module, const char *name);
/* Does the kernel's struct @type exist (-1: no), and has it @member (1)? */
int kernel_struct_has(const char *type, const char *member);
void free_kernel_btfs(void);

#endif /* __BPFDRV_TRACE_BTF_H */
