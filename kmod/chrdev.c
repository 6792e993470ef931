// SPDX-License-Identifier: GPL-2.0
/*
 * The file operations of instances' nodes, which call into BPF. node.c
 * holds the class and sysfs attributes; driver.c makes and destroys nodes.
 *
 * Every callback is called through bpfdrv_call() (call.h): inside the
 * instance's SRCU section, only while it is not dead, under its mutex;
 * detach marks it dead, wakes all sleepers and drains its SRCU, so no
 * callback runs once unreg returns, and no device waits for another's
 * callbacks. Sleeping for data (blocking read/write) happens outside the
 * read section and without the file's buffer lock, so a blocked reader
 * never delays a detach or another call on the same file.
 *
 * User memory is copied to and from a per-file kernel buffer outside the
 * SRCU section; BPF reaches that buffer only through bounds-checked kfuncs.
 *
 * A device's callbacks run one at a time under its mutex, so drivers keep
 * their state in maps without locks of their own. The callbacks are read
 * under it too: a live update swaps them while holding it, so a call runs
 * wholly on the old code or wholly on the new.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bpf.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "call.h"

#define CREATE_TRACE_POINTS
#include "bpfdrv_trace.h"
#include "chrdev.h"
#include "mmap.h"

static atomic64_t bpfdrv_file_ids = ATOMIC64_INIT(0);

/**
 * bpfdrv_file_open - open a file of an instance, on any of its nodes
 * @bdev: the instance
 * @f_flags: the file's O_* flags
 *
 * Calls the driver's open callback; the file pins the instance until
 * bpfdrv_file_close().
 *
 * Return: the file, or an ERR_PTR: -EBUSY for a second file of an
 * exclusive driver, the open callback's error, -ENODEV once detached.
 */
struct bpfdrv_file_kern *bpfdrv_file_open(struct bpfdrv_device *bdev,
					  unsigned int f_flags)
{
	struct bpfdrv_file_kern *f;
	int ret;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->pub.id = atomic64_inc_return(&bpfdrv_file_ids);
	f->pub.f_flags = f_flags;
	f->pub.uid = from_kuid(&init_user_ns, current_fsuid());
	f->bdev = bdev;
	mutex_init(&f->io_lock);

	if (atomic_inc_return(&bdev->open_count) > 1 &&
	    (bdev->flags & BPFDRV_F_EXCLUSIVE))
		ret = -EBUSY;
	else	/* no callback: opened */
		ret = bpfdrv_call(bdev, BPFDRV_CALL_FILE, BPFDRV_CB_OPEN, open,
				  0, 0, &f->pub);
	if (ret) {
		atomic_dec(&bdev->open_count);
		kfree(f);
		return ERR_PTR(ret);
	}
	get_device(&bdev->dev);
	return f;
}
EXPORT_SYMBOL_GPL(bpfdrv_file_open);

/* The last close of a file: the release callback, even if killed. */
void bpfdrv_file_close(struct bpfdrv_file_kern *f)
{
	struct bpfdrv_device *bdev = f->bdev;

	bpfdrv_call_void(bdev, BPFDRV_CALL_RELEASE, BPFDRV_CB_RELEASE, release,
			 &f->pub);
	atomic_dec(&bdev->open_count);

	kfree(f->buf);
	kfree(f);
	put_device(&bdev->dev);
}
EXPORT_SYMBOL_GPL(bpfdrv_file_close);

static int __bpfdrv_open(struct inode *inode, struct file *filp)
{
	struct bpfdrv_device *bdev =
		container_of(inode->i_cdev, struct bpfdrv_device, cdev);
	struct bpfdrv_file_kern *f = bpfdrv_file_open(bdev, filp->f_flags);

	if (IS_ERR(f))
		return PTR_ERR(f);
	filp->private_data = f;
	bpfdrv_mmap_open(bdev, filp);
	if (bdev->flags & BPFDRV_F_SEEKABLE)
		return 0;
	return stream_open(inode, filp);
}

