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
#define DRM_BPFDRV_GET_PARAM	0x03
#define DRM_BPFDRV_VM_CREATE	0x04
#define DRM_BPFDRV_VM_DESTROY	0x05
#define DRM_BPFDRV_VM_BIND	0x06
/* 0x07-0x0f: kept for bpfdrv's own */
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
 *
 * Syncobjs may be timelines: in_point is the point waited for (0: the
 * syncobj's fence), out_point the one the job's fence becomes (0: the
 * syncobj's fence is replaced). Implicit sync: each buffer's reservation
 * object gets the job's fence (as a write), and the job waits for the
 * fences other devices put there (another device's jobs, through PRIME)
 * unless flags has BPFDRV_SUBMIT_NO_IMPLICIT. Among this device's own
 * jobs, order is explicit (syncobjs). A job of a higher priority starts
 * before the queued ones of a lower; BPFDRV_ACCEL_PRIORITY_HIGH needs
 * CAP_SYS_NICE (EACCES). Callers built before these fields pass none:
 * all zero, as before.
 */
#define BPFDRV_SUBMIT_NO_IMPLICIT	(1U << 0)
#define BPFDRV_ACCEL_PRIORITY_NORMAL	0
#define BPFDRV_ACCEL_PRIORITY_LOW	1
#define BPFDRV_ACCEL_PRIORITY_HIGH	2
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
	__u32 flags;		/* in: BPFDRV_SUBMIT_* */
	__u8 arg[BPFDRV_ACCEL_JOB_ARG_MAX];	/* in: the driver's */
	__u64 seqno;		/* out: the job's number on its ring */
	__u64 in_point;		/* in: in_syncobj's timeline point, or 0 */
	__u64 out_point;	/* in: out_syncobj's timeline point, or 0 */
	__u32 priority;		/* in: BPFDRV_ACCEL_PRIORITY_* */
	__u32 vm_id;		/* in: 0, or the file's VM the job runs in */
};

/*
 * A parameter of the device (param below BPFDRV_ACCEL_PARAM_DRIVER:
 * bpfdrv's, index 0 unless it says), or one the driver answers
 * (BPFDRV_ACCEL_PARAM_DRIVER + n: its accel_get_param with n and index).
 * EINVAL: no such parameter or index.
 */
#define BPFDRV_ACCEL_PARAM_ABI_VERSION	0	/* the driver's bpfdrv ABI */
#define BPFDRV_ACCEL_PARAM_RINGS	1	/* job rings */
#define BPFDRV_ACCEL_PARAM_RING_JOBS	2	/* index: ring; jobs on it at once */
#define BPFDRV_ACCEL_PARAM_TIMEOUT_MS	3	/* a job's limit */
#define BPFDRV_ACCEL_PARAM_BO_MAX	4	/* bytes of a buffer */
#define BPFDRV_ACCEL_PARAM_BO_TOTAL	5	/* bytes of the device's buffers */
#define BPFDRV_ACCEL_PARAM_BO_USED	6	/* of those, live now */
#define BPFDRV_ACCEL_PARAM_FILE_JOBS	7	/* BPFDRV_ACCEL_FILE_JOBS_MAX */
#define BPFDRV_ACCEL_PARAM_JOB_BOS	8	/* BPFDRV_ACCEL_JOB_BOS_MAX */
#define BPFDRV_ACCEL_PARAM_JOB_ARG	9	/* BPFDRV_ACCEL_JOB_ARG_MAX */
#define BPFDRV_ACCEL_PARAM_DMA_BITS	10	/* the device's DMA address bits, or 0 */
#define BPFDRV_ACCEL_PARAM_FEATURES	11	/* BPFDRV_ACCEL_FEATURE_* */
#define BPFDRV_ACCEL_PARAM_VA_BITS	12	/* a VM's address bits; 0: no VMs */
#define BPFDRV_ACCEL_PARAM_DRIVER	0x10000
#define BPFDRV_ACCEL_FEATURE_TIMELINE	(1ULL << 0)	/* in_point, out_point */
#define BPFDRV_ACCEL_FEATURE_IMPLICIT	(1ULL << 1)	/* implicit sync */
#define BPFDRV_ACCEL_FEATURE_PRIORITY	(1ULL << 2)	/* priority */
#define BPFDRV_ACCEL_FEATURE_VM		(1ULL << 3)	/* VM_*, vm_id */
struct drm_bpfdrv_get_param {
	__u32 param;		/* in */
	__u32 index;		/* in */
	__u64 value;		/* out */
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
/*
 * Device address spaces (VMs), for a driver with accel_va_bits: a file
 * has up to BPFDRV_ACCEL_FILE_VMS_MAX, each the addresses from
 * BPFDRV_ACCEL_VA_PAGE to 2^accel_va_bits, managed by the kernel's
 * drm_gpuvm. Their ids are the device's (the driver sees the same); a
 * file reaches its own only (ENOENT). VM_BIND maps range bytes of buffer
 * handle from bo_offset at addr, unmapping whatever was there, or unmaps
 * [addr, addr + range); all multiples of BPFDRV_ACCEL_VA_PAGE, inside the
 * VM and the buffer (EINVAL). The driver gets each step that results
 * (accel_vm_map, accel_vm_unmap); one it refuses ends the bind with its
 * error, the steps before it done. A bind runs in the ioctl, after the
 * in-syncobj's fence (at the point, if given); the out-syncobj gets a
 * signalled fence (at the point). A buffer stays mapped for the CPU while
 * bound: a job in the VM reaches it through bpfdrv_job_vm_load()/_store().
 */
#define BPFDRV_ACCEL_FILE_VMS_MAX	16
#define BPFDRV_ACCEL_VA_PAGE		4096ULL
#define BPFDRV_VM_BIND_MAP		0
#define BPFDRV_VM_BIND_UNMAP		1
/*
 * Queued behind the VM's other queued binds, and run after in_syncobj's
 * fence: the ioctl returns at once, out_syncobj's fence signals when it
 * ran (with its error if it failed). A bind without it on a VM with
 * queued binds: EBUSY.
 */
#define BPFDRV_VM_BIND_ASYNC		(1 << 0)
#define BPFDRV_VM_BIND_QUEUED_MAX	64	/* per VM; EBUSY past it */
struct drm_bpfdrv_vm_create {
	__u32 flags;		/* in: 0 */
	__u32 vm_id;		/* out */
};

struct drm_bpfdrv_vm_destroy {
	__u32 vm_id;		/* in */
	__u32 pad;		/* in: 0 */
};

struct drm_bpfdrv_vm_bind {
	__u32 vm_id;		/* in */
	__u32 op;		/* in: BPFDRV_VM_BIND_* */
	__u32 handle;		/* in: the buffer (MAP), else 0 */
	__u32 flags;		/* in: BPFDRV_VM_BIND_ASYNC or 0 */
	__u64 addr;		/* in */
	__u64 range;		/* in: bytes */
	__u64 bo_offset;	/* in: MAP: where in the buffer, else 0 */
	__u32 in_syncobj;	/* in: 0, or wait for its fence first */
	__u32 out_syncobj;	/* in: 0, or give it the bind's fence */
	__u64 in_point;		/* in: in_syncobj's timeline point, or 0 */
	__u64 out_point;	/* in: out_syncobj's timeline point, or 0 */
};

#define DRM_IOCTL_BPFDRV_VM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_BPFDRV_VM_CREATE, \
		 struct drm_bpfdrv_vm_create)
#define DRM_IOCTL_BPFDRV_VM_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_BPFDRV_VM_DESTROY, \
		struct drm_bpfdrv_vm_destroy)
#define DRM_IOCTL_BPFDRV_VM_BIND \
	DRM_IOW(DRM_COMMAND_BASE + DRM_BPFDRV_VM_BIND, \
		struct drm_bpfdrv_vm_bind)
#define DRM_IOCTL_BPFDRV_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_BPFDRV_GET_PARAM, \
		 struct drm_bpfdrv_get_param)

#endif /* __BPFDRV_ACCEL_H */
