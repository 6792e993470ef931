// SPDX-License-Identifier: GPL-2.0
/*
 * The I2C part of bpfdrv load and update: a driver names its adapter and
 * addresses in its chr_ext_ops map; --i2c-adapter and --i2c-addrs rewrite
 * them in the map's initial value before the object loads, as --gpio-chip
 * does for GPIO. The module checks them again at attach.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpfdrv_abi.h"
#include "bpfdrv.h"
#include "i2c.h"

int i2c_override(const struct btf *btf, unsigned int type_id, char *value,
		 size_t size, const char *adapter, const char *addrs,
		 const char *driver)
{
	int name_off = member_offset(btf, type_id, "i2c_adapter");
	int addrs_off = member_offset(btf, type_id, "i2c_addrs");
	__u16 parsed[BPFDRV_MAX_I2C_CLIENTS], *declared;
	int i, n = 0, nr_declared = 0;

	/* built for ABI 1, or without I2C */
	if (name_off < 0 || addrs_off < 0 ||
	    (size_t)name_off + BPFDRV_I2C_ADAPTER_MAX > size ||
	    (size_t)addrs_off + sizeof(parsed) > size)
		return 0;
	declared = (__u16 *)(value + addrs_off);
	while (nr_declared < BPFDRV_MAX_I2C_CLIENTS && declared[nr_declared])
		nr_declared++;
	if (!nr_declared)
		return 0;
	if (adapter) {
		if (!*adapter || strlen(adapter) >= BPFDRV_I2C_ADAPTER_MAX) {
			err("invalid --i2c-adapter '%s': 1-%d characters",
			    adapter, BPFDRV_I2C_ADAPTER_MAX - 1);
			return -1;
		}
		memset(value + name_off, 0, BPFDRV_I2C_ADAPTER_MAX);
		strcpy(value + name_off, adapter);
	}
	if (!addrs)
		return 1;
	while (*addrs) {
		char *end;
		unsigned long addr;

		errno = 0;
		addr = strtoul(addrs, &end, 0);
		if (errno || end == addrs || addr < BPFDRV_I2C_ADDR_FIRST ||
		    addr > BPFDRV_I2C_ADDR_LAST || (*end && *end != ',') ||
		    n == BPFDRV_MAX_I2C_CLIENTS) {
			err("invalid --i2c-addrs: want addresses 0x%02x-0x%02x, as 0x48,0x49",
			    BPFDRV_I2C_ADDR_FIRST, BPFDRV_I2C_ADDR_LAST);
			return -1;
		}
		parsed[n++] = addr;
		addrs = *end ? end + 1 : end;
	}
	if (n != nr_declared) {
		err("--i2c-addrs gives %d address%s, driver '%s' declares %d",
		    n, n == 1 ? "" : "es", driver, nr_declared);
		return -1;
	}
	for (i = 0; i < n; i++)
		declared[i] = parsed[i];
	return 1;
}
