// SPDX-License-Identifier: GPL-2.0
/*
 * edu: a complete PCI driver for QEMU's educational device (-device edu),
 * with the user interface of include/bpfdrv_edu.h.
 *
 * - The object declares the PCI IDs it serves; bpfdrv makes one instance,
 *   /dev/bpfdrv/edu<N>, per edu function bound to it.
 * - init checks the identification register and refuses any other device,
 *   then takes a DMA buffer (two halves: to the device, from the device).
 * - Factorials and DMA transfers complete by interrupt: irq_hard, in
 *   hard-IRQ context as a native driver's handler, acknowledges the device,
 *   counts what finished and wakes the waiters, which sleep through the
 *   framework's -EAGAIN retry. Nothing busy-polls. irq_hard runs beside the
 *   other callbacks, so it only adds to counters (atomically) that they
 *   compare with what they have seen.
 * - One file at a time owns the factorial unit (and the DMA engine), from
 *   its write until its read; a file closed mid-computation leaves the unit
 *   "orphaned" until the interrupt, so no stale result reaches the next
 *   owner.
 * - Its state is in per-device and per-file storage, which a live update
 *   (bpfdrv update edu NEW.bpf.o) keeps, as it keeps the function, the
 *   interrupt and the DMA buffer: factorials in flight complete on the new
 *   code. EDU_IOC_VERSION gives the version of the code.
 * - read and write are direct (BPFDRV_F_DIRECT_IO): a DMA transfer's data
 *   goes between the DMA buffer and the caller's memory in one copy.
 * - Two mmap windows let a process drive the device itself, as with
 *   uio_pci_generic: the register BAR and the DMA buffer. bpfdrv checks
 *   and maps them, and revokes them when the instance goes.
 * - A reset of the function (bpfdrv reset, its sysfs reset): reset_prepare
 *   waits for what the device is doing to finish; reset_done fails what
 *   did not (EIO) and, built with -DEDU_FIRMWARE, has the device's buffer
 *   loaded from the firmware file again.
 * - Power management (ABI 13): suspend waits for what the device does, as
 *   reset_prepare does, and turns its interrupt off; resume wants the
 *   firmware again. Both count themselves (EDU_IOC_PM). Built with
 *   -DEDU_AUTOSUSPEND_MS=N the driver asks for runtime PM: the function
 *   suspends once idle for N ms, and EDU_IOC_PM_FAIL makes the next
 *   suspends or resumes fail or take long, to test the framework.
 * - -DEDU_FIRMWARE: the driver declares the firmware file edu.fw
 *   (/lib/firmware/bpfdrv/edu/edu.fw, at most 4096 bytes), which init
 *   copies into a DMA buffer of its own; the device's buffer is loaded
 *   from it by DMA before its first transfer, and after each reset.
 */
#include "bpfdrv.bpf.h"
#include "bpfdrv_edu.h"

/* Built as another version to show and test live updates: -DEDU_VERSION=2 */
#ifndef EDU_VERSION
#define EDU_VERSION	1
#endif

char _license[] SEC("license") = "GPL";

#define BAR0		0
#define ORPHAN		(~0ULL)	/* owner closed before its interrupt */
#define EDU_FACT_MAX	12	/* 13! does not fit the device's 32 bits */
#define DMA_IN		0	/* DMA buffer half written to the device */
#define DMA_OUT		EDU_DMA_SIZE	/* half the device writes back */

/* Per instance (bpfdrv_dev_priv), shared by its files and irq_hard. */
struct edu_dev {
	__u64 fact_owner;	/* file id owning the factorial unit, 0: free */
	__u64 dma_owner;	/* likewise for the DMA engine */
	__u64 dma_addr;		/* bus address of our DMA buffer */
	__u32 fact_irqs;	/* completions, counted by irq_hard */
	__u32 fact_seen;	/* fact_irqs when last consumed */
	__u32 fact_result;	/* written by irq_hard before fact_irqs */
	__u32 dma_irqs;
	__u32 dma_seen;
	__u32 id;
	__u32 resets;		/* reset_done calls */
	__u32 fw_wanted;	/* the device's buffer needs the firmware */
	__u64 fw_addr;		/* DMA buffer 1: the firmware, fw_len bytes */
	__u32 fw_len;
	__u32 suspends;		/* power management: EDU_IOC_PM */
	__u32 resumes;
	__u64 pm_hist;
	struct edu_pm_fail pm_fail;	/* EDU_IOC_PM_FAIL */
	__u32 quiesced;		/* between reset_prepare and reset_done, or suspended */
	__u32 quiesced_calls;	/* calls that came then: EDU_IOC_PM */
};

