// SPDX-License-Identifier: GPL-2.0
/*
 * edu_ref: a plain C driver for QEMU's edu device with the user interface of
 * include/bpfdrv_edu.h, written the ordinary way (misc device per function,
 * hard interrupt handler, wait queue). It is the reference the BPF driver
 * (bpf-drivers/edu.bpf.c) is tested and benchmarked against.
 *
 * Like bpfdrv it has no ID table: a function is handed to it with
 * driver_override. Nodes are /dev/edu_ref<N>. Being a test reference, it
 * does not handle unbinding while its files are open.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "../../include/bpfdrv_edu.h"

#define EDU_FACT_MAX	12
#define DMA_IN		0
#define DMA_OUT		EDU_DMA_SIZE
#define ORPHAN		((struct file *)-1L)

static DEFINE_IDA(edu_ref_ida);

struct edu_ref {
	struct pci_dev *pdev;
	void __iomem *regs;
	struct miscdevice misc;
	char name[16];
	int index;
	struct mutex regs_lock;		/* register ioctls: write, then read back */
	wait_queue_head_t wq;		/* its lock guards the fields below */
	struct file *fact_owner;	/* NULL: free */
	struct file *dma_owner;
	bool fact_done, dma_done;
	u32 fact_result;
	u32 id;
	void *dma_cpu;
	dma_addr_t dma_addr;
};

struct edu_ref_file {
	struct edu_ref *edu;
	u32 mode;
	bool dma_running;
};

static irqreturn_t edu_ref_irq(int irq, void *data)
{
	struct edu_ref *edu = data;
	u32 status = readl(edu->regs + EDU_REG_IRQ_STATUS);

	if (!status)
		return IRQ_NONE;
	writel(status, edu->regs + EDU_REG_IRQ_ACK);
	spin_lock(&edu->wq.lock);
	if (status & EDU_IRQ_FACT) {
		if (edu->fact_owner == ORPHAN) {
			edu->fact_owner = NULL;
		} else {
			edu->fact_result = readl(edu->regs + EDU_REG_FACT);
			edu->fact_done = true;
		}
	}
	if (status & EDU_IRQ_DMA) {
		if (edu->dma_owner == ORPHAN)
			edu->dma_owner = NULL;
		else
			edu->dma_done = true;
	}
	wake_up_all_locked(&edu->wq);
	spin_unlock(&edu->wq.lock);
	return IRQ_HANDLED;
}

/* Ownership fields change under wq.lock, so the handler sees them whole. */
static bool edu_ref_claim(struct edu_ref *edu, struct file **owner,
			  struct file *me)
{
	bool ok;

	spin_lock_irq(&edu->wq.lock);
	ok = !*owner;
	if (ok)
		*owner = me;
	spin_unlock_irq(&edu->wq.lock);
	return ok;
}

static void edu_ref_free(struct edu_ref *edu, struct file **owner, bool *done)
{
	spin_lock_irq(&edu->wq.lock);
	*owner = NULL;
	*done = false;
	wake_up_all_locked(&edu->wq);
	spin_unlock_irq(&edu->wq.lock);
}

static int edu_ref_open(struct inode *inode, struct file *filp)
{
	struct edu_ref *edu = container_of(filp->private_data, struct edu_ref, misc);
	struct edu_ref_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->edu = edu;
	filp->private_data = f;
	return stream_open(inode, filp);
}

static int edu_ref_release(struct inode *inode, struct file *filp)
{
	struct edu_ref_file *f = filp->private_data;
	struct edu_ref *edu = f->edu;

	spin_lock_irq(&edu->wq.lock);
	if (edu->fact_owner == filp) {
		edu->fact_owner = edu->fact_done ? NULL : ORPHAN;
		edu->fact_done = false;
	}
	if (edu->dma_owner == filp) {
		edu->dma_owner = edu->dma_done ? NULL : ORPHAN;
		edu->dma_done = false;
	}
	wake_up_all_locked(&edu->wq);
	spin_unlock_irq(&edu->wq.lock);
	kfree(f);
	return 0;
}

static int edu_ref_wait(struct edu_ref *edu, struct file *filp, bool *cond)
{
	if (filp->f_flags & O_NONBLOCK)
		return READ_ONCE(*cond) ? 0 : -EAGAIN;
	return wait_event_interruptible(edu->wq, READ_ONCE(*cond));
}

static void edu_ref_dma_start(struct edu_ref *edu, u64 src, u64 dst, u32 len,
			      u32 cmd)
{
	writeq(src, edu->regs + EDU_REG_DMA_SRC);
	writeq(dst, edu->regs + EDU_REG_DMA_DST);
	writeq(len, edu->regs + EDU_REG_DMA_COUNT);
	writeq(cmd | EDU_DMA_START | EDU_DMA_IRQ, edu->regs + EDU_REG_DMA_CMD);
}

