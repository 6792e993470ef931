// SPDX-License-Identifier: GPL-2.0
/*
 * Power management of the PCI functions bound to bpfdrv (ABI 13): the
 * dev_pm_ops of its pci_driver, for system sleep and for runtime PM.
 *
 * The PCI core saves and restores the config space and moves the
 * function between power states; a function without an instance, or an
 * instance whose driver has no suspend or resume, needs nothing more.
 * The driver's suspend and resume run through the call primitive with the
 * instance's calls held off (bpfdrv_call_hold(), as a reset does): no
 * other callback runs beside them. irq_hard is not called between a
 * suspend and its resume (fn->pm_off, then an RCU grace period).
 *
 * System sleep: suspend(BPFDRV_PM_SYSTEM) ... resume(BPFDRV_PM_SYSTEM).
 * Without DPM_FLAG_SMART_SUSPEND the PCI core resumes a runtime-suspended
 * function first, so the driver's system suspend always finds its device
 * active, and calls between the two wait (BPFDRV_PM_F_ASLEEP; the
 * processes are frozen then, kernel threads are not). A failed system
 * suspend aborts the sleep.
 *
 * Runtime PM, for instances whose driver sets pm_autosuspend_ms: from the
 * instance's start (init succeeded) every call holds a runtime PM
 * reference (call.h), so the function suspends once no call has run for
 * that long, and the next call resumes it first. A BAR mapping keeps it
 * active (a process may be driving the device through it). -EBUSY from
 * the driver's suspend is tried again after the delay; another error is
 * reported and the function stays active until the next call. The
 * teardown resumes the function before the driver's exit, and gives the
 * PCI core its reference back.
 *
 * A resume that fails leaves a device the driver cannot vouch for: its
 * calls fail with EIO and the driver is ejected; the function is usable
 * by the next driver.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/rcupdate.h>
#include <linux/wait_bit.h>

#include "call.h"
#include "driver.h"
#include "eject.h"
#include "pci.h"

/* A day: a longer delay is a driver's bug (and the PM core takes an int). */
#define BPFDRV_PM_AUTOSUSPEND_MAX_MS	(24U * 3600 * 1000)

static const char *bpfdrv_pm_how(u32 how)
{
	return how == BPFDRV_PM_RUNTIME ? "runtime" : "system";
}

static int bpfdrv_pci_pm_suspend(struct device *dev, u32 how)
{
	struct bpfdrv_pci_fn *fn = dev_get_drvdata(dev);
	struct bpfdrv_device *bdev;
	int ret = 0;

	bdev = bpfdrv_pci_fn_instance(fn);
	if (!bdev)
		return 0;
	if (how == BPFDRV_PM_RUNTIME &&
	    (!READ_ONCE(fn->pm_runtime) || atomic_read(&bdev->pm_maps))) {
		ret = -EBUSY;	/* a BAR mapping's close asks again */
		goto out;
	}
	bpfdrv_call_hold(bdev);
	if (bpfdrv_live(bdev) && bdev->active_fn == fn)
		ret = bpfdrv_call(bdev, BPFDRV_CALL_HELD, BPFDRV_CB_SUSPEND,
				  suspend, 0, 0, how);
	if (!ret) {
		WRITE_ONCE(fn->pm_off, true);
		if (how == BPFDRV_PM_SYSTEM)
			set_bit(BPFDRV_PM_F_ASLEEP, &bdev->pm_flags);
	}
	bpfdrv_call_resume(bdev);
	if (!ret) {
		/* an irq_hard that did not see pm_off ends first */
		synchronize_rcu();
		fn->pm_bdev = bdev;	/* with its reference, to resume */
		return 0;
	}
	if (how == BPFDRV_PM_RUNTIME && ret == -EBUSY) {
		/* not an error: the PM core tries again after the delay */
		pm_runtime_mark_last_busy(dev);
	} else if (how == BPFDRV_PM_RUNTIME) {
		dev_warn_ratelimited(&bdev->dev,
				     "runtime suspend failed: %d; the device stays active\n",
				     ret);
		/* not the PM core's error state, which would refuse resumes */
		ret = -EAGAIN;
	} else {
		dev_warn(&bdev->dev, "suspend failed: %d\n", ret);
	}
out:
	put_device(&bdev->dev);
	return ret;
}

