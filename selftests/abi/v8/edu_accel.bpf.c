// SPDX-License-Identifier: GPL-2.0
/*
 * edu_accel: QEMU's edu device as a DRM accelerator (docs/accel.md). Each
 * edu function is an instance with an accel node. A job on its one ring
 * (include/bpfdrv_edu_accel.h) either
 * - computes the factorials of the values in its input buffer into its
 *   output buffer: run_job starts the device's factorial unit on the first
 *   value; each completion interrupt, taken in irq_hard, stores the
 *   result, starts the next value, and ends the job after the last one,
 *   or with EDOM at a value past 12 (the driver copies the values with the
 *   job-buffer kfuncs); or
 * - copies bytes of its input buffer into the device's memory and from
 *   there into its output buffer, by DMA: bpfdrv maps the job's buffers
 *   for the device (accel_dma_bits) while the job runs, run_job starts
 *   the first transfer, irq_hard the second, and ends the job.
 * A job the device does not finish within a second times out; the
 * timeout quiets the device.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_edu.h"
#include "bpfdrv_edu_accel.h"

char _license[] SEC("license") = "GPL";

#define BAR0		0
/* the address bits its DMA engine drives (QEMU's dma_mask property) */
#ifndef EDU_ACCEL_DMA_BITS
#define EDU_ACCEL_DMA_BITS	EDU_DMA_MASK_BITS
#endif
#define IN(ring)	BPFDRV_JOB_BO(ring, EDU_ACCEL_BO_IN)
#define OUT(ring)	BPFDRV_JOB_BO(ring, EDU_ACCEL_BO_OUT)

/* Per instance: the job running, shared by run_job and irq_hard. */
struct edu_accel {
	__u64 seqno;		/* 0: no job */
	__u32 op;		/* its EDU_ACCEL_OP_* */
	__u32 count;		/* its values, or bytes */
	__u32 next;		/* the value the device computes; the transfer */
	__u64 values;		/* computed, all jobs */
	__u64 dma_bytes;	/* moved, both ways, all jobs */
};

static __always_inline int writeq_reg(struct bpfdrv_dev *dev, __u32 off, __u64 val)
{
	return bpfdrv_mmio_write(dev, BAR0, off, 8, val);
}

/*
 * Start transfer e->next of a DMA job: 0 takes the input buffer into the
 * device's memory, 1 brings it back into the output buffer. The buffers'
 * bus addresses hold while the job runs.
 */
static __always_inline int dma_start(struct bpfdrv_dev *dev, struct edu_accel *e)
{
	__u32 back = e->next;
	__s64 bus;
	int err;

	bus = bpfdrv_job_bo_dma(dev, back ? OUT(0) : IN(0), 0, e->count);
	if (bus < 0)
		return bus;
	err = writeq_reg(dev, EDU_REG_DMA_SRC, back ? EDU_DMA_DEV_ADDR : bus);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_DST, back ? bus : EDU_DMA_DEV_ADDR);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_COUNT, e->count);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_CMD, EDU_DMA_START | EDU_DMA_IRQ |
				(back ? EDU_DMA_TO_RAM : 0));
	return err;
}

/* Start the factorial of value e->next: 0, or why the job fails. */
static __always_inline int fact_start(struct bpfdrv_dev *dev, struct edu_accel *e)
{
	__u32 v;

	if (bpfdrv_job_bo_load(dev, IN(0), e->next * sizeof(v), &v, sizeof(v)))
		return -EFAULT;
	if (v > EDU_ACCEL_VALUE_MAX)
		return -EDOM;
	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, EDU_STATUS_IRQ_FACT);
	bpfdrv_writel(dev, BAR0, EDU_REG_FACT, v);
	return 0;
}

/* End the running job with @err. */
static __always_inline void job_end(struct bpfdrv_dev *dev, struct edu_accel *e,
				    int err)
{
	__u64 seqno = e->seqno;

	e->seqno = 0;
	bpfdrv_job_done(dev, 0, seqno, err);
}

SEC("struct_ops.s/edu_accel_init")
int BPF_PROG(edu_accel_init, struct bpfdrv_dev *dev)
{
	__u32 id;
	int err;

	id = bpfdrv_readl(dev, BAR0, EDU_REG_ID, &err);
	if (err)
		return err;
	return (id & 0xff) == EDU_ID_MAGIC ? 0 : -ENODEV;
}

SEC("struct_ops/edu_accel_exit")
void BPF_PROG(edu_accel_exit, struct bpfdrv_dev *dev)
{
	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, 0);	/* no more interrupts */
}

SEC("struct_ops/edu_accel_run_job")
int BPF_PROG(edu_accel_run_job, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno,
	     struct bpfdrv_io *arg)
{
	struct edu_accel *e = bpfdrv_dev_state(dev, struct edu_accel);
	struct edu_accel_job job = {};
	__u32 last, probe;
	__s64 bus;
	int err;

