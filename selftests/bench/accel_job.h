/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench's jobs on edu_accel's accel node (docs/accel.md), for
 * echobench, ioctlbench and ioloop: a job's buffers and syncobj, a job
 * submitted and waited for on its fence, and jobs kept in flight, with
 * plain ioctls.
 */
#ifndef __BENCH_ACCEL_JOB_H
#define __BENCH_ACCEL_JOB_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bpfdrv_accel.h"
#include "bpfdrv_edu_accel.h"

/* CLOCK_MONOTONIC @s seconds from now: syncobj waits take an absolute time */
static inline int64_t accel_deadline_ns(int s)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + s) * 1000000000ll + ts.tv_nsec;
}

/* Jobs one submitter keeps in flight at most (accel_fact_pipe) */
#define ACCEL_DEPTH_MAX	4

/*
 * edu_accel's node: for each job in flight its input and output buffers
 * and its syncobj (the synchronous jobs use the first).
 */
struct accel_edu {
	int fd;
	uint32_t bos[ACCEL_DEPTH_MAX][2];	/* EDU_ACCEL_BO_IN, _OUT */
	uint32_t sync[ACCEL_DEPTH_MAX];
	uint32_t *in[ACCEL_DEPTH_MAX], *out[ACCEL_DEPTH_MAX];
	uint64_t submitted;			/* by accel_fact_pipe() */
};

static inline uint32_t *accel_map(int fd, uint32_t handle)
{
	struct drm_bpfdrv_bo_info info = { .handle = handle };
	void *p;

	if (ioctl(fd, DRM_IOCTL_BPFDRV_BO_INFO, &info))
		return NULL;
	p = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 info.mmap_offset);
	return p == MAP_FAILED ? NULL : p;
}

/* 0, or -1 with errno set; accel_close() in both cases. */
static inline int accel_open(const char *node, struct accel_edu *a)
{
	int i, j;

	*a = (struct accel_edu){ .fd = open(node, O_RDWR | O_CLOEXEC) };
	if (a->fd < 0)
		return -1;
	for (j = 0; j < ACCEL_DEPTH_MAX; j++) {
		struct drm_syncobj_create sync = {};

		for (i = 0; i < 2; i++) {
			struct drm_bpfdrv_bo_create bo = { .size = 4096 };

			if (ioctl(a->fd, DRM_IOCTL_BPFDRV_BO_CREATE, &bo))
				return -1;
			a->bos[j][i] = bo.handle;
		}
		if (ioctl(a->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sync))
			return -1;
		a->sync[j] = sync.handle;
		a->in[j] = accel_map(a->fd, a->bos[j][EDU_ACCEL_BO_IN]);
		a->out[j] = accel_map(a->fd, a->bos[j][EDU_ACCEL_BO_OUT]);
		if (!a->in[j] || !a->out[j])
			return -1;
	}
	return 0;
}

/* Closing the node frees its buffers and syncobjs. */
static inline void accel_close(struct accel_edu *a)
{
	int j;

	for (j = 0; j < ACCEL_DEPTH_MAX; j++) {
		if (a->in[j])
			munmap(a->in[j], 4096);
		if (a->out[j])
			munmap(a->out[j], 4096);
	}
	if (a->fd >= 0)
		close(a->fd);
}

/* Job @j: submitted, with its fence into its syncobj. */
static inline int accel_submit(struct accel_edu *a, int j, uint32_t op,
			       uint32_t count)
{
	struct drm_bpfdrv_submit submit = {
		.nr_bos = 2,
		.bos = { a->bos[j][EDU_ACCEL_BO_IN], a->bos[j][EDU_ACCEL_BO_OUT] },
		.out_syncobj = a->sync[j],
		.arg_len = sizeof(struct edu_accel_job),
	};
	struct edu_accel_job job = { .count = count, .op = op };

	memcpy(submit.arg, &job, sizeof(job));
	return ioctl(a->fd, DRM_IOCTL_BPFDRV_SUBMIT, &submit);
}

/* Wait for job @j's fence. */
static inline int accel_wait(struct accel_edu *a, int j)
{
	struct drm_syncobj_wait wait = {
		.handles = (uintptr_t)&a->sync[j],
		.count_handles = 1,
		.timeout_nsec = accel_deadline_ns(5),
	};

	return ioctl(a->fd, DRM_IOCTL_SYNCOBJ_WAIT, &wait);
}

/* One job, submitted, then waited for on its fence. */
static inline long accel_job(struct accel_edu *a, uint32_t op, uint32_t count)
{
	if (accel_submit(a, 0, op, count) || accel_wait(a, 0))
		return -1;
	return 0;
}

/* 10! as a job of one value. */
static inline long accel_fact(struct accel_edu *a)
{
	a->in[0][0] = 10;
	a->out[0][0] = 0;
	if (accel_job(a, EDU_ACCEL_OP_FACT, 1))
		return -1;
	if (a->out[0][0] == 3628800)
		return 0;
	errno = EIO;	/* the job failed, or not 10! */
	return -1;
}

/*
 * 10! as jobs of one value, @depth of them in flight: the oldest waited
 * for and checked (once @depth are out), then the next submitted.
 */
static inline long accel_fact_pipe(struct accel_edu *a, int depth)
{
	int j = a->submitted % depth;

	if (a->submitted >= (uint64_t)depth) {
		if (accel_wait(a, j))
			return -1;
		if (a->out[j][0] != 3628800) {
			errno = EIO;	/* the job failed, or not 10! */
			return -1;
		}
	}
	a->in[j][0] = 10;
	a->out[j][0] = 0;
	if (accel_submit(a, j, EDU_ACCEL_OP_FACT, 1))
		return -1;
	a->submitted++;
	return 0;
}

/* 4 KiB to the device and back as a DMA job. */
static inline long accel_dma(struct accel_edu *a, uint8_t mark)
{
	uint8_t *in = (uint8_t *)a->in[0], *out = (uint8_t *)a->out[0];

	in[0] = mark;
	in[EDU_ACCEL_DMA_MAX - 1] = ~mark;
	out[0] = ~mark;
	if (accel_job(a, EDU_ACCEL_OP_DMA, EDU_ACCEL_DMA_MAX))
		return -1;
	if (!memcmp(in, out, EDU_ACCEL_DMA_MAX))
		return 0;
	errno = EIO;	/* the job failed, or not the bytes sent */
	return -1;
}

#endif /* __BENCH_ACCEL_JOB_H */
