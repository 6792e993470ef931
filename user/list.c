// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv list and status: the attached drivers, their device instances,
 * open files and call counts, how each was attached, and every driver's
 * last exit with its reason, as bpfdrv.ko's sysfs files give them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <time.h>
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

/* The PCI function an instance sits on, or "-". */
static void instance_pci(const char *inst, char *bdf, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), SYSFS_CLASS "/%s/device", inst);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(bdf, size, "-");
		return;
	}
	target[n] = '\0';
	snprintf(bdf, size, "%s", strrchr(target, '/') + 1);
}


/* The last exit of driver @name (every driver's if @name is NULL, one a call). */
static bool next_exit(FILE *f, const char *name, struct exit_rec *r)
{
	char line[512];
	int n;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%32s %15s %lld %15s %n", r->name, r->kind,
			   &r->time, r->cb, &n) != 4)
			continue;
		if (name && strcmp(r->name, name))
			continue;
		snprintf(r->msg, sizeof(r->msg), "%s", line + n);
		r->msg[strcspn(r->msg, "\n")] = '\0';
		return true;
	}
	return false;
}

bool find_exit(const char *name, struct exit_rec *r)
{
	FILE *f = fopen(EXITS_FILE, "r");
	bool found;

	if (!f)
		return false;
	found = next_exit(f, name, r);
	fclose(f);
	return found;
}

/* "error in read at 2026-11-23 12:00:01: message" */
void format_exit(const struct exit_rec *r, char *buf, size_t size)
{
	time_t t = r->time;
	char when[32] = "?";
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (strcmp(r->cb, "-"))
		snprintf(buf, size, "%s in %s at %s: %s", r->kind, r->cb, when, r->msg);
	else
		snprintf(buf, size, "%s at %s: %s", r->kind, when, r->msg);
}

/* Print the nodes of driver @drv; returns how many it has. */
/* A PCI instance's bus mastering (sysfs dma), as status says it. */
static const char *dma_words(const char *dma)
{
	if (!strcmp(dma, "iommu"))
		return ", DMA through the IOMMU";
	if (!strcmp(dma, "unsafe"))
		return ", DMA WITHOUT an IOMMU (allow_unsafe_dma=1: the device can reach all memory)";
	if (!strcmp(dma, "refused"))
		return ", no DMA or MSI (no IOMMU; allow_unsafe_dma=1 allows them)";
	return "";
}

/* Call @fn for each instance of driver @drv; returns how many it has. */
static int for_each_instance(const char *drv,
			     void (*fn)(const char *inst, const char *bdf,
					const char *dma, bool first, void *arg),
			     void *arg)
{
	struct dirent *de;
	char owner[BPFDRV_NAME_MAX + 1], bdf[64], dma[16];
	int n = 0;
	DIR *dir;

	dir = opendir(SYSFS_CLASS);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' ||
		    read_sysfs(de->d_name, "driver", owner, sizeof(owner)) ||
		    strcmp(owner, drv))
			continue;
		instance_pci(de->d_name, bdf, sizeof(bdf));
		if (read_sysfs(de->d_name, "dma", dma, sizeof(dma)))
			strcpy(dma, "-");
		fn(de->d_name, bdf, dma, !n, arg);
		n++;
	}
	closedir(dir);
	return n;
}

struct instance_text {
	const char *drv;
	bool pinned;
};

static void instance_text(const char *inst, const char *bdf, const char *dma,
			  bool first, void *arg)
{
	const struct instance_text *t = arg;

	printf("%s: attached, /dev/bpfdrv/%s%s%s%s%s\n", t->drv, inst,
	       strcmp(bdf, "-") ? " on " : "", strcmp(bdf, "-") ? bdf : "",
	       t->pinned ? " (pinned)" : "", dma_words(dma));
}

int print_instances(const char *drv, bool pinned)
{
	struct instance_text t = { drv, pinned };

	return for_each_instance(drv, instance_text, &t);
}

/* An instance in bpfdrv status --json's "instances" array. */
static void instance_json_entry(const char *inst, const char *bdf,
				const char *dma, bool first, void *arg)
{
	char node[sizeof("/dev/bpfdrv/") + BPFDRV_NAME_MAX];

	snprintf(node, sizeof(node), "/dev/bpfdrv/%s", inst);
	fputs(first ? "{\"node\":" : ",{\"node\":", stdout);
	json_str(stdout, node);
	fputs(",\"pci\":", stdout);
	if (strcmp(bdf, "-"))
		json_str(stdout, bdf);
	else
		fputs("null", stdout);
	fputs(",\"dma\":", stdout);
	if (strcmp(dma, "-"))
		json_str(stdout, dma);
	else
		fputs("null", stdout);
	fputs("}", stdout);
}

static const char * const op_names[] = {
	"open", "release", "read", "write", "ioctl", "poll", "bad_returns",
};

#define NR_OPS (sizeof(op_names) / sizeof(op_names[0]))

