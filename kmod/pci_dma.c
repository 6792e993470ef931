// SPDX-License-Identifier: GPL-2.0
/*
 * DMA buffers of the instance's PCI function: coherent memory the device
 * reaches through the IOMMU (or, by the admin's opt-in, without one),
 * copied from and to a call's I/O buffer with bounds checks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/dma-mapping.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "call.h"
#include "pci.h"
#include "kfuncs.h"
#include "mmap.h"
#include "parts.h"

/*
 * DMA buffer @nr of the instance at [@dma_off, @dma_off + @len) after
 * checking it and [@io_off, @io_off + @len) of the I/O buffer; NULL with
 * *err set. Under the callback mutex, which alloc and free also hold.
 */
static void *bpfdrv_dma_range(struct bpfdrv_dev *dev, u32 nr, u32 dma_off,
			      struct bpfdrv_io *io, u32 io_off, u32 len, int *err)
{
	struct bpfdrv_pci_fn *fn = bpfdrv_pci_fn_of(dev, err);
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

/*
 * [offset, offset + @len) of the buffer @pos names (BPFDRV_DMA_POS), for
 * the kfuncs of other parts (firmware.c); NULL with *err set.
 */
void *bpfdrv_pci_dma_span(struct bpfdrv_dev *dev, u64 pos, u32 len, int *err)
{
	struct bpfdrv_pci_fn *fn = bpfdrv_pci_fn_of(dev, err);
	struct bpfdrv_dma_buf *buf;

	if (!fn)
		return NULL;
	*err = -EINVAL;
	if ((pos >> 32) >= BPFDRV_MAX_DMA_BUFS)
		return NULL;
	buf = &fn->dma[pos >> 32];
	*err = -ENOMEM;
	if (!buf->cpu)
		return NULL;
	*err = -ERANGE;
	if (!bpfdrv_range_ok((u32)pos, len, buf->size))
		return NULL;
	return buf->cpu + (u32)pos;
}

/* After bus mastering stopped: every DMA buffer of @fn goes. */
void bpfdrv_pci_dma_free_all(struct bpfdrv_pci_fn *fn)
{
	struct bpfdrv_dma_buf *buf, *tmp;
	int i;

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
}

__bpf_kfunc_start_defs();

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

	fn = bpfdrv_pci_fn_of(dev, &err);
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

	fn = bpfdrv_pci_fn_of(dev, &err);
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

BTF_KFUNCS_START(bpfdrv_pci_dma_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_dma_buf_alloc, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_dma_alloc, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_dma_buf_free, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_io_to_dma_buf, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_dma_buf_to_io, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_io_to_dma, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_dma_to_io, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_pci_dma_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_pci_dma = {
	.name = "pci_dma",
	.kfuncs = &bpfdrv_pci_dma_kfunc_ids,
};
