// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv: attach BPF drivers (chr_ext_ops struct_ops maps) and inspect them.
 *
 *   bpfdrv load OBJ [--pin] [--name NAME] [--device BDF]
 *        [--gpio-chip LABEL] [--gpio-lines N,N,...]
 *                                           attach every chr_ext_ops map
 *   bpfdrv unload NAME|--all                detach a driver, or every pinned one
 *   bpfdrv update NAME OBJ                  new code, files staying open
 *   bpfdrv list                             device instances and call counts
 *   bpfdrv bind|unbind BDF                  hand a PCI function to bpfdrv
 *   bpfdrv new NAME [--pci V:D|--gpio C:L]  write a driver skeleton (new.c)
 *   bpfdrv autoload ...                     attach installed drivers on
 *                                           device match (autoload.c)
 *
 * This file only dispatches: each command is in its own file (load.c,
 * list.c, update.c, pci.c, stats.c, trace/cli.c, new.c, autoload.c), over what
 * they share: util.c (errors, names, sysfs), libbpf_log.c (libbpf's log
 * and the verifier's refusals explained) and object.c (a driver object's
 * declaration).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bpfdrv.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv [-v] COMMAND [ARGS]\n"
		"  load OBJ [--pin] [--name NAME] [--device BDF]\n"
		"       [--gpio-chip LABEL] [--gpio-lines N,...]\n"
		"       [--i2c-adapter NAME] [--i2c-addrs A,...]\n"
		"       [--spi-controller NAME] [--spi-cs N] [--spi-mode M] [--spi-speed HZ]\n"
		"                                  attach the drivers in a BPF object\n"
		"  unload NAME | --all             detach a driver, or every pinned one\n"
		"  update NAME OBJ                 replace a driver's code, files staying open\n"
		"  list                            device instances, open files, call counts,\n"
		"                                  and every driver's last exit\n"
		"  status NAME                     one driver: its devices and its last exit\n"
		"  bind BDF                        hand PCI function BDF to bpfdrv\n"
		"  unbind BDF                      take it back\n"
		"  reset NAME                      reset device instance NAME's PCI function\n"
		"  stats [NAME] [-d SECS]          per-callback counts and latency histograms\n"
		"  trace [-l] [-g GROUPS] [-- CMD] trace NPU, DRM, NVIDIA, bpfdrv drivers, DMA\n"
		"  new NAME [--pci V:D|--gpio CHIP:LINE] [-o DIR]\n"
		"                                  write a driver skeleton, a Makefile and a test\n"
		"  autoload match|add|remove|boot|stop\n"
		"                                  attach installed drivers on device match\n"
		"                                  (udev) and at boot (bpfdrv.service)\n"
		"  help [COMMAND]                  this overview, or a command's options\n"
		"  -v  verbose (libbpf debug output)   -h  this help   -V  version\n");
}

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "load", cmd_load }, { "unload", cmd_unload }, { "update", cmd_update },
	{ "status", cmd_status }, { "list", cmd_list }, { "bind", cmd_bind },
	{ "unbind", cmd_unbind }, { "stats", cmd_stats }, { "trace", cmd_trace },
	{ "new", cmd_new }, { "autoload", cmd_autoload }, { "reset", cmd_reset },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* bpfdrv help [COMMAND]: the overview, or the command's own --help */
static int cmd_help(int argc, char **argv)
{
	char help[] = "--help";
	const struct command *cmd;
	char *args[3];

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (argc > 2 || !cmd) {
		err("help: %s%s%s (try: bpfdrv help)", argc > 2 ? "one command at a time" :
		    "no command '", argc > 2 ? "" : argv[1], argc > 2 ? "" : "'");
		return 2;
	}
	args[0] = argv[1];
	args[1] = help;
	args[2] = NULL;
	return cmd->fn(2, args);
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	bool verbose = false;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("bpfdrv %s (driver ABI %d)\n", BPFDRV_VERSION,
			       BPFDRV_ABI_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
		i++;
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	libbpf_log_init(verbose);

	if (!strcmp(argv[i], "help"))
		return cmd_help(argc - i, argv + i);
	cmd = find_command(argv[i]);
	if (cmd)
		return cmd->fn(argc - i, argv + i);
	err("unknown command '%s' (try: bpfdrv -h)", argv[i]);
	return 2;
}


