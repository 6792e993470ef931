// SPDX-License-Identifier: GPL-2.0
/*
 * edu_accel: QEMU's edu device as a DRM accelerator (docs/accel.md). Each
 * edu function is an instance with an accel node. A job on its one ring
 * (include/bpfdrv_edu_accel.h) either
 * - computes the factorials of the values in its input buffer into its
 *   output buffer: the device's factorial unit takes one value at a time;
 *   each completion interrupt, taken in irq_hard, stores the result,
 *   starts the next value, and ends the job after the last one, or with
 *   EDOM at a value past 12 (the driver copies the values with the
 *   job-buffer kfuncs); or
 * - copies bytes of its input buffer into the device's memory and from
 *   there into its output buffer, by DMA: bpfdrv maps the job's buffers
 *   for the device (accel_dma_bits) while the job runs; the driver starts
 *   the first transfer, irq_hard the second, and ends the job; or
 * - does the same from one address of the VM the job names to another
 *   (ABI 12): bpfdrv keeps the VM's mappings mapped for the device while
 *   they are bound, and tells the bus address of a VM address; edu has no
 *   MMU, so that translation is its page table.
 * The ring has EDU_ACCEL_RING_JOBS jobs on the device at once (ABI 9):
 * edu runs one, the driver queues the others in the order run_job got
 * them, and irq_hard starts the next as the last ends, without waiting for
 * the scheduler. A job the device does not finish within a second times
 * out; the timeout quiets the device and empties the queue.
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
/* jobs on the device at once: a power of two, at most 16 */
#ifndef EDU_ACCEL_RING_JOBS
#define EDU_ACCEL_RING_JOBS	4
#endif
#define SLOT_BO(slot, bo)	BPFDRV_JOB_SLOT_BO(0, slot, bo)
/* the argument before VM jobs: count and op */
#define EDU_ACCEL_JOB_V8	8

/* A job the driver took: what it is, in its slot on the ring. */
struct edu_accel_slot {
	__u64 seqno;
	__u32 op;		/* its EDU_ACCEL_OP_* */
	__u32 count;		/* its values, or bytes */
	__u64 src, dst;		/* DMA_VM: its VM's addresses */
	__u64 bus[2];		/* DMA: where edu reaches its input, output */
};

/*
 * Per instance. run_job appends a job's slot to the queue, irq_hard takes
 * the first off it; @queued hands the device over: whoever makes it 1
 * (run_job, the device idle) or leaves it above 0 (irq_hard, a job
 * ending) starts the job at the queue's head.
 */
struct edu_accel {
	struct edu_accel_slot slots[EDU_ACCEL_RING_JOBS];
	__u32 queue[EDU_ACCEL_RING_JOBS];	/* slots, in run_job's order */
	__u32 tail;		/* run_job's */
	__u32 head;		/* the job on the device: irq_hard's */
	__u32 queued;		/* jobs taken, not ended */
	__u32 next;		/* the value on the device; the transfer */
	__u64 values;		/* computed, all jobs */
	__u64 dma_bytes;	/* moved, both ways, all jobs */
};

static __always_inline int writeq_reg(struct bpfdrv_dev *dev, __u32 off, __u64 val)
{
	return bpfdrv_mmio_write(dev, BAR0, off, 8, val);
}

static __always_inline struct edu_accel_slot *cur_job(struct edu_accel *e,
						      __u32 *slot)
{
	*slot = e->queue[e->head & (EDU_ACCEL_RING_JOBS - 1)] &
		(EDU_ACCEL_RING_JOBS - 1);
	return &e->slots[*slot];
}

/* The bus address of the DMA job in @slot's source, or of its target. */
static __always_inline __s64 dma_bus(struct bpfdrv_dev *dev,
				     struct edu_accel_slot *j, __u32 slot,
				     __u32 back)
{
	if (j->op == EDU_ACCEL_OP_DMA_VM)
		return bpfdrv_job_vm_dma(dev, SLOT_BO(slot, 0),
					 back ? j->dst : j->src, j->count);
	return bpfdrv_job_bo_dma(dev, SLOT_BO(slot, back ? EDU_ACCEL_BO_OUT :
					      EDU_ACCEL_BO_IN), 0, j->count);
}

