// SPDX-License-Identifier: GPL-2.0
/*
 * A driver object's declaration, read from its BTF before it is loaded:
 * its chr_ext_ops maps, what they claim (PCI IDs, GPIO lines, I2C and SPI
 * devices) with load's and update's overrides, and its ABI version
 * against the module's.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "gpio.h"
#include "i2c.h"
#include "spi.h"

bool is_chr_ext_ops(const struct btf *btf, const struct bpf_map *map)
{
	const struct btf_type *t;

	if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS || !btf)
		return false;
	t = btf__type_by_id(btf, bpf_map__btf_value_type_id(map));
	return t && !strcmp(btf__name_by_offset(btf, t->name_off), "chr_ext_ops");
}

/*
 * Every program of @obj is a chr_ext_ops callback: a kprobe, tracing or
 * syscall program beside them would be loaded with the driver, outside
 * what bpfdrv checks and grants.
 */
int check_driver_programs(struct bpf_object *obj, const char *path)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		enum bpf_prog_type type = bpf_program__type(prog);

		if (type == BPF_PROG_TYPE_STRUCT_OPS)
			continue;
		err("%s: program %s is a %s program: a driver object holds chr_ext_ops callbacks only (SEC(\"struct_ops/...\"))",
		    path, bpf_program__name(prog),
		    libbpf_bpf_prog_type_str(type) ?: "unknown");
		return -1;
	}
	return 0;
}

/* Option @opt with argument @arg, if it is one of the overrides, into @o. */
bool override_option(int opt, const char *arg, struct map_overrides *o)
{
	switch (opt) {
	case 'n':
		o->name = arg;
		return true;
	case 'd':
		o->device = arg;
		return true;
	case 'c':
		o->gpio_chip = arg;
		return true;
	case 'l':
		o->gpio_lines = arg;
		return true;
	case 'A':
		o->i2c_adapter = arg;
		return true;
	case 'a':
		o->i2c_addrs = arg;
		return true;
	case 'S':
		o->spi_controller = arg;
		return true;
	case 'C':
		o->spi_cs = arg;
		return true;
	case 'M':
		o->spi_mode = arg;
		return true;
	case 'H':
		o->spi_speed = arg;
		return true;
	}
	return false;
}

/* The command line's overrides, before any object is opened. */
int check_overrides(const struct map_overrides *o)
{
	if (o->name && !name_valid(o->name)) {
		err("invalid driver name '%s': 1-%d characters of [A-Za-z0-9_-], %s",
		    o->name, BPFDRV_NAME_MAX - 1, "starting with a letter or digit");
		return -1;
	}
	if (o->device && !pci_bdf_valid(o->device)) {
		err("'%s' is not a PCI address (want DDDD:BB:DD.F, as lspci -D prints)",
		    o->device);
		return -1;
	}
	return 0;
}

