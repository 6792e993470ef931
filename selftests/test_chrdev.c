// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * I/O behaviour of bpfdrv devices, through the echo, fifo and test drivers
 * the harness attached: /dev/bpfdrv/{echo,echo2,fifo,filestate,badret,
 * directio}.
 * One behaviour per check; TAP on stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "bpfdrv_abi.h"
#include "bpfdrv_echo.h"
#include "bpfdrv_fifo.h"

#define DEV(name) "/dev/bpfdrv/" name

static int open_dev(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		tap_diag("open %s: %s", path, strerror(errno));
	return fd;
}

/* Write all of buf, looping over short writes. */
static ssize_t write_all(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n <= 0)
			return n < 0 ? -1 : (ssize_t)done;
		done += n;
	}
	return done;
}

static ssize_t read_all(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n <= 0)
			return n < 0 ? -1 : (ssize_t)done;
		done += n;
	}
	return done;
}

static void fill_pattern(unsigned char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 131 + seed + (i >> 8));
}

static void test_echo_roundtrip(size_t len)
{
	unsigned char *in = malloc(len + 1), *out = malloc(len + 16);
	struct echo_info info = {};
	ssize_t w, r, extra;
	int fd = open_dev(DEV("echo"), O_RDWR);

	fill_pattern(in, len, len);
	w = write_all(fd, in, len);
	r = read_all(fd, out, len);
	extra = read(fd, out + len, 16);	/* must be empty now */
	ioctl(fd, ECHO_IOC_INFO, &info);
	ok(fd >= 0 && w == (ssize_t)len && r == (ssize_t)len && extra == 0 &&
	   !memcmp(in, out, len) && info.stored == 0,
	   "echo: %zu-byte round trip is byte-exact (wrote %zd, read %zd)",
	   len, w, r);
	close(fd);
	free(in);
	free(out);
}

static void test_echo_limits(void)
{
	static unsigned char buf[BPFDRV_IO_MAX + 100];
	struct echo_info info;
	char big[BPFDRV_IO_MAX + 8];
	int fd = open_dev(DEV("echo"), O_RDWR);
	ssize_t n;

	n = write(fd, buf, sizeof(buf));
	ok(n == BPFDRV_IO_MAX, "echo: a write larger than BPFDRV_IO_MAX is short (%zd)", n);
	n = read(fd, buf, sizeof(buf));
	ok(n == BPFDRV_IO_MAX, "echo: a read larger than BPFDRV_IO_MAX is short (%zd)", n);

	write(fd, "0123456789", 10);
	ok(!ioctl(fd, ECHO_IOC_INFO, &info) && info.stored == 10 &&
	   info.capacity == ECHO_CAPACITY, "echo: ioctl INFO reports 10 stored bytes");
	ok(!ioctl(fd, ECHO_IOC_CLEAR) && !ioctl(fd, ECHO_IOC_INFO, &info) &&
	   info.stored == 0, "echo: ioctl CLEAR empties the buffer");
	errno = 0;
	ok(ioctl(fd, _IO('E', 99)) < 0 && errno == ENOTTY,
	   "echo: unknown ioctl gives ENOTTY");
	errno = 0;
	ok(ioctl(fd, _IOW('E', 1, big), big) < 0 && errno == EINVAL,
	   "echo: ioctl larger than BPFDRV_IO_MAX gives EINVAL");
	close(fd);
}

static void test_echo_full(void)
{
	static unsigned char buf[BPFDRV_IO_MAX];
	int fd = open_dev(DEV("echo"), O_RDWR);
	size_t total = 0;
	ssize_t n;

	while ((n = write(fd, buf, sizeof(buf))) > 0 && total < 4 * ECHO_CAPACITY)
		total += n;
	ok(n < 0 && errno == ENOSPC && total == ECHO_CAPACITY,
	   "echo: full buffer gives ENOSPC after %zu bytes", total);
	ioctl(fd, ECHO_IOC_CLEAR);
	close(fd);
}

static void test_two_devices(void)
{
	int a = open_dev(DEV("echo"), O_RDWR), b = open_dev(DEV("echo2"), O_RDWR);
	char ra[8] = {}, rb[8] = {};

	write(a, "alpha", 5);
	write(b, "beta", 4);
	read(a, ra, sizeof(ra));
	read(b, rb, sizeof(rb));
	ok(!strcmp(ra, "alpha") && !strcmp(rb, "beta"),
	   "two echo instances keep independent buffers (%s/%s)", ra, rb);
	close(a);
	close(b);
}

