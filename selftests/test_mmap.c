// SPDX-License-Identifier: GPL-2.0
/*
 * test_mmap: map windows of a bpfdrv node and use them.
 *
 *   test_mmap map NODE OFF LEN ro|rw|private|exec
 *                                  mmap() LEN bytes at OFF and read the
 *                                  first word: "ok 0x...", or the error
 *   test_mmap mprotect NODE OFF LEN
 *                                  map read-only, then ask for write
 *   test_mmap edu-facts NODE       factorials 0..12 through the mapped
 *                                  registers, polled, as "n n!" lines
 *   test_mmap edu-dma NODE         4 KiB to the device and back by DMA,
 *                                  from and into the mapped DMA buffer
 *   test_mmap hold NODE OFF DIR [fork]
 *                                  map a page, read it, create DIR/ready,
 *                                  wait for DIR/go, read again: the
 *                                  mapping was revoked if SIGBUS kills it
 *                                  (with fork, a child does the same
 *                                  first, and its end is printed)
 *
 * Errors print "error: <errno name>: <what>" and exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpfdrv_edu.h"

#define PAGE		4096
#define POLL_LIMIT	10000000	/* register reads before giving up */

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENXIO: return "ENXIO";
	case ENODEV: return "ENODEV";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return strerror(e);
	}
}

static int fail(const char *what)
{
	printf("error: %s: %s\n", errno_name(errno), what);
	return 1;
}

static int open_node(const char *node, int flags)
{
	int fd = open(node, flags);

	if (fd < 0)
		exit(fail(node));
	return fd;
}

static void *map(int fd, unsigned long off, size_t len, int prot, int flags)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);

	return p == MAP_FAILED ? NULL : p;
}

static int cmd_map(const char *node, unsigned long off, size_t len,
		   const char *how)
{
	int prot = PROT_READ, flags = MAP_SHARED, fd;
	volatile uint32_t *p;

	if (!strcmp(how, "rw"))
		prot |= PROT_WRITE;
	else if (!strcmp(how, "private"))
		flags = MAP_PRIVATE;
	else if (!strcmp(how, "exec"))
		prot |= PROT_EXEC;
	fd = open_node(node, !strcmp(how, "ro") ? O_RDONLY : O_RDWR);
	p = map(fd, off, len, prot, flags);
	if (!p)
		return fail("mmap");
	printf("ok %#x\n", p[0]);
	return 0;
}

static int cmd_mprotect(const char *node, unsigned long off, size_t len)
{
	int fd = open_node(node, O_RDWR);
	void *p = map(fd, off, len, PROT_READ, MAP_SHARED);

	if (!p)
		return fail("mmap");
	if (mprotect(p, len, PROT_READ | PROT_WRITE))
		return fail("mprotect");
	printf("ok writable\n");
	return 0;
}

