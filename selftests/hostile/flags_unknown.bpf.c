// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a flag this module does not know (a newer ABI's, or garbage),
 * which must not be taken for "no effect".
 * expect: invalid flags 0x80000004
 */
#include "hostile.h"

HOSTILE_OPS(flags_unknown, .flags = (1U << 31) | BPFDRV_F_DIRECT_IO);
