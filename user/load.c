// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv load and unload: attach every chr_ext_ops map of an object and
 * wait until each driver has started (in the foreground, Ctrl-C detaches;
 * with --pin, the links are pinned in /sys/fs/bpf/bpfdrv/ and outlive the
 * tool), and detach a driver, or every pinned one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/capability.h>
#include <linux/magic.h>
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
#include "spi.h"

#define MAX_DRIVERS	16	/* chr_ext_ops maps in one object */

static int ensure_pin_dir(void)
{
	struct statfs st;

	if (statfs("/sys/fs/bpf", &st) || st.f_type != BPF_FS_MAGIC) {
		if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL)) {
			err("cannot mount bpffs on /sys/fs/bpf: %s", strerror(errno));
			return -1;
		}
	}
	if (mkdir(PIN_DIR, 0700) && errno != EEXIST) {
		err("%s: %s", PIN_DIR, strerror(errno));
		return -1;
	}
	return 0;
}

/* A GPIO claim that failed, explained from the map's declaration. */
static bool gpio_explain_map(const struct btf *btf, const struct bpf_map *map,
			     int e, const char *name)
{
	size_t size;
	const char *value = bpf_map__initial_value(map, &size);

	return value && gpio_explain(btf, bpf_map__btf_value_type_id(map),
				     value, size, e, name);
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static void usage_load(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv load [-v] [--pin] [--name NAME] [--device BDF]\n"
		"                   [--gpio-chip LABEL] [--gpio-lines N,N,...]\n"
		"                   [--i2c-adapter NAME] [--i2c-addrs A,A,...]\n"
		"                   [--spi-controller NAME] [--spi-cs N] [--spi-mode M]\n"
		"                   [--spi-speed HZ] OBJ\n"
		"  Attach every chr_ext_ops map of the BPF object OBJ. A driver becomes\n"
		"  /dev/bpfdrv/<name>; a PCI driver gets /dev/bpfdrv/<name><N> for each\n"
		"  function it serves (unclaimed ones with its IDs are bound to bpfdrv).\n"
		"  Without --pin, stays attached until Ctrl-C.\n"
		"  --pin          pin the links in " PIN_DIR "/ and exit\n"
		"  --name NAME    override the driver's name (one-map objects)\n"
		"  --device BDF   serve only PCI function BDF, whatever its IDs\n"
		"                 (one-map objects; binds it to bpfdrv)\n"
		"  --gpio-chip LABEL     claim the GPIO lines on this chip instead\n"
		"  --gpio-lines N,N,...  these line offsets instead (as many as declared)\n"
		"  --i2c-adapter NAME    use the I2C adapter of this name instead\n"
		"                        (i2cdetect -l lists them)\n"
		"  --i2c-addrs A,A,...   these I2C addresses instead (as many as declared)\n"
		"  --spi-controller NAME use the SPI controller under this device instead\n"
		"                        (ls -l /sys/class/spi_master shows them)\n"
		"  --spi-cs N            this chip select instead\n"
		"  --spi-mode M          this SPI mode instead (0-3, plus 4: chip select\n"
		"                        active high, 8: LSB first)\n"
		"  --spi-speed HZ        this clock instead (0: the controller's maximum)\n"
		"  -v, --verbose         libbpf's debug output\n"
		"  -h, --help            this help\n");
}

/* Why an attach failed, in words for the errors bpfdrv.ko gives. */
#define LOCKDOWN_FILE "/sys/kernel/security/lockdown"

/* The lockdown file marks the active mode: "none [integrity] ..." */
static bool locked_down(void)
{
	char buf[128];

	return !read_line(LOCKDOWN_FILE, buf, sizeof(buf)) && !strstr(buf, "[none]");
}

static void attach_error(const char *path, const char *name, int e, bool pci)
{
	if (e == EEXIST)
		err("driver name '%s' is already in use (see: bpfdrv list)", name);
	else if (e == EPERM && !init_ns_capable(CAP_SYS_RAWIO))
		err("%s: cannot attach driver '%s': a driver that claims hardware (PCI functions, GPIO lines) needs CAP_SYS_RAWIO too",
		    path, name);
	else if (e == EPERM && pci && locked_down())
		err("%s: cannot attach PCI driver '%s': the kernel is locked down (%s)",
		    path, name, LOCKDOWN_FILE);
	else if (pci)
		err("%s: driver '%s' refused a device: %s (its init failed; see dmesg)",
		    path, name, strerror(e));
	else
		err("%s: cannot attach driver '%s': %s", path, name, strerror(e));
}

