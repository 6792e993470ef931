// SPDX-License-Identifier: GPL-2.0
/*
 * A libdrm client of the accel_probe test driver's accelerator node.
 *
 *   test_accel find DRIVER       prints the accel node of DRIVER's first instance
 *   test_accel basic NODE        version, buffers and mmap, the driver's ioctls
 *   test_accel limits NODE       buffer sizes and the instance's total
 *   test_accel threads NODE N    N threads, a file each, ADD in a loop
 *   test_accel prime NODE VGEM   dma-bufs to and from vgem, and back; a job
 *                                waiting for a vgem fence, as a sync file
 *   test_accel jobs NODE         jobs: store, copy, dependencies, failures,
 *                                the timeout, bad submits
 *   test_accel edges NODE        each job kfunc refused at its edges
 *   test_accel stale NODE        edu_stale: a DMA to an ended job's buffer
 *                                does not reach it
 *   test_accel eject NODE        accel_probe ejects itself
 *   test_accel eduhold NODE      edu_accel's DMA jobs running and queued
 *                                when its function goes (told by a line on
 *                                stdin): every fence signals
 *   test_accel submitters NODE N JOBS RINGS  N threads, a file each, JOBS
 *                                jobs each on 1 ring or all
 *   test_accel update NODE       a job held and one queued across a live update
 *                                (told by a line on stdin): the new code runs
 *                                the queued one
 *   test_accel edu NODE N [nodma]  edu_accel's factorial jobs: right
 *                                results, refusals; its DMA jobs (not with
 *                                nodma); then N jobs of 13 values timed
 *   test_accel hold NODE         keeps a file, a mapping and a dma-buf across
 *                                a detach (told by a line on stdin), then
 *                                checks what each gives
 *   test_accel flood NODE N      N files of queued jobs behind a held one, each
 *                                to its cap (EBUSY past it); waits to be killed
 *   test_accel dumb NODE         no dumb buffers
 *   test_accel nonroot NODE ERRNO  as uid 65534, open fails with ERRNO (0: opens)
 *   test_accel budget NODE       a run_job that loops: its fence still signals
 *   test_accel pin NODE MIB      pins MIB of buffers with jobs: fails in a
 *                                small memory cgroup
 *   test_accel fences NODE       sync files kept across a detach (stdin)
 *   test_accel resv NODE VGEM    a held job as a vgem buffer's fence, ended
 *                                once the shell says (stdin)
 *
 * Prints TAP lines; exits 1 if any failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <drm/vgem_drm.h>
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "tap.h"
#include "bpfdrv_abi.h"
#include "bpfdrv_accel.h"
#include "bpfdrv_accel_probe.h"
#include "bpfdrv_edu_accel.h"
#include "bpfdrv_edu_stale.h"

#define PROBE_IOCTL(idx, dir, type) \
	_IOC(dir, DRM_IOCTL_BASE, DRM_COMMAND_BASE + DRM_BPFDRV_DRIVER_BASE + (idx), \
	     sizeof(type))
#define IOCTL_ADD	PROBE_IOCTL(ACCEL_PROBE_ADD, _IOC_READ | _IOC_WRITE, \
				    struct accel_probe_add)
#define IOCTL_PING	_IO(DRM_IOCTL_BASE, DRM_COMMAND_BASE + \
			    DRM_BPFDRV_DRIVER_BASE + ACCEL_PROBE_PING)
#define IOCTL_FAIL	PROBE_IOCTL(ACCEL_PROBE_FAIL, _IOC_WRITE, __u32)
#define IOCTL_STATE	PROBE_IOCTL(ACCEL_PROBE_STATE, _IOC_READ, \
				    struct accel_probe_state)
#define IOCTL_DONE	PROBE_IOCTL(ACCEL_PROBE_DONE, _IOC_READ | _IOC_WRITE, \
				    struct accel_probe_done)
#define IOCTL_EJECT	_IO(DRM_IOCTL_BASE, DRM_COMMAND_BASE + \
			    DRM_BPFDRV_DRIVER_BASE + ACCEL_PROBE_EJECT)
#define IOCTL_SLOT	PROBE_IOCTL(ACCEL_PROBE_SLOT, _IOC_READ | _IOC_WRITE, \
				    struct accel_probe_slot)

/* one tick at the lowest HZ Debian builds with (100) */
#define TICK_SLACK_MS	10

static int open_node(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		tap_diag("open %s: %s", path, strerror(errno));
		exit(1);
	}
	return fd;
}

/* The ioctl's errno, or 0. */
static int ioctl_err(int fd, unsigned long cmd, void *arg)
{
	return drmIoctl(fd, cmd, arg) ? errno : 0;
}

static int bo_create(int fd, __u64 size, __u32 *handle, __u64 *rounded)
{
	struct drm_bpfdrv_bo_create c = { .size = size };
	int err = ioctl_err(fd, DRM_IOCTL_BPFDRV_BO_CREATE, &c);

	if (!err) {
		*handle = c.handle;
		if (rounded)
			*rounded = c.size;
	}
	return err;
}

static void *bo_map(int fd, __u32 handle, __u64 *size)
{
	struct drm_bpfdrv_bo_info info = { .handle = handle };
	void *p;

	if (ioctl_err(fd, DRM_IOCTL_BPFDRV_BO_INFO, &info))
		return NULL;
	p = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 info.mmap_offset);
	if (p == MAP_FAILED)
		return NULL;
	*size = info.size;
	return p;
}

static void fill(void *p, size_t len, unsigned int seed)
{
	uint32_t *w = p;
	size_t i;

	for (i = 0; i < len / 4; i++)
		w[i] = seed * 2654435761u + i;
}

static int filled(const void *p, size_t len, unsigned int seed)
{
	const uint32_t *w = p;
	size_t i;

	for (i = 0; i < len / 4; i++)
		if (w[i] != seed * 2654435761u + i)
			return 0;
	return 1;
}

static int all_zero(const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

static void gem_close(int fd, __u32 handle)
{
	struct drm_gem_close c = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Wait up to @ms for @syncobj's fence: 0, or the errno (ETIME). */
static int sync_wait(int fd, uint32_t syncobj, int ms)
{
	return drmSyncobjWait(fd, &syncobj, 1, now_ns() + ms * 1000000LL,
			      DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL) ? errno : 0;
}

static int sync_file_status(int sf)
{
	struct sync_file_info info = {};

	return ioctl(sf, SYNC_IOC_FILE_INFO, &info) ? -1001 : info.status;
}

/* The status of @syncobj's fence: 1 signalled, 0 not yet, -errno failed. */
static int fence_status(int fd, uint32_t syncobj)
{
	int sf = -1, ret;

	if (drmSyncobjExportSyncFile(fd, syncobj, &sf))
		return -1000;
	ret = sync_file_status(sf);
	close(sf);
	return ret;
}


/* A sync file polls readable once its fence signalled. */
static int sync_file_wait(int sf, int ms)
{
	struct pollfd pfd = { .fd = sf, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1;
}

static int submit(int fd, uint32_t ring, const uint32_t *bos, uint32_t nr_bos,
		  uint32_t in, uint32_t out, uint32_t mode, uint32_t value,
		  __u64 *seqno)
{
	struct drm_bpfdrv_submit sub = {
		.ring = ring, .nr_bos = nr_bos, .in_syncobj = in,
		.out_syncobj = out, .arg_len = sizeof(struct accel_probe_job),
	};
	struct accel_probe_job job = { .mode = mode, .value = value };
	int err;

	if (nr_bos <= BPFDRV_ACCEL_JOB_BOS_MAX)
		memcpy(sub.bos, bos, nr_bos * sizeof(*bos));
	memcpy(sub.arg, &job, sizeof(job));
	err = ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub);
	if (!err && seqno)
		*seqno = sub.seqno;
	return err;
}

static int probe_done(int fd, uint32_t ring, uint64_t seqno, int err)
{
	struct accel_probe_done d = { .ring = ring, .seqno = seqno, .err = err };

	return ioctl_err(fd, IOCTL_DONE, &d) ? -1000 : d.ret;
}

static int test_basic(const char *node)
{
	int fd = open_node(node), fd2 = open_node(node), err;
	struct accel_probe_add add = { .a = 40, .b = 2 };
	struct accel_probe_state st = {};
	drmVersionPtr v = drmGetVersion(fd);
	__u64 size = 0, mapped = 0;
	__u32 h = 0, code;
	void *p, *q;

	ok(v && !strcmp(v->name, "accel_probe"),
	   "drmGetVersion names the driver (%s)", v ? v->name : "none");
	ok(v && v->desc && strstr(v->desc, "bpfdrv"), "its description says bpfdrv (%s)",
	   v && v->desc ? v->desc : "none");
	drmFreeVersion(v);

	err = bo_create(fd, 3 * 4096 + 1, &h, &size);
	ok(!err && size == 4 * 4096, "BO_CREATE of 12289 bytes gives 16384 (%llu)",
	   (unsigned long long)size);
	p = bo_map(fd, h, &mapped);
	ok(p && mapped == size, "BO_INFO and mmap map it whole");
	if (p) {
		ok(all_zero(p, size), "a new buffer reads zero");
		fill(p, size, 7);
		munmap(p, size);
	}
	q = bo_map(fd, h, &mapped);
	ok(q && filled(q, size, 7), "a second mapping reads what the first wrote");
	if (q)
		munmap(q, size);
	gem_close(fd, h);
	{
		struct drm_bpfdrv_bo_info info = { .handle = h };

		ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_BO_INFO, &info) == ENOENT,
		   "BO_INFO of a closed handle: ENOENT");
	}

	err = ioctl_err(fd, IOCTL_ADD, &add);
	ok(!err && add.sum == 42 && add.calls == 1,
	   "ADD: 40 + 2 = %u, call %u of this file", add.sum, add.calls);
	add.a = 1;
	add.b = 0xffffffff;
	err = ioctl_err(fd, IOCTL_ADD, &add);
	ok(!err && add.sum == 0 && add.calls == 2,
	   "ADD wraps like the driver's u32 (%u), call %u", add.sum, add.calls);
	add.a = 3;
	add.b = 4;
	err = ioctl_err(fd2, IOCTL_ADD, &add);
	ok(!err && add.sum == 7 && add.calls == 1,
	   "a second file counts its own calls (%u)", add.calls);
	ok(!ioctl_err(fd, IOCTL_PING, NULL), "PING, an ioctl without argument");
	code = EPERM;
	ok(ioctl_err(fd, IOCTL_FAIL, &code) == EPERM, "FAIL 1: EPERM");
	code = ENOSPC;
	ok(ioctl_err(fd, IOCTL_FAIL, &code) == ENOSPC, "FAIL 28: ENOSPC");
	err = ioctl_err(fd, IOCTL_STATE, &st);
	ok(!err && st.opens >= 2 && st.pings >= 1,
	   "STATE: %llu opens, %llu pings", (unsigned long long)st.opens,
	   (unsigned long long)st.pings);
	err = ioctl_err(fd, _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE + DRM_BPFDRV_DRIVER_BASE +
				  ACCEL_PROBE_IOCTLS, __u64), &size);
	ok(err == EINVAL, "an ioctl past the driver's last: EINVAL (%s)", strerror(err));
	err = ioctl_err(fd, _IOWR(DRM_IOCTL_BASE, DRM_COMMAND_BASE + 0x07, __u64), &size);
	ok(err == EINVAL, "a reserved bpfdrv ioctl: EINVAL (%s)", strerror(err));
	/* a shorter argument than declared: DRM zero-fills the rest */
	err = ioctl_err(fd, _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
				 DRM_COMMAND_BASE + DRM_BPFDRV_DRIVER_BASE, 8), &add);
	ok(!err, "ADD with an 8-byte argument is served (%s)", strerror(err));
	{
		__u32 sobj = 0;

		ok(!drmSyncobjCreate(fd, DRM_SYNCOBJ_CREATE_SIGNALED, &sobj) &&
		   !drmSyncobjWait(fd, &sobj, 1, 0, 0, NULL) &&
		   !drmSyncobjDestroy(fd, sobj), "syncobjs: create signalled, wait, destroy");
	}
	close(fd2);
	close(fd);
	return 0;
}

static int test_limits(const char *node)
{
	int fd = open_node(node), n = 0, err = 0;
	__u32 h[16], extra;
	struct drm_bpfdrv_bo_create c = { .size = 4096, .flags = 1 };

	ok(bo_create(fd, 0, &extra, NULL) == EINVAL, "BO_CREATE of 0 bytes: EINVAL");
	ok(bo_create(fd, BPFDRV_ACCEL_BO_MAX + 1, &extra, NULL) == EINVAL,
	   "BO_CREATE past %llu bytes: EINVAL", (unsigned long long)BPFDRV_ACCEL_BO_MAX);
	ok(bo_create(fd, ~0ULL, &extra, NULL) == EINVAL, "BO_CREATE of 2^64-1 bytes: EINVAL");
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_BO_CREATE, &c) == EINVAL,
	   "BO_CREATE with unknown flags: EINVAL");
	/* pages come on first touch: the total is of what was asked */
	while (n < 16 && !(err = bo_create(fd, BPFDRV_ACCEL_BO_MAX, &h[n], NULL)))
		n++;
	ok(n == BPFDRV_ACCEL_BO_TOTAL / BPFDRV_ACCEL_BO_MAX && err == ENOSPC,
	   "%d buffers of the largest size fit the instance's total, then ENOSPC (%s)",
	   n, strerror(err));
	if (n) {
		gem_close(fd, h[--n]);
		ok(!bo_create(fd, BPFDRV_ACCEL_BO_MAX, &h[n], NULL),
		   "a closed buffer gives its share back");
		n++;
	}
	while (n)
		gem_close(fd, h[--n]);
	close(fd);
	return 0;
}

struct adder {
	const char *node;
	int rounds;
	int bad;
};

static void *adder_run(void *arg)
{
	struct adder *a = arg;
	int fd = open_node(a->node), i;
	struct accel_probe_add add;

	for (i = 1; i <= a->rounds; i++) {
		add = (struct accel_probe_add){ .a = i, .b = 2 * i };
		if (ioctl_err(fd, IOCTL_ADD, &add) || add.sum != 3u * i ||
		    add.calls != (unsigned int)i)
			a->bad++;
	}
	close(fd);
	return NULL;
}