static void test_filestate(void)
{
	int a = open_dev(DEV("filestate"), O_RDWR);
	int b = open_dev(DEV("filestate"), O_RDWR);
	char ra[8] = {}, rb[8] = {};

	write(a, "one", 3);
	write(b, "two", 3);
	read(a, ra, sizeof(ra));
	read(b, rb, sizeof(rb));
	ok(!strcmp(ra, "one") && !strcmp(rb, "two"),
	   "per-open-file state: each file reads back its own data (%s/%s)", ra, rb);
	errno = 0;
	ok(ioctl(a, _IO('F', 1)) < 0 && errno == ENOTTY,
	   "absent ioctl callback gives ENOTTY");
	close(a);
	close(b);
}

static void test_bad_returns(void)
{
	char buf[16];
	int fd = open_dev(DEV("badret"), O_RDWR);
	int fd2;

	errno = 0;
	ok(read(fd, buf, sizeof(buf)) < 0 && errno == EIO,
	   "read returning more than asked gives EIO");
	errno = 0;
	ok(write(fd, buf, sizeof(buf)) < 0 && errno == EIO,
	   "write returning a non-errno negative gives EIO");
	fd2 = open(DEV("badret"), O_RDWR);
	ok(fd2 < 0 && errno == EBUSY, "BPFDRV_F_EXCLUSIVE: second open gives EBUSY");
	if (fd2 >= 0)
		close(fd2);
	close(fd);
	fd2 = open(DEV("badret"), O_RDWR);
	ok(fd2 >= 0, "BPFDRV_F_EXCLUSIVE: open works again after close");
	close(fd2);
}

/* Has the child exited within ms milliseconds? */
static int child_done(pid_t pid, int ms, int *status)
{
	int i;

	for (i = 0; i < ms / 10; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return 1;
		usleep(10000);
	}
	return 0;
}

static void test_fifo_blocking_read(void)
{
	int fd = open_dev(DEV("fifo"), O_RDWR);
	int status = 0, blocked;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		char buf[16] = {};
		int rfd = open(DEV("fifo"), O_RDONLY);

		_exit(read(rfd, buf, sizeof(buf)) == 4 && !memcmp(buf, "ping", 4) ? 0 : 1);
	}
	blocked = !child_done(pid, 500, &status);
	write(fd, "ping", 4);
	ok(blocked && child_done(pid, 5000, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0,
	   "fifo: reader blocks on empty and a writer in another process wakes it");
	close(fd);
}

static void on_alarm(int sig)
{
}

/*
 * A reader blocked on one open file and a writer on the same open file (a
 * shared descriptor after fork): the write must get through and wake the
 * reader, for calls that use the stack buffer (<= 64 bytes) and the
 * per-file one.
 */
static void test_fifo_shared_file(size_t len)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	static char in[BPFDRV_IO_MAX], out[BPFDRV_IO_MAX];
	int fd = open_dev(DEV("fifo"), O_RDWR);
	int status = 0, blocked, done;
	ssize_t w;
	pid_t pid;

	memset(out, 'a' + len % 26, len);
	pid = fork();
	if (pid == 0)
		_exit(read(fd, in, len) == (ssize_t)len && !memcmp(in, out, len) ? 0 : 1);
	blocked = !child_done(pid, 300, &status);
	/* a write stuck behind the sleeping reader is interrupted, not hung */
	sigaction(SIGALRM, &sa, NULL);
	alarm(5);
	w = write(fd, out, len);
	alarm(0);
	done = !blocked || child_done(pid, 5000, &status);
	ok(blocked && w == (ssize_t)len && done && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0,
	   "fifo: a %zu-byte write on the file a reader sleeps on wakes it (write %zd)",
	   len, w);
	if (!done) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(fd);
}

