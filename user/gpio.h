/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GPIO part of bpfdrv load: point a driver's declared lines at another
 * chip or other offsets before it loads, and explain a failed GPIO claim.
 */
#ifndef BPFDRV_USER_GPIO_H
#define BPFDRV_USER_GPIO_H

#include <stdbool.h>
#include <stddef.h>

struct btf;

/*
 * Rewrite the gpio_chip and/or gpio_lines offsets in @value, the initial
 * value of a chr_ext_ops map whose type is @type_id in @btf. @chip or
 * @lines ("3,4,5") may be NULL. Returns 1 if the driver declares GPIO lines
 * (and they were rewritten), 0 if it declares none, -1 after printing an
 * error.
 */
int gpio_override(const struct btf *btf, unsigned int type_id, char *value,
		  size_t size, const char *chip, const char *lines,
		  const char *driver);

/*
 * After an attach of @driver failed with @attach_err: if its GPIO declaration
 * explains why (no such chip, a line out of range or in use), print that
 * as one line and return true.
 */
bool gpio_explain(const struct btf *btf, unsigned int type_id,
		  const char *value, size_t size, int attach_err,
		  const char *driver);

#endif