/* Is driver @name listed in STARTING_FILE (its init still runs)? */
static bool driver_starting(const char *name)
{
	char line[BPFDRV_NAME_MAX + 2];
	bool found = false;
	FILE *f = fopen(STARTING_FILE, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, name);
	}
	fclose(f);
	return found;
}

/* Driver @name's link reported EPOLLHUP: say why the kernel detached it. */
static void report_kernel_detach(const char *name)
{
	struct exit_rec r;
	char why[512];

	if (find_exit(name, &r)) {
		format_exit(&r, why, sizeof(why));
		err("driver '%s' was detached by the kernel: %s", name, why);
	} else {
		err("driver '%s' was detached by the kernel", name);
	}
}

/*
 * bpfdrv.ko waits half a second for a driver's inits; longer ones go on
 * after the attach returned. Wait for them: a driver whose init failed
 * stays listed until the kernel detaches it (its link reports EPOLLHUP).
 */
static int wait_started(const char *name, struct bpf_link *link)
{
	struct pollfd pfd = { .fd = bpf_link__fd(link), .events = POLLIN };

	if (!driver_starting(name))
		return 0;
	printf("%s: init is taking long; waiting for it\n", name);
	fflush(stdout);
	while (driver_starting(name) && poll(&pfd, 1, 100) == 0)
		;
	if (!(pfd.revents & (POLLHUP | POLLERR)))
		poll(&pfd, 1, 500);	/* the detach follows the listing closely */
	if (!(pfd.revents & (POLLHUP | POLLERR)))
		return 0;
	report_kernel_detach(name);
	return -1;
}

/*
 * Stay attached until Ctrl-C, or until the kernel detaches a driver (it
 * ejected it: its link reports EPOLLHUP); then say why and fail.
 */
static int wait_foreground(struct bpf_link **links, char names[][BPFDRV_NAME_MAX],
			   int n)
{
	struct pollfd pfd[MAX_DRIVERS];
	int i, ejected = 0;

	for (i = 0; i < n; i++) {
		pfd[i].fd = bpf_link__fd(links[i]);
		pfd[i].events = POLLIN;
	}
	while (!stop && !ejected) {
		if (poll(pfd, n, -1) < 0)
			continue;	/* a signal */
		for (i = 0; i < n; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR))
				ejected++;
	}
	for (i = 0; i < n; i++) {
		if (!(pfd[i].revents & (POLLHUP | POLLERR))) {
			printf("%s: detached\n", names[i]);
			continue;
		}
		report_kernel_detach(names[i]);
	}
	return ejected ? 1 : 0;
}

/* The chr_ext_ops maps of one object, as cmd_load() attaches them. */
struct load {
	const char *path;
	struct bpf_object *obj;
	struct map_overrides o;
	bool pin;
	int n, n_gpio, n_i2c, n_spi;
	char names[MAX_DRIVERS][BPFDRV_NAME_MAX];
	struct bpf_map *maps[MAX_DRIVERS];
	struct bpf_link *links[MAX_DRIVERS];
	bool is_pci[MAX_DRIVERS];
};

