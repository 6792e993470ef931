/* SPDX-License-Identifier: GPL-2.0 */
/* The SPI part of bpfdrv load: point a driver at another SPI device. */
#ifndef BPFDRV_USER_SPI_H
#define BPFDRV_USER_SPI_H

#include <stdbool.h>
#include <stddef.h>

struct btf;
struct map_overrides;

/* Whether the command line gives any --spi-* option. */
bool spi_overridden(const struct map_overrides *o);

/*
 * Rewrite the spi_* members of @value, the initial value of a chr_ext_ops
 * map whose type is @type_id in @btf, with those the command line gives.
 * Returns 1 if the driver declares a SPI device (and it was rewritten), 0
 * if it declares none, -1 after printing an error.
 */
int spi_override(const struct btf *btf, unsigned int type_id, char *value,
		 size_t size, const struct map_overrides *o);

#endif