static int test_threads(const char *node, int n)
{
	pthread_t t[16];
	struct adder a[16];
	int i, bad = 0;

	if (n < 1 || n > 16)
		n = 4;
	for (i = 0; i < n; i++) {
		a[i] = (struct adder){ .node = node, .rounds = 2000 };
		pthread_create(&t[i], NULL, adder_run, &a[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		bad += a[i].bad;
	}
	ok(!bad, "%d threads x 2000 ADDs, a file each: every sum and per-file count right (%d wrong)",
	   n, bad);
	return 0;
}

/*
 * An in-fence from another device: a vgem fence on its buffer, taken as
 * a sync file through the dma-buf and imported into a syncobj. The job
 * (a STORE into @bo) must wait for vgem's signal.
 */
static void prime_fence(int fd, int vg, uint32_t vgem_bo, uint32_t bo)
{
	struct drm_vgem_fence_attach attach = { .handle = vgem_bo, .flags = VGEM_FENCE_WRITE };
	struct dma_buf_export_sync_file esf = { .flags = DMA_BUF_SYNC_READ };
	struct drm_vgem_fence_signal sig = {};
	uint32_t in = 0, out = 0, *p;
	__u64 mapped;
	int vbuf = -1, c, st;

	p = bo_map(fd, bo, &mapped);
	c = p && !drmIoctl(vg, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach) &&
	    !drmPrimeHandleToFD(vg, vgem_bo, DRM_CLOEXEC, &vbuf) &&
	    !ioctl(vbuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &esf) &&
	    !drmSyncobjCreate(fd, 0, &in) && !drmSyncobjCreate(fd, 0, &out) &&
	    !drmSyncobjImportSyncFile(fd, in, esf.fd) &&
	    !submit(fd, 0, &bo, 1, in, out, PROBE_JOB_STORE, 0x5eed, NULL);
	ok(c, "a job waits for a vgem fence, given as a sync file through a syncobj");
	if (!c)
		goto out;
	usleep(100000);
	c = sync_wait(fd, out, 100) == ETIME;
	ok(c && p[0] != 0x5eed, "it has not run before vgem signals (%#x)", p[0]);
	sig.fence = attach.out_fence;
	c = !drmIoctl(vg, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig) && !sync_wait(fd, out, 5000);
	st = fence_status(fd, out);
	ok(c && st == 1 && p[0] == 0x5eed, "vgem's signal lets it run (%d, %#x)", st, p[0]);
out:
	if (p)
		munmap(p, mapped);
	if (vbuf >= 0)
		close(vbuf);
}

static int test_prime(const char *node, const char *vgem_node)
{
	int fd = open_node(node), vg = open_node(vgem_node), dmabuf = -1, vbuf = -1, err;
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 4, .bpp = 32 };
	struct drm_mode_map_dumb mdumb = {};
	__u32 h, vh = 0, back = 0, imported = 0;
	__u64 size = 0, mapped;
	void *p, *vp, *dp;

	ok(!bo_create(fd, 16384, &h, &size), "a 16 KiB buffer");
	p = bo_map(fd, h, &mapped);
	if (p)
		fill(p, size, 11);
	ok(!drmPrimeHandleToFD(fd, h, DRM_CLOEXEC | DRM_RDWR, &dmabuf),
	   "PRIME export to a dma-buf");
	dp = dmabuf >= 0 ? mmap(NULL, size, PROT_READ, MAP_SHARED, dmabuf, 0) : MAP_FAILED;
	ok(dp != MAP_FAILED && filled(dp, size, 11), "the dma-buf's own mmap reads the buffer");
	if (dp != MAP_FAILED)
		munmap(dp, size);
	ok(!drmPrimeFDToHandle(vg, dmabuf, &vh), "vgem imports it");
	err = drmPrimeHandleToFD(vg, vh, DRM_CLOEXEC, &vbuf) ||
	      drmPrimeFDToHandle(fd, vbuf, &back);
	ok(!err && back == h, "vgem's export of it comes back as the same handle (%u, %u)",
	   back, h);
	if (vbuf >= 0)
		close(vbuf);
	vbuf = -1;

	/* the other way: a vgem buffer, written through vgem, read here */
	err = drmIoctl(vg, DRM_IOCTL_MODE_CREATE_DUMB, &dumb);
	ok(!err, "a vgem buffer of %llu bytes", (unsigned long long)dumb.size);
	mdumb.handle = dumb.handle;
	vp = !drmIoctl(vg, DRM_IOCTL_MODE_MAP_DUMB, &mdumb) ?
	     mmap(NULL, dumb.size, PROT_READ | PROT_WRITE, MAP_SHARED, vg, mdumb.offset) :
	     MAP_FAILED;
	if (vp != MAP_FAILED) {
		fill(vp, dumb.size, 13);
		munmap(vp, dumb.size);
	}
	ok(!drmPrimeHandleToFD(vg, dumb.handle, DRM_CLOEXEC, &vbuf) &&
	   !drmPrimeFDToHandle(fd, vbuf, &imported), "imported here from vgem");
	vp = imported ? bo_map(fd, imported, &mapped) : NULL;
	ok(vp && mapped == dumb.size && filled(vp, mapped, 13),
	   "mapped through this node, it reads what vgem wrote");
	if (vp)
		munmap(vp, mapped);
	if (p)
		munmap(p, size);
	if (vbuf >= 0)
		close(vbuf);
	if (dmabuf >= 0)
		close(dmabuf);
	prime_fence(fd, vg, dumb.handle, h);
	close(vg);
	close(fd);
	return 0;
}

static int test_jobs(const char *node)
{
	int fd = open_node(node), err, st, c;
	uint32_t bo[2], s1 = 0, s2 = 0, s3 = 0, v0, v1;
	struct accel_probe_state state = {}, state2 = {};
	__u64 size, seq = 0, seq2 = 0, mapped;
	struct drm_bpfdrv_submit bad;
	uint32_t *p0, *p1;
	int64_t t, ms;

	if (bo_create(fd, 4096, &bo[0], &size) || bo_create(fd, 4096, &bo[1], &size) ||
	    drmSyncobjCreate(fd, 0, &s1) || drmSyncobjCreate(fd, 0, &s2) ||
	    drmSyncobjCreate(fd, 0, &s3)) {
		ok(0, "two buffers and three syncobjs");
		return 1;
	}
	p0 = bo_map(fd, bo[0], &mapped);
	p1 = bo_map(fd, bo[1], &mapped);
	if (!p0 || !p1) {
		ok(0, "the buffers map");
		return 1;
	}
	ioctl_err(fd, IOCTL_STATE, &state);

	err = submit(fd, 0, bo, 1, 0, s1, PROBE_JOB_STORE, 0x1234, &seq);
	c = !err && !sync_wait(fd, s1, 5000);
	st = fence_status(fd, s1);
	ok(c && p0[0] == 0x1234 && st == 1,
	   "a STORE job ran, its fence signalled (%d), the buffer has its value (%#x)",
	   st, p0[0]);
	err = submit(fd, 0, bo, 1, 0, s1, PROBE_JOB_STORE, 0x5678, &seq2);
	c = !err && !sync_wait(fd, s1, 5000);
	ok(c && seq2 == seq + 1 && p0[0] == 0x5678,
	   "the next job on the ring is numbered %llu after %llu (%#x)",
	   (unsigned long long)seq2, (unsigned long long)seq, p0[0]);

	fill(p0, 64, 21);
	memset(p1, 0, 64);
	err = submit(fd, 1, bo, 2, 0, s1, PROBE_JOB_COPY, 0, NULL);
	c = !err && !sync_wait(fd, s1, 5000);
	ok(c && filled(p1, 64, 21), "a COPY job on ring 1 copied buffer 0 into buffer 1");

	/* a job held on ring 0; one on ring 1 waits for it through a syncobj */
	v0 = p0[0];
	err = submit(fd, 0, bo, 1, 0, s1, PROBE_JOB_HOLD, 0, &seq);
	err = err ?: submit(fd, 1, bo, 1, s1, s2, PROBE_JOB_STORE, 0xabcd, NULL);
	ok(!err, "a held job, and one that waits for it");
	usleep(100000);
	c = sync_wait(fd, s2, 100) == ETIME;
	ok(c && p0[0] == v0, "the waiting job has not run (%#x)", p0[0]);
	st = probe_done(fd, 0, seq + 1, 0);
	ok(st == -ENOENT, "DONE for a job that is not running: ENOENT (%d)", st);
	st = probe_done(fd, 0, seq, 0);
	c = !st && !sync_wait(fd, s1, 5000) && !sync_wait(fd, s2, 5000);
	ok(c && p0[0] == 0xabcd, "DONE ends the held job, and the waiting one runs (%#x)",
	   p0[0]);

	err = submit(fd, 0, bo, 1, 0, s1, PROBE_JOB_FAIL, EIO, NULL);
	c = !err && !sync_wait(fd, s1, 5000);
	st = fence_status(fd, s1);
	ok(c && st == -EIO, "a job whose run_job fails: its fence carries EIO (%d)", st);
	err = submit(fd, 0, bo, 1, 0, s1, PROBE_JOB_DONE_ERR, ENOSPC, NULL);
	c = !err && !sync_wait(fd, s1, 5000);
	st = fence_status(fd, s1);
	ok(c && st == -ENOSPC, "a job the driver ends with ENOSPC: its fence carries it (%d)",
	   st);
	err = submit(fd, 0, bo, 1, s1, s2, PROBE_JOB_STORE, 0x9999, NULL);
	c = !err && !sync_wait(fd, s2, 5000);
	st = fence_status(fd, s2);
	ok(c && st == -ENOSPC && p0[0] == 0xabcd,
	   "a job waiting for a failed fence fails with its error, without running (%d, %#x)",
	   st, p0[0]);

	t = now_ns();
	err = submit(fd, 1, bo, 1, 0, s3, PROBE_JOB_HOLD, 0, &seq);
	c = !err && !sync_wait(fd, s3, 10000);
	ms = (now_ns() - t) / 1000000;
	st = fence_status(fd, s3);
	/* the timeout counts jiffies: it may end up to a tick early in wall time */
	ok(c && st == -ETIMEDOUT && ms >= ACCEL_PROBE_TIMEOUT_MS - TICK_SLACK_MS,
	   "a job never ended times out: ETIMEDOUT (%d) after %lld ms (limit %d)",
	   st, (long long)ms, ACCEL_PROBE_TIMEOUT_MS);
	ioctl_err(fd, IOCTL_STATE, &state2);
	ok(state2.timeouts == state.timeouts + 1 && state2.last_timeout == seq,
	   "the driver's accel_timeout ran for it (seqno %llu of %llu)",
	   (unsigned long long)state2.last_timeout, (unsigned long long)seq);
	ok(state2.jobs - state.jobs == 8, "run_job ran %llu times (8 jobs started)",
	   (unsigned long long)(state2.jobs - state.jobs));

	ok(submit(fd, ACCEL_PROBE_RINGS, bo, 1, 0, 0, 0, 0, NULL) == EINVAL,
	   "a job on a ring the driver has not: EINVAL");
	ok(submit(fd, 0, bo, BPFDRV_ACCEL_JOB_BOS_MAX + 1, 0, 0, 0, 0, NULL) == EINVAL,
	   "more than %d buffers: EINVAL", BPFDRV_ACCEL_JOB_BOS_MAX);
	v1 = bo[1];
	bo[1] = 0x7fff;
	ok(submit(fd, 0, bo, 2, 0, 0, 0, 0, NULL) == ENOENT, "an unknown buffer handle: ENOENT");
	bo[1] = v1;
	ok(submit(fd, 0, bo, 1, 0x7fff, 0, 0, 0, NULL) == ENOENT, "an unknown in-syncobj: ENOENT");
	ok(submit(fd, 0, bo, 1, 0, 0x7fff, 0, 0, NULL) == ENOENT, "an unknown out-syncobj: ENOENT");
	bad = (struct drm_bpfdrv_submit){ .arg_len = BPFDRV_ACCEL_JOB_ARG_MAX + 1 };
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &bad) == EINVAL, "an argument too long: EINVAL");
	bad = (struct drm_bpfdrv_submit){ .flags = 2 };
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &bad) == EINVAL, "unknown flags: EINVAL");
	err = submit(fd, 0, bo, 0, 0, s1, 77, 0, NULL);
	c = !err && !sync_wait(fd, s1, 5000);
	st = fence_status(fd, s1);
	ok(c && st == -EINVAL, "a job whose argument the driver refuses fails with its EINVAL (%d)",
	   st);
	close(fd);
	return 0;
}

struct submitter {
	const char *node;
	int jobs;
	int rings;
	int bad;
};

/* @jobs STORE jobs, one after the other, each checked */
static void *submitter_run(void *arg)
{
	struct submitter *sb = arg;
	int fd = open_node(sb->node), i;
	__u64 size, mapped;
	uint32_t bo, sync;
	uint32_t *p;

	if (bo_create(fd, 4096, &bo, &size) || drmSyncobjCreate(fd, 0, &sync) ||
	    !(p = bo_map(fd, bo, &mapped))) {
		sb->bad = sb->jobs;
		close(fd);
		return NULL;
	}
	for (i = 1; i <= sb->jobs; i++) {
		if (submit(fd, i % sb->rings, &bo, 1, 0, sync, PROBE_JOB_STORE, i, NULL) ||
		    sync_wait(fd, sync, 5000) || p[0] != (uint32_t)i)
			sb->bad++;
	}
	munmap(p, mapped);
	close(fd);
	return NULL;
}

static int test_submitters(const char *node, int n, int jobs, int rings)
{
	struct submitter sb[16];
	pthread_t t[16];
	int i, bad = 0;
	int64_t t0 = now_ns();

	if (n < 1 || n > 16)
		n = 4;
	for (i = 0; i < n; i++) {
		sb[i] = (struct submitter){ .node = node, .jobs = jobs, .rings = rings };
		pthread_create(&t[i], NULL, submitter_run, &sb[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		bad += sb[i].bad;
	}
	ok(!bad, "%d submitters x %d jobs on %d rings: every job ran and ended (%d wrong, %.0f jobs/s)",
	   n, jobs, rings, bad, n * jobs / ((now_ns() - t0) / 1e9));
	return 0;
}

/* A key of /proc/self/fdinfo/@fd: its number, scaled by its unit; -1 if absent. */
static long long fdinfo_value(int fd, const char *key, char *text, size_t size)
{
	char path[64], line[256], unit[16];
	long long v = -1, n;
	size_t klen = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		if (text)
			snprintf(text, size, "%s", line + klen + 1 + strspn(line + klen + 1, " \t"));
		unit[0] = 0;
		if (sscanf(line + klen + 1, "%lld %15s", &n, unit) >= 1)
			v = n * (!strcmp(unit, "KiB") ? 1024 : !strcmp(unit, "MiB") ? 1 << 20 : 1);
		break;
	}
	fclose(f);
	return v;
}

/*
 * What the node tells of each file in fdinfo (drm-usage-stats): its
 * driver and client, its buffers, and each ring's busy time for its own
 * jobs, measured against a job held for 100 ms. Then, for a tool that
 * watches (trace --top), ring 0 kept busy @hold_s seconds.
 */
static int test_fdinfo(const char *node, double hold_s)
{
	int fd = open_node(node), other = open_node(node);
	__u32 bo[2] = {}, s = 0;
	__u64 seq = 0;
	int64_t t0 = now_ns(), held;
	long long busy, mem;
	char driver[64] = "";

	ok(!bo_create(fd, 8192, &bo[0], NULL) && !bo_create(fd, 4096, &bo[1], NULL) &&
	   !drmSyncobjCreate(fd, 0, &s), "two buffers (12 KiB) and a syncobj");
	ok(!submit(fd, 0, bo, 2, 0, s, PROBE_JOB_HOLD, 0, &seq), "a job held on ring 0");
	held = now_ns();
	usleep(100000);
	ok(!probe_done(fd, 0, seq, 0) && !sync_wait(fd, s, 5000), "ended after 100 ms");
	held = now_ns() - held;
	fdinfo_value(fd, "drm-driver", driver, sizeof(driver));
	ok(!strncmp(driver, "accel_probe", 11), "fdinfo: drm-driver is the driver's name (%.*s)",
	   (int)strcspn(driver, "\n"), driver);
	ok(fdinfo_value(fd, "drm-client-id", NULL, 0) >= 0 &&
	   fdinfo_value(fd, "drm-client-id", NULL, 0) != fdinfo_value(other, "drm-client-id", NULL, 0),
	   "fdinfo: each file is a client of its own (drm-client-id)");
	busy = fdinfo_value(fd, "drm-engine-ring0", NULL, 0);
	ok(busy >= 100000000 && busy <= held + 50000000 && busy <= now_ns() - t0,
	   "fdinfo: drm-engine-ring0 is the held job's time on the device (%lld ns; held %lld)",
	   busy, (long long)held);
	ok(fdinfo_value(fd, "drm-engine-ring1", NULL, 0) == 0,
	   "fdinfo: and ring 1, unused, 0 ns");
	ok(fdinfo_value(other, "drm-engine-ring0", NULL, 0) == 0,
	   "fdinfo: another file of the node has its own time: 0 ns");
	mem = fdinfo_value(fd, "drm-total-memory", NULL, 0);
	ok(mem == 12288 && fdinfo_value(other, "drm-total-memory", NULL, 0) == 0,
	   "fdinfo: drm-total-memory is the file's buffers (%lld bytes), the other's none", mem);
	/* jobs held one after another, each ended before the ring's timeout */
	if (hold_s > 0) {
		int64_t end = now_ns() + hold_s * 1e9;
		int bad = 0, n = 0;

		while (now_ns() < end) {
			bad |= submit(fd, 0, bo, 2, 0, s, PROBE_JOB_HOLD, 0, &seq);
			usleep(ACCEL_PROBE_TIMEOUT_MS * 1000 * 2 / 3);
			bad |= probe_done(fd, 0, seq, 0) || sync_wait(fd, s, 5000);
			n++;
		}
		ok(!bad, "ring 0 kept busy for %.1f s by %d held jobs", hold_s, n);
	}
	close(other);
	close(fd);
	return 0;
}

static int test_hold(const char *node)
{
	int fd = open_node(node), dmabuf = -1, err;
	__u64 size = 0, mapped = 0;
	struct accel_probe_add add = { .a = 1, .b = 1 };
	char line[16];
	__u32 h = 0, s1 = 0, s2 = 0;
	int sf1 = -1, sf2 = -1, st, c;
	void *p, *dp = MAP_FAILED;

	ok(!bo_create(fd, 65536, &h, &size), "a 64 KiB buffer");
	p = bo_map(fd, h, &mapped);
	if (p)
		fill(p, size, 17);
	ok(!drmPrimeHandleToFD(fd, h, DRM_CLOEXEC, &dmabuf), "exported");
	ok(!drmSyncobjCreate(fd, 0, &s1) && !drmSyncobjCreate(fd, 0, &s2) &&
	   !submit(fd, 0, &h, 1, 0, s1, PROBE_JOB_HOLD, 0, NULL) &&
	   !submit(fd, 0, &h, 1, 0, s2, PROBE_JOB_STORE, 1, NULL),
	   "a job held on ring 0, and one queued behind it");
	/* the syncobjs go with the node: their fences, as sync files */
	ok(!drmSyncobjExportSyncFile(fd, s1, &sf1) && !drmSyncobjExportSyncFile(fd, s2, &sf2) &&
	   sync_file_status(sf1) == 0 && sync_file_status(sf2) == 0,
	   "their fences, exported as sync files, are not signalled");
	printf("# ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		tap_diag("stdin closed");
	err = ioctl_err(fd, IOCTL_ADD, &add);
	ok(err == ENODEV, "after the detach the driver's ioctl fails: ENODEV (%s)",
	   strerror(err));
	err = bo_create(fd, 4096, &h, NULL);
	ok(err == ENODEV, "and BO_CREATE too: ENODEV (%s)", strerror(err));
	c = sync_file_wait(sf1, 5000);
	st = sync_file_status(sf1);
	ok(c && st == -ENODEV, "the held job's fence wakes its waiter: ENODEV (%d)", st);
	c = sync_file_wait(sf2, 5000);
	st = sync_file_status(sf2);
	ok(c && st < 0, "the queued job's fence too, with an error: it never ran (%d)", st);
	/* the file outlives its device: DRM shows an unplugged one's no keys */
	line[0] = '\0';
	fdinfo_value(fd, "drm-driver", line, sizeof(line));
	ok(fdinfo_value(fd, "pos", NULL, 0) == 0 && !line[0],
	   "its fdinfo after the detach reads, without the DRM keys (%s)", line[0] ? line : "none");
	ok(p && filled(p, size, 17), "the mapping made before reads the buffer still");
	if (dmabuf >= 0)
		dp = mmap(NULL, size, PROT_READ, MAP_SHARED, dmabuf, 0);
	ok(dp != MAP_FAILED && filled(dp, size, 17),
	   "the dma-buf maps and reads it still");
	if (dp != MAP_FAILED)
		munmap(dp, size);
	if (p)
		munmap(p, size);
	close(sf1);
	close(sf2);
	close(dmabuf);
	close(fd);
	return 0;
}

/* accel_probe_multi's jobs on a ring's device at once */
#define MULTI_JOBS	4
#define MULTI_SUBMIT	(MULTI_JOBS + 2)

static uint64_t probe_jobs(int fd)
{
	struct accel_probe_state st = {};

	ioctl_err(fd, IOCTL_STATE, &st);
	return st.jobs;
}

/* Wait up to 5 s for run_job to have run @n times in all. */
static int probe_jobs_reach(int fd, uint64_t n)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (probe_jobs(fd) >= n)
			return 1;
		usleep(1000);
	}
	return 0;
}

