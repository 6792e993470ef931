// SPDX-License-Identifier: GPL-2.0
/*
 * Character devices of attached drivers and the file operations that call
 * into BPF.
 *
 * Every callback runs inside an SRCU read section of its device's srcu
 * after checking that the device is not dead; detach marks it dead, wakes
 * all sleepers and waits for that device's grace period, so no callback runs
 * once unreg returns, and no device waits for another's callbacks. Sleeping
 * for data (blocking read/write) happens outside the read section and
 * without the file's buffer lock, so a blocked reader never delays a detach
 * or another call on the same file.
 *
 * User memory is copied to and from a per-file kernel buffer outside the
 * SRCU section; BPF reaches that buffer only through bounds-checked kfuncs.
 *
 * A device's callbacks run one at a time under its mutex, so drivers keep
 * their state in maps without locks of their own. File calls take it
 * killably: a process queued behind a callback that sleeps can be killed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>

#include "bpfdrv.h"

#define BPFDRV_MINORS		256
#define BPFDRV_DEFAULT_MODE	0600

static dev_t bpfdrv_devt;
static DEFINE_IDA(bpfdrv_minor_ida);
/* Guards the lists below and every instance's creation and destruction. */
static DEFINE_MUTEX(bpfdrv_lock);
static LIST_HEAD(bpfdrv_devices);	/* every instance, by name */
static LIST_HEAD(bpfdrv_drivers);	/* attached drivers */
static LIST_HEAD(bpfdrv_pci_fns);	/* PCI functions bound to bpfdrv */
static atomic64_t bpfdrv_file_ids = ATOMIC64_INIT(0);

static char *bpfdrv_devnode(const struct device *dev, umode_t *mode)
{
	const struct bpfdrv_device *bdev =
		container_of(dev, struct bpfdrv_device, dev);

	if (mode)
		*mode = bdev->mode;
	return kasprintf(GFP_KERNEL, "bpfdrv/%s", dev_name(dev));
}

static const struct attribute_group *bpfdrv_groups[];

static const struct class bpfdrv_class = {
	.name = "bpfdrv",
	.devnode = bpfdrv_devnode,
	.dev_groups = bpfdrv_groups,
};

