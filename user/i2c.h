/* SPDX-License-Identifier: GPL-2.0 */
/* The I2C part of bpfdrv load: point a driver at another adapter or addresses. */
#ifndef BPFDRV_USER_I2C_H
#define BPFDRV_USER_I2C_H

#include <stddef.h>

struct btf;

/*
 * Rewrite the i2c_adapter and/or i2c_addrs in @value, the initial value of a
 * chr_ext_ops map whose type is @type_id in @btf. @adapter or @addrs
 * ("0x48,0x49") may be NULL. Returns 1 if the driver declares I2C
 * addresses (and they were rewritten), 0 if it declares none, -1 after
 * printing an error.
 */
int i2c_override(const struct btf *btf, unsigned int type_id, char *value,
		 size_t size, const char *adapter, const char *addrs,
		 const char *driver);

#endif