static struct accel_probe_slot probe_slot(int fd, __u64 seqno, __u32 value)
{
	struct accel_probe_slot sl = { .seqno = seqno, .value = value };

	if (ioctl_err(fd, IOCTL_SLOT, &sl))
		sl.slot = sl.store = -1000;
	return sl;
}

/* When @syncobj's fence signalled (CLOCK_MONOTONIC ns), 0 if not. */
static __u64 fence_time(int fd, uint32_t syncobj)
{
	struct sync_fence_info fi = {};
	struct sync_file_info info = {
		.num_fences = 1, .sync_fence_info = (uintptr_t)&fi,
	};
	int sf = -1;

	if (drmSyncobjExportSyncFile(fd, syncobj, &sf))
		return 0;
	if (ioctl(sf, SYNC_IOC_FILE_INFO, &info) || !fi.status)
		fi.timestamp_ns = 0;
	close(sf);
	return fi.timestamp_ns;
}

/* Every order of ending MULTI_JOBS jobs: fences signal oldest first. */
static int multi_orders(int fd, const __u32 *bo, const __u32 *sync)
{
	int perm[MULTI_JOBS], ended[MULTI_JOBS], i, k, j, bad = 0, rounds = 0;
	__u64 seq[MULTI_JOBS];

	for (i = 0; i < MULTI_JOBS; i++)
		perm[i] = i;
	for (;;) {
		uint64_t base = probe_jobs(fd);

		for (i = 0; i < MULTI_JOBS; i++) {
			ended[i] = 0;
			if (submit(fd, 0, &bo[i], 1, 0, sync[i], PROBE_JOB_HOLD, 0,
				   &seq[i]))
				return -1;
		}
		if (!probe_jobs_reach(fd, base + MULTI_JOBS))
			return -1;
		for (k = 0; k < MULTI_JOBS; k++) {
			int older_ended = 1;

			if (probe_done(fd, 0, seq[perm[k]], 0))
				bad++;
			ended[perm[k]] = 1;
			for (j = 0; j < MULTI_JOBS; j++) {
				older_ended &= ended[j];
				if ((fence_status(fd, sync[j]) == 1) != older_ended)
					bad++;
			}
		}
		rounds++;
		/* the next permutation, in lexicographic order */
		for (i = MULTI_JOBS - 2; i >= 0 && perm[i] > perm[i + 1]; i--)
			;
		if (i < 0)
			break;
		for (k = MULTI_JOBS - 1; perm[k] < perm[i]; k--)
			;
		j = perm[i], perm[i] = perm[k], perm[k] = j;
		for (j = i + 1, k = MULTI_JOBS - 1; j < k; j++, k--) {
			int t = perm[j];

			perm[j] = perm[k];
			perm[k] = t;
		}
	}
	ok(!bad, "all %d orders of ending %d jobs on the device: after each end, exactly the jobs whose older ones all ended are signalled (%d of %d checks wrong)",
	   rounds, MULTI_JOBS, bad, rounds * MULTI_JOBS * (MULTI_JOBS + 1));
	return 0;
}

/*
 * accel_probe_multi: a job for a ring with free slots starts at once
 * (from its submit, bpfdrv_accel_submit_direct()) unless a job queued
 * before it waits: then it waits behind that one, though slots are free.
 */
static int test_direct(const char *node)
{
	int fd = open_node(node), err, c;
	uint32_t bo[1], s1 = 0, s2 = 0, s3 = 0, v0;
	__u64 seq = 0, mapped;
	uint32_t *p0;

	if (bo_create(fd, 4096, &bo[0], NULL) || drmSyncobjCreate(fd, 0, &s1) ||
	    drmSyncobjCreate(fd, 0, &s2) || drmSyncobjCreate(fd, 0, &s3) ||
	    !(p0 = bo_map(fd, bo[0], &mapped))) {
		ok(0, "a buffer and three syncobjs");
		return 1;
	}
	p0[0] = v0 = 0x5a5a;
	/* A held; B waits for A; C waits for nothing, on a ring with 3 free slots */
	err = submit(fd, 0, bo, 1, 0, s1, PROBE_JOB_HOLD, 0, &seq);
	err = err ?: submit(fd, 0, bo, 1, s1, s2, PROBE_JOB_STORE, 0x1111, NULL);
	err = err ?: submit(fd, 0, bo, 1, 0, s3, PROBE_JOB_STORE, 0x2222, NULL);
	ok(!err, "a held job, one that waits for it, one that waits for nothing");
	usleep(200000);
	c = sync_wait(fd, s3, 100) == ETIME && sync_wait(fd, s2, 0) == ETIME;
	ok(c && p0[0] == v0,
	   "the free job did not overtake the waiting one: neither ran (%#x)", p0[0]);
	err = probe_done(fd, 0, seq, 0);
	c = !err && !sync_wait(fd, s2, 5000) && !sync_wait(fd, s3, 5000);
	ok(c && p0[0] == 0x2222,
	   "the held job ends; the waiting job, then the free one ran (%#x)", p0[0]);
	/* the ring idle again: a job starts and ends within its submit's wait */
	err = submit(fd, 0, bo, 1, 0, s1, PROBE_JOB_STORE, 0x3333, NULL);
	c = !err && !sync_wait(fd, s1, 5000);
	ok(c && p0[0] == 0x3333 && fence_status(fd, s1) == 1,
	   "a job for the idle ring ran, its fence signalled (%#x)", p0[0]);
	munmap(p0, mapped);
	close(fd);
	return 0;
}

/* accel_probe_multi: a ring with MULTI_JOBS jobs on the device at once. */
static int test_multi(const char *node)
{
	int fd = open_node(node), i, c, st[MULTI_SUBMIT], slots_ok = 1;
	__u32 bo[MULTI_SUBMIT], sync[MULTI_SUBMIT], *p[MULTI_SUBMIT];
	struct accel_probe_state s0 = {}, s1 = {};
	struct accel_probe_slot sl[MULTI_SUBMIT];
	__u64 seq[MULTI_SUBMIT], t[3], mapped;
	uint64_t base, n;
	unsigned int seen = 0;

	for (i = 0; i < MULTI_SUBMIT; i++) {
		p[i] = NULL;
		if (bo_create(fd, 4096, &bo[i], NULL) || drmSyncobjCreate(fd, 0, &sync[i]))
			break;
		p[i] = bo_map(fd, bo[i], &mapped);
		if (!p[i])
			break;
	}
	if (i < MULTI_SUBMIT) {
		ok(0, "%d buffers and syncobjs", MULTI_SUBMIT);
		return 1;
	}
	ioctl_err(fd, IOCTL_STATE, &s0);
	base = s0.jobs;
	for (i = 0; i < MULTI_SUBMIT; i++)
		if (submit(fd, 0, &bo[i], 1, 0, sync[i], PROBE_JOB_HOLD, 0, &seq[i]))
			break;
	c = i == MULTI_SUBMIT && probe_jobs_reach(fd, base + MULTI_JOBS);
	usleep(200000);
	n = probe_jobs(fd) - base;
	ok(c && n == MULTI_JOBS,
	   "%d jobs held on a ring of %d: %llu reach the device, the others wait for a slot",
	   MULTI_SUBMIT, MULTI_JOBS, (unsigned long long)n);

	for (i = 0; i < MULTI_SUBMIT; i++)
		sl[i] = probe_slot(fd, seq[i], 0x100 + i);
	for (i = 0; i < MULTI_JOBS; i++) {
		if (sl[i].slot < 0 || sl[i].slot >= MULTI_JOBS || sl[i].store ||
		    (seen & (1u << sl[i].slot)) || p[i][0] != 0x100u + i)
			slots_ok = 0;
		else
			seen |= 1u << sl[i].slot;
	}
	ok(slots_ok, "bpfdrv_job_slot gives each job on the device a slot of its own (%d %d %d %d), and a store through it lands in that job's buffer",
	   sl[0].slot, sl[1].slot, sl[2].slot, sl[3].slot);
	ok(sl[MULTI_JOBS].slot == -ENOENT && p[MULTI_JOBS][0] == 0,
	   "a job still queued has no slot: ENOENT (%d)", sl[MULTI_JOBS].slot);
	ok(sl[0].past_load == -ENOENT && sl[0].past_slot == -ENOENT,
	   "a slot past the ring's, and a seqno not on it: ENOENT (%d, %d)",
	   sl[0].past_load, sl[0].past_slot);

	c = !probe_done(fd, 0, seq[2], 0);
	st[2] = fence_status(fd, sync[2]);
	ok(c && st[2] == 0, "the third job ended before the first two: its fence waits for theirs (%d)",
	   st[2]);
	ok(probe_done(fd, 0, seq[2], 0) == -ENOENT && probe_slot(fd, seq[2], 0).slot == -ENOENT,
	   "ended, it is off the device: DONE again and its slot, ENOENT");
	c = !probe_done(fd, 0, seq[1], -ENOSPC);
	st[1] = fence_status(fd, sync[1]);
	ok(c && st[1] == 0, "the second ended with ENOSPC: its fence waits too (%d)", st[1]);
	c = !probe_done(fd, 0, seq[0], 0);
	for (i = 0; i < 4; i++)
		st[i] = fence_status(fd, sync[i]);
	for (i = 0; i < 3; i++)
		t[i] = fence_time(fd, sync[i]);
	ok(c && st[0] == 1 && st[1] == -ENOSPC && st[2] == 1 && st[3] == 0 &&
	   t[0] && t[0] <= t[1] && t[1] <= t[2],
	   "ending the first signals the first three at once, in order, the second with ENOSPC; the fourth runs on (%d %d %d %d)",
	   st[0], st[1], st[2], st[3]);
	ok(probe_jobs_reach(fd, base + MULTI_SUBMIT),
	   "their slots free, the two queued jobs start");

	/* jobs 4 to 6 on the device, held: the fourth times out first */
	for (i = 3; i < MULTI_SUBMIT; i++) {
		sync_wait(fd, sync[i], 20000);
		st[i] = fence_status(fd, sync[i]);
	}
	ioctl_err(fd, IOCTL_STATE, &s1);
	ok(st[3] == -ETIMEDOUT && st[4] == -ECANCELED && st[5] == -ECANCELED &&
	   s1.timeouts == s0.timeouts + 1 && s1.last_timeout == seq[3],
	   "the oldest times out (%d), the others on the device end with it, ECANCELED (%d %d); accel_timeout ran once, for it",
	   st[3], st[4], st[5]);
	c = !submit(fd, 0, &bo[0], 1, 0, sync[0], PROBE_JOB_STORE, 77, NULL) &&
	    !sync_wait(fd, sync[0], 5000);
	ok(c && fence_status(fd, sync[0]) == 1 && p[0][0] == 77,
	   "after the reset, a job runs on the ring (%u)", p[0][0]);
	if (multi_orders(fd, bo, sync))
		ok(0, "every order of ending %d jobs: the jobs ran", MULTI_JOBS);
	close(fd);
	return 0;
}

static int test_update(const char *node)
{
	int fd = open_node(node), c, st;
	__u64 size = 0, mapped = 0, seq = 0;
	uint32_t h = 0, s1 = 0, s2 = 0;
	char line[16];
	uint32_t *p = NULL;

	c = !bo_create(fd, 4096, &h, &size) && (p = bo_map(fd, h, &mapped)) &&
	    !drmSyncobjCreate(fd, 0, &s1) && !drmSyncobjCreate(fd, 0, &s2) &&
	    !submit(fd, 0, &h, 1, 0, s1, PROBE_JOB_HOLD, 0, &seq) &&
	    !submit(fd, 0, &h, 1, 0, s2, PROBE_JOB_STORE, 5, NULL);
	ok(c, "a job held on ring 0, and a STORE of 5 queued behind it");
	if (!c)
		return 1;
	printf("# ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		tap_diag("stdin closed");
	st = probe_done(fd, 0, seq, 0);
	ok(!st, "after the update, the new code's DONE ends the held job (%d)", st);
	c = !sync_wait(fd, s1, 5000) && !sync_wait(fd, s2, 5000);
	ok(c && p[0] == (5 | 0x80000000u),
	   "the queued job ran on the new code (%#x: its top bit set)", p[0]);
	st = fence_status(fd, s2);
	ok(st == 1, "its fence signalled without error (%d)", st);
	munmap(p, mapped);
	close(fd);
	return 0;
}

/* The job kfuncs at their edges, from run_job (PROBE_JOB_EDGES). */
static int test_edges(const char *node)
{
	int fd = open_node(node), err, st;
	struct accel_probe_edges *e;
	uint32_t bo, sync = 0;
	__u64 size, mapped;

	if (bo_create(fd, 8192, &bo, &size) || drmSyncobjCreate(fd, 0, &sync) ||
	    !(e = bo_map(fd, bo, &mapped))) {
		ok(0, "a buffer, mapped, and a syncobj");
		return 1;
	}
	memset(e, 0x55, sizeof(*e));
	err = submit(fd, 1, &bo, 1, 0, sync, PROBE_JOB_EDGES, size, NULL);
	err = err ?: sync_wait(fd, sync, 5000);
	st = fence_status(fd, sync);
	ok(!err && st == 1, "a job tries each job kfunc at its edge, and ends (%d)", st);
	ok(e->load_past_end == -ERANGE,
	   "bpfdrv_job_bo_load of 4 bytes 2 before the end of its %llu: ERANGE (%d)",
	   (unsigned long long)size, e->load_past_end);
	ok(e->load_wrap == -ERANGE, "... at offset 2^32 - 2 (no wrap): ERANGE (%d)",
	   e->load_wrap);
	ok(e->store_past_end == -ERANGE, "bpfdrv_job_bo_store at its end: ERANGE (%d)",
	   e->store_past_end);
	ok(e->load_no_bo == -ENOENT, "a buffer the job does not have: ENOENT (%d)",
	   e->load_no_bo);
	ok(e->load_too_big == -E2BIG,
	   "bpfdrv_job_bo_load of %u bytes, one past the copy limit: E2BIG (%d)",
	   BPFDRV_JOB_BO_COPY_MAX + 1, e->load_too_big);
	ok(e->load_other_ring == -ENOENT,
	   "a buffer of the other ring, where no job runs: ENOENT (%d)",
	   e->load_other_ring);
	ok(e->done_other_seqno == -ENOENT,
	   "bpfdrv_job_done of the next seqno: ENOENT (%d)", e->done_other_seqno);
	ok(e->done_bad_err == -EINVAL,
	   "bpfdrv_job_done with a positive error: EINVAL (%d)", e->done_bad_err);
	ok(e->dma == -EOPNOTSUPP,
	   "bpfdrv_job_bo_dma in a driver without accel_dma_bits: EOPNOTSUPP (%lld)",
	   (long long)e->dma);
	ok(e->vm_no_vm == -ENOENT, "bpfdrv_job_vm_load in a job that names no VM: ENOENT (%d)",
	   e->vm_no_vm);
	ok(e->vm_too_big == -E2BIG, "bpfdrv_job_vm_load of %u bytes: E2BIG (%d)",
	   BPFDRV_JOB_BO_COPY_MAX + 1, e->vm_too_big);
	ok(e->vm_dma_no_vm == -ENOENT, "bpfdrv_job_vm_dma in a job that names no VM: ENOENT (%d)",
	   e->vm_dma_no_vm);
	munmap(e, mapped);
	close(fd);
	return 0;
}

/* edu_stale's job @op on @nr buffers (0 or 1), waited for: 0 or -errno. */
static int stale_job(int fd, uint32_t *bo, uint32_t nr, uint32_t op,
		     uint32_t sync)
{
	struct drm_bpfdrv_submit sub = {
		.nr_bos = nr, .out_syncobj = sync, .arg_len = sizeof(op),
	};
	int err;

	if (nr)
		sub.bos[0] = *bo;
	memcpy(sub.arg, &op, sizeof(op));
	err = ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub) ?:
	      sync_wait(fd, sync, 5000);
	return err ?: fence_status(fd, sync) == 1 ? 0 : fence_status(fd, sync);
}

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	while (n--)
		if (*p++ != v)
			return false;
	return true;
}

/*
 * A device told to write, by DMA, to a buffer of a job that ended: the
 * buffer's pages are no longer mapped for it, so the IOMMU refuses the
 * write and the buffer keeps its bytes. The pauses let the kernel's lazy
 * IOTLB flush (10 ms at most) pass, which this does not test.
 */