static int __bpfdrv_release(struct inode *inode, struct file *filp)
{
	bpfdrv_file_close(filp->private_data);
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
 * One call of read or write on @io (for write, holding the data). Returns the
 * judged result (-EAGAIN is an ordinary errno); a direct call whose copy
 * faulted is made again whatever it returned. Inline: a call and return
 * per syscall are measurable.
 */
static __always_inline ssize_t bpfdrv_rw_once(struct file *filp,
					      struct bpfdrv_file_kern *f,
					      enum bpfdrv_rw rw,
					      struct bpfdrv_io_kern *io,
					      loff_t *ppos)
{
	struct bpfdrv_device *bdev = f->bdev;

	io->pub.pos = ppos ? *ppos : 0;	/* NULL for streams */
	io->pub.len = io->size;
	io->pub.nonblock = !!(filp->f_flags & O_NONBLOCK);
	f->pub.f_flags = filp->f_flags;

	if (rw == BPFDRV_READ)
		return bpfdrv_call(bdev, BPFDRV_CALL_FILE, BPFDRV_CB_READ, read,
				   io->size, -EINVAL, &f->pub, &io->pub);
	return bpfdrv_call(bdev, BPFDRV_CALL_FILE, BPFDRV_CB_WRITE, write,
			   io->size, -EINVAL, &f->pub, &io->pub);
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
				     bpfdrv_dead(bdev))) {
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

/* One read through a kernel buffer. */
static __always_inline ssize_t bpfdrv_read_buffered(struct file *filp,
						    struct bpfdrv_file_kern *f,
						    char __user *ubuf, u32 len,
						    loff_t *ppos)
{
	struct bpfdrv_io_kern io = {
		.size = len, .no_ptr = f->bdev->flags & BPFDRV_F_DIRECT_IO,
	};
	/* Zeroed: a driver that returns more than it stored leaks nothing. */
	u8 stack[BPFDRV_IO_SMALL] = {};
	ssize_t ret;
	long err;

	io.data = bpfdrv_lock_buf(f, len, stack, &err);
	if (!io.data)
		return err;
	ret = bpfdrv_rw_once(filp, f, BPFDRV_READ, &io, ppos);
	if (ret > 0 && copy_to_user(ubuf, io.data, ret))
		ret = -EFAULT;
	bpfdrv_unlock_buf(f, io.data);
	return ret;
}

/* One write through a kernel buffer. */
static __always_inline ssize_t bpfdrv_write_buffered(struct file *filp,
						     struct bpfdrv_file_kern *f,
						     const char __user *ubuf,
						     u32 len, loff_t *ppos)
{
	struct bpfdrv_io_kern io = {
		.size = len, .no_ptr = f->bdev->flags & BPFDRV_F_DIRECT_IO,
	};
	u8 stack[BPFDRV_IO_SMALL];
	ssize_t ret;
	long err;

	io.data = bpfdrv_lock_buf(f, len, stack, &err);
	if (!io.data)
		return err;
	if (copy_from_user(io.data, ubuf, len))
		ret = -EFAULT;
	else
		ret = bpfdrv_rw_once(filp, f, BPFDRV_WRITE, &io, ppos);
	bpfdrv_unlock_buf(f, io.data);
	return ret;
}

/* Direct calls that fault this often go through a kernel buffer. */
#define BPFDRV_DIRECT_TRIES	3

/*
 * One read or write of a BPFDRV_F_DIRECT_IO driver: its kfuncs copy between
 * the caller's memory at @ubuf and the driver's, with no kernel buffer and
 * no second copy. Copies run with page faults off, so one that meets a
 * missing page fails the call (the driver must not act on a call whose copy
 * failed). Then, with no lock held, the pages are faulted in and the call is
 * made again on the part that can be reached: EFAULT if none can, a short
 * read or write if only the start can, as regular files do.
 */
static __always_inline ssize_t bpfdrv_rw_direct(struct file *filp,
						struct bpfdrv_file_kern *f,
						enum bpfdrv_rw rw,
						void __user *ubuf, u32 len,
						loff_t *ppos)
{
	struct bpfdrv_io_kern io;
	size_t missing;
	ssize_t ret;
	int tries;

	/* the VFS checked this too; the inatomic copies rely on it */
	if (unlikely(!access_ok(ubuf, len)))
		return -EFAULT;
	for (tries = 0; tries < BPFDRV_DIRECT_TRIES; tries++) {
		io = (struct bpfdrv_io_kern){
			.udata = ubuf, .size = len, .no_ptr = true,
		};
		ret = bpfdrv_rw_once(filp, f, rw, &io, ppos);
		if (likely(!io.faulted))
			return ret;
		this_cpu_inc(f->bdev->stats->direct_retries);
		missing = rw == BPFDRV_READ ? fault_in_safe_writeable(ubuf, len) :
					      fault_in_readable(ubuf, len);
		if (missing >= len)
			return -EFAULT;
		len -= missing;
	}
	/* pages taken away again each time (reclaim): this makes progress */
	if (rw == BPFDRV_READ)
		return bpfdrv_read_buffered(filp, f, ubuf, len, ppos);
	return bpfdrv_write_buffered(filp, f, ubuf, len, ppos);
}

static __always_inline ssize_t __bpfdrv_read(struct file *filp,
					     char __user *ubuf, size_t count,
					     loff_t *ppos)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	bool direct = f->bdev->flags & BPFDRV_F_DIRECT_IO;
	u32 len = min_t(size_t, count, BPFDRV_IO_MAX);
	ssize_t ret;
	int seq;

	if (!count)
		return 0;
	do {
		seq = atomic_read(&f->bdev->wake_seq);
		if (direct)
			ret = bpfdrv_rw_direct(filp, f, BPFDRV_READ, ubuf, len,
					       ppos);
		else
			ret = bpfdrv_read_buffered(filp, f, ubuf, len, ppos);
		if (ret > 0 && ppos)
			*ppos += ret;
	} while (bpfdrv_retry(filp, f->bdev, &ret, seq));
	return ret;
}