static int bpfdrv_pci_pm_resume(struct device *dev, u32 how)
{
	struct bpfdrv_pci_fn *fn = dev_get_drvdata(dev);
	struct bpfdrv_device *bdev = fn->pm_bdev;
	char msg[BPFDRV_EXIT_MSG_MAX];
	int ret = 0;

	fn->pm_bdev = NULL;
	/* resume may start what interrupts */
	WRITE_ONCE(fn->pm_off, false);
	if (!bdev)
		return 0;
	bpfdrv_call_hold(bdev);
	if (bpfdrv_live(bdev) && bdev->active_fn == fn)
		ret = bpfdrv_call(bdev, BPFDRV_CALL_HELD, BPFDRV_CB_RESUME,
				  resume, 0, 0, how);
	if (ret) {
		set_bit(BPFDRV_PM_F_BROKEN, &bdev->pm_flags);
		snprintf(msg, sizeof(msg), "%s resume failed: %d",
			 bpfdrv_pm_how(how), ret);
		dev_warn(&bdev->dev, "%s; ejecting the driver\n", msg);
		bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_PROTOCOL,
				    BPFDRV_CB_RESUME, msg);
	}
	clear_bit(BPFDRV_PM_F_ASLEEP, &bdev->pm_flags);
	bpfdrv_call_resume(bdev);
	wake_up_var(&bdev->pm_flags);
	put_device(&bdev->dev);
	/* the function itself is up: the PM core keeps no error state */
	return 0;
}

static int bpfdrv_pci_system_suspend(struct device *dev)
{
	return bpfdrv_pci_pm_suspend(dev, BPFDRV_PM_SYSTEM);
}

static int bpfdrv_pci_system_resume(struct device *dev)
{
	return bpfdrv_pci_pm_resume(dev, BPFDRV_PM_SYSTEM);
}

static int bpfdrv_pci_runtime_suspend(struct device *dev)
{
	return bpfdrv_pci_pm_suspend(dev, BPFDRV_PM_RUNTIME);
}

static int bpfdrv_pci_runtime_resume(struct device *dev)
{
	return bpfdrv_pci_pm_resume(dev, BPFDRV_PM_RUNTIME);
}

/* Only an instance with runtime PM lets its function suspend. */
static int bpfdrv_pci_runtime_idle(struct device *dev)
{
	struct bpfdrv_pci_fn *fn = dev_get_drvdata(dev);

	if (!fn || !READ_ONCE(fn->pm_runtime))
		return -EBUSY;
	pm_runtime_mark_last_busy(dev);
	return 0;
}

const struct dev_pm_ops bpfdrv_pci_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(bpfdrv_pci_system_suspend, bpfdrv_pci_system_resume)
	RUNTIME_PM_OPS(bpfdrv_pci_runtime_suspend, bpfdrv_pci_runtime_resume,
		       bpfdrv_pci_runtime_idle)
};

/*
 * The instance's init succeeded: if its driver asks for runtime PM, calls
 * hold references from now on (call.h), and the reference the PCI core
 * took for the probe (local_pci_probe()) is dropped, so the function
 * suspends once idle for pm_autosuspend_ms. PCI functions start with
 * runtime PM forbidden (power/control "on"): the driver's declaration
 * allows it, and the teardown forbids it again.
 */