static void test_fifo_nonblock_and_full(void)
{
	static char buf[FIFO_CAPACITY];
	int fd = open_dev(DEV("fifo"), O_RDWR | O_NONBLOCK);
	int status = 0, blocked;
	size_t total = 0;
	ssize_t n;
	pid_t pid;

	errno = 0;
	ok(read(fd, buf, 1) < 0 && errno == EAGAIN,
	   "fifo: O_NONBLOCK read on empty gives EAGAIN");
	while ((n = write(fd, buf, sizeof(buf))) > 0)
		total += n;
	ok(n < 0 && errno == EAGAIN && total == FIFO_CAPACITY,
	   "fifo: O_NONBLOCK write on full gives EAGAIN after %zu bytes", total);

	pid = fork();
	if (pid == 0) {
		int wfd = open(DEV("fifo"), O_WRONLY);

		_exit(write(wfd, "more", 4) == 4 ? 0 : 1);
	}
	blocked = !child_done(pid, 500, &status);
	n = read(fd, buf, 100);
	ok(blocked && n == 100 && child_done(pid, 5000, &status) &&
	   WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "fifo: writer blocks on full and a reader makes room");
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static void test_fifo_poll(void)
{
	int fd = open_dev(DEV("fifo"), O_RDWR | O_NONBLOCK);
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	int status = 0, blocked;
	char buf[FIFO_CAPACITY];
	pid_t pid;

	int n;

	n = poll(&p, 1, 0);
	ok(n == 1 && p.revents == POLLOUT,
	   "poll: empty fifo is writable, not readable (revents %#x)", p.revents);
	write(fd, "x", 1);
	n = poll(&p, 1, 0);
	ok(n == 1 && p.revents == (POLLIN | POLLOUT),
	   "poll: fifo with data is readable and writable (revents %#x)", p.revents);
	write(fd, buf, sizeof(buf) - 1);
	n = poll(&p, 1, 0);
	ok(n == 1 && p.revents == POLLIN,
	   "poll: full fifo is readable, not writable (revents %#x)", p.revents);
	while (read(fd, buf, sizeof(buf)) > 0)
		;

	pid = fork();
	if (pid == 0) {
		struct pollfd c = { .fd = open(DEV("fifo"), O_RDONLY), .events = POLLIN };

		_exit(poll(&c, 1, 10000) == 1 && (c.revents & POLLIN) ? 0 : 1);
	}
	blocked = !child_done(pid, 500, &status);
	write(fd, "y", 1);
	ok(blocked && child_done(pid, 5000, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0, "poll: a sleeping poller wakes on write");
	read(fd, buf, sizeof(buf));
	close(fd);
}

/* echo's count of direct calls made again through a kernel buffer */
static long direct_retries(void)
{
	FILE *f = fopen("/sys/class/bpfdrv/echo/stats", "r");
	char key[32];
	long v, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%31s %ld", key, &v) == 2)
		if (!strcmp(key, "direct_retries"))
			found = v;
	fclose(f);
	return found;
}

static long echo_stored(int fd)
{
	struct echo_info info = {};

	return ioctl(fd, ECHO_IOC_INFO, &info) ? -1 : (long)info.stored;
}

/*
 * echo is a BPFDRV_F_DIRECT_IO driver: its ring kfuncs copy straight to and
 * from the caller's memory with page faults off. Memory with no page yet
 * fails that copy; the call must then be made again through a kernel
 * buffer, with the same result, and memory that cannot be reached must give
 * EFAULT without losing or adding a byte.
 */
static void test_direct_io(void)
{
	size_t page = sysconf(_SC_PAGESIZE), len = BPFDRV_IO_MAX;
	unsigned char *in = malloc(len), *out = malloc(len), *map;
	int fd = open_dev(DEV("echo"), O_RDWR), mfd;
	long before = direct_retries();
	ssize_t n;

	ok(before >= 0, "direct I/O: stats has a direct_retries line");
	ioctl(fd, ECHO_IOC_CLEAR);

	/* a read into pages never touched: no page until the retry */
	fill_pattern(in, len, 7);
	write_all(fd, in, len);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	n = read(fd, map, len);
	ok(n == (ssize_t)len && !memcmp(map, in, len) &&
	   direct_retries() > before,
	   "direct I/O: a read into untouched memory is made again and delivers all %zu bytes", len);
	munmap(map, len);

	/* a write from a file mapping whose pages are not mapped in yet */
	mfd = memfd_create("direct", 0);
	fill_pattern(in, len, 9);
	write(mfd, in, len);
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, mfd, 0);
	before = direct_retries();
	n = write(fd, map, len);
	ok(n == (ssize_t)len && read_all(fd, out, len) == (ssize_t)len &&
	   !memcmp(out, in, len) && direct_retries() > before,
	   "direct I/O: a write from unmapped file pages is made again and stores all %zu bytes", len);

	/* a read into read-only memory: EFAULT, and the data stays */
	write_all(fd, in, len);
	n = read(fd, map, len);
	ok(n < 0 && errno == EFAULT && echo_stored(fd) == (long)len,
	   "direct I/O: a read into read-only memory gives EFAULT and loses nothing");
	munmap(map, len);
	close(mfd);

	/* memory that ends early: the reachable start moves, as with files */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(map, 'x', page);
	munmap(map + page, page);
	n = write(fd, map + page - 100, 200);
	ok(n == 100 && echo_stored(fd) == (long)len + 100,
	   "direct I/O: a write from partly unmapped memory stores the 100 reachable bytes");
	n = read(fd, map + page - 100, 200);
	ok(n == 100 && !memcmp(map + page - 100, in, 100) &&
	   echo_stored(fd) == (long)len,
	   "direct I/O: a read into partly unmapped memory delivers 100 bytes and keeps the rest");
	munmap(map, page);
	n = read(fd, map, 64);
	ok(n < 0 && errno == EFAULT && echo_stored(fd) == (long)len,
	   "direct I/O: a read into unmapped memory gives EFAULT and loses nothing");
	n = write(fd, map, 64);
	ok(n < 0 && errno == EFAULT && echo_stored(fd) == (long)len,
	   "direct I/O: a write from unmapped memory gives EFAULT and stores nothing");

	/* kernel addresses are refused before any copy */
	n = read(fd, (void *)(uintptr_t)0xffff888000000000ULL, 64);
	ok(n < 0 && errno == EFAULT && echo_stored(fd) == (long)len,
	   "direct I/O: a read into a kernel address gives EFAULT");
	n = write(fd, (void *)(uintptr_t)0xffffffff81000000ULL, 64);
	ok(n < 0 && errno == EFAULT && echo_stored(fd) == (long)len,
	   "direct I/O: a write from a kernel address gives EFAULT");

	memset(in, 'x', 100);	/* what was read, then what was written */
	ok(read_all(fd, out, len) == (ssize_t)len &&
	   !memcmp(out, in + 100, len - 100) && !memcmp(out + len - 100, in, 100),
	   "direct I/O: after the faults, the stored bytes read back intact, in order");
	close(fd);
	free(in);
	free(out);
}

/* The directio test driver: what bpfdrv_io_data() gives a direct driver. */
static void test_direct_io_data(void)
{
	int fd = open_dev(DEV("directio"), O_RDWR);
	char buf[BPFDRV_IO_MAX] = {}, *map;

	ok(read(fd, buf, 1) == 1 && buf[0] == 'N' &&
	   read(fd, buf, sizeof(buf)) == 1 && buf[0] == 'N',
	   "direct I/O: bpfdrv_io_data() gives read NULL (1 byte, 4 KiB)");
	ok(write(fd, buf, 1) == 1 && write(fd, buf, sizeof(buf)) == sizeof(buf),
	   "direct I/O: bpfdrv_io_data() gives write NULL (1 byte, 4 KiB)");
	buf[0] = 0;
	ok(ioctl(fd, _IOR('D', 1, __u32), buf) == 0 && buf[0] == 'P',
	   "direct I/O: ioctl still gets a pointer from bpfdrv_io_data()");
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(read(fd, map, 1) == 1 && map[0] == 'N',
	   "direct I/O: a faulted call is made again even if the driver ignored the fault");
	munmap(map, 4096);
	close(fd);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_echo_roundtrip(0);
	test_echo_roundtrip(1);
	test_echo_roundtrip(4096);
	test_echo_roundtrip(65537);
	test_echo_limits();
	test_direct_io();
	test_direct_io_data();
	test_echo_full();
	test_two_devices();
	test_filestate();
	test_bad_returns();
	test_fifo_blocking_read();
	test_fifo_shared_file(1);
	test_fifo_shared_file(64);
	test_fifo_shared_file(65);
	test_fifo_shared_file(BPFDRV_IO_MAX);
	test_fifo_nonblock_and_full();
	test_fifo_poll();
	return tap_failures ? 1 : 0;
}
