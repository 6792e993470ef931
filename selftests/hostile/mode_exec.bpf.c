// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile: a device node anyone may execute.
 * expect: invalid node mode 0777
 */
#include "hostile.h"

HOSTILE_OPS(mode_exec, .mode = 0777);