bool bpfdrv_name_valid(const char *name)
{
	size_t i, len = strnlen(name, BPFDRV_NAME_MAX);

	if (len == 0 || len == BPFDRV_NAME_MAX || !isalnum(name[0]))
		return false;
	for (i = 1; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

static void bpfdrv_count(struct bpfdrv_device *bdev, enum bpfdrv_cb op)
{
	this_cpu_inc(bdev->stats->calls[op]);
}

static noinline __cold int bpfdrv_bad_ret(struct bpfdrv_device *bdev,
					  enum bpfdrv_cb cb, int ret, u32 max)
{
	char msg[BPFDRV_EXIT_MSG_MAX];

	this_cpu_inc(bdev->stats->bad_returns);
	dev_warn_ratelimited(&bdev->dev, "driver returned %d (at most %u allowed)\n",
			     ret, max);
	/* a burst is a broken driver, not a slip: eject it */
	if (time_after(jiffies, READ_ONCE(bdev->bad_since) + HZ)) {
		WRITE_ONCE(bdev->bad_since, jiffies);
		atomic_set(&bdev->bad_burst, 0);
	}
	if (atomic_inc_return(&bdev->bad_burst) == BPFDRV_BAD_RET_BURST) {
		snprintf(msg, sizeof(msg),
			 "%s returned %d (at most %u allowed), %d bad returns within a second",
			 bpfdrv_cb_names[cb], ret, max, BPFDRV_BAD_RET_BURST);
		bpfdrv_driver_eject(bdev->drv, BPFDRV_EXIT_PROTOCOL, cb, msg);
	}
	return -EIO;
}

/*
 * A callback's return value as the syscall's: at most @max bytes, or an
 * ordinary errno. Anything else is the driver's bug, reported as EIO.
 * Inline: it runs on every call, the report rarely.
 */
static __always_inline int bpfdrv_check_ret(struct bpfdrv_device *bdev,
					    enum bpfdrv_cb cb, int ret, u32 max)
{
	if (likely((ret >= 0 && ret <= max) || (ret < 0 && ret > -ERESTARTSYS)))
		return ret;
	return bpfdrv_bad_ret(bdev, cb, ret, max);
}

static int bpfdrv_open(struct inode *inode, struct file *filp)
{
	struct bpfdrv_device *bdev =
		container_of(inode->i_cdev, struct bpfdrv_device, cdev);
	struct bpfdrv_file_kern *f;
	int ret = 0, idx;
	bool seekable;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->pub.id = atomic64_inc_return(&bpfdrv_file_ids);
	f->pub.f_flags = filp->f_flags;
	f->pub.uid = from_kuid(&init_user_ns, current_fsuid());
	f->bdev = bdev;
	mutex_init(&f->io_lock);

	idx = srcu_read_lock(&bdev->srcu);
	if (READ_ONCE(bdev->dead)) {
		ret = -ENODEV;
		goto out_unlock;
	}
	/* the ops may be freed once we leave the read section */
	seekable = bdev->ops->flags & BPFDRV_F_SEEKABLE;
	if (atomic_inc_return(&bdev->open_count) > 1 &&
	    (bdev->ops->flags & BPFDRV_F_EXCLUSIVE)) {
		ret = -EBUSY;
		goto out_dec;
	}
	if (bdev->ops->open) {
		bpfdrv_count(bdev, BPFDRV_CB_OPEN);
		ret = mutex_lock_killable(&bdev->lock);
		if (!ret) {
			bdev->cb = BPFDRV_CB_OPEN;
			ret = bdev->ops->open(&bdev->pub, &f->pub);
			mutex_unlock(&bdev->lock);
			ret = bpfdrv_check_ret(bdev, BPFDRV_CB_OPEN, ret, 0);
		}
		if (ret)
			goto out_dec;
	}
	srcu_read_unlock(&bdev->srcu, idx);

	get_device(&bdev->dev);
	filp->private_data = f;
	if (seekable)
		return 0;
	return stream_open(inode, filp);

out_dec:
	atomic_dec(&bdev->open_count);
out_unlock:
	srcu_read_unlock(&bdev->srcu, idx);
	kfree(f);
	return ret;
}

static int bpfdrv_release(struct inode *inode, struct file *filp)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	struct bpfdrv_device *bdev = f->bdev;
	int idx;

	idx = srcu_read_lock(&bdev->srcu);
	if (!READ_ONCE(bdev->dead) && bdev->ops->release) {
		bpfdrv_count(bdev, BPFDRV_CB_RELEASE);
		/* not killable: a killed process's close must reach the driver */
		mutex_lock(&bdev->lock);
		bdev->cb = BPFDRV_CB_RELEASE;
		bdev->ops->release(&bdev->pub, &f->pub);
		mutex_unlock(&bdev->lock);
	}
	srcu_read_unlock(&bdev->srcu, idx);
	atomic_dec(&bdev->open_count);

	kfree(f->buf);
	kfree(f);
	put_device(&bdev->dev);
	return 0;
}

enum bpfdrv_rw { BPFDRV_READ, BPFDRV_WRITE };

/*
 * Calls that move at most this many bytes use a buffer on the kernel stack:
 * no per-file lock, no allocation. Most reads, writes and ioctls of control
 * devices are this small.
 */
#define BPFDRV_IO_SMALL		64

/*
 * One call of read or write with @buf holding @len bytes (the data, for
 * write); @buf is the caller's stack buffer or f->buf under f->io_lock.
 * Returns the checked result, or -EAGAIN as the driver gave it. Inline: a
 * call and return per syscall are measurable.
 */
static __always_inline ssize_t bpfdrv_rw_once(struct file *filp,
					      struct bpfdrv_file_kern *f,
					      enum bpfdrv_rw rw, u8 *buf,
					      u32 len, loff_t *ppos)
{
	struct bpfdrv_device *bdev = f->bdev;
	struct bpfdrv_io_kern io = { .data = buf, .size = len };
	int ret, idx;

	io.pub.pos = ppos ? *ppos : 0;	/* NULL for streams */
	io.pub.len = len;
	io.pub.nonblock = !!(filp->f_flags & O_NONBLOCK);
	f->pub.f_flags = filp->f_flags;

	idx = srcu_read_lock(&bdev->srcu);
	if (READ_ONCE(bdev->dead)) {
		ret = -ENODEV;
	} else if (rw == BPFDRV_READ) {
		bpfdrv_count(bdev, BPFDRV_CB_READ);
		ret = -EINVAL;
		if (bdev->ops->read)
			ret = mutex_lock_killable(&bdev->lock);
		if (!ret) {
			bdev->cb = BPFDRV_CB_READ;
			ret = bdev->ops->read(&bdev->pub, &f->pub, &io.pub);
			mutex_unlock(&bdev->lock);
		}
	} else {
		bpfdrv_count(bdev, BPFDRV_CB_WRITE);
		ret = -EINVAL;
		if (bdev->ops->write)
			ret = mutex_lock_killable(&bdev->lock);
		if (!ret) {
			bdev->cb = BPFDRV_CB_WRITE;
			ret = bdev->ops->write(&bdev->pub, &f->pub, &io.pub);
			mutex_unlock(&bdev->lock);
		}
	}
	srcu_read_unlock(&bdev->srcu, idx);
	if (ret == -EAGAIN)
		return ret;
	return bpfdrv_check_ret(bdev, rw == BPFDRV_READ ? BPFDRV_CB_READ :
				BPFDRV_CB_WRITE, ret, len);
}

/*
 * After a call that asked to wait (-EAGAIN, blocking file): sleep until the
 * driver's next bpfdrv_dev_wake() after @seq, or detach, and say to retry.
 * The caller holds no lock here, so other calls on the same file (a writer
 * that would wake this reader) go ahead.
 */
static __always_inline bool bpfdrv_retry(struct file *filp,
					 struct bpfdrv_device *bdev,
					 ssize_t *ret, int seq)
{
	if (likely(*ret != -EAGAIN) || (filp->f_flags & O_NONBLOCK))
		return false;
	if (wait_event_interruptible(bdev->wq,
				     atomic_read(&bdev->wake_seq) != seq ||
				     READ_ONCE(bdev->dead))) {
		*ret = -ERESTARTSYS;
		return false;
	}
	return true;
}

static int bpfdrv_get_buf(struct bpfdrv_file_kern *f)
{
	if (likely(f->buf))
		return 0;
	/* Zeroed: a driver that returns more than it stored leaks nothing. */
	f->buf = kzalloc(BPFDRV_IO_MAX, GFP_KERNEL);
	return f->buf ? 0 : -ENOMEM;
}

/* The buffer of a call that moves @len bytes; f->io_lock held if not @stack. */
static __always_inline u8 *bpfdrv_lock_buf(struct bpfdrv_file_kern *f,
					   u32 len, u8 *stack, long *err)
{
	if (len <= BPFDRV_IO_SMALL)
		return stack;
	if (mutex_lock_interruptible(&f->io_lock)) {
		*err = -ERESTARTSYS;
		return NULL;
	}
	*err = bpfdrv_get_buf(f);
	if (*err) {
		mutex_unlock(&f->io_lock);
		return NULL;
	}
	return f->buf;
}

static void bpfdrv_unlock_buf(struct bpfdrv_file_kern *f, u8 *buf)
{
	if (buf == f->buf)
		mutex_unlock(&f->io_lock);
}

static ssize_t bpfdrv_read(struct file *filp, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	u32 len = min_t(size_t, count, BPFDRV_IO_MAX);
	/* Zeroed: a driver that returns more than it stored leaks nothing. */
	u8 stack[BPFDRV_IO_SMALL] = {};
	ssize_t ret;
	long err;
	u8 *buf;
	int seq;

	if (!count)
		return 0;
	do {
		buf = bpfdrv_lock_buf(f, len, stack, &err);
		if (!buf)
			return err;
		seq = atomic_read(&f->bdev->wake_seq);
		ret = bpfdrv_rw_once(filp, f, BPFDRV_READ, buf, len, ppos);
		if (ret > 0) {
			if (copy_to_user(ubuf, buf, ret))
				ret = -EFAULT;
			else if (ppos)
				*ppos += ret;
		}
		bpfdrv_unlock_buf(f, buf);
	} while (bpfdrv_retry(filp, f->bdev, &ret, seq));
	return ret;
}

static ssize_t bpfdrv_write(struct file *filp, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	u32 len = min_t(size_t, count, BPFDRV_IO_MAX);
	u8 stack[BPFDRV_IO_SMALL];
	ssize_t ret;
	long err;
	u8 *buf;
	int seq;

	if (!count)
		return 0;
	do {
		buf = bpfdrv_lock_buf(f, len, stack, &err);
		if (!buf)
			return err;
		seq = atomic_read(&f->bdev->wake_seq);
		/* again on a retry: the buffer may have served another call */
		if (copy_from_user(buf, ubuf, len))
			ret = -EFAULT;
		else
			ret = bpfdrv_rw_once(filp, f, BPFDRV_WRITE, buf, len, ppos);
		if (ret > 0 && ppos)
			*ppos += ret;
		bpfdrv_unlock_buf(f, buf);
	} while (bpfdrv_retry(filp, f->bdev, &ret, seq));
	return ret;
}

static long bpfdrv_ioctl(struct file *filp, unsigned int cmd,
			 unsigned long arg)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	struct bpfdrv_device *bdev = f->bdev;
	void __user *uarg = (void __user *)arg;
	u32 size = _IOC_SIZE(cmd);
	struct bpfdrv_io_kern io = { .pub.len = size, .size = size };
	/* Zeroed: what the driver gets for a command without _IOC_WRITE. */
	u8 stack[BPFDRV_IO_SMALL] = {};
	long ret;
	int idx;

	if (size > BPFDRV_IO_MAX)
		return -EINVAL;
	io.data = bpfdrv_lock_buf(f, size, stack, &ret);
	if (!io.data)
		return ret;
	io.pub.pos = filp->f_pos;
	io.pub.nonblock = !!(filp->f_flags & O_NONBLOCK);
	if (_IOC_DIR(cmd) & _IOC_WRITE) {
		if (copy_from_user(io.data, uarg, size)) {
			ret = -EFAULT;
			goto out;
		}
	} else if (io.data != stack) {
		memset(io.data, 0, size);
	}

	idx = srcu_read_lock(&bdev->srcu);
	if (READ_ONCE(bdev->dead)) {
		ret = -ENODEV;
	} else if (bdev->ops->ioctl) {
		bpfdrv_count(bdev, BPFDRV_CB_IOCTL);
		ret = mutex_lock_killable(&bdev->lock);
		if (!ret) {
			bdev->cb = BPFDRV_CB_IOCTL;
			ret = bdev->ops->ioctl(&bdev->pub, &f->pub, cmd, &io.pub);
			mutex_unlock(&bdev->lock);
			ret = bpfdrv_check_ret(bdev, BPFDRV_CB_IOCTL, ret, INT_MAX);
		}
	} else {
		ret = -ENOTTY;
	}
	srcu_read_unlock(&bdev->srcu, idx);

	if (ret >= 0 && (_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, io.data, size))
		ret = -EFAULT;
out:
	bpfdrv_unlock_buf(f, io.data);
	return ret;
}

