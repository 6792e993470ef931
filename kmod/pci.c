// SPDX-License-Identifier: GPL-2.0
/*
 * PCI functions for BPF drivers.
 *
 * bpfdrv registers a pci_driver with no ID table, so it binds only what an
 * administrator hands it through driver_override (as vfio-pci and
 * uio_pci_generic do). A bound function has its memory BARs mapped; an
 * attached chr_ext_ops driver that declares the function's IDs (or its
 * slot) makes it a device instance with its own node, interrupt and DMA
 * buffer. The kfuncs below act only on the calling instance's function:
 * BAR accesses are bounds-checked, config writes are limited to a few
 * harmless fields, and nothing is reachable while the kernel is locked down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/security.h>
#include <linux/slab.h>

#include "call.h"

/* PCI_COMMAND bits a driver may change; the rest stay as the kernel set them. */
#define BPFDRV_CMD_WRITABLE	(PCI_COMMAND_MASTER | PCI_COMMAND_PARITY | \
				 PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE)
/* PCI_STATUS error bits, write-one-to-clear. */
#define BPFDRV_STATUS_W1C	(PCI_STATUS_DETECTED_PARITY | \
				 PCI_STATUS_SIG_SYSTEM_ERROR | \
				 PCI_STATUS_REC_MASTER_ABORT | \
				 PCI_STATUS_REC_TARGET_ABORT | \
				 PCI_STATUS_SIG_TARGET_ABORT | \
				 PCI_STATUS_PARITY)

static bool msi = true;
module_param(msi, bool, 0444);
MODULE_PARM_DESC(msi, "Use MSI for PCI functions that have it; else INTx (default: 1)");

/*
 * INTx may be shared with other devices: claim the interrupt only if this
 * function raised it, and mask it at the function (PCI_COMMAND's INTx
 * disable bit) until the callback has run, as uio_pci_generic does; the
 * line stays enabled for the others.
 */
/*
 * PCI_COMMAND is shared: the interrupt handlers mask and unmask INTx in it
 * while a callback may write it (bus mastering, INTx disable). Every
 * read-modify-write of it by bpfdrv runs under fn->cmd_lock, which the
 * hard handler takes too, so that none undoes another's bit.
 */
static bool bpfdrv_pci_intx_check_mask(struct bpfdrv_pci_fn *fn)
{
	unsigned long flags;
	bool asserted;

	raw_spin_lock_irqsave(&fn->cmd_lock, flags);
	asserted = pci_check_and_mask_intx(fn->pdev);
	raw_spin_unlock_irqrestore(&fn->cmd_lock, flags);
	return asserted;
}

/* Clear, then set bits of PCI_COMMAND. */
static int bpfdrv_pci_cmd_update(struct bpfdrv_pci_fn *fn, u16 clear, u16 set)
{
	unsigned long flags;
	u16 cmd, new;
	int err;

	raw_spin_lock_irqsave(&fn->cmd_lock, flags);
	err = pci_read_config_word(fn->pdev, PCI_COMMAND, &cmd);
	new = (cmd & ~clear) | set;
	if (!err && new != cmd)
		err = pci_write_config_word(fn->pdev, PCI_COMMAND, new);
	raw_spin_unlock_irqrestore(&fn->cmd_lock, flags);
	return pcibios_err_to_errno(err);
}

static void bpfdrv_pci_intx_unmask(struct bpfdrv_pci_fn *fn)
{
	bpfdrv_pci_cmd_update(fn, PCI_COMMAND_INTX_DISABLE, 0);
}

/* Make @fn a bus master if its DMA is confined or the admin opted in. */
int bpfdrv_pci_set_master(struct bpfdrv_pci_fn *fn)
{
	unsigned long flags;
	int err = bpfdrv_pci_may_master(fn);

	if (err)
		return err;
	raw_spin_lock_irqsave(&fn->cmd_lock, flags);
	/* a driver bound in its IOMMU group meanwhile: iommu.c */
	if (fn->group_shared)
		err = -EPERM;
	else
		pci_set_master(fn->pdev);	/* config accesses only: no sleep */
	raw_spin_unlock_irqrestore(&fn->cmd_lock, flags);
	return err;
}

static irqreturn_t bpfdrv_pci_intx_hard(int irq, void *data)
{
	struct bpfdrv_device *bdev = data;

	if (!bpfdrv_pci_intx_check_mask(bdev->pci))
		return IRQ_NONE;
	return IRQ_WAKE_THREAD;
}

