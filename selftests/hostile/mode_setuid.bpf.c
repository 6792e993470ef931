// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a device node with the setuid bit.
 * expect: invalid node mode 04666
 */
#include "hostile.h"

HOSTILE_OPS(mode_setuid, .mode = 04666);