/* bpfdrv calls nothing while the driver is quiesced: counted if it does */
static __always_inline void note_call(struct edu_dev *e)
{
	if (e->quiesced)
		__sync_fetch_and_add(&e->quiesced_calls, 1);
}

/* a unit's interrupt came since its result was last consumed */
static __always_inline bool fact_done(const struct edu_dev *e)
{
	return e->fact_irqs != e->fact_seen;
}

static __always_inline bool dma_done(const struct edu_dev *e)
{
	return e->dma_irqs != e->dma_seen;
}

/* A unit whose owner closed before its interrupt is free once it came. */
static __always_inline void reap_orphans(struct edu_dev *e)
{
	if (e->fact_owner == ORPHAN && fact_done(e)) {
		e->fact_seen = e->fact_irqs;
		e->fact_owner = 0;
	}
	if (e->dma_owner == ORPHAN && dma_done(e)) {
		e->dma_seen = e->dma_irqs;
		e->dma_owner = 0;
	}
}

/* Per open file. */
struct edu_file {
	__u32 mode;		/* EDU_MODE_* */
	__u32 dma_running;	/* this file's transfer is in flight */
	__u32 resets;		/* edu_dev.resets when it started */
};

static __always_inline int writeq_reg(struct bpfdrv_dev *dev, __u32 off, __u64 val)
{
	return bpfdrv_mmio_write(dev, BAR0, off, 8, val);
}

SEC("struct_ops.s/edu_init")
int BPF_PROG(edu_init, struct bpfdrv_dev *dev)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);
	__s64 addr;
	__u32 id;
	int err;

	if (!e)
		return -ENOMEM;
	id = bpfdrv_readl(dev, BAR0, EDU_REG_ID, &err);
	if (err)
		return err;
	if ((id & 0xff) != EDU_ID_MAGIC)
		return -ENODEV;		/* not an edu device */
	addr = bpfdrv_dma_alloc(dev, 2 * EDU_DMA_SIZE, EDU_DMA_MASK_BITS);
	if (addr < 0)
		return addr;
	e->id = id;
	e->dma_addr = addr;
#ifdef EDU_FIRMWARE
	/* kept in a buffer of its own, for each load of the device */
	e->fw_len = bpfdrv_fw_size(dev, 0);
	if (e->fw_len > EDU_DMA_SIZE)
		return -EFBIG;
	addr = bpfdrv_dma_buf_alloc(dev, 1, EDU_DMA_SIZE, EDU_DMA_MASK_BITS);
	if (addr < 0)
		return addr;
	err = bpfdrv_fw_to_dma_buf(dev, 0, 0, BPFDRV_DMA_POS(1, 0), e->fw_len);
	if (err)
		return err;
	e->fw_addr = addr;
	e->fw_wanted = 1;
#endif
	return 0;
}

/* What the device does raises an interrupt: wait for both to be idle. */
SEC("struct_ops.s/edu_reset_prepare")
void BPF_PROG(edu_reset_prepare, struct bpfdrv_dev *dev)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);
	int i;

	if (!e)
		return;
	bpfdrv_for(i, dev, 0, 1 << 20) {
		if ((!e->fact_owner || fact_done(e)) &&
		    (!e->dma_owner || dma_done(e)))
			break;
		if (bpfdrv_dev_yield(dev))
			break;
	}
	e->quiesced = 1;
}

/*
 * The function is back: what did not finish fails (EIO), the interrupt
 * is enabled again on the next write, the firmware is wanted again.
 */
SEC("struct_ops.s/edu_reset_done")
void BPF_PROG(edu_reset_done, struct bpfdrv_dev *dev)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);

	if (!e)
		return;
	e->quiesced = 0;
	e->resets++;
	if (e->fact_owner == ORPHAN)
		e->fact_owner = 0;
	if (e->dma_owner == ORPHAN)
		e->dma_owner = 0;
