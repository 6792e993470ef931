// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv autoload: installed drivers attach themselves.
 *
 * A PCI driver object declares the functions it serves (chr_ext_ops.pci_ids),
 * the way HID-BPF objects declare HID_BPF_CONFIG. For every PCI function
 * that appears, udev asks "autoload match" which installed object serves
 * it; if one does, "autoload add" attaches and pins that driver (or binds
 * the function to it when it is already attached). When a function goes,
 * "autoload remove" detaches the drivers it attached that serve nothing. Drivers that serve
 * no device (echo, fifo) are listed in autoload.conf and attached at boot
 * by "autoload boot", from bpfdrv.service.
 *
 * Installed objects are looked up by file name in the driver directories,
 * the first directory first, so an administrator's copy in /etc hides the
 * packaged one (as udev does with rules). Every attach records how it was
 * made in /run/bpfdrv/attached/<driver>, which bpfdrv list shows.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"

#define DRIVER_PATH	"/etc/bpfdrv/drivers:/usr/local/lib/bpfdrv/drivers:" \
			"/usr/lib/bpfdrv/drivers"
#define AUTOLOAD_CONF	"/etc/bpfdrv/autoload.conf"
#define MAX_CONF_ARGS	16
#define MAX_ATTACHED	64	/* drivers autoload boot tells apart */

/* The driver directories: $BPFDRV_DRIVER_PATH (for tests), else the default. */
static const char *driver_path(void)
{
	const char *p = getenv("BPFDRV_DRIVER_PATH");

	return p && *p ? p : DRIVER_PATH;
}

/*
 * Autoload runs objects as root without anyone asking: only a regular file
 * that root owns and only root can write, in such a directory, counts as
 * installed. Anything else is skipped, and said so (udev logs it).
 */
static bool object_trusted(const char *path, bool report)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (stat(path, &st))
		return false;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (!S_ISREG(st.st_mode) || st.st_uid || (st.st_mode & 022)) {
		if (report)
			err("%s: not autoloaded: it must be a regular file owned by root and writable by root only",
			    path);
		return false;
	}
	if (slash && (stat(dir, &st) || st.st_uid || (st.st_mode & 022))) {
		if (report)
			err("%s: not autoloaded: its directory must be owned by root and writable by root only",
			    path);
		return false;
	}
	return true;
}

/* Is @file in a driver directory before @dir (so it hides @dir's copy)? */
static bool hidden_by_earlier(const char *path, const char *dir,
			      const char *file)
{
	char *dirs = strdup(path), *d, *save = NULL, p[PATH_MAX];
	bool hidden = false;

	for (d = strtok_r(dirs, ":", &save); d && strcmp(d, dir);
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(p, sizeof(p), "%s/%s", d, file);
		if (object_trusted(p, false)) {
			hidden = true;
			break;
		}
	}
	free(dirs);
	return hidden;
}

/* Silence libbpf while scanning: a broken object is skipped, not fatal. */
static int quiet_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	return 0;
}

/*
 * Does the object at @path have a driver serving PCI IDs @vendor:@device?
 * Its name goes to @name.
 */
static bool object_serves(const char *path, unsigned int vendor,
			  unsigned int device, char *name)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet_print);
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	const struct btf *btf;
	struct bpf_map *map;
	bool found = false;

	libbpf_set_print(old);
	if (!obj)
		return false;
	btf = bpf_object__btf(obj);
	bpf_object__for_each_map(map, obj) {
		__u32 type_id = bpf_map__btf_value_type_id(map);
		int ids_off, name_off, i;
		const char *value;
		size_t size;

		if (!is_chr_ext_ops(btf, map))
			continue;
		value = bpf_map__initial_value(map, &size);
		ids_off = member_offset(btf, type_id, "pci_ids");
		name_off = member_offset(btf, type_id, "name");
		if (!value || ids_off < 0 || name_off < 0 ||
		    ids_off + sizeof(struct bpfdrv_pci_id) * BPFDRV_MAX_PCI_IDS > size ||
		    (size_t)name_off + BPFDRV_NAME_MAX > size)
			continue;
		for (i = 0; i < BPFDRV_MAX_PCI_IDS; i++) {
			struct bpfdrv_pci_id id;

			memcpy(&id, value + ids_off + i * sizeof(id), sizeof(id));
			if (!id.vendor)
				break;
			if (id.vendor == vendor && id.device == device) {
				snprintf(name, BPFDRV_NAME_MAX, "%.*s",
					 BPFDRV_NAME_MAX - 1, value + name_off);
				found = name_valid(name);
				break;
			}
		}
		if (found)
			break;
	}
	bpf_object__close(obj);
	return found;
}