static __poll_t bpfdrv_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	struct bpfdrv_device *bdev = f->bdev;
	__poll_t mask;
	int idx;

	poll_wait(filp, &bdev->wq, wait);

	idx = srcu_read_lock(&bdev->srcu);
	if (READ_ONCE(bdev->dead)) {
		mask = EPOLLERR | EPOLLHUP;
	} else if (bdev->ops->poll) {
		bpfdrv_count(bdev, BPFDRV_CB_POLL);
		mask = 0;	/* killed while the device was busy */
		if (!mutex_lock_killable(&bdev->lock)) {
			bdev->cb = BPFDRV_CB_POLL;
			mask = (__force __poll_t)bdev->ops->poll(&bdev->pub, &f->pub);
			mutex_unlock(&bdev->lock);
		}
		mask &= EPOLLIN | EPOLLRDNORM | EPOLLOUT | EPOLLWRNORM |
			EPOLLPRI | EPOLLERR | EPOLLHUP | EPOLLRDHUP;
	} else {
		mask = EPOLLIN | EPOLLRDNORM | EPOLLOUT | EPOLLWRNORM;
	}
	srcu_read_unlock(&bdev->srcu, idx);
	return mask;
}

static const struct file_operations bpfdrv_fops = {
	.owner = THIS_MODULE,
	.open = bpfdrv_open,
	.release = bpfdrv_release,
	.read = bpfdrv_read,
	.write = bpfdrv_write,
	.unlocked_ioctl = bpfdrv_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = bpfdrv_poll,
	.llseek = no_seek_end_llseek,
};

