// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_printk format race: fmt_race.bpf.o prints a kernel address
 * (linux_banner's) through a format in its .data, which the loader maps
 * writable. One thread flips the format's conversion between %d and %s
 * while this one reads (each read prints once), for SECONDS per helper
 * (trace_printk, then trace_vprintk). bpfdrv checks a copy of the format
 * and formats that copy, so every print is a number or refused: the
 * trace must never show the banner.
 *
 *   test_fmt_race OBJ SECONDS
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "datasec.h"
#include "tap.h"

#define TRACE_DIR	"/sys/kernel/tracing/"
#define TRACE		TRACE_DIR "trace"
#define NODE	"/dev/bpfdrv/fmt_race"

static char *conversion;
static bool stop;
static unsigned long flips;

/* each store reaches the map, where the helper reads the format */
static void *flipper(void *arg)
{
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		__atomic_store_n(conversion, 's', __ATOMIC_RELAXED);
		__atomic_store_n(conversion, 'd', __ATOMIC_RELAXED);
		flips++;
	}
	return NULL;
}

/* The address of kernel symbol @name, or 0 if hidden or absent. */
static unsigned long long ksym(const char *name)
{
	unsigned long long addr = 0, a;
	char line[256], sym[128], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &a, &type, sym) == 3 &&
		    !strcmp(sym, name)) {
			addr = a;
			break;
		}
	if (f)
		fclose(f);
	return addr;
}

/* Counts the trace's fmt_race lines, those showing kernel memory, others. */
static void scan_trace(unsigned long *lines, unsigned long *leaks,
		       unsigned long *odd)
{
	FILE *trace = fopen(TRACE, "r");
	char line[512];

	while (trace && fgets(line, sizeof(line), trace)) {
		char *p = strstr(line, "fmt_race ");

		if (!p)
			continue;
		(*lines)++;
		p += strlen("fmt_race ");
		if (strstr(p, "Linux version"))
			(*leaks)++;
		else if (strspn(p, "-0123456789") != strcspn(p, "\n"))
			(*odd)++;
	}
	if (trace)
		fclose(trace);
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd >= 0 && write(fd, s, strlen(s)) < 0)
		perror(path);
	if (fd >= 0)
		close(fd);
}

/*
 * The trace buffer's size per CPU, as text: "7 (expanded: 1408)" before
 * tracing first ran means 1408, which a later tracer gets, not 7.
 */
static void buffer_size(const char *path, char *buf, size_t size)
{
	char now[32], expanded[32];
	FILE *f = fopen(path, "r");
	int n = f ? fscanf(f, "%31[0-9] (expanded: %31[0-9]", now, expanded) : 0;

	snprintf(buf, size, "%s", n == 2 ? expanded : n == 1 ? now : "1408");
	if (f)
		fclose(f);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const char *const helper[] = { "trace_printk", "trace_vprintk" };
	unsigned long printed[2] = {}, refused[2] = {}, other = 0;
	unsigned long lines[2] = {}, leaks[2] = {}, odd[2] = {};
	unsigned long long *value;
	struct bpf_object *obj;
	struct bpf_link *link;
	char *fmt, old_size[32] = "1408";
	pthread_t thread;
	__u32 *mode;
	int fd, m, i;
	double end;

	if (argc != 3) {
		fprintf(stderr, "usage: test_fmt_race OBJ SECONDS\n");
		return 2;
	}
	libbpf_set_print(NULL);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!ok(obj && !bpf_object__load(obj), "fmt_race: %s loads", argv[1]))
		return 1;
	fmt = datasec_var(obj, ".data", "fmt");
	value = datasec_var(obj, ".data", "value");
	mode = datasec_var(obj, ".data", "mode");
	if (!ok(fmt && value && mode, "fmt_race: its .data is mapped"))
		return 1;
	*value = ksym("linux_banner");
	if (!*value) {
		printf("# skip: fmt_race: linux_banner's address is hidden (/proc/kallsyms)\n");
		return 0;
	}
	conversion = strchr(fmt, '%') + 1;
	link = bpf_map__attach_struct_ops(bpf_object__find_map_by_name(obj, "fmt_race"));
	if (!ok(link, "fmt_race: attached"))
		return 1;
	for (i = 0; i < 40 && access(NODE, F_OK); i++)
		usleep(50000);
	fd = open(NODE, O_RDONLY);
	if (!ok(fd >= 0, "fmt_race: %s opens", NODE))
		return 1;
	/* room for a few 10,000 lines per CPU: each helper's last ones */
	buffer_size(TRACE_DIR "buffer_size_kb", old_size, sizeof(old_size));
	write_file(TRACE_DIR "buffer_size_kb", "2048");
	pthread_create(&thread, NULL, flipper, NULL);
	for (m = 0; m < 2; m++) {
		*mode = m;
		write_file(TRACE, "");
		for (end = now() + atof(argv[2]) / 2; now() < end; ) {
			for (i = 0; i < 64; i++) {
				char c;

				if (read(fd, &c, 1) == 0)
					printed[m]++;
				else if (errno == EINVAL)
					refused[m]++;
				else
					other++;
			}
		}
		scan_trace(&lines[m], &leaks[m], &odd[m]);
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	close(fd);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	write_file(TRACE, "");
	write_file(TRACE_DIR "buffer_size_kb", old_size);

	for (m = 0; m < 2; m++) {
		ok(printed[m] > 0, "fmt_race: %s printed %lu times", helper[m],
		   printed[m]);
		ok(refused[m] > 0, "fmt_race: %s refused the flipped format %lu times",
		   helper[m], refused[m]);
	}
	for (m = 0; m < 2; m++)
		ok(lines[m] > 0 && !leaks[m] && !odd[m],
		   "fmt_race: %s: the trace's last %lu lines are numbers (kernel memory %lu, other text %lu)",
		   helper[m], lines[m], leaks[m], odd[m]);
	ok(!other, "fmt_race: no read failed otherwise (%lu; %lu flips in %s s)",
	   other, flips, argv[2]);
	return tap_failures ? 1 : 0;
}