static int test_stale(const char *node)
{
	int fd = open_node(node), err;
	uint32_t a, b, c, sync = 0;
	uint8_t *pa, *pb, *pc;
	__u64 size, mapped;

	if (bo_create(fd, 4096, &a, &size) || bo_create(fd, 4096, &b, &size) ||
	    bo_create(fd, 4096, &c, &size) || drmSyncobjCreate(fd, 0, &sync) ||
	    !(pa = bo_map(fd, a, &mapped)) || !(pb = bo_map(fd, b, &mapped)) ||
	    !(pc = bo_map(fd, c, &mapped))) {
		ok(0, "three buffers, mapped, and a syncobj");
		return 1;
	}
	memset(pa, 0x5a, 4096);
	memset(pb, 0xa5, 4096);
	memset(pc, 0, 4096);
	err = stale_job(fd, &a, 1, EDU_STALE_KEEP, sync);
	ok(!err, "a job on buffer A: bpfdrv_job_bo_dma refuses ranges past its end or empty (ERANGE) and a buffer the job lacks (ENOENT); the driver keeps A's bus address (%d)",
	   err);
	usleep(100000);
	err = stale_job(fd, &b, 1, EDU_STALE_LOAD, sync);
	ok(!err, "a job takes buffer B's bytes into the device by DMA (%d)", err);
	usleep(100000);
	err = stale_job(fd, NULL, 0, EDU_STALE_WRITE, sync);
	ok(!err, "a job without buffers has the device write them to A's old address (%d)",
	   err);
	ok(all_bytes(pa, 4096, 0x5a),
	   "A, whose job ended, kept its bytes: the write did not reach it");
	err = stale_job(fd, &c, 1, EDU_STALE_STORE, sync);
	ok(!err && all_bytes(pc, 4096, 0xa5),
	   "the same write into the running job's buffer C lands: C holds B's bytes (%d)",
	   err);
	close(fd);
	return 0;
}

/* accel_probe ejects itself: the detach follows, as by an unload. */
static int test_eject(const char *node)
{
	int fd = open_node(node), err;

	err = ioctl_err(fd, IOCTL_EJECT, NULL);
	ok(!err, "EJECT: the driver reports a fatal error (%s)", strerror(err));
	close(fd);
	return 0;
}

#define EDU_HOLD_JOBS	16

/*
 * edu_accel with DMA jobs on the device and queued (200 ms of the
 * device's time each) when its function goes (told by a line on stdin):
 * every fence is signalled, those cut off with an error, and the buffers
 * stay readable.
 */
static int test_edu_hold(const char *node)
{
	int fd = open_node(node), i, err, st, done = 0, failed = 0, other = 0;
	uint32_t bos[2], sync[EDU_HOLD_JOBS];
	int sf[EDU_HOLD_JOBS];
	struct edu_accel_job job = { .count = 4096, .op = EDU_ACCEL_OP_DMA };
	struct drm_bpfdrv_submit sub = {
		.nr_bos = 2, .arg_len = sizeof(job),
	};
	__u64 size, mapped;
	uint8_t *in;
	char line[16];

	if (bo_create(fd, 4096, &bos[0], &size) || bo_create(fd, 4096, &bos[1], &size) ||
	    !(in = bo_map(fd, bos[0], &mapped))) {
		ok(0, "two buffers, the input mapped");
		return 1;
	}
	fill(in, size, 29);
	memcpy(sub.bos, bos, sizeof(bos));
	memcpy(sub.arg, &job, sizeof(job));
	/* the node fails every ioctl once its device went: sync files now */
	for (i = 0; i < EDU_HOLD_JOBS; i++)
		sf[i] = -1;
	for (i = 0, err = 0; i < EDU_HOLD_JOBS && !err; i++) {
		err = drmSyncobjCreate(fd, 0, &sync[i]);
		sub.out_syncobj = sync[i];
		err = err ?: ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub);
		err = err ?: drmSyncobjExportSyncFile(fd, sync[i], &sf[i]);
	}
	ok(!err, "%d DMA jobs submitted, their fences as sync files", EDU_HOLD_JOBS);
	printf("# ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		tap_diag("stdin closed");
	for (i = 0; i < EDU_HOLD_JOBS; i++) {
		st = sf[i] >= 0 && sync_file_wait(sf[i], 10000) ?
		     sync_file_status(sf[i]) : -1000;
		if (sf[i] >= 0)
			close(sf[i]);
		if (st == 1)
			done++;
		else if (st == -ENODEV || st == -ECANCELED)
			failed++;
		else
			other++;
	}
	ok(!other && failed,
	   "every fence signalled: %d jobs done, %d cut off with ENODEV or ECANCELED, %d otherwise",
	   done, failed, other);
	err = bo_create(fd, 4096, &bos[0], NULL);
	ok(err == ENODEV, "BO_CREATE on the node fails: ENODEV (%s)", strerror(err));
	ok(filled(in, size, 29), "the input buffer's mapping reads it still");
	munmap(in, mapped);
	close(fd);
	return 0;
}

static int edu_op(int fd, uint32_t *bos, uint32_t op, uint32_t count,
		  uint32_t sync)
{
	struct drm_bpfdrv_submit sub = {
		.nr_bos = 2, .bos = { bos[0], bos[1] }, .out_syncobj = sync,
		.arg_len = sizeof(struct edu_accel_job),
	};
	struct edu_accel_job job = { .count = count, .op = op };

	memcpy(sub.arg, &job, sizeof(job));
	return ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub) ?: sync_wait(fd, sync, 5000);
}

static int edu_job(int fd, uint32_t *bos, uint32_t count, uint32_t sync)
{
	return edu_op(fd, bos, EDU_ACCEL_OP_FACT, count, sync);
}

/*
 * DMA jobs: bytes to the device and back, into buffers bpfdrv maps for the
 * device only while the job runs (through the guest's IOMMU).
 */
static void test_edu_dma(int fd, uint32_t *bos, uint32_t sync,
			 uint8_t *in, uint8_t *out)
{
	int err, st, i, bad;

	for (i = 0; i < EDU_ACCEL_DMA_MAX; i++)
		in[i] = i * 7 + 3;
	memset(out, 0, EDU_ACCEL_DMA_MAX);
	err = edu_op(fd, bos, EDU_ACCEL_OP_DMA, EDU_ACCEL_DMA_MAX, sync);
	st = fence_status(fd, sync);
	ok(!err && st == 1 && !memcmp(in, out, EDU_ACCEL_DMA_MAX),
	   "a DMA job takes 4 KiB to the device and back into the output buffer (%d, %d)",
	   err, st);
	memset(out, 0xee, EDU_ACCEL_DMA_MAX);
	in[0] ^= 0xff;
	err = edu_op(fd, bos, EDU_ACCEL_OP_DMA, 100, sync);
	st = fence_status(fd, sync);
	for (i = 100, bad = 0; i < EDU_ACCEL_DMA_MAX; i++)
		bad += out[i] != 0xee;
	ok(!err && st == 1 && !memcmp(in, out, 100) && !bad,
	   "a DMA job of 100 bytes moves those and no more (%d past them)", bad);
	err = edu_op(fd, bos, EDU_ACCEL_OP_DMA, EDU_ACCEL_DMA_MAX + 1, sync);
	st = fence_status(fd, sync);
	ok(!err && st == -EINVAL, "a DMA job past the device's memory: EINVAL (%d)", st);
	err = edu_op(fd, bos, 7, 4, sync);
	st = fence_status(fd, sync);
	ok(!err && st == -EINVAL, "an unknown operation: EINVAL (%d)", st);
}

static int test_edu(const char *node, int jobs, bool dma)
{
	int fd = open_node(node), i, bad = 0, err, st;
	uint32_t bos[2], sync = 0, *in, *out, f = 1;
	__u64 size, mapped;
	int64_t t0;

	if (bo_create(fd, 4096, &bos[0], &size) || bo_create(fd, 4096, &bos[1], &size) ||
	    drmSyncobjCreate(fd, 0, &sync) || !(in = bo_map(fd, bos[0], &mapped)) ||
	    !(out = bo_map(fd, bos[1], &mapped))) {
		ok(0, "two buffers, mapped, and a syncobj");
		return 1;
	}
	for (i = 0; i <= EDU_ACCEL_VALUE_MAX; i++)
		in[i] = EDU_ACCEL_VALUE_MAX - i;
	err = edu_job(fd, bos, EDU_ACCEL_VALUE_MAX + 1, sync);
	st = fence_status(fd, sync);
	for (i = EDU_ACCEL_VALUE_MAX; i >= 0; i--) {
		if (out[i] != f)
			bad++;
		f *= EDU_ACCEL_VALUE_MAX - i + 1;
	}
	ok(!err && st == 1 && !bad,
	   "a job computes 12!, 11!, ..., 0! on the device, by interrupt (%d wrong; 12! = %u)",
	   bad, out[0]);
	in[0] = 3;
	in[1] = EDU_ACCEL_VALUE_MAX + 1;
	err = edu_job(fd, bos, 2, sync);
	st = fence_status(fd, sync);
	ok(!err && st == -EDOM && out[0] == 6,
	   "a value past 12 ends its job with EDOM, from irq_hard (%d; 3! = %u first)",
	   st, out[0]);
	err = edu_job(fd, bos, EDU_ACCEL_VALUES_MAX + 1, sync);
	st = fence_status(fd, sync);
	ok(!err && st == -EINVAL, "more values than a job may have: EINVAL (%d)", st);
	err = edu_job(fd, bos, 0, sync);
	st = fence_status(fd, sync);
	ok(!err && st == -EINVAL, "no value: EINVAL (%d)", st);
	if (dma)
		test_edu_dma(fd, bos, sync, (uint8_t *)in, (uint8_t *)out);

	for (i = 0; i <= EDU_ACCEL_VALUE_MAX; i++)
		in[i] = i;
	t0 = now_ns();
	for (i = 0, bad = 0; i < jobs; i++) {
		out[EDU_ACCEL_VALUE_MAX] = 0;
		if (edu_job(fd, bos, EDU_ACCEL_VALUE_MAX + 1, sync) ||
		    fence_status(fd, sync) != 1 || out[EDU_ACCEL_VALUE_MAX] != 479001600)
			bad++;
	}
	ok(!bad, "%d jobs of 13 factorials, one after the other: all right (%d wrong; %.0f jobs/s)",
	   jobs, bad, jobs / ((now_ns() - t0) / 1e9));
	close(fd);
	return 0;
}

/* Wait for the go line on stdin, after "# ready". */
static void wait_go(void)
{
	char line[16];

	printf("# ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		tap_diag("stdin closed");
}

/*
 * A flood behind a job that never ends (accel_probe_long's HOLD), over
 * @files files: each takes BPFDRV_ACCEL_FILE_JOBS_MAX jobs, then EBUSY.
 * Then the client is killed (told by a line on stdin, the shell sends
 * SIGKILL): its queued jobs are killed behind the held one, and the
 * driver is unloaded with them waiting (48-accel.sh).
 */
/* Jobs each edu_accel submitter keeps in flight, on buffers of their own */
#define EDU_DEPTH	4

struct edu_submitter {
	const char *node;
	int id, jobs, bad, done;
};

/* Submit job @k: a DMA of marked bytes every eighth (edu takes 200 ms), else 13 factorials. */
static int edu_submit(int fd, uint32_t *bos, uint32_t sync, uint32_t *in,
		      uint32_t *out, int id, int k)
{
	struct drm_bpfdrv_submit sub = {
		.nr_bos = 2, .bos = { bos[0], bos[1] }, .out_syncobj = sync,
		.arg_len = sizeof(struct edu_accel_job),
	};
	struct edu_accel_job job = { .count = EDU_ACCEL_VALUE_MAX + 1 };
	int i;

	if (k % 8 == 7) {
		job.op = EDU_ACCEL_OP_DMA;
		job.count = EDU_ACCEL_DMA_MAX;
		fill(in, EDU_ACCEL_DMA_MAX, id * 100000 + k);
		memset(out, 0, EDU_ACCEL_DMA_MAX);
	} else {
		for (i = 0; i <= EDU_ACCEL_VALUE_MAX; i++)
			in[i] = (i + id + k) % (EDU_ACCEL_VALUE_MAX + 1);
		memset(out, 0, 4 * (EDU_ACCEL_VALUE_MAX + 1));
	}
	memcpy(sub.arg, &job, sizeof(job));
	return ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub);
}

/* Job @k's result in @out: right? */
static int edu_right(const uint32_t *in, const uint32_t *out, int id, int k)
{
	uint32_t f;
	int i, v;

	if (k % 8 == 7)
		return filled(out, EDU_ACCEL_DMA_MAX, id * 100000 + k);
	for (i = 0; i <= EDU_ACCEL_VALUE_MAX; i++) {
		for (f = 1, v = 2; v <= (int)in[i]; v++)
			f *= v;
		if (out[i] != f)
			return 0;
	}
	return 1;
}

static void *edu_submitter_run(void *arg)
{
	struct edu_submitter *es = arg;
	uint32_t bos[EDU_DEPTH][2], sync[EDU_DEPTH], *in[EDU_DEPTH], *out[EDU_DEPTH];
	int fd = open_node(es->node), j, k, next = 0;
	__u64 mapped;

	for (j = 0; j < EDU_DEPTH; j++)
		if (bo_create(fd, 4096, &bos[j][0], NULL) ||
		    bo_create(fd, 4096, &bos[j][1], NULL) ||
		    drmSyncobjCreate(fd, 0, &sync[j]) ||
		    !(in[j] = bo_map(fd, bos[j][0], &mapped)) ||
		    !(out[j] = bo_map(fd, bos[j][1], &mapped))) {
			es->bad = es->jobs;
			close(fd);
			return NULL;
		}
	/* job k on pair k % EDU_DEPTH: EDU_DEPTH of them in flight */
	for (k = 0; k < es->jobs + EDU_DEPTH; k++) {
		j = k % EDU_DEPTH;
		if (k >= EDU_DEPTH) {
			int d = k - EDU_DEPTH;

			if (sync_wait(fd, sync[j], 10000) || fence_status(fd, sync[j]) != 1 ||
			    !edu_right(in[j], out[j], es->id, d))
				es->bad++;
			es->done++;
		}
		if (next < es->jobs && !edu_submit(fd, bos[j], sync[j], in[j], out[j],
						  es->id, next) && ++next)
			continue;
		if (next < es->jobs) {
			es->bad += es->jobs - next;
			break;
		}
	}
	close(fd);
	return NULL;
}

/*
 * edu_accel: @n submitters, each with EDU_DEPTH jobs in flight (factorials
 * and DMA), every result checked.
 */