void bpfdrv_device_wake(struct bpfdrv_device *bdev)
{
	atomic_inc(&bdev->wake_seq);
	wake_up_interruptible_all(&bdev->wq);
}

static void bpfdrv_device_release(struct device *dev)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	if (dev->devt)
		ida_free(&bpfdrv_minor_ida, MINOR(dev->devt));
	cleanup_srcu_struct(&bdev->srcu);
	free_percpu(bdev->stats);
	kfree(bdev);
}

static struct bpfdrv_device *bpfdrv_find(const char *name)
{
	struct bpfdrv_device *bdev;

	lockdep_assert_held(&bpfdrv_lock);
	list_for_each_entry(bdev, &bpfdrv_devices, node)
		if (!strcmp(bdev->pub.name, name))
			return bdev;
	return NULL;
}

static struct bpfdrv_driver *bpfdrv_find_driver(const char *name)
{
	struct bpfdrv_driver *drv;

	lockdep_assert_held(&bpfdrv_lock);
	list_for_each_entry(drv, &bpfdrv_drivers, node)
		if (!strcmp(drv->ops->name, name))
			return drv;
	return NULL;
}

static void bpfdrv_instance_stop(struct bpfdrv_device *bdev);

/*
 * Make one device instance of @drv (on PCI function @fn, or none), run the
 * driver's init, then publish the node. Called with bpfdrv_lock held.
 */
static int bpfdrv_instance_create(struct bpfdrv_driver *drv,
				  struct bpfdrv_pci_fn *fn)
{
	struct chr_ext_ops *ops = drv->ops;
	struct bpfdrv_device *bdev;
	int minor, index, ret;

