// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: the accelerator class without hardware. Its accel node
 * answers bpfdrv's buffer ioctls and six of its own (include/
 * bpfdrv_accel_probe.h): ADD (in and out, counted per file), PING (no
 * argument), FAIL (returns the errno it is given), STATE (out only: the
 * opens, releases and pings the instance saw), DONE (ends a job), EJECT
 * (the driver ejects itself) and SLOT (a job's slot, and a store through
 * it), and jobs on two rings whose argument
 * says what run_job does (store, copy, hold until DONE or the timeout,
 * fail, try the job kfuncs at their edges, loop without end). Built with
 * ACCEL_PROBE_NO_RINGS: the ioctls only; with ACCEL_PROBE_RING_JOBS: that
 * many jobs on a ring's device at once; with ACCEL_PROBE_VM: address
 * spaces, whose page tables it keeps (PT reads them), and jobs that walk
 * their VM.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_accel_probe.h"

char _license[] SEC("license") = "GPL";

struct probe_file {
	__u32 adds;
};

SEC("struct_ops/ap_open")
int BPF_PROG(ap_open, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct accel_probe_state *st = bpfdrv_dev_state(dev, struct accel_probe_state);

	if (!st)
		return -EINVAL;
	st->opens++;
	st->last_file = file->id;
	return 0;
}

SEC("struct_ops/ap_release")
void BPF_PROG(ap_release, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct accel_probe_state *st = bpfdrv_dev_state(dev, struct accel_probe_state);

	if (st)
		st->releases++;
}

static int ap_add(struct bpfdrv_dev *dev, struct bpfdrv_file *file,
		  struct bpfdrv_io *io)
{
	struct probe_file *pf = bpfdrv_file_state(file, struct probe_file);
	struct accel_probe_add add;

	if (!pf || bpfdrv_io_load(io, 0, &add, sizeof(add)))
		return -EINVAL;
	add.sum = add.a + add.b;
	add.calls = ++pf->adds;
	return bpfdrv_io_store(io, 0, &add, sizeof(add)) ? -EIO : 0;
}

static int ap_done(struct bpfdrv_dev *dev, struct bpfdrv_io *io)
{
	struct accel_probe_done d;

	if (bpfdrv_io_load(io, 0, &d, sizeof(d)))
		return -EINVAL;
	d.ret = bpfdrv_job_done(dev, d.ring, d.seqno, d.err);
	return bpfdrv_io_store(io, 0, &d, sizeof(d)) ? -EIO : 0;
}

static int ap_slot(struct bpfdrv_dev *dev, struct bpfdrv_io *io)
{
	struct accel_probe_slot sl;
	__u32 v;

	if (bpfdrv_io_load(io, 0, &sl, sizeof(sl)))
		return -EINVAL;
	sl.slot = bpfdrv_job_slot(dev, sl.ring, sl.seqno);
	sl.store = sl.slot < 0 ? sl.slot :
		   bpfdrv_job_bo_store(dev, BPFDRV_JOB_SLOT_BO(sl.ring, sl.slot, 0),
				       0, &sl.value, sizeof(sl.value));
	sl.past_load = bpfdrv_job_bo_load(dev,
					  BPFDRV_JOB_SLOT_BO(sl.ring, ACCEL_PROBE_RING_JOBS, 0),
					  0, &v, sizeof(v));
	sl.past_slot = bpfdrv_job_slot(dev, sl.ring, 0);
	return bpfdrv_io_store(io, 0, &sl, sizeof(sl)) ? -EIO : 0;
}

#ifdef ACCEL_PROBE_VM
/* the page tables of VMs 1 to ACCEL_PROBE_VMS */
__u64 pt[ACCEL_PROBE_VMS * ACCEL_PROBE_VA_PAGES];
#define AP_PT_MASK	(ACCEL_PROBE_VMS * ACCEL_PROBE_VA_PAGES - 1)