/*
 * Start transfer e->next of DMA job @j: 0 takes the input into
 * the device's memory, 1 brings it back into the output. The bus
 * addresses, taken by run_job, hold while the job runs (bpfdrv keeps what
 * they reach mapped until then, even if a bind unmaps it meanwhile).
 */
static __always_inline int dma_start(struct bpfdrv_dev *dev, struct edu_accel *e,
				     struct edu_accel_slot *j)
{
	__u32 back = e->next, count = j->count;
	/* two loads, no index the verifier would have to bound */
	__u64 in = j->bus[0], out = j->bus[1], bus = back ? out : in;
	int err;

	err = writeq_reg(dev, EDU_REG_DMA_SRC, back ? EDU_DMA_DEV_ADDR : bus);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_DST, back ? bus : EDU_DMA_DEV_ADDR);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_COUNT, count);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_CMD, EDU_DMA_START | EDU_DMA_IRQ |
				(back ? EDU_DMA_TO_RAM : 0));
	return err;
}

/* Start the factorial of value e->next of the job in @slot. */
static __always_inline int fact_start(struct bpfdrv_dev *dev, struct edu_accel *e,
				      __u32 slot)
{
	__u32 v;

	if (bpfdrv_job_bo_load(dev, SLOT_BO(slot, EDU_ACCEL_BO_IN),
			       e->next * sizeof(v), &v, sizeof(v)))
		return -EFAULT;
	if (v > EDU_ACCEL_VALUE_MAX)
		return -EDOM;
	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, EDU_STATUS_IRQ_FACT);
	bpfdrv_writel(dev, BAR0, EDU_REG_FACT, v);
	return 0;
}

/* Put the job at the queue's head on the device: 0, or why it fails. */
static __always_inline int job_begin(struct bpfdrv_dev *dev, struct edu_accel *e)
{
	struct edu_accel_slot *j;
	__u32 slot;

	j = cur_job(e, &slot);
	e->next = 0;
	if (j->op != EDU_ACCEL_OP_FACT)
		return dma_start(dev, e, j);
	return fact_start(dev, e, slot);
}

/*
 * End the job on the device with @err, and start the next queued one,
 * ending those that fail to start (at most the queue's length).
 */
static __always_inline void job_end(struct bpfdrv_dev *dev, struct edu_accel *e,
				    int err)
{
	struct edu_accel_slot *j;
	__u32 slot, i;

	for (i = 0; i < EDU_ACCEL_RING_JOBS; i++) {
		j = cur_job(e, &slot);
		bpfdrv_job_done(dev, 0, j->seqno, err);
		e->head++;
		if (__sync_fetch_and_add(&e->queued, -1) <= 1)
			return;		/* none queued: the device idles */
		err = job_begin(dev, e);
		if (!err)
			return;
	}
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
	struct edu_accel_slot *j;
	__u32 last, probe;
	int slot, err;
	__s64 bus;

	if (!e)
		return -EINVAL;
	slot = bpfdrv_job_slot(dev, ring, seqno);
	if (slot < 0 || slot >= EDU_ACCEL_RING_JOBS)
		return -EINVAL;
	/* 24 bytes (VM jobs), 8 (before them), 4 (before DMA jobs) */
	if (bpfdrv_io_load(arg, 0, &job, sizeof(job)) &&
	    bpfdrv_io_load(arg, 0, &job, EDU_ACCEL_JOB_V8) &&
	    bpfdrv_io_load(arg, 0, &job.count, sizeof(job.count)))
		return -EINVAL;
	/* (a mask the verifier can see, whatever the compiler made of the test) */
	slot &= EDU_ACCEL_RING_JOBS - 1;
	j = &e->slots[slot];
	j->op = job.op;
	j->count = job.count;
	j->src = job.src;
	j->dst = job.dst;
	if (job.op == EDU_ACCEL_OP_DMA || job.op == EDU_ACCEL_OP_DMA_VM) {
		if (!job.count || job.count > EDU_ACCEL_DMA_MAX)
			return -EINVAL;
		/* both ends reachable, or the job fails before it starts */
		bus = dma_bus(dev, j, slot, 0);
		if (bus < 0)
			return bus;
		j->bus[0] = bus;
		bus = dma_bus(dev, j, slot, 1);
		if (bus < 0)
			return bus;
		j->bus[1] = bus;
	} else if (job.op != EDU_ACCEL_OP_FACT || !job.count ||
		   job.count > EDU_ACCEL_VALUES_MAX) {
		return -EINVAL;
	} else {
		/* both buffers hold count values: the last one reads and writes */
		last = (job.count - 1) * sizeof(probe);
		if (bpfdrv_job_bo_load(dev, SLOT_BO(slot, EDU_ACCEL_BO_IN), last,
				       &probe, sizeof(probe)) ||
		    bpfdrv_job_bo_load(dev, SLOT_BO(slot, EDU_ACCEL_BO_OUT), last,
				       &probe, sizeof(probe)))
			return -EINVAL;
	}
	j->seqno = seqno;
	e->queue[e->tail++ & (EDU_ACCEL_RING_JOBS - 1)] = slot;
	if (__sync_fetch_and_add(&e->queued, 1))
		return 0;	/* irq_hard starts it after those before it */
	err = job_begin(dev, e);
	if (err)
		job_end(dev, e, err);
	return 0;
}