	lockdep_assert_held(&bpfdrv_lock);
	bdev = kzalloc(sizeof(*bdev), GFP_KERNEL);
	if (!bdev)
		return -ENOMEM;
	bdev->stats = alloc_percpu(struct bpfdrv_stats);
	if (!bdev->stats || init_srcu_struct(&bdev->srcu)) {
		free_percpu(bdev->stats);
		kfree(bdev);
		return -ENOMEM;
	}
	/* at most as many instances as minors: the index has 3 digits */
	index = ida_alloc_max(&drv->index_ida, BPFDRV_MINORS - 1, GFP_KERNEL);
	if (index < 0) {
		cleanup_srcu_struct(&bdev->srcu);
		free_percpu(bdev->stats);
		kfree(bdev);
		return index;
	}
	bdev->pub.index = index;
	if (fn)	/* attach refused names that do not fit */
		snprintf(bdev->pub.name, sizeof(bdev->pub.name), "%.*s%u",
			 BPFDRV_PCI_NAME_MAX, ops->name, index);
	else
		strscpy(bdev->pub.name, ops->name, sizeof(bdev->pub.name));
	bdev->drv = drv;
	bdev->ops = ops;
	bdev->mode = ops->mode ? ops->mode & 0777 : BPFDRV_DEFAULT_MODE;
	bdev->link = drv->link;
	init_waitqueue_head(&bdev->wq);
	mutex_init(&bdev->lock);
	init_completion(&bdev->gone);
	INIT_LIST_HEAD(&bdev->node);

	/* From here the device's release frees everything. */
	device_initialize(&bdev->dev);
	bdev->dev.class = &bpfdrv_class;
	bdev->dev.release = bpfdrv_device_release;
	if (bpfdrv_find(bdev->pub.name)) {
		ret = -EEXIST;
		goto err_put;
	}
	minor = ida_alloc_max(&bpfdrv_minor_ida, BPFDRV_MINORS - 1, GFP_KERNEL);
	if (minor < 0) {
		ret = minor == -ENOSPC ? -EMFILE : minor;
		goto err_put;
	}
	bdev->pub.minor = minor;
	bdev->dev.devt = MKDEV(MAJOR(bpfdrv_devt), minor);
	ret = dev_set_name(&bdev->dev, "%s", bdev->pub.name);
	if (ret)
		goto err_put;
	cdev_init(&bdev->cdev, &bpfdrv_fops);
	bdev->cdev.owner = THIS_MODULE;

	if (fn) {
		ret = bpfdrv_pci_instance_setup(bdev, fn);
		if (ret)
			goto err_put;
	}
	ret = bpfdrv_gpio_claim(bdev);
	if (ret)
		goto err_pci;

	mutex_lock(&bdev->lock);
	if (ops->init) {
		bdev->cb = BPFDRV_CB_INIT;
		ret = ops->init(&bdev->pub);
		if (ret) {
			mutex_unlock(&bdev->lock);
			dev_info(bdev->dev.parent ?: &bdev->dev,
				 "%s: driver init failed: %d\n", bdev->pub.name, ret);
			ret = ret < 0 && ret > -MAX_ERRNO ? ret : -EINVAL;
			goto err_gpio;
		}
	}
	/* interrupts and edges reach the driver from now on, not before */
	WRITE_ONCE(bdev->live, true);
	mutex_unlock(&bdev->lock);

	ret = cdev_device_add(&bdev->cdev, &bdev->dev);
	if (ret) {
		bpfdrv_instance_stop(bdev);
		goto err_gpio;
	}

	list_add_tail(&bdev->node, &bpfdrv_devices);
	list_add_tail(&bdev->drv_node, &drv->instances);
	return 0;

err_gpio:
	bpfdrv_gpio_release(bdev);
err_pci:
	if (fn) {
		WRITE_ONCE(bdev->dead, true);
		bpfdrv_pci_instance_teardown(bdev);
		fn->bdev = NULL;
	}
err_put:
	ida_free(&drv->index_ida, index);
	put_device(&bdev->dev);
	return ret;
}

/*
 * Stop a live instance: no callback starts after this, none is running when
 * it returns, and the driver's exit has quiesced the device. Its interrupt
 * is still requested (the handler now ignores it) and is freed after, so
 * that freeing MSI vectors never re-enables INTx on a running device.
 */
