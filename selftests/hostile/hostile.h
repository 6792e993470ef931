/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the hostile-driver corpus: each object tries one thing a
 * verified driver must not be able to do, and states in its header the
 * message the loader must print when the kernel refuses it.
 */
#ifndef __HOSTILE_H
#define __HOSTILE_H

#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define HOSTILE_OPS(n, ...)						\
	SEC(".struct_ops.link")						\
	struct chr_ext_ops n##_ops = { .name = "hostile_" #n, __VA_ARGS__ }

#endif /* __HOSTILE_H */