static __always_inline ssize_t __bpfdrv_write(struct file *filp,
					      const char __user *ubuf,
					      size_t count, loff_t *ppos)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	bool direct = f->bdev->flags & BPFDRV_F_DIRECT_IO;
	u32 len = min_t(size_t, count, BPFDRV_IO_MAX);
	ssize_t ret;
	int seq;

	if (!count)
		return 0;
	do {
		seq = atomic_read(&f->bdev->wake_seq);
		if (direct)
			ret = bpfdrv_rw_direct(filp, f, BPFDRV_WRITE,
					       (void __user *)ubuf, len, ppos);
		else
			ret = bpfdrv_write_buffered(filp, f, ubuf, len, ppos);
		if (ret > 0 && ppos)
			*ppos += ret;
	} while (bpfdrv_retry(filp, f->bdev, &ret, seq));
	return ret;
}

static __always_inline long __bpfdrv_ioctl(struct file *filp, unsigned int cmd,
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

	if (size > BPFDRV_IO_MAX)
		return -EINVAL;
	io.data = bpfdrv_lock_buf(f, size, stack, &ret);
	if (!io.data)
		return ret;
	io.pub.pos = filp->f_pos;
	io.pub.nonblock = !!(filp->f_flags & O_NONBLOCK);
	/* an integer argument; a data command's is a user address: not given */
	io.pub.arg = size ? 0 : arg;
	if (_IOC_DIR(cmd) & _IOC_WRITE) {
		if (copy_from_user(io.data, uarg, size)) {
			ret = -EFAULT;
			goto out;
		}
	} else if (io.data != stack) {
		memset(io.data, 0, size);
	}

	ret = bpfdrv_call(bdev, BPFDRV_CALL_FILE, BPFDRV_CB_IOCTL, ioctl,
			  INT_MAX, -ENOTTY, &f->pub, cmd, &io.pub);

	if (ret >= 0 && (_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, io.data, size))
		ret = -EFAULT;
out:
	bpfdrv_unlock_buf(f, io.data);
	return ret;
}