#ifdef EDU_FIRMWARE
	e->fw_wanted = 1;
#endif
	bpfdrv_dev_wake(dev);
}

static __always_inline void pm_log(struct edu_dev *e, __u32 what)
{
	e->pm_hist = e->pm_hist << 4 | what;
}

/*
 * Suspend: what the device does finishes first, as for a reset; nothing
 * interrupts after it (a factorial's interrupt is enabled per operation,
 * by its write). A result not yet read stays in the driver's state.
 */
SEC("struct_ops.s/edu_suspend")
int BPF_PROG(edu_suspend, struct bpfdrv_dev *dev, __u32 how)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);
	int i;

	if (!e)
		return -EIO;
	e->suspends++;
	pm_log(e, how == BPFDRV_PM_RUNTIME ? EDU_PM_SUSPEND_RUNTIME :
					     EDU_PM_SUSPEND_SYSTEM);
	if (e->pm_fail.suspend_ret)
		return e->pm_fail.suspend_ret;
	bpfdrv_for(i, dev, 0, 1 << 20) {
		if ((!e->fact_owner || fact_done(e)) &&
		    (!e->dma_owner || dma_done(e)))
			break;
		if (bpfdrv_dev_yield(dev))
			break;
	}
	if (e->fact_owner && !fact_done(e))
		return -EBUSY;		/* still computing: not now */
	if (e->dma_owner && !dma_done(e))
		return -EBUSY;
	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, 0);
	e->quiesced = 1;
	return 0;
}

/* The device may have lost its buffer: the firmware again, if any. */
SEC("struct_ops.s/edu_resume")
int BPF_PROG(edu_resume, struct bpfdrv_dev *dev, __u32 how)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);
	__u64 end;
	int i;

	if (!e)
		return -EIO;
	e->quiesced = 0;
	e->resumes++;
	pm_log(e, how == BPFDRV_PM_RUNTIME ? EDU_PM_RESUME_RUNTIME :
					     EDU_PM_RESUME_SYSTEM);
	if (e->pm_fail.resume_ms) {
		end = bpf_ktime_get_ns() + e->pm_fail.resume_ms * 1000000ULL;
		bpfdrv_for(i, dev, 0, 1 << 30) {
			if (bpf_ktime_get_ns() >= end || bpfdrv_dev_yield(dev))
				break;
		}
	}
	if (e->pm_fail.resume_ret)
		return e->pm_fail.resume_ret;
#ifdef EDU_FIRMWARE
	e->fw_wanted = 1;
#endif
	bpfdrv_dev_wake(dev);
	return 0;
}

SEC("struct_ops/edu_exit")
void BPF_PROG(edu_exit, struct bpfdrv_dev *dev)
{
	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, 0);	/* no more interrupts */
}

SEC("struct_ops/edu_irq_hard")
int BPF_PROG(edu_irq_hard, struct bpfdrv_dev *dev, __u32 vector)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);
	__u32 status;
	int err;

	if (!e)
		return BPFDRV_IRQ_NONE;
	note_call(e);
	status = bpfdrv_readl(dev, BAR0, EDU_REG_IRQ_STATUS, &err);
	if (err || !status)
		return BPFDRV_IRQ_NONE;	/* not ours (shared INTx) */
	bpfdrv_writel(dev, BAR0, EDU_REG_IRQ_ACK, status);

	if (status & EDU_IRQ_FACT) {
		e->fact_result = bpfdrv_readl(dev, BAR0, EDU_REG_FACT, &err);
		__sync_fetch_and_add(&e->fact_irqs, 1);
	}
	if (status & EDU_IRQ_DMA)
		__sync_fetch_and_add(&e->dma_irqs, 1);
	bpfdrv_dev_wake(dev);
	return BPFDRV_IRQ_HANDLED;
}

