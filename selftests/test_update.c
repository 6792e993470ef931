// SPDX-License-Identifier: GPL-2.0
/*
 * Live-update storm: 8 processes keep reading, writing, polling and calling
 * ioctls on echo and fifo (two fifo readers block in read) while the two
 * drivers are updated back and forth between two versions. Then:
 *
 * - no syscall failed (EAGAIN/ENOSPC where the drivers give them are not
 *   failures, nor a blocked read interrupted to end the run);
 * - every fifo record was read exactly once, every echo record in order;
 * - every process saw both versions of the code (their version ioctls).
 *
 *   test_update version DEV          print the driver's version
 *   test_update storm ECHO FIFO N CMD1 CMD2
 *       run CMD1 and CMD2 (shell commands that update both drivers to
 *       version 2 and back to 1) alternately until N updates are done
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpfdrv_echo.h"
#include "bpfdrv_fifo.h"
#include "tap.h"

#define WORKERS		8
#define REC		8		/* bytes per record: writer << 56 | seq */
#define BATCH		8		/* records per read or write */
#define MAX_SEQ		(1U << 23)	/* records per writer, at most */
#define WRITE_PAUSE_US	100		/* between batches: the run lasts */
#define FIFO_WRITERS	2
#define ECHO_WRITER	2		/* its writer id */

enum role { FIFO_W0, FIFO_W1, FIFO_R_BLOCK, FIFO_R_POLL, ECHO_W, ECHO_R,
	    ECHO_IOCTL, FIFO_POLL };

static const char *const role_names[WORKERS] = {
	"fifo writer 0", "fifo writer 1", "fifo blocked reader",
	"fifo polling reader", "echo writer", "echo reader", "echo ioctl",
	"fifo poll+ioctl",
};

struct worker {
	uint64_t calls, failed, written, read;
	uint32_t versions;	/* bit v: saw version v */
	uint32_t switches;	/* version changes seen */
	uint32_t last_version;
	uint32_t bad_order;	/* records out of order or unknown */
	pid_t pid;
	char first_error[96];
};

struct shared {
	volatile int stop_writing, stop_reading;
	struct worker w[WORKERS];
	uint64_t fifo_read_total;
	uint8_t seen[FIFO_WRITERS][MAX_SEQ / 8];	/* fifo records read */
	uint32_t dups;
};

static struct shared *sh;
static const char *echo_dev, *fifo_dev;

static void fail_call(struct worker *w, const char *what)
{
	if (!w->failed++)
		snprintf(w->first_error, sizeof(w->first_error), "%s: %s", what,
			 strerror(errno));
}

static void note_version(struct worker *w, int fd, unsigned long cmd)
{
	uint32_t v = 0;

	w->calls++;
	if (ioctl(fd, cmd, &v)) {
		fail_call(w, "version ioctl");
		return;
	}
	if (v < 32)
		w->versions |= 1U << v;
	if (w->last_version && v != w->last_version)
		w->switches++;
	w->last_version = v;
}

static void on_usr1(int sig)
{
}

/* Write records of writer @id until told to stop; blocking unless @echo. */
static void writer(struct worker *w, int fd, int id, bool echo)
{
	uint64_t buf[BATCH], seq = 0;
	size_t off;
	int i;

	while (!sh->stop_writing && seq + BATCH <= MAX_SEQ) {
		for (i = 0; i < BATCH; i++)
			buf[i] = (uint64_t)id << 56 | (seq + i);
		for (off = 0; off < sizeof(buf);) {
			ssize_t n = write(fd, (char *)buf + off, sizeof(buf) - off);

			w->calls++;
			if (n > 0) {
				off += n;
			} else if (echo && n < 0 && errno == ENOSPC) {
				usleep(200);	/* full: the reader makes room */
			} else {
				fail_call(w, "write");
				return;
			}
		}
		seq += BATCH;
		w->written += BATCH;
		usleep(WRITE_PAUSE_US);
		if (!(seq % (BATCH * 32)))
			note_version(w, fd, echo ? ECHO_IOC_VERSION : FIFO_IOC_VERSION);
	}
	note_version(w, fd, echo ? ECHO_IOC_VERSION : FIFO_IOC_VERSION);
}

