/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The UAPI of a bpfdrv accelerator node (/dev/accel/accelN), for user
 * space and the module: the ioctls bpfdrv answers itself, whatever the
 * driver. A driver's own ioctls follow them from DRM_BPFDRV_DRIVER_BASE,
 * in the order of its chr_ext_ops.accel_ioctls (docs/accel.md).
 */
#ifndef __BPFDRV_ACCEL_H
#define __BPFDRV_ACCEL_H

#include <drm/drm.h>

#define DRM_BPFDRV_BO_CREATE	0x00
#define DRM_BPFDRV_BO_INFO	0x01
#define DRM_BPFDRV_SUBMIT	0x02
/* 0x03-0x0f: kept for bpfdrv's own */
#define DRM_BPFDRV_DRIVER_BASE	0x10

/* The largest buffer object, and what an instance's together may take. */
#define BPFDRV_ACCEL_BO_MAX	(64ULL << 20)
#define BPFDRV_ACCEL_BO_TOTAL	(512ULL << 20)

/*
 * A buffer object of size bytes (rounded up to pages; at most
 * BPFDRV_ACCEL_BO_MAX), zero-filled, in the caller's handle table.
 */
struct drm_bpfdrv_bo_create {
	__u64 size;		/* in: bytes; out: as rounded */
	__u32 flags;		/* in: 0 */
	__u32 handle;		/* out */
};

/* What mmap() on the node takes to map a buffer object, and its size. */
struct drm_bpfdrv_bo_info {
	__u32 handle;		/* in */
	__u32 pad;		/* in: 0 */
	__u64 size;		/* out */
	__u64 mmap_offset;	/* out */
};

/*
 * A job on one of the driver's rings: the buffers it uses (handles, in the
 * order the driver names them), the syncobj whose fence it waits for, the
 * one that gets its fence, and bytes for the driver. The job's fence is
 * signalled when the driver ends it: with an error if the driver failed
 * it, it overran its time (ETIMEDOUT), or the device went (ENODEV).
 * A file has at most BPFDRV_ACCEL_FILE_JOBS_MAX jobs submitted and not yet
 * done with (each pins its buffers); past that, SUBMIT fails with EBUSY.
 */
#define BPFDRV_ACCEL_FILE_JOBS_MAX	256
#define BPFDRV_ACCEL_JOB_BOS_MAX	8
#define BPFDRV_ACCEL_JOB_ARG_MAX	64
struct drm_bpfdrv_submit {
	__u32 ring;		/* in: < the driver's accel_rings */
	__u32 nr_bos;		/* in: entries of bos used */
	__u32 bos[BPFDRV_ACCEL_JOB_BOS_MAX];	/* in: handles */
	__u32 in_syncobj;	/* in: 0, or wait for its fence */
	__u32 out_syncobj;	/* in: 0, or give it the job's fence */
	__u32 arg_len;		/* in: bytes of arg */
	__u32 flags;		/* in: 0 */
	__u8 arg[BPFDRV_ACCEL_JOB_ARG_MAX];	/* in: the driver's */
	__u64 seqno;		/* out: the job's number on its ring */
};

#define DRM_IOCTL_BPFDRV_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_BPFDRV_BO_CREATE, \
		 struct drm_bpfdrv_bo_create)
#define DRM_IOCTL_BPFDRV_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_BPFDRV_BO_INFO, \
		 struct drm_bpfdrv_bo_info)
#define DRM_IOCTL_BPFDRV_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_BPFDRV_SUBMIT, \
		 struct drm_bpfdrv_submit)

#endif /* __BPFDRV_ACCEL_H */
