// SPDX-License-Identifier: GPL-2.0
/*
 * echo_native: the echo driver (bpf-drivers/echo.bpf.c) written as an
 * ordinary kernel module, the baseline `make bench` compares bpfdrv with.
 *
 * A misc device, /dev/echo_native, with one ECHO_CAPACITY byte ring shared by
 * all its open files and guarded by one mutex. The semantics are echo's:
 * a read or write moves at most BPFDRV_IO_MAX bytes, an empty ring reads as
 * end of file, a full one gives ENOSPC on write, ECHO_IOC_INFO and
 * ECHO_IOC_CLEAR work the same, and poll reports the state without waiting
 * for changes. Data is copied between user memory and the ring directly, as
 * a normal driver does: no bounce buffer, no per-file state.
 */
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/uaccess.h>

#include "../../include/bpfdrv_abi.h"
#include "../../include/bpfdrv_echo.h"

struct echo_native {
	struct mutex lock;	/* the ring and the total */
	u32 head;		/* offset of the oldest byte */
	u32 count;		/* bytes stored */
	u64 total_written;
	u8 *data;		/* ECHO_CAPACITY bytes */
};

static u8 echo_native_ring[ECHO_CAPACITY];	/* in .bss, not in the .ko */

static struct echo_native echo = {
	.lock = __MUTEX_INITIALIZER(echo.lock),
	.data = echo_native_ring,
};

static ssize_t echo_native_read(struct file *file, char __user *ubuf,
				size_t len, loff_t *ppos)
{
	size_t n, first;
	ssize_t ret;

	len = min_t(size_t, len, BPFDRV_IO_MAX);
	if (mutex_lock_interruptible(&echo.lock))
		return -ERESTARTSYS;
	n = min_t(size_t, len, echo.count);
	first = min_t(size_t, n, ECHO_CAPACITY - echo.head);
	if (copy_to_user(ubuf, echo.data + echo.head, first) ||
	    copy_to_user(ubuf + first, echo.data, n - first)) {
		ret = -EFAULT;
		goto out;
	}
	echo.head = (echo.head + n) % ECHO_CAPACITY;
	echo.count -= n;
	ret = n;
out:
	mutex_unlock(&echo.lock);
	return ret;
}

static ssize_t echo_native_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	size_t n, first, tail;
	ssize_t ret;

	if (!len)
		return 0;
	len = min_t(size_t, len, BPFDRV_IO_MAX);
	if (mutex_lock_interruptible(&echo.lock))
		return -ERESTARTSYS;
	n = min_t(size_t, len, ECHO_CAPACITY - echo.count);
	if (!n) {
		ret = -ENOSPC;
		goto out;
	}
	tail = (echo.head + echo.count) % ECHO_CAPACITY;
	first = min_t(size_t, n, ECHO_CAPACITY - tail);
	if (copy_from_user(echo.data + tail, ubuf, first) ||
	    copy_from_user(echo.data, ubuf + first, n - first)) {
		ret = -EFAULT;
		goto out;
	}
	echo.count += n;
	echo.total_written += n;
	ret = n;
out:
	mutex_unlock(&echo.lock);
	return ret;
}

static long echo_native_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct echo_info info = {};

	switch (cmd) {
	case ECHO_IOC_INFO:
		mutex_lock(&echo.lock);
		info.stored = echo.count;
		info.capacity = ECHO_CAPACITY;
		info.total_written = echo.total_written;
		mutex_unlock(&echo.lock);
		if (copy_to_user((void __user *)arg, &info, sizeof(info)))
			return -EFAULT;
		return 0;
	case ECHO_IOC_CLEAR:
		mutex_lock(&echo.lock);
		echo.head = 0;
		echo.count = 0;
		mutex_unlock(&echo.lock);
		return 0;
	}
	return -ENOTTY;
}

static __poll_t echo_native_poll(struct file *file, poll_table *wait)
{
	__poll_t mask = 0;

	mutex_lock(&echo.lock);
	if (echo.count)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (echo.count < ECHO_CAPACITY)
		mask |= EPOLLOUT | EPOLLWRNORM;
	mutex_unlock(&echo.lock);
	return mask;
}

static const struct file_operations echo_native_fops = {
	.owner = THIS_MODULE,
	.open = stream_open,
	.read = echo_native_read,
	.write = echo_native_write,
	.unlocked_ioctl = echo_native_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = echo_native_poll,
};

static struct miscdevice echo_native_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "echo_native",
	.fops = &echo_native_fops,
	.mode = 0666,
};

module_misc_device(echo_native_misc);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("echo as an ordinary kernel module (bpfdrv benchmark baseline)");