static int test_edu_threads(const char *node, int n, int jobs)
{
	struct edu_submitter es[16];
	pthread_t t[16];
	int i, bad = 0, done = 0;
	int64_t t0 = now_ns();

	if (n < 1 || n > 16)
		n = 4;
	for (i = 0; i < n; i++) {
		es[i] = (struct edu_submitter){ .node = node, .id = i, .jobs = jobs };
		pthread_create(&t[i], NULL, edu_submitter_run, &es[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		bad += es[i].bad;
		done += es[i].done;
	}
	ok(!bad && done == n * jobs,
	   "%d submitters, %d jobs each with %d in flight (factorials, and DMA every eighth): every result right (%d wrong, %d of %d checked, %.0f jobs/s)",
	   n, jobs, EDU_DEPTH, bad, done, n * jobs, n * jobs / ((now_ns() - t0) / 1e9));
	return 0;
}

static int test_flood(const char *node, int files)
{
	int fd[16], i, n, err = 0, full = 0, queued = 0;
	uint32_t h[16];

	if (files > 16 || files < 1)
		files = files < 1 ? 1 : 16;
	for (i = 0; i < files; i++) {
		fd[i] = open_node(node);
		h[i] = 0;
		bo_create(fd[i], 4096, &h[i], NULL);
	}
	ok(!submit(fd[0], 0, &h[0], 1, 0, 0, PROBE_JOB_HOLD, 0, NULL),
	   "a job held on ring 0");
	for (i = 0; i < files; i++) {
		for (n = i == 0; n <= BPFDRV_ACCEL_FILE_JOBS_MAX; n++) {
			err = submit(fd[i], 0, &h[i], 1, 0, 0, PROBE_JOB_STORE, n, NULL);
			if (err)
				break;
			queued++;
		}
		full += n == BPFDRV_ACCEL_FILE_JOBS_MAX && err == EBUSY;
	}
	ok(full == files, "each of %d files took %d jobs, then EBUSY (%d did; %d queued)",
	   files, BPFDRV_ACCEL_FILE_JOBS_MAX, full, queued);
	printf("# queued %d\n", queued);
	wait_go();
	/* killed here: its files go with the jobs queued */
	pause();
	return 0;
}

/* No dumb buffers on an accel node: they would bypass the limits. */
static int test_dumb(const char *node)
{
	int fd = open_node(node), err;
	struct drm_mode_create_dumb c = { .width = 4096, .height = 4096, .bpp = 32 };

	err = ioctl_err(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	ok(err && !c.handle, "MODE_CREATE_DUMB is refused: no buffer (%s)", strerror(err));
	close(fd);
	return 0;
}

/*
 * Whoever may open the node: the driver's declared mode decides, not the
 * node's (the shell makes it 0666, as a permissive udev rule would).
 */
static int test_nonroot(const char *node, int expect)
{
	int fd, err;

	if (setgid(65534) || setuid(65534)) {
		ok(0, "become uid 65534 (%s)", strerror(errno));
		return 0;
	}
	fd = open(node, O_RDWR | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	ok(err == expect, "uid 65534 opens %s: %s (want %s)", node,
	   err ? strerror(err) : "ok", expect ? strerror(expect) : "ok");
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * A run_job that loops without end: its loops end at the fence path's
 * budget, the driver is ejected, and the job's fence signals with an
 * error well within the job timeout.
 */
static int test_budget(const char *node)
{
	int fd = open_node(node), err, st, sf = -1, c;
	uint32_t h = 0, s = 0;
	int64_t t0;

	ok(!bo_create(fd, 4096, &h, NULL) && !drmSyncobjCreate(fd, 0, &s),
	   "a buffer and a syncobj");
	t0 = now_ns();
	err = submit(fd, 0, &h, 1, 0, s, PROBE_JOB_LOOP, 0, NULL);
	/* as a sync file: the node goes with the ejected driver */
	if (!err)
		err = drmSyncobjExportSyncFile(fd, s, &sf) ? errno : 0;
	ok(!err, "a job whose run_job loops without end is queued (%s)", strerror(err));
	c = sync_file_wait(sf, 5000);
	st = sync_file_status(sf);
	ok(c && st < 0 && st != -ETIMEDOUT,
	   "its fence signals with an error (%d), at the ejection, not the timeout, after %lld ms",
	   st, (long long)((now_ns() - t0) / 1000000));
	close(sf);
	close(fd);
	return 0;
}

/*
 * Buffers pinned by jobs are charged to the caller's memory cgroup: in a
 * small one (the shell's), the pins fail, or the cgroup's OOM killer ends
 * this client; either way nothing outside it.
 */
static int test_pin(const char *node, int mib)
{
	int fd = open_node(node), n = 0, err = 0;
	uint32_t h;
	__u64 size = 0;

	/*
	 * Its own pages charged and locked first, its output buffer too:
	 * at the limit, any page it faulted in would be the cgroup's OOM
	 * killer's to find.
	 */
	tap_diag("pinning %d MiB in buffers of 64 MiB", mib);
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		tap_diag("mlockall: %s", strerror(errno));
	while (n * 64 < mib) {
		err = bo_create(fd, 64 << 20, &h, &size);
		if (!err)
			err = submit(fd, 0, &h, 1, 0, 0, PROBE_JOB_STORE, n, NULL);
		if (err)
			break;
		n++;
		/* each job pins its buffer's pages, allocated by this task */
	}
	/* the buffers' pages go with the file, and the cgroup's charge */
	close(fd);
	tap_diag("%d buffers of 64 MiB pinned by jobs, then %s", n,
		 err ? strerror(err) : "the end");
	ok(err == ENOMEM || err == ENOSPC, "pinning %d MiB in a small cgroup fails: %s",
	   mib, strerror(err));
	return 0;
}

/*
 * Fences that outlive their driver: a job that ended and one held, as
 * sync files, kept across a detach (told by a line on stdin) while the
 * shell tries to unload bpfdrv_accel.ko; then read back.
 */
static int test_fences(const char *node)
{
	int fd = open_node(node), sf1 = -1, sf2 = -1, st1, st2;
	struct sync_file_info i1 = {}, i2 = {};
	uint32_t h = 0, s1 = 0, s2 = 0;

	ok(!bo_create(fd, 4096, &h, NULL) && !drmSyncobjCreate(fd, 0, &s1) &&
	   !drmSyncobjCreate(fd, 0, &s2) &&
	   !submit(fd, 1, &h, 1, 0, s1, PROBE_JOB_STORE, 7, NULL) &&
	   !sync_wait(fd, s1, 5000) &&
	   !submit(fd, 0, &h, 1, 0, s2, PROBE_JOB_HOLD, 0, NULL),
	   "a job done on ring 1, one held on ring 0");
	ok(!drmSyncobjExportSyncFile(fd, s1, &sf1) &&
	   !drmSyncobjExportSyncFile(fd, s2, &sf2), "their fences as sync files");
	close(fd);
	wait_go();
	ok(sync_file_wait(sf2, 5000), "the held job's fence signalled at the detach");
	st1 = ioctl(sf1, SYNC_IOC_FILE_INFO, &i1) ? -errno : i1.status;
	st2 = ioctl(sf2, SYNC_IOC_FILE_INFO, &i2) ? -errno : i2.status;
	ok(st1 == 1 && st2 == -ENODEV,
	   "after it both read back: done (%d, \"%s\"), ENODEV (%d, \"%s\")",
	   st1, i1.name, st2, i2.name);
	close(sf1);
	close(sf2);
	return 0;
}

/*
 * The other way round: a job of this ring is the fence another device's
 * buffer waits for (a vgem buffer's reservation object, as implicit sync
 * sets it), held by the driver while the shell puts the guest's memory
 * under pressure, then ended: waiters on the vgem buffer wake, and
 * lockdep (the debug kernel) sees every wait and signal on the way.
 */
static int test_resv(const char *node, const char *vgem_node)
{
	int fd = open_node(node), vg = open_node(vgem_node), vbuf = -1, c, st;
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct dma_buf_import_sync_file isf = { .flags = DMA_BUF_SYNC_WRITE };
	struct dma_buf_export_sync_file esf = { .flags = DMA_BUF_SYNC_READ };
	struct pollfd pfd;
	uint32_t h = 0, out = 0;
	__u64 seqno = 0;
	int64_t t0;

	c = !bo_create(fd, 4096, &h, NULL) && !drmSyncobjCreate(fd, 0, &out) &&
	    !drmIoctl(vg, DRM_IOCTL_MODE_CREATE_DUMB, &dumb) &&
	    !drmPrimeHandleToFD(vg, dumb.handle, DRM_CLOEXEC | DRM_RDWR, &vbuf) &&
	    !submit(fd, 0, &h, 1, 0, out, PROBE_JOB_HOLD, 0, &seqno) &&
	    !drmSyncobjExportSyncFile(fd, out, &isf.fd) &&
	    !ioctl(vbuf, DMA_BUF_IOCTL_IMPORT_SYNC_FILE, &isf);
	ok(c, "a job held on ring 0 is the write fence of a vgem buffer");
	if (!c)
		goto out;
	close(isf.fd);
	pfd = (struct pollfd){ .fd = vbuf, .events = POLLIN };
	ok(poll(&pfd, 1, 100) == 0, "a reader of the vgem buffer waits for it");
	wait_go();
	t0 = now_ns();
	ok(!probe_done(fd, 0, seqno, 0), "DONE ends the job");
	ok(poll(&pfd, 1, 5000) == 1, "the vgem buffer's reader wakes (%lld ms)",
	   (long long)((now_ns() - t0) / 1000000));
	c = !ioctl(vbuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &esf);
	st = c ? sync_file_status(esf.fd) : -1;
	ok(c && st == 1, "and its implicit fences are all signalled (%d)", st);
	if (c)
		close(esf.fd);
out:
	if (vbuf >= 0)
		close(vbuf);
	close(vg);
	close(fd);
	return 0;
}

/* SUBMIT with every field: the timeline points, flags and priority */
static int submit2(int fd, uint32_t ring, const uint32_t *bos, uint32_t nr_bos,
		   uint32_t in, __u64 in_point, uint32_t out, __u64 out_point,
		   uint32_t flags, uint32_t prio, uint32_t mode, uint32_t value,
		   __u64 *seqno)
{
	struct drm_bpfdrv_submit sub = {
		.ring = ring, .nr_bos = nr_bos, .in_syncobj = in,
		.out_syncobj = out, .arg_len = sizeof(struct accel_probe_job),
		.in_point = in_point, .out_point = out_point, .flags = flags,
		.priority = prio,
	};
	struct accel_probe_job job = { .mode = mode, .value = value };
	int err;

	memcpy(sub.bos, bos, nr_bos * sizeof(*bos));
	memcpy(sub.arg, &job, sizeof(job));
	err = ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub);
	if (!err && seqno)
		*seqno = sub.seqno;
	return err;
}

/* GET_PARAM: its errno, the value in *@v */
static int get_param(int fd, __u32 param, __u32 index, __u64 *v)
{
	struct drm_bpfdrv_get_param gp = { .param = param, .index = index };
	int err = ioctl_err(fd, DRM_IOCTL_BPFDRV_GET_PARAM, &gp);

	*v = gp.value;
	return err;
}

/*
 * GET_PARAM on accel_probe (@rings 0: accel_probe_norings): each of
 * bpfdrv's against what the driver declared, every other number and index
 * refused, and the driver's own answered by its accel_get_param.
 */
static int test_params(const char *node, unsigned int rings)
{
	static const struct { __u32 param; __u64 want; const char *name; } known[] = {
		{ BPFDRV_ACCEL_PARAM_ABI_VERSION, BPFDRV_ABI_VERSION, "ABI_VERSION" },
		{ BPFDRV_ACCEL_PARAM_BO_MAX, BPFDRV_ACCEL_BO_MAX, "BO_MAX" },
		{ BPFDRV_ACCEL_PARAM_BO_TOTAL, BPFDRV_ACCEL_BO_TOTAL, "BO_TOTAL" },
		{ BPFDRV_ACCEL_PARAM_FILE_JOBS, BPFDRV_ACCEL_FILE_JOBS_MAX, "FILE_JOBS" },
		{ BPFDRV_ACCEL_PARAM_JOB_BOS, BPFDRV_ACCEL_JOB_BOS_MAX, "JOB_BOS" },
		{ BPFDRV_ACCEL_PARAM_JOB_ARG, BPFDRV_ACCEL_JOB_ARG_MAX, "JOB_ARG" },
		{ BPFDRV_ACCEL_PARAM_DMA_BITS, 0, "DMA_BITS" },
		{ BPFDRV_ACCEL_PARAM_VA_BITS, 0, "VA_BITS" },
		{ BPFDRV_ACCEL_PARAM_FEATURES, BPFDRV_ACCEL_FEATURE_TIMELINE |
		  BPFDRV_ACCEL_FEATURE_IMPLICIT | BPFDRV_ACCEL_FEATURE_PRIORITY, "FEATURES" },
	};
	int fd = open_node(node), i, bad = 0, err;
	struct accel_probe_state st = {};
	__u64 v, used0, used1, used2;
	__u32 h = 0, p;

	for (i = 0; i < (int)(sizeof(known) / sizeof(known[0])); i++) {
		err = get_param(fd, known[i].param, 0, &v);
		ok(!err && v == known[i].want, "GET_PARAM %s: %llu (%s)", known[i].name,
		   (unsigned long long)v, strerror(err));
	}
	err = get_param(fd, BPFDRV_ACCEL_PARAM_RINGS, 0, &v);
	ok(!err && v == rings, "GET_PARAM RINGS: %llu, the driver's %u", (unsigned long long)v,
	   rings);
	err = get_param(fd, BPFDRV_ACCEL_PARAM_TIMEOUT_MS, 0, &v);
	ok(!err && v == (rings ? ACCEL_PROBE_TIMEOUT_MS : BPFDRV_ACCEL_TIMEOUT_MS),
	   "GET_PARAM TIMEOUT_MS: %llu", (unsigned long long)v);
	for (i = 0; i < (int)rings; i++) {
		err = get_param(fd, BPFDRV_ACCEL_PARAM_RING_JOBS, i, &v);
		ok(!err && v == ACCEL_PROBE_RING_JOBS, "GET_PARAM RING_JOBS of ring %d: %llu",
		   i, (unsigned long long)v);
	}
	ok(get_param(fd, BPFDRV_ACCEL_PARAM_RING_JOBS, rings, &v) == EINVAL,
	   "GET_PARAM RING_JOBS of ring %u, which it has not: EINVAL", rings);
	/* every other number below the driver's, and every index but 0 */
	for (p = 0; p < BPFDRV_ACCEL_PARAM_DRIVER; p++) {
		err = get_param(fd, p, 0, &v);
		if (p > BPFDRV_ACCEL_PARAM_VA_BITS && err != EINVAL)
			bad++;
		if (p != BPFDRV_ACCEL_PARAM_RING_JOBS &&
		    get_param(fd, p, p + 1, &v) != EINVAL)
			bad++;
	}
	ok(!bad, "GET_PARAM: each of the %u numbers it has not, and each index where none is taken: EINVAL (%d not)",
	   BPFDRV_ACCEL_PARAM_DRIVER - BPFDRV_ACCEL_PARAM_VA_BITS - 1, bad);
	get_param(fd, BPFDRV_ACCEL_PARAM_BO_USED, 0, &used0);
	err = bo_create(fd, 65536, &h, NULL);
	get_param(fd, BPFDRV_ACCEL_PARAM_BO_USED, 0, &used1);
	gem_close(fd, h);
	get_param(fd, BPFDRV_ACCEL_PARAM_BO_USED, 0, &used2);
	ok(!err && used1 == used0 + 65536 && used2 == used0,
	   "GET_PARAM BO_USED: %llu, %llu with a 64 KiB buffer, %llu after it",
	   (unsigned long long)used0, (unsigned long long)used1, (unsigned long long)used2);

	/* the driver's */
	for (i = 0; i < 3; i++)
		ioctl_err(fd, IOCTL_PING, NULL);
	ioctl_err(fd, IOCTL_STATE, &st);
	err = get_param(fd, BPFDRV_ACCEL_PARAM_DRIVER + ACCEL_PROBE_PARAM_PINGS, 0, &v);
	ok(!err && v == st.pings && v >= 3, "the driver's PINGS: %llu, as its state says (%llu)",
	   (unsigned long long)v, (unsigned long long)st.pings);
	for (i = 0, bad = 0; i < 4; i++)
		if (get_param(fd, BPFDRV_ACCEL_PARAM_DRIVER + ACCEL_PROBE_PARAM_INDEX, i, &v) ||
		    v != (__u64)i * 3 + 1)
			bad++;
	ok(!bad, "the driver's INDEX for index 0..3: index * 3 + 1");
	ok(get_param(fd, BPFDRV_ACCEL_PARAM_DRIVER + ACCEL_PROBE_PARAM_INDEX, 4, &v) == EINVAL,
	   "the driver's INDEX for index 4, which it refuses: EINVAL");
	err = get_param(fd, BPFDRV_ACCEL_PARAM_DRIVER + ACCEL_PROBE_PARAM_BAD, 0, &v);
	ok(err == EIO && !v, "the driver's answer out of its range (7): EIO, no value (%s)",
	   strerror(err));
	ok(get_param(fd, BPFDRV_ACCEL_PARAM_DRIVER + 3, 0, &v) == EINVAL &&
	   get_param(fd, 0xffffffff, 0, &v) == EINVAL,
	   "a parameter the driver has not: EINVAL");
	close(fd);
	return 0;
}

/* A driver without accel_get_param: its parameters are refused. */
static int test_params_absent(const char *node)
{
	int fd = open_node(node);
	__u64 v = 0;

	ok(get_param(fd, BPFDRV_ACCEL_PARAM_DRIVER, 0, &v) == EINVAL,
	   "a driver without accel_get_param: its parameters EINVAL");
	ok(!get_param(fd, BPFDRV_ACCEL_PARAM_RINGS, 0, &v) && v > 0,
	   "bpfdrv's are answered (RINGS %llu)", (unsigned long long)v);
	close(fd);
	return 0;
}

/* The last signalled point of timeline @t */
static __u64 timeline_point(int fd, uint32_t t)
{
	uint64_t point = ~0ULL;

	return drmSyncobjQuery(fd, &t, &point, 1) ? ~0ULL : point;
}

/*
 * Timeline syncobjs: a held job gives point 1, a job waiting for point 1
 * gives point 2; a point not there, or one without its syncobj, refused.
 */
static int test_timeline(const char *node)
{
	int fd = open_node(node), c;
	uint32_t t = 0, bin = 0, plain = 0, bo;
	int i;
	__u64 seq = 0, mapped;
	uint64_t pt = 2;
	uint32_t *p;

	c = !bo_create(fd, 4096, &bo, NULL) && !drmSyncobjCreate(fd, 0, &t) &&
	    !drmSyncobjCreate(fd, 0, &bin) && !drmSyncobjCreate(fd, 0, &plain);
	p = c ? bo_map(fd, bo, &mapped) : NULL;
	ok(p && !submit2(fd, 0, &bo, 1, 0, 0, t, 1, 0, 0, PROBE_JOB_HOLD, 0, &seq),
	   "a held job gives timeline point 1");
	ok(!submit2(fd, 0, &bo, 1, t, 1, t, 2, 0, 0, PROBE_JOB_STORE, 0x7e1, NULL),
	   "a job waits for point 1 and gives point 2");
	usleep(100000);
	ok(timeline_point(fd, t) == 0 && p && p[0] != 0x7e1,
	   "neither point is signalled, the second job has not run (%llu)",
	   (unsigned long long)timeline_point(fd, t));
	ok(!probe_done(fd, 0, seq, 0), "DONE ends the held job");
	c = !drmSyncobjTimelineWait(fd, &t, &pt, 1, now_ns() + 5000000000LL,
				    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL);
	ok(c && timeline_point(fd, t) == 2 && p && p[0] == 0x7e1,
	   "point 2 is signalled once the second job ran (%llu, %#x)",
	   (unsigned long long)timeline_point(fd, t), p ? p[0] : 0);
	ok(!submit2(fd, 1, &bo, 1, t, 2, t, 3, 0, 0, PROBE_JOB_STORE, 0x7e3, NULL) &&
	   (pt = 3, !drmSyncobjTimelineWait(fd, &t, &pt, 1, now_ns() + 5000000000LL,
					    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL)) &&
	   p[0] == 0x7e3, "a job for an idle ring (started by its submit) gives point 3");
	ok(!drmSyncobjTransfer(fd, bin, 0, t, 3, 0) && fence_status(fd, bin) == 1,
	   "point 3 transferred to a binary syncobj is signalled (the device has timelines)");
	ok(submit2(fd, 0, &bo, 1, t, 9, 0, 0, 0, 0, PROBE_JOB_STORE, 0, NULL) == EINVAL,
	   "waiting for a point not submitted: EINVAL");
	/* a job's own fence in a syncobj, no timeline's link: it has no points */
	c = !submit(fd, 1, &bo, 1, 0, plain, PROBE_JOB_STORE, 0x7e4, NULL) &&
	    !sync_wait(fd, plain, 5000);
	ok(c && submit2(fd, 0, &bo, 1, plain, 1, 0, 0, 0, 0, PROBE_JOB_STORE, 0, NULL) == EINVAL,
	   "a point of a syncobj that holds a job's fence, not a timeline: EINVAL");
	/* a refused wait puts nothing of the timeline's (the log check) */
	for (i = 0, c = 1; i < 16; i++)
		c = c && submit2(fd, 0, &bo, 1, t, 9, 0, 0, 0, 0, PROBE_JOB_STORE, 0,
				 NULL) == EINVAL;
	ok(c && timeline_point(fd, t) == 3 && !drmSyncobjTransfer(fd, bin, 0, t, 3, 0) &&
	   fence_status(fd, bin) == 1, "16 waits more for it refused: the timeline is intact");
	ok(submit2(fd, 0, &bo, 1, 0, 1, 0, 0, 0, 0, PROBE_JOB_STORE, 0, NULL) == EINVAL &&
	   submit2(fd, 0, &bo, 1, 0, 0, 0, 1, 0, 0, PROBE_JOB_STORE, 0, NULL) == EINVAL,
	   "a point without its syncobj: EINVAL");
	if (p)
		munmap(p, mapped);
	close(fd);
	return 0;
}

/*
 * Implicit sync with another device (vgem): a job on a buffer vgem holds a
 * write fence on waits for it (or not: BPFDRV_SUBMIT_NO_IMPLICIT); a held
 * job's buffer, exported after its submit, has its fence for readers; this
 * device's own jobs on one buffer are not ordered by it.
 */
static int test_implicit(const char *node, const char *vgem_node)
{
	int fd = open_node(node), vg = open_node(vgem_node), vbuf = -1, db = -1, c, i;
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct drm_vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct drm_vgem_fence_signal sig = {};
	uint32_t imp = 0, own = 0, s = 0, twice[2], v;
	struct pollfd pfd;
	__u64 seq = 0, mapped = 0;
	uint32_t *p = NULL;

	c = !drmIoctl(vg, DRM_IOCTL_MODE_CREATE_DUMB, &dumb) &&
	    !drmPrimeHandleToFD(vg, dumb.handle, DRM_CLOEXEC | DRM_RDWR, &vbuf) &&
	    !drmPrimeFDToHandle(fd, vbuf, &imp) && !drmSyncobjCreate(fd, 0, &s) &&
	    !bo_create(fd, 4096, &own, NULL);
	p = c ? bo_map(fd, imp, &mapped) : NULL;
	ok(p != NULL, "a vgem buffer, imported here");
	if (!p)
		goto out;
	for (i = 0; i < 2; i++) {
		bool opt_out = i;

		attach.handle = dumb.handle;
		c = !drmIoctl(vg, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach) &&
		    !submit2(fd, 0, &imp, 1, 0, 0, s, 0,
			     opt_out ? BPFDRV_SUBMIT_NO_IMPLICIT : 0, 0,
			     PROBE_JOB_STORE, 0x1a0 + i, NULL);
		ok(c, "%s: vgem holds a write fence on it, a job stores into it",
		   opt_out ? "NO_IMPLICIT" : "implicit");
		usleep(100000);
		if (!opt_out)
			ok(sync_wait(fd, s, 0) == ETIME && p[0] != 0x1a0,
			   "implicit: the job waits for vgem's fence, with no syncobj (%#x)", p[0]);
		else
			ok(!sync_wait(fd, s, 5000) && p[0] == 0x1a1,
			   "NO_IMPLICIT: the job ran at once (%#x)", p[0]);
		sig.fence = attach.out_fence;
		c = !drmIoctl(vg, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig) && !sync_wait(fd, s, 5000) &&
		    fence_status(fd, s) == 1;
		v = p[0];
		ok(c && v == 0x1a0 + (__u32)i, "%s: vgem signals; the job has run (%#x)",
		   opt_out ? "NO_IMPLICIT" : "implicit", v);
	}

	/* its own jobs: a held job's buffer, exported after, has its fence */
	ok(!submit(fd, 0, &own, 1, 0, 0, PROBE_JOB_HOLD, 0, &seq) &&
	   !drmPrimeHandleToFD(fd, own, DRM_CLOEXEC | DRM_RDWR, &db),
	   "a held job's buffer, exported after its submit");
	pfd = (struct pollfd){ .fd = db, .events = POLLIN };
	ok(db >= 0 && poll(&pfd, 1, 100) == 0, "a reader of the dma-buf waits for the job");
	ok(!submit2(fd, 1, &own, 1, 0, 0, s, 0, 0, 0, PROBE_JOB_STORE, 0x2b, NULL) &&
	   !sync_wait(fd, s, 5000), "a job of this device on the same buffer does not wait for it");
	twice[0] = twice[1] = own;
	ok(!submit2(fd, 1, twice, 2, 0, 0, s, 0, 0, 0, PROBE_JOB_STORE, 0x2c, NULL) &&
	   !sync_wait(fd, s, 5000), "a job naming one buffer twice runs");
	ok(!probe_done(fd, 0, seq, 0) && poll(&pfd, 1, 5000) == 1,
	   "DONE ends the held job: the dma-buf's reader wakes");
out:
	if (p)
		munmap(p, mapped);
	if (db >= 0)
		close(db);
	if (vbuf >= 0)
		close(vbuf);
	close(vg);
	close(fd);
	return 0;
}

/*
 * Priorities on a ring of one job: behind a held job, two low, a normal
 * and a high one queued in that order start high, normal, low, low.
 */
static int test_priority(const char *node)
{
	static const __u32 prio[4] = {
		BPFDRV_ACCEL_PRIORITY_LOW, BPFDRV_ACCEL_PRIORITY_LOW,
		BPFDRV_ACCEL_PRIORITY_NORMAL, BPFDRV_ACCEL_PRIORITY_HIGH,
	};
	static const int order[4] = { 3, 2, 0, 1 };	/* which starts when */
	int fd = open_node(node), i, c, err;
	uint32_t bo = 0, s[4] = {};
	__u64 seq = 0, t[4];

	c = !bo_create(fd, 4096, &bo, NULL);
	for (i = 0; i < 4; i++)
		c = c && !drmSyncobjCreate(fd, 0, &s[i]);
	ok(c && !submit(fd, 0, &bo, 1, 0, 0, PROBE_JOB_HOLD, 0, &seq), "a held job on ring 0");
	for (i = 0, err = 0; i < 4 && !err; i++)
		err = submit2(fd, 0, &bo, 1, 0, 0, s[i], 0, 0, prio[i], PROBE_JOB_STORE, i, NULL);
	ok(!err, "queued behind it: low, low, normal, high (%s)", strerror(err));
	usleep(50000);
	ok(!probe_done(fd, 0, seq, 0), "DONE ends the held job");
	for (i = 0, c = 1; i < 4; i++) {
		c = c && !sync_wait(fd, s[i], 5000);
		t[i] = fence_time(fd, s[i]);
	}
	ok(c, "the four ran");
	for (i = 1; c && i < 4; i++)
		c = t[order[i - 1]] && t[order[i - 1]] < t[order[i]];
	ok(c, "high first, then normal, then the lows in their order (+%lld +%lld +%lld +%lld us)",
	   (long long)(t[3] - t[3]) / 1000, (long long)(t[2] - t[3]) / 1000,
	   (long long)(t[0] - t[3]) / 1000, (long long)(t[1] - t[3]) / 1000);
	ok(submit2(fd, 0, &bo, 1, 0, 0, 0, 0, 0, 3, PROBE_JOB_STORE, 0, NULL) == EINVAL,
	   "priority 3: EINVAL");
	ok(submit2(fd, 0, &bo, 1, 0, 0, 0, 0, 1U << 31, 0, PROBE_JOB_STORE, 0, NULL) == EINVAL,
	   "an unknown flag: EINVAL");
	close(fd);
	return 0;
}

/* A caller without CAP_SYS_NICE: a high priority refused (EACCES). */
static int test_priority_denied(const char *node)
{
	int fd = open_node(node);
	uint32_t bo = 0;

	ok(!bo_create(fd, 4096, &bo, NULL) &&
	   submit2(fd, 0, &bo, 1, 0, 0, 0, 0, 0, BPFDRV_ACCEL_PRIORITY_HIGH,
		   PROBE_JOB_STORE, 0, NULL) == EACCES,
	   "without CAP_SYS_NICE a high-priority job: EACCES");
	ok(!submit2(fd, 0, &bo, 1, 0, 0, 0, 0, 0, BPFDRV_ACCEL_PRIORITY_LOW,
		    PROBE_JOB_STORE, 0, NULL), "a low-priority one is taken");
	close(fd);
	return 0;
}

#define IOCTL_PT	PROBE_IOCTL(ACCEL_PROBE_PT, _IOC_READ | _IOC_WRITE, \
				    struct accel_probe_pt)
#define VM_PAGE		4096ULL
#define VM_BOS		6
#define VM_BO_PAGES	16

static int vm_create(int fd, __u32 *id)
{
	struct drm_bpfdrv_vm_create c = {};
	int err = ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_CREATE, &c);

	*id = c.vm_id;
	return err;
}

static int vm_destroy(int fd, __u32 id)
{
	struct drm_bpfdrv_vm_destroy d = { .vm_id = id };

	return ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_DESTROY, &d);
}

static int vm_bind(int fd, __u32 vm, __u32 op, __u32 handle, __u64 addr, __u64 range,
		   __u64 bo_offset)
{
	struct drm_bpfdrv_vm_bind b = {
		.vm_id = vm, .op = op, .handle = handle, .addr = addr,
		.range = range, .bo_offset = bo_offset,
	};

	return ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_BIND, &b);
}