static volatile uint32_t *edu_regs(const char *node, int *fd)
{
	volatile uint32_t *r;

	*fd = open_node(node, O_RDWR);
	r = map(*fd, EDU_MMAP_BAR, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (!r)
		exit(fail("mmap of the register BAR"));
	if ((r[EDU_REG_ID / 4] & 0xff) != EDU_ID_MAGIC) {
		printf("error: not an edu: id %#x\n", r[EDU_REG_ID / 4]);
		exit(1);
	}
	return r;
}

/* Wait until (reg & mask) == 0. */
static int edu_wait(volatile uint32_t *r, unsigned int reg, uint32_t mask)
{
	long i;

	for (i = 0; i < POLL_LIMIT; i++)
		if (!(r[reg / 4] & mask))
			return 0;
	errno = ETIMEDOUT;
	return -1;
}

static int cmd_edu_facts(const char *node)
{
	volatile uint32_t *r;
	uint32_t n;
	int fd;

	r = edu_regs(node, &fd);
	r[EDU_REG_LIVENESS / 4] = 0x12345678;
	if (r[EDU_REG_LIVENESS / 4] != ~0x12345678u) {
		printf("error: liveness register reads %#x\n", r[EDU_REG_LIVENESS / 4]);
		return 1;
	}
	/* no interrupt: the driver's own files are not disturbed */
	r[EDU_REG_STATUS / 4] = 0;
	for (n = 0; n <= 12; n++) {
		r[EDU_REG_FACT / 4] = n;
		if (edu_wait(r, EDU_REG_STATUS, EDU_STATUS_COMPUTING))
			return fail("factorial");
		printf("%u %u\n", n, r[EDU_REG_FACT / 4]);
	}
	return 0;
}

static int edu_dma(volatile uint32_t *r, uint64_t src, uint64_t dst, uint32_t cmd)
{
	volatile uint64_t *q = (volatile uint64_t *)r;

	q[EDU_REG_DMA_SRC / 8] = src;
	q[EDU_REG_DMA_DST / 8] = dst;
	q[EDU_REG_DMA_COUNT / 8] = EDU_DMA_SIZE;
	q[EDU_REG_DMA_CMD / 8] = EDU_DMA_START | cmd;
	return edu_wait(r, EDU_REG_DMA_CMD, EDU_DMA_START);
}

static int cmd_edu_dma(const char *node)
{
	struct edu_info info;
	volatile uint32_t *r;
	uint8_t *buf;
	int fd, i;

	r = edu_regs(node, &fd);
	if (ioctl(fd, EDU_IOC_INFO, &info))
		return fail("EDU_IOC_INFO");
	buf = map(fd, EDU_MMAP_DMA, 2 * EDU_DMA_SIZE, PROT_READ | PROT_WRITE,
		  MAP_SHARED);
	if (!buf)
		return fail("mmap of the DMA buffer");
	srandom(getpid());
	for (i = 0; i < EDU_DMA_SIZE; i++)
		buf[i] = random();
	memset(buf + EDU_DMA_SIZE, 0, EDU_DMA_SIZE);
	if (edu_dma(r, info.dma_addr, EDU_DMA_DEV_ADDR, 0) ||
	    edu_dma(r, EDU_DMA_DEV_ADDR, info.dma_addr + EDU_DMA_SIZE,
		    EDU_DMA_TO_RAM))
		return fail("DMA");
	if (memcmp(buf, buf + EDU_DMA_SIZE, EDU_DMA_SIZE)) {
		printf("error: the data came back changed\n");
		return 1;
	}
	printf("ok %d bytes to the device and back\n", EDU_DMA_SIZE);
	return 0;
}

static void wait_file(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	while (stat(path, &st))
		usleep(10000);
}

static void touch(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	close(open(path, O_CREAT | O_WRONLY, 0600));
}

static int cmd_hold(const char *node, unsigned long off, const char *dir,
		    bool forked)
{
	int fd = open_node(node, O_RDWR), status;
	volatile uint32_t *p;
	pid_t child = -1;

	p = map(fd, off, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (!p)
		return fail("mmap");
	close(fd);	/* the mapping alone keeps it */
	if (forked) {
		child = fork();
		if (child < 0)
			return fail("fork");
	}
	printf("%s: read %#x\n", child ? "parent" : "child", p[0]);
	fflush(stdout);
	if (child > 0) {
		wait_file(dir, "child-ready");
		touch(dir, "ready");
	} else {
		touch(dir, child ? "ready" : "child-ready");
	}
	wait_file(dir, "go");
	if (child > 0) {
		waitpid(child, &status, 0);
		if (WIFSIGNALED(status))
			printf("child: killed by signal %d\n", WTERMSIG(status));
		else
			printf("child: exit %d\n", WEXITSTATUS(status));
		fflush(stdout);
	}
	printf("%s: read %#x after the revoke\n", child ? "parent" : "child", p[0]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "map"))
		return cmd_map(argv[2], strtoul(argv[3], NULL, 0),
			       strtoul(argv[4], NULL, 0), argv[5]);
	if (argc == 5 && !strcmp(argv[1], "mprotect"))
		return cmd_mprotect(argv[2], strtoul(argv[3], NULL, 0),
				    strtoul(argv[4], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "edu-facts"))
		return cmd_edu_facts(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "edu-dma"))
		return cmd_edu_dma(argv[2]);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "hold"))
		return cmd_hold(argv[2], strtoul(argv[3], NULL, 0), argv[4],
				argc == 6 && !strcmp(argv[5], "fork"));
	fprintf(stderr, "usage: see the comment at the top of test_mmap.c\n");
	return 2;
}
