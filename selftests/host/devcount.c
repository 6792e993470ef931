// SPDX-License-Identifier: GPL-2.0
/*
 * An LD_PRELOAD counter of the system calls a process makes on character
 * devices, made without BPF: what bpfdrv trace's syscall mode is checked
 * against. It wraps the C library's calls (a program's own, through its
 * PLT), and each process appends its counts when it exits, by exit() or
 * _exit(), or replaces its image (execve), to $DEVCOUNT_DIR/PID, a line
 * per row:
 *   MAJOR MINOR OP SUB COUNT ERRORS
 * SUB is the ioctl command for ioctl and the minor otherwise, as the
 * tracer keys them. Calls are counted as the kernel's driver sees them:
 * an open that failed has no device, and the ioctls the VFS answers itself
 * (FIOCLEX, FIONCLEX, FIONBIO, FIOASYNC, FIOQSIZE) never reach it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

enum op { OP_OPEN, OP_CLOSE, OP_READ, OP_WRITE, OP_IOCTL, OP_MMAP, OP_POLL };
static const char *const op_names[] = {
	"open", "close", "read", "write", "ioctl", "mmap", "poll",
};

struct row {
	dev_t dev;
	enum op op;
	unsigned long sub;
	unsigned long count, errors;
};

#define MAX_ROWS 1024
#define POLL_FDS 8	/* as the tracer: the first traced one of these */

static struct row rows[MAX_ROWS];
static int nr_rows, overflow;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* The character device @fd is open on, or 0 */
static dev_t chr_dev(int fd)
{
	struct stat st;

	if (fd < 0 || syscall(SYS_fstat, fd, &st) || !S_ISCHR(st.st_mode))
		return 0;
	return st.st_rdev;
}

static void tally(dev_t dev, enum op op, unsigned long sub, long ret)
{
	int i;

	if (!dev)
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < nr_rows; i++)
		if (rows[i].dev == dev && rows[i].op == op && rows[i].sub == sub)
			break;
	if (i == nr_rows && nr_rows < MAX_ROWS) {
		rows[i] = (struct row){ .dev = dev, .op = op, .sub = sub };
		nr_rows++;
	}
	if (i < nr_rows) {
		rows[i].count++;
		rows[i].errors += ret < 0;
	} else {
		overflow++;
	}
	pthread_mutex_unlock(&lock);
}

static void tally_fd(dev_t dev, enum op op, long ret)
{
	tally(dev, op, minor(dev), ret);
}

/* Write this process's rows; raw syscalls, so nothing here is counted. */
static void dump(void)
{
	const char *dir = getenv("DEVCOUNT_DIR");
	char path[4096], line[256];
	int fd, i, n;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%d", dir, getpid());
	fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < nr_rows; i++) {
		n = snprintf(line, sizeof(line), "%u %u %s %lu %lu %lu\n",
			     major(rows[i].dev), minor(rows[i].dev), op_names[rows[i].op],
			     rows[i].sub, rows[i].count, rows[i].errors);
		syscall(SYS_write, fd, line, n);
	}
	if (overflow) {
		n = snprintf(line, sizeof(line), "overflow %d\n", overflow);
		syscall(SYS_write, fd, line, n);
	}
	pthread_mutex_unlock(&lock);
	syscall(SYS_close, fd);
}

static void forget(void)
{
	nr_rows = 0;
	overflow = 0;
}

/* The new image counts anew: what this one counted is written first. */
int execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve);
	dump();
	forget();
	return real_execve(path, argv, envp);
}

__attribute__((constructor)) static void setup(void)
{
	pthread_atfork(NULL, NULL, forget);	/* a child counts its own */
}

__attribute__((destructor)) static void finish(void)
{
	dump();
}

void _exit(int status)
{
	REAL(_exit);
	dump();
	real__exit(status);
	__builtin_unreachable();
}

static int opened(int fd)
{
	if (fd >= 0)
		tally_fd(chr_dev(fd), OP_OPEN, fd);
	return fd;
}

/* open's mode is there only with O_CREAT or O_TMPFILE */
#define MODE(flags, mode) do { \
	va_list ap; \
	va_start(ap, flags); \
	mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0; \
	va_end(ap); \
} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode;

	REAL(open);
	MODE(flags, mode);
	return opened(real_open(path, flags, mode));
}

int open64(const char *path, int flags, ...)
{
	mode_t mode;

	REAL(open64);
	MODE(flags, mode);
	return opened(real_open64(path, flags, mode));
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	REAL(openat);
	MODE(flags, mode);
	return opened(real_openat(dirfd, path, flags, mode));
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	REAL(openat64);
	MODE(flags, mode);
	return opened(real_openat64(dirfd, path, flags, mode));
}

int close(int fd)
{
	dev_t dev = chr_dev(fd);
	int ret;

	REAL(close);
	ret = real_close(fd);
	tally_fd(dev, OP_CLOSE, ret);
	return ret;
}

ssize_t read(int fd, void *buf, size_t n)
{
	ssize_t ret;

	REAL(read);
	ret = real_read(fd, buf, n);
	tally_fd(chr_dev(fd), OP_READ, ret);
	return ret;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	ssize_t ret;

	REAL(write);
	ret = real_write(fd, buf, n);
	tally_fd(chr_dev(fd), OP_WRITE, ret);
	return ret;
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	ssize_t ret;

	REAL(pread64);
	ret = real_pread64(fd, buf, n, off);
	tally_fd(chr_dev(fd), OP_READ, ret);
	return ret;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t ret;

	REAL(pwrite64);
	ret = real_pwrite64(fd, buf, n, off);
	tally_fd(chr_dev(fd), OP_WRITE, ret);
	return ret;
}

int ioctl(int fd, unsigned long cmd, ...)
{
	unsigned int c = cmd;
	va_list ap;
	void *arg;
	int ret;

	REAL(ioctl);
	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	ret = real_ioctl(fd, cmd, arg);
	if (c != FIOCLEX && c != FIONCLEX && c != FIONBIO && c != FIOASYNC && c != FIOQSIZE)
		tally(chr_dev(fd), OP_IOCTL, c, ret);
	return ret;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *ret;

	REAL(mmap);
	ret = real_mmap(addr, len, prot, flags, fd, off);
	if (!(flags & MAP_ANONYMOUS))
		tally_fd(chr_dev(fd), OP_MMAP, ret == MAP_FAILED ? -1 : 0);
	return ret;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));

/* The device of the first of a poll's first POLL_FDS that is one */
static dev_t poll_dev(const struct pollfd *fds, nfds_t n)
{
	dev_t dev = 0;
	nfds_t i;

	for (i = 0; i < n && i < POLL_FDS && !dev; i++)
		dev = chr_dev(fds[i].fd);
	return dev;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	dev_t dev = poll_dev(fds, n);
	int ret;

	REAL(poll);
	ret = real_poll(fds, n, timeout);
	tally_fd(dev, OP_POLL, ret);
	return ret;
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
	  const sigset_t *mask)
{
	dev_t dev = poll_dev(fds, n);
	int ret;

	REAL(ppoll);
	ret = real_ppoll(fds, n, timeout, mask);
	tally_fd(dev, OP_POLL, ret);
	return ret;
}