/*
 * The installed object serving PCI function @bdf: its path to @obj and
 * driver name to @name. 0 if found, 1 if none serves it, -1 on error.
 */
static int find_driver(const char *bdf, char *obj, size_t obj_size, char *name)
{
	unsigned int vendor, device;
	char *dirs, *d, *save = NULL, file[PATH_MAX];
	const char *path = driver_path();
	int ret = 1;

	if (!pci_bdf_valid(bdf)) {
		err("'%s' is not a PCI address (want DDDD:BB:DD.F)", bdf);
		return -1;
	}
	if (pci_read_id(bdf, "vendor", &vendor) ||
	    pci_read_id(bdf, "device", &device)) {
		err("no PCI device %s", bdf);
		return -1;
	}
	dirs = strdup(path);
	for (d = strtok_r(dirs, ":", &save); d && ret > 0;
	     d = strtok_r(NULL, ":", &save)) {
		struct dirent **list;
		int i, n = scandir(d, &list, NULL, alphasort);

		for (i = 0; i < n; i++) {
			const char *f = list[i]->d_name;
			size_t len = strlen(f);

			snprintf(file, sizeof(file), "%s/%s", d, f);
			if (ret > 0 && len > 6 && !strcmp(f + len - 6, ".bpf.o") &&
			    object_trusted(file, true) &&
			    !hidden_by_earlier(path, d, f)) {
				if (object_serves(file, vendor, device, name)) {
					snprintf(obj, obj_size, "%s", file);
					ret = 0;
				}
			}
			free(list[i]);
		}
		if (n >= 0)
			free(list);
	}
	free(dirs);
	return ret;
}

