// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * test_edu: drive an edu device node through the interface of
 * include/bpfdrv_edu.h, so the same checks run against the BPF driver
 * (/dev/bpfdrv/edu<N>) and the reference C driver (/dev/edu_ref<N>).
 *
 *   test_edu facts NODE          print "n n!" for n = 0..12, one per line
 *   test_edu fact NODE N         print N! (N as given, for error tests)
 *   test_edu dma NODE            4096-byte DMA round trips, two patterns
 *   test_edu dmafresh NODE       the same from and into memory whose pages
 *                                are not mapped yet (a file mapping, fresh
 *                                anonymous memory)
 *   test_edu liveness NODE V     print what the liveness register returns
 *   test_edu info NODE           print the identification and DMA address
 *   test_edu regread NODE OFF SIZE
 *   test_edu regwrite NODE OFF SIZE VAL
 *   test_edu nonblock NODE       EAGAIN and poll while another file owns it
 *   test_edu dmaread NODE LEN    the device's buffer's first LEN bytes, by
 *                                DMA, to standard output
 *   test_edu dmafill NODE LEN B  the device's buffer's first LEN bytes set
 *                                to B, by DMA
 *   test_edu stream NODE SECONDS factorials for SECONDS: prints "right R
 *                                eio E wrong W other O"; EIO is a reset's
 *   test_edu pmstream NODE SECONDS
 *                                the same in bursts with idle gaps of 0 to
 *                                500 ms, so that a device with runtime PM
 *                                suspends and resumes between them
 *   test_edu pm NODE             print "suspends S resumes R hist H
 *                                quiesced_calls Q" (EDU_IOC_PM; H in hex,
 *                                the newest last)
 *   test_edu pmfail NODE SUSPEND_RET RESUME_RET RESUME_MS
 *                                what the next suspends and resumes do
 *                                (edu_pm.bpf.o only)
 *
 * Errors print "error: <errno name>: <what>" and exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bpfdrv_edu.h"

static int fail(const char *what)
{
	int e = errno;

	printf("error: %s: %s\n", e == ERANGE ? "ERANGE" : e == EINVAL ? "EINVAL" :
	       e == EPERM ? "EPERM" : e == EBUSY ? "EBUSY" : e == ENODEV ? "ENODEV" :
	       e == EAGAIN ? "EAGAIN" : e == ENXIO ? "ENXIO" : strerror(e), what);
	return 1;
}

static int open_node(const char *node, int flags)
{
	int fd = open(node, O_RDWR | flags);

	if (fd < 0)
		exit(fail(node));
	return fd;
}

/* Write n as text, read the factorial back; 0 or -1 with errno set. */
static int factorial(int fd, const char *n, unsigned long *result)
{
	char buf[32];
	ssize_t len;

	if (write(fd, n, strlen(n)) != (ssize_t)strlen(n))
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	if (len <= 0) {
		if (!len)
			errno = ENODATA;
		return -1;
	}
	buf[len] = '\0';
	*result = strtoul(buf, NULL, 10);
	return 0;
}

static int cmd_facts(const char *node)
{
	unsigned long r;
	char n[8];
	int fd = open_node(node, 0), i;

	for (i = 0; i <= 12; i++) {
		snprintf(n, sizeof(n), "%d\n", i);
		if (factorial(fd, n, &r))
			return fail("factorial");
		printf("%d %lu\n", i, r);
	}
	return 0;
}

static int cmd_fact(const char *node, const char *n)
{
	unsigned long r;
	int fd = open_node(node, 0);

	if (factorial(fd, n, &r))
		return fail("factorial");
	printf("%lu\n", r);
	return 0;
}

/*
 * Two DMA round trips of EDU_DMA_SIZE bytes with two patterns, so a transfer
 * that moves nothing cannot pass. @fresh: from a file mapping and into
 * anonymous memory, neither of whose pages this process has mapped yet.
 */
