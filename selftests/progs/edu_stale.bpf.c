// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver: a hostile accelerator on QEMU's edu that keeps the bus
 * address of a job's buffer and has the device write there after the job
 * ended (include/bpfdrv_edu_stale.h). bpfdrv unmapped the buffer when the
 * job ended: the IOMMU must refuse the write. Its other jobs move edu's
 * memory from and into a running job's buffer, which must work.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_edu.h"
#include "bpfdrv_edu_stale.h"

char _license[] SEC("license") = "GPL";

#define BAR0	0

struct edu_stale {
	__u64 kept;		/* a bus address, valid while its job ran */
	__u64 seqno;		/* the job its DMA interrupt ends; 0: none */
};

static __always_inline int writeq_reg(struct bpfdrv_dev *dev, __u32 off, __u64 val)
{
	return bpfdrv_mmio_write(dev, BAR0, off, 8, val);
}

static __always_inline int dma(struct bpfdrv_dev *dev, __u64 src, __u64 dst,
			       __u32 cmd)
{
	int err;

	err = writeq_reg(dev, EDU_REG_DMA_SRC, src);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_DST, dst);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_COUNT, EDU_DMA_SIZE);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_CMD,
				cmd | EDU_DMA_START | EDU_DMA_IRQ);
	return err;
}

SEC("struct_ops/edu_stale_run_job")
int BPF_PROG(edu_stale_run_job, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,
	     struct bpfdrv_io *arg)
{
	struct edu_stale *st = bpfdrv_dev_state(dev, struct edu_stale);
	__u32 op;
	__s64 bus = 0;
	int err;

	if (!st || bpfdrv_io_load(arg, 0, &op, sizeof(op)))
		return -EINVAL;
	if (op != EDU_STALE_WRITE) {
		bus = bpfdrv_job_bo_dma(dev, BPFDRV_JOB_BO(ring, 0), 0, EDU_DMA_SIZE);
		if (bus < 0)
			return bus;
	}
	switch (op) {
	case EDU_STALE_KEEP:
		/* the kfunc's edges: past the end, no bytes, a missing buffer */
		if (bpfdrv_job_bo_dma(dev, BPFDRV_JOB_BO(ring, 0), EDU_DMA_SIZE - 2,
				      4) != -ERANGE ||
		    bpfdrv_job_bo_dma(dev, BPFDRV_JOB_BO(ring, 0), 0, 0) != -ERANGE ||
		    bpfdrv_job_bo_dma(dev, BPFDRV_JOB_BO(ring, 1), 0, 1) != -ENOENT)
			return -EPROTO;
		st->kept = bus;
		return bpfdrv_job_done(dev, ring, seqno, 0);
	case EDU_STALE_LOAD:
		err = dma(dev, bus, EDU_DMA_DEV_ADDR, 0);
		break;
	case EDU_STALE_WRITE:
		err = st->kept ? dma(dev, EDU_DMA_DEV_ADDR, st->kept, EDU_DMA_TO_RAM) :
				 -ENOENT;
		break;
	case EDU_STALE_STORE:
		err = dma(dev, EDU_DMA_DEV_ADDR, bus, EDU_DMA_TO_RAM);
		break;
	default:
		return -EINVAL;
	}
	if (!err)
		st->seqno = seqno;
	return err;
}

SEC("struct_ops/edu_stale_irq_hard")
int BPF_PROG(edu_stale_irq_hard, struct bpfdrv_dev *dev, __u32 vector)
{
	struct edu_stale *st = bpfdrv_dev_state(dev, struct edu_stale);
	__u32 status;
	__u64 seqno;
	int err;

	if (!st)
		return BPFDRV_IRQ_NONE;
	status = bpfdrv_readl(dev, BAR0, EDU_REG_IRQ_STATUS, &err);
	if (err || !status)
		return BPFDRV_IRQ_NONE;
	bpfdrv_writel(dev, BAR0, EDU_REG_IRQ_ACK, status);
	seqno = st->seqno;
	if ((status & EDU_IRQ_DMA) && seqno) {
		st->seqno = 0;
		bpfdrv_job_done(dev, 0, seqno, 0);
	}
	return BPFDRV_IRQ_HANDLED;
}

SEC(".struct_ops.link")
struct chr_ext_ops edu_stale_ops = {
	.irq_hard = (void *)edu_stale_irq_hard,
	.accel_run_job = (void *)edu_stale_run_job,
	.name = "edu_stale",
	.abi_version = BPFDRV_ABI_VERSION,
	.pci_ids = { { EDU_VENDOR, EDU_DEVICE } },
	.accel = 1,
	.accel_rings = 1,
	.accel_timeout_ms = 2000,
	.accel_dma_bits = EDU_DMA_MASK_BITS,
};