/* Check and mark one record read from the fifo. */
static void fifo_record(struct worker *w, uint64_t rec, uint64_t *last)
{
	unsigned int id = rec >> 56;
	uint64_t seq = rec & ((1ULL << 56) - 1);

	if (id >= FIFO_WRITERS || seq >= MAX_SEQ ||
	    (last[id] != UINT64_MAX && seq <= last[id])) {
		w->bad_order++;
		return;
	}
	last[id] = seq;
	if (__atomic_fetch_or(&sh->seen[id][seq / 8], 1 << (seq % 8),
			      __ATOMIC_RELAXED) & (1 << (seq % 8)))
		__atomic_fetch_add(&sh->dups, 1, __ATOMIC_RELAXED);
	w->read++;
	__atomic_fetch_add(&sh->fifo_read_total, 1, __ATOMIC_RELAXED);
}

static void fifo_reader(struct worker *w, int fd, bool use_poll)
{
	uint64_t last[FIFO_WRITERS] = { UINT64_MAX, UINT64_MAX };
	uint64_t buf[BATCH * 4];
	unsigned char partial[REC];
	size_t have = 0;
	unsigned long n_reads = 0;

	while (!sh->stop_reading) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n, i;

		if (use_poll) {
			w->calls++;
			if (poll(&pfd, 1, 100) < 0) {
				if (errno == EINTR && sh->stop_reading)
					break;
				fail_call(w, "poll");
				return;
			}
			if (!(pfd.revents & POLLIN))
				continue;
		}
		n = read(fd, buf, sizeof(buf));
		w->calls++;
		if (n < 0 && errno == EINTR && sh->stop_reading)
			break;
		if (n <= 0) {
			errno = n ? errno : EPIPE;
			fail_call(w, "read");
			return;
		}
		/* records may straddle reads; carry the partial one over */
		for (i = 0; i < n; i++) {
			partial[have++] = ((unsigned char *)buf)[i];
			if (have == REC) {
				uint64_t rec;

				memcpy(&rec, partial, REC);
				fifo_record(w, rec, last);
				have = 0;
			}
		}
		if (!(++n_reads % 64))
			note_version(w, fd, FIFO_IOC_VERSION);
	}
	note_version(w, fd, FIFO_IOC_VERSION);
}

/* The only echo reader: records come back in exactly the order written. */
static void echo_reader(struct worker *w, int fd)
{
	unsigned char buf[REC * BATCH * 4], partial[REC];
	uint64_t next = 0;
	size_t have = 0;
	unsigned long n_reads = 0;

	while (!sh->stop_reading) {
		ssize_t n = read(fd, buf, sizeof(buf)), i;

		w->calls++;
		if (n < 0) {
			fail_call(w, "read");
			return;
		}
		if (!n) {	/* empty: end of file for now */
			if (sh->stop_writing && w->read == sh->w[ECHO_W].written)
				break;
			usleep(200);
			continue;
		}
		for (i = 0; i < n; i++) {
			partial[have++] = buf[i];
			if (have == REC) {
				uint64_t rec;

				memcpy(&rec, partial, REC);
				if (rec != ((uint64_t)ECHO_WRITER << 56 | next))
					w->bad_order++;
				next++;
				w->read++;
				have = 0;
			}
		}
		if (!(++n_reads % 64))
			note_version(w, fd, ECHO_IOC_VERSION);
	}
	note_version(w, fd, ECHO_IOC_VERSION);
}

