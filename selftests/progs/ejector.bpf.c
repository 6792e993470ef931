// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for ejection: a FIFO (blocking reads, like fifo.bpf.c) whose
 * EJ_IOC_ARM ioctl makes the next call of one callback report a fatal
 * error with bpfdrv_error(), and whose EJ_IOC_BADRET makes reads return
 * lengths the framework refuses until it ejects the driver. Attached with
 * --device on an edu function, EJ_IRQ raises an interrupt whose irq
 * callback reports the error. Its exit reports an error every time, which
 * the framework must drop.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_edu.h"
#include "bpfdrv_ejector.h"

char _license[] SEC("license") = "GPL";

struct ej_state {
	__u32 armed;		/* enum ejector_cb */
	__u32 badret;
	struct BPFDRV_RING(200) ring;	/* the state fits dev_priv (256) */
};

/* Fail here if armed for @cb. */
static __always_inline bool fails(struct bpfdrv_dev *dev, struct ej_state *s,
				  __u32 cb)
{
	if (s->armed != cb)
		return false;
	s->armed = EJ_NONE;
	bpfdrv_error(dev, "armed failure in callback %u of instance %u", cb,
		     dev->index);
	return true;
}

#define STATE(dev)	bpfdrv_dev_state(dev, struct ej_state)

SEC("struct_ops/ej_init")
int BPF_PROG(ej_init, struct bpfdrv_dev *dev)
{
	if (dev->name[0] == 'e' && dev->name[1] == 'j' && dev->name[2] == '_' &&
	    dev->name[3] == 'i' && dev->name[4] == 'n' && dev->name[5] == 'i' &&
	    dev->name[6] == 't')
		bpfdrv_error(dev, "init of instance %u gives up", dev->index);
	return 0;
}

/*
 * Reports an error on every teardown: the framework drops it, so an unload
 * is still recorded as one and an ejection keeps its first reason.
 */
SEC("struct_ops/ej_exit")
void BPF_PROG(ej_exit, struct bpfdrv_dev *dev)
{
	bpfdrv_error(dev, "exit of instance %u reports too (must be dropped)",
		     dev->index);
}

SEC("struct_ops/ej_open")
int BPF_PROG(ej_open, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct ej_state *s = STATE(dev);

	return s && fails(dev, s, EJ_OPEN) ? -EIO : 0;
}

SEC("struct_ops/ej_release")
void BPF_PROG(ej_release, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct ej_state *s = STATE(dev);

	if (s)
		fails(dev, s, EJ_RELEASE);
}

SEC("struct_ops/ej_read")
int BPF_PROG(ej_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct ej_state *s = STATE(dev);
	int n;

	if (!s || fails(dev, s, EJ_READ))
		return -EIO;
	if (s->badret)
		return 1 << 20;
	n = bpfdrv_ring_to_io(io, &s->ring, sizeof(s->ring));
	if (n > 0)
		bpfdrv_dev_wake(dev);
	return n ? n : -EAGAIN;
}

SEC("struct_ops/ej_write")
int BPF_PROG(ej_write, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct ej_state *s = STATE(dev);
	int n;

	if (!s || fails(dev, s, EJ_WRITE))
		return -EIO;
	n = bpfdrv_io_to_ring(io, &s->ring, sizeof(s->ring));
	if (n > 0)
		bpfdrv_dev_wake(dev);
	return n ? n : -EAGAIN;
}

SEC("struct_ops/ej_ioctl")
int BPF_PROG(ej_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct ej_state *s = STATE(dev);
	__u32 cb;

	if (!s)
		return -EIO;
	if (cmd == EJ_IOC_BADRET) {
		s->badret = 1;
		return 0;
	}
	if (cmd != EJ_IOC_ARM || bpfdrv_io_load(io, 0, &cb, sizeof(cb)))
		return -ENOTTY;
	s->armed = cb;
	if (fails(dev, s, EJ_IOCTL))
		return -EIO;
	if (cb == EJ_IRQ)
		return bpfdrv_mmio_write(dev, 0, EDU_REG_IRQ_RAISE, 4, 1);
	return 0;
}

SEC("struct_ops/ej_poll")
__u32 BPF_PROG(ej_poll, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct ej_state *s = STATE(dev);

	if (!s || fails(dev, s, EJ_POLL))
		return BPFDRV_POLLERR;
	return BPFDRV_POLLOUT | (s->ring.count ? BPFDRV_POLLIN : 0);
}

SEC("struct_ops/ej_irq")
int BPF_PROG(ej_irq, struct bpfdrv_dev *dev, __u32 vector)
{
	struct ej_state *s = STATE(dev);
	int err;
	__u32 st = bpfdrv_readl(dev, 0, EDU_REG_IRQ_STATUS, &err);

	if (err || !st)
		return 0;
	bpfdrv_writel(dev, 0, EDU_REG_IRQ_ACK, st);
	if (s)
		fails(dev, s, EJ_IRQ);
	return 1;
}

SEC(".struct_ops.link")
struct chr_ext_ops ejector_ops = {
	.init = (void *)ej_init,
	.exit = (void *)ej_exit,
	.open = (void *)ej_open,
	.release = (void *)ej_release,
	.read = (void *)ej_read,
	.write = (void *)ej_write,
	.ioctl = (void *)ej_ioctl,
	.poll = (void *)ej_poll,
	.irq = (void *)ej_irq,
	.name = "ejector",
	.mode = 0666,
};
