// SPDX-License-Identifier: GPL-2.0
/*
 * How each driver was attached (by udev for a PCI function, at boot from
 * autoload.conf, by hand): one file per driver in /run/bpfdrv/attached,
 * written by autoload, read by list and status, removed by unload.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpfdrv.h"

/* Record how driver @name was attached, for bpfdrv list. */
void set_origin(const char *name, const char *how)
{
	char path[sizeof(ORIGIN_DIR) + BPFDRV_NAME_MAX + 1];
	FILE *f;

	mkdir(RUN_DIR, 0755);
	mkdir(ORIGIN_DIR, 0755);
	snprintf(path, sizeof(path), ORIGIN_DIR "/%.*s", BPFDRV_NAME_MAX - 1, name);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", how);
		fclose(f);
	}
}

/* How driver @name was attached ("udev 0000:00:04.0"), "" if not recorded. */
int attach_origin(const char *name, char *buf, size_t size)
{
	char path[sizeof(ORIGIN_DIR) + BPFDRV_NAME_MAX + 1];

	snprintf(path, sizeof(path), ORIGIN_DIR "/%.*s", BPFDRV_NAME_MAX - 1, name);
	if (read_line(path, buf, size)) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

/* Forget how driver @name was attached: it is detached. */
void clear_origin(const char *name)
{
	char path[sizeof(ORIGIN_DIR) + BPFDRV_NAME_MAX + 1];

	snprintf(path, sizeof(path), ORIGIN_DIR "/%.*s", BPFDRV_NAME_MAX - 1, name);
	unlink(path);
}
