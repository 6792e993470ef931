// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * fuzz_sys: random system calls on bpfdrv's nodes, from several threads at
 * once: open, close, read and write (sizes at the edges, buffers that are
 * NULL, unmapped or partly mapped), ioctl (each driver's own, the accel
 * node's and DRM's, and random ones), poll, mmap and touching the mapping,
 * munmap, lseek, dup, fork. The threads share one table of files and one of
 * mappings, so a file is closed, or a mapping unmapped, while another
 * thread uses it. A call blocked for more than a second is interrupted by a
 * signal. The nodes are opened by path each time: a driver detached and
 * attached again meanwhile (the guest part does that) is found anew.
 *
 *   fuzz_sys [-t THREADS] [-s SECONDS] [-S SEED] [-k] [-c DIR] [-v] NODE...
 *   fuzz_sys -r TAPE [-v] NODE...
 *
 * -v prints each call before it is made (with -t 1 and the same seed, the
 * same sequence: a reproducer). -k guides the calls by the kernel's
 * coverage (KCOV: fuzz_cover.c), -c keeps the corpus in DIR; -r replays
 * one program of a corpus (a file of DIR), once, on one thread. Ends with
 * TAP lines: that it ran, and how many calls a second; what it finds,
 * the kernel reports (the guest's log check) or a crash of this program
 * shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

#include "tap.h"
#include "fuzz_cover.h"
#include "bpfdrv_accel.h"
#include "bpfdrv_echo.h"
#include "bpfdrv_edu.h"
#include "bpfdrv_edu_accel.h"
#include "bpfdrv_fifo.h"

#define FILES		48
#define MAPS		32
#define HANDLES		64
#define BUF_MAX		(1024 * 1024)
#define THREADS_MAX	32
#define PROGRAM_CALLS	8	/* a program, as the corpus keeps it */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct fuzz_thread {
	pthread_t tid;
	unsigned int idx;
	struct fuzz_tape tape;		/* its random choices */
	struct fuzz_cover cover;
	atomic_llong began_ns;		/* of the call in progress, or 0 */
	sigjmp_buf jump;
	atomic_int guarded;		/* touching a mapping */
	unsigned char *buf;		/* BUF_MAX + a guard page */
	__u32 handles[HANDLES];	/* buffer objects and syncobjs seen */
	__u64 offsets[8];		/* mmap offsets BO_INFO gave */
	char last[16][112];		/* its last calls, for a reproducer */
	unsigned int nr_last;
	atomic_int returned;		/* at the stop; else killed in a call */
	int joined;
};

static const char **nodes;
static unsigned int nr_nodes;
static atomic_int files[FILES];
static struct {
	atomic_uintptr_t addr;
	size_t len;
} maps[MAPS];
/* What each kind of call was tried, and how often it succeeded: depth. */
enum call_kind { C_OPEN, C_CLOSE, C_RW, C_BO, C_SUBMIT, C_DRM, C_IOCTL, C_POLL,
		 C_MMAP, C_NR };
static const char * const kind_names[C_NR] = {
	"open", "close", "read/write", "BO_CREATE", "SUBMIT", "other DRM",
	"driver and random ioctls", "poll", "mmap",
};

static atomic_ullong tries[C_NR], succeeded[C_NR];
static atomic_ullong calls, faults, interrupted;
static atomic_int stop;
static int verbose, replay_once;
static struct fuzz_thread threads[THREADS_MAX];
static unsigned int nr_threads;
static long page;
static unsigned char *no_access;	/* a PROT_NONE page */

static __thread struct fuzz_thread *self;

static __u64 rnd(struct fuzz_thread *t)
{
	return fuzz_tape_next(&t->tape);
}

static __u64 below(struct fuzz_thread *t, __u64 n)
{
	return n ? rnd(t) % n : 0;
}

static int one_in(struct fuzz_thread *t, unsigned int n)
{
	return below(t, n) == 0;
}

/* A size at the edges: 0, 1, page +- 1, powers of two +- 1, or any. */
static size_t edge_size(struct fuzz_thread *t, size_t max)
{
	size_t s;

	switch (below(t, 6)) {
	case 0:
		s = below(t, 3);
		break;
	case 1:
		s = page + below(t, 3) - 1;
		break;
	case 2:
		s = (1UL << below(t, 21)) + below(t, 3) - 1;
		break;
	case 3:
		s = below(t, 64);
		break;
	default:
		s = below(t, max + 1);
	}
	return s > max ? max : s;
}

