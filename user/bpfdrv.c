// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv: attach BPF drivers (chr_ext_ops struct_ops maps) and inspect them.
 *
 *   bpfdrv load OBJ [--pin] [--name NAME] [--device BDF]
 *        [--gpio-chip LABEL] [--gpio-lines N,N,...]
 *                                           attach every chr_ext_ops map
 *   bpfdrv unload NAME                      detach a driver
 *   bpfdrv update NAME OBJ                  new code, files staying open
 *   bpfdrv list                             device instances and call counts
 *   bpfdrv bind|unbind BDF                  hand a PCI function to bpfdrv
 *   bpfdrv new NAME [--pci V:D|--gpio C:L]  write a driver skeleton (new.c)
 *   bpfdrv autoload ...                     attach installed drivers on
 *                                           device match (autoload.c)
 *
 * Loading is generic: any BPF object with chr_ext_ops maps works. Without
 * --pin the drivers stay attached while this process runs (Ctrl-C detaches);
 * with --pin the links are pinned in /sys/fs/bpf/bpfdrv/ and outlive it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <elf.h>
#include <linux/capability.h>
#include <linux/magic.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "gpio.h"
#include "i2c.h"
#include "spi.h"
#include "trace.h"

#define PIN_DIR		"/sys/fs/bpf/bpfdrv"
#define EXITS_FILE	"/sys/kernel/bpfdrv/exits"
#define UNLOAD_FILE	"/sys/kernel/bpfdrv/unload"
#define STARTING_FILE	"/sys/kernel/bpfdrv/starting"
#define MAX_DRIVERS	16
#define LOG_TAIL_LINES	12

static bool verbose;
static char *libbpf_log;	/* everything libbpf said, for error reports */
static size_t libbpf_log_len;
static char *libbpf_warns;	/* libbpf's warnings, e.g. a missing kfunc */
static size_t libbpf_warns_len;