/* The driver's page table of VM @vm, all of it; 0 if PT failed. */
static int vm_pt(int fd, __u32 vm, __u64 *pte)
{
	struct accel_probe_pt q = { .vm = vm };
	__u32 f;

	for (f = 0; f < ACCEL_PROBE_VA_PAGES; f += ACCEL_PROBE_PT_ENTRIES) {
		q.first = f;
		if (ioctl_err(fd, IOCTL_PT, &q))
			return 0;
		memcpy(pte + f, q.pte, sizeof(q.pte));
	}
	return 1;
}

/*
 * What a job in VM @vm reads at the start of each page, through bpfdrv's
 * own translation (walks of PROBE_VM_WALK_PAGES pages into buffer @res,
 * mapped at @map).
 */
static int vm_walk(int fd, __u32 vm, __u32 res, const __u64 *map, __u64 *got)
{
	struct drm_bpfdrv_submit sub = {
		.nr_bos = 1, .bos = { res }, .arg_len = sizeof(struct accel_probe_job),
		.vm_id = vm,
	};
	struct accel_probe_job job = { .mode = PROBE_JOB_VM_WALK };
	__u32 sync = 0, f;
	int ok1 = !drmSyncobjCreate(fd, 0, &sync);

	sub.out_syncobj = sync;
	for (f = 0; ok1 && f < ACCEL_PROBE_VA_PAGES; f += PROBE_VM_WALK_PAGES) {
		job.value = f;
		memcpy(sub.arg, &job, sizeof(job));
		ok1 = !ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub) && !sync_wait(fd, sync, 5000) &&
		      fence_status(fd, sync) == 1;
		if (ok1)
			memcpy(got + f, map, PROBE_VM_WALK_PAGES * sizeof(*got));
	}
	drmSyncobjDestroy(fd, sync);
	return ok1;
}

/* The tag at the start of page @pg of buffer @h: what a walk must read */
static __u64 vm_tag(__u32 h, __u32 pg)
{
	return (__u64)h << 32 | pg | 0x7a000000;
}

/* Compare the driver's table and a walk with the model: mismatches. */
static int vm_check(int fd, __u32 vm, __u32 res, const __u64 *map, const __u64 *model,
		    int *walked)
{
	__u64 pte[ACCEL_PROBE_VA_PAGES], got[ACCEL_PROBE_VA_PAGES], want;
	int bad = 0, i;

	if (!vm_pt(fd, vm, pte) || !vm_walk(fd, vm, res, map, got))
		return -1;
	for (i = 1; i < (int)ACCEL_PROBE_VA_PAGES; i++) {
		bad += pte[i] != model[i];
		want = model[i] ? vm_tag(model[i] >> 32 & 0x7fffffff, model[i] & 0xffff) :
				  PROBE_VM_FAULT | EFAULT;
		bad += got[i] != want;
		*walked += !!model[i];
	}
	return bad;
}

/*
 * Address spaces on accel_probe_vm: 1000 random binds and unbinds (maps
 * over mappings, partial unmaps, six buffers), the driver's page table and
 * bpfdrv's own translation (a job reads each page) checked against a
 * model after each 100; then the file closed: every entry unmapped.
 */
static int test_vm(const char *node, unsigned int seed)
{
	int fd = open_node(node), fd2 = open_node(node), i, bad = 0, c, op, walked = 0;
	__u32 vm = 0, bo[VM_BOS], res = 0, h, pg, n, start, binds = 0, unbinds = 0, fails = 0;
	__u64 model[ACCEL_PROBE_VA_PAGES] = {}, pte[ACCEL_PROBE_VA_PAGES], v = 0, mapped;
	__u64 *map = NULL;
	uint8_t *p = NULL;

	srand(seed);
	c = !get_param(fd, BPFDRV_ACCEL_PARAM_VA_BITS, 0, &v);
	ok(c && v == ACCEL_PROBE_VA_BITS, "GET_PARAM VA_BITS: %llu", (unsigned long long)v);
	ok(!get_param(fd, BPFDRV_ACCEL_PARAM_FEATURES, 0, &v) && (v & BPFDRV_ACCEL_FEATURE_VM),
	   "GET_PARAM FEATURES has VM");
	c = !vm_create(fd, &vm) && vm >= 1 && vm <= ACCEL_PROBE_VMS && !bo_create(fd, 4096, &res, NULL);
	for (i = 0; c && i < VM_BOS; i++) {
		p = NULL;
		c = !bo_create(fd, VM_BO_PAGES * VM_PAGE, &bo[i], NULL) &&
		    (p = bo_map(fd, bo[i], &mapped)) != NULL;
		for (pg = 0; c && pg < VM_BO_PAGES; pg++)
			*(__u64 *)(p + pg * VM_PAGE) = vm_tag(bo[i], pg);
		if (p)
			munmap(p, mapped);
	}
	map = c ? bo_map(fd, res, &mapped) : NULL;
	ok(map != NULL, "a VM (%u), six buffers of 16 pages, each page tagged", vm);
	if (!map)
		goto out;
	for (i = 1; i <= 1000; i++) {
		op = rand() % 3 ? BPFDRV_VM_BIND_MAP : BPFDRV_VM_BIND_UNMAP;
		start = 1 + rand() % (ACCEL_PROBE_VA_PAGES - 1);
		if (op == BPFDRV_VM_BIND_MAP) {
			h = bo[rand() % VM_BOS];
			pg = rand() % VM_BO_PAGES;
			n = 1 + rand() % (VM_BO_PAGES - pg);
			if (start + n > ACCEL_PROBE_VA_PAGES)
				n = ACCEL_PROBE_VA_PAGES - start;
			if (vm_bind(fd, vm, op, h, start * VM_PAGE, n * VM_PAGE, pg * VM_PAGE)) {
				fails++;
				continue;
			}
			for (__u32 k = 0; k < n; k++)
				model[start + k] = ACCEL_PROBE_PTE_VALID | (__u64)h << 32 | (pg + k);
			binds++;
		} else {
			n = 1 + rand() % 32;
			if (start + n > ACCEL_PROBE_VA_PAGES)
				n = ACCEL_PROBE_VA_PAGES - start;
			if (vm_bind(fd, vm, op, 0, start * VM_PAGE, n * VM_PAGE, 0)) {
				fails++;
				continue;
			}
			memset(model + start, 0, n * sizeof(*model));
			unbinds++;
		}
		if (i % 100 == 0) {
			c = vm_check(fd, vm, res, map, model, &walked);
			bad += c ? 1 : 0;
			if (c)
				tap_diag("after %d binds: %d pages wrong", i, c);
		}
	}
	ok(!fails && !bad,
	   "1000 random binds (%u maps, %u unmaps, seed %u): after each 100, the driver's page table and a job's reads through the VM match the model (%d pages mapped in all checks; %u binds failed, %d checks wrong)",
	   binds, unbinds, seed, walked, fails, bad);
	/* a buffer closed while bound stays, mapped, until its last unmap */
	for (i = 0; i < VM_BOS; i++)
		gem_close(fd, bo[i]);
	c = vm_check(fd, vm, res, map, model, &walked);
	ok(!c, "its six buffers closed: their mappings still read right (%d wrong)", c);
	ok(vm_bind(fd2, vm, BPFDRV_VM_BIND_UNMAP, 0, VM_PAGE, VM_PAGE, 0) == ENOENT &&
	   vm_destroy(fd2, vm) == ENOENT, "another file cannot bind in it or destroy it: ENOENT");
	munmap(map, mapped);
	map = NULL;
	close(fd);
	fd = -1;
	/* the file's close unmapped everything: the driver was told */
	c = vm_pt(fd2, vm, pte);
	for (i = 1, bad = 0; c && i < (int)ACCEL_PROBE_VA_PAGES; i++)
		bad += pte[i] != 0;
	ok(c && !bad, "the file closed: each of its VM's entries unmapped by the driver (%d left)",
	   bad);
out:
	if (map)
		munmap(map, mapped);
	if (fd >= 0)
		close(fd);
	close(fd2);
	return 0;
}

static int vm_bind_async(int fd, __u32 vm, __u32 op, __u32 handle, __u64 addr, __u64 range,
			 __u64 off, __u32 in, __u32 out, __u64 out_point)
{
	struct drm_bpfdrv_vm_bind b = {
		.vm_id = vm, .op = op, .handle = handle, .addr = addr, .range = range,
		.bo_offset = off, .flags = BPFDRV_VM_BIND_ASYNC, .in_syncobj = in,
		.out_syncobj = out, .out_point = out_point,
	};

	return ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_BIND, &b);
}