static int parse_stats(const char *name, unsigned long long *counts)
{
	char buf[512], *line, *save = NULL;
	size_t i;

	if (read_sysfs(name, "stats", buf, sizeof(buf)))
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char key[32];
		unsigned long long v;

		if (sscanf(line, "%31s %llu", key, &v) != 2)
			continue;
		for (i = 0; i < NR_OPS; i++)
			if (!strcmp(key, op_names[i]))
				counts[i] = v;
	}
	return 0;
}

/* An exit record as a JSON object's members (no braces). */
static void exit_json(const struct exit_rec *r)
{
	fputs("\"driver\":", stdout);
	json_str(stdout, r->name);
	fputs(",\"kind\":", stdout);
	json_str(stdout, r->kind);
	printf(",\"time\":%lld,\"callback\":", r->time);
	if (strcmp(r->cb, "-"))
		json_str(stdout, r->cb);
	else
		fputs("null", stdout);
	fputs(",\"message\":", stdout);
	json_str(stdout, r->msg);
}

/* Every driver's last exit, after bpfdrv list's table. */
static void print_exits(bool json)
{
	FILE *f = fopen(EXITS_FILE, "r");
	struct exit_rec r;
	char why[512];
	bool header = false;

	if (!f)
		return;
	while (next_exit(f, NULL, &r)) {
		if (json) {
			fputs("{\"type\":\"exit\",", stdout);
			exit_json(&r);
			fputs("}\n", stdout);
			continue;
		}
		if (!header)
			printf("\nLAST EXIT\n");
		header = true;
		format_exit(&r, why, sizeof(why));
		printf("%-16s %s\n", r.name, why);
	}
	fclose(f);
}

/*
 * Who attached driver @drv, in a word: "udev" or "boot" (autoload), "pin"
 * (bpfdrv load --pin or a tool that pinned it), "process" (a loader that
 * holds the link while it runs).
 */
static void attached_by(const char *drv, char *by, size_t size)
{
	char pin[sizeof(PIN_DIR) + BPFDRV_NAME_MAX + 1], how[PATH_MAX];

	snprintf(pin, sizeof(pin), PIN_DIR "/%s", drv);
	if (!attach_origin(drv, how, sizeof(how)))
		snprintf(by, size, "%.*s", (int)strcspn(how, " "), how);
	else
		snprintf(by, size, "%s", access(pin, F_OK) ? "process" : "pin");
}

/* One instance of bpfdrv list --json. */
static void instance_json(const char *inst, const char *drv, const char *bdf,
			  unsigned long open_count, unsigned long link,
			  const unsigned long long *c, const char *by)
{
	size_t i;

	fputs("{\"type\":\"instance\",\"name\":", stdout);
	json_str(stdout, inst);
	fputs(",\"driver\":", stdout);
	json_str(stdout, drv);
	fputs(",\"pci\":", stdout);
	if (strcmp(bdf, "-"))
		json_str(stdout, bdf);
	else
		fputs("null", stdout);
	printf(",\"open\":%lu,\"link_id\":%lu,\"calls\":{", open_count, link);
	for (i = 0; i + 1 < NR_OPS; i++)
		printf("%s\"%s\":%llu", i ? "," : "", op_names[i], c[i]);
	printf("},\"bad_returns\":%llu,\"attached_by\":", c[NR_OPS - 1]);
	json_str(stdout, by);
	fputs("}\n", stdout);
}

int cmd_list(int argc, char **argv)
{
	struct dirent *de;
	bool json = false;
	DIR *dir;
	int rows = 0;

	if (argc > 1 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json"))) {
		json = true;
		argc--;
		argv++;
	}
	if (argc > 1) {
		bool help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr, "usage: bpfdrv list [--json]\n"
			"  device instances, open files, call counts, and every driver's\n"
			"  last exit; --json: one object per line (type instance or exit)\n");
		return help ? 0 : 2;
	}
	if (check_module())
		return 1;
	dir = opendir(SYSFS_CLASS);
	if (!dir) {
		err(SYSFS_CLASS ": %s", strerror(errno));
		return 1;
	}
	if (!json)
		printf("%-16s %-12s %-12s %5s %6s %8s %8s %8s %8s %8s %8s %4s %s\n",
		       "NAME", "DRIVER", "PCI", "OPEN", "LINK", "open", "release",
		       "read", "write", "ioctl", "poll", "BAD", "BY");
	while ((de = readdir(dir))) {
		unsigned long long c[NR_OPS] = {};
		char open_count[32], link[32], drv[BPFDRV_NAME_MAX + 1], bdf[64];
		char by[16];

		if (de->d_name[0] == '.')
			continue;
		if (read_sysfs(de->d_name, "open_count", open_count, sizeof(open_count)) ||
		    read_sysfs(de->d_name, "link_id", link, sizeof(link)) ||
		    read_sysfs(de->d_name, "driver", drv, sizeof(drv)) ||
		    parse_stats(de->d_name, c))
			continue;	/* detached while we looked */
		instance_pci(de->d_name, bdf, sizeof(bdf));
		attached_by(drv, by, sizeof(by));
		rows++;
		if (json) {
			instance_json(de->d_name, drv, bdf, strtoul(open_count, NULL, 10),
				      strtoul(link, NULL, 10), c, by);
			continue;
		}
		printf("%-16s %-12s %-12s %5lu %6lu %8llu %8llu %8llu %8llu %8llu %8llu %4llu %s\n",
		       de->d_name, drv, bdf, strtoul(open_count, NULL, 10),
		       strtoul(link, NULL, 10), c[0], c[1], c[2], c[3], c[4],
		       c[5], c[6], by);
	}
	closedir(dir);
	if (!rows && !json)
		printf("(no drivers attached)\n");
	print_exits(json);
	return 0;
}

