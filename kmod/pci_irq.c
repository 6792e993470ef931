// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupts of a PCI function an instance holds: its vectors (one,
 * or up to BPFDRV_MAX_IRQ_VECTORS of MSI-X or MSI, ABI 13), each with the
 * hard handler that runs irq_hard within its time budget and the IRQ
 * thread that runs irq through the call primitive; INTx shared with other
 * devices is masked at the function while the driver has not seen it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "call.h"
#include "pci.h"
#include "eject.h"

static bool msi = true;
module_param(msi, bool, 0444);
MODULE_PARM_DESC(msi, "Use MSI or MSI-X for PCI functions that have it; else INTx (default: 1)");

static irqreturn_t bpfdrv_pci_intx_hard(int irq, void *data)
{
	struct bpfdrv_irq_vec *vec = data;

	if (!bpfdrv_pci_intx_check_mask(vec->bdev->active_fn))
		return IRQ_NONE;
	return IRQ_WAKE_THREAD;
}

static irqreturn_t bpfdrv_pci_irq_thread(int irq, void *data)
{
	struct bpfdrv_irq_vec *vec = data;
	struct bpfdrv_device *bdev = vec->bdev;
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	bool hard;
	int ret;

	/* an update keeps both callbacks: the vector was set up for them */
	rcu_read_lock();
	hard = READ_ONCE(bdev->ops)->irq_hard;
	rcu_read_unlock();
	/* not before init succeeded, not once teardown began */
	ret = bpfdrv_call(bdev, BPFDRV_CALL_IRQ, BPFDRV_CB_IRQ, irq, INT_MAX,
			  0, vec->index);
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
	atomic64_inc(&bdev->irq_counts[vec->index]);
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
 * irq_hard overran its time or returned what it may not, on one vector:
 * call it no more on any (the first vector to stop disables them all) and
 * eject its driver, which the teardown then frees the interrupts of.
 */
static noinline __cold irqreturn_t bpfdrv_pci_irq_stop(struct bpfdrv_irq_vec *vec,
						       int ret, u64 took_ns)
{
	struct bpfdrv_device *bdev = vec->bdev;
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	char msg[BPFDRV_EXIT_MSG_MAX];
	u32 i;

	if (xchg(&fn->irq_stopped, true))
		return bpfdrv_pci_irq_stopped(bdev);
	for (i = 0; i < fn->nvecs && !fn->intx_masked; i++)
		if (fn->vecs[i].irq)
			disable_irq_nosync(fn->vecs[i].irq);
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
	dev_warn_ratelimited(&bdev->dev, "%s (vector %u); its interrupts are stopped\n",
			     msg, vec->index);
	bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_PROTOCOL, BPFDRV_CB_IRQ_HARD, msg);
	return bpfdrv_pci_irq_stopped(bdev);
}

/*
 * irq_hard, in hard-IRQ context: no mutex, so it runs beside the other
 * callbacks, as a native driver's handler does, and beside itself on the
 * instance's other vectors (each with its own slot, deadline and
 * overruns). RCU (implied by hard-IRQ context, explicit for PREEMPT_RT's
 * threaded handlers) lets a live update and the teardown wait for it.
 * BPFDRV_IRQ_WAKE runs irq in the thread, with a shared INTx line masked
 * at the function until then.
 */
