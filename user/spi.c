// SPDX-License-Identifier: GPL-2.0
/*
 * The SPI part of bpfdrv load and update: a driver names its controller,
 * chip select, mode and clock in its chr_ext_ops map; the --spi-* options
 * rewrite them in the map's initial value before the object loads, as
 * --i2c-adapter does for I2C. The module checks them again at load and
 * at attach.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpfdrv_abi.h"
#include "bpfdrv.h"
#include "spi.h"

bool spi_overridden(const struct map_overrides *o)
{
	return o->spi_controller || o->spi_cs || o->spi_mode || o->spi_speed;
}

/* @arg as a number up to @max into the __u32 at @value + @off. */
static int spi_number(const char *opt, const char *arg, unsigned long max,
		      char *value, int off)
{
	unsigned long n;
	char *end;

	if (!arg)
		return 0;
	errno = 0;
	n = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || n > max || *arg == '-') {
		err("invalid --%s '%s': want a number up to %lu", opt, arg, max);
		return -1;
	}
	*(__u32 *)(value + off) = n;
	return 0;
}

int spi_override(const struct btf *btf, unsigned int type_id, char *value,
		 size_t size, const struct map_overrides *o)
{
	int name_off = member_offset(btf, type_id, "spi_controller");
	int cs_off = member_offset(btf, type_id, "spi_cs");
	int mode_off = member_offset(btf, type_id, "spi_mode");
	int speed_off = member_offset(btf, type_id, "spi_max_speed_hz");

	/* built without SPI members, or declaring no SPI device */
	if (name_off < 0 || cs_off < 0 || mode_off < 0 || speed_off < 0 ||
	    (size_t)name_off + BPFDRV_SPI_CONTROLLER_MAX > size ||
	    (size_t)speed_off + sizeof(__u32) > size || !value[name_off])
		return 0;
	if (o->spi_controller) {
		if (!*o->spi_controller ||
		    strlen(o->spi_controller) >= BPFDRV_SPI_CONTROLLER_MAX) {
			err("invalid --spi-controller '%s': 1-%d characters",
			    o->spi_controller, BPFDRV_SPI_CONTROLLER_MAX - 1);
			return -1;
		}
		memset(value + name_off, 0, BPFDRV_SPI_CONTROLLER_MAX);
		strcpy(value + name_off, o->spi_controller);
	}
	if (spi_number("spi-cs", o->spi_cs, BPFDRV_SPI_CS_MAX, value, cs_off) ||
	    spi_number("spi-mode", o->spi_mode, BPFDRV_SPI_MODE_MASK, value,
		       mode_off) ||
	    spi_number("spi-speed", o->spi_speed, 0xffffffffUL, value,
		       speed_off))
		return -1;
	return 1;
}
