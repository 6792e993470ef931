// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt of a PCI function an instance holds: its vector, the hard
 * handler that runs irq_hard within its time budget, and the IRQ thread
 * that runs irq through the call primitive; INTx shared with other
 * devices is masked at the function while the driver has not seen it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>

#include "call.h"
#include "pci.h"
#include "eject.h"

static bool msi = true;
module_param(msi, bool, 0444);
MODULE_PARM_DESC(msi, "Use MSI for PCI functions that have it; else INTx (default: 1)");

static irqreturn_t bpfdrv_pci_intx_hard(int irq, void *data)
{
	struct bpfdrv_device *bdev = data;

	if (!bpfdrv_pci_intx_check_mask(bdev->active_fn))
		return IRQ_NONE;
	return IRQ_WAKE_THREAD;
}

static irqreturn_t bpfdrv_pci_irq_thread(int irq, void *data)
{
	struct bpfdrv_device *bdev = data;
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
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
	 * (init, teardown): masked until bpfdrv_pci_irq_live(), or a
	 * level-triggered line would storm for every device sharing it.
	 */
	if (fn->intx_masked) {
		if (!bpfdrv_live(bdev))
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
	struct bpfdrv_pci_fn *fn = bdev->active_fn;

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
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
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
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	const struct chr_ext_ops *ops;
	u64 start, took, budget;
	bool thread;
	int ret;

	if (READ_ONCE(fn->irq_stopped))
		return bpfdrv_pci_irq_stopped(bdev);
	rcu_read_lock();
	if (!bpfdrv_live(bdev)) {
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
 * A driver with an irq or irq_hard callback gets one vector of @fn: MSI if
 * the function has it, msi=1 and it may master the bus (iommu.c), else
 * INTx; none if it has neither. irq runs in the IRQ thread, serialized with
 * the other callbacks by the device mutex; irq_hard in the hard handler.
 * On failure the caller frees what was set up (bpfdrv_pci_irq_free()).
 */
int bpfdrv_pci_irq_setup(struct bpfdrv_device *bdev, struct bpfdrv_pci_fn *fn)
{
	const struct chr_ext_ops *ops = bdev->ops;
	irq_handler_t thread = ops->irq ? bpfdrv_pci_irq_thread : NULL;
	irq_handler_t hard = NULL;
	struct pci_dev *pdev = fn->pdev;
	unsigned long irqflags = 0;
	int nvec, ret;
	bool use_msi;

	/* an MSI is a memory write by the device: bus mastering, confined */
	use_msi = msi && pdev->msi_cap && bdev->dma != BPFDRV_DMA_REFUSED;
	if ((!ops->irq && !ops->irq_hard) || (!use_msi && !pdev->pin))
		return 0;
	nvec = pci_alloc_irq_vectors(pdev, 1, 1,
				     use_msi ? PCI_IRQ_MSI | PCI_IRQ_INTX : PCI_IRQ_INTX);
	if (nvec < 0)
		return nvec;
	fn->irq_vectors = true;
	if (!pdev->msi_enabled && pci_intx_mask_supported(pdev)) {
		hard = bpfdrv_pci_intx_hard;
		irqflags = IRQF_SHARED;
		fn->intx_masked = true;
		/* masked until init succeeded: bpfdrv_pci_irq_live() */
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
		return ret;
	fn->irq = pci_irq_vector(pdev, 0);
	return pdev->msi_enabled ? bpfdrv_pci_set_master(fn) : 0;
}

/* init succeeded: a shared INTx line may reach the driver from now on. */
void bpfdrv_pci_irq_live(struct bpfdrv_device *bdev)
{
	if (bdev->active_fn && bdev->active_fn->intx_masked)
		bpfdrv_pci_intx_unmask(bdev->active_fn);
}

/* Free the interrupt; waits for a running irq callback. */
void bpfdrv_pci_irq_free(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->active_fn;

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