static irqreturn_t bpfdrv_pci_irq_hard(int irq, void *data)
{
	struct bpfdrv_irq_vec *vec = data;
	struct bpfdrv_device *bdev = vec->bdev;
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	const struct chr_ext_ops *ops;
	u64 start, took, budget;
	bool thread;
	int ret;

	if (READ_ONCE(fn->irq_stopped))
		return bpfdrv_pci_irq_stopped(bdev);
	rcu_read_lock();
	/*
	 * init or teardown: INTx stays masked at the function. Suspended
	 * (pci_pm.c, which waits for RCU after it set pm_off): the device
	 * raises nothing then, and its BAR may not answer.
	 */
	if (!bpfdrv_live(bdev) || READ_ONCE(fn->pm_off)) {
		rcu_read_unlock();
		return bpfdrv_pci_irq_stopped(bdev);
	}
	ops = READ_ONCE(bdev->ops);
	thread = ops->irq;
	budget = (u64)READ_ONCE(irq_hard_max_us) * NSEC_PER_USEC;
	start = local_clock();
	vec->hard->deadline = start + budget;
	WRITE_ONCE(vec->hard->task, current);
	ret = ops->irq_hard(&bdev->pub, vec->index);
	took = local_clock() - start;
	WRITE_ONCE(vec->hard->task, NULL);
	this_cpu_inc(bdev->stats->calls[BPFDRV_CB_IRQ_HARD]);
	rcu_read_unlock();
	/* one handler at a time per vector: no lock for its count */
	if (unlikely(took > budget)) {
		if (++vec->hard_overruns >= 2)
			return bpfdrv_pci_irq_stop(vec, ret, took);
	} else {
		vec->hard_overruns = 0;
	}
	switch (ret) {
	case BPFDRV_IRQ_NONE:
		return IRQ_NONE;
	case BPFDRV_IRQ_HANDLED:
		atomic64_inc(&bdev->irq_counts[vec->index]);
		return IRQ_HANDLED;
	case BPFDRV_IRQ_WAKE:
		if (!thread)
			break;
		atomic64_inc(&bdev->irq_counts[vec->index]);
		if (fn->intx_masked)
			bpfdrv_pci_intx_check_mask(fn);
		return IRQ_WAKE_THREAD;
	}
	return bpfdrv_pci_irq_stop(vec, ret, 0);
}

/*
 * The vectors a driver asks for (ABI 13, irq_vectors_min/_max), as
 * pci_alloc_irq_vectors() takes them: MSI-X, else MSI, and INTx only
 * where one vector is enough. Both 0: one vector, MSI if the function has
 * it, else INTx, as before ABI 13. 0 with *@min = 0: no vector, and none
 * needed; -ENOSPC (said why) if the function cannot give them.
 */
static int bpfdrv_pci_irq_flags(struct bpfdrv_device *bdev,
				struct bpfdrv_pci_fn *fn, u32 *min, u32 *max)
{
	const struct chr_ext_ops *ops = bdev->ops;
	struct pci_dev *pdev = fn->pdev;
	bool dma = bdev->dma != BPFDRV_DMA_REFUSED;
	unsigned int flags = 0;

	/* an MSI is a memory write by the device: bus mastering, confined */
	if (!ops->irq_vectors_max) {
		*min = *max = pdev->pin || (msi && pdev->msi_cap && dma);
		if (msi && pdev->msi_cap && dma)
			flags |= PCI_IRQ_MSI;
		return flags | PCI_IRQ_INTX;
	}
	*min = ops->irq_vectors_min;
	*max = ops->irq_vectors_max;
	if (msi && (pdev->msi_cap || pdev->msix_cap) && dma)
		flags |= PCI_IRQ_MSIX | PCI_IRQ_MSI;
	if (*min <= 1 && pdev->pin)
		flags |= PCI_IRQ_INTX;
	if (flags || !*min)
		return flags;
	return bpfdrv_refuse_err(-ENOSPC,
				 "%s: %u interrupt vectors need MSI-X or MSI: %s",
				 bdev->pub.name, *min,
				 !msi ? "the module has msi=0" :
				 !pdev->msi_cap && !pdev->msix_cap ?
				 "its function has neither" :
				 "its function may not master the bus (no IOMMU; docs/pci.md)");
}

/*
 * Request vector @i: irq_hard (if any) in the hard handler, irq (if any)
 * in the IRQ thread, named NAME-INDEX in /proc/interrupts when the
 * driver asked for vectors, NAME when it did not.
 */
static int bpfdrv_pci_irq_request(struct bpfdrv_device *bdev,
				  struct bpfdrv_pci_fn *fn, u32 i)
{
	const struct chr_ext_ops *ops = bdev->ops;
	irq_handler_t thread = ops->irq ? bpfdrv_pci_irq_thread : NULL;
	struct bpfdrv_irq_vec *vec = &fn->vecs[i];
	struct pci_dev *pdev = fn->pdev;
	irq_handler_t hard = NULL;
	unsigned long irqflags = 0;
	int ret, irq;