void err(const char *fmt, ...)
{
	va_list ap;

	fputs("bpfdrv: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Append @n bytes of @s to the growing string *@buf of *@len bytes. */
static void append(char **buf, size_t *len, const char *s, size_t n)
{
	char *p = realloc(*buf, *len + n + 1);

	if (!p)
		return;
	memcpy(p + *len, s, n + 1);
	*buf = p;
	*len += n;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char *line;
	int n;

	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	/* one call can carry a whole verifier log: no fixed-size buffer */
	n = vasprintf(&line, fmt, ap);
	if (n < 0)
		return n;
	if (verbose)
		fputs(line, stderr);
	if (level == LIBBPF_WARN)
		append(&libbpf_warns, &libbpf_warns_len, line, n);
	append(&libbpf_log, &libbpf_log_len, line, n);
	free(line);
	return n;
}

/* Start of the line @nlines lines before @p, not before @floor. */
static const char *lines_back(const char *floor, const char *p, int nlines)
{
	while (p > floor && nlines >= 0) {
		p--;
		if (*p == '\n')
			nlines--;
	}
	return p == floor ? p : p + 1;
}

/* The last line before the line at @before that @match accepts, or NULL. */
static const char *last_line_with(const char *floor, const char *before,
				  bool (*match)(const char *line))
{
	const char *p = before;

	while (p > floor) {
		/* p - 1 ends the line before the one at p */
		const char *line = lines_back(floor, p - 1, 0);

		if (match(line))
			return line;
		p = line;
	}
	return NULL;
}

/* "; c source @ file.bpf.c:12", the verifier's note of a source line */
static bool is_source_line(const char *line)
{
	return line[0] == ';' && line[1] == ' ';
}

/* "12: (85) call ...", an instruction */
static bool is_insn_line(const char *line)
{
	while (*line >= '0' && *line <= '9')
		line++;
	return line[0] == ':' && line[1] == ' ' && line[2] == '(';
}

static void put_line(const char *what, const char *line)
{
	fprintf(stderr, "bpfdrv:   %s%.*s\n", what, (int)strcspn(line, "\n"), line);
}

/*
 * Where the verifier stopped: the last instruction it checked, the source
 * line that instruction comes from (the object's BTF line info; build with
 * -g) and its reason, the lines that follow the instruction up to a blank
 * line or "processed N insns".
 */
static void print_verifier_error(const char *begin, const char *end)
{
	const char *stop = strstr(begin, "\nprocessed ");
	const char *insn, *src, *p, *what = "reason:      ";

	if (!stop || stop > end)
		return;
	insn = last_line_with(begin, stop + 1, is_insn_line);
	if (!insn)
		return;
	src = last_line_with(begin, insn, is_source_line);
	fprintf(stderr, "bpfdrv: where the verifier stopped:\n");
	if (src)
		put_line("source:      ", src + 2);
	put_line("instruction: ", insn);
	for (p = strchr(insn, '\n') + 1; p < stop && *p != '\n';
	     p = strchr(p, '\n') + 1) {
		put_line(what, p);
		what = "             ";
	}
}

/*
 * Print the useful part of the verifier log libbpf reported. Kernels with
 * structured diagnostics ("Verification failed: ...") get the error, its
 * place and the suggestion; older ones the last lines, which end with the
 * error.
 */
static bool print_verifier_tail(void)
{
	const char *begin, *end, *vf, *stop, *sugg;

	if (!libbpf_log)
		return false;
	begin = strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --");
	begin = begin ? strchr(begin, '\n') : NULL;
	if (!begin)
		return false;
	begin++;
	end = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end)
		return false;
	/* libbpf prefixes the END marker line with "libbpf: prog 'x': " */
	while (end > begin && end[-1] != '\n')
		end--;

	print_verifier_error(begin, end);
	fprintf(stderr, "bpfdrv: verifier log (the error; -v shows all):\n");
	vf = strstr(begin, "\nVerification failed:");
	if (!vf || vf > end) {
		stop = strstr(begin, "\nprocessed ");
		if (!stop || stop > end)
			stop = end;
		begin = lines_back(begin, stop, LOG_TAIL_LINES);
		fwrite(begin, 1, stop - begin, stderr);
		fputc('\n', stderr);
		return true;
	}
	sugg = strstr(vf, "\nSuggestion:");
	if (sugg && sugg > end)
		sugg = NULL;
	stop = strstr(vf, "\nCausal path:");
	if (!stop || stop > end)
		stop = sugg ? sugg : end;
	begin = lines_back(begin, vf, 3);
	fwrite(begin, 1, stop - begin, stderr);
	fputc('\n', stderr);
	if (sugg) {
		const char *e = strstr(sugg + 1, "\n\n");

		if (!e || e > end)
			e = end;
		fwrite(sugg + 1, 1, e - sugg - 1, stderr);
		fputc('\n', stderr);
	}
	return true;
}

/* How much libbpf has said so far, for libbpf_log_reason(). */
size_t libbpf_log_mark(void)
{
	return libbpf_log_len;
}

/*
 * Why the kernel refused a program, from what libbpf said after @mark:
 * the last line of the verifier's log before its statistics.
 */
bool libbpf_log_reason(size_t mark, char *buf, size_t size)
{
	const char *begin, *end, *stop, *line;

	if (!libbpf_log || mark > libbpf_log_len)
		return false;
	begin = strstr(libbpf_log + mark, "-- BEGIN PROG LOAD LOG --");
	begin = begin ? strchr(begin, '\n') : NULL;
	if (!begin)
		return false;
	begin++;
	end = strstr(begin, "\nprocessed ");
	stop = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end || (stop && stop < end))
		end = stop ? stop : begin + strlen(begin);
	while (end > begin && (end[-1] == '\n' || end[-1] == '.'))
		end--;
	line = end;
	while (line > begin && line[-1] != '\n')
		line--;
	if (line == end)
		return false;
	snprintf(buf, size, "%.*s", (int)(end - line), line);
	return true;
}

