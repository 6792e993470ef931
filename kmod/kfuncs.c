// SPDX-License-Identifier: GPL-2.0
/*
 * kfuncs for chr_ext_ops programs: the I/O buffer, per-file and per-device
 * storage and wakeups. Every file with kfuncs keeps their set beside them
 * and adds it here; they are registered as one set, with one filter.
 *
 * Every context pointer they take is one bpfdrv passed to the running
 * callback: the contexts are kernel objects (their __kernel_object member) and
 * every kfunc has trusted arguments, so the verifier refuses program memory,
 * NULL, pointers walked from other objects or offset from the original.
 * Bounds come from kernel-private fields, never from what BPF can see.
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "bpfdrv.h"
#include "kfuncs.h"

/*
 * Copy @len bytes from @src to [@off, @off + @len) of the call's data, in
 * bounds. A direct call's data is the caller's memory: callbacks may not
 * sleep, so the copy runs with page faults off, and one that meets a missing
 * page fails with -EFAULT, as every later copy of the call does. The call is
 * then made again once the pages are in (bpfdrv_rw_direct()), so the driver
 * must not consume its data before the copy succeeds.
 */
int bpfdrv_io_copy_out(struct bpfdrv_io_kern *k, u32 off, const void *src,
		       u32 len)
{
	unsigned long left;

	if (likely(k->data)) {
		memcpy(k->data + off, src, len);
		return 0;
	}
	if (k->faulted)
		return -EFAULT;
	pagefault_disable();
	left = __copy_to_user_inatomic(k->udata + off, src, len);
	pagefault_enable();
	if (unlikely(left)) {
		k->faulted = true;
		return -EFAULT;
	}
	return 0;
}