static irqreturn_t bpfdrv_pci_irq_thread(int irq, void *data)
{
	struct bpfdrv_device *bdev = data;
	struct bpfdrv_pci_fn *fn = bdev->pci;
	bool hard;
	int ret;

	/* an update keeps both callbacks: the vector was set up for them */
	rcu_read_lock();
	hard = READ_ONCE(bdev->ops)->irq_hard;
	rcu_read_unlock();
	/* not before init succeeded, not once teardown began */
	ret = bpfdrv_call(bdev, BPFDRV_CALL_LIVE, BPFDRV_CB_IRQ, irq, INT_MAX,
			  0, 0);
	/*
	 * Still asserted? Then the hard handler runs again at once. Not live
	 * (init, teardown): masked until bpfdrv_pci_instance_live(), or a
	 * level-triggered line would storm for every device sharing it.
	 */
	if (fn->intx_masked) {
		if (!READ_ONCE(bdev->live))
			return IRQ_HANDLED;
		bpfdrv_pci_intx_unmask(fn);
	}
	/* irq_hard claimed and counted it already */
	if (hard)
		return IRQ_HANDLED;
	if (ret <= 0)
		return IRQ_NONE;
	atomic64_inc(&bdev->irq_count);
	return IRQ_HANDLED;
}

/*
 * Longer than this in hard-IRQ context, twice in a row, is a broken driver:
 * it is ejected. A native handler takes microseconds; under TCG ten times
 * more. Once can be the machine's: a preempted handler thread on
 * PREEMPT_RT, a virtual CPU the host did not run.
 */
static unsigned int irq_hard_max_us = 10000;
module_param(irq_hard_max_us, uint, 0644);
MODULE_PARM_DESC(irq_hard_max_us,
		 "Longest irq_hard call, in microseconds; two in a row eject the driver (default: 10000)");

/*
 * An interrupt after irq_hard was stopped: keep a shared INTx line quiet
 * by masking it at the function; an MSI or unshared line is disabled.
 */
static irqreturn_t bpfdrv_pci_irq_stopped(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->pci;

	if (fn->intx_masked)
		return bpfdrv_pci_intx_check_mask(fn) ? IRQ_HANDLED : IRQ_NONE;
	return IRQ_HANDLED;
}

/*
 * irq_hard overran its time or returned what it may not: call it no more
 * and eject its driver, which the teardown then frees the interrupt of.
 */
static noinline __cold irqreturn_t bpfdrv_pci_irq_stop(struct bpfdrv_device *bdev,
						       int irq, int ret, u64 took_ns)
{
	struct bpfdrv_pci_fn *fn = bdev->pci;
	char msg[BPFDRV_EXIT_MSG_MAX];

	WRITE_ONCE(fn->irq_stopped, true);
	if (!fn->intx_masked)
		disable_irq_nosync(irq);
	if (took_ns) {
		snprintf(msg, sizeof(msg),
			 "irq_hard ran for %llu us, longer than the %u us allowed, twice in a row",
			 div_u64(took_ns, NSEC_PER_USEC), READ_ONCE(irq_hard_max_us));
	} else {
		this_cpu_inc(bdev->stats->bad_returns);
		snprintf(msg, sizeof(msg), "irq_hard returned %d (%s)", ret,
			 bdev->ops->irq ? "0, 1 or 2 allowed" :
			 "0 or 1 allowed: the driver has no irq callback");
	}
	dev_warn_ratelimited(&bdev->dev, "%s; its interrupts are stopped\n", msg);
	bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_PROTOCOL, BPFDRV_CB_IRQ_HARD, msg);
	return bpfdrv_pci_irq_stopped(bdev);
}

/*
 * irq_hard, in hard-IRQ context: no mutex, so it runs beside the other
 * callbacks, as a native driver's handler does. RCU (implied by hard-IRQ
 * context, explicit for PREEMPT_RT's threaded handlers) lets a live update
 * and the teardown wait for it. BPFDRV_IRQ_WAKE runs irq in the thread,
 * with a shared INTx line masked at the function until then.
 */
static irqreturn_t bpfdrv_pci_irq_hard(int irq, void *data)
{
	struct bpfdrv_device *bdev = data;
	struct bpfdrv_pci_fn *fn = bdev->pci;
	const struct chr_ext_ops *ops;
	u64 start, took, budget;
	bool thread;
	int ret;

	if (READ_ONCE(fn->irq_stopped))
		return bpfdrv_pci_irq_stopped(bdev);
	rcu_read_lock();
	if (!READ_ONCE(bdev->live)) {
		/* init or teardown: INTx stays masked at the function */
		rcu_read_unlock();
		return bpfdrv_pci_irq_stopped(bdev);
	}
	ops = READ_ONCE(bdev->ops);
	thread = ops->irq;
	budget = (u64)READ_ONCE(irq_hard_max_us) * NSEC_PER_USEC;
	start = local_clock();
	bdev->hard_deadline = start + budget;
	WRITE_ONCE(bdev->hard_task, current);
	ret = ops->irq_hard(&bdev->pub, 0);
	took = local_clock() - start;
	WRITE_ONCE(bdev->hard_task, NULL);
	this_cpu_inc(bdev->stats->calls[BPFDRV_CB_IRQ_HARD]);
	rcu_read_unlock();
	/* one handler at a time per interrupt: no lock for the count */
	if (unlikely(took > budget)) {
		if (++fn->hard_overruns >= 2)
			return bpfdrv_pci_irq_stop(bdev, irq, ret, took);
	} else {
		fn->hard_overruns = 0;
	}
	switch (ret) {
	case BPFDRV_IRQ_NONE:
		return IRQ_NONE;
	case BPFDRV_IRQ_HANDLED:
		atomic64_inc(&bdev->irq_count);
		return IRQ_HANDLED;
	case BPFDRV_IRQ_WAKE:
		if (!thread)
			break;
		atomic64_inc(&bdev->irq_count);
		if (fn->intx_masked)
			bpfdrv_pci_intx_check_mask(fn);
		return IRQ_WAKE_THREAD;
	}
	return bpfdrv_pci_irq_stop(bdev, irq, ret, 0);
}