/* Options and the object's path: 0, or the exit status (-1: go on). */
static int load_parse_args(struct load *l, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pin", no_argument, NULL, 'p' },
		OVERRIDE_OPTIONS,
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "pn:d:vh", opts, NULL)) != -1) {
		if (override_option(opt, optarg, &l->o))
			continue;
		switch (opt) {
		case 'p':
			l->pin = true;
			break;
		case 'v':
			libbpf_log_init(true);
			break;
		case 'h':
			usage_load(stdout);
			return 0;
		default:
			usage_load(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage_load(stderr);
		return 2;
	}
	l->path = argv[optind];
	if (check_overrides(&l->o) || check_bpf_elf(l->path) || check_module())
		return 1;
	if (!init_ns_capable(CAP_SYS_ADMIN)) {
		err("%s: loading a driver needs CAP_SYS_ADMIN in the initial user namespace (a BPF token does not grant it)",
		    l->path);
		return 1;
	}
	return -1;
}

/* Find the object's drivers and apply the overrides to them: 0 or -1. */
static int load_prepare_maps(struct load *l)
{
	const struct btf *btf = bpf_object__btf(l->obj);
	struct map_overrides *o = &l->o;
	struct bpf_map *map;

	bpf_object__for_each_map(map, l->obj) {
		if (!is_chr_ext_ops(btf, map))
			continue;
		if (l->n == MAX_DRIVERS) {
			err("%s: more than %d chr_ext_ops maps", l->path, MAX_DRIVERS);
			return -1;
		}
		if (prepare_driver_map(btf, map, o, l->names[l->n], &l->is_pci[l->n],
				       &l->n_gpio, &l->n_i2c, &l->n_spi))
			return -1;
		l->maps[l->n++] = map;
	}
	if (!l->n) {
		err("%s: no chr_ext_ops map in this object (%s)", l->path,
		    "declare one in SEC(\".struct_ops.link\")");
		return -1;
	}
	if (check_driver_programs(l->obj, l->path))
		return -1;
	if ((o->i2c_adapter || o->i2c_addrs) && !l->n_i2c) {
		err("%s: --i2c-adapter/--i2c-addrs: no driver in it declares I2C addresses",
		    l->path);
		return -1;
	}
	if (spi_overridden(o) && !l->n_spi) {
		err("%s: --spi-*: no driver in it declares a SPI device", l->path);
		return -1;
	}
	if ((o->gpio_chip || o->gpio_lines) && !l->n_gpio) {
		err("%s: --gpio-chip/--gpio-lines: no driver in it declares GPIO lines",
		    l->path);
		return -1;
	}
	if ((o->name || o->device) && l->n > 1) {
		err("%s: --%s needs an object with one chr_ext_ops map (this one has %d)",
		    l->path, o->name ? "name" : "device", l->n);
		return -1;
	}
	return 0;
}

/* Attach each driver and wait for its instances' init: 0 or -1. */
static int load_attach(struct load *l)
{
	const struct btf *btf = bpf_object__btf(l->obj);
	int i;

	for (i = 0; i < l->n; i++) {
		/* libbpf writes the programs into a link's map here */
		refusal_mark();
		l->links[i] = bpf_map__attach_struct_ops(l->maps[i]);
		if (!l->links[i]) {
			int e = errno;

			if (refusal_explain(l->path))
				return -1;
			if (e == EPERM || l->is_pci[i] ||
			    !gpio_explain_map(btf, l->maps[i], e, l->names[i]))
				attach_error(l->path, l->names[i], e, l->is_pci[i]);
			return -1;
		}
		if (wait_started(l->names[i], l->links[i]))
			return -1;
	}
	return 0;
}

/* Pin the links (--pin) and say what attached: 0 or -1. */
static int load_pin_and_report(struct load *l)
{
	int i;

	if (l->pin && ensure_pin_dir())
		return -1;
	for (i = 0; i < l->n; i++) {
		char pinpath[sizeof(PIN_DIR) + BPFDRV_NAME_MAX + 1];

		if (l->pin) {
			snprintf(pinpath, sizeof(pinpath), PIN_DIR "/%.*s",
				 BPFDRV_NAME_MAX - 1, l->names[i]);
			unlink(pinpath);	/* a stale pin of a detached link */
			if (bpf_link__pin(l->links[i], pinpath)) {
				err("cannot pin %s: %s", pinpath, strerror(errno));
				return -1;
			}
		}
		if (!print_instances(l->names[i], l->pin))
			printf("%s: attached%s; no device yet: nodes appear when a %s\n",
			       l->names[i], l->pin ? " (pinned)" : "",
			       "function it serves is bound (bpfdrv bind BDF)");
	}
	fflush(stdout);
	return 0;
}

int cmd_load(int argc, char **argv)
{
	struct load l = { .o = { .bind = true } };
	bool started = false;
	int i, ret = 1;

	ret = load_parse_args(&l, argc, argv);
	if (ret >= 0)
		return ret;
	ret = 1;
	l.o.path = l.path;
	l.obj = bpf_object__open_file(l.path, NULL);
	if (!l.obj) {
		err("%s: cannot open BPF object: %s", l.path, strerror(errno));
		return 1;
	}
	if (load_prepare_maps(&l) || load_object(l.obj, l.path))
		goto out;
	/*
	 * A foreground load detaches on Ctrl-C: catch it before the attach,
	 * as the node appears before the attach returns, and a SIGINT then
	 * (to a background job, whose SIGINT starts ignored) was lost.
	 */
	if (!l.pin) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
	}
	if (load_attach(&l))
		goto out;
	started = true;
	if (load_pin_and_report(&l))
		goto out;
	ret = l.pin ? 0 : wait_foreground(l.links, l.names, l.n);
out:
	for (i = 0; i < l.n; i++)
		if (l.links[i]) {
			if (l.pin && !ret)
				bpf_link__disconnect(l.links[i]);
			bpf_link__destroy(l.links[i]);
		}
	bpf_object__close(l.obj);
	/* a load that failed to start leaves the functions as it found them */
	if (ret && !started)
		pci_give_back();
	return ret;
}