/* The program whose load failed, from libbpf's report. */
static const char *failed_prog(char *buf, size_t size)
{
	const char *p, *q;

	/* only a load the kernel refused leaves a verifier log */
	p = libbpf_log ? strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --") : NULL;
	while (p && p > libbpf_log && p[-1] != '\n')
		p--;
	p = p ? strstr(p, "prog '") : NULL;
	if (!p)
		return NULL;
	p += 6;
	q = strchr(p, '\'');
	if (!q || (size_t)(q - p) >= size)
		return NULL;
	memcpy(buf, p, q - p);
	buf[q - p] = '\0';
	return buf;
}

bool name_valid(const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len >= BPFDRV_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9');

		if (!alnum && (i == 0 || (c != '_' && c != '-')))
			return false;
	}
	return true;
}

/* The init user namespace's inode number (PROC_USER_INIT_INO). */
#define INIT_USER_NS_INO	4026531837UL

/* Does this process hold capability @cap in the initial user namespace? */
bool init_ns_capable(int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = {};
	struct stat st;

	if (stat("/proc/self/ns/user", &st) || st.st_ino != INIT_USER_NS_INO)
		return false;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1U << (cap % 32));
}

/* Is @path a readable ELF file for the BPF machine? */
int check_bpf_elf(const char *path)
{
	Elf64_Ehdr eh;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		err("%s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, &eh, sizeof(eh));
	close(fd);
	if (n != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_BPF) {
		err("%s: not a BPF object file", path);
		return -1;
	}
	return 0;
}

int check_module(void)
{
	if (access("/sys/module/bpfdrv", F_OK)) {
		err("kernel module bpfdrv is not loaded (modprobe bpfdrv, or insmod bpfdrv.ko)");
		return -1;
	}
	return 0;
}

/*
 * The offset of a data member in the object's chr_ext_ops type, or -1 if
 * the object was built without it (older headers).
 */
int member_offset(const struct btf *btf, __u32 type_id, const char *name)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	const struct btf_member *m;
	int i;

	if (!t || !btf_is_struct(t))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return btf_member_bit_offset(t, i) / 8;
	return -1;
}

bool is_chr_ext_ops(const struct btf *btf, const struct bpf_map *map)
{
	const struct btf_type *t;

	if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS || !btf)
		return false;
	t = btf__type_by_id(btf, bpf_map__btf_value_type_id(map));
	return t && !strcmp(btf__name_by_offset(btf, t->name_off), "chr_ext_ops");
}

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
		"  --spi-speed HZ        this clock instead (0: the controller's maximum)\n");
}

/* Read a small file (sysfs) into @buf, without its trailing newline. */
int read_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Read /sys/class/bpfdrv/<name>/<attr>. */
static int read_sysfs(const char *name, const char *attr, char *buf, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SYSFS_CLASS "/%s/%s", name, attr);
	return read_line(path, buf, size);
}

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

/* A driver's last exit, as bpfdrv.ko keeps it in EXITS_FILE. */
struct exit_rec {
	char name[BPFDRV_NAME_MAX + 1];
	char kind[16];
	char cb[16];
	long long time;
	char msg[256];
};

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

static bool find_exit(const char *name, struct exit_rec *r)
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
static void format_exit(const struct exit_rec *r, char *buf, size_t size)
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
static int print_instances(const char *drv, bool pinned)
{
	struct dirent *de;
	char owner[BPFDRV_NAME_MAX + 1], bdf[64];
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
		printf("%s: attached, /dev/bpfdrv/%s%s%s%s\n", drv, de->d_name,
		       strcmp(bdf, "-") ? " on " : "", strcmp(bdf, "-") ? bdf : "",
		       pinned ? " (pinned)" : "");
		n++;
	}
	closedir(dir);
	return n;
}