/* As bpfdrv_io_copy_out(), from the call's data to @dst. */
int bpfdrv_io_copy_in(struct bpfdrv_io_kern *k, u32 off, void *dst, u32 len)
{
	unsigned long left;

	if (likely(k->data)) {
		memcpy(dst, k->data + off, len);
		return 0;
	}
	if (k->faulted)
		return -EFAULT;
	pagefault_disable();
	left = __copy_from_user_inatomic(dst, k->udata + off, len);
	pagefault_enable();
	if (unlikely(left)) {
		k->faulted = true;
		return -EFAULT;
	}
	return 0;
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_io_data - direct pointer into the I/O buffer
 * @io: the callback's I/O context
 * @offset: byte offset into the buffer
 * @rdwr_buf_size: constant size the program will access
 *
 * Return: a pointer valid for @rdwr_buf_size bytes during the callback, or
 * NULL if [@offset, @offset + @rdwr_buf_size) is not inside io->len, or in
 * read and write of a BPFDRV_F_DIRECT_IO driver (the data is user memory).
 */
__bpf_kfunc u8 *bpfdrv_io_data(struct bpfdrv_io *io, u32 offset,
			       const u32 rdwr_buf_size)
{
	struct bpfdrv_io_kern *k = to_bpfdrv_io(io);

	if (k->no_ptr || !bpfdrv_range_ok(offset, rdwr_buf_size, k->size))
		return NULL;
	return k->data + offset;
}

/**
 * bpfdrv_io_load - copy from the I/O buffer into program memory
 * @io: the callback's I/O context
 * @io_off: where to start in the I/O buffer
 * @dst: program memory (stack, map value)
 * @dst__sz: bytes to copy, all of @dst
 *
 * Return: 0, -ERANGE if the I/O buffer holds fewer bytes (nothing copied),
 * or -EFAULT (direct I/O: a page of the caller's was missing).
 */
__bpf_kfunc int bpfdrv_io_load(struct bpfdrv_io *io, u32 io_off, void *dst,
			       u32 dst__sz)
{
	struct bpfdrv_io_kern *k = to_bpfdrv_io(io);

	if (!bpfdrv_range_ok(io_off, dst__sz, k->size))
		return -ERANGE;
	return bpfdrv_io_copy_in(k, io_off, dst, dst__sz);
}

/**
 * bpfdrv_io_store - copy program memory into the I/O buffer
 * @io: the callback's I/O context
 * @io_off: where to start in the I/O buffer
 * @src: program memory (stack, map value)
 * @src__sz: bytes to copy, all of @src
 *
 * Return: 0, -ERANGE if the I/O buffer is too small (nothing copied), or
 * -EFAULT (direct I/O).
 */
__bpf_kfunc int bpfdrv_io_store(struct bpfdrv_io *io, u32 io_off, void *src,
				u32 src__sz)
{
	struct bpfdrv_io_kern *k = to_bpfdrv_io(io);

	if (!bpfdrv_range_ok(io_off, src__sz, k->size))
		return -ERANGE;
	return bpfdrv_io_copy_out(k, io_off, src, src__sz);
}

/*
 * Whether the first @len bytes of @io and [@off, @off + @len) of program
 * memory of @size bytes are both in bounds.
 */
static bool bpfdrv_io_at_ok(struct bpfdrv_io *io, u32 size, u32 off, u32 len)
{
	return len <= to_bpfdrv_io(io)->size && bpfdrv_range_ok(off, len, size);
}

/**
 * bpfdrv_io_load_at - copy the I/O buffer's first bytes into program memory
 * @io: the callback's I/O context
 * @dst: program memory (stack, map value), all of it
 * @dst__sz: its size
 * @dst_off: where to start in @dst
 * @len: bytes to copy, from the start of the I/O buffer
 *
 * For a variable offset with a variable length (a seekable file, a register
 * window), which the verifier cannot bound together: both ranges are
 * checked here, on every call.
 *
 * Return: 0, -ERANGE if either range is out of bounds (nothing copied), or
 * -EFAULT (direct I/O).
 */
__bpf_kfunc int bpfdrv_io_load_at(struct bpfdrv_io *io, void *dst, u32 dst__sz,
				  u32 dst_off, u32 len)
{
	if (!bpfdrv_io_at_ok(io, dst__sz, dst_off, len))
		return -ERANGE;
	return bpfdrv_io_copy_in(to_bpfdrv_io(io), 0, dst + dst_off, len);
}

/**
 * bpfdrv_io_store_at - copy part of program memory to the I/O buffer's start
 * @io: the callback's I/O context
 * @src: program memory (stack, map value), all of it
 * @src__sz: its size
 * @src_off: where to start in @src
 * @len: bytes to copy, to the start of the I/O buffer
 *
 * As bpfdrv_io_load_at(), the other way.
 *
 * Return: as bpfdrv_io_load_at().
 */
__bpf_kfunc int bpfdrv_io_store_at(struct bpfdrv_io *io, void *src, u32 src__sz,
				   u32 src_off, u32 len)
{
	if (!bpfdrv_io_at_ok(io, src__sz, src_off, len))
		return -ERANGE;
	return bpfdrv_io_copy_out(to_bpfdrv_io(io), 0, src + src_off, len);
}

/*
 * The ring in program memory and a snapshot of its header, or NULL if the
 * header is inconsistent. Another CPU (a callback of another instance,
 * user space through a mmap()ed map) may write the header meanwhile: only
 * the snapshot is checked and used.
 */
static struct bpfdrv_ring *bpfdrv_ring_check(void *mem, u32 size, u32 *cap,
					     u32 *head, u32 *count)
{
	struct bpfdrv_ring *r = mem;

	if (size <= sizeof(*r))
		return NULL;
	*cap = size - sizeof(*r);
	*head = READ_ONCE(r->head);
	*count = READ_ONCE(r->count);
	if (*head >= *cap || *count > *cap)
		return NULL;
	return r;
}

/**
 * bpfdrv_ring_to_io - move the oldest bytes of a ring into the I/O buffer
 * @io: the callback's I/O context (a read)
 * @ring: a struct bpfdrv_ring followed by its data, in program memory
 * @ring__sz: size of header and data together
 *
 * Moves min(io->len, ring->count) bytes to the start of the I/O buffer.
 *
 * Return: bytes moved, -EINVAL if the ring's header is corrupt, or -EFAULT
 * (direct I/O: nothing is taken from the ring).
 */
__bpf_kfunc int bpfdrv_ring_to_io(struct bpfdrv_io *io, void *ring,
				  u32 ring__sz)
{
	struct bpfdrv_io_kern *k = to_bpfdrv_io(io);
	struct bpfdrv_ring *r;
	u32 cap, head, count, n, first;

	r = bpfdrv_ring_check(ring, ring__sz, &cap, &head, &count);
	if (!r)
		return -EINVAL;
	n = min(k->size, count);
	first = min(n, cap - head);
	if (bpfdrv_io_copy_out(k, 0, r->data + head, first) ||
	    (n > first && bpfdrv_io_copy_out(k, first, r->data, n - first)))
		return -EFAULT;
	WRITE_ONCE(r->head, (head + n) % cap);
	WRITE_ONCE(r->count, count - n);
	return n;
}

/**
 * bpfdrv_io_to_ring - append the I/O buffer to a ring
 * @io: the callback's I/O context (a write)
 * @ring: a struct bpfdrv_ring followed by its data, in program memory
 * @ring__sz: size of header and data together
 *
 * Moves min(io->len, free space) bytes from the start of the I/O buffer.
 *
 * Return: bytes moved (0 when full), -EINVAL if the header is corrupt, or
 * -EFAULT (direct I/O: nothing is added to the ring).
 */
__bpf_kfunc int bpfdrv_io_to_ring(struct bpfdrv_io *io, void *ring,
				  u32 ring__sz)
{
	struct bpfdrv_io_kern *k = to_bpfdrv_io(io);
	struct bpfdrv_ring *r;
	u32 cap, head, count, n, tail, first;

	r = bpfdrv_ring_check(ring, ring__sz, &cap, &head, &count);
	if (!r)
		return -EINVAL;
	tail = (head + count) % cap;
	n = min(k->size, cap - count);
	first = min(n, cap - tail);
	if (bpfdrv_io_copy_in(k, 0, r->data + tail, first) ||
	    (n > first && bpfdrv_io_copy_in(k, first, r->data, n - first)))
		return -EFAULT;
	WRITE_ONCE(r->count, count + n);
	return n;
}

/**
 * bpfdrv_file_priv - the open file's private storage
 * @file: the callback's file
 * @rdwr_buf_size: constant size the program will access
 *
 * Zeroed at open, BPFDRV_FILE_PRIV_SIZE bytes, freed at close.
 *
 * Return: a pointer to the storage, or NULL if @rdwr_buf_size is too large.
 */
__bpf_kfunc u8 *bpfdrv_file_priv(struct bpfdrv_file *file,
				 const u32 rdwr_buf_size)
{
	if (rdwr_buf_size > BPFDRV_FILE_PRIV_SIZE)
		return NULL;
	return to_bpfdrv_file(file)->priv;
}

/**
 * bpfdrv_dev_wake - wake everyone waiting on a device
 * @dev: the callback's device instance
 *
 * Blocked readers and writers retry their callback; pollers re-poll.
 */
__bpf_kfunc void bpfdrv_dev_wake(struct bpfdrv_dev *dev)
{
	bpfdrv_device_wake(to_bpfdrv_device(dev));
}

/**
 * bpfdrv_dev_yield - let others run during a long callback; say if to go on
 * @dev: the callback's device instance
 *
 * For loops of a sleepable callback that run for more than a few
 * milliseconds: without it, a callback that keeps its CPU for about 20 s is
 * a soft lockup, and a detach waits for the loop to end.
 *
 * Return: 0 to go on, -ENODEV once the instance is being torn down (detach,
 * ejection, unbind; always in exit), -EINTR if the calling process was
 * killed.
 */
__bpf_kfunc int bpfdrv_dev_yield(struct bpfdrv_dev *dev)
{
	cond_resched();
	if (bpfdrv_going(to_bpfdrv_device(dev)))
		return -ENODEV;
	if (fatal_signal_pending(current))
		return -EINTR;
	return 0;
}

/**
 * bpfdrv_dev_priv - the device instance's private storage
 * @dev: the instance
 * @rdwr_buf_size: constant size the program will access
 *
 * Zeroed when the instance is made, BPFDRV_DEV_PRIV_SIZE bytes, shared by
 * all its files and its irq callback (which the device mutex serializes).
 *
 * Return: a pointer to the storage, or NULL if @rdwr_buf_size is too large.
 */
__bpf_kfunc u8 *bpfdrv_dev_priv(struct bpfdrv_dev *dev, const u32 rdwr_buf_size)
{
	if (rdwr_buf_size > BPFDRV_DEV_PRIV_SIZE)
		return NULL;
	return to_bpfdrv_device(dev)->priv;
}

__bpf_kfunc_end_defs();

/*
 * Trusted arguments everywhere (the default from 7.x on): a context must be
 * the very pointer bpfdrv passed, never NULL.
 */
BTF_KFUNCS_START(bpfdrv_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_io_data, KF_TRUSTED_ARGS | KF_RET_NULL)
BTF_ID_FLAGS(func, bpfdrv_io_load, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_io_store, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_io_load_at, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_io_store_at, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_ring_to_io, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_io_to_ring, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_file_priv, KF_TRUSTED_ARGS | KF_RET_NULL)
BTF_ID_FLAGS(func, bpfdrv_dev_wake, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_dev_yield, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_dev_priv, KF_TRUSTED_ARGS | KF_RET_NULL)
BTF_KFUNCS_END(bpfdrv_kfunc_ids)

/* The module's BTF, which chr_ext_ops programs attach to (struct_ops.c). */
struct btf *bpfdrv_btf;

/*
 * Only chr_ext_ops programs may call bpfdrv's kfuncs: the one struct_ops
 * type whose BTF is this module's. The core asks the filter about kfuncs
 * of this module's BTF only.
 */
static int bpfdrv_kfunc_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	return prog->aux->attach_btf && prog->aux->attach_btf == bpfdrv_btf ?
	       0 : -EACCES;
}

