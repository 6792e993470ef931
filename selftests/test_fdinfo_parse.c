// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace --top's reader of DRM fdinfo (user/trace/fdinfo.c) against
 * what a driver may write: the keys of Documentation/gpu/drm-usage-stats.rst
 * read exactly, and malformed ones (lines past the reader's buffer, units
 * it does not name or none, numbers past the range, negative ones, CRLF,
 * keys without a value) left out, never misread; then random files, which
 * must leave the counters in range.
 *
 *   test_fdinfo_parse [ROUNDS]
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../user/trace/fdinfo.h"

static int parse(const char *text, struct trace_drm_client *c)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int drm;

	memset(c, 0, sizeof(*c));
	if (!f)
		return -1;
	drm = trace_drm_client_read(f, c);
	fclose(f);
	return drm;
}

/* a line of @len bytes: @len - 1 'x's and a newline, with @tail at its end */
static char *long_line(size_t len, const char *tail)
{
	char *s = malloc(len + 1);
	size_t t = strlen(tail);

	memset(s, 'x', len - 1);
	memcpy(s + len - 1 - t, tail, t);
	s[len - 1] = '\n';
	s[len] = '\0';
	return s;
}

static void known(void)
{
	struct trace_drm_client c;
	char text[2048], *l;
	int drm;

	drm = parse("pos:\t0\nflags:\t02\ndrm-driver:\taccel_probe\n"
		    "drm-client-id:\t42\ndrm-engine-ring0:\t1500 ns\n"
		    "drm-engine-ring1:\t500 ns\ndrm-engine-capacity-ring0:\t4\n"
		    "drm-total-memory:\t12 KiB\ndrm-total-vram:\t2 MiB\n"
		    "drm-shared-memory:\t4 KiB\n", &c);
	ok(drm == 1 && !strcmp(c.driver, "accel_probe") && c.id == 42 &&
	   c.engine_ns == 2000 && c.engines == 2 && c.memory == (12 << 10) + (2 << 20),
	   "the document's keys: driver, client, 2 engines (2000 ns), 2 totals (%lld bytes)",
	   c.memory);

	ok(parse("pos:\t0\nflags:\t02\n", &c) == 0 && parse("", &c) == 0,
	   "a file without drm-driver, and an empty one, are no DRM client's");

	drm = parse("drm-driver: accel\r\ndrm-engine-a: 7 ns\r\ndrm-total-memory: 3 KiB\r\n", &c);
	ok(drm && !strcmp(c.driver, "accel") && c.engine_ns == 7 && c.memory == 3072,
	   "CRLF line ends: the name without its CR, the values read (%lld, %lld)",
	   c.engine_ns, c.memory);

	drm = parse("drm-driver: a-driver-name-longer-than-the-field-of-thirty-one\n", &c);
	ok(drm && strlen(c.driver) == sizeof(c.driver) - 1,
	   "a driver name past its field: cut at %zu bytes", sizeof(c.driver) - 1);

	/* a key past the reader's 256-byte buffer: its rest is no line */
	l = long_line(1000, "drm-engine-x: 5 ns");
	snprintf(text, sizeof(text), "drm-driver: d\n%sdrm-engine-y: 9 ns\n", l);
	free(l);
	drm = parse(text, &c);
	ok(drm && c.engine_ns == 9 && c.engines == 1,
	   "the rest of a 1000-byte line is not read as a key (%lld ns, %d engines)",
	   c.engine_ns, c.engines);
	l = long_line(256, "");
	snprintf(text, sizeof(text), "drm-driver: d\n%sdrm-engine-y: 9 ns\n", l);
	free(l);
	drm = parse(text, &c);
	ok(drm && c.engine_ns == 9 && c.engines == 1,
	   "a line of exactly the buffer's size, then a key: read (%lld ns)", c.engine_ns);
	l = long_line(300, "");
	memcpy(l, "drm-engine-z:", 13);
	snprintf(text, sizeof(text), "drm-driver: d\n%s", l);
	free(l);
	drm = parse(text, &c);
	ok(drm && c.engines == 0,
	   "an engine whose value runs past the buffer is left out (%d engines)", c.engines);

	drm = parse("drm-driver: d\ndrm-engine-a: 500\ndrm-engine-b: 5 us\n"
		    "drm-engine-c: ns\ndrm-engine-d: -5 ns\ndrm-engine-e: 5nsx\n"
		    "drm-engine-f:\ndrm-engine-g: 0x10 ns\ndrm-engine-h: 6 ns\n", &c);
	ok(drm && c.engine_ns == 6 && c.engines == 1,
	   "engines without ns, with another unit, no number, a negative or a hex one: left out (%lld, %d)",
	   c.engine_ns, c.engines);

	drm = parse("drm-driver: d\ndrm-total-a: 5 TiB\ndrm-total-b: 5 KiBs\n"
		    "drm-total-c: -1 KiB\ndrm-total-d: KiB\ndrm-total-e: 8\n", &c);
	ok(drm && c.memory == 8,
	   "totals in a unit the document does not name, negative or without a number: left out (%lld)",
	   c.memory);
	drm = parse("drm-driver: d\ndrm-total-a: 5 TiB\n", &c);
	ok(drm && c.memory == -1, "no total read: memory not given (-1)");

	drm = parse("drm-driver: d\ndrm-engine-a: 99999999999999999999999 ns\n"
		    "drm-total-a: 18446744073709551615\n"
		    "drm-total-b: 9223372036854775807 KiB\n", &c);
	ok(drm && c.engines == 0 && c.memory == -1,
	   "numbers past the range (u64 overflow, a total that overflows in bytes): left out");
	drm = parse("drm-driver: d\ndrm-engine-a: 9223372036854775807 ns\n"
		    "drm-engine-b: 9223372036854775807 ns\ndrm-total-a: 8589934591 GiB\n"
		    "drm-total-b: 8589934591 GiB\n", &c);
	ok(drm && c.engine_ns == LLONG_MAX && c.memory == LLONG_MAX,
	   "sums past the range stop at its end (%lld, %lld)", c.engine_ns, c.memory);
}

/* Random files of printable and control bytes, keys from the document */
static void random_files(int rounds)
{
	static const char *const keys[] = {
		"drm-driver:", "drm-client-id:", "drm-engine-r:", "drm-total-m:",
		"drm-engine-capacity-r:", " ns", " KiB", " MiB", "\n", ":", "\r",
		"9999999999999999999", "-", "18446744073709551616",
	};
	struct trace_drm_client c;
	int i, bad = 0, clients = 0;
	char text[1024];
	size_t n, k;

	srand(1);
	for (i = 0; i < rounds; i++) {
		n = 0;
		while (n < sizeof(text) - 32) {
			if (rand() % 3) {
				k = rand() % (sizeof(keys) / sizeof(keys[0]));
				memcpy(text + n, keys[k], strlen(keys[k]));
				n += strlen(keys[k]);
			} else {
				text[n++] = 1 + rand() % 255;
			}
			if (!(rand() % 64))
				break;
		}
		text[n] = '\0';
		clients += parse(text, &c) == 1;
		if (c.engine_ns < 0 || c.engines < 0 || c.memory < -1 ||
		    memchr(c.driver, '\0', sizeof(c.driver)) == NULL)
			bad++;
	}
	ok(!bad, "%d random files (%d with drm-driver): counters in range, names terminated (%d bad)",
	   rounds, clients, bad);
}

int main(int argc, char **argv)
{
	known();
	random_files(argc > 1 ? atoi(argv[1]) : 20000);
	return tap_failures ? 1 : 0;
}
