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
 * list.c, update.c, pci.c, stats.c, trace.c, new.c, autoload.c), over what
 * they share: util.c (errors, names, sysfs), libbpf_log.c (libbpf's log
 * and the verifier's refusals explained) and object.c (a driver object's
 * declaration).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bpfdrv.h"
#include "trace.h"

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
		"  stats [NAME] [-d SECS]          per-callback counts and latency histograms\n"
		"  trace [-l] [-g GROUPS] [-- CMD] trace NPU, DRM, NVIDIA, bpfdrv drivers, DMA\n"
		"  new NAME [--pci V:D|--gpio CHIP:LINE] [-o DIR]\n"
		"                                  write a driver skeleton, a Makefile and a test\n"
		"  autoload match|add|remove|boot|stop\n"
		"                                  attach installed drivers on device match\n"
		"                                  (udev) and at boot (bpfdrv.service)\n"
		"  -v  verbose (libbpf debug output)   -h  this help   -V  version\n");
}

int main(int argc, char **argv)
{
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

	if (!strcmp(argv[i], "load"))
		return cmd_load(argc - i, argv + i);
	if (!strcmp(argv[i], "unload"))
		return cmd_unload(argc - i, argv + i);
	if (!strcmp(argv[i], "update"))
		return cmd_update(argc - i, argv + i);
	if (!strcmp(argv[i], "status"))
		return cmd_status(argc - i, argv + i);
	if (!strcmp(argv[i], "list"))
		return cmd_list(argc - i, argv + i);
	if (!strcmp(argv[i], "bind"))
		return cmd_bind(argc - i, argv + i);
	if (!strcmp(argv[i], "unbind"))
		return cmd_unbind(argc - i, argv + i);
	if (!strcmp(argv[i], "stats"))
		return cmd_stats(argc - i, argv + i);
	if (!strcmp(argv[i], "trace"))
		return cmd_trace(argc - i, argv + i);
	if (!strcmp(argv[i], "new"))
		return cmd_new(argc - i, argv + i);
	if (!strcmp(argv[i], "autoload"))
		return cmd_autoload(argc - i, argv + i);
	err("unknown command '%s' (try: bpfdrv -h)", argv[i]);
	return 2;
}


