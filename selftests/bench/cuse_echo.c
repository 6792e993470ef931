// SPDX-License-Identifier: GPL-2.0
/*
 * cuse_echo: the echo driver (bpf-drivers/echo.bpf.c) as a user-space
 * character device on libfuse3's CUSE interface, the other baseline of
 * `make bench`: how driver logic outside the kernel usually looks.
 *
 *   cuse_echo [-f] [-s] [--name=NAME]     creates /dev/NAME (cuse_echo)
 *
 * One ECHO_CAPACITY byte ring shared by all open files, guarded by a mutex
 * because libfuse runs requests on several threads (unless -s). The rules
 * are echo's: a read or write moves at most BPFDRV_IO_MAX bytes, an empty
 * ring reads as end of file, a full one gives ENOSPC, ECHO_IOC_INFO and
 * ECHO_IOC_CLEAR are restricted ioctls (the kernel copies _IOC_SIZE bytes),
 * poll reports the state without notifying changes. Reads reply straight
 * from the ring with an iovec, so the daemon copies nothing itself.
 */
#define FUSE_USE_VERSION 31

#include <cuse_lowlevel.h>
#include <errno.h>
#include <fuse_opt.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "bpfdrv_abi.h"
#include "bpfdrv_echo.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static struct {
	pthread_mutex_t lock;	/* everything below */
	size_t head;		/* offset of the oldest byte */
	size_t count;		/* bytes stored */
	unsigned long long total_written;
	unsigned char data[ECHO_CAPACITY];
} echo = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void echo_open(fuse_req_t req, struct fuse_file_info *fi)
{
	fi->nonseekable = 1;
	fuse_reply_open(req, fi);
}

static void echo_read(fuse_req_t req, size_t size, off_t off,
		      struct fuse_file_info *fi)
{
	struct iovec iov[2];
	size_t n, first;

	pthread_mutex_lock(&echo.lock);
	n = MIN(MIN(size, BPFDRV_IO_MAX), echo.count);
	first = MIN(n, ECHO_CAPACITY - echo.head);
	iov[0].iov_base = echo.data + echo.head;
	iov[0].iov_len = first;
	iov[1].iov_base = echo.data;
	iov[1].iov_len = n - first;
	/* Reply under the lock: the bytes must not be overwritten meanwhile. */
	fuse_reply_iov(req, iov, 2);
	echo.head = (echo.head + n) % ECHO_CAPACITY;
	echo.count -= n;
	pthread_mutex_unlock(&echo.lock);
}

static void echo_write(fuse_req_t req, const char *buf, size_t size,
		       off_t off, struct fuse_file_info *fi)
{
	size_t n, first, tail;

	pthread_mutex_lock(&echo.lock);
	n = MIN(MIN(size, BPFDRV_IO_MAX), ECHO_CAPACITY - echo.count);
	if (size && !n) {
		pthread_mutex_unlock(&echo.lock);
		fuse_reply_err(req, ENOSPC);
		return;
	}
	tail = (echo.head + echo.count) % ECHO_CAPACITY;
	first = MIN(n, ECHO_CAPACITY - tail);
	memcpy(echo.data + tail, buf, first);
	memcpy(echo.data, buf + first, n - first);
	echo.count += n;
	echo.total_written += n;
	pthread_mutex_unlock(&echo.lock);
	fuse_reply_write(req, n);
}

static void echo_ioctl(fuse_req_t req, int cmd, void *arg,
		       struct fuse_file_info *fi, unsigned int flags,
		       const void *in_buf, size_t in_bufsz, size_t out_bufsz)
{
	struct echo_info info = {};

	switch ((unsigned int)cmd) {
	case ECHO_IOC_INFO:
		if (out_bufsz < sizeof(info)) {
			fuse_reply_err(req, EINVAL);
			return;
		}
		pthread_mutex_lock(&echo.lock);
		info.stored = echo.count;
		info.capacity = ECHO_CAPACITY;
		info.total_written = echo.total_written;
		pthread_mutex_unlock(&echo.lock);
		fuse_reply_ioctl(req, 0, &info, sizeof(info));
		return;
	case ECHO_IOC_CLEAR:
		pthread_mutex_lock(&echo.lock);
		echo.head = 0;
		echo.count = 0;
		pthread_mutex_unlock(&echo.lock);
		fuse_reply_ioctl(req, 0, NULL, 0);
		return;
	}
	fuse_reply_err(req, ENOTTY);
}

static void echo_poll(fuse_req_t req, struct fuse_file_info *fi,
		      struct fuse_pollhandle *ph)
{
	unsigned int mask = 0;

	pthread_mutex_lock(&echo.lock);
	if (echo.count)
		mask |= POLLIN | POLLRDNORM;
	if (echo.count < ECHO_CAPACITY)
		mask |= POLLOUT | POLLWRNORM;
	pthread_mutex_unlock(&echo.lock);
	/* Like echo.bpf.c, no wakeup on changes: the handle is not kept. */
	if (ph)
		fuse_pollhandle_destroy(ph);
	fuse_reply_poll(req, mask);
}

static const struct cuse_lowlevel_ops echo_ops = {
	.open = echo_open,
	.read = echo_read,
	.write = echo_write,
	.ioctl = echo_ioctl,
	.poll = echo_poll,
};

struct echo_opts {
	char *name;
};

static const struct fuse_opt echo_opt_spec[] = {
	{ "--name=%s", offsetof(struct echo_opts, name), 0 },
	FUSE_OPT_END
};

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct echo_opts opts = { .name = NULL };
	const char *dev_info[1];
	struct cuse_info ci = {};
	char devname[64];
	int ret;

	if (fuse_opt_parse(&args, &opts, echo_opt_spec, NULL))
		return 1;
	snprintf(devname, sizeof(devname), "DEVNAME=%s",
		 opts.name ? opts.name : "cuse_echo");
	dev_info[0] = devname;
	ci.dev_info_argc = 1;
	ci.dev_info_argv = dev_info;
	ret = cuse_lowlevel_main(args.argc, args.argv, &ci, &echo_ops, NULL);
	fuse_opt_free_args(&args);
	free(opts.name);
	return ret;
}