/* Entries [@addr, @addr + @range) of VM @vm: @pte + i each, or 0. */
static __always_inline int ap_pt_set(struct bpfdrv_dev *dev, __u32 vm, __u64 addr,
				     __u64 range, __u64 pte)
{
	__u32 v = vm - 1, first = addr >> 12, n = range >> 12, k, e;
	int i;

	if (v >= ACCEL_PROBE_VMS)
		return -ENOSPC;
	bpfdrv_for(i, dev, 0, n) {
		k = first + i;
		if (k >= ACCEL_PROBE_VA_PAGES)
			break;
		/*
		 * masked for the verifier, which loses the bounds checked
		 * before the iterator's loop (the compiler would drop a mask
		 * it can prove idle: hence the barrier)
		 */
		e = v * ACCEL_PROBE_VA_PAGES + k;
		barrier_var(e);
		pt[e & AP_PT_MASK] = pte ? pte + i : 0;
	}
	return 0;
}

SEC("struct_ops/ap_vm_map")
int BPF_PROG(ap_vm_map, struct bpfdrv_dev *dev, __u32 vm, __u64 addr,
	     __u64 range, __u32 handle, __u64 bo_offset)
{
	return ap_pt_set(dev, vm, addr, range, ACCEL_PROBE_PTE_VALID |
			 (__u64)handle << 32 | bo_offset >> 12);
}

SEC("struct_ops/ap_vm_unmap")
void BPF_PROG(ap_vm_unmap, struct bpfdrv_dev *dev, __u32 vm, __u64 addr,
	      __u64 range)
{
	ap_pt_set(dev, vm, addr, range, 0);
}

static __always_inline int ap_pt(struct bpfdrv_io *io)
{
	__u32 q[2], v, f;

	if (bpfdrv_io_load(io, 0, q, sizeof(q)))
		return -EINVAL;
	v = q[0] - 1;
	f = q[1];
	if (v >= ACCEL_PROBE_VMS || f > ACCEL_PROBE_VA_PAGES - ACCEL_PROBE_PT_ENTRIES)
		return -EINVAL;
	f += v * ACCEL_PROBE_VA_PAGES;
	barrier_var(f);
	if (f > ACCEL_PROBE_VMS * ACCEL_PROBE_VA_PAGES - ACCEL_PROBE_PT_ENTRIES)
		return -EINVAL;
	return bpfdrv_io_store(io, 8, &pt[f], ACCEL_PROBE_PT_ENTRIES * 8) ? -EIO : 0;
}
#else
static __always_inline int ap_pt(struct bpfdrv_io *io)
{
	return -EOPNOTSUPP;
}
#endif

SEC("struct_ops/ap_accel_ioctl")
int BPF_PROG(ap_accel_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     __u32 nr, struct bpfdrv_io *io)
{
	struct accel_probe_state *st = bpfdrv_dev_state(dev, struct accel_probe_state);
	__u32 err;

	if (!st)
		return -EINVAL;
	switch (nr) {
	case ACCEL_PROBE_ADD:
		return ap_add(dev, file, io);
	case ACCEL_PROBE_PING:
		st->pings++;
		return io->len ? -EINVAL : 0;
	case ACCEL_PROBE_FAIL:
		if (bpfdrv_io_load(io, 0, &err, sizeof(err)))
			return -EINVAL;
		return err >= 1 && err <= 133 ? -(int)err : -EINVAL;
	case ACCEL_PROBE_STATE:
		return bpfdrv_io_store(io, 0, st, sizeof(*st)) ? -EIO : 0;
	case ACCEL_PROBE_DONE:
		return ap_done(dev, io);
	case ACCEL_PROBE_EJECT:
		bpfdrv_error(dev, "ejected as asked");
		return 0;
	case ACCEL_PROBE_SLOT:
		return ap_slot(dev, io);
	case ACCEL_PROBE_PT:
		return ap_pt(io);
	}
	return -ENOTTY;
}