static __u64 edge_u64(struct fuzz_thread *t)
{
	static const __u64 edges[] = {
		0, 1, 2, 7, 8, 63, 64, 255, 4095, 4096, 4097, 65536, 1 << 20,
		64ULL << 20, (64ULL << 20) + 1, 512ULL << 20, 0x7fffffff,
		0x80000000, 0xffffffff, 0x100000000ULL, ~0ULL, ~0ULL >> 1,
	};

	if (one_in(t, 3))
		return rnd(t);
	return edges[below(t, ARRAY_SIZE(edges))];
}

/* A buffer for @len bytes: mostly good, sometimes NULL, unmapped or cut. */
static void *edge_buf(struct fuzz_thread *t, size_t len)
{
	switch (below(t, 16)) {
	case 0:
		return NULL;
	case 1:
		return no_access;
	case 2:	/* runs into the guard page after buf */
		return t->buf + BUF_MAX - (len ? below(t, len) : 0);
	case 3:
		return (void *)(uintptr_t)edge_u64(t);
	default:
		return t->buf;
	}
}

/* A call about to be made: kept among the thread's last, printed with -v. */
static void note(const char *fmt, ...)
{
	char *line = self->last[self->nr_last++ % 16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(self->last[0]), fmt, ap);
	va_end(ap);
	if (verbose)
		fprintf(stderr, "[%u] %s\n", self->idx, line);
}

/*
 * A thread that ended before the stop was killed inside a call (an Oops
 * kills the task that hit it, not its process): its last calls are the
 * reproducer.
 */
static void reap(struct fuzz_thread *t)
{
	unsigned int i, n = t->nr_last < 16 ? t->nr_last : 16;

	t->joined = 1;
	if (atomic_load(&t->returned))
		return;
	ok(0, "fuzz: thread %u was killed inside a call (the kernel log says why)", t->idx);
	for (i = t->nr_last - n; i != t->nr_last; i++)
		tap_diag("  then: %s", t->last[i % 16]);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void call_begin(struct fuzz_thread *t, enum call_kind kind)
{
	atomic_store(&t->began_ns, now_ns());
	atomic_fetch_add(&calls, 1);
	atomic_fetch_add(&tries[kind], 1);
}

static void call_end(struct fuzz_thread *t, enum call_kind kind, long ret)
{
	atomic_store(&t->began_ns, 0);
	if (ret >= 0)
		atomic_fetch_add(&succeeded[kind], 1);
	else if (errno == EINTR)
		atomic_fetch_add(&interrupted, 1);
}

static int pick_fd(struct fuzz_thread *t)
{
	return atomic_load(&files[below(t, FILES)]);
}

/* Put @fd in the table, closing what it replaces. */
static void keep_fd(struct fuzz_thread *t, int fd)
{
	int old = atomic_exchange(&files[below(t, FILES)], fd);

	if (old >= 0)
		close(old);
}

static void op_open(struct fuzz_thread *t)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR, O_RDWR };
	const char *path = nodes[below(t, nr_nodes)];
	int flags = modes[below(t, 4)] | O_CLOEXEC;
	int fd;

	if (!one_in(t, 4))
		flags |= O_NONBLOCK;
	note("open %s 0x%x", path, flags);
	call_begin(t, C_OPEN);
	fd = open(path, flags);
	call_end(t, C_OPEN, fd);
	if (fd >= 0)
		keep_fd(t, fd);
}

static void op_close(struct fuzz_thread *t)
{
	int fd = atomic_exchange(&files[below(t, FILES)], -1);

	if (fd < 0)
		return;
	note("close %d", fd);
	call_begin(t, C_CLOSE);
	call_end(t, C_CLOSE, close(fd));
}

static const char * const rw_names[] = { "read", "write", "pread", "pwrite" };

static void op_rw(struct fuzz_thread *t)
{
	int fd = pick_fd(t), how = below(t, 4);
	size_t len = edge_size(t, BUF_MAX);
	void *buf = edge_buf(t, len);
	off_t off = edge_u64(t) & 0xfffff;
	long ret;

	if (buf == t->buf)
		memset(buf, (int)rnd(t), len < 256 ? len : 256);
	note("%s %d %p %zu %lld", rw_names[how], fd, buf, len, (long long)off);
	call_begin(t, C_RW);
	switch (how) {
	case 0:
		ret = read(fd, buf, len);
		break;
	case 1:
		ret = write(fd, buf, len);
		break;
	case 2:
		ret = pread(fd, buf, len, off);
		break;
	default:
		ret = pwrite(fd, buf, len, off);
	}
	call_end(t, C_RW, ret);
}

