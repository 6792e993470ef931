// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for irq_hard (ABI 4), attached with --device on an edu
 * function: IRQT_IOC_RAISE makes edu raise an interrupt, and the mode set
 * with IRQT_IOC_MODE says what irq_hard does with it (include/
 * bpfdrv_irqtest.h): handle it, hand it to the sleepable irq callback,
 * overrun its time, return what it may not, or report a fatal error.
 * irq_hard runs beside the other callbacks, so the counts it keeps are
 * updated atomically. Built with -DIRQT_NO_THREAD (no irq callback) and
 * -DIRQT_NO_HARD (no irq_hard) for the refused updates and returns.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_edu.h"
#include "bpfdrv_irqtest.h"

char _license[] SEC("license") = "GPL";

struct irqt_state {
	struct irqtest_counts counts;
	__u32 mode;		/* enum irqtest_mode */
};

/* Per file: counts.done when it was opened or last read. */
struct irqt_file {
	__u64 seen;
};

#define STATE(dev)	bpfdrv_dev_state(dev, struct irqt_state)

/* Acknowledge what edu raised; 0 if nothing (a shared INTx line). */
static __always_inline __u32 ack(struct bpfdrv_dev *dev, struct irqt_state *s)
{
	__u32 status;
	int err;

	status = bpfdrv_readl(dev, 0, EDU_REG_IRQ_STATUS, &err);
	if (err || !status) {
		__sync_fetch_and_add(&s->counts.none, 1);
		return 0;
	}
	bpfdrv_writel(dev, 0, EDU_REG_IRQ_ACK, status);
	__sync_fetch_and_add(&s->counts.hard, 1);
	return status;
}

#ifndef IRQT_NO_HARD
SEC("struct_ops/irqt_irq_hard")
int BPF_PROG(irqt_irq_hard, struct bpfdrv_dev *dev, __u32 vector)
{
	struct irqt_state *s = STATE(dev);

	if (!s || !ack(dev, s))
		return BPFDRV_IRQ_NONE;
	switch (s->mode) {
	case IRQT_WAKE:
		return BPFDRV_IRQ_WAKE;
	case IRQT_SLOW: {
		int i, j;

		/* ends at irq_hard's deadline */
		bpfdrv_for(i, dev, 0, 1 << 30)
			bpfdrv_for(j, dev, 0, 1 << 30)
				;
		break;
	}
	case IRQT_BADRET:
		return 7;
	case IRQT_EJECT:
		bpfdrv_error(dev, "armed failure in irq_hard of instance %u",
			     dev->index);
		break;
	}
	__sync_fetch_and_add(&s->counts.done, 1);
	bpfdrv_dev_wake(dev);
	return BPFDRV_IRQ_HANDLED;
}
#endif

#ifndef IRQT_NO_THREAD
/* The deferred part: sleepable, in the interrupt thread. */
SEC("struct_ops.s/irqt_irq")
int BPF_PROG(irqt_irq, struct bpfdrv_dev *dev, __u32 vector)
{
	struct irqt_state *s = STATE(dev);

	if (!s)
		return 0;
#ifdef IRQT_NO_HARD
	if (!ack(dev, s))
		return 0;
#endif
	if (!bpfdrv_dev_yield(dev))
		__sync_fetch_and_add(&s->counts.slept, 1);
	__sync_fetch_and_add(&s->counts.thread, 1);
	__sync_fetch_and_add(&s->counts.done, 1);
	bpfdrv_dev_wake(dev);
	return 1;
}
#endif

SEC("struct_ops/irqt_open")
int BPF_PROG(irqt_open, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct irqt_file *f = bpfdrv_file_state(file, struct irqt_file);
	struct irqt_state *s = STATE(dev);

	if (!s || !f)
		return -EIO;
	f->seen = s->counts.done;
	return 0;
}

SEC("struct_ops/irqt_read")
int BPF_PROG(irqt_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct irqt_file *f = bpfdrv_file_state(file, struct irqt_file);
	struct irqt_state *s = STATE(dev);
	struct irqtest_counts c;

	if (!s || !f)
		return -EIO;
	c = s->counts;
	if (c.done == f->seen)
		return -EAGAIN;		/* irq_hard or irq wakes us */
	f->seen = c.done;
	if (io->len < sizeof(c))
		return -EINVAL;
	return bpfdrv_io_store(io, 0, &c, sizeof(c)) ?: sizeof(c);
}

SEC("struct_ops/irqt_ioctl")
int BPF_PROG(irqt_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct irqt_state *s = STATE(dev);
	__u32 v;

	if (!s)
		return -EIO;
	switch (cmd) {
	case IRQT_IOC_MODE:
		if (bpfdrv_io_load(io, 0, &v, sizeof(v)) || v >= IRQT_MODES)
			return -EINVAL;
		s->mode = v;
		return 0;
	case IRQT_IOC_RAISE:
		return bpfdrv_writel(dev, 0, EDU_REG_IRQ_RAISE, 1);
	case IRQT_IOC_COUNTS:
		return bpfdrv_io_store(io, 0, &s->counts, sizeof(s->counts));
	}
	return -ENOTTY;
}

#ifdef IRQT_RAISE_IN_INIT
/* A slow init with the device's interrupt asserted all along. */
SEC("struct_ops.s/irqt_init")
int BPF_PROG(irqt_init, struct bpfdrv_dev *dev)
{
	__u64 start = bpf_ktime_get_ns();
	int i;

	bpfdrv_writel(dev, 0, EDU_REG_IRQ_RAISE, 1);
	bpfdrv_for(i, dev, 0, 1 << 30)
		if (bpf_ktime_get_ns() - start > 500000000ULL)
			break;
	return 0;
}
#endif

SEC("struct_ops/irqt_exit")
void BPF_PROG(irqt_exit, struct bpfdrv_dev *dev)
{
	int err;
	__u32 status = bpfdrv_readl(dev, 0, EDU_REG_IRQ_STATUS, &err);

	if (!err && status)
		bpfdrv_writel(dev, 0, EDU_REG_IRQ_ACK, status);
}

SEC(".struct_ops.link")
struct chr_ext_ops irqtest_ops = {
#ifndef IRQT_NO_HARD
	.irq_hard = (void *)irqt_irq_hard,
#endif
#ifndef IRQT_NO_THREAD
	.irq = (void *)irqt_irq,
#endif
#ifdef IRQT_RAISE_IN_INIT
	.init = (void *)irqt_init,
#endif
	.open = (void *)irqt_open,
	.read = (void *)irqt_read,
	.ioctl = (void *)irqt_ioctl,
	.exit = (void *)irqt_exit,
	.name = "irqtest",
	.abi_version = BPFDRV_ABI_VERSION,
	.mode = 0600,
};
