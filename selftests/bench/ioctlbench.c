// SPDX-License-Identifier: GPL-2.0
/*
 * ioctlbench: the per-call cost of one system call in a tight loop, for
 * make bench's tracing section (the same loop untraced, under bpfdrv trace
 * and under bpftrace).
 *
 *   ioctlbench [-d SECONDS] [-t TRACER] [-r REP] drm_version CARD
 *   ioctlbench [-d SECONDS] [-t TRACER] [-r REP] echo_read1 ECHO_DEV
 *   ioctlbench [-d SECONDS] [-t TRACER] [-r REP] accel_job ACCEL_NODE
 *
 * drm_version: DRM_IOCTL_VERSION with empty buffers (drm_ioctl, and nothing
 * copied). echo_read1: a 1-byte read of a bpfdrv echo device, whose ring is
 * refilled, untimed, before it runs dry. accel_job: a job of one factorial
 * on edu_accel's node, submitted and waited for on its fence (the DRM
 * scheduler's path, and the device's interrupt: what -g iommu sees; a
 * factorial maps no buffer for the device). Calls are timed in batches of
 * BATCH with clock_gettime(); the figure is the median over the batches
 * of the batch's time per call (a batch in which the host took the vCPU
 * away is an outlier the median discards), the median cost of an empty
 * timing pair subtracted. Output: one JSON line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <drm/drm.h>

#include "accel_job.h"
#include "bpfdrv_echo.h"

#define BATCH		64
#define ACCEL_BATCH	8	/* jobs: hundreds of microseconds each */
#define MAX_BATCHES	(1 << 18)
#define ECHO_CHUNK	4096

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t timer_cost(void)
{
	static uint64_t s[10001];
	int i;

	for (i = 0; i < 10001; i++) {
		uint64_t t0 = now_ns();

		s[i] = now_ns() - t0;
	}
	qsort(s, 10001, sizeof(s[0]), cmp_u64);
	return s[5000];
}

/* Fill the echo ring; returns the bytes it now holds, -1 on an error. */
static long echo_refill(int fd)
{
	static char buf[ECHO_CHUNK];
	long held = 0;
	ssize_t n;

	if (ioctl(fd, ECHO_IOC_CLEAR))
		return -1;
	memset(buf, 'x', sizeof(buf));
	for (;;) {
		n = write(fd, buf, sizeof(buf));
		if (n < 0)
			return errno == ENOSPC ? held : -1;
		held += n;
		if (n < (ssize_t)sizeof(buf))
			return held;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: ioctlbench [-d SECONDS] [-t TRACER] [-r REP] "
		"drm_version CARD | echo_read1 ECHO_DEV | accel_job ACCEL_NODE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static uint64_t batch_ns[MAX_BATCHES];
	const char *tracer = "none", *wl, *path;
	uint64_t cost, end, t0, t1, busy = 0, calls = 0;
	struct accel_edu accel = { .fd = -1 };
	double secs = 0.5;
	long held = 0;
	int opt, rep = 0, fd = -1, i, nb = 0, batch = BATCH;
	char c;

	while ((opt = getopt(argc, argv, "d:t:r:")) != -1) {
		switch (opt) {
		case 'd':
			secs = atof(optarg);
			if (secs <= 0 || secs > 60)
				usage();
			break;
		case 't':
			tracer = optarg;
			break;
		case 'r':
			rep = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	wl = argv[optind];
	path = argv[optind + 1];
	if (strcmp(wl, "drm_version") && strcmp(wl, "echo_read1") &&
	    strcmp(wl, "accel_job"))
		usage();
	if (wl[0] == 'a') {
		batch = ACCEL_BATCH;
		if (accel_open(path, &accel)) {
			fprintf(stderr, "ioctlbench: %s: %s\n", path, strerror(errno));
			return 1;
		}
	} else {
		fd = open(path, O_RDWR);
	}
	if (wl[0] != 'a' && fd < 0) {
		fprintf(stderr, "ioctlbench: %s: %s\n", path, strerror(errno));
		return 1;
	}
	cost = timer_cost();
	end = now_ns() + (uint64_t)(secs * 1e9);
	for (t1 = 0; t1 < end && nb < MAX_BATCHES;) {
		if (wl[0] == 'e' && held < BATCH) {	/* untimed */
			held = echo_refill(fd);
			if (held < BATCH) {
				fprintf(stderr, "ioctlbench: refilling %s: %s\n",
					path, held < 0 ? strerror(errno) : "ring too small");
				return 1;
			}
		}
		errno = 0;
		t0 = now_ns();
		if (wl[0] == 'd') {
			for (i = 0; i < BATCH; i++) {
				struct drm_version v = { 0 };

				if (ioctl(fd, DRM_IOCTL_VERSION, &v))
					break;
			}
		} else if (wl[0] == 'a') {
			for (i = 0; i < ACCEL_BATCH; i++)
				if (accel_fact(&accel))
					break;
		} else {
			for (i = 0; i < BATCH; i++)
				if (read(fd, &c, 1) != 1)
					break;
		}
		t1 = now_ns();
		if (i < batch) {
			fprintf(stderr, "ioctlbench: %s on %s: %s\n", wl, path,
				errno ? strerror(errno) : "short read");
			return 1;
		}
		held -= batch;
		batch_ns[nb++] = t1 - t0 > cost ? t1 - t0 - cost : 0;
		busy += t1 - t0;
		calls += batch;
	}
	accel_close(&accel);
	qsort(batch_ns, nb, sizeof(batch_ns[0]), cmp_u64);
	printf("{\"bench\": \"trace\", \"workload\": \"%s\", \"tracer\": \"%s\", "
	       "\"rep\": %d, \"calls\": %llu, \"ns_per_call\": %.1f, "
	       "\"mean_ns_per_call\": %.1f, \"timer_cost_ns\": %llu}\n",
	       wl, tracer, rep, (unsigned long long)calls,
	       (double)batch_ns[nb / 2] / batch, (double)busy / calls,
	       (unsigned long long)cost);
	return 0;
}
