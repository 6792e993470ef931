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
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdinfo.h"

/*
 * "12 KiB" (units @units, shifts @shifts), "123 ns": the value; -1 for one
 * that is not the document's (a driver's keys are free-form).
 */
static long long unit_value(const char *s, const char *const *units,
			    const int *shifts, int n)
{
	unsigned long long v;
	size_t len;
	char *end;
	int i;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	end += strspn(end, " \t");
	len = strcspn(end, " \t\r\n");
	for (i = 0; i < n; i++)
		if (strlen(units[i]) == len && !strncmp(end, units[i], len))
			break;
	if (errno || i == n || v > (unsigned long long)LLONG_MAX >> shifts[i])
		return -1;
	return (long long)(v << shifts[i]);
}

static long long size_value(const char *s)
{
	static const char *const units[] = { "", "KiB", "MiB", "GiB" };
	static const int shifts[] = { 0, 10, 20, 30 };

	return unit_value(s, units, shifts, 4);
}

static long long ns_value(const char *s)
{
	static const char *const units[] = { "ns" };
	static const int shifts[] = { 0 };

	return unit_value(s, units, shifts, 1);
}

/* @a + @b, at most LLONG_MAX */
static long long sat_add(long long a, long long b)
{
	return a > LLONG_MAX - b ? LLONG_MAX : a + b;
}

int trace_drm_client_read(FILE *f, struct trace_drm_client *c)
{
	char line[256], key[96];
	bool drm = false, whole = true;
	const char *val;
	long long v;

	c->memory = -1;
	while (fgets(line, sizeof(line), f)) {
		/* the rest of a line longer than line[] is no key */
		bool start = whole;

		whole = strchr(line, '\n') != NULL;
		if (!start)
			continue;
		val = strchr(line, ':');
		if (!val || val - line >= (long)sizeof(key))
			continue;
		memcpy(key, line, val - line);
		key[val - line] = '\0';
		val += 1 + strspn(val + 1, " \t");
		if (!strcmp(key, "drm-driver")) {
			drm = true;
			snprintf(c->driver, sizeof(c->driver), "%.*s",
				 (int)strcspn(val, "\r\n"), val);
		} else if (!strcmp(key, "drm-client-id")) {
			c->id = strtoull(val, NULL, 10);
		} else if (!strncmp(key, "drm-engine-", 11) &&
			   strncmp(key, "drm-engine-capacity-", 20)) {
			v = ns_value(val);
			if (v >= 0) {
				c->engine_ns = sat_add(c->engine_ns, v);
				c->engines++;
			}
		} else if (!strncmp(key, "drm-total-", 10)) {
			v = size_value(val);
			if (v >= 0)
				c->memory = sat_add(c->memory < 0 ? 0 : c->memory, v);
		}
	}
	return drm;
}

/* One fdinfo file: 1 if it is a DRM client's, with its keys in @c. */
static int read_client(const char *path, struct trace_drm_client *c)
{
	FILE *f = fopen(path, "r");
	int drm;

	if (!f)
		return 0;
	drm = trace_drm_client_read(f, c);
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