static void echo_ioctls(struct worker *w, int fd)
{
	struct echo_info info, prev = {};

	while (!sh->stop_reading) {
		w->calls++;
		if (ioctl(fd, ECHO_IOC_INFO, &info)) {
			fail_call(w, "ECHO_IOC_INFO");
			return;
		}
		if (info.stored > info.capacity ||
		    info.total_written < prev.total_written)
			w->bad_order++;
		prev = info;
		note_version(w, fd, ECHO_IOC_VERSION);
		usleep(100);
	}
}

static void fifo_polls(struct worker *w, int fd)
{
	while (!sh->stop_reading) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT };

		w->calls++;
		if (poll(&pfd, 1, 0) < 0 || (pfd.revents & (POLLERR | POLLHUP))) {
			fail_call(w, "poll");
			return;
		}
		note_version(w, fd, FIFO_IOC_VERSION);
		usleep(100);
	}
}

static void run_worker(int role)
{
	struct worker *w = &sh->w[role];
	bool echo = role == ECHO_W || role == ECHO_R || role == ECHO_IOCTL;
	int fd = open(echo ? echo_dev : fifo_dev, O_RDWR);

	if (fd < 0) {
		fail_call(w, "open");
		_exit(1);
	}
	switch (role) {
	case FIFO_W0:
	case FIFO_W1:
		writer(w, fd, role, false);
		break;
	case FIFO_R_BLOCK:
	case FIFO_R_POLL:
		fifo_reader(w, fd, role == FIFO_R_POLL);
		break;
	case ECHO_W:
		writer(w, fd, ECHO_WRITER, true);
		break;
	case ECHO_R:
		echo_reader(w, fd);
		break;
	case ECHO_IOCTL:
		echo_ioctls(w, fd);
		break;
	case FIFO_POLL:
		fifo_polls(w, fd);
		break;
	}
	w->calls++;
	if (close(fd))
		fail_call(w, "close");
	_exit(0);
}