/* Why an attach failed, in words for the errors bpfdrv.ko gives. */
static void attach_error(const char *path, const char *name, int e, bool pci)
{
	if (e == EEXIST)
		err("driver name '%s' is already in use (see: bpfdrv list)", name);
	else if (e == EPERM && !init_ns_capable(CAP_SYS_RAWIO))
		err("%s: cannot attach driver '%s': a driver that claims hardware (PCI functions, GPIO lines) needs CAP_SYS_RAWIO too",
		    path, name);
	else if (e == EPERM && pci)
		err("%s: cannot attach PCI driver '%s': the kernel is locked down (%s)",
		    path, name, "/sys/kernel/security/lockdown");
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

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
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

/* Load @obj, explaining a refusal: the program and the verifier's reason. */
int load_object(struct bpf_object *obj, const char *path)
{
	char prog[128];
	int e;

	if (!bpf_object__load(obj))
		return 0;
	e = errno;
	if (failed_prog(prog, sizeof(prog)))
		err("%s: the kernel rejected program '%s': %s", path, prog,
		    strerror(e));
	else
		err("%s: load failed: %s", path, strerror(e));
	if (!print_verifier_tail() && libbpf_warns && !verbose)
		fputs(libbpf_warns, stderr);
	return -1;
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

int cmd_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pin", no_argument, NULL, 'p' },
		OVERRIDE_OPTIONS,
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char names[MAX_DRIVERS][BPFDRV_NAME_MAX];
	struct bpf_link *links[MAX_DRIVERS] = {};
	struct bpf_map *maps[MAX_DRIVERS];
	bool is_pci[MAX_DRIVERS] = {};
	struct map_overrides o = { .bind = true };
	struct bpf_object *obj;
	const struct btf *btf;
	struct bpf_map *map;
	int i, n = 0, n_gpio = 0, n_i2c = 0, n_spi = 0, opt, ret = 1;
	bool pin = false, started = false;
	const char *path;

	while ((opt = getopt_long(argc, argv, "pn:d:vh", opts, NULL)) != -1) {
		if (override_option(opt, optarg, &o))
			continue;
		switch (opt) {
		case 'p':
			pin = true;
			break;
		case 'v':
			verbose = true;
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
	path = argv[optind];
	if (check_overrides(&o) || check_bpf_elf(path) || check_module())
		return 1;
	if (!init_ns_capable(CAP_SYS_ADMIN)) {
		err("%s: loading a driver needs CAP_SYS_ADMIN in the initial user namespace (a BPF token does not grant it)",
		    path);
		return 1;
	}

	o.path = path;
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		err("%s: cannot open BPF object: %s", path, strerror(errno));
		return 1;
	}
	btf = bpf_object__btf(obj);
	bpf_object__for_each_map(map, obj) {
		if (!is_chr_ext_ops(btf, map))
			continue;
		if (n == MAX_DRIVERS) {
			err("%s: more than %d chr_ext_ops maps", path, MAX_DRIVERS);
			goto out;
		}
		if (prepare_driver_map(btf, map, &o, names[n], &is_pci[n], &n_gpio,
				       &n_i2c, &n_spi))
			goto out;
		maps[n++] = map;
	}
	if (!n) {
		err("%s: no chr_ext_ops map in this object (%s)", path,
		    "declare one in SEC(\".struct_ops.link\")");
		goto out;
	}
	if ((o.i2c_adapter || o.i2c_addrs) && n && !n_i2c) {
		err("%s: --i2c-adapter/--i2c-addrs: no driver in it declares I2C addresses",
		    path);
		goto out;
	}
	if (spi_overridden(&o) && n && !n_spi) {
		err("%s: --spi-*: no driver in it declares a SPI device", path);
		goto out;
	}
	if ((o.gpio_chip || o.gpio_lines) && n && !n_gpio) {
		err("%s: --gpio-chip/--gpio-lines: no driver in it declares GPIO lines",
		    path);
		goto out;
	}
	if ((o.name || o.device) && n > 1) {
		err("%s: --%s needs an object with one chr_ext_ops map (this one has %d)",
		    path, o.name ? "name" : "device", n);
		goto out;
	}
	if (load_object(obj, path))
		goto out;

	for (i = 0; i < n; i++) {
		links[i] = bpf_map__attach_struct_ops(maps[i]);
		if (!links[i]) {
			int e = errno;

			if (e == EPERM || is_pci[i] ||
			    !gpio_explain_map(btf, maps[i], e, names[i]))
				attach_error(path, names[i], e, is_pci[i]);
			goto out;
		}
		if (wait_started(names[i], links[i]))
			goto out;
	}
	started = true;

	if (pin && ensure_pin_dir())
		goto out;
	for (i = 0; i < n; i++) {
		char pinpath[sizeof(PIN_DIR) + BPFDRV_NAME_MAX + 1];

		if (pin) {
			snprintf(pinpath, sizeof(pinpath), PIN_DIR "/%.*s",
				 BPFDRV_NAME_MAX - 1, names[i]);
			unlink(pinpath);	/* a stale pin of a detached link */
			if (bpf_link__pin(links[i], pinpath)) {
				err("cannot pin %s: %s", pinpath, strerror(errno));
				goto out;
			}
		}
		if (!print_instances(names[i], pin))
			printf("%s: attached%s; no device yet: nodes appear when a %s\n",
			       names[i], pin ? " (pinned)" : "",
			       "function it serves is bound (bpfdrv bind BDF)");
	}
	fflush(stdout);

	ret = 0;
	if (!pin)
		ret = wait_foreground(links, names, n);
out:
	for (i = 0; i < n; i++)
		if (links[i]) {
			if (pin && !ret)
				bpf_link__disconnect(links[i]);
			bpf_link__destroy(links[i]);
		}
	bpf_object__close(obj);
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
	return ret;
}

static int cmd_unload(int argc, char **argv)
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

/* Every driver's last exit, after bpfdrv list's table. */
static void print_exits(void)
{
	FILE *f = fopen(EXITS_FILE, "r");
	struct exit_rec r;
	char why[512];
	bool header = false;

	if (!f)
		return;
	while (next_exit(f, NULL, &r)) {
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

static int cmd_list(int argc, char **argv)
{
	struct dirent *de;
	DIR *dir;
	int rows = 0;

	if (argc > 1) {
		bool help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr, "usage: bpfdrv list\n");
		return help ? 0 : 2;
	}
	if (check_module())
		return 1;
	dir = opendir(SYSFS_CLASS);
	if (!dir) {
		err(SYSFS_CLASS ": %s", strerror(errno));
		return 1;
	}
	printf("%-16s %-12s %-12s %5s %6s %8s %8s %8s %8s %8s %8s %4s %s\n",
	       "NAME", "DRIVER", "PCI", "OPEN", "LINK", "open", "release", "read",
	       "write", "ioctl", "poll", "BAD", "BY");
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
		printf("%-16s %-12s %-12s %5lu %6lu %8llu %8llu %8llu %8llu %8llu %8llu %4llu %s\n",
		       de->d_name, drv, bdf, strtoul(open_count, NULL, 10),
		       strtoul(link, NULL, 10), c[0], c[1], c[2], c[3], c[4],
		       c[5], c[6], by);
		rows++;
	}
	closedir(dir);
	if (!rows)
		printf("(no drivers attached)\n");
	print_exits();
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

static int cmd_status(int argc, char **argv)
{
	char why[512], pin[sizeof(PIN_DIR) + BPFDRV_NAME_MAX + 1], how[PATH_MAX];
	struct exit_rec r;
	bool has_exit;
	unsigned int link_id, updates;
	int n;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr, "usage: bpfdrv status NAME\n"
			"  Whether driver NAME is attached, its devices, and its last exit\n"
			"  (unload, error, protocol, removed) with the reason.\n");
		return argc == 2 ? 0 : 2;
	}
	if (check_module())
		return 1;
	if (!name_valid(argv[1])) {
		err("invalid driver name '%s'", argv[1]);
		return 1;
	}
	snprintf(pin, sizeof(pin), PIN_DIR "/%s", argv[1]);
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
		"  trace [-l] [-g GROUPS] [-- CMD] trace the NPU, DRM and bpfdrv drivers\n"
		"  new NAME [--pci V:D|--gpio CHIP:LINE] [-o DIR]\n"
		"                                  write a driver skeleton, a Makefile and a test\n"
		"  autoload match|add|remove|boot|stop\n"
		"                                  attach installed drivers on device match\n"
		"                                  (udev) and at boot (bpfdrv.service)\n"
		"  -v  verbose (libbpf debug output)   -h  this help   -V  version\n");
}

int main(int argc, char **argv)
{
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
	libbpf_set_print(libbpf_print);

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
