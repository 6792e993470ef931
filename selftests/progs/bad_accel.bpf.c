// SPDX-License-Identifier: GPL-2.0
/*
 * Accelerator declarations bpfdrv refuses at load, one per build: the
 * Makefile builds bad_accel_<case>.bpf.o with -DBAD_<case>, and the guest
 * test names the kernel's message for each (selftests/guest/48-accel.sh).
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define STR(x)	#x
#define XSTR(x)	STR(x)

#define IO	(BPFDRV_ACCEL_IN | BPFDRV_ACCEL_OUT)

#if defined(BAD_runnorings) || defined(BAD_dmanopci) || defined(BAD_dmabits) || \
	defined(BAD_sleepjob) || defined(BAD_fencekfunc) || \
	defined(BAD_sleeptimeout) || defined(BAD_ringjobs)
#define RUN_JOB
#endif

#ifdef RUN_JOB
#if defined(BAD_sleepjob)
/* on the dma-fence path a callback may not sleep */
SEC("struct_ops.s/bad_accel_run_job")
#else
SEC("struct_ops/bad_accel_run_job")
#endif
int BPF_PROG(bad_accel_run_job, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,
	     struct bpfdrv_io *arg)
{
#if defined(BAD_fencekfunc)
	/* it sleeps while the function's config space is blocked (a reset) */
	__u32 v;

	return bpfdrv_pci_cfg_read(dev, 0, 4, &v);
#else
	return 0;
#endif
}
#endif

#if defined(BAD_sleeptimeout)
SEC("struct_ops.s/bad_accel_timeout")
void BPF_PROG(bad_accel_timeout, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno)
{
}
#endif

#if defined(BAD_sleepvmmap)
/* a VM's binds run on the dma-fence path (queued ones signal a fence) */
SEC("struct_ops.s/bad_accel_vm_map")
int BPF_PROG(bad_accel_vm_map, struct bpfdrv_dev *dev, __u32 vm, __u64 addr,
	     __u64 range, __u32 handle, __u64 bo_offset)
{
	return 0;
}
#endif

#if defined(BAD_vmfencekfunc)
SEC("struct_ops/bad_accel_vm_unmap")
void BPF_PROG(bad_accel_vm_unmap, struct bpfdrv_dev *dev, __u32 vm, __u64 addr,
	      __u64 range)
{
	__u32 v;

	bpfdrv_pci_cfg_read(dev, 0, 4, &v);
}
#endif

#ifndef BAD_nocb
SEC("struct_ops/bad_accel_ioctl")
int BPF_PROG(bad_accel_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     __u32 nr, struct bpfdrv_io *io)
{
	return 0;
}
#endif

SEC(".struct_ops.link")
struct chr_ext_ops bad_accel = {
#ifndef BAD_nocb
	.accel_ioctl = (void *)bad_accel_ioctl,
#endif
	.name = "bad_accel_" XSTR(CASE),
#if defined(BAD_rings)
	.accel_rings = BPFDRV_ACCEL_RINGS_MAX + 1,
#elif defined(BAD_norun)
	.accel_rings = 1,
#elif defined(BAD_runnorings)
	.accel_run_job = (void *)bad_accel_run_job,
#elif defined(BAD_dmanopci)
	/* job buffers for DMA, but no PCI function to do it */
	.accel_run_job = (void *)bad_accel_run_job,
	.accel_rings = 1,
	.accel_dma_bits = 32,
#elif defined(BAD_sleepjob) || defined(BAD_fencekfunc)
	.accel_run_job = (void *)bad_accel_run_job,
	.accel_rings = 1,
#elif defined(BAD_sleeptimeout)
	.accel_run_job = (void *)bad_accel_run_job,
	.accel_timeout = (void *)bad_accel_timeout,
	.accel_rings = 1,
#elif defined(BAD_ringjobs)
	/* more jobs on the device at once than a ring may have */
	.accel_run_job = (void *)bad_accel_run_job,
	.accel_rings = 1,
	.accel_ring_jobs = BPFDRV_ACCEL_RING_JOBS_MAX + 1,
#elif defined(BAD_sleepvmmap)
	.accel_va_bits = 20,
	.accel_vm_map = (void *)bad_accel_vm_map,
#elif defined(BAD_vmfencekfunc)
	.accel_va_bits = 20,
	.accel_vm_unmap = (void *)bad_accel_vm_unmap,
#elif defined(BAD_ringjobsnorings)
	.accel_ring_jobs = 2,
#elif defined(BAD_dmabits)
	/* fewer address bits than the DMA API can serve */
	.accel_run_job = (void *)bad_accel_run_job,
	.accel_rings = 1,
	.accel_dma_bits = BPFDRV_ACCEL_DMA_BITS_MIN - 1,
	.pci_ids = { { 0x1234, 0x11e8 } },
#endif
	.abi_version = BPFDRV_ABI_VERSION,
#if defined(BAD_noaccel)
	.accel = 0,
#elif defined(BAD_two)
	.accel = 2,
#else
	.accel = 1,
#endif
	.accel_ioctls = {
#if defined(BAD_dup)
		{ "RUN", 8, IO }, { "RUN", 8, IO },
#elif defined(BAD_size)
		{ "RUN", BPFDRV_ACCEL_IOCTL_SIZE_MAX + 1, IO },
#elif defined(BAD_dir)
		{ "RUN", 8, 0 },
#elif defined(BAD_gap)
		{ "RUN", 8, IO }, {}, { "LATE", 8, IO },
#elif defined(BAD_name)
		{ "run", 8, IO },
#else
		{ "RUN", 8, IO },
#endif
	},
};