/*
 * Called before the driver's init, on a function the instance holds
 * (fn->bdev, set by the caller): the node gets the function as its
 * parent, and a driver with an irq or irq_hard callback gets one vector
 * (MSI if the function has it, msi=1 and it may master the bus (iommu.c),
 * else INTx; none if it has neither). irq runs in the IRQ thread,
 * serialized with the other callbacks by the device mutex; irq_hard in the
 * hard handler.
 */
static void bpfdrv_pci_instance_teardown(struct bpfdrv_device *bdev);

static int bpfdrv_pci_instance_setup(struct bpfdrv_device *bdev,
				     struct bpfdrv_pci_fn *fn)
{
	const struct chr_ext_ops *ops = bdev->ops;
	irq_handler_t thread = ops->irq ? bpfdrv_pci_irq_thread : NULL;
	irq_handler_t hard = NULL;
	struct pci_dev *pdev = fn->pdev;
	unsigned long irqflags = 0;
	int ret, nvec;
	bool use_msi;

	bdev->pci = fn;
	bdev->pub.bus = BPFDRV_BUS_PCI;
	bdev->pub.vendor = pdev->vendor;
	bdev->pub.device = pdev->device;
	bdev->dev.parent = &pdev->dev;
	bpfdrv_pci_group_check(fn, bdev->drv);
	bdev->dma = bpfdrv_pci_dma(pdev);
	if (bdev->dma == BPFDRV_DMA_IOMMU && fn->group_shared)
		bdev->dma = BPFDRV_DMA_REFUSED;

	/* an MSI is a memory write by the device: bus mastering, confined */
	use_msi = msi && pdev->msi_cap && bdev->dma != BPFDRV_DMA_REFUSED;
	if ((!ops->irq && !ops->irq_hard) || (!use_msi && !pdev->pin))
		return 0;
	nvec = pci_alloc_irq_vectors(pdev, 1, 1,
				     use_msi ? PCI_IRQ_MSI | PCI_IRQ_INTX : PCI_IRQ_INTX);
	if (nvec < 0) {
		ret = nvec;
		goto err;
	}
	fn->irq_vectors = true;
	if (!pdev->msi_enabled && pci_intx_mask_supported(pdev)) {
		hard = bpfdrv_pci_intx_hard;
		irqflags = IRQF_SHARED;
		fn->intx_masked = true;
		/* masked until init succeeded: bpfdrv_pci_instance_live() */
		bpfdrv_pci_cmd_update(fn, 0, PCI_COMMAND_INTX_DISABLE);
	} else if (thread && !(IS_ENABLED(CONFIG_PREEMPT_RT) &&
				 pdev->msi_enabled && ops->irq_hard)) {
		/*
		 * MSI, or INTx without masking at the function: the line
		 * stays masked until the thread ran, unshared. Not for an MSI
		 * with irq_hard on PREEMPT_RT: a ONESHOT handler is not
		 * threaded there, and irq_hard's kfuncs take locks that sleep
		 * on RT (bpfdrv_dev_wake()'s wait queue): it would run in hard
		 * IRQ context and deadlock. An MSI is an edge: it needs no
		 * masking.
		 */
		irqflags = IRQF_ONESHOT;
	}
	if (ops->irq_hard)
		hard = bpfdrv_pci_irq_hard;
	ret = request_threaded_irq(pci_irq_vector(pdev, 0), hard, thread,
				   irqflags, bdev->pub.name, bdev);
	if (ret)
		goto err;
	fn->irq = pci_irq_vector(pdev, 0);
	if (pdev->msi_enabled) {
		ret = bpfdrv_pci_set_master(fn);
		if (ret)
			goto err;
	}
	return 0;

err:
	pci_err(pdev, "%s: cannot set up the interrupt: %d\n", bdev->pub.name, ret);
	bpfdrv_pci_instance_teardown(bdev);
	return ret;
}