static int point_wait(int fd, uint32_t t, uint64_t pt)
{
	return drmSyncobjTimelineWait(fd, &t, &pt, 1, now_ns() + 10000000000LL,
				      DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL);
}

/* A random bind of test_vm's kind, queued, its model applied. */
static int vm_random_async(int fd, __u32 vm, const __u32 *bo, __u64 *model, __u32 in,
			   __u32 t, __u64 pt)
{
	__u32 op = rand() % 3 ? BPFDRV_VM_BIND_MAP : BPFDRV_VM_BIND_UNMAP, h = 0, pg = 0, n;
	__u32 start = 1 + rand() % (ACCEL_PROBE_VA_PAGES - 1), k;
	int err;

	if (op == BPFDRV_VM_BIND_MAP) {
		h = bo[rand() % VM_BOS];
		pg = rand() % VM_BO_PAGES;
		n = 1 + rand() % (VM_BO_PAGES - pg);
	} else {
		n = 1 + rand() % 32;
	}
	if (start + n > ACCEL_PROBE_VA_PAGES)
		n = ACCEL_PROBE_VA_PAGES - start;
	do {
		err = vm_bind_async(fd, vm, op, h, start * VM_PAGE, n * VM_PAGE, pg * VM_PAGE,
				    in, t, pt);
		/* the queue full: wait for the bind before this one */
		if (err == EBUSY && point_wait(fd, t, pt - 1))
			return err;
	} while (err == EBUSY);
	if (err)
		return err;
	for (k = 0; k < n; k++)
		model[start + k] = op == BPFDRV_VM_BIND_MAP ?
				   ACCEL_PROBE_PTE_VALID | (__u64)h << 32 | (pg + k) : 0;
	return 0;
}

/*
 * Queued binds (BPFDRV_VM_BIND_ASYNC) on accel_probe_vm: 60 random binds
 * queued behind a held job's fence, each giving a timeline point, run
 * only after it, in order; 940 more as fast as the queue takes them; after
 * each 100 the driver's table and a job's reads match the model. A bind
 * the driver refuses signals its error; a VM destroyed with a full queue
 * behind a held job fails them all at once; the 65th queued: EBUSY.
 */
static int test_vm_async(const char *node, unsigned int seed)
{
	int fd = open_node(node), i, c, bad = 0, walked = 0, err;
	__u32 vm = 0, bo[VM_BOS], res = 0, gate = 0, t = 0, t2 = 0, pg, vms[ACCEL_PROBE_VMS + 1];
	__u32 b1 = 0, b2 = 0;
	__u64 model[ACCEL_PROBE_VA_PAGES] = {}, pte[ACCEL_PROBE_VA_PAGES], mapped, seq = 0;
	__u64 *map = NULL;
	int64_t t0;
	uint8_t *p;

	srand(seed);
	c = !vm_create(fd, &vm) && !bo_create(fd, 4096, &res, NULL) &&
	    !drmSyncobjCreate(fd, 0, &gate) && !drmSyncobjCreate(fd, 0, &t) &&
	    !drmSyncobjCreate(fd, 0, &t2) && !drmSyncobjCreate(fd, 0, &b1) &&
	    !drmSyncobjCreate(fd, 0, &b2);
	for (i = 0; c && i < VM_BOS; i++) {
		c = !bo_create(fd, VM_BO_PAGES * VM_PAGE, &bo[i], NULL) &&
		    (p = bo_map(fd, bo[i], &mapped)) != NULL;
		for (pg = 0; c && pg < VM_BO_PAGES; pg++)
			*(__u64 *)(p + pg * VM_PAGE) = vm_tag(bo[i], pg);
		if (c)
			munmap(p, mapped);
	}
	map = c ? bo_map(fd, res, &mapped) : NULL;
	ok(map && !submit2(fd, 0, &res, 1, 0, 0, gate, 0, 0, 0, PROBE_JOB_HOLD, 0, &seq),
	   "a VM (%u), six tagged buffers, a job held", vm);
	if (!map)
		goto out;
	for (i = 1, err = 0; !err && i <= 60; i++)
		err = vm_random_async(fd, vm, bo, model, i == 1 ? gate : 0, t, i);
	usleep(100000);
	c = vm_pt(fd, vm, pte);
	for (i = 1; c && i < (int)ACCEL_PROBE_VA_PAGES; i++)
		c = !pte[i];
	ok(!err && timeline_point(fd, t) == 0 && c,
	   "60 binds queued behind the held job's fence: none ran (point %llu, the table empty) (%s)",
	   (unsigned long long)timeline_point(fd, t), strerror(err));
	ok(vm_bind(fd, vm, BPFDRV_VM_BIND_UNMAP, 0, VM_PAGE, VM_PAGE, 0) == EBUSY,
	   "a bind not queued, while some are: EBUSY");
	c = !probe_done(fd, 0, seq, 0) && !point_wait(fd, t, 60) ?
	    vm_check(fd, vm, res, map, model, &walked) : -1;
	ok(!c, "the job ended: the 60 ran in order, the table and a job's reads match the model (%d wrong)",
	   c);
	t0 = now_ns();
	for (i = 61, err = 0; !err && i <= 1000; i++) {
		err = vm_random_async(fd, vm, bo, model, 0, t, i);
		if (!err && i % 100 == 0) {
			c = point_wait(fd, t, i) ? -1 : vm_check(fd, vm, res, map, model, &walked);
			bad += !!c;
		}
	}
	ok(!err && !bad,
	   "940 more queued as fast as the queue takes them (seed %u, %.0f binds/s): after each 100, all match the model (%d checks wrong, %s)",
	   seed, 940 / ((now_ns() - t0) / 1e9), bad, strerror(err));
	/* the driver keeps tables for ACCEL_PROBE_VMS VMs: the next one's refused */
	for (i = 0, c = 0; i < ACCEL_PROBE_VMS + 1 && !c; i++)
		c = vm_create(fd, &vms[i]) || vms[i] > ACCEL_PROBE_VMS;
	c = c && vms[i - 1] > ACCEL_PROBE_VMS;
	c = c && !vm_bind_async(fd, vms[i - 1], BPFDRV_VM_BIND_MAP, bo[0], VM_PAGE, VM_PAGE, 0,
				0, b1, 0) &&
	    !vm_bind_async(fd, vms[i - 1], BPFDRV_VM_BIND_UNMAP, 0, VM_PAGE, VM_PAGE, 0, 0, b2, 0) &&
	    !sync_wait(fd, b2, 5000);
	ok(c && fence_status(fd, b1) == -ENOSPC && fence_status(fd, b2) == 1,
	   "a queued bind the driver refuses (VM %u, no table): its fence signals ENOSPC (%d), the next one's runs (%d)",
	   vms[i - 1], fence_status(fd, b1), fence_status(fd, b2));
	/* 64 queued behind a held job, then the VM destroyed */
	seq = 0;
	c = !submit2(fd, 0, &res, 1, 0, 0, gate, 0, 0, 0, PROBE_JOB_HOLD, 0, &seq);
	for (i = 1, err = 0; c && !err && i <= BPFDRV_VM_BIND_QUEUED_MAX; i++)
		err = vm_bind_async(fd, vm, BPFDRV_VM_BIND_MAP, bo[1], i * VM_PAGE, VM_PAGE, 0,
				    i == 1 ? gate : 0,
				    i == 1 ? b1 : i == BPFDRV_VM_BIND_QUEUED_MAX ? b2 : t2,
				    i == 1 || i == BPFDRV_VM_BIND_QUEUED_MAX ? 0 : i);
	ok(c && !err && vm_bind_async(fd, vm, BPFDRV_VM_BIND_MAP, bo[1], VM_PAGE, VM_PAGE, 0,
				      0, 0, 0) == EBUSY,
	   "%d binds queued behind a held job, the next one: EBUSY", BPFDRV_VM_BIND_QUEUED_MAX);
	t0 = now_ns();
	err = vm_destroy(fd, vm);
	c = !err && !sync_wait(fd, b2, 5000) &&
	    !point_wait(fd, t2, BPFDRV_VM_BIND_QUEUED_MAX - 1);
	ok(c && fence_status(fd, b1) == -ENOENT && fence_status(fd, b2) == -ENOENT,
	   "the VM destroyed under them: at once (%.0f ms), each one's fence signalled, the first's and the last's ENOENT (%d, %d)",
	   (now_ns() - t0) / 1e6, fence_status(fd, b1), fence_status(fd, b2));
	ok(!probe_done(fd, 0, seq, 0), "the held job ends");
out:
	if (map)
		munmap(map, mapped);
	close(fd);
	return 0;
}

/*
 * A flood of binds in four VMs and a job held in one, then the driver
 * unloaded (the shell, between "ready" and "go"): binds refused after,
 * the file's close frees it all (the shell unloads bpfdrv_accel.ko).
 */
static int test_vm_hold(const char *node)
{
	int fd = open_node(node), i, k, fails = 0;
	__u32 vm[4] = {}, h = 0, res = 0, sync = 0;
	struct drm_bpfdrv_submit sub = {
		.arg_len = sizeof(struct accel_probe_job), .nr_bos = 1,
	};
	struct accel_probe_job job = { .mode = PROBE_JOB_HOLD };

	srand(1);
	ok(!bo_create(fd, VM_BO_PAGES * VM_PAGE, &h, NULL) && !bo_create(fd, 4096, &res, NULL) &&
	   !drmSyncobjCreate(fd, 0, &sync), "a buffer of 16 pages, a syncobj");
	for (i = 0; i < 4; i++) {
		fails += !!vm_create(fd, &vm[i]);
		for (k = 0; k < 500; k++) {
			__u32 start = 1 + rand() % (ACCEL_PROBE_VA_PAGES - 17), pg = rand() % 8;

			fails += !!vm_bind(fd, vm[i], BPFDRV_VM_BIND_MAP, h, start * VM_PAGE,
					   (1 + rand() % 8) * VM_PAGE, pg * VM_PAGE);
		}
	}
	ok(!fails, "4 VMs, 500 binds each (%d failed)", fails);
	sub.bos[0] = res;
	sub.vm_id = vm[0];
	sub.out_syncobj = sync;
	memcpy(sub.arg, &job, sizeof(job));
	ok(!ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub), "a job held in the first");
	wait_go();
	ok(vm_bind(fd, vm[1], BPFDRV_VM_BIND_MAP, h, VM_PAGE, VM_PAGE, 0) == ENODEV,
	   "the driver gone: a bind answers ENODEV");
	/* (its syncobj answers no more either: the hold test reads a sync file) */
	close(fd);
	return 0;
}

/* VM_* and SUBMIT's vm_id with what must be refused, each with its errno. */
static int test_vm_hostile(const char *node)
{
	int fd = open_node(node), fd2 = open_node(node), i, c, err;
	__u32 vm = 0, vm2 = 0, gone = 0, h = 0, res = 0, many[BPFDRV_ACCEL_FILE_VMS_MAX], n, sync = 0;
	__u64 seq = 0, got[ACCEL_PROBE_VA_PAGES], mapped;
	struct drm_bpfdrv_vm_bind b;
	struct drm_bpfdrv_vm_create vc = { .flags = 1 };
	struct drm_bpfdrv_submit sub = {};
	__u64 *map;
	static const struct {
		const char *what;
		__u32 op, flags;
		__u64 addr, range, off;
	} bad[] = {
		{ "an address not page-aligned", 0, 0, VM_PAGE + 8, VM_PAGE, 0 },
		{ "a range not page-aligned", 0, 0, VM_PAGE, VM_PAGE + 1, 0 },
		{ "a buffer offset not page-aligned", 0, 0, VM_PAGE, VM_PAGE, 512 },
		{ "a range of 0", 0, 0, VM_PAGE, 0, 0 },
		{ "page 0 (reserved)", 0, 0, 0, VM_PAGE, 0 },
		{ "past the VM's end", 0, 0, (1ULL << ACCEL_PROBE_VA_BITS) - VM_PAGE, 2 * VM_PAGE, 0 },
		{ "a range that wraps", 0, 0, VM_PAGE, ~0ULL - 4095, 0 },
		{ "past the buffer's end", 0, 0, VM_PAGE, 3 * VM_PAGE, 0 },
		{ "an offset past the buffer", 0, 0, VM_PAGE, VM_PAGE, 2 * VM_PAGE },
		{ "an unknown op", 2, 0, VM_PAGE, VM_PAGE, 0 },
		{ "unknown flags", 0, 2, VM_PAGE, VM_PAGE, 0 },
	};

	c = !vm_create(fd, &vm) && !vm_create(fd2, &vm2) && !bo_create(fd, 2 * VM_PAGE, &h, NULL) &&
	    !bo_create(fd, 4096, &res, NULL) && !drmSyncobjCreate(fd, 0, &sync);
	ok(c, "two files, a VM each (%u, %u), a buffer of 2 pages", vm, vm2);
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_CREATE, &vc) == EINVAL, "VM_CREATE with flags: EINVAL");
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		err = vm_bind(fd, vm, bad[i].op, h, bad[i].addr, bad[i].range, bad[i].off);
		b = (struct drm_bpfdrv_vm_bind){ .vm_id = vm, .op = bad[i].op, .handle = h,
			.addr = bad[i].addr, .range = bad[i].range, .bo_offset = bad[i].off,
			.flags = bad[i].flags };
		if (bad[i].flags)
			err = ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_BIND, &b);
		ok(err == EINVAL, "VM_BIND %s: EINVAL (%s)", bad[i].what, strerror(err));
	}
	ok(vm_bind(fd, vm, BPFDRV_VM_BIND_UNMAP, h, VM_PAGE, VM_PAGE, 0) == EINVAL,
	   "VM_BIND UNMAP naming a buffer: EINVAL");
	ok(vm_bind(fd, vm, 0, 0x7fff, VM_PAGE, VM_PAGE, 0) == ENOENT,
	   "VM_BIND of an unknown buffer handle: ENOENT");
	ok(vm_bind(fd, vm2, 0, h, VM_PAGE, VM_PAGE, 0) == ENOENT &&
	   vm_bind(fd2, vm, 0, h, VM_PAGE, VM_PAGE, 0) == ENOENT,
	   "VM_BIND into another file's VM: ENOENT");
	ok(vm_bind(fd, 0, 0, h, VM_PAGE, VM_PAGE, 0) == ENOENT &&
	   vm_bind(fd, 0x7fffffff, 0, h, VM_PAGE, VM_PAGE, 0) == ENOENT,
	   "VM_BIND into VM 0 and one never made: ENOENT");
	b = (struct drm_bpfdrv_vm_bind){ .vm_id = vm, .handle = h, .addr = VM_PAGE,
		.range = VM_PAGE, .in_point = 1 };
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_BIND, &b) == EINVAL,
	   "VM_BIND with an in-point and no in-syncobj: EINVAL");
	b.in_point = 0;
	b.out_syncobj = sync;
	b.out_point = 5;
	c = !ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_BIND, &b) && timeline_point(fd, sync) == 5;
	ok(c, "a bind gives its out-syncobj's point 5, signalled");
	b.out_syncobj = 0;
	b.out_point = 0;
	b.in_syncobj = sync;
	b.in_point = 5;
	b.addr = 2 * VM_PAGE;
	ok(!ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_BIND, &b), "a bind after point 5 runs");
	b.in_point = 6;
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_VM_BIND, &b) == EINVAL,
	   "a bind after a point not submitted: EINVAL");
	/* the driver refuses a VM it keeps no table for: nothing mapped */
	for (n = 0, c = 1; c && n < BPFDRV_ACCEL_FILE_VMS_MAX - 1; n++)
		c = !vm_create(fd, &many[n]);
	ok(c && vm_create(fd, &gone) == ENOSPC,
	   "a file's VMs: %d, then ENOSPC", BPFDRV_ACCEL_FILE_VMS_MAX);
	for (i = 0, gone = 0; i < (int)n; i++)
		if (many[i] > ACCEL_PROBE_VMS)
			gone = many[i];
	map = bo_map(fd, res, &mapped);
	err = gone ? vm_bind(fd, gone, 0, h, VM_PAGE, VM_PAGE, 0) : -1;
	c = map && vm_walk(fd, gone, res, map, got);
	ok(err == ENOSPC && c && got[1] == (PROBE_VM_FAULT | EFAULT),
	   "the driver refuses a map into VM %u (ENOSPC): a job there finds nothing mapped (%s)",
	   gone, strerror(err));
	for (i = 0; i < (int)n; i++)
		vm_destroy(fd, many[i]);
	/* SUBMIT's vm_id */
	sub = (struct drm_bpfdrv_submit){ .arg_len = sizeof(struct accel_probe_job), .vm_id = vm2 };
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub) == ENOENT, "a job in another file's VM: ENOENT");
	/* a VM destroyed while a job in it runs: its mappings go, the job ends */
	sub = (struct drm_bpfdrv_submit){ .nr_bos = 1, .bos = { res },
		.arg_len = sizeof(struct accel_probe_job), .vm_id = vm };
	{
		struct accel_probe_job job = { .mode = PROBE_JOB_HOLD };

		memcpy(sub.arg, &job, sizeof(job));
	}
	c = !ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub);
	seq = sub.seqno;
	ok(c && !vm_destroy(fd, vm), "a VM destroyed while a job in it is held");
	ok(vm_destroy(fd, vm) == ENOENT && vm_bind(fd, vm, 0, h, VM_PAGE, VM_PAGE, 0) == ENOENT,
	   "destroyed: VM_DESTROY and VM_BIND on it: ENOENT");
	sub.vm_id = vm;
	ok(ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub) == ENOENT, "a job in a destroyed VM: ENOENT");
	ok(!probe_done(fd, 0, seq, 0), "the held job ends");
	if (map)
		munmap(map, mapped);
	close(fd);
	close(fd2);
	return 0;
}