/* The ABI version of the loaded module (0: it predates ABI versions). */
static unsigned int module_abi_version(void)
{
	FILE *f = fopen("/sys/module/bpfdrv/parameters/abi_version", "r");
	unsigned int v = 0;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* Refuse a driver built for a newer ABI than the module's, naming both. */
static int check_abi_version(const char *path, const char *name, __u32 want)
{
	unsigned int have = module_abi_version();

	if (want <= have)
		return 0;
	if (have)
		err("%s: driver '%s' was built for bpfdrv ABI %u, but the loaded bpfdrv module has ABI %u: update the module, or build the driver with the ABI %u headers",
		    path, name, want, have, have);
	else
		err("%s: driver '%s' was built for bpfdrv ABI %u, but the loaded bpfdrv module predates ABI versions: update the module",
		    path, name, want);
	return -1;
}

/*
 * Check a chr_ext_ops map's declaration and apply the command line's
 * overrides to it: @o's name, PCI function (bound to bpfdrv if @o->bind)
 * and GPIO chip and lines. The driver's name goes to @name.
 */
int prepare_driver_map(const struct btf *btf, struct bpf_map *map,
		       const struct map_overrides *o, char *name, bool *is_pci,
		       int *n_gpio, int *n_i2c, int *n_spi)
{
	const char *path = o->path, *new_name = o->name, *device = o->device;
	const char *gpio_chip = o->gpio_chip, *gpio_lines = o->gpio_lines;
	__u32 type_id = bpf_map__btf_value_type_id(map);
	int off, ids_off, slot_off;
	char *value;
	size_t size;

	off = member_offset(btf, type_id, "name");
	value = bpf_map__initial_value(map, &size);
	if (off < 0 || !value || off + BPFDRV_NAME_MAX > (int)size) {
		err("%s: map '%s': chr_ext_ops without a name member",
		    path, bpf_map__name(map));
		return -1;
	}
	if (new_name) {
		memset(value + off, 0, BPFDRV_NAME_MAX);
		strcpy(value + off, new_name);
	}
	snprintf(name, BPFDRV_NAME_MAX, "%.*s",
		 BPFDRV_NAME_MAX - 1, value + off);
	if (!name_valid(name)) {
		err("%s: map '%s': invalid driver name '%s'", path,
		    bpf_map__name(map), name);
		return -1;
	}
	off = member_offset(btf, type_id, "abi_version");
	if (off >= 0 && off + sizeof(__u32) <= size &&
	    check_abi_version(path, name, *(__u32 *)(value + off)))
		return -1;
	off = member_offset(btf, type_id, "mode");
	if (off >= 0 && off + sizeof(__u32) <= size &&
	    (*(__u32 *)(value + off) & ~0666)) {
		err("%s: driver '%s': invalid node mode %#o (at most 0666: no setuid, setgid, sticky or execute bits)",
		    path, name, *(__u32 *)(value + off));
		return -1;
	}

	off = member_offset(btf, type_id, "flags");
	if (off >= 0 && off + sizeof(__u32) <= size &&
	    (*(__u32 *)(value + off) & ~BPFDRV_F_ALL)) {
		err("%s: driver '%s': invalid flags %#x (known: %#x)",
		    path, name, *(__u32 *)(value + off), BPFDRV_F_ALL);
		return -1;
	}

	ids_off = member_offset(btf, type_id, "pci_ids");
	slot_off = member_offset(btf, type_id, "pci_slot");
	if (device) {
		if (slot_off < 0 || slot_off + BPFDRV_PCI_SLOT_MAX > (int)size) {
			err("%s: built without pci_slot; rebuild it to use --device",
			    path);
			return -1;
		}
		strcpy(value + slot_off, device);
		if (o->bind && pci_bind(device))
			return -1;
		*is_pci = true;
	} else if (ids_off >= 0 &&
		   ids_off + sizeof(struct bpfdrv_pci_id) * BPFDRV_MAX_PCI_IDS <= size) {
		struct bpfdrv_pci_id ids[BPFDRV_MAX_PCI_IDS];
		int nr = 0;

		memcpy(ids, value + ids_off, sizeof(ids));
		while (nr < BPFDRV_MAX_PCI_IDS && ids[nr].vendor)
			nr++;
		*is_pci = nr > 0;
		if (nr && o->bind && pci_bind_matching(ids, nr))
			return -1;
	}
	if (gpio_chip || gpio_lines) {
		int r = gpio_override(btf, type_id, value, size, gpio_chip,
				      gpio_lines, name);

		if (r < 0)
			return -1;
		*n_gpio += r;
	}
	if (o->i2c_adapter || o->i2c_addrs) {
		int r = i2c_override(btf, type_id, value, size, o->i2c_adapter,
				     o->i2c_addrs, name);

		if (r < 0)
			return -1;
		*n_i2c += r;
	}
	if (spi_overridden(o)) {
		int r = spi_override(btf, type_id, value, size, o);

		if (r < 0)
			return -1;
		*n_spi += r;
	}
	if (*is_pci && strlen(name) > BPFDRV_PCI_NAME_MAX) {
		err("%s: PCI driver name '%s' is too long: at most %d characters (instances append a number)",
		    path, name, BPFDRV_PCI_NAME_MAX);
		return -1;
	}
	return 0;
}