SEC("struct_ops/ap_get_param")
int BPF_PROG(ap_get_param, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     __u32 param, __u32 index, struct bpfdrv_io *io)
{
	struct accel_probe_state *st = bpfdrv_dev_state(dev, struct accel_probe_state);
	__u64 v;

	if (!st)
		return -EINVAL;
	switch (param) {
	case ACCEL_PROBE_PARAM_PINGS:
		v = st->pings;
		break;
	case ACCEL_PROBE_PARAM_INDEX:
		if (index >= 4)
			return -EINVAL;
		v = index * 3 + 1;
		break;
	case ACCEL_PROBE_PARAM_BAD:
		return 7;
	default:
		return -EINVAL;
	}
	return bpfdrv_io_store(io, 0, &v, sizeof(v)) ? -EIO : 0;
}

#ifndef ACCEL_PROBE_NO_RINGS
/* one byte more than a job buffer copy may move */
__u8 too_big[BPFDRV_JOB_BO_COPY_MAX + 1];

/* Each job kfunc refused at its edge, with the answer it documents. */
static __always_inline int ap_edges(struct bpfdrv_dev *dev, __u32 ring,
				    __u64 seqno, __u32 size)
{
	struct accel_probe_edges e;
	__u32 v = 0;

	e.load_past_end = bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(ring, 0),
					     size - 2, &v, sizeof(v));
	e.load_wrap = bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(ring, 0),
					 0xfffffffe, &v, sizeof(v));
	e.store_past_end = bpfdrv_job_bo_store(dev, BPFDRV_JOB_BO(ring, 0),
					       size, &v, sizeof(v));
	e.load_no_bo = bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(ring, 7), 0, &v,
					  sizeof(v));
	e.load_other_ring = bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(!ring, 0), 0,
					       &v, sizeof(v));
	e.done_other_seqno = bpfdrv_job_done(dev, ring, seqno + 1, 0);
	e.done_bad_err = bpfdrv_job_done(dev, ring, seqno, 1);
	e.dma = bpfdrv_job_bo_dma(dev, BPFDRV_JOB_BO(ring, 0), 0, 16);
	e.load_too_big = bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(ring, 0), 0,
					    too_big, sizeof(too_big));
	e.vm_no_vm = bpfdrv_job_vm_load(dev, BPFDRV_JOB_BO(ring, 0), 4096, &v,
					sizeof(v));
	e.vm_too_big = bpfdrv_job_vm_load(dev, BPFDRV_JOB_BO(ring, 0), 4096,
					  too_big, sizeof(too_big));
	e.vm_dma_no_vm = bpfdrv_job_vm_dma(dev, BPFDRV_JOB_BO(ring, 0), 4096, 16);
	if (bpfdrv_job_bo_store(dev, BPFDRV_JOB_BO(ring, 0), 0, &e, sizeof(e)))
		return -EFAULT;
	return bpfdrv_job_done(dev, ring, seqno, 0) ? -EINVAL : 0;
}

SEC("struct_ops/ap_run_job")
int BPF_PROG(ap_run_job, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,
	     struct bpfdrv_io *arg)
{
	struct accel_probe_state *st = bpfdrv_dev_state(dev, struct accel_probe_state);
	struct accel_probe_job job;
	__u8 buf[64];