/* One autoload at a time: two functions of one driver appear together. */
static int lock_autoload(void)
{
	int fd;

	mkdir(RUN_DIR, 0755);
	fd = open(RUN_DIR "/autoload.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		err(RUN_DIR "/autoload.lock: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Load bpfdrv.ko if it is not loaded (DKMS installs it; nothing loads it). */
static int ensure_module(void)
{
	char *argv[] = { "/sbin/modprobe", "bpfdrv", NULL };
	int status;
	pid_t pid;

	if (!access("/sys/module/bpfdrv", F_OK))
		return 0;
	if (posix_spawn(&pid, argv[0], NULL, NULL, argv, environ) ||
	    waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		err("cannot load bpfdrv.ko (modprobe bpfdrv failed)");
		return -1;
	}
	return 0;
}

/* bpfdrv load --pin [ARGS...] OBJ, in this process. */
static int load_pinned(const char *obj, char **args, int nr_args)
{
	char *argv[MAX_CONF_ARGS + 4];
	int i, argc = 0;

	argv[argc++] = "load";
	argv[argc++] = "--pin";
	for (i = 0; i < nr_args; i++)
		argv[argc++] = args[i];
	argv[argc++] = (char *)obj;
	argv[argc] = NULL;
	optind = 0;	/* cmd_load parses its own options */
	return cmd_load(argc, argv);
}

/* The names of the attached drivers. */
struct driver_set {
	int nr;
	char names[MAX_ATTACHED][BPFDRV_NAME_MAX];
};

static void attached_drivers(struct driver_set *set)
{
	char line[128], name[BPFDRV_NAME_MAX + 1];
	FILE *f = fopen(DRIVERS_FILE, "r");

	set->nr = 0;
	while (f && set->nr < MAX_ATTACHED && fgets(line, sizeof(line), f))
		if (sscanf(line, "%32s", name) == 1 && name_valid(name))
			strcpy(set->names[set->nr++], name);
	if (f)
		fclose(f);
}

/* Record @how for the drivers attached now that were not in @before. */
static void mark_new_drivers(const struct driver_set *before, const char *how)
{
	struct driver_set now;
	int i, j;

	attached_drivers(&now);
	for (i = 0; i < now.nr; i++) {
		for (j = 0; j < before->nr; j++)
			if (!strcmp(now.names[i], before->names[j]))
				break;
		if (j == before->nr)
			set_origin(now.names[i], how);
	}
}

/* Instances of attached driver @name, or -1 if it is not attached. */
static int driver_instances(const char *name)
{
	unsigned int link_id, updates, instances;

	if (driver_entry(name, &link_id, &updates, &instances))
		return -1;
	return instances;
}

/* autoload match BDF: for udev's IMPORT{program}. */
static int autoload_match(const char *bdf)
{
	char obj[PATH_MAX], name[BPFDRV_NAME_MAX];
	int r = find_driver(bdf, obj, sizeof(obj), name);

	if (r < 0)
		return 1;
	if (!r)
		printf("BPFDRV_DRIVER=%s\nBPFDRV_OBJECT=%s\n", name, obj);
	return 0;
}

/* autoload add BDF: attach the driver serving @bdf, or give it @bdf. */
static int autoload_add(const char *bdf)
{
	char obj[PATH_MAX], name[BPFDRV_NAME_MAX], how[64];
	int lock, r, ret = 1;

	r = find_driver(bdf, obj, sizeof(obj), name);
	if (r)
		return r < 0 ? 1 : 0;	/* nothing installed serves it */
	if (ensure_module())
		return 1;
	lock = lock_autoload();
	if (lock < 0)
		return 1;
	if (driver_instances(name) >= 0) {
		/* attached: its pci_driver takes the new function */
		ret = pci_bind_unclaimed(bdf) ? 1 : 0;
	} else {
		ret = load_pinned(obj, NULL, 0);
		if (!ret) {
			snprintf(how, sizeof(how), "udev %s", bdf);
			set_origin(name, how);
		}
	}
	close(lock);
	return ret;
}

/*
 * autoload remove BDF: a PCI function went away. Detach the drivers that
 * autoload attached on device match and that serve nothing any more. (The
 * function's IDs cannot be read any more, nor does udev keep what "match"
 * said across the bind and unbind events in between.)
 */
static int autoload_remove(const char *bdf)
{
	char how[PATH_MAX + 16];
	struct dirent *de;
	int lock, ret = 0;
	DIR *dir;

	if (!pci_bdf_valid(bdf)) {
		err("'%s' is not a PCI address (want DDDD:BB:DD.F)", bdf);
		return 1;
	}
	dir = opendir(ORIGIN_DIR);
	if (!dir)
		return 0;	/* autoload attached nothing */
	lock = lock_autoload();
	if (lock < 0) {
		closedir(dir);
		return 1;
	}
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.' && name_valid(de->d_name) &&
		    !attach_origin(de->d_name, how, sizeof(how)) &&
		    !strncmp(how, "udev ", 5) &&
		    driver_instances(de->d_name) == 0 &&
		    unload_by_name(de->d_name))
			ret = 1;
	closedir(dir);
	close(lock);
	return ret;
}

/* Split a config line into words; no quoting (paths have no blanks). */
static int split_words(char *line, char **words, int max)
{
	char *save = NULL, *w;
	int n = 0;

	for (w = strtok_r(line, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save)) {
		if (n == max)
			return -1;
		words[n++] = w;
	}
	return n;
}

/* An object named in autoload.conf: a path, or a file in a driver directory. */
static int resolve_object(const char *word, char *obj, size_t size)
{
	char *dirs, *d, *save = NULL;
	int ret = -1;

	if (strchr(word, '/')) {
		snprintf(obj, size, "%s", word);
		return object_trusted(obj, true) ? 0 : -1;
	}
	dirs = strdup(driver_path());
	for (d = strtok_r(dirs, ":", &save); d && ret;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(obj, size, "%s/%s", d, word);
		if (!access(obj, F_OK))
			ret = object_trusted(obj, true) ? 0 : -1;
	}
	free(dirs);
	return ret;
}

/*
 * autoload boot: attach every driver of autoload.conf ("OBJECT [load
 * options]" per line, # comments). A failing line is reported and the
 * others still attach; the exit status says whether all did.
 */
static int autoload_boot(const char *conf)
{
	char line[1024], obj[PATH_MAX], how[PATH_MAX + 16];
	char *words[MAX_CONF_ARGS + 1];
	struct driver_set before;
	int lineno = 0, failed = 0, n, lock;
	FILE *f = fopen(conf, "r");

	if (!f) {
		if (errno == ENOENT)
			return 0;	/* nothing to attach */
		err("%s: %s", conf, strerror(errno));
		return 1;
	}
	lock = lock_autoload();
	if (lock < 0) {
		fclose(f);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');

		lineno++;
		if (hash)
			*hash = '\0';
		n = split_words(line, words, MAX_CONF_ARGS + 1);
		if (!n)
			continue;
		if (n < 0) {
			err("%s:%d: more than %d words", conf, lineno, MAX_CONF_ARGS);
			failed++;
			continue;
		}
		if (resolve_object(words[0], obj, sizeof(obj))) {
			err("%s:%d: no driver object '%s' (looked in %s)", conf,
			    lineno, words[0], driver_path());
			failed++;
			continue;
		}
		if (ensure_module()) {	/* only when there is a driver to attach */
			failed++;
			break;
		}
		attached_drivers(&before);
		if (load_pinned(obj, words + 1, n - 1)) {
			err("%s:%d: %s was not attached", conf, lineno, words[0]);
			failed++;
			continue;
		}
		snprintf(how, sizeof(how), "boot %s:%d", conf, lineno);
		mark_new_drivers(&before, how);
	}
	fclose(f);
	close(lock);
	return failed ? 1 : 0;
}

/* autoload stop: detach every driver that autoload boot attached. */
static int autoload_stop(void)
{
	struct dirent *de;
	char how[PATH_MAX + 16];
	int failed = 0, lock;
	DIR *dir = opendir(ORIGIN_DIR);

	if (!dir)
		return 0;
	lock = lock_autoload();
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || !name_valid(de->d_name) ||
		    attach_origin(de->d_name, how, sizeof(how)) ||
		    strncmp(how, "boot ", 5))
			continue;
		if (driver_instances(de->d_name) >= 0 && unload_by_name(de->d_name))
			failed++;
		else
			clear_origin(de->d_name);
	}
	closedir(dir);
	if (lock >= 0)
		close(lock);
	return failed ? 1 : 0;
}