	if (!e)
		return -EINVAL;
	/* a 4-byte argument (before DMA jobs): factorials */
	if (bpfdrv_io_load(arg, 0, &job, sizeof(job)) &&
	    bpfdrv_io_load(arg, 0, &job.count, sizeof(job.count)))
		return -EINVAL;
	if (job.op == EDU_ACCEL_OP_DMA) {
		if (!job.count || job.count > EDU_ACCEL_DMA_MAX)
			return -EINVAL;
		/* both buffers reachable, or the job fails before it starts */
		bus = bpfdrv_job_bo_dma(dev, OUT(ring), 0, job.count);
		if (bus < 0)
			return bus;
		e->op = EDU_ACCEL_OP_DMA;
		e->count = job.count;
		e->next = 0;
		e->seqno = seqno;
		err = dma_start(dev, e);
		if (err)
			e->seqno = 0;
		return err;
	}
	if (job.op != EDU_ACCEL_OP_FACT || !job.count ||
	    job.count > EDU_ACCEL_VALUES_MAX)
		return -EINVAL;
	/* both buffers hold count values: the last one reads and writes */
	last = (job.count - 1) * sizeof(probe);
	if (bpfdrv_job_bo_load(dev, IN(ring), last, &probe, sizeof(probe)) ||
	    bpfdrv_job_bo_load(dev, OUT(ring), last, &probe, sizeof(probe)))
		return -EINVAL;
	e->op = EDU_ACCEL_OP_FACT;
	e->count = job.count;
	e->next = 0;
	e->seqno = seqno;
	err = fact_start(dev, e);
	if (err)
		e->seqno = 0;
	return err;
}

SEC("struct_ops/edu_accel_irq_hard")
int BPF_PROG(edu_accel_irq_hard, struct bpfdrv_dev *dev, __u32 vector)
{
	struct edu_accel *e = bpfdrv_dev_state(dev, struct edu_accel);
	__u32 status, result;
	int err;

	if (!e)
		return BPFDRV_IRQ_NONE;
	status = bpfdrv_readl(dev, BAR0, EDU_REG_IRQ_STATUS, &err);
	if (err || !status)
		return BPFDRV_IRQ_NONE;	/* not ours (shared INTx) */
	bpfdrv_writel(dev, BAR0, EDU_REG_IRQ_ACK, status);
	if (!e->seqno)
		return BPFDRV_IRQ_HANDLED;
	if (e->op == EDU_ACCEL_OP_DMA) {
		if (!(status & EDU_IRQ_DMA))
			return BPFDRV_IRQ_HANDLED;
		e->dma_bytes += e->count;
		if (e->next++) {
			job_end(dev, e, 0);
			return BPFDRV_IRQ_HANDLED;
		}
		err = dma_start(dev, e);
		if (err)
			job_end(dev, e, err);
		return BPFDRV_IRQ_HANDLED;
	}
	if (!(status & EDU_IRQ_FACT))
		return BPFDRV_IRQ_HANDLED;

	result = bpfdrv_readl(dev, BAR0, EDU_REG_FACT, &err);
	if (!err)
		err = bpfdrv_job_bo_store(dev, OUT(0), e->next * sizeof(result),
					  &result, sizeof(result));
	if (err) {
		job_end(dev, e, -EIO);
		return BPFDRV_IRQ_HANDLED;
	}
	e->values++;
	if (++e->next >= e->count) {
		job_end(dev, e, 0);
		return BPFDRV_IRQ_HANDLED;
	}
	err = fact_start(dev, e);
	if (err)
		job_end(dev, e, err);
	return BPFDRV_IRQ_HANDLED;
}

/* The device did not finish: quiet it; bpfdrv fails the job. */
SEC("struct_ops/edu_accel_timeout")
void BPF_PROG(edu_accel_timeout, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno)
{
	struct edu_accel *e = bpfdrv_dev_state(dev, struct edu_accel);

	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, 0);
	if (e)
		e->seqno = 0;
}

SEC(".struct_ops.link")
struct chr_ext_ops edu_accel_ops = {
	.init = (void *)edu_accel_init,
	.exit = (void *)edu_accel_exit,
	.irq_hard = (void *)edu_accel_irq_hard,
	.accel_run_job = (void *)edu_accel_run_job,
	.accel_timeout = (void *)edu_accel_timeout,
	.name = "edu_accel",
	.abi_version = BPFDRV_ABI_VERSION,
	.pci_ids = { { EDU_VENDOR, EDU_DEVICE } },
	.accel = 1,
	.accel_rings = 1,
	.accel_timeout_ms = 1000,
	.accel_dma_bits = EDU_ACCEL_DMA_BITS,
};