/* A handle this thread saw, or one at the edges. */
static __u32 pick_handle(struct fuzz_thread *t)
{
	switch (below(t, 4)) {
	case 0:
		return (__u32)edge_u64(t);
	case 1:	/* each file's handles start at 1 */
		return 1 + below(t, 8);
	default:
		return t->handles[below(t, HANDLES)];
	}
}

static void keep_handle(struct fuzz_thread *t, __u32 h)
{
	t->handles[below(t, HANDLES)] = h;
}

/* The accel node's ioctls and DRM's, with arguments that mostly make sense. */
static void op_drm(struct fuzz_thread *t, int fd)
{
	union {
		struct drm_bpfdrv_bo_create create;
		struct drm_bpfdrv_bo_info info;
		struct drm_bpfdrv_submit submit;
		struct drm_bpfdrv_get_param param;
		struct drm_bpfdrv_vm_create vmc;
		struct drm_bpfdrv_vm_destroy vmd;
		struct drm_bpfdrv_vm_bind vmb;
		struct drm_syncobj_timeline_wait twait;
		struct drm_gem_close close;
		struct drm_prime_handle prime;
		struct drm_syncobj_create sync;
		struct drm_syncobj_destroy sdestroy;
		struct drm_syncobj_wait wait;
		struct drm_syncobj_handle shandle;
		struct drm_version version;
		unsigned char raw[512];
	} a;
	__u32 sobj[4];
	__u64 points[4];
	enum call_kind kind;
	unsigned long cmd;
	unsigned int i;
	long ret;

	memset(&a, 0, sizeof(a));
	switch (below(t, 10)) {
	case 0:
	case 1:
		cmd = DRM_IOCTL_BPFDRV_BO_CREATE;
		a.create.size = edge_size(t, 80 << 20);
		a.create.flags = one_in(t, 8) ? (__u32)rnd(t) : 0;
		break;
	case 2:
		cmd = DRM_IOCTL_BPFDRV_BO_INFO;
		a.info.handle = pick_handle(t);
		a.info.pad = one_in(t, 8);
		break;
	case 3:
	case 4:
		cmd = DRM_IOCTL_BPFDRV_SUBMIT;
		for (i = 0; i < BPFDRV_ACCEL_JOB_BOS_MAX; i++)
			a.submit.bos[i] = pick_handle(t);
		a.submit.in_syncobj = one_in(t, 2) ? 0 : pick_handle(t);
		a.submit.out_syncobj = one_in(t, 2) ? 0 : pick_handle(t);
		if (one_in(t, 2)) {	/* a job edu_accel takes, mostly */
			struct edu_accel_job job = {
				.count = 1 + below(t, one_in(t, 8) ? 1 << 20 : 64),
				.op = below(t, 3),
			};

			a.submit.nr_bos = 1 + below(t, 2);
			a.submit.arg_len = sizeof(job);
			memcpy(a.submit.arg, &job, sizeof(job));
			break;
		}
		a.submit.ring = below(t, 5);
		a.submit.nr_bos = below(t, BPFDRV_ACCEL_JOB_BOS_MAX + 2);
		a.submit.arg_len = below(t, BPFDRV_ACCEL_JOB_ARG_MAX + 8);
		for (i = 0; i < BPFDRV_ACCEL_JOB_ARG_MAX; i++)
			a.submit.arg[i] = rnd(t);
		a.submit.flags = one_in(t, 8) ? (__u32)rnd(t) : below(t, 2);
		/* timeline points, mostly small; a priority, high for root */
		a.submit.in_point = one_in(t, 2) ? 0 : one_in(t, 8) ? edge_u64(t) : below(t, 4);
		a.submit.out_point = one_in(t, 2) ? 0 : one_in(t, 8) ? edge_u64(t) : below(t, 4);
		a.submit.priority = one_in(t, 8) ? (__u32)rnd(t) : below(t, 3);
		a.submit.vm_id = one_in(t, 4) ? below(t, 8) : 0;
		break;
	case 5:
		cmd = DRM_IOCTL_GEM_CLOSE;
		a.close.handle = pick_handle(t);
		break;
	case 6:
		cmd = one_in(t, 2) ? DRM_IOCTL_PRIME_HANDLE_TO_FD :
				     DRM_IOCTL_PRIME_FD_TO_HANDLE;
		a.prime.handle = pick_handle(t);
		a.prime.flags = one_in(t, 2) ? DRM_CLOEXEC | DRM_RDWR : (__u32)rnd(t);
		a.prime.fd = one_in(t, 2) ? pick_fd(t) : (int)below(t, 64);
		break;
	case 7:
		cmd = DRM_IOCTL_SYNCOBJ_CREATE;
		a.sync.flags = one_in(t, 2) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
		break;
	case 8:
		for (i = 0; i < 4; i++)
			sobj[i] = pick_handle(t);
		cmd = DRM_IOCTL_SYNCOBJ_WAIT;
		a.wait.handles = (uintptr_t)(one_in(t, 8) ? NULL : sobj);
		a.wait.count_handles = below(t, 5);
		a.wait.timeout_nsec = now_ns() + below(t, 2000000);
		a.wait.flags = below(t, 4);
		break;
	default:
		switch (below(t, 8)) {
		case 5:
			cmd = DRM_IOCTL_BPFDRV_VM_CREATE;
			a.vmc.flags = one_in(t, 8);
			break;
		case 6:
			cmd = DRM_IOCTL_BPFDRV_VM_DESTROY;
			a.vmd.vm_id = below(t, 8);
			break;
		case 7:	/* pages of a small VM, mostly aligned */
			cmd = DRM_IOCTL_BPFDRV_VM_BIND;
			a.vmb.vm_id = below(t, 8);
			a.vmb.op = one_in(t, 8) ? (__u32)rnd(t) : below(t, 2);
			a.vmb.handle = pick_handle(t);
			a.vmb.addr = one_in(t, 8) ? edge_u64(t) : (__u64)below(t, 256) << 12;
			a.vmb.range = one_in(t, 8) ? edge_u64(t) : (__u64)(1 + below(t, 16)) << 12;
			a.vmb.bo_offset = one_in(t, 8) ? edge_u64(t) : (__u64)below(t, 16) << 12;
			a.vmb.flags = one_in(t, 16);
			break;
		case 3:	/* bpfdrv's parameters, the driver's, and none */
			cmd = DRM_IOCTL_BPFDRV_GET_PARAM;
			a.param.param = one_in(t, 4) ? (__u32)rnd(t) :
					one_in(t, 2) ? below(t, 16) :
					BPFDRV_ACCEL_PARAM_DRIVER + below(t, 4);
			a.param.index = one_in(t, 2) ? 0 : (__u32)edge_u64(t);
			break;
		case 4:
			for (i = 0; i < 4; i++)
				sobj[i] = pick_handle(t);
			cmd = DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT;
			a.twait.handles = (uintptr_t)sobj;
			for (i = 0; i < 4; i++)
				points[i] = one_in(t, 8) ? edge_u64(t) : below(t, 4);
			a.twait.points = (uintptr_t)points;
			a.twait.count_handles = below(t, 5);
			a.twait.timeout_nsec = now_ns() + below(t, 2000000);
			a.twait.flags = below(t, 8);
			break;
		case 0:
			cmd = DRM_IOCTL_SYNCOBJ_DESTROY;
			a.sdestroy.handle = pick_handle(t);
			break;
		case 1:
			cmd = DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD;
			a.shandle.handle = pick_handle(t);
			a.shandle.flags = below(t, 4);
			break;
		default:
			cmd = DRM_IOCTL_VERSION;
			a.version.name = (char *)t->buf;
			a.version.name_len = edge_size(t, 64);
			a.version.desc = one_in(t, 4) ? (char *)no_access : (char *)t->buf + 128;
			a.version.desc_len = edge_size(t, 64);
		}
	}
	kind = cmd == DRM_IOCTL_BPFDRV_SUBMIT ? C_SUBMIT :
	       cmd == DRM_IOCTL_BPFDRV_BO_CREATE ? C_BO : C_DRM;
	note("drm ioctl %d 0x%lx", fd, cmd);
	call_begin(t, kind);
	ret = ioctl(fd, cmd, &a);
	call_end(t, kind, ret);
	if (ret)
		return;
	if (cmd == DRM_IOCTL_BPFDRV_BO_CREATE)
		keep_handle(t, a.create.handle);
	else if (cmd == DRM_IOCTL_SYNCOBJ_CREATE)
		keep_handle(t, a.sync.handle);
	else if (cmd == DRM_IOCTL_BPFDRV_BO_INFO)
		t->offsets[below(t, 8)] = a.info.mmap_offset;
	else if (cmd == DRM_IOCTL_PRIME_FD_TO_HANDLE)
		keep_handle(t, a.prime.handle);
	else if (cmd == DRM_IOCTL_PRIME_HANDLE_TO_FD)
		keep_fd(t, a.prime.fd);
	else if (cmd == DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD)
		keep_fd(t, a.shandle.fd);
}