/* "n" or "n\n", 0 <= n <= EDU_FACT_MAX; -1 otherwise. */
static __always_inline int parse_number(struct bpfdrv_io *io)
{
	__u32 len = io->len, n = 0, i;
	char buf[8] = {};

	/* "& 7" lets the verifier see the bound the compiler hides */
	if (!len || len > 4 || bpfdrv_io_load(io, 0, buf, len & 7))
		return -1;
	if (buf[len - 1] == '\n')
		len--;
	if (!len)
		return -1;
	for (i = 0; i < 4 && i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -1;
		n = n * 10 + buf[i] - '0';
	}
	return n <= EDU_FACT_MAX ? n : -1;
}

static __always_inline int fact_write(struct bpfdrv_file *file,
				      struct bpfdrv_dev *dev, struct edu_dev *e,
				      struct edu_file *f, struct bpfdrv_io *io)
{
	int n = parse_number(io);

	if (n < 0)
		return -EINVAL;
	reap_orphans(e);
	if (e->fact_owner == file->id)
		return -EBUSY;		/* read the last result first */
	if (e->fact_owner)
		return -EAGAIN;		/* another file's turn; woken on its read */
	e->fact_owner = file->id;
	f->resets = e->resets;
	e->fact_seen = e->fact_irqs;	/* none is this one's yet */
	bpfdrv_writel(dev, BAR0, EDU_REG_STATUS, EDU_STATUS_IRQ_FACT);
	bpfdrv_writel(dev, BAR0, EDU_REG_FACT, n);
	return io->len;
}

/* The result as decimal text with a newline. */
static __always_inline int fact_read(struct bpfdrv_file *file,
				     struct bpfdrv_dev *dev, struct edu_dev *e,
				     struct edu_file *f, struct bpfdrv_io *io)
{
	char digits[16], out[16];
	__u32 v, n = 0, i;

	if (e->fact_owner != file->id)
		return 0;		/* nothing pending */
	if (!fact_done(e) && f->resets != e->resets) {
		e->fact_owner = 0;	/* a reset came between */
		bpfdrv_dev_wake(dev);
		return -EIO;
	}
	if (!fact_done(e))
		return -EAGAIN;		/* the interrupt wakes us */
	v = e->fact_result;
	do {
		digits[n++ & 15] = '0' + v % 10;
		v /= 10;
	} while (v && n < 10);
	for (i = 0; i < n && i < 10; i++)
		out[i] = digits[(n - 1 - i) & 15];
	out[n & 15] = '\n';
	n++;
	if (n > sizeof(out) || io->len < n || bpfdrv_io_store(io, 0, out, n))
		return -EINVAL;		/* the caller's buffer is too small */
	e->fact_owner = 0;
	e->fact_seen = e->fact_irqs;
	bpfdrv_dev_wake(dev);		/* writers waiting for the unit */
	return n;
}

/* Start a transfer of len bytes; the DMA interrupt reports completion. */
static __always_inline int dma_start(struct bpfdrv_dev *dev, struct edu_dev *e,
				     __u64 src, __u64 dst, __u32 len, __u32 cmd)
{
	int err;

	err = writeq_reg(dev, EDU_REG_DMA_SRC, src);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_DST, dst);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_COUNT, len);
	err = err ?: writeq_reg(dev, EDU_REG_DMA_CMD, cmd | EDU_DMA_START | EDU_DMA_IRQ);
	return err;
}

/*
 * A DMA read or write: the first call starts the transfer and asks to
 * wait; the call after the interrupt finishes it.
 */
