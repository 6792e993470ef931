// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for interrupt vectors (ABI 13), attached with --device on
 * QEMU's igb function (an 82576 with 10 MSI-X vectors): it asks for
 * MSIXT_MIN..MSIXT_MAX vectors (4..8; other values build the refused
 * declarations), puts the device in multiple-vector MSI-X mode with every
 * cause auto-cleared and unthrottled, and MSIXT_IOC_RING writes the
 * vector's bit of EICS: each write sends that vector's MSI-X message once
 * (QEMU's igb_core.c: igb_set_eics, igb_msix_notify). irq_hard and irq
 * count by the vector index they get (include/bpfdrv_msixtest.h);
 * irq_hard runs beside itself on other vectors, so the counts are atomic.
 * -DMSIXT_NO_HARD builds it with irq only.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_msixtest.h"

char _license[] SEC("license") = "GPL";

#ifndef MSIXT_MIN
#define MSIXT_MIN	4
#endif
#ifndef MSIXT_MAX
#define MSIXT_MAX	8
#endif

/* 82576 registers (BAR 0), as QEMU's igb models them */
#define IGB_GPIE		0x1514
#define IGB_GPIE_MSIX_MODE	0x10	/* one MSI-X vector per EICR bit */
#define IGB_EICS		0x1520	/* cause set: raises the vectors */
#define IGB_EIMS		0x1524	/* mask set: enables them */
#define IGB_EIMC		0x1528	/* mask clear */
#define IGB_EIAC		0x152c	/* auto-clear once the message is sent */
#define IGB_EITR(n)		(0x1680 + 4 * (n))	/* throttling: 0, none */
#define IGB_MSIX_VECTORS	10

struct msixt_state {
	struct msixtest_counts counts;
	__u32 mode;		/* enum msixtest_mode */
};

/* Per file: counts.done when it was opened or last read. */
struct msixt_file {
	__u64 seen;
};

#define STATE(dev)	bpfdrv_dev_state(dev, struct msixt_state)

static __always_inline void done(struct bpfdrv_dev *dev, struct msixt_state *s)
{
	__sync_fetch_and_add(&s->counts.done, 1);
	bpfdrv_dev_wake(dev);
}

#ifndef MSIXT_NO_HARD
SEC("struct_ops/msixt_irq_hard")
int BPF_PROG(msixt_irq_hard, struct bpfdrv_dev *dev, __u32 vector)
{
	struct msixt_state *s = STATE(dev);

	if (!s)
		return BPFDRV_IRQ_NONE;
	if (vector >= MSIXT_VECTORS) {
		__sync_fetch_and_add(&s->counts.bad, 1);
		return BPFDRV_IRQ_HANDLED;
	}
	/* an MSI-X message is the device's: nothing to check or clear */
	__sync_fetch_and_add(&s->counts.hard[vector], 1);
	if (s->mode == MSIXT_WAKE_ODD && (vector & 1))
		return BPFDRV_IRQ_WAKE;
	done(dev, s);
	return BPFDRV_IRQ_HANDLED;
}
#endif

/* The deferred part: sleepable, in the vector's interrupt thread. */
SEC("struct_ops.s/msixt_irq")
int BPF_PROG(msixt_irq, struct bpfdrv_dev *dev, __u32 vector)
{
	struct msixt_state *s = STATE(dev);

	if (!s)
		return 0;
	if (vector >= MSIXT_VECTORS) {
		__sync_fetch_and_add(&s->counts.bad, 1);
		return 1;
	}
	__sync_fetch_and_add(&s->counts.thread[vector], 1);
	done(dev, s);
	return 1;
}

SEC("struct_ops.s/msixt_init")
int BPF_PROG(msixt_init, struct bpfdrv_dev *dev)
{
	int i;

	bpfdrv_writel(dev, 0, IGB_EIMC, 0xffffffff);
	bpfdrv_for(i, dev, 0, IGB_MSIX_VECTORS)
		bpfdrv_writel(dev, 0, IGB_EITR(i), 0);
	bpfdrv_writel(dev, 0, IGB_GPIE, IGB_GPIE_MSIX_MODE);
	bpfdrv_writel(dev, 0, IGB_EIAC, (1 << IGB_MSIX_VECTORS) - 1);
	return bpfdrv_writel(dev, 0, IGB_EIMS, (1 << IGB_MSIX_VECTORS) - 1);
}

SEC("struct_ops/msixt_exit")
void BPF_PROG(msixt_exit, struct bpfdrv_dev *dev)
{
	bpfdrv_writel(dev, 0, IGB_EIMC, 0xffffffff);
}

SEC("struct_ops/msixt_open")
int BPF_PROG(msixt_open, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct msixt_file *f = bpfdrv_file_state(file, struct msixt_file);
	struct msixt_state *s = STATE(dev);

	if (!s || !f)
		return -EIO;
	f->seen = s->counts.done;
	return 0;
}

SEC("struct_ops/msixt_read")
int BPF_PROG(msixt_read, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	struct msixt_file *f = bpfdrv_file_state(file, struct msixt_file);
	struct msixt_state *s = STATE(dev);
	__u64 d;

	if (!s || !f)
		return -EIO;
	d = s->counts.done;
	if (d == f->seen)
		return -EAGAIN;		/* irq_hard or irq wakes us */
	f->seen = d;
	if (io->len < sizeof(d))
		return -EINVAL;
	return bpfdrv_io_store(io, 0, &d, sizeof(d)) ?: sizeof(d);
}

SEC("struct_ops/msixt_ioctl")
int BPF_PROG(msixt_ioctl, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     unsigned int cmd, struct bpfdrv_io *io)
{
	struct msixt_state *s = STATE(dev);
	struct msixtest_ring r;
	__u32 v;
	int i, err = 0;

	if (!s)
		return -EIO;
	switch (cmd) {
	case MSIXT_IOC_MODE:
		if (bpfdrv_io_load(io, 0, &v, sizeof(v)) || v >= MSIXT_MODES)
			return -EINVAL;
		s->mode = v;
		return 0;
	case MSIXT_IOC_RING:
		if (bpfdrv_io_load(io, 0, &r, sizeof(r)) ||
		    r.vector >= IGB_MSIX_VECTORS || r.times > 100000)
			return -EINVAL;
		bpfdrv_for(i, dev, 0, r.times) {
			err = bpfdrv_writel(dev, 0, IGB_EICS, 1u << r.vector);
			if (err)
				break;
		}
		return err;
	case MSIXT_IOC_COUNTS:
		return bpfdrv_io_store(io, 0, &s->counts, sizeof(s->counts));
	}
	return -ENOTTY;
}

SEC(".struct_ops.link")
struct chr_ext_ops msixtest_ops = {
#ifndef MSIXT_NO_HARD
	.irq_hard = (void *)msixt_irq_hard,
#endif
	.irq = (void *)msixt_irq,
	.init = (void *)msixt_init,
	.exit = (void *)msixt_exit,
	.open = (void *)msixt_open,
	.read = (void *)msixt_read,
	.ioctl = (void *)msixt_ioctl,
	.irq_vectors_min = MSIXT_MIN,
	.irq_vectors_max = MSIXT_MAX,
	.name = "msixtest",
	.abi_version = BPFDRV_ABI_VERSION,
	.mode = 0600,
};
