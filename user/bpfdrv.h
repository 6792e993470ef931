/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the bpfdrv tool's source files. */
#ifndef __BPFDRV_TOOL_H
#define __BPFDRV_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bpfdrv_abi.h"

#define SYSFS_CLASS	"/sys/class/bpfdrv"
#define DRIVERS_FILE	"/sys/kernel/bpfdrv/drivers"
#define PIN_DIR		"/sys/fs/bpf/bpfdrv"
#define EXITS_FILE	"/sys/kernel/bpfdrv/exits"
#define UNLOAD_FILE	"/sys/kernel/bpfdrv/unload"
#define STARTING_FILE	"/sys/kernel/bpfdrv/starting"

#ifndef BPFDRV_VERSION
#define BPFDRV_VERSION	"(development)"
#endif

struct bpf_object;
struct bpf_map;
struct btf;

/* user/util.c: what every command uses */
void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void json_str(FILE *out, const char *s);
int check_module(void);
int read_line(const char *path, char *buf, size_t size);
int read_sysfs(const char *name, const char *attr, char *buf, size_t size);
bool init_ns_capable(int cap);
int check_bpf_elf(const char *path);
bool name_valid(const char *name);
int member_offset(const struct btf *btf, __u32 type_id, const char *name);

/* user/libbpf_log.c: libbpf's word, kept and explained */
void libbpf_log_init(bool verbose);
int load_object(struct bpf_object *obj, const char *path);
void refusal_mark(void);
bool refusal_explain(const char *path);
size_t libbpf_log_mark(void);
bool libbpf_log_reason(size_t mark, char *buf, size_t size);

/* What bpfdrv load and update may change in a driver's declaration. */
struct map_overrides {
	const char *path;	/* the object, for messages */
	const char *name;
	const char *device;	/* a PCI function, DDDD:BB:DD.F */
	const char *gpio_chip;
	const char *gpio_lines;
	const char *i2c_adapter;
	const char *i2c_addrs;
	const char *spi_controller;
	const char *spi_cs;
	const char *spi_mode;
	const char *spi_speed;
	bool bind;		/* hand the PCI functions it serves to bpfdrv */
};

/* Their long options, for getopt_long() tables. */
#define OVERRIDE_OPTIONS \
	{ "name", required_argument, NULL, 'n' }, \
	{ "device", required_argument, NULL, 'd' }, \
	{ "gpio-chip", required_argument, NULL, 'c' }, \
	{ "gpio-lines", required_argument, NULL, 'l' }, \
	{ "i2c-adapter", required_argument, NULL, 'A' }, \
	{ "i2c-addrs", required_argument, NULL, 'a' }, \
	{ "spi-controller", required_argument, NULL, 'S' }, \
	{ "spi-cs", required_argument, NULL, 'C' }, \
	{ "spi-mode", required_argument, NULL, 'M' }, \
	{ "spi-speed", required_argument, NULL, 'H' }

/* user/object.c: a driver object's declaration, before it is loaded */
bool override_option(int opt, const char *arg, struct map_overrides *o);
int check_overrides(const struct map_overrides *o);
bool is_chr_ext_ops(const struct btf *btf, const struct bpf_map *map);
int check_driver_programs(struct bpf_object *obj, const char *path);
int prepare_driver_map(const struct btf *btf, struct bpf_map *map,
		       const struct map_overrides *o, char *name, bool *is_pci,
		       int *n_gpio, int *n_i2c, int *n_spi);

/* user/load.c: attach and detach */
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);
int unload_by_name(const char *name);

/* user/list.c: what is attached, and every driver's last exit */
/* A driver's last exit, as bpfdrv.ko keeps it in EXITS_FILE. */
struct exit_rec {
	char name[BPFDRV_NAME_MAX + 1];
	char kind[16];
	char cb[16];
	long long time;
	char msg[256];
};
bool find_exit(const char *name, struct exit_rec *r);
void format_exit(const struct exit_rec *r, char *buf, size_t size);
int print_instances(const char *drv, bool pinned);
int driver_entry(const char *name, unsigned int *link_id, unsigned int *updates,
		 unsigned int *instances);
int cmd_list(int argc, char **argv);
int cmd_status(int argc, char **argv);

/* user/update.c: live update of an attached driver */
int cmd_update(int argc, char **argv);

/* user/pci.c: handing PCI functions to bpfdrv's pci_driver */
bool pci_bdf_valid(const char *bdf);
int pci_bind(const char *bdf);
int pci_bind_matching(const struct bpfdrv_pci_id *ids, int nr_ids);
int pci_bind_unclaimed(const char *bdf);
void pci_give_back(void);
int pci_read_id(const char *bdf, const char *attr, unsigned int *id);
int cmd_bind(int argc, char **argv);
int cmd_unbind(int argc, char **argv);
int cmd_reset(int argc, char **argv);

/* user/stats.c: per driver and callback, counts and latencies */
int cmd_stats(int argc, char **argv);

/* user/trace/cli.c: bpfdrv trace (user/trace/ is the tracer's own) */
int cmd_trace(int argc, char **argv);

/* user/new.c: driver skeletons */
int cmd_new(int argc, char **argv);

/* user/autoload.c: attaching installed drivers on device match and at boot */
int cmd_autoload(int argc, char **argv);

/* user/origin.c: how each driver was attached */
#define RUN_DIR		"/run/bpfdrv"
#define ORIGIN_DIR	RUN_DIR "/attached"
void set_origin(const char *name, const char *how);
int attach_origin(const char *name, char *buf, size_t size);
void clear_origin(const char *name);

#endif /* __BPFDRV_TOOL_H */