/* The link of driver @drv, from any of its instances; 0 if it has none. */
static __u32 driver_link_id(const char *drv)
{
	char owner[BPFDRV_NAME_MAX + 1], buf[32];
	struct dirent *de;
	__u32 id = 0;
	DIR *dir;

	dir = opendir(SYSFS_CLASS);
	if (!dir)
		return 0;
	while (!id && (de = readdir(dir)))
		if (de->d_name[0] != '.' &&
		    !read_sysfs(de->d_name, "driver", owner, sizeof(owner)) &&
		    !strcmp(owner, drv) &&
		    !read_sysfs(de->d_name, "link_id", buf, sizeof(buf)))
			id = strtoul(buf, NULL, 10);
	closedir(dir);
	return id;
}

/*
 * Have bpfdrv.ko detach driver @name, then wait until its link @fd
 * reports EPOLLHUP. Not BPF_LINK_DETACH: that waits for the driver's
 * callbacks under the BPF core's struct_ops mutex, which every struct_ops
 * attach and detach in the system needs; bpfdrv.ko waits without it.
 */
static int unload_driver(const char *name, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int sysfs = open(UNLOAD_FILE, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (sysfs < 0)
		return -1;
	n = write(sysfs, name, strlen(name));
	close(sysfs);
	if (n < 0)
		return -1;
	while (!(pfd.revents & (POLLHUP | POLLERR)))
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return -1;
	return 0;
}

/* The link id that nftw()'s callback removes the pins of. */
static __u32 unpin_link_id;

/* A bpffs file that pins link unpin_link_id: remove it. */
static int unpin_one(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	char fdpath[64], kind[32] = "";
	int fd;

	if (type != FTW_F)
		return 0;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return 0;
	/* ids are per kind: make sure it is a link before comparing */
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	if (readlink(fdpath, kind, sizeof(kind) - 1) > 0 &&
	    !strcmp(kind, "anon_inode:bpf-link") &&
	    !bpf_link_get_info_by_fd(fd, &info, &len) &&
	    info.id == unpin_link_id)
		unlink(path);
	close(fd);
	return 0;
}

/*
 * Remove every pin of link @id under the bpffs mount, wherever a tool put
 * it (bpftool struct_ops register pins it as DIR/<map name>).
 */
static void unpin_link(__u32 id)
{
	unpin_link_id = id;
	nftw("/sys/fs/bpf", unpin_one, 16, FTW_PHYS | FTW_MOUNT);
}

/* Detach attached driver @name and remove its pins. */
int unload_by_name(const char *name)
{
	char pinpath[sizeof(PIN_DIR) + BPFDRV_NAME_MAX + 1];
	char owner[BPFDRV_NAME_MAX + 1];
	__u32 link_id;
	int fd = -1;

	if (check_module())
		return 1;
	snprintf(pinpath, sizeof(pinpath), PIN_DIR "/%s", name);
	link_id = driver_link_id(name);
	if (link_id) {
		fd = bpf_link_get_fd_by_id(link_id);
	} else if (!read_sysfs(name, "driver", owner, sizeof(owner))) {
		if (strcmp(owner, name))
			err("'%s' is an instance of driver '%s': bpfdrv unload %s",
			    name, owner, owner);
		else
			err("'%s' was attached without a link; detach it with: %s",
			    name, "bpftool struct_ops unregister name MAP");
		return 1;
	} else {
		/* a pinned driver with no instance (no device bound yet) */
		fd = bpf_obj_get(pinpath);
		if (fd < 0) {
			err("no driver named '%s' is attached (see: bpfdrv list)",
			    name);
			return 1;
		}
	}
	if (fd < 0 || unload_driver(name, fd)) {
		err("cannot detach '%s': %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (!link_id) {
		struct bpf_link_info info = {};
		__u32 len = sizeof(info);

		if (!bpf_link_get_info_by_fd(fd, &info, &len))
			link_id = info.id;
	}
	close(fd);
	unlink(pinpath);
	if (link_id)
		unpin_link(link_id);
	clear_origin(name);
	return 0;
}

/*
 * unload --all: every pinned driver (what the packages' removal detaches).
 * A driver held by a running bpfdrv load stays until that process ends.
 */
static int unload_all(void)
{
	DIR *d = opendir(PIN_DIR);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : 1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && name_valid(de->d_name))
			ret |= unload_by_name(de->d_name);
	closedir(d);
	rmdir(PIN_DIR);	/* when empty: a driver pinned meanwhile keeps it */
	return ret;
}

int cmd_unload(int argc, char **argv)
{
	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: bpfdrv unload NAME | --all (every pinned driver)\n");
		return argc == 2 ? 0 : 2;
	}
	if (!strcmp(argv[1], "--all"))
		return unload_all();
	if (!name_valid(argv[1])) {
		err("invalid driver name '%s'", argv[1]);
		return 1;
	}
	return unload_by_name(argv[1]);
}