static int cmd_dma(const char *node, bool fresh)
{
	static unsigned char pattern[EDU_DMA_SIZE], in_buf[EDU_DMA_SIZE];
	unsigned char *out = pattern, *in = in_buf;
	__u32 mode = EDU_MODE_DMA;
	int fd = open_node(node, 0), round, i, mfd = -1;

	if (ioctl(fd, EDU_IOC_SET_MODE, &mode))
		return fail("EDU_IOC_SET_MODE");
	for (round = 0; round < 2; round++) {
		for (i = 0; i < EDU_DMA_SIZE; i++)
			pattern[i] = round ? 255 - (i * 7 + 3) % 251 : (i * 13 + 1) % 253;
		if (fresh) {
			/* page cache holds the data; no page of it is mapped */
			mfd = memfd_create("edu", 0);
			if (mfd < 0 ||
			    write(mfd, pattern, sizeof(pattern)) != sizeof(pattern))
				return fail("memfd");
			out = mmap(NULL, EDU_DMA_SIZE, PROT_READ, MAP_SHARED, mfd, 0);
			in = mmap(NULL, EDU_DMA_SIZE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (out == MAP_FAILED || in == MAP_FAILED)
				return fail("mmap");
		} else {
			memset(in, 0, EDU_DMA_SIZE);
		}
		if (write(fd, out, EDU_DMA_SIZE) != EDU_DMA_SIZE)
			return fail("DMA write");
		if (read(fd, in, EDU_DMA_SIZE) != EDU_DMA_SIZE)
			return fail("DMA read");
		if (memcmp(in, pattern, EDU_DMA_SIZE)) {
			for (i = 0; in[i] == pattern[i]; i++)
				;
			printf("mismatch in round %d at byte %d: %u != %u\n", round,
			       i, in[i], pattern[i]);
			return 1;
		}
		if (fresh) {
			munmap(out, EDU_DMA_SIZE);
			munmap(in, EDU_DMA_SIZE);
			close(mfd);
		}
	}
	printf("ok %d bytes x 2%s\n", EDU_DMA_SIZE, fresh ? ", fresh pages" : "");
	return 0;
}

static int cmd_liveness(const char *node, const char *v)
{
	__u32 val = strtoul(v, NULL, 0);
	int fd = open_node(node, 0);

	if (ioctl(fd, EDU_IOC_LIVENESS, &val))
		return fail("EDU_IOC_LIVENESS");
	printf("0x%08x\n", val);
	return 0;
}

static int cmd_info(const char *node)
{
	struct edu_info info;
	int fd = open_node(node, 0);

	if (ioctl(fd, EDU_IOC_INFO, &info))
		return fail("EDU_IOC_INFO");
	printf("id 0x%08x index %u dma 0x%llx bar %llu\n", info.id, info.index,
	       (unsigned long long)info.dma_addr, (unsigned long long)info.bar_len);
	return 0;
}

static int cmd_reg(const char *node, int argc, char **argv, bool write)
{
	struct edu_reg reg = {
		.off = strtoul(argv[0], NULL, 0),
		.size = strtoul(argv[1], NULL, 0),
	};
	int fd = open_node(node, 0);

	if (write) {
		if (argc < 3)
			return 2;
		reg.val = strtoull(argv[2], NULL, 0);
		if (ioctl(fd, EDU_IOC_REG_WRITE, &reg))
			return fail("EDU_IOC_REG_WRITE");
		return 0;
	}
	if (ioctl(fd, EDU_IOC_REG_READ, &reg))
		return fail("EDU_IOC_REG_READ");
	printf("0x%llx\n", (unsigned long long)reg.val);
	return 0;
}

/*
 * O_NONBLOCK and poll: while one file owns the factorial unit, another
 * file's write gives EAGAIN and poll says not writable; once the owner has
 * read its result, the other file may write, and poll reports its result.
 */
static int cmd_nonblock(const char *node)
{
	int owner = open_node(node, 0), other = open_node(node, O_NONBLOCK);
	struct pollfd pfd = { .fd = other, .events = POLLIN | POLLOUT };
	char buf[32];
	ssize_t n;

	if (write(owner, "12", 2) != 2)
		return fail("owner's write");
	n = write(other, "5", 1);
	if (n >= 0 || errno != EAGAIN) {
		printf("write while the unit is owned: %zd (want EAGAIN)\n", n);
		return 1;
	}
	if (poll(&pfd, 1, 0) != 0) {
		printf("poll while the unit is owned: revents 0x%x (want none)\n",
		       pfd.revents);
		return 1;
	}
	n = read(owner, buf, sizeof(buf) - 1);
	if (n <= 0)
		return fail("owner's read");
	if (poll(&pfd, 1, 5000) != 1 || pfd.revents != POLLOUT) {
		printf("poll after the owner's read: revents 0x%x (want POLLOUT)\n",
		       pfd.revents);
		return 1;
	}
	if (write(other, "5", 1) != 1)
		return fail("second write");
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1 || !(pfd.revents & POLLIN)) {
		printf("poll did not report the result\n");
		return 1;
	}
	n = read(other, buf + 16, 15);
	if (n <= 0)
		return fail("read after poll");
	buf[16 + n] = '\0';
	printf("EAGAIN, then %s", buf + 16);
	return 0;
}

/* One DMA transfer of @len bytes between @buf and the device's buffer. */
static int cmd_dma_one(const char *node, unsigned long len, int fill)
{
	static unsigned char buf[EDU_DMA_SIZE];
	__u32 mode = EDU_MODE_DMA;
	int fd = open_node(node, 0);
	ssize_t n;

	if (!len || len > EDU_DMA_SIZE) {
		errno = EINVAL;
		return fail("length");
	}
	if (ioctl(fd, EDU_IOC_SET_MODE, &mode))
		return fail("EDU_IOC_SET_MODE");
	if (fill >= 0) {
		memset(buf, fill, len);
		n = write(fd, buf, len);
	} else {
		n = read(fd, buf, len);
		if (n == (ssize_t)len && fwrite(buf, 1, len, stdout) != len)
			return fail("stdout");
	}
	if (n != (ssize_t)len)
		return fail(fill >= 0 ? "DMA write" : "DMA read");
	return 0;
}