/* One ioctl of @kind, counted and interruptible as every call is. */
static long drm_call(struct fuzz_thread *t, int fd, enum call_kind kind,
		     unsigned long cmd, void *arg)
{
	long ret;

	note("drm ioctl %d 0x%lx", fd, cmd);
	call_begin(t, kind);
	ret = ioctl(fd, cmd, arg);
	call_end(t, kind, ret);
	return ret;
}

/*
 * A job as a client makes one, on a file of an accel node: two buffers
 * (tiny to 32 KiB), an out-syncobj, a submit of a job edu_accel takes
 * (values or a DMA copy), sometimes a wait, and the buffers closed or
 * kept. Random ioctls rarely get this far; the file goes to the table,
 * where other threads close it, map its buffers, submit on it.
 */
static void op_drm_job(struct fuzz_thread *t)
{
	struct drm_bpfdrv_bo_create bo[2];
	struct drm_syncobj_create sync = {};
	struct drm_bpfdrv_submit sub = {};
	struct edu_accel_job job = {
		.count = 1 + below(t, 64),
		.op = one_in(t, 4) ? EDU_ACCEL_OP_DMA : EDU_ACCEL_OP_FACT,
	};
	struct drm_syncobj_wait wait = {};
	struct drm_gem_close close_bo;
	const char *path = NULL;
	unsigned int i, off = below(t, nr_nodes);
	int fd;

	for (i = 0; i < nr_nodes && !path; i++)
		if (!strncmp(nodes[(i + off) % nr_nodes], "/dev/accel/", 11))
			path = nodes[(i + off) % nr_nodes];
	if (!path)
		return;
	note("open %s for a job", path);
	call_begin(t, C_OPEN);
	fd = open(path, O_RDWR | O_CLOEXEC);
	call_end(t, C_OPEN, fd);
	if (fd < 0)
		return;
	memset(bo, 0, sizeof(bo));
	for (i = 0; i < 2; i++) {
		bo[i].size = one_in(t, 4) ? 1 + below(t, 4096) : 4096ULL << below(t, 4);
		if (drm_call(t, fd, C_BO, DRM_IOCTL_BPFDRV_BO_CREATE, &bo[i]))
			goto out;
		keep_handle(t, bo[i].handle);
	}
	if (drm_call(t, fd, C_DRM, DRM_IOCTL_SYNCOBJ_CREATE, &sync))
		goto out;
	keep_handle(t, sync.handle);
	sub.nr_bos = 2;
	sub.bos[0] = bo[0].handle;
	sub.bos[1] = bo[1].handle;
	sub.out_syncobj = sync.handle;
	sub.in_syncobj = one_in(t, 4) ? sync.handle : 0;
	sub.arg_len = sizeof(job);
	memcpy(sub.arg, &job, sizeof(job));
	if (drm_call(t, fd, C_SUBMIT, DRM_IOCTL_BPFDRV_SUBMIT, &sub))
		goto out;
	if (one_in(t, 2)) {
		wait.handles = (uintptr_t)&sync.handle;
		wait.count_handles = 1;
		wait.timeout_nsec = now_ns() + below(t, 300000000);
		drm_call(t, fd, C_DRM, DRM_IOCTL_SYNCOBJ_WAIT, &wait);
	}
	for (i = 0; i < 2 && one_in(t, 2); i++) {
		close_bo.handle = bo[i].handle;
		close_bo.pad = 0;
		drm_call(t, fd, C_DRM, DRM_IOCTL_GEM_CLOSE, &close_bo);
	}
out:
	if (one_in(t, 2))
		keep_fd(t, fd);
	else
		close(fd);
}