SEC("struct_ops/edu_accel_irq_hard")
int BPF_PROG(edu_accel_irq_hard, struct bpfdrv_dev *dev, __u32 vector)
{
	struct edu_accel *e = bpfdrv_dev_state(dev, struct edu_accel);
	struct edu_accel_slot *j;
	__u32 status, result, slot;
	int err;

	if (!e)
		return BPFDRV_IRQ_NONE;
	status = bpfdrv_readl(dev, BAR0, EDU_REG_IRQ_STATUS, &err);
	if (err || !status)
		return BPFDRV_IRQ_NONE;	/* not ours (shared INTx) */
	bpfdrv_writel(dev, BAR0, EDU_REG_IRQ_ACK, status);
	if (!*(volatile __u32 *)&e->queued)
		return BPFDRV_IRQ_HANDLED;
	j = cur_job(e, &slot);
	if (j->op != EDU_ACCEL_OP_FACT) {
		if (!(status & EDU_IRQ_DMA))
			return BPFDRV_IRQ_HANDLED;
		e->dma_bytes += j->count;
		if (e->next++) {
			job_end(dev, e, 0);
			return BPFDRV_IRQ_HANDLED;
		}
		err = dma_start(dev, e, j);
		if (err)
			job_end(dev, e, err);
		return BPFDRV_IRQ_HANDLED;
	}
	if (!(status & EDU_IRQ_FACT))
		return BPFDRV_IRQ_HANDLED;

	result = bpfdrv_readl(dev, BAR0, EDU_REG_FACT, &err);
	if (!err)
		err = bpfdrv_job_bo_store(dev, SLOT_BO(slot, EDU_ACCEL_BO_OUT),
					  e->next * sizeof(result), &result,
					  sizeof(result));
	if (err) {
		job_end(dev, e, -EIO);
		return BPFDRV_IRQ_HANDLED;
	}
	e->values++;
	if (++e->next >= j->count) {
		job_end(dev, e, 0);
		return BPFDRV_IRQ_HANDLED;
	}
	err = fact_start(dev, e, slot);
	if (err)
		job_end(dev, e, err);
	return BPFDRV_IRQ_HANDLED;
}

/*
 * The device did not finish: quiet it and empty the queue; bpfdrv ends
 * every job on the ring, and runs no run_job meanwhile.
 */
SEC("struct_ops/edu_accel_timeout")
void BPF_PROG(edu_accel_timeout, struct bpfdrv_dev *dev, __u32 ring, __u64 seqno)
{
	struct edu_accel *e = bpfdrv_dev_state(dev, struct edu_accel);

	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, 0);
	if (!e)
		return;
	e->head = e->tail;
	e->queued = 0;
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
	.accel_ring_jobs = EDU_ACCEL_RING_JOBS,
	.accel_va_bits = EDU_ACCEL_VA_BITS,
};