	if (!st || bpfdrv_io_load(arg, 0, &job, sizeof(job)))
		return -EINVAL;
	st->jobs++;
	switch (job.mode) {
	case PROBE_JOB_STORE:
#ifdef ACCEL_PROBE_V2
		job.value |= 0x80000000;	/* the code after a live update */
#endif
		if (bpfdrv_job_bo_store(dev, BPFDRV_JOB_BO(ring, 0), 0, &job.value,
					sizeof(job.value)))
			return -EFAULT;
		break;
	case PROBE_JOB_COPY:
		if (bpfdrv_job_bo_load(dev, BPFDRV_JOB_BO(ring, 0), 0, buf, sizeof(buf)) ||
		    bpfdrv_job_bo_store(dev, BPFDRV_JOB_BO(ring, 1), 0, buf, sizeof(buf)))
			return -EFAULT;
		break;
	case PROBE_JOB_HOLD:
		return 0;
	case PROBE_JOB_FAIL:
		return job.value >= 1 && job.value <= 133 ? -(int)job.value : -EINVAL;
	case PROBE_JOB_DONE_ERR:
		return bpfdrv_job_done(dev, ring, seqno, -(int)job.value) ? -EINVAL : 0;
	case PROBE_JOB_EDGES:
		return ap_edges(dev, ring, seqno, job.value);
	case PROBE_JOB_LOOP: {
		int i;

		bpfdrv_for(i, dev, 0, 1 << 30)
			st->loops++;
		return 0;
	}
	case PROBE_JOB_VM_WALK: {
		__u64 v;
		int i, r;

		bpfdrv_for(i, dev, 0, PROBE_VM_WALK_PAGES) {
			v = 0;
			r = bpfdrv_job_vm_load(dev, BPFDRV_JOB_BO(ring, 0),
					       ((__u64)job.value + i) << 12, &v, sizeof(v));
			if (r)
				v = PROBE_VM_FAULT | (__u32)-r;
			if (bpfdrv_job_bo_store(dev, BPFDRV_JOB_BO(ring, 0), i * 8, &v,
						sizeof(v)))
				return -EFAULT;
		}
		break;
	}
	default:
		return -EINVAL;
	}
	return bpfdrv_job_done(dev, ring, seqno, 0) ? -EINVAL : 0;
}

SEC("struct_ops/ap_timeout")
void BPF_PROG(ap_timeout, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno)
{
	struct accel_probe_state *st = bpfdrv_dev_state(dev, struct accel_probe_state);

	if (st) {
		st->timeouts++;
		st->last_timeout = seqno;
	}
}

#endif /* ACCEL_PROBE_NO_RINGS */

SEC(".struct_ops.link")
struct chr_ext_ops accel_probe_ops = {
	.open = (void *)ap_open,
	.release = (void *)ap_release,
	.accel_ioctl = (void *)ap_accel_ioctl,
	.accel_get_param = (void *)ap_get_param,
#ifndef ACCEL_PROBE_NO_RINGS
	.accel_run_job = (void *)ap_run_job,
	.accel_timeout = (void *)ap_timeout,
#endif
	.name = "accel_probe",
	.abi_version = BPFDRV_ABI_VERSION,
#ifdef ACCEL_PROBE_NO_RINGS
	.mode = 0666,		/* anyone may use it */
#endif
	.accel = 1,
	.accel_ioctls = {
		[ACCEL_PROBE_ADD] = { "ADD", sizeof(struct accel_probe_add),
				      BPFDRV_ACCEL_IN | BPFDRV_ACCEL_OUT },
		[ACCEL_PROBE_PING] = { "PING" },
		[ACCEL_PROBE_FAIL] = { "FAIL", sizeof(__u32), BPFDRV_ACCEL_IN },
		[ACCEL_PROBE_STATE] = { "STATE", sizeof(struct accel_probe_state),
					BPFDRV_ACCEL_OUT },
		[ACCEL_PROBE_DONE] = { "DONE", sizeof(struct accel_probe_done),
				       BPFDRV_ACCEL_IN | BPFDRV_ACCEL_OUT },
		[ACCEL_PROBE_EJECT] = { "EJECT" },
		[ACCEL_PROBE_PT] = { "PT", sizeof(struct accel_probe_pt),
				     BPFDRV_ACCEL_IN | BPFDRV_ACCEL_OUT },
		[ACCEL_PROBE_SLOT] = { "SLOT", sizeof(struct accel_probe_slot),
				       BPFDRV_ACCEL_IN | BPFDRV_ACCEL_OUT },
	},
#ifndef ACCEL_PROBE_NO_RINGS
	.accel_rings = ACCEL_PROBE_RINGS,
	.accel_timeout_ms = ACCEL_PROBE_TIMEOUT_MS,
	.accel_ring_jobs = ACCEL_PROBE_RING_JOBS,
#endif
#ifdef ACCEL_PROBE_VM
	.accel_va_bits = ACCEL_PROBE_VA_BITS,
	.accel_vm_map = (void *)ap_vm_map,
	.accel_vm_unmap = (void *)ap_vm_unmap,
#endif
};
