// SPDX-License-Identifier: GPL-2.0
/*
 * The DRM clients of processes, as the kernel's DRM usage statistics give
 * them in /proc/PID/fdinfo/FD (Documentation/gpu/drm-usage-stats.rst):
 * the driver, the client, the time its jobs spent on each engine and its
 * buffers' memory. nvtop and intel_gpu_top read the same keys; here they
 * feed bpfdrv trace --top. Only the files of a driver that exports them
 * have the keys (bpfdrv's accelerators do).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_fdinfo.h"

/* "12 KiB": bytes */
static long long size_value(const char *s)
{
	char unit[8] = "";
	long long v;

	if (sscanf(s, "%lld %7s", &v, unit) < 1)
		return -1;
	if (!strcmp(unit, "KiB"))
		v <<= 10;
	else if (!strcmp(unit, "MiB"))
		v <<= 20;
	else if (!strcmp(unit, "GiB"))
		v <<= 30;
	return v;
}

/* One fdinfo file: 1 if it is a DRM client's, with its keys in @c. */
static int read_client(const char *path, struct trace_drm_client *c)
{
	char line[256], key[96];
	const char *val;
	bool drm = false;
	FILE *f = fopen(path, "r");
	long long v;

	if (!f)
		return 0;
	c->memory = -1;
	while (fgets(line, sizeof(line), f)) {
		val = strchr(line, ':');
		if (!val || val - line >= (long)sizeof(key))
			continue;
		memcpy(key, line, val - line);
		key[val - line] = '\0';
		val += 1 + strspn(val + 1, " \t");
		if (!strcmp(key, "drm-driver")) {
			drm = true;
			snprintf(c->driver, sizeof(c->driver), "%.*s",
				 (int)strcspn(val, "\n"), val);
		} else if (!strcmp(key, "drm-client-id")) {
			c->id = strtoull(val, NULL, 10);
		} else if (!strncmp(key, "drm-engine-", 11) &&
			   strncmp(key, "drm-engine-capacity-", 20)) {
			c->engine_ns += strtoull(val, NULL, 10);
			c->engines++;
		} else if (!strncmp(key, "drm-total-", 10)) {
			v = size_value(val);
			if (v >= 0)
				c->memory = (c->memory < 0 ? 0 : c->memory) + v;
		}
	}
	fclose(f);
	return drm;
}

int trace_drm_clients(const __u32 *pids, int nr_pids,
		      struct trace_drm_client *out, int max)
{
	char dir[64], path[320];
	struct dirent *d;
	int i, j, n = 0, first;
	DIR *fds;

	for (i = 0; i < nr_pids && n < max; i++) {
		snprintf(dir, sizeof(dir), "/proc/%u/fdinfo", pids[i]);
		fds = opendir(dir);
		if (!fds)
			continue;	/* gone, or not ours to read */
		first = n;
		while ((d = readdir(fds)) && n < max) {
			struct trace_drm_client c = { .pid = pids[i] };

			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			if (!read_client(path, &c))
				continue;
			for (j = first; j < n; j++)	/* a dup of a file seen */
				if (out[j].id == c.id && !strcmp(out[j].driver, c.driver))
					break;
			if (j == n)
				out[n++] = c;
		}
		closedir(fds);
	}
	return n;
}