/* init succeeded: a shared INTx line may reach the driver from now on. */
static void bpfdrv_pci_instance_live(struct bpfdrv_device *bdev)
{
	if (bdev->pci && bdev->pci->intx_masked)
		bpfdrv_pci_intx_unmask(bdev->pci);
}

/* Free the interrupt; waits for a running irq callback. */
static void bpfdrv_pci_irq_free(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->pci;

	if (fn->irq) {
		free_irq(fn->irq, bdev);
		fn->irq = 0;
	}
	if (fn->irq_vectors) {
		pci_free_irq_vectors(fn->pdev);
		fn->irq_vectors = false;
	}
	fn->intx_masked = false;
	fn->irq_stopped = false;
}

/*
 * After the driver's exit quiesced the device: free its interrupt, stop
 * its DMA before the buffer is freed, and leave the function ready for the
 * next driver. The caller then lets go of the function (fn->bdev).
 */
static void bpfdrv_pci_instance_teardown(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->pci;

	struct bpfdrv_dma_buf *buf, *tmp;
	int i;

	bpfdrv_pci_irq_free(bdev);
	pci_clear_master(fn->pdev);
	for (i = 0; i < BPFDRV_MAX_DMA_BUFS; i++) {
		buf = &fn->dma[i];
		if (buf->cpu)
			dma_free_coherent(&fn->pdev->dev, buf->size, buf->cpu,
					  buf->addr);
		buf->cpu = NULL;
	}
	list_for_each_entry_safe(buf, tmp, &fn->dma_freed, node) {
		dma_free_coherent(&fn->pdev->dev, buf->size, buf->cpu, buf->addr);
		kfree(buf);
	}
	INIT_LIST_HEAD(&fn->dma_freed);
	fn->dma_total = 0;
	bdev->pci = NULL;
}

bool bpfdrv_pci_lockdown_seen;

static int bpfdrv_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct bpfdrv_pci_fn *fn;
	int bar, ret;

	if (bpfdrv_pci_locked_down())
		return -EPERM;
	fn = devm_kzalloc(&pdev->dev, sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	fn->pdev = pdev;
	INIT_LIST_HEAD(&fn->dma_freed);
	mutex_init(&fn->dma_lock);
	raw_spin_lock_init(&fn->cmd_lock);

	ret = pci_enable_device(pdev);
	if (ret)
		return ret;
	/*
	 * Firmware or the previous driver may have left it bus-mastering:
	 * off until bpfdrv_pci_set_master(), the one way to turn it on.
	 */
	pci_clear_master(pdev);
	ret = pci_request_regions(pdev, KBUILD_MODNAME);
	if (ret)
		goto err_disable;
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		if (!(pci_resource_flags(pdev, bar) & (IORESOURCE_MEM | IORESOURCE_IO)) ||
		    !pci_resource_len(pdev, bar))
			continue;
		if (pci_resource_flags(pdev, bar) & IORESOURCE_IO)
			__set_bit(bar, &fn->bar_io);
		fn->bar[bar] = pci_iomap(pdev, bar, 0);
		if (!fn->bar[bar]) {
			ret = -ENOMEM;
			goto err_unmap;
		}
		fn->bar_len[bar] = pci_resource_len(pdev, bar);
	}
	pci_set_drvdata(pdev, fn);
	bpfdrv_pci_fn_added(fn);
	return 0;

err_unmap:
	while (--bar >= 0)
		if (fn->bar[bar])
			pci_iounmap(pdev, fn->bar[bar]);
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
	return ret;
}

static void bpfdrv_pci_remove(struct pci_dev *pdev)
{
	struct bpfdrv_pci_fn *fn = pci_get_drvdata(pdev);
	int bar;

	bpfdrv_pci_fn_removed(fn);
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++)
		if (fn->bar[bar])
			pci_iounmap(pdev, fn->bar[bar]);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
}

static struct pci_driver bpfdrv_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = NULL,	/* driver_override only */
	.probe = bpfdrv_pci_probe,
	.remove = bpfdrv_pci_remove,
};

int bpfdrv_pci_init(void)
{
	int ret = bpfdrv_hold_watch_pci();

	return ret ?: pci_register_driver(&bpfdrv_pci_driver);
}

void bpfdrv_pci_exit(void)
{
	pci_unregister_driver(&bpfdrv_pci_driver);
}

/* The instance's function, or NULL if it has none or lockdown forbids it. */
static struct bpfdrv_pci_fn *bpfdrv_pci_fn(struct bpfdrv_dev *dev, int *err)
{
	struct bpfdrv_pci_fn *fn = to_bpfdrv_device(dev)->pci;

	*err = -ENODEV;
	if (!fn)
		return NULL;
	*err = -EPERM;
	if (bpfdrv_pci_locked_down())
		return NULL;
	return fn;
}