/* A DMA job in VM @vm: @count bytes from @src to @dst, VM addresses. */
static int edu_vm_submit(int fd, __u32 vm, __u64 src, __u64 dst, uint32_t count,
			 uint32_t in, __u64 in_point, uint32_t out, __u64 out_point)
{
	struct drm_bpfdrv_submit sub = {
		.in_syncobj = in, .in_point = in_point, .out_syncobj = out,
		.out_point = out_point, .vm_id = vm,
		.arg_len = sizeof(struct edu_accel_job),
	};
	struct edu_accel_job job = {
		.count = count, .op = EDU_ACCEL_OP_DMA_VM, .src = src, .dst = dst,
	};

	memcpy(sub.arg, &job, sizeof(job));
	return ioctl_err(fd, DRM_IOCTL_BPFDRV_SUBMIT, &sub);
}

static int edu_vm_job(int fd, __u32 vm, __u64 src, __u64 dst, uint32_t count,
		      uint32_t sync, bool wait)
{
	return edu_vm_submit(fd, vm, src, dst, count, 0, 0, sync, 0) ?:
	       wait ? sync_wait(fd, sync, 5000) : 0;
}

/* Bytes of @p that are not @c, over @len. */
static int not_byte(const uint8_t *p, size_t len, uint8_t c)
{
	int n = 0;

	while (len--)
		n += *p++ != c;
	return n;
}

#define EDU_VM_A	0x100000ULL	/* buffer A, 4 pages */
#define EDU_VM_B	0x200000ULL	/* buffer B's pages 1 to 3 */
#define PG		4096

/*
 * edu_accel's jobs in a VM: edu's DMA engine copies between VM addresses,
 * which bpfdrv translates to bus addresses of mappings it mapped for the
 * device at their bind. @iommu: the guest has one (each mapping is then
 * one run of bus addresses, so a transfer may cross its pages). Prints
 * the mappings made for DMA, for the shell to count against ftrace.
 */
static int test_edu_vm(const char *node, bool iommu)
{
	int fd = open_node(node), err, st, bad, maps = 0;
	uint32_t bo[3], sync = 0, t = 0;
	uint8_t *a, *b, *c;
	__u64 v, size, ma, mb, mc;
	__u32 vm;

	ok(!get_param(fd, BPFDRV_ACCEL_PARAM_VA_BITS, 0, &v) && v == EDU_ACCEL_VA_BITS,
	   "GET_PARAM VA_BITS: edu_accel's %u (%llu)", EDU_ACCEL_VA_BITS,
	   (unsigned long long)v);
	if (bo_create(fd, 4 * PG, &bo[0], &size) || bo_create(fd, 4 * PG, &bo[1], &size) ||
	    bo_create(fd, PG, &bo[2], &size) || drmSyncobjCreate(fd, 0, &sync) ||
	    !(a = bo_map(fd, bo[0], &ma)) || !(b = bo_map(fd, bo[1], &mb)) ||
	    !(c = bo_map(fd, bo[2], &mc)) || vm_create(fd, &vm)) {
		ok(0, "three buffers, mapped, a syncobj and a VM");
		return 1;
	}
	fill(a, 4 * PG, 41);
	memset(b, 0xee, 4 * PG);
	memset(c, 0xcc, PG);
	err = vm_bind(fd, vm, BPFDRV_VM_BIND_MAP, bo[0], EDU_VM_A, 4 * PG, 0) ?:
	      vm_bind(fd, vm, BPFDRV_VM_BIND_MAP, bo[1], EDU_VM_B, 3 * PG, PG);
	maps += 2;
	ok(!err, "A bound whole at 0x%llx, B's pages 1 to 3 at 0x%llx (%s)",
	   EDU_VM_A, EDU_VM_B, strerror(err));

	err = edu_vm_job(fd, vm, EDU_VM_A + PG, EDU_VM_B, PG, sync, true);
	st = fence_status(fd, sync);
	bad = memcmp(b + PG, a + PG, PG) ? 1 : 0;
	bad += not_byte(b, PG, 0xee) + not_byte(b + 2 * PG, 2 * PG, 0xee);
	ok(!err && st == 1 && !bad,
	   "a job copies A's page 1 to B's page 1 by DMA through VM addresses, nothing else written (%d, %d, %d wrong)",
	   err, st, bad);
	if (iommu) {
		err = edu_vm_job(fd, vm, EDU_VM_A + 2 * PG - 2043, EDU_VM_B + PG + 100,
				 4000, sync, true);
		st = fence_status(fd, sync);
		bad = memcmp(b + 2 * PG + 100, a + 2 * PG - 2043, 4000) ? 1 : 0;
		ok(!err && st == 1 && !bad,
		   "4000 bytes across pages, from and to unaligned addresses (the IOMMU made each mapping one run of bus addresses) (%d, %d)",
		   err, st);
	} else {
		tap_diag("skip: a transfer across pages (no IOMMU: pages are apart on the bus)");
	}

	/* what the device may not reach */
	memset(b, 0xee, 4 * PG);
	err = edu_vm_job(fd, vm, EDU_VM_A + 4 * PG, EDU_VM_B, 16, sync, true);
	st = fence_status(fd, sync);
	ok(!err && st == -EFAULT, "a source past A's mapping, where nothing is bound: EFAULT (%d)", st);
	err = edu_vm_job(fd, vm, EDU_VM_A, EDU_VM_B + 3 * PG - 100, PG, sync, true);
	st = fence_status(fd, sync);
	ok(!err && st == -EFAULT && !not_byte(b + 3 * PG, PG, 0xee),
	   "a target running past B's mapping: EFAULT, nothing written (%d)", st);
	err = edu_vm_job(fd, 0, EDU_VM_A, EDU_VM_B, 16, sync, true);
	st = fence_status(fd, sync);
	ok(!err && st == -ENOENT, "a VM job that names no VM: ENOENT (%d)", st);
	err = edu_vm_job(fd, vm, EDU_VM_A, EDU_VM_B, EDU_ACCEL_DMA_MAX + 1, sync, true);
	st = fence_status(fd, sync);
	ok(!err && st == -EINVAL, "past the device's memory: EINVAL (%d)", st);

	/* C over B's middle page, queued: B is cut in two, C mapped between */
	memset(b, 0xee, 4 * PG);
	err = drmSyncobjCreate(fd, 0, &t) ?:
	      vm_bind_async(fd, vm, BPFDRV_VM_BIND_MAP, bo[2], EDU_VM_B + PG, PG, 0, 0, t, 1);
	maps += 3;
	ok(!err, "C bound over the middle of B's mapping, queued, its fence timeline point 1 (%s)",
	   strerror(err));
	err = edu_vm_submit(fd, vm, EDU_VM_A, EDU_VM_B + PG, PG, t, 1, t, 2) ?: point_wait(fd, t, 2);
	ok(!err && !memcmp(c, a, PG) && !not_byte(b, 4 * PG, 0xee),
	   "a job that waits for point 1 writes to C there, B untouched, and gives point 2 (%s)",
	   strerror(err));
	err = edu_vm_job(fd, vm, EDU_VM_A + 3 * PG, EDU_VM_B + 2 * PG, PG, sync, true);
	st = fence_status(fd, sync);
	ok(!err && st == 1 && !memcmp(b + 3 * PG, a + 3 * PG, PG),
	   "and to what is left of B after it (its page 3) (%d, %d)", err, st);

	/*
	 * Unbound and closed under a job: edu takes 100 ms a transfer, so
	 * the job is on its first when both go; it holds them to its end.
	 */
	memset(b, 0xee, 4 * PG);
	fill(a, PG, 43);
	err = edu_vm_job(fd, vm, EDU_VM_A, EDU_VM_B + 2 * PG, PG, sync, false);
	err = err ?: vm_bind(fd, vm, BPFDRV_VM_BIND_UNMAP, 0, EDU_VM_A, 4 * PG, 0);
	err = err ?: vm_bind(fd, vm, BPFDRV_VM_BIND_UNMAP, 0, EDU_VM_B, 3 * PG, 0);
	st = fence_status(fd, sync);
	gem_close(fd, bo[0]);
	gem_close(fd, bo[1]);
	ok(!err && !st, "A's and B's mappings unbound and both closed while a job's DMA runs (%s, %d)",
	   strerror(err), st);
	err = sync_wait(fd, sync, 5000);
	st = fence_status(fd, sync);
	ok(!err && st == 1 && filled(b + 3 * PG, PG, 43),
	   "that job ends right: its transfers reached what it was given (%d, %d)", err, st);
	err = edu_vm_job(fd, vm, EDU_VM_A, EDU_VM_B + 2 * PG, PG, sync, true);
	st = fence_status(fd, sync);
	ok(!err && st == -EFAULT, "a job after the unbind: EFAULT (%d)", st);
	ok(!vm_destroy(fd, vm), "the VM destroyed");
	printf("# vm dma mappings %d\n", maps);
	munmap(a, ma);
	munmap(b, mb);
	munmap(c, mc);
	close(fd);
	return 0;
}

/*
 * edu's DMA through a VM that random queued binds keep changing: six
 * tagged buffers bound and unbound as test_vm does; after each 50 binds,
 * edu copies the first 8 bytes of 5 random pages into a target buffer
 * (each job waiting for the last bind's point): the tag of the page the
 * model says is there, or EFAULT where nothing is. The translation to bus
 * addresses, checked by the device itself.
 */
static int test_edu_vm_random(const char *node, unsigned int seed)
{
	int fd = open_node(node), i, k, c, bad = 0, hits = 0, holes = 0, st, err = 0;
	__u64 model[ACCEL_PROBE_VA_PAGES] = {}, mapped, tmapped, want;
	__u32 vm = 0, bo[VM_BOS], tgt = 0, t = 0, sync = 0, pg;
	const __u64 at = (ACCEL_PROBE_VA_PAGES + 16) * VM_PAGE;
	volatile __u64 *got = NULL;
	uint8_t *p;

	srand(seed);
	c = !vm_create(fd, &vm) && !bo_create(fd, VM_PAGE, &tgt, NULL) &&
	    !drmSyncobjCreate(fd, 0, &t) && !drmSyncobjCreate(fd, 0, &sync);
	for (i = 0; c && i < VM_BOS; i++) {
		c = !bo_create(fd, VM_BO_PAGES * VM_PAGE, &bo[i], NULL) &&
		    (p = bo_map(fd, bo[i], &mapped)) != NULL;
		for (pg = 0; c && pg < VM_BO_PAGES; pg++)
			*(__u64 *)(p + pg * VM_PAGE) = vm_tag(bo[i], pg);
		if (c)
			munmap(p, mapped);
	}
	got = c ? bo_map(fd, tgt, &tmapped) : NULL;
	ok(got && !vm_bind(fd, vm, BPFDRV_VM_BIND_MAP, tgt, at, VM_PAGE, 0),
	   "a VM, six tagged buffers, a target buffer bound apart");
	if (!got)
		goto out;
	for (i = 1; !err && i <= 200; i++) {
		err = vm_random_async(fd, vm, bo, model, 0, t, i);
		if (err || i % 50)
			continue;
		for (k = 0; k < 5; k++) {
			pg = 1 + rand() % (ACCEL_PROBE_VA_PAGES - 1);
			*got = 0;
			err = edu_vm_submit(fd, vm, pg * VM_PAGE, at, 8, t, i, sync, 0) ?:
			      sync_wait(fd, sync, 5000);
			st = fence_status(fd, sync);
			want = model[pg] ? vm_tag(model[pg] >> 32 & 0x7fffffff, model[pg] & 0xffff) : 0;
			if (model[pg] ? st != 1 || *got != want : st != -EFAULT) {
				bad++;
				tap_diag("page %u: status %d, read %#llx, the model %#llx", pg, st,
					 (unsigned long long)*got, (unsigned long long)want);
			}
			hits += !!model[pg];
			holes += !model[pg];
		}
	}
	ok(!err && !bad,
	   "200 queued random binds (seed %u): edu's DMA read 20 random pages through the VM, %d mapped with the model's tag, %d unmapped refused (EFAULT) (%d wrong, %s)",
	   seed, hits, holes, bad, strerror(err));
	munmap((void *)got, tmapped);
out:
	close(fd);
	return 0;
}

/*
 * A VM with two mappings held while the shell takes edu away (told by a
 * line on stdin): binds fail after, and the file closes cleanly.
 */
static int test_edu_vm_hold(const char *node)
{
	int fd = open_node(node), err;
	uint32_t bo;
	__u64 size;
	__u32 vm;

	if (bo_create(fd, 4 * PG, &bo, &size) || vm_create(fd, &vm)) {
		ok(0, "a buffer and a VM");
		return 1;
	}
	err = vm_bind(fd, vm, BPFDRV_VM_BIND_MAP, bo, EDU_VM_A, 2 * PG, 0) ?:
	      vm_bind(fd, vm, BPFDRV_VM_BIND_MAP, bo, EDU_VM_B, 2 * PG, 2 * PG);
	ok(!err, "two mappings bound (%s)", strerror(err));
	wait_go();
	err = vm_bind(fd, vm, BPFDRV_VM_BIND_MAP, bo, EDU_VM_A, PG, 0);
	ok(err == ENODEV, "a bind after the instance went: ENODEV (%s)", strerror(err));
	close(fd);
	return 0;
}

static int find(const char *driver)
{
	char path[64];
	drmVersionPtr v;
	int i, fd, found;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "/dev/accel/accel%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		found = v && !strcmp(v->name, driver);
		drmFreeVersion(v);
		close(fd);
		if (found) {
			printf("%s\n", path);
			return 0;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "nr_vm_bind"))
		return printf("%lu\n", (unsigned long)DRM_IOCTL_BPFDRV_VM_BIND) < 0;
	if (argc >= 3 && !strcmp(argv[1], "find"))
		return find(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "basic"))
		test_basic(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "limits"))
		test_limits(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "threads"))
		test_threads(argv[2], atoi(argv[3]));
	else if (argc >= 4 && !strcmp(argv[1], "prime"))
		test_prime(argv[2], argv[3]);
	else if (argc >= 3 && !strcmp(argv[1], "jobs"))
		test_jobs(argv[2]);
	else if (argc >= 6 && !strcmp(argv[1], "submitters"))
		test_submitters(argv[2], atoi(argv[3]), atoi(argv[4]),
				atoi(argv[5]) == 1 ? 1 : ACCEL_PROBE_RINGS);
	else if (argc >= 3 && !strcmp(argv[1], "eject"))
		test_eject(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "eduhold"))
		test_edu_hold(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "stale"))
		test_stale(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "edges"))
		test_edges(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "edu"))
		test_edu(argv[2], atoi(argv[3]), argc < 5 || strcmp(argv[4], "nodma"));
	else if (argc >= 3 && !strcmp(argv[1], "update"))
		test_update(argv[2]);
	else if (argc >= 5 && !strcmp(argv[1], "eduthreads"))
		test_edu_threads(argv[2], atoi(argv[3]), atoi(argv[4]));
	else if (argc >= 3 && !strcmp(argv[1], "multi"))
		test_multi(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "direct"))
		test_direct(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "hold"))
		test_hold(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "flood"))
		test_flood(argv[2], atoi(argv[3]));
	else if (argc >= 3 && !strcmp(argv[1], "dumb"))
		test_dumb(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "nonroot"))
		test_nonroot(argv[2], atoi(argv[3]));
	else if (argc >= 3 && !strcmp(argv[1], "budget"))
		test_budget(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "pin"))
		test_pin(argv[2], atoi(argv[3]));
	else if (argc >= 3 && !strcmp(argv[1], "fences"))
		test_fences(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "resv"))
		test_resv(argv[2], argv[3]);
	else if (argc >= 4 && !strcmp(argv[1], "params"))
		test_params(argv[2], atoi(argv[3]));
	else if (argc >= 3 && !strcmp(argv[1], "params_absent"))
		test_params_absent(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "timeline"))
		test_timeline(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "implicit"))
		test_implicit(argv[2], argv[3]);
	else if (argc >= 3 && !strcmp(argv[1], "priority"))
		test_priority(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "priority_denied"))
		test_priority_denied(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "vm"))
		test_vm(argv[2], atoi(argv[3]));
	else if (argc >= 4 && !strcmp(argv[1], "vm_async"))
		test_vm_async(argv[2], strtoul(argv[3], NULL, 0));
	else if (argc >= 3 && !strcmp(argv[1], "vm_hold"))
		test_vm_hold(argv[2]);
	else if (argc >= 4 && !strcmp(argv[1], "edu_vm"))
		test_edu_vm(argv[2], !strcmp(argv[3], "iommu"));
	else if (argc >= 4 && !strcmp(argv[1], "edu_vm_random"))
		test_edu_vm_random(argv[2], strtoul(argv[3], NULL, 0));
	else if (argc >= 3 && !strcmp(argv[1], "edu_vm_hold"))
		test_edu_vm_hold(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "vm_hostile"))
		test_vm_hostile(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "fdinfo"))
		test_fdinfo(argv[2], argc >= 4 ? atof(argv[3]) : 0);
	else {
		fprintf(stderr, "usage: %s find DRIVER | basic|limits|jobs|update|hold|multi|direct|dumb|budget|fences NODE | fdinfo NODE [HOLD_S] | submitters NODE N JOBS RINGS | edges|stale|eject|eduhold NODE | edu NODE N [nodma] | eduthreads NODE N JOBS | threads|flood NODE N | pin NODE MIB | nonroot NODE ERRNO | prime|resv|implicit NODE VGEM | params NODE RINGS | params_absent|timeline|priority|priority_denied|vm_hostile NODE | vm|vm_async NODE SEED | edu_vm NODE iommu|noiommu | edu_vm_hold NODE\n",
			argv[0]);
		return 2;
	}
	return tap_failures ? 1 : 0;
}