static void bpfdrv_instance_stop(struct bpfdrv_device *bdev)
{
	WRITE_ONCE(bdev->live, false);
	WRITE_ONCE(bdev->dead, true);
	bpfdrv_device_wake(bdev);
	synchronize_srcu(&bdev->srcu);

	if (bdev->ops->exit) {
		mutex_lock(&bdev->lock);
		bdev->cb = BPFDRV_CB_EXIT;
		bdev->ops->exit(&bdev->pub);
		mutex_unlock(&bdev->lock);
	}
}

/*
 * The first half of destroying an instance, under bpfdrv_lock: take it off
 * every list and remove its node, so its name is free, no new open finds
 * it, and no other path tears it down.
 */
static void bpfdrv_instance_unlink(struct bpfdrv_device *bdev)
{
	lockdep_assert_held(&bpfdrv_lock);
	list_del_init(&bdev->node);
	list_del_init(&bdev->drv_node);
	bdev->dying = true;
	cdev_device_del(&bdev->cdev, &bdev->dev);
}

/*
 * The second half, without bpfdrv_lock: wait for the instance's callbacks
 * (only this device's), run exit, release its lines and its function. Open
 * files keep the dead device alive and get ENODEV.
 */
static void bpfdrv_instance_finish(struct bpfdrv_device *bdev)
{
	struct bpfdrv_pci_fn *fn = bdev->pci;

	bpfdrv_instance_stop(bdev);
	bpfdrv_gpio_release(bdev);
	if (fn) {
		bpfdrv_pci_instance_teardown(bdev);
		mutex_lock(&bpfdrv_lock);
		fn->bdev = NULL;	/* it may serve a driver again */
		mutex_unlock(&bpfdrv_lock);
	}
	ida_free(&bdev->drv->index_ida, bdev->pub.index);
	complete_all(&bdev->gone);
	put_device(&bdev->dev);
}

/* Does @drv serve PCI function @fn? */
static bool bpfdrv_driver_matches(struct bpfdrv_driver *drv,
				  struct bpfdrv_pci_fn *fn)
{
	const struct chr_ext_ops *ops = drv->ops;
	int i;

	if (ops->pci_slot[0])
		return !strcmp(ops->pci_slot, pci_name(fn->pdev));
	for (i = 0; i < BPFDRV_MAX_PCI_IDS && ops->pci_ids[i].vendor; i++)
		if (ops->pci_ids[i].vendor == fn->pdev->vendor &&
		    ops->pci_ids[i].device == fn->pdev->device)
			return true;
	return false;
}

static bool bpfdrv_driver_is_pci(const struct chr_ext_ops *ops)
{
	return ops->pci_slot[0] || ops->pci_ids[0].vendor;
}

/*
 * Destroy every instance of @drv; without bpfdrv_lock. Instances that a PCI
 * removal took away are finished there: wait for those too, so that no
 * callback of the driver runs once this returns.
 */
static void bpfdrv_driver_destroy_instances(struct bpfdrv_driver *drv)
{
	struct bpfdrv_device *bdev, *tmp;
	LIST_HEAD(dying);

	mutex_lock(&bpfdrv_lock);
	list_for_each_entry_safe(bdev, tmp, &drv->instances, drv_node) {
		bpfdrv_instance_unlink(bdev);
		list_add_tail(&bdev->drv_node, &dying);
	}
	mutex_unlock(&bpfdrv_lock);
	list_for_each_entry_safe(bdev, tmp, &dying, drv_node) {
		list_del_init(&bdev->drv_node);
		bpfdrv_instance_finish(bdev);
	}
	wait_var_event(&drv->finishing, !atomic_read(&drv->finishing));
}

/*
 * The eject work: tear every instance down as an unload would, then have
 * the BPF side detach the link so that a waiting loader sees EPOLLHUP and
 * the name becomes free. The driver stays registered (ejected) until then.
 */
static void bpfdrv_eject_workfn(struct work_struct *work)
{
	struct bpfdrv_driver *drv =
		container_of(work, struct bpfdrv_driver, eject_work);
	bool attached;

	pr_warn("driver %s ejected (callback %s): %s\n", drv->ops->name,
		bpfdrv_cb_names[drv->exit.cb], drv->exit.msg);
	mutex_lock(&bpfdrv_lock);
	drv->ejected = true;
	attached = drv->attached;
	mutex_unlock(&bpfdrv_lock);
	bpfdrv_driver_destroy_instances(drv);
	/* a failed attach never gets here: its unwinding cancels this work */
	if (attached && drv->link)
		bpfdrv_link_detach_async(drv->link);
}

/*
 * From here no ejection starts (a callback's report is dropped), and none
 * is running: the detach or failed attach owns the teardown. Called
 * without bpfdrv_lock, which the eject work takes.
 */