/*
 * Attached driver @name in /sys/kernel/bpfdrv/drivers: its link id (0
 * without a link), how often it was updated and its device instances
 * (@instances may be NULL). -1 if it is not attached.
 */
int driver_entry(const char *name, unsigned int *link_id, unsigned int *updates,
		 unsigned int *instances)
{
	char line[128], drv[BPFDRV_NAME_MAX + 1];
	unsigned int link, inst, upd;
	int ret = -1;
	FILE *f = fopen(DRIVERS_FILE, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%32s %u %u %u", drv, &link, &inst, &upd) == 4 &&
		    !strcmp(drv, name)) {
			*link_id = link;
			*updates = upd;
			if (instances)
				*instances = inst;
			ret = 0;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

/* bpfdrv status --json NAME: the driver, its instances, its last exit. */
static int status_json(const char *name, bool pinned)
{
	unsigned int link_id = 0, updates = 0;
	char how[PATH_MAX];
	struct exit_rec r;
	bool has_exit, attached;
	int n;

	attached = !driver_entry(name, &link_id, &updates, NULL);
	has_exit = find_exit(name, &r);
	if (!attached && !has_exit) {
		err("no driver named '%s' is attached or has exited (see: bpfdrv list)",
		    name);
		return 1;
	}
	fputs("{\"type\":\"driver\",\"name\":", stdout);
	json_str(stdout, name);
	printf(",\"attached\":%s,\"pinned\":%s,\"link_id\":%u,\"updates\":%u,"
	       "\"attached_by\":", attached ? "true" : "false",
	       pinned ? "true" : "false", link_id, updates);
	if (attached && !attach_origin(name, how, sizeof(how)))
		json_str(stdout, how);
	else
		fputs("null", stdout);
	fputs(",\"instances\":[", stdout);
	n = for_each_instance(name, instance_json_entry, NULL);
	printf("],\"nr_instances\":%d,\"last_exit\":", n);
	if (has_exit) {
		fputs("{", stdout);
		exit_json(&r);
		fputs("}", stdout);
	} else {
		fputs("null", stdout);
	}
	fputs("}\n", stdout);
	return 0;
}

int cmd_status(int argc, char **argv)
{
	char why[512], pin[sizeof(PIN_DIR) + BPFDRV_NAME_MAX + 1], how[PATH_MAX];
	struct exit_rec r;
	bool has_exit, json = false;
	unsigned int link_id, updates;
	int n;

	if (argc == 3 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json"))) {
		json = true;
		argc--;
		argv++;
	}
	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr, "usage: bpfdrv status [--json] NAME\n"
			"  Whether driver NAME is attached, its devices, and its last exit\n"
			"  (unload, error, protocol, removed) with the reason; --json: as\n"
			"  one object.\n");
		return argc == 2 ? 0 : 2;
	}
	if (check_module())
		return 1;
	if (!name_valid(argv[1])) {
		err("invalid driver name '%s'", argv[1]);
		return 1;
	}
	snprintf(pin, sizeof(pin), PIN_DIR "/%s", argv[1]);
	if (json)
		return status_json(argv[1], !access(pin, F_OK));
	n = print_instances(argv[1], !access(pin, F_OK));
	has_exit = find_exit(argv[1], &r);
	if (!n && !has_exit) {
		err("no driver named '%s' is attached or has exited (see: bpfdrv list)",
		    argv[1]);
		return 1;
	}
	if (!n)
		printf("%s: not attached\n", argv[1]);
	if (n && !attach_origin(argv[1], how, sizeof(how)))
		printf("%s: attached by %s\n", argv[1], how);
	if (!driver_entry(argv[1], &link_id, &updates, NULL) && updates)
		printf("%s: live updates: %u\n", argv[1], updates);
	if (has_exit) {
		format_exit(&r, why, sizeof(why));
		/* a function lost while the driver serves others is no exit */
		printf("%s: %s: %s\n", argv[1],
		       n && !strcmp(r.kind, "removed") ? "an instance was removed" :
		       "last exit", why);
	}
	return 0;
}