/* One DMA transfer of @len bytes, waited for. */
static ssize_t edu_ref_dma(struct edu_ref *edu, struct file *filp,
			   char __user *ubuf, size_t len, bool to_device)
{
	ssize_t ret;

	if (filp->f_flags & O_NONBLOCK)
		return -EINVAL;
	len = min_t(size_t, len, EDU_DMA_SIZE);
	if (wait_event_interruptible(edu->wq,
				     edu_ref_claim(edu, &edu->dma_owner, filp)))
		return -ERESTARTSYS;
	if (to_device) {
		if (copy_from_user(edu->dma_cpu + DMA_IN, ubuf, len)) {
			edu_ref_free(edu, &edu->dma_owner, &edu->dma_done);
			return -EFAULT;
		}
		edu_ref_dma_start(edu, edu->dma_addr + DMA_IN, EDU_DMA_DEV_ADDR,
				  len, 0);
	} else {
		edu_ref_dma_start(edu, EDU_DMA_DEV_ADDR, edu->dma_addr + DMA_OUT,
				  len, EDU_DMA_TO_RAM);
	}
	/* uninterruptible: the device writes our buffer until it is done */
	wait_event(edu->wq, READ_ONCE(edu->dma_done));
	ret = len;
	if (!to_device && copy_to_user(ubuf, edu->dma_cpu + DMA_OUT, len))
		ret = -EFAULT;
	edu_ref_free(edu, &edu->dma_owner, &edu->dma_done);
	return ret;
}

static ssize_t edu_ref_write(struct file *filp, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct edu_ref_file *f = filp->private_data;
	struct edu_ref *edu = f->edu;
	char buf[5] = {};
	unsigned int n;

	if (f->mode == EDU_MODE_DMA)
		return edu_ref_dma(edu, filp, (char __user *)ubuf, count, true);
	if (!count || count > 4 || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	if (kstrtouint(buf, 10, &n) || n > EDU_FACT_MAX || buf[0] == '+' ||
	    buf[0] == '\n')
		return -EINVAL;
	if (READ_ONCE(edu->fact_owner) == filp)
		return -EBUSY;
	if (!edu_ref_claim(edu, &edu->fact_owner, filp)) {
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(edu->wq,
					     edu_ref_claim(edu, &edu->fact_owner, filp)))
			return -ERESTARTSYS;
	}
	edu->fact_done = false;
	writel(EDU_STATUS_IRQ_FACT, edu->regs + EDU_REG_STATUS);
	writel(n, edu->regs + EDU_REG_FACT);
	return count;
}

static ssize_t edu_ref_read(struct file *filp, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	struct edu_ref_file *f = filp->private_data;
	struct edu_ref *edu = f->edu;
	char out[16];
	int len, ret;

	if (f->mode == EDU_MODE_DMA)
		return edu_ref_dma(edu, filp, ubuf, count, false);
	if (READ_ONCE(edu->fact_owner) != filp)
		return 0;
	ret = edu_ref_wait(edu, filp, &edu->fact_done);
	if (ret)
		return ret;
	len = scnprintf(out, sizeof(out), "%u\n", edu->fact_result);
	if (count < len)
		return -EINVAL;
	if (copy_to_user(ubuf, out, len))
		return -EFAULT;
	edu_ref_free(edu, &edu->fact_owner, &edu->fact_done);
	return len;
}

static long edu_ref_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct edu_ref_file *f = filp->private_data;
	struct edu_ref *edu = f->edu;
	void __user *uarg = (void __user *)arg;
	struct edu_info info = {};
	struct edu_reg reg;
	u32 v;

	switch (cmd) {
	case EDU_IOC_INFO:
		info.id = edu->id;
		info.index = edu->index;
		info.dma_addr = edu->dma_addr;
		info.bar_len = pci_resource_len(edu->pdev, 0);
		return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
	case EDU_IOC_LIVENESS:
		if (get_user(v, (u32 __user *)uarg))
			return -EFAULT;
		mutex_lock(&edu->regs_lock);
		writel(v, edu->regs + EDU_REG_LIVENESS);
		v = readl(edu->regs + EDU_REG_LIVENESS);
		mutex_unlock(&edu->regs_lock);
		return put_user(v, (u32 __user *)uarg);
	case EDU_IOC_REG_READ:
	case EDU_IOC_REG_WRITE:
		if (copy_from_user(&reg, uarg, sizeof(reg)))
			return -EFAULT;
		if (reg.size != 4 && reg.size != 8)
			return -EINVAL;
		if (reg.off % reg.size ||
		    reg.off + reg.size > pci_resource_len(edu->pdev, 0))
			return -ERANGE;
		if (cmd == EDU_IOC_REG_WRITE) {
			if (reg.off >= EDU_REG_DMA_SRC && reg.off < EDU_REG_DMA_CMD + 8)
				return -EPERM;
			if (reg.size == 4)
				writel(reg.val, edu->regs + reg.off);
			else
				writeq(reg.val, edu->regs + reg.off);
			return 0;
		}
		reg.val = reg.size == 4 ? readl(edu->regs + reg.off) :
					  readq(edu->regs + reg.off);
		return copy_to_user(uarg, &reg, sizeof(reg)) ? -EFAULT : 0;
	case EDU_IOC_SET_MODE:
		if (get_user(v, (u32 __user *)uarg))
			return -EFAULT;
		if (v > EDU_MODE_DMA)
			return -EINVAL;
		if (READ_ONCE(edu->fact_owner) == filp)
			return -EBUSY;
		f->mode = v;
		return 0;
	}
	return -ENOTTY;
}