/* Run @cmd; add its "in X ms" update latencies to @ms. */
static int run_update(const char *cmd, double *ms, int *nms, int max)
{
	char line[512];
	FILE *p = popen(cmd, "r");
	int status;

	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *in = strstr(line, " in ");
		double v;

		if (in && strstr(line, "updated") && sscanf(in, " in %lf ms", &v) == 1 &&
		    *nms < max)
			ms[(*nms)++] = v;
	}
	status = pclose(p);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int storm(int updates, const char *to_v2, const char *to_v1)
{
	static double ms[4096];
	struct sigaction sa = { .sa_handler = on_usr1 };
	uint64_t calls = 0, failed = 0, fifo_written = 0, missing = 0;
	uint32_t min_switches = UINT32_MAX;
	int i, nms = 0, done, bad_updates = 0;
	bool all_versions = true;
	uint64_t seq;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: a blocked read returns */
	for (i = 0; i < WORKERS; i++) {
		pid_t pid = fork();

		if (!pid)
			run_worker(i);
		sh->w[i].pid = pid;
	}

	for (done = 0; done < updates; done++)
		if (run_update(done % 2 ? to_v1 : to_v2, ms, &nms, 4096))
			bad_updates++;
	/* end on version 1 with an odd count: the last command was to_v2 */
	sh->stop_writing = 1;
	waitpid(sh->w[FIFO_W0].pid, NULL, 0);
	waitpid(sh->w[FIFO_W1].pid, NULL, 0);
	waitpid(sh->w[ECHO_W].pid, NULL, 0);
	fifo_written = sh->w[FIFO_W0].written + sh->w[FIFO_W1].written;
	/* let the readers drain, then wake the blocked one */
	for (i = 0; i < 3000 && __atomic_load_n(&sh->fifo_read_total,
						 __ATOMIC_RELAXED) < fifo_written; i++)
		usleep(10000);
	for (i = 0; i < 3000 && sh->w[ECHO_R].read < sh->w[ECHO_W].written; i++)
		usleep(10000);
	sh->stop_reading = 1;
	for (i = 0; i < WORKERS; i++)
		kill(sh->w[i].pid, SIGUSR1);
	for (i = 0; i < WORKERS; i++)
		waitpid(sh->w[i].pid, NULL, 0);

	for (i = 0; i < WORKERS; i++) {
		struct worker *w = &sh->w[i];

		calls += w->calls;
		failed += w->failed;
		if (w->failed)
			printf("# %s: %lu failed calls, the first %s\n", role_names[i],
			       (unsigned long)w->failed, w->first_error);
		if ((w->versions & 6) != 6)
			all_versions = false;
		if (w->switches < min_switches)
			min_switches = w->switches;
		printf("# %-20s %8lu calls, versions seen %#x, %u switches seen\n",
		       role_names[i], (unsigned long)w->calls, w->versions,
		       w->switches);
	}
	for (i = 0; i < FIFO_WRITERS; i++)
		for (seq = 0; seq < sh->w[i].written; seq++)
			if (!(sh->seen[i][seq / 8] & (1 << (seq % 8))))
				missing++;

	qsort(ms, nms, sizeof(ms[0]), cmp_double);
	if (nms)
		printf("# link update latency over %d updates: median %.3f ms, max %.3f ms\n",
		       nms, ms[nms / 2], ms[nms - 1]);
	tap_check(!bad_updates, "storm: %d update commands ran, all succeeded (%d failed)",
		  updates, bad_updates);
	tap_check(!failed, "storm: no failed syscall among %lu in %d processes",
		  (unsigned long)calls, WORKERS);
	tap_check(!missing && !sh->dups && !sh->w[FIFO_R_BLOCK].bad_order &&
		  !sh->w[FIFO_R_POLL].bad_order &&
		  sh->fifo_read_total == fifo_written,
		  "fifo: %lu records from 2 writers read exactly once by 2 readers (%lu missing, %u twice, %u out of order)",
		  (unsigned long)fifo_written, (unsigned long)missing, sh->dups,
		  sh->w[FIFO_R_BLOCK].bad_order + sh->w[FIFO_R_POLL].bad_order);
	tap_check(sh->w[FIFO_R_BLOCK].read && sh->w[FIFO_R_POLL].read,
		  "fifo: both readers got records (blocked: %lu, polling: %lu)",
		  (unsigned long)sh->w[FIFO_R_BLOCK].read,
		  (unsigned long)sh->w[FIFO_R_POLL].read);
	tap_check(sh->w[ECHO_R].read == sh->w[ECHO_W].written &&
		  !sh->w[ECHO_R].bad_order && !sh->w[ECHO_IOCTL].bad_order,
		  "echo: %lu records read back in order (%lu read, %u out of order, %u bad infos)",
		  (unsigned long)sh->w[ECHO_W].written,
		  (unsigned long)sh->w[ECHO_R].read, sh->w[ECHO_R].bad_order,
		  sh->w[ECHO_IOCTL].bad_order);
	tap_check(all_versions && min_switches >= 2,
		  "every process saw versions 1 and 2 (fewest switches seen: %u)",
		  min_switches);
	return tap_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "version")) {
		int fd = open(argv[2], O_RDWR);
		unsigned long cmd = strstr(argv[2], "fifo") ? FIFO_IOC_VERSION :
				    strstr(argv[2], "edu") ? _IOR('e', 6, uint32_t) :
				    ECHO_IOC_VERSION;
		uint32_t v;

		if (fd < 0 || ioctl(fd, cmd, &v)) {
			perror(argv[2]);
			return 1;
		}
		printf("%u\n", v);
		return 0;
	}
	if (argc == 7 && !strcmp(argv[1], "storm")) {
		echo_dev = argv[2];
		fifo_dev = argv[3];
		return storm(atoi(argv[4]), argv[5], argv[6]);
	}
	fprintf(stderr, "usage: %s version DEV | storm ECHO FIFO N CMD1 CMD2\n",
		argv[0]);
	return 2;
}