/*
 * Factorials in a loop for @seconds, each checked: a reset between a
 * write and its read fails that one with EIO, nothing else may happen.
 */
static int cmd_stream(const char *node, int seconds)
{
	static const unsigned long known[] = { 1, 1, 2, 6, 24, 120, 720, 5040,
		40320, 362880, 3628800, 39916800, 479001600 };
	unsigned long right = 0, eio = 0, wrong = 0, other = 0, r;
	time_t end = time(NULL) + seconds;
	int fd = open_node(node, 0), i = 0;
	char n[8];

	while (time(NULL) < end) {
		snprintf(n, sizeof(n), "%d\n", i % 13);
		if (!factorial(fd, n, &r))
			r == known[i % 13] ? right++ : wrong++;
		else if (errno == EIO)
			eio++;
		else
			other++;
		i++;
	}
	printf("right %lu eio %lu wrong %lu other %lu\n", right, eio, wrong, other);
	return wrong || other;
}

/* Factorials in bursts, with idle gaps around the autosuspend delay. */
static int cmd_pmstream(const char *node, int seconds)
{
	static const unsigned long known[] = { 1, 1, 2, 6, 24, 120, 720, 5040,
		40320, 362880, 3628800, 39916800, 479001600 };
	unsigned long right = 0, eio = 0, wrong = 0, other = 0, r;
	time_t end = time(NULL) + seconds;
	int fd = open_node(node, 0), i = 0, burst;
	char n[8];

	srand(getpid());
	while (time(NULL) < end) {
		for (burst = 1 + rand() % 20; burst; burst--, i++) {
			snprintf(n, sizeof(n), "%d\n", i % 13);
			if (!factorial(fd, n, &r))
				r == known[i % 13] ? right++ : wrong++;
			else if (errno == EIO)
				eio++;
			else
				other++;
		}
		usleep((rand() % 500) * 1000);
	}
	printf("right %lu eio %lu wrong %lu other %lu\n", right, eio, wrong, other);
	return wrong || other;
}

static int cmd_pm(const char *node)
{
	int fd = open_node(node, 0);
	struct edu_pm pm;

	if (ioctl(fd, EDU_IOC_PM, &pm))
		return fail("EDU_IOC_PM");
	printf("suspends %u resumes %u hist %llx quiesced_calls %u\n",
	       pm.suspends, pm.resumes, (unsigned long long)pm.hist,
	       pm.quiesced_calls);
	return 0;
}

static int cmd_pmfail(const char *node, char **argv)
{
	struct edu_pm_fail pf = {
		.suspend_ret = atoi(argv[0]),
		.resume_ret = atoi(argv[1]),
		.resume_ms = atoi(argv[2]),
	};
	int fd = open_node(node, 0);

	if (ioctl(fd, EDU_IOC_PM_FAIL, &pf))
		return fail("EDU_IOC_PM_FAIL");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: test_edu CMD NODE [ARGS]: CMD facts, fact, dma, dmafresh,\n"
			"  liveness, info, regread, regwrite, nonblock, dmaread, dmafill,\n"
			"  stream, pmstream, pm or pmfail\n");
		return 2;
	}
	if (!strcmp(argv[1], "facts"))
		return cmd_facts(argv[2]);
	if (!strcmp(argv[1], "fact") && argc == 4)
		return cmd_fact(argv[2], argv[3]);
	if (!strcmp(argv[1], "dma"))
		return cmd_dma(argv[2], false);
	if (!strcmp(argv[1], "dmafresh"))
		return cmd_dma(argv[2], true);
	if (!strcmp(argv[1], "liveness") && argc == 4)
		return cmd_liveness(argv[2], argv[3]);
	if (!strcmp(argv[1], "info"))
		return cmd_info(argv[2]);
	if (!strcmp(argv[1], "regread") && argc == 5)
		return cmd_reg(argv[2], argc - 3, argv + 3, false);
	if (!strcmp(argv[1], "regwrite") && argc == 6)
		return cmd_reg(argv[2], argc - 3, argv + 3, true);
	if (!strcmp(argv[1], "nonblock"))
		return cmd_nonblock(argv[2]);
	if (!strcmp(argv[1], "dmaread") && argc == 4)
		return cmd_dma_one(argv[2], strtoul(argv[3], NULL, 0), -1);
	if (!strcmp(argv[1], "dmafill") && argc == 5)
		return cmd_dma_one(argv[2], strtoul(argv[3], NULL, 0),
				   strtoul(argv[4], NULL, 0) & 0xff);
	if (!strcmp(argv[1], "stream") && argc == 4)
		return cmd_stream(argv[2], atoi(argv[3]));
	if (!strcmp(argv[1], "pmstream") && argc == 4)
		return cmd_pmstream(argv[2], atoi(argv[3]));
	if (!strcmp(argv[1], "pm"))
		return cmd_pm(argv[2]);
	if (!strcmp(argv[1], "pmfail") && argc == 6)
		return cmd_pmfail(argv[2], argv + 3);
	fprintf(stderr, "test_edu: bad command\n");
	return 2;
}