/* An access of @size bytes at @off inside a region of @len bytes, aligned. */
static bool bpfdrv_access_ok(u64 off, u32 size, u64 len)
{
	u64 end;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return false;
	return !(off & (size - 1)) && !check_add_overflow(off, (u64)size, &end) &&
	       end <= len;
}

/* The mapped address of a checked BAR access, or NULL with *err set. */
static void __iomem *bpfdrv_mmio_addr(struct bpfdrv_dev *dev, u32 bar, u64 off,
				      u32 size, int *err)
{
	struct bpfdrv_pci_fn *fn = bpfdrv_pci_fn(dev, err);

	if (!fn)
		return NULL;
	*err = -EINVAL;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return NULL;
	*err = -ENXIO;
	if (bar >= PCI_STD_NUM_BARS || !fn->bar[bar])
		return NULL;
	*err = -EINVAL;		/* ports are 1, 2 or 4 bytes wide */
	if (size == 8 && test_bit(bar, &fn->bar_io))
		return NULL;
	*err = -ERANGE;
	if (!bpfdrv_access_ok(off, size, fn->bar_len[bar]))
		return NULL;
	return fn->bar[bar] + off;
}

/*
 * DMA buffer @nr of the instance at [@dma_off, @dma_off + @len) after
 * checking it and [@io_off, @io_off + @len) of the I/O buffer; NULL with
 * *err set. Under the callback mutex, which alloc and free also hold.
 */
static void *bpfdrv_dma_range(struct bpfdrv_dev *dev, u32 nr, u32 dma_off,
			      struct bpfdrv_io *io, u32 io_off, u32 len, int *err)
{
	struct bpfdrv_pci_fn *fn = bpfdrv_pci_fn(dev, err);
	struct bpfdrv_dma_buf *buf;