static void op_ioctl(struct fuzz_thread *t)
{
	static const unsigned long known[] = {
		ECHO_IOC_INFO, ECHO_IOC_CLEAR, ECHO_IOC_VERSION,
		FIFO_IOC_VERSION, EDU_IOC_INFO, EDU_IOC_LIVENESS,
		EDU_IOC_REG_READ, EDU_IOC_REG_WRITE, EDU_IOC_SET_MODE,
		EDU_IOC_VERSION, FIONREAD, FIONBIO, FIOCLEX,
	};
	int fd = pick_fd(t);
	unsigned long cmd;
	void *arg;
	long ret;

	if (one_in(t, 8)) {
		op_drm_job(t);
		return;
	}
	if (one_in(t, 2)) {
		op_drm(t, fd);
		return;
	}
	if (one_in(t, 2)) {
		cmd = known[below(t, ARRAY_SIZE(known))];
		if (one_in(t, 4))	/* the size field, changed */
			cmd = (cmd & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
			      (below(t, 1 << _IOC_SIZEBITS) << _IOC_SIZESHIFT);
	} else {
		cmd = _IOC(below(t, 4), below(t, 256), below(t, 256),
			   edge_size(t, (1 << _IOC_SIZEBITS) - 1));
	}
	arg = edge_buf(t, _IOC_SIZE(cmd));
	if (arg == t->buf)
		for (unsigned int i = 0; i < 64; i++)
			((__u64 *)t->buf)[i] = edge_u64(t);
	note("ioctl %d 0x%lx %p", fd, cmd, arg);
	call_begin(t, C_IOCTL);
	ret = ioctl(fd, cmd, arg);
	call_end(t, C_IOCTL, ret);
}

static void op_poll(struct fuzz_thread *t)
{
	struct pollfd p[4];
	unsigned int i, n = 1 + below(t, 4);
	long ret;

	for (i = 0; i < n; i++) {
		p[i].fd = pick_fd(t);
		p[i].events = rnd(t);
	}
	note("poll %u", n);
	call_begin(t, C_POLL);
	ret = poll(p, n, below(t, 5));
	call_end(t, C_POLL, ret);
}

static void sig_fault(int sig)
{
	if (self && atomic_load(&self->guarded)) {
		atomic_store(&self->guarded, 0);
		siglongjmp(self->jump, sig);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Read or write a byte of a mapping: SIGBUS or SIGSEGV is an answer too. */
static void touch(struct fuzz_thread *t, unsigned char *p, int write)
{
	if (sigsetjmp(t->jump, 1)) {
		atomic_fetch_add(&faults, 1);
		return;
	}
	atomic_store(&t->guarded, 1);
	if (write)
		__atomic_store_n(p, (unsigned char)rnd(t), __ATOMIC_RELAXED);
	else
		(void)__atomic_load_n(p, __ATOMIC_RELAXED);
	atomic_store(&t->guarded, 0);
}

static void op_mmap(struct fuzz_thread *t)
{
	static const int prots[] = { PROT_READ, PROT_WRITE,
				     PROT_READ | PROT_WRITE, PROT_NONE };
	int fd = pick_fd(t), prot = prots[below(t, 4)], slot = below(t, MAPS);
	size_t len = one_in(t, 4) ? edge_size(t, 4 << 20) :
				    page * (1 + below(t, 64));
	off_t off;
	void *addr, *old;
	unsigned int i;

	switch (below(t, 4)) {
	case 0:
		off = 0;
		break;
	case 1:
		off = t->offsets[below(t, 8)];
		break;
	case 2:
		off = page * below(t, 1024);
		break;
	default:
		off = edge_u64(t) & ~(__u64)(page - 1) & 0x7fffffffffffULL;
	}
	note("mmap %d %zu 0x%x 0x%llx", fd, len, prot, (long long)off);
	call_begin(t, C_MMAP);
	addr = mmap(NULL, len, prot, one_in(t, 4) ? MAP_PRIVATE : MAP_SHARED,
		    fd, off);
	call_end(t, C_MMAP, addr == MAP_FAILED ? -1 : 0);
	if (addr == MAP_FAILED)
		return;
	for (i = 0; i < 4 && len; i++)
		touch(t, (unsigned char *)addr + below(t, len), one_in(t, 2));
	old = (void *)atomic_exchange(&maps[slot].addr, 0);
	if (old)
		munmap(old, maps[slot].len);
	maps[slot].len = len;
	atomic_store(&maps[slot].addr, (uintptr_t)addr);
}

/* Touch, advise away or unmap a mapping another thread may be using. */
static void op_map_use(struct fuzz_thread *t)
{
	int slot = below(t, MAPS);
	unsigned char *addr = (void *)atomic_load(&maps[slot].addr);
	size_t len = maps[slot].len;

	if (!addr || !len)
		return;
	switch (below(t, 4)) {
	case 0:
		addr = (void *)atomic_exchange(&maps[slot].addr, 0);
		if (addr) {
			note("munmap %p", addr);
			munmap(addr, len);
		}
		break;
	case 1:
		note("madvise %p", addr);
		madvise(addr, len, MADV_DONTNEED);
		break;
	default:
		touch(t, addr + below(t, len), one_in(t, 2));
	}
}

static void op_misc(struct fuzz_thread *t)
{
	int fd = pick_fd(t), nfd;
	struct stat st;
	pid_t pid;

	switch (below(t, 6)) {
	case 0:
		note("lseek %d", fd);
		lseek(fd, edge_u64(t), below(t, 5));
		break;
	case 1:
		fstat(fd, &st);
		break;
	case 2:
		fcntl(fd, F_SETFL, one_in(t, 2) ? O_NONBLOCK : 0);
		break;
	case 3:
		nfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (nfd >= 0)
			keep_fd(t, nfd);
		break;
	case 4:
		/* a child that holds every file and mapping, and exits */
		if (!one_in(t, 16))
			break;
		note("fork");
		pid = fork();
		if (pid == 0) {
			unsigned char b[64];

			/* never outlives the run, holding files: a read may block */
			alarm(1);

			if (read(fd, b, sizeof(b)) < 0 && write(fd, b, 1) < 0)
				_exit(1);
			_exit(0);
		}
		/* a signal may interrupt the wait: the child ends within 1 s */
		while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		break;
	default:
		op_map_use(t);
	}
}

static void one_call(struct fuzz_thread *t)
{
	switch (below(t, 20)) {
	case 0: case 1: case 2:
		op_open(t);
		break;
	case 3: case 4:
		op_close(t);
		break;
	case 5: case 6: case 7: case 8:
		op_rw(t);
		break;
	case 9: case 10: case 11: case 12:
		op_ioctl(t);
		break;
	case 13:
		op_poll(t);
		break;
	case 14: case 15:
		op_mmap(t);
		break;
	case 16: case 17:
		op_map_use(t);
		break;
	default:
		op_misc(t);
	}
}

static void *fuzz_thread(void *arg)
{
	struct fuzz_thread *t = arg;
	unsigned int i;

	self = t;
	if (fuzz_cover_on() && fuzz_cover_enable(&t->cover)) {
		ok(0, "fuzz: thread %u traces its calls (KCOV_ENABLE: %m)", t->idx);
		atomic_store(&t->returned, 1);
		return NULL;
	}
	while (!atomic_load(&stop)) {
		fuzz_program_begin(&t->tape, &t->cover);
		for (i = 0; i < PROGRAM_CALLS && !atomic_load(&stop); i++) {
			one_call(t);
			fuzz_cover_collect(&t->cover);
		}
		fuzz_program_end(&t->tape, &t->cover);
		if (replay_once)
			atomic_store(&stop, 1);
	}
	atomic_store(&t->returned, 1);
	return NULL;
}

/* With -k: how far the calls got, and the corpus that got them there. */
static void cover_report(const char *when)
{
	struct fuzz_cover_stats cs;

	if (!fuzz_cover_on())
		return;
	fuzz_cover_stats(&cs);
	tap_diag("fuzz_sys: coverage %s: %llu edges, %llu PCs (%llu in bpfdrv's modules)",
		 when, cs.edges, cs.pcs, cs.module_pcs);
	tap_diag("fuzz_sys: corpus %u (%u loaded, %u new, %u written); %llu of %llu replayed",
		 cs.corpus, cs.loaded, cs.corpus - cs.loaded, cs.saved,
		 cs.replayed, cs.programs);
}

static void sig_nothing(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	static const char * const modules[] = { "bpfdrv", "bpfdrv_accel", NULL };
	unsigned int seconds = 10, i;
	__u64 seed = time(NULL);
	const char *corpus_dir = NULL, *replay = NULL;
	int coverage = 0;
	struct sigaction sa;
	long long start, last;
	int opt;

	nr_threads = 4;
	while ((opt = getopt(argc, argv, "t:s:S:kc:r:v")) != -1) {
		switch (opt) {
		case 't':
			nr_threads = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seconds = strtoul(optarg, NULL, 0);
			break;
		case 'S':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'k':
			coverage = 1;
			break;
		case 'c':
			corpus_dir = optarg;
			break;
		case 'r':
			replay = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || !nr_threads || nr_threads > THREADS_MAX)
		goto usage;
	nodes = (const char **)argv + optind;
	nr_nodes = argc - optind;
	page = sysconf(_SC_PAGESIZE);
	no_access = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (no_access == MAP_FAILED)
		return 2;
	for (i = 0; i < FILES; i++)
		atomic_init(&files[i], -1);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_fault;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = sig_nothing;
	sa.sa_flags = 0;	/* no SA_RESTART: a blocked call ends in EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (coverage) {
		opt = fuzz_cover_init(corpus_dir, modules);
		if (opt) {
			fprintf(stderr, "fuzz_sys: no coverage: /sys/kernel/debug/kcov: %s\n",
				strerror(-opt));
			return 2;
		}
		for (i = 0; i < nr_threads; i++) {
			opt = fuzz_cover_open(&threads[i].cover);
			if (opt) {
				fprintf(stderr, "fuzz_sys: KCOV: %s\n", strerror(-opt));
				return 2;
			}
		}
	}
	if (replay) {
		nr_threads = 1;
		opt = fuzz_tape_load(&threads[0].tape, replay);
		if (opt) {
			fprintf(stderr, "fuzz_sys: %s: %s\n", replay, strerror(-opt));
			return 2;
		}
		replay_once = 1;
	}
	tap_diag("fuzz_sys: %u threads, %u s, seed %llu, %u nodes", nr_threads,
		 seconds, (unsigned long long)seed, nr_nodes);
	cover_report("at the start");
	for (i = 0; i < nr_threads; i++) {
		struct fuzz_thread *t = &threads[i];

		t->idx = i;
		t->tape.rng = seed * 2654435761ULL + i + 1;
		t->buf = mmap(NULL, BUF_MAX + page, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (t->buf == MAP_FAILED ||
		    mprotect(t->buf + BUF_MAX, page, PROT_NONE))
			return 2;
		if (pthread_create(&t->tid, NULL, fuzz_thread, t))
			return 2;
	}
	start = now_ns();
	last = start;
	while (now_ns() - start < seconds * 1000000000LL && !atomic_load(&stop)) {
		usleep(100000);
		/* a call blocked for over a second is interrupted */
		for (i = 0; i < nr_threads; i++) {
			long long began = atomic_load(&threads[i].began_ns);

			if (threads[i].joined)
				continue;
			if (!pthread_tryjoin_np(threads[i].tid, NULL))
				reap(&threads[i]);
			else if (began && now_ns() - began > 1000000000LL)
				pthread_kill(threads[i].tid, SIGUSR1);
		}
		if (now_ns() - last >= 10000000000LL) {
			last = now_ns();
			tap_diag("fuzz_sys: %llu calls after %lld s",
				 (unsigned long long)atomic_load(&calls),
				 (last - start) / 1000000000LL);
			cover_report("now");
		}
	}
	atomic_store(&stop, 1);
	for (i = 0; i < nr_threads; i++) {
		/* until it returns: a call may block again after a signal */
		while (!threads[i].joined && pthread_tryjoin_np(threads[i].tid, NULL)) {
			pthread_kill(threads[i].tid, SIGUSR1);
			usleep(10000);
			if (now_ns() - start > (seconds + 60) * 1000000000LL) {
				ok(0, "fuzz: thread %u returns within 60 s of the end", i);
				return 1;
			}
		}
		if (!threads[i].joined)
			reap(&threads[i]);
	}
	for (i = 0; i < FILES; i++)
		if (atomic_load(&files[i]) >= 0)
			close(atomic_load(&files[i]));
	for (i = 0; i < MAPS; i++)
		if (atomic_load(&maps[i].addr))
			munmap((void *)atomic_load(&maps[i].addr), maps[i].len);
	tap_diag("fuzz_sys: %llu calls in %u s (%llu a second), %llu interrupted, %llu faults",
		 (unsigned long long)atomic_load(&calls), seconds,
		 (unsigned long long)atomic_load(&calls) / (seconds ? seconds : 1),
		 (unsigned long long)atomic_load(&interrupted),
		 (unsigned long long)atomic_load(&faults));
	for (i = 0; i < C_NR; i++)
		tap_diag("fuzz_sys:   %-24s %10llu tried, %10llu succeeded", kind_names[i],
			 (unsigned long long)atomic_load(&tries[i]),
			 (unsigned long long)atomic_load(&succeeded[i]));
	ok(atomic_load(&calls) > 0,
	   "fuzz: %u threads made system calls on %u nodes for %u s, and every thread ended",
	   nr_threads, nr_nodes, seconds);
	if (coverage) {
		struct fuzz_cover_stats cs;

		cover_report("at the end");
		fuzz_cover_stats(&cs);
		ok(cs.module_pcs > 0,
		   "fuzz: the calls reached code of bpfdrv's modules (%llu PCs of %llu, by KCOV)",
		   cs.module_pcs, cs.pcs);
	}
	return tap_failures ? 1 : 0;
usage:
	fprintf(stderr,
		"usage: fuzz_sys [-t THREADS] [-s SECONDS] [-S SEED] [-k] [-c DIR] [-v] NODE...\n"
		"       fuzz_sys -r TAPE [-v] NODE...\n");
	return 2;
}