static void bpfdrv_driver_stop_eject(struct bpfdrv_driver *drv)
{
	unsigned long flags;

	spin_lock_irqsave(&drv->exit_lock, flags);
	if (drv->exit.kind == BPFDRV_EXIT_NONE) {
		drv->exit.kind = BPFDRV_EXIT_UNLOAD;
		drv->exit.time = ktime_get_real_seconds();
		strscpy(drv->exit.msg, "detached", sizeof(drv->exit.msg));
	}
	spin_unlock_irqrestore(&drv->exit_lock, flags);
	cancel_work_sync(&drv->eject_work);
}

/* After bpfdrv_driver_destroy_instances(), off the driver list. */
static void bpfdrv_driver_free(struct bpfdrv_driver *drv)
{
	ida_destroy(&drv->index_ida);
	drv->ops->driver = NULL;
	kfree(drv);
}

/*
 * Attach: a driver without PCI IDs gets one instance now; a PCI driver gets
 * one per bound function it serves, now and whenever one is bound later.
 * If any instance fails, the attach fails and nothing is left.
 */
int bpfdrv_driver_attach(struct chr_ext_ops *ops, struct bpf_link *link)
{
	struct bpfdrv_driver *drv;
	struct bpfdrv_pci_fn *fn;
	int ret = 0;

	/*
	 * A driver is kernel code: attaching one takes CAP_SYS_ADMIN in the
	 * initial user namespace, whatever BPF token the loader holds; one
	 * that claims hardware (PCI functions, GPIO lines) also takes
	 * CAP_SYS_RAWIO, as raw device access from user space does.
	 */
	if (!capable(CAP_SYS_ADMIN) ||
	    ((bpfdrv_driver_is_pci(ops) || ops->gpio_chip[0]) &&
	     !capable(CAP_SYS_RAWIO)))
		return -EPERM;
	if (ops->driver)
		return -EBUSY;
	if (bpfdrv_driver_is_pci(ops) && bpfdrv_pci_locked_down())
		return -EPERM;
	/* instance names append the index; truncated ones would collide */
	if (bpfdrv_driver_is_pci(ops) && strlen(ops->name) > BPFDRV_PCI_NAME_MAX) {
		pr_info("PCI driver name %s is too long: at most %d characters, instances append a number\n",
			ops->name, BPFDRV_PCI_NAME_MAX);
		return -ENAMETOOLONG;
	}
	drv = kzalloc(sizeof(*drv), GFP_KERNEL);
	if (!drv)
		return -ENOMEM;
	drv->ops = ops;
	drv->link = link;
	INIT_LIST_HEAD(&drv->instances);
	ida_init(&drv->index_ida);
	spin_lock_init(&drv->exit_lock);
	INIT_WORK(&drv->eject_work, bpfdrv_eject_workfn);
	ops->driver = drv;

	mutex_lock(&bpfdrv_lock);
	if (bpfdrv_find_driver(ops->name)) {
		ret = -EEXIST;
		goto err;
	}
	if (!bpfdrv_driver_is_pci(ops)) {
		ret = bpfdrv_instance_create(drv, NULL);
	} else {
		list_for_each_entry(fn, &bpfdrv_pci_fns, node) {
			if (fn->bdev || !bpfdrv_driver_matches(drv, fn))
				continue;
			ret = bpfdrv_instance_create(drv, fn);
			if (ret)
				break;
		}
	}
	if (ret)
		goto err;
	drv->attached = true;
	list_add_tail(&drv->node, &bpfdrv_drivers);
	mutex_unlock(&bpfdrv_lock);
	return 0;

err:
	/* an init may have ejected already: stop that before unwinding */
	mutex_unlock(&bpfdrv_lock);
	bpfdrv_driver_stop_eject(drv);
	bpfdrv_driver_destroy_instances(drv);
	bpfdrv_driver_free(drv);
	return ret;
}

/* Detach: destroy every instance after draining its callers. */
void bpfdrv_driver_detach(struct chr_ext_ops *ops)
{
	struct bpfdrv_driver *drv = ops->driver;

	if (!drv)
		return;
	bpfdrv_driver_stop_eject(drv);
	mutex_lock(&bpfdrv_lock);
	list_del(&drv->node);
	mutex_unlock(&bpfdrv_lock);
	bpfdrv_driver_destroy_instances(drv);
	bpfdrv_exit_record(ops->name, &drv->exit);
	bpfdrv_driver_free(drv);
}

/*
 * A PCI function was bound to bpfdrv: give it to the first attached driver
 * that serves it. A driver whose init refuses it leaves it bound, unused.
 */