/*
 * Each file with kfuncs keeps their set beside them and adds it here (the
 * parts' through the parts table, bpfdrv_parts_kfuncs_init()); a module
 * may register one set per program type, so bpfdrv_kfuncs_register()
 * merges them into one, sorted by BTF ID as the core's lookup needs. The
 * core keeps the merged set (6.12) or a copy of it: it goes with the module.
 */
#define BPFDRV_KFUNC_SETS	16

static struct btf_id_set8 *bpfdrv_kfunc_sets[BPFDRV_KFUNC_SETS];
static unsigned int bpfdrv_nr_kfunc_sets;
static struct btf_id_set8 *bpfdrv_kfuncs_merged;

int bpfdrv_kfuncs_add(struct btf_id_set8 *set)
{
	if (bpfdrv_nr_kfunc_sets == BPFDRV_KFUNC_SETS)
		return -E2BIG;
	bpfdrv_kfunc_sets[bpfdrv_nr_kfunc_sets++] = set;
	return 0;
}

/* Pairs of a set8 by their BTF ID, the pair's first word. */
static int bpfdrv_kfunc_id_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

int bpfdrv_kfuncs_register(void)
{
	struct btf_kfunc_id_set kset = {
		.owner = THIS_MODULE,
		.filter = bpfdrv_kfunc_filter,
	};
	struct btf_id_set8 *set;
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < bpfdrv_nr_kfunc_sets; i++)
		n += bpfdrv_kfunc_sets[i]->cnt;
	set = kzalloc(struct_size(set, pairs, n), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	set->flags = bpfdrv_kfunc_ids.flags;	/* BTF_SET8_KFUNCS */
	for (i = 0; i < bpfdrv_nr_kfunc_sets; i++) {
		memcpy(set->pairs + set->cnt, bpfdrv_kfunc_sets[i]->pairs,
		       bpfdrv_kfunc_sets[i]->cnt * sizeof(set->pairs[0]));
		set->cnt += bpfdrv_kfunc_sets[i]->cnt;
	}
	sort(set->pairs, set->cnt, sizeof(set->pairs[0]), bpfdrv_kfunc_id_cmp, NULL);
	kset.set = set;
	ret = register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS, &kset);
	if (ret) {
		kfree(set);
		return ret;
	}
	bpfdrv_kfuncs_merged = set;
	return 0;
}

/* At module unload (or a failed load), when nothing can look them up. */
void bpfdrv_kfuncs_exit(void)
{
	kfree(bpfdrv_kfuncs_merged);
	bpfdrv_kfuncs_merged = NULL;
	bpfdrv_nr_kfunc_sets = 0;
}

/* The kfuncs of I/O buffers, rings and private data (this file's own). */
int bpfdrv_kfuncs_init(void)
{
	return bpfdrv_kfuncs_add(&bpfdrv_kfunc_ids);
}