	if (!fn)
		return NULL;
	*err = -EINVAL;
	if (nr >= BPFDRV_MAX_DMA_BUFS)
		return NULL;
	buf = &fn->dma[nr];
	*err = -ENOMEM;
	if (!buf->cpu)
		return NULL;
	*err = -ERANGE;
	if (!bpfdrv_range_ok(io_off, len, to_bpfdrv_io(io)->size) ||
	    !bpfdrv_range_ok(dma_off, len, buf->size))
		return NULL;
	return buf->cpu + dma_off;
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_pci_cfg_read - read the instance's PCI configuration space
 * @dev: the instance
 * @off: offset, aligned to @size
 * @size: 1, 2 or 4 bytes
 * @val: where the value goes
 *
 * Return: 0, -EINVAL for a bad size, alignment or offset, -ENODEV for an
 * instance without a PCI function, -EPERM under lockdown.
 */
__bpf_kfunc int bpfdrv_pci_cfg_read(struct bpfdrv_dev *dev, u32 off, u32 size,
				    u32 *val)
{
	struct bpfdrv_pci_fn *fn;
	int err;
	u16 w;
	u8 b;

	*val = 0;
	fn = bpfdrv_pci_fn(dev, &err);
	if (!fn)
		return err;
	if (size == 8 || !bpfdrv_access_ok(off, size, fn->pdev->cfg_size))
		return -EINVAL;
	switch (size) {
	case 1:
		err = pci_read_config_byte(fn->pdev, off, &b);
		*val = b;
		break;
	case 2:
		err = pci_read_config_word(fn->pdev, off, &w);
		*val = w;
		break;
	default:
		err = pci_read_config_dword(fn->pdev, off, val);
	}
	return pcibios_err_to_errno(err);
}

/**
 * bpfdrv_pci_cfg_write - write one of the few config fields a driver owns
 * @dev: the instance
 * @off: PCI_COMMAND or PCI_STATUS
 * @size: 2
 * @val: the new value
 *
 * PCI_COMMAND: only bus mastering (as bpfdrv_pci_set_master() allows it),
 * parity and SERR reporting and INTx disable may change (INTx disable is
 * left to bpfdrv where it masks a shared INTx line per interrupt); PCI_STATUS:
 * write-one-to-clear error bits. BARs, capabilities (MSI, power
 * management) and the rest stay the kernel's.
 *
 * Return: 0, -EPERM for any other field or bit (or lockdown), -EINVAL for a
 * bad size, -ENODEV for an instance without a PCI function.
 */
__bpf_kfunc int bpfdrv_pci_cfg_write(struct bpfdrv_dev *dev, u32 off, u32 size,
				     u32 val)
{
	struct bpfdrv_pci_fn *fn;
	u16 cmd, mine;
	int err;

	fn = bpfdrv_pci_fn(dev, &err);
	if (!fn)
		return err;
	if (size != 2)
		return off == PCI_COMMAND || off == PCI_STATUS ? -EINVAL : -EPERM;
	switch (off) {
	case PCI_COMMAND:
		err = pci_read_config_word(fn->pdev, PCI_COMMAND, &cmd);
		if (err)
			return pcibios_err_to_errno(err);
		if ((val ^ cmd) & ~BPFDRV_CMD_WRITABLE & 0xffff || val > 0xffff)
			return -EPERM;
		/* bus mastering is DMA: only the one way, confined or opted in */
		if (val & ~cmd & PCI_COMMAND_MASTER) {
			err = bpfdrv_pci_set_master(fn);
			if (err)
				return err;
		}
		/* under the handlers' lock; INTx masking may be bpfdrv's */
		mine = BPFDRV_CMD_WRITABLE;
		if (fn->intx_masked)
			mine &= ~PCI_COMMAND_INTX_DISABLE;
		return bpfdrv_pci_cmd_update(fn, mine & ~val, mine & val);
	case PCI_STATUS:
		if (val & ~BPFDRV_STATUS_W1C)
			return -EPERM;
		return pcibios_err_to_errno(pci_write_config_word(fn->pdev, off, val));
	}
	return -EPERM;
}

/**
 * bpfdrv_pci_bar_len - length of one of the instance's BARs
 * @dev: the instance
 * @bar: BAR number, 0-5
 *
 * Return: the length in bytes (of a memory or I/O-port BAR), -ENXIO for an
 * absent BAR,
 * -ENODEV for an instance without a PCI function, -EPERM under lockdown.
 */
__bpf_kfunc s64 bpfdrv_pci_bar_len(struct bpfdrv_dev *dev, u32 bar)
{
	struct bpfdrv_pci_fn *fn;
	int err;

	fn = bpfdrv_pci_fn(dev, &err);
	if (!fn)
		return err;
	if (bar >= PCI_STD_NUM_BARS || !fn->bar[bar])
		return -ENXIO;
	return fn->bar_len[bar];
}

/**
 * bpfdrv_mmio_read - read a device register in a memory or I/O-port BAR
 * @dev: the instance
 * @bar: BAR number, 0-5
 * @off: byte offset in the BAR, aligned to @size
 * @size: 1, 2, 4 or 8 bytes (8 only in a memory BAR)
 * @val: where the value goes (0 on error)
 *
 * Return: 0, -ERANGE if [@off, @off + @size) is outside the BAR or
 * misaligned (nothing is read), -EINVAL for a bad size, -ENXIO for an
 * absent BAR, -ENODEV, -EPERM under lockdown.
 */
__bpf_kfunc int bpfdrv_mmio_read(struct bpfdrv_dev *dev, u32 bar, u64 off,
				 u32 size, u64 *val)
{
	void __iomem *p;
	int err;

	*val = 0;
	p = bpfdrv_mmio_addr(dev, bar, off, size, &err);
	if (!p)
		return err;
	if (test_bit(bar, &to_bpfdrv_device(dev)->pci->bar_io)) {
		/* an I/O-port cookie from pci_iomap(): ioread*() does in/out */
		*val = size == 1 ? ioread8(p) : size == 2 ? ioread16(p) : ioread32(p);
		return 0;
	}
	switch (size) {
	case 1:
		*val = readb(p);
		break;
	case 2:
		*val = readw(p);
		break;
	case 4:
		*val = readl(p);
		break;
	default:
		*val = readq(p);
	}
	return 0;
}

/**
 * bpfdrv_mmio_write - write a device register in a memory or I/O-port BAR
 * @dev: the instance
 * @bar: BAR number, 0-5
 * @off: byte offset in the BAR, aligned to @size
 * @size: 1, 2, 4 or 8 bytes
 * @val: the value (its low @size bytes)
 *
 * Return: as bpfdrv_mmio_read(); nothing is written on error.
 */
__bpf_kfunc int bpfdrv_mmio_write(struct bpfdrv_dev *dev, u32 bar, u64 off,
				  u32 size, u64 val)
{
	void __iomem *p;
	int err;

	p = bpfdrv_mmio_addr(dev, bar, off, size, &err);
	if (!p)
		return err;
	if (test_bit(bar, &to_bpfdrv_device(dev)->pci->bar_io)) {
		if (size == 1)
			iowrite8(val, p);
		else if (size == 2)
			iowrite16(val, p);
		else
			iowrite32(val, p);
		return 0;
	}
	switch (size) {
	case 1:
		writeb(val, p);
		break;
	case 2:
		writew(val, p);
		break;
	case 4:
		writel(val, p);
		break;
	default:
		writeq(val, p);
	}
	return 0;
}

/**
 * bpfdrv_dma_buf_alloc - give the instance a coherent DMA buffer (ABI 3)
 * @dev: the instance
 * @nr: which of its buffers, 0 to BPFDRV_MAX_DMA_BUFS - 1
 * @size: bytes, 1 to BPFDRV_DMA_BUF_MAX (1 MiB)
 * @mask_bits: how many address bits the device can drive (24-64)
 *
 * Enables bus mastering: only where an IOMMU translates the function's
 * DMA, or with allow_unsafe_dma=1 (iommu.c). The buffer lives until
 * bpfdrv_dma_buf_free() or the instance goes away. An instance's buffers,
 * freed ones included, hold at most BPFDRV_DMA_TOTAL_MAX (4 MiB). Sleeps:
 * sleepable programs only.
 *
 * Return: the buffer's bus address, to program into the device, or
 * -EEXIST (buffer @nr exists), -EINVAL, -ENOSPC (over the total), -EIO
 * (mask unsupported), -ENOMEM, -ENODEV, -EPERM under lockdown or with
 * no IOMMU (and no allow_unsafe_dma=1).
 */
__bpf_kfunc s64 bpfdrv_dma_buf_alloc(struct bpfdrv_dev *dev, u32 nr, u32 size,
				     u32 mask_bits)
{
	struct bpfdrv_dma_buf *buf;
	struct bpfdrv_pci_fn *fn;
	dma_addr_t addr;
	void *cpu;
	int err;

	fn = bpfdrv_pci_fn(dev, &err);
	if (!fn)
		return err;
	if (nr >= BPFDRV_MAX_DMA_BUFS || !size || size > BPFDRV_DMA_BUF_MAX ||
	    mask_bits < 24 || mask_bits > 64)
		return -EINVAL;
	buf = &fn->dma[nr];
	if (buf->cpu)
		return -EEXIST;
	if (fn->dma_total + PAGE_ALIGN(size) > BPFDRV_DMA_TOTAL_MAX)
		return -ENOSPC;
	err = bpfdrv_pci_set_master(fn);
	if (err)
		return err;
	if (dma_set_mask_and_coherent(&fn->pdev->dev, DMA_BIT_MASK(mask_bits)))
		return -EIO;
	cpu = dma_alloc_coherent(&fn->pdev->dev, size, &addr, GFP_KERNEL);
	if (!cpu)
		return -ENOMEM;
	mutex_lock(&fn->dma_lock);	/* mmap() and faults read it under it */
	buf->addr = addr;
	buf->size = size;
	buf->cpu = cpu;
	mutex_unlock(&fn->dma_lock);
	fn->dma_total += PAGE_ALIGN(size);
	return addr;
}

/**
 * bpfdrv_dma_alloc - give the instance DMA buffer 0
 * @dev: the instance
 * @size: bytes, 1 to 1 MiB
 * @mask_bits: how many address bits the device can drive (24-64)
 *
 * Return: as bpfdrv_dma_buf_alloc(@dev, 0, @size, @mask_bits).
 */
__bpf_kfunc s64 bpfdrv_dma_alloc(struct bpfdrv_dev *dev, u32 size,
				 u32 mask_bits)
{
	return bpfdrv_dma_buf_alloc(dev, 0, size, mask_bits);
}

/**
 * bpfdrv_dma_buf_free - free one of the instance's DMA buffers (ABI 3)
 * @dev: the instance
 * @nr: the buffer
 *
 * The buffer is gone for the driver and for user space at once: its
 * mappings are revoked (SIGBUS at the next access) and @nr can be
 * allocated again. Its memory goes back to the kernel only at teardown,
 * once bus mastering is off, so a device still writing into it cannot
 * corrupt memory someone else owns by then; until then it counts against
 * BPFDRV_DMA_TOTAL_MAX. Sleeps: sleepable programs only.
 *
 * Return: 0, -ENOENT (no buffer @nr), -EINVAL, -ENOMEM, -ENODEV, -EPERM.
 */
__bpf_kfunc int bpfdrv_dma_buf_free(struct bpfdrv_dev *dev, u32 nr)
{
	struct bpfdrv_dma_buf *buf, *freed;
	struct bpfdrv_pci_fn *fn;
	int err;

	fn = bpfdrv_pci_fn(dev, &err);
	if (!fn)
		return err;
	if (nr >= BPFDRV_MAX_DMA_BUFS)
		return -EINVAL;
	buf = &fn->dma[nr];
	if (!buf->cpu)
		return -ENOENT;
	freed = kmalloc(sizeof(*freed), GFP_KERNEL);
	if (!freed)
		return -ENOMEM;
	mutex_lock(&fn->dma_lock);
	*freed = *buf;
	buf->cpu = NULL;
	mutex_unlock(&fn->dma_lock);
	list_add(&freed->node, &fn->dma_freed);
	/* no fault maps it from here: zap what is mapped */
	bpfdrv_mmap_revoke(to_bpfdrv_device(dev));
	return 0;
}

/**
 * bpfdrv_io_to_dma_buf - copy from the I/O buffer into a DMA buffer (ABI 3)
 * @io: the callback's I/O context
 * @io_off: where to start in the I/O buffer
 * @dev: the instance that owns the DMA buffer
 * @pos: BPFDRV_DMA_POS(buffer, offset in it)
 * @len: bytes
 *
 * Return: 0, -ERANGE if either range is out of bounds (nothing copied),
 * -ENOMEM if the instance has no such buffer, -EINVAL, -ENODEV, -EPERM,
 * -EFAULT (direct I/O: a page of the caller's was missing).
 */
__bpf_kfunc int bpfdrv_io_to_dma_buf(struct bpfdrv_io *io, u32 io_off,
				     struct bpfdrv_dev *dev, u64 pos, u32 len)
{
	void *dma;
	int err;