static __always_inline int dma_rw(struct bpfdrv_file *file,
				  struct bpfdrv_dev *dev, struct edu_dev *e,
				  struct edu_file *f, struct bpfdrv_io *io,
				  bool to_device)
{
	__u32 len = io->len;
	int err;

	if (io->nonblock)
		return -EINVAL;
	if (f->dma_running) {
		if (!dma_done(e) && f->resets != e->resets) {
			f->dma_running = 0;	/* a reset came between */
			e->dma_owner = 0;
			bpfdrv_dev_wake(dev);
			return -EIO;
		}
		if (!dma_done(e))
			return -EAGAIN;
		/* first: a copy that faults is made again, with this state */
		err = to_device ? 0 : bpfdrv_dma_to_io(dev, DMA_OUT, io, 0, len);
		if (err)
			return err == -EFAULT ? err : -EIO;
		f->dma_running = 0;
		e->dma_seen = e->dma_irqs;
		e->dma_owner = 0;
		bpfdrv_dev_wake(dev);
		return len;
	}
	reap_orphans(e);
	if (e->dma_owner)
		return -EAGAIN;
	e->dma_seen = e->dma_irqs;	/* none is this one's yet */
#ifdef EDU_FIRMWARE
	if (e->fw_wanted) {
		/* the firmware first, a transfer nobody waits for */
		err = dma_start(dev, e, e->fw_addr, EDU_DMA_DEV_ADDR, e->fw_len, 0);
		if (err)
			return err;
		e->fw_wanted = 0;
		e->dma_owner = ORPHAN;
		return -EAGAIN;
	}
#endif
	if (to_device) {
		err = bpfdrv_io_to_dma(io, 0, dev, DMA_IN, len);
		err = err ?: dma_start(dev, e, e->dma_addr + DMA_IN,
				       EDU_DMA_DEV_ADDR, len, 0);
	} else {
		err = dma_start(dev, e, EDU_DMA_DEV_ADDR, e->dma_addr + DMA_OUT,
				len, EDU_DMA_TO_RAM);
	}
	if (err)
		return err;
	e->dma_owner = file->id;
	f->dma_running = 1;
	f->resets = e->resets;
	return -EAGAIN;
}

/* read and write: a DMA transfer or the factorial unit, by the file's mode. */
static __always_inline int edu_rw(struct bpfdrv_dev *dev,
				  struct bpfdrv_file *file, struct bpfdrv_io *io,
				  bool write)
{
	struct edu_file *f = bpfdrv_file_state(file, struct edu_file);
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);

	if (!f || !e)
		return -EIO;
	note_call(e);
	if (f->mode == EDU_MODE_DMA)
		return dma_rw(file, dev, e, f, io, write);
	return write ? fact_write(file, dev, e, f, io) : fact_read(file, dev, e, f, io);
}

SEC("struct_ops/edu_write")
int BPF_PROG(edu_write, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	return edu_rw(dev, file, io, true);
}

SEC("struct_ops/edu_read")
int BPF_PROG(edu_read, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, struct bpfdrv_io *io)
{
	return edu_rw(dev, file, io, false);
}

SEC("struct_ops/edu_ioctl")
int BPF_PROG(edu_ioctl, struct bpfdrv_dev *dev,
	     struct bpfdrv_file *file, unsigned int cmd,
	     struct bpfdrv_io *io)
{
	struct edu_file *f = bpfdrv_file_state(file, struct edu_file);
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);
	struct edu_info info = {};
	struct edu_pm pm = {};
	struct edu_reg reg;
	__u64 val = 0;
	__u32 v;
	int err;

	if (!f || !e)
		return -EIO;
	note_call(e);
	switch (cmd) {
	case EDU_IOC_INFO:
		info.id = e->id;
		info.index = dev->index;
		info.dma_addr = e->dma_addr;
		info.bar_len = bpfdrv_pci_bar_len(dev, BAR0);
		return bpfdrv_io_store(io, 0, &info, sizeof(info));
	case EDU_IOC_LIVENESS:
		if (bpfdrv_io_load(io, 0, &v, sizeof(v)))
			return -EINVAL;
		err = bpfdrv_writel(dev, BAR0, EDU_REG_LIVENESS, v);
		v = bpfdrv_readl(dev, BAR0, EDU_REG_LIVENESS, &err);
		return err ?: bpfdrv_io_store(io, 0, &v, sizeof(v));
	case EDU_IOC_REG_READ:
		if (bpfdrv_io_load(io, 0, &reg, sizeof(reg)))
			return -EINVAL;
		if (reg.size != 4 && reg.size != 8)
			return -EINVAL;
		/* the kfunc checks the range; its error is the caller's */
		err = bpfdrv_mmio_read(dev, BAR0, reg.off, reg.size, &val);
		if (err)
			return err;
		reg.val = val;
		return bpfdrv_io_store(io, 0, &reg, sizeof(reg));
	case EDU_IOC_REG_WRITE:
		if (bpfdrv_io_load(io, 0, &reg, sizeof(reg)))
			return -EINVAL;
		if (reg.size != 4 && reg.size != 8)
			return -EINVAL;
		/* DMA registers move memory: only through read/write */
		if (reg.off >= EDU_REG_DMA_SRC && reg.off < EDU_REG_DMA_CMD + 8)
			return -EPERM;
		return bpfdrv_mmio_write(dev, BAR0, reg.off, reg.size, reg.val);
	case EDU_IOC_SET_MODE:
		if (bpfdrv_io_load(io, 0, &v, sizeof(v)) || v > EDU_MODE_DMA)
			return -EINVAL;
		if (f->dma_running || e->fact_owner == file->id)
			return -EBUSY;
		f->mode = v;
		return 0;
	case EDU_IOC_VERSION:
		v = EDU_VERSION;
		return bpfdrv_io_store(io, 0, &v, sizeof(v));
	case EDU_IOC_PM:
		pm.suspends = e->suspends;
		pm.resumes = e->resumes;
		pm.hist = e->pm_hist;
		pm.quiesced_calls = e->quiesced_calls;
		return bpfdrv_io_store(io, 0, &pm, sizeof(pm));
#ifdef EDU_AUTOSUSPEND_MS
	case EDU_IOC_PM_FAIL:
		return bpfdrv_io_load(io, 0, &e->pm_fail, sizeof(e->pm_fail)) ?
		       -EINVAL : 0;
#endif
	}
	return -ENOTTY;
}