void bpfdrv_pci_fn_added(struct bpfdrv_pci_fn *fn)
{
	struct bpfdrv_driver *drv;
	int ret;

	mutex_lock(&bpfdrv_lock);
	list_add_tail(&fn->node, &bpfdrv_pci_fns);
	list_for_each_entry(drv, &bpfdrv_drivers, node) {
		if (drv->ejected || !bpfdrv_driver_matches(drv, fn))
			continue;
		ret = bpfdrv_instance_create(drv, fn);
		if (ret)
			dev_warn(&fn->pdev->dev, "driver %s refused this device: %d\n",
				 drv->ops->name, ret);
		break;
	}
	mutex_unlock(&bpfdrv_lock);
}

/*
 * A PCI function is being unbound or removed: its instance goes first, and
 * the PCI core may free the function once this returns. An instance that a
 * detach is already tearing down is waited for.
 */
void bpfdrv_pci_fn_removed(struct bpfdrv_pci_fn *fn)
{
	struct bpfdrv_exit_info info = { .kind = BPFDRV_EXIT_REMOVED };
	struct bpfdrv_driver *drv = NULL;
	struct bpfdrv_device *bdev;

	mutex_lock(&bpfdrv_lock);
	bdev = fn->bdev;
	if (bdev && !bdev->dying) {
		drv = bdev->drv;
		info.time = ktime_get_real_seconds();
		snprintf(info.msg, sizeof(info.msg), "%s lost PCI function %s",
			 bdev->pub.name, pci_name(fn->pdev));
		bpfdrv_exit_record(drv->ops->name, &info);
		bpfdrv_instance_unlink(bdev);
		atomic_inc(&drv->finishing);	/* its detach waits for us */
	} else if (bdev) {
		get_device(&bdev->dev);
	}
	list_del(&fn->node);
	mutex_unlock(&bpfdrv_lock);

	if (drv) {
		bpfdrv_instance_finish(bdev);
		if (atomic_dec_and_test(&drv->finishing))
			wake_up_var(&drv->finishing);
	} else if (bdev) {
		wait_for_completion(&bdev->gone);
		put_device(&bdev->dev);
	}
}

/* sysfs: /sys/class/bpfdrv/<name>/{driver,open_count,link_id,stats,irq_count} */

static ssize_t driver_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	/* The ops live while the node does: unreg removes it first. */
	return sysfs_emit(buf, "%s\n", bdev->ops->name);
}
static DEVICE_ATTR_RO(driver);

static ssize_t irq_count_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	return sysfs_emit(buf, "%llu\n", atomic64_read(&bdev->irq_count));
}
static DEVICE_ATTR_RO(irq_count);

static ssize_t open_count_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	return sysfs_emit(buf, "%d\n", atomic_read(&bdev->open_count));
}
static DEVICE_ATTR_RO(open_count);

static ssize_t link_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);

	/* The id is assigned after attach; the link outlives this file. */
	return sysfs_emit(buf, "%u\n", bdev->link ? READ_ONCE(bdev->link->id) : 0);
}
static DEVICE_ATTR_RO(link_id);

static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct bpfdrv_device *bdev = container_of(dev, struct bpfdrv_device, dev);
	struct bpfdrv_stats sum = {};
	int cpu, op, len = 0;

	for_each_possible_cpu(cpu) {
		struct bpfdrv_stats *s = per_cpu_ptr(bdev->stats, cpu);

		for (op = BPFDRV_CB_OPEN; op <= BPFDRV_CB_POLL; op++)
			sum.calls[op] += s->calls[op];
		sum.bad_returns += s->bad_returns;
	}
	/* the file operations, counted on the paths above */
	for (op = BPFDRV_CB_OPEN; op <= BPFDRV_CB_POLL; op++)
		len += sysfs_emit_at(buf, len, "%s %llu\n", bpfdrv_cb_names[op],
				     sum.calls[op]);
	len += sysfs_emit_at(buf, len, "bad_returns %llu\n", sum.bad_returns);
	return len;
}
static DEVICE_ATTR_RO(stats);

static struct attribute *bpfdrv_attrs[] = {
	&dev_attr_driver.attr,
	&dev_attr_irq_count.attr,
	&dev_attr_open_count.attr,
	&dev_attr_link_id.attr,
	&dev_attr_stats.attr,
	NULL
};
ATTRIBUTE_GROUPS(bpfdrv);

int bpfdrv_chrdev_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&bpfdrv_devt, 0, BPFDRV_MINORS, "bpfdrv");
	if (ret)
		return ret;
	ret = class_register(&bpfdrv_class);
	if (ret)
		unregister_chrdev_region(bpfdrv_devt, BPFDRV_MINORS);
	return ret;
}

void bpfdrv_chrdev_exit(void)
{
	class_unregister(&bpfdrv_class);
	unregister_chrdev_region(bpfdrv_devt, BPFDRV_MINORS);
}