	dma = bpfdrv_dma_range(dev, pos >> 32, (u32)pos, io, io_off, len, &err);
	if (!dma)
		return err;
	return bpfdrv_io_copy_in(to_bpfdrv_io(io), io_off, dma, len);
}

/**
 * bpfdrv_dma_buf_to_io - copy from a DMA buffer into the I/O buffer (ABI 3)
 * @dev: the instance that owns the DMA buffer
 * @pos: BPFDRV_DMA_POS(buffer, offset in it)
 * @io: the callback's I/O context
 * @io_off: where to start in the I/O buffer
 * @len: bytes
 *
 * Return: as bpfdrv_io_to_dma_buf().
 */
__bpf_kfunc int bpfdrv_dma_buf_to_io(struct bpfdrv_dev *dev, u64 pos,
				     struct bpfdrv_io *io, u32 io_off, u32 len)
{
	void *dma;
	int err;

	dma = bpfdrv_dma_range(dev, pos >> 32, (u32)pos, io, io_off, len, &err);
	if (!dma)
		return err;
	return bpfdrv_io_copy_out(to_bpfdrv_io(io), io_off, dma, len);
}

/**
 * bpfdrv_io_to_dma - copy from the I/O buffer into DMA buffer 0
 * @io: the callback's I/O context
 * @io_off: where to start in the I/O buffer
 * @dev: the instance that owns the DMA buffer
 * @dma_off: where to start in the DMA buffer
 * @len: bytes
 *
 * Return: as bpfdrv_io_to_dma_buf() for buffer 0.
 */
__bpf_kfunc int bpfdrv_io_to_dma(struct bpfdrv_io *io, u32 io_off,
				 struct bpfdrv_dev *dev, u32 dma_off, u32 len)
{
	return bpfdrv_io_to_dma_buf(io, io_off, dev, BPFDRV_DMA_POS(0, dma_off), len);
}

/**
 * bpfdrv_dma_to_io - copy from DMA buffer 0 into the I/O buffer
 * @dev: the instance that owns the DMA buffer
 * @dma_off: where to start in the DMA buffer
 * @io: the callback's I/O context
 * @io_off: where to start in the I/O buffer
 * @len: bytes
 *
 * Return: as bpfdrv_io_to_dma_buf() for buffer 0.
 */
__bpf_kfunc int bpfdrv_dma_to_io(struct bpfdrv_dev *dev, u32 dma_off,
				 struct bpfdrv_io *io, u32 io_off, u32 len)
{
	return bpfdrv_dma_buf_to_io(dev, BPFDRV_DMA_POS(0, dma_off), io, io_off, len);
}

__bpf_kfunc_end_defs();

/* Declarations of a PCI driver that need the whole of them. */
static int bpfdrv_pci_valid(const struct chr_ext_ops *ops)
{
	/* instance names append the index; truncated ones would collide */
	if (bpfdrv_driver_is_pci(ops) && strlen(ops->name) > BPFDRV_PCI_NAME_MAX) {
		pr_info("PCI driver name %s is too long: at most %d characters, instances append a number\n",
			ops->name, BPFDRV_PCI_NAME_MAX);
		return -ENAMETOOLONG;
	}
	if (ops->irq_hard && !bpfdrv_driver_is_pci(ops)) {
		pr_info("%s: irq_hard needs a PCI driver (pci_ids or pci_slot)\n",
			ops->name);
		return -EINVAL;
	}
	return 0;
}

/* An instance of a PCI driver holds a function (bdev->fn): set it up. */
static int bpfdrv_pci_claim(struct bpfdrv_device *bdev)
{
	return bdev->fn ? bpfdrv_pci_instance_setup(bdev, bdev->fn) : 0;
}

static void bpfdrv_pci_release(struct bpfdrv_device *bdev)
{
	if (bdev->pci)
		bpfdrv_pci_instance_teardown(bdev);
}

const struct bpfdrv_part bpfdrv_part_pci = {
	.name = "pci",
	.valid = bpfdrv_pci_valid,
	.claim = bpfdrv_pci_claim,
	.live = bpfdrv_pci_instance_live,
	.release = bpfdrv_pci_release,
};