void bpfdrv_pci_pm_live(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	u32 ms = bdev->ops->pm_autosuspend_ms;
	struct device *dev;

	WRITE_ONCE(fn->pm_off, false);
	if (!ms)
		return;
	dev = &fn->pdev->dev;
	bdev->pm_dev = dev;
	pm_runtime_set_autosuspend_delay(dev, ms);
	pm_runtime_use_autosuspend(dev);
	set_bit(BPFDRV_PM_F_RUNTIME, &bdev->pm_flags);
	WRITE_ONCE(fn->pm_runtime, true);
	fn->pm_allowed = !dev->power.runtime_auto;
	pm_runtime_allow(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
}

/*
 * The teardown, while the instance is still live (before the node goes):
 * resume the function, with the driver's resume, so that its exit finds
 * the device active, and take the probe's reference back. A call that
 * holds a reference still drops it when it ends.
 */
void bpfdrv_pci_pm_stop(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	struct device *dev;

	if (!fn || !READ_ONCE(fn->pm_runtime))
		return;
	dev = &fn->pdev->dev;
	pm_runtime_get_sync(dev);	/* kept even if it fails */
	WRITE_ONCE(fn->pm_runtime, false);
	clear_bit(BPFDRV_PM_F_RUNTIME, &bdev->pm_flags);
	if (fn->pm_allowed)
		pm_runtime_forbid(dev);
	pm_runtime_dont_use_autosuspend(dev);
}

/*
 * A BAR mapping comes or goes (mmap.c): while one exists, the function
 * does not runtime-suspend; the last one going lets it.
 */
void bpfdrv_pci_pm_map(struct bpfdrv_device *bdev, bool add)
{
	struct bpfdrv_pin pin;

	if (add) {
		atomic_inc(&bdev->pm_maps);
		return;
	}
	if (!atomic_dec_and_test(&bdev->pm_maps))
		return;
	/* the teardown clears RUNTIME while live, then drains the pins */
	pin = bpfdrv_pin(bdev);
	if (bpfdrv_live(bdev) && test_bit(BPFDRV_PM_F_RUNTIME, &bdev->pm_flags)) {
		pm_runtime_mark_last_busy(bdev->pm_dev);
		pm_request_autosuspend(bdev->pm_dev);
	}
	bpfdrv_unpin(bdev, pin);
}

/*
 * A fault on a BAR window (mmap.c): 0, or -EIO if the function's resume
 * failed. It never resumes: the fault holds the process's mmap lock,
 * which a sleepable callback under the instance's mutex may take (a copy
 * from user memory), and a resume takes that mutex (lockdep saw the
 * cycle). So no driver with a BAR window gets runtime PM (refused at
 * load), and its function is active whenever a fault comes.
 */
int bpfdrv_pci_pm_fault(struct bpfdrv_device *bdev)
{
	return test_bit(BPFDRV_PM_F_BROKEN, &bdev->pm_flags) ? -EIO : 0;
}

/* At load: what power management a driver may declare. */
int bpfdrv_pci_pm_valid(const struct chr_ext_ops *ops)
{
	int i;

	if ((ops->suspend || ops->resume || ops->pm_autosuspend_ms) &&
	    !bpfdrv_driver_is_pci(ops)) {
		pr_info("%s: suspend, resume and pm_autosuspend_ms need a PCI driver (pci_ids or pci_slot)\n",
			ops->name);
		return -EINVAL;
	}
	if (!ops->pm_autosuspend_ms)
		return 0;
	if (ops->pm_autosuspend_ms > BPFDRV_PM_AUTOSUSPEND_MAX_MS) {
		pr_info("%s: pm_autosuspend_ms %u is more than a day (%u)\n",
			ops->name, ops->pm_autosuspend_ms,
			BPFDRV_PM_AUTOSUSPEND_MAX_MS);
		return -EINVAL;
	}
	for (i = 0; i < BPFDRV_MAX_MMAPS && ops->mmaps[i].prot; i++) {
		if (ops->mmaps[i].region >= PCI_STD_NUM_BARS)
			continue;
		pr_info("%s: pm_autosuspend_ms: runtime PM is not offered to drivers with BAR mmap windows (a fault cannot resume the function under the mmap lock)\n",
			ops->name);
		return -EINVAL;
	}
	/* they run without the mutex and cannot wait for a resume */
	if (ops->accel_run_job || ops->accel_timeout || ops->accel_vm_map ||
	    ops->accel_vm_unmap) {
		pr_info("%s: pm_autosuspend_ms: runtime PM is not offered to drivers with callbacks on the dma-fence path\n",
			ops->name);
		return -EINVAL;
	}
	return 0;
}