static __poll_t __bpfdrv_poll(struct file *filp,
			      struct poll_table_struct *wait)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	struct bpfdrv_device *bdev = f->bdev;
	int ret;

	poll_wait(filp, &bdev->wq, wait);

	ret = bpfdrv_call(bdev, BPFDRV_CALL_FILE, BPFDRV_CB_POLL, poll, INT_MAX,
			  EPOLLIN | EPOLLRDNORM | EPOLLOUT | EPOLLWRNORM,
			  &f->pub);
	if (ret == -ENODEV)
		return EPOLLERR | EPOLLHUP;
	if (ret == -EINTR)
		return 0;	/* killed while the device was busy */
	if (ret < 0)	/* a bad return */
		return EPOLLERR;
	return (__force __poll_t)ret &
	       (EPOLLIN | EPOLLRDNORM | EPOLLOUT | EPOLLWRNORM | EPOLLPRI |
		EPOLLERR | EPOLLHUP | EPOLLRDHUP);
}

/*
 * The file operations, each timed for the bpfdrv_fop tracepoint while it is
 * enabled (a static key: nothing to pay when it is not). A call that began
 * before the tracepoint was enabled is not reported. Read, write and ioctl
 * inline their work: one call and return fewer per system call.
 */
static __always_inline u64 bpfdrv_fop_start(void)
{
	return trace_bpfdrv_fop_enabled() ? local_clock() : 0;
}

static __always_inline void bpfdrv_fop_end(struct inode *inode,
					   enum bpfdrv_fop op, long ret,
					   u64 start)
{
	u64 end;

	if (!trace_bpfdrv_fop_enabled() || !start)
		return;
	/* a call that moved to a CPU whose clock is behind took no time */
	end = local_clock();
	/*
	 * Newer kernels (7.x) call tracepoints under SRCU, preemptible. A BPF
	 * program preempted here would make the kernel skip it for the next
	 * task on this CPU (its recursion check), losing that task's event.
	 */
	preempt_disable_notrace();
	trace_bpfdrv_fop(iminor(inode), op, ret, end > start ? end - start : 0);
	preempt_enable_notrace();
}

static int bpfdrv_open(struct inode *inode, struct file *filp)
{
	u64 start = bpfdrv_fop_start();
	int ret = __bpfdrv_open(inode, filp);

	bpfdrv_fop_end(inode, BPFDRV_FOP_OPEN, ret, start);
	return ret;
}

static int bpfdrv_release(struct inode *inode, struct file *filp)
{
	u64 start = bpfdrv_fop_start();
	int ret = __bpfdrv_release(inode, filp);

	bpfdrv_fop_end(inode, BPFDRV_FOP_RELEASE, ret, start);
	return ret;
}

static ssize_t bpfdrv_read(struct file *filp, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	u64 start = bpfdrv_fop_start();
	ssize_t ret = __bpfdrv_read(filp, ubuf, count, ppos);

	bpfdrv_fop_end(file_inode(filp), BPFDRV_FOP_READ, ret, start);
	return ret;
}

static ssize_t bpfdrv_write(struct file *filp, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	u64 start = bpfdrv_fop_start();
	ssize_t ret = __bpfdrv_write(filp, ubuf, count, ppos);

	bpfdrv_fop_end(file_inode(filp), BPFDRV_FOP_WRITE, ret, start);
	return ret;
}

static long bpfdrv_ioctl(struct file *filp, unsigned int cmd,
			 unsigned long arg)
{
	u64 start = bpfdrv_fop_start();
	long ret = __bpfdrv_ioctl(filp, cmd, arg);

	bpfdrv_fop_end(file_inode(filp), BPFDRV_FOP_IOCTL, ret, start);
	return ret;
}

static __poll_t bpfdrv_poll(struct file *filp, struct poll_table_struct *wait)
{
	u64 start = bpfdrv_fop_start();
	__poll_t mask = __bpfdrv_poll(filp, wait);

	bpfdrv_fop_end(file_inode(filp), BPFDRV_FOP_POLL,
		       (__force long)mask, start);
	return mask;
}

const struct file_operations bpfdrv_fops = {
	.owner = THIS_MODULE,
	.open = bpfdrv_open,
	.release = bpfdrv_release,
	.read = bpfdrv_read,
	.write = bpfdrv_write,
	.unlocked_ioctl = bpfdrv_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = bpfdrv_poll,
	.mmap = bpfdrv_mmap,
	.llseek = no_seek_end_llseek,
};