static void usage_autoload(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv autoload match|add|remove BDF\n"
		"       bpfdrv autoload boot [-c FILE] | stop\n"
		"  Attach installed drivers on device match (run by udev) and the\n"
		"  drivers listed in " AUTOLOAD_CONF " (run at boot).\n"
		"  match BDF     print the driver serving PCI function BDF, as udev\n"
		"                properties (BPFDRV_DRIVER, BPFDRV_OBJECT)\n"
		"  add BDF       attach and pin that driver, or bind BDF to it\n"
		"  remove BDF    BDF went away: detach the drivers autoload attached\n"
		"                that serve no function any more\n"
		"  boot          attach and pin every driver of the file\n"
		"  stop          detach the drivers that boot attached\n"
		"  Drivers are looked up in %s\n"
		"  ($BPFDRV_DRIVER_PATH overrides).\n", DRIVER_PATH);
}

int cmd_autoload(int argc, char **argv)
{
	const char *conf = AUTOLOAD_CONF;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_autoload(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "match") && argc == 3)
		return autoload_match(argv[2]);
	if (!strcmp(argv[1], "add") && argc == 3)
		return autoload_add(argv[2]);
	if (!strcmp(argv[1], "remove") && argc == 3)
		return autoload_remove(argv[2]);
	if (!strcmp(argv[1], "boot") &&
	    (argc == 2 || (argc == 4 && !strcmp(argv[2], "-c")))) {
		if (argc == 4)
			conf = argv[3];
		return autoload_boot(conf);
	}
	if (!strcmp(argv[1], "stop") && argc == 2)
		return autoload_stop();
	usage_autoload(stderr);
	return 2;
}