	vec->bdev = bdev;
	vec->index = i;
	vec->hard = &bdev->hard_calls[i];
	if (ops->irq_vectors_max)
		snprintf(vec->name, sizeof(vec->name), "%s-%u", bdev->pub.name, i);
	else
		strscpy(vec->name, bdev->pub.name, sizeof(vec->name));
	if (!pdev->msi_enabled && !pdev->msix_enabled &&
	    pci_intx_mask_supported(pdev)) {
		hard = bpfdrv_pci_intx_hard;
		irqflags = IRQF_SHARED;
		fn->intx_masked = true;
		/* masked until init succeeded: bpfdrv_pci_irq_live() */
		bpfdrv_pci_cmd_update(fn, 0, PCI_COMMAND_INTX_DISABLE);
	} else if (thread && !(IS_ENABLED(CONFIG_PREEMPT_RT) &&
				 (pdev->msi_enabled || pdev->msix_enabled) &&
				 ops->irq_hard)) {
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
	irq = pci_irq_vector(pdev, i);
	if (irq < 0)
		return irq;
	ret = request_threaded_irq(irq, hard, thread, irqflags, vec->name, vec);
	if (ret)
		return ret;
	vec->irq = irq;
	return 0;
}

/*
 * A driver with an irq or irq_hard callback gets the vectors of @fn it
 * asks for (bpfdrv_pci_irq_flags()); MSI and MSI-X only if msi=1 and the
 * function may master the bus (iommu.c). irq runs in each vector's IRQ
 * thread, serialized with the other callbacks by the device mutex;
 * irq_hard in its hard handler. On failure the caller frees what was set
 * up (bpfdrv_pci_irq_free()).
 */
int bpfdrv_pci_irq_setup(struct bpfdrv_device *bdev, struct bpfdrv_pci_fn *fn)
{
	const struct chr_ext_ops *ops = bdev->ops;
	struct pci_dev *pdev = fn->pdev;
	int nvec, ret, flags;
	u32 i, min, max;

	if (!ops->irq && !ops->irq_hard)
		return 0;
	flags = bpfdrv_pci_irq_flags(bdev, fn, &min, &max);
	if (flags <= 0 || !max)
		return min(flags, 0);
	nvec = pci_alloc_irq_vectors(pdev, max_t(u32, min, 1), max, flags);
	if (nvec < 0 && !min)
		return 0;
	if (nvec < 0)
		return bpfdrv_refuse_err(nvec,
					 "%s: cannot get %u to %u interrupt vectors (error %d): its function has %d MSI-X, %d MSI",
					 bdev->pub.name, min, max, nvec,
					 max(pci_msix_vec_count(pdev), 0),
					 max(pci_msi_vec_count(pdev), 0));
	fn->irq_vectors = true;
	fn->vecs = kcalloc(nvec, sizeof(*fn->vecs), GFP_KERNEL);
	if (!fn->vecs)
		return -ENOMEM;
	fn->nvecs = nvec;
	WRITE_ONCE(bdev->irq_vectors, nvec);
	/* before a vector fires: bpfdrv_hard_call_current() looks so far */
	WRITE_ONCE(bdev->hard_slots, nvec);
	for (i = 0; i < fn->nvecs; i++) {
		ret = bpfdrv_pci_irq_request(bdev, fn, i);
		if (ret)
			return ret;
	}
	return pdev->msi_enabled || pdev->msix_enabled ?
	       bpfdrv_pci_set_master(fn) : 0;
}

/* init succeeded: a shared INTx line may reach the driver from now on. */
void bpfdrv_pci_irq_live(struct bpfdrv_device *bdev)
{
	if (bdev->active_fn && bdev->active_fn->intx_masked)
		bpfdrv_pci_intx_unmask(bdev->active_fn);
}

/* Free the interrupts; waits for running irq callbacks. */
void bpfdrv_pci_irq_free(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	u32 i;

	for (i = 0; i < fn->nvecs; i++) {
		if (fn->vecs[i].irq)
			free_irq(fn->vecs[i].irq, &fn->vecs[i]);
	}
	WRITE_ONCE(bdev->hard_slots, 0);
	kfree(fn->vecs);
	fn->vecs = NULL;
	fn->nvecs = 0;
	if (fn->irq_vectors) {
		pci_free_irq_vectors(fn->pdev);
		fn->irq_vectors = false;
	}
	fn->intx_masked = false;
	fn->irq_stopped = false;
}