SEC("struct_ops/edu_poll")
__u32 BPF_PROG(edu_poll, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);
	__u32 mask = 0;

	if (!e)
		return BPFDRV_POLLERR;
	note_call(e);
	reap_orphans(e);
	if (e->fact_owner == file->id && fact_done(e))
		mask |= BPFDRV_POLLIN;
	if (!e->fact_owner)
		mask |= BPFDRV_POLLOUT;
	return mask;
}

SEC("struct_ops/edu_release")
void BPF_PROG(edu_release, struct bpfdrv_dev *dev, struct bpfdrv_file *file)
{
	struct edu_dev *e = bpfdrv_dev_state(dev, struct edu_dev);

	if (!e)
		return;
	note_call(e);
	/* Busy until the interrupt, so its result goes to nobody. */
	if (e->fact_owner == file->id)
		e->fact_owner = ORPHAN;
	if (e->dma_owner == file->id)
		e->dma_owner = ORPHAN;
	reap_orphans(e);
	bpfdrv_dev_wake(dev);
}

SEC(".struct_ops.link")
struct chr_ext_ops edu = {
	.init = (void *)edu_init,
	.exit = (void *)edu_exit,
	.irq_hard = (void *)edu_irq_hard,
	.release = (void *)edu_release,
	.read = (void *)edu_read,
	.write = (void *)edu_write,
	.ioctl = (void *)edu_ioctl,
	.poll = (void *)edu_poll,
	.reset_prepare = (void *)edu_reset_prepare,
	.reset_done = (void *)edu_reset_done,
	.suspend = (void *)edu_suspend,
	.resume = (void *)edu_resume,
#ifdef EDU_AUTOSUSPEND_MS
	.pm_autosuspend_ms = EDU_AUTOSUSPEND_MS,
#endif
#ifdef EDU_FIRMWARE
	.firmware = { "edu.fw" },
#endif
	.name = "edu",
	.abi_version = BPFDRV_ABI_VERSION,
	.flags = BPFDRV_F_DIRECT_IO,
	.mode = 0600,
	.pci_ids = { BPFDRV_PCI_ID(EDU_VENDOR, EDU_DEVICE) },
	.mmaps = {
#if !defined(EDU_AUTOSUSPEND_MS) || defined(EDU_PM_BAR_WINDOW)
		/* not with runtime PM: refused at load (docs/pci.md) */
		{ .region = BPFDRV_REGION_BAR(0), .offset = EDU_MMAP_BAR,
		  .prot = BPFDRV_MAP_READ | BPFDRV_MAP_WRITE },
#endif
		{ .region = BPFDRV_REGION_DMA(0), .offset = EDU_MMAP_DMA,
		  .prot = BPFDRV_MAP_READ | BPFDRV_MAP_WRITE },
	},
};