static __poll_t edu_ref_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct edu_ref_file *f = filp->private_data;
	struct edu_ref *edu = f->edu;
	__poll_t mask = 0;

	poll_wait(filp, &edu->wq, wait);
	if (READ_ONCE(edu->fact_owner) == filp && READ_ONCE(edu->fact_done))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (!READ_ONCE(edu->fact_owner))
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static const struct file_operations edu_ref_fops = {
	.owner = THIS_MODULE,
	.open = edu_ref_open,
	.release = edu_ref_release,
	.read = edu_ref_read,
	.write = edu_ref_write,
	.unlocked_ioctl = edu_ref_ioctl,
	.poll = edu_ref_poll,
};

static int edu_ref_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct edu_ref *edu;
	int ret;

	edu = devm_kzalloc(&pdev->dev, sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	edu->pdev = pdev;
	mutex_init(&edu->regs_lock);
	init_waitqueue_head(&edu->wq);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	edu->regs = pcim_iomap(pdev, 0, 0);
	if (!edu->regs)
		return -ENOMEM;
	edu->id = readl(edu->regs + EDU_REG_ID);
	if ((edu->id & 0xff) != EDU_ID_MAGIC)
		return -ENODEV;
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(EDU_DMA_MASK_BITS));
	if (ret)
		return ret;
	edu->dma_cpu = dmam_alloc_coherent(&pdev->dev, 2 * EDU_DMA_SIZE,
					   &edu->dma_addr, GFP_KERNEL);
	if (!edu->dma_cpu)
		return -ENOMEM;
	pci_set_master(pdev);

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI | PCI_IRQ_INTX);
	if (ret < 0)
		return ret;
	ret = request_irq(pci_irq_vector(pdev, 0), edu_ref_irq,
			  pdev->msi_enabled ? 0 : IRQF_SHARED, KBUILD_MODNAME, edu);
	if (ret)
		goto err_vectors;

	edu->index = ida_alloc(&edu_ref_ida, GFP_KERNEL);
	if (edu->index < 0) {
		ret = edu->index;
		goto err_irq;
	}
	snprintf(edu->name, sizeof(edu->name), "edu_ref%d", edu->index);
	edu->misc.minor = MISC_DYNAMIC_MINOR;
	edu->misc.name = edu->name;
	edu->misc.fops = &edu_ref_fops;
	edu->misc.mode = 0600;
	ret = misc_register(&edu->misc);
	if (ret)
		goto err_ida;
	pci_set_drvdata(pdev, edu);
	return 0;

err_ida:
	ida_free(&edu_ref_ida, edu->index);
err_irq:
	free_irq(pci_irq_vector(pdev, 0), edu);
err_vectors:
	pci_free_irq_vectors(pdev);
	return ret;
}

static void edu_ref_remove(struct pci_dev *pdev)
{
	struct edu_ref *edu = pci_get_drvdata(pdev);

	misc_deregister(&edu->misc);
	writel(0, edu->regs + EDU_REG_STATUS);
	free_irq(pci_irq_vector(pdev, 0), edu);
	pci_free_irq_vectors(pdev);
	pci_clear_master(pdev);
	ida_free(&edu_ref_ida, edu->index);
}

static struct pci_driver edu_ref_driver = {
	.name = KBUILD_MODNAME,
	.id_table = NULL,	/* driver_override only */
	.probe = edu_ref_probe,
	.remove = edu_ref_remove,
};
module_pci_driver(edu_ref_driver);

MODULE_DESCRIPTION("Reference C driver for QEMU's edu device (bpfdrv selftests)");
MODULE_LICENSE("GPL");
