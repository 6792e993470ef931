// SPDX-License-Identifier: GPL-2.0
/*
 * mmap of a PCI instance's node (ABI 3): the windows a driver declares in
 * chr_ext_ops.mmaps map its memory BARs (uncached) and DMA buffers into
 * processes, as uio_pci_generic and vfio-pci do. Bounds, permissions, the
 * MSI-X table, CAP_SYS_RAWIO for BARs and lockdown are checked here on each
 * mmap(), never left to the driver, and no BPF runs under the caller's mmap
 * lock.
 *
 * Mappings are revocable. All files of an instance share one address_space,
 * an inode of a pseudo filesystem (as DRM and vfio have), whatever device
 * node they were opened through. Pages are inserted by the fault handler,
 * as vfio-pci does, only while the instance is live; teardown waits for
 * faults in flight, then zaps every mapping of it in every process, before
 * exit quiesces the device and the BARs or buffer go. An access after that
 * gets SIGBUS, never stale hardware or freed pages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cc_platform.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pci.h>
#include <linux/pseudo_fs.h>

#include "bpfdrv.h"
#include "mmap.h"
#include "pci.h"
#include "parts.h"

#define BPFDRV_FS_MAGIC		0x62706664	/* "bpfd" */

static struct vfsmount *bpfdrv_fs_mnt;
static int bpfdrv_fs_count;

static int bpfdrv_fs_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, BPFDRV_FS_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type bpfdrv_fs_type = {
	.name = "bpfdrv",
	.owner = THIS_MODULE,
	.init_fs_context = bpfdrv_fs_init_fs_context,
	.kill_sb = kill_anon_super,
};

static bool bpfdrv_mmap_prot_valid(u32 prot)
{
	return prot == BPFDRV_MAP_READ ||
	       prot == (BPFDRV_MAP_READ | BPFDRV_MAP_WRITE);
}

/* Checks at load: a PCI driver, known regions and prots, aligned, in order. */
static int bpfdrv_mmaps_valid(const struct chr_ext_ops *ops)
{
	const struct bpfdrv_mmap_window *w = ops->mmaps;
	unsigned int i, n;
	u64 end = 0;

	for (n = 0; n < BPFDRV_MAX_MMAPS && w[n].prot; n++)
		;
	for (i = n; i < BPFDRV_MAX_MMAPS; i++) {
		if (memchr_inv(&w[i], 0, sizeof(w[i]))) {
			pr_info("driver %s: mmap window %u follows the end of its mmaps (an entry with prot 0)\n",
				ops->name, i);
			return -EINVAL;
		}
	}
	if (n && !bpfdrv_driver_is_pci(ops)) {
		pr_info("driver %s: mmap windows need a PCI driver (pci_ids or pci_slot)\n",
			ops->name);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		u32 r = w[i].region;

		if (!bpfdrv_mmap_prot_valid(w[i].prot)) {
			pr_info("driver %s: mmap window %u: prot %#x (want READ or READ|WRITE)\n",
				ops->name, i, w[i].prot);
			return -EINVAL;
		}
		if (r >= PCI_STD_NUM_BARS &&
		    (r < BPFDRV_REGION_DMA(0) ||
		     r >= BPFDRV_REGION_DMA(BPFDRV_MAX_DMA_BUFS))) {
			pr_info("driver %s: mmap window %u: unknown region %u\n",
				ops->name, i, r);
			return -EINVAL;
		}
		if (!PAGE_ALIGNED(w[i].offset) || !PAGE_ALIGNED(w[i].len) ||
		    !PAGE_ALIGNED(w[i].region_offset)) {
			pr_info("driver %s: mmap window %u: offset, region_offset and len must be multiples of %lu\n",
				ops->name, i, PAGE_SIZE);
			return -EINVAL;
		}
		if (i && w[i].offset < end) {
			pr_info("driver %s: mmap window %u overlaps the one before (windows go in increasing offset order)\n",
				ops->name, i);
			return -EINVAL;
		}
		/* a window of len 0 ends at the next one */
		if (w[i].len && check_add_overflow(w[i].offset, w[i].len, &end)) {
			pr_info("driver %s: mmap window %u: offset + len overflows\n",
				ops->name, i);
			return -EINVAL;
		}
		if (!w[i].len)
			end = w[i].offset + 1;
	}
	return 0;
}

/* Before the node exists: the instance's address_space, if it maps. */
static int bpfdrv_mmap_setup(struct bpfdrv_device *bdev)
{
	struct inode *inode;
	int ret;

	memcpy(bdev->mmaps, bdev->ops->mmaps, sizeof(bdev->mmaps));
	if (!bdev->mmaps[0].prot)
		return 0;
	ret = simple_pin_fs(&bpfdrv_fs_type, &bpfdrv_fs_mnt, &bpfdrv_fs_count);
	if (ret)
		return ret;
	inode = alloc_anon_inode(bpfdrv_fs_mnt->mnt_sb);
	if (IS_ERR(inode)) {
		simple_release_fs(&bpfdrv_fs_mnt, &bpfdrv_fs_count);
		return PTR_ERR(inode);
	}
	bdev->map_inode = inode;
	return 0;
}

/* At the instance's release, when no file (and so no mapping) is left. */
static void bpfdrv_mmap_free(struct bpfdrv_device *bdev)
{
	if (!bdev->map_inode)
		return;
	iput(bdev->map_inode);
	simple_release_fs(&bpfdrv_fs_mnt, &bpfdrv_fs_count);
}

/* Every file of the instance maps through its address_space. */
void bpfdrv_mmap_open(struct bpfdrv_device *bdev, struct file *filp)
{
	if (bdev->map_inode)
		filp->f_mapping = bdev->map_inode->i_mapping;
}

/*
 * Zap every mapping of the instance. In teardown, after the drain: no
 * fault is in flight, and later ones see the instance dead. When a DMA
 * buffer is freed: later faults find it gone, and the pages of what is
 * still there fault back in.
 */
void bpfdrv_mmap_revoke(struct bpfdrv_device *bdev)
{
	if (bdev->map_inode)
		unmap_mapping_range(bdev->map_inode->i_mapping, 0, 0, 1);
}

/* The window holding node offset @off, and where it ends; NULL if none. */
static const struct bpfdrv_mmap_window *
bpfdrv_mmap_window(struct bpfdrv_device *bdev, u64 off, u64 *end)
{
	const struct bpfdrv_mmap_window *w = NULL;
	unsigned int i;

	for (i = 0; i < BPFDRV_MAX_MMAPS && bdev->mmaps[i].prot; i++) {
		if (bdev->mmaps[i].offset > off)
			break;
		w = &bdev->mmaps[i];
	}
	if (!w)
		return NULL;
	if (w->len)
		*end = w->offset + w->len;
	else if (i < BPFDRV_MAX_MMAPS && bdev->mmaps[i].prot)
		*end = bdev->mmaps[i].offset;
	else
		*end = U64_MAX;
	return off < *end ? w : NULL;
}

/*
 * Check [@roff, @roff + @len) of @region as it is now and give the pfn of
 * its first page; under the instance's srcu, while it is live, and under
 * fn->dma_lock, which DMA buffers change under.
 */
static int bpfdrv_region_pfn(struct bpfdrv_device *bdev, u32 region, u64 roff,
			     u64 len, unsigned long *pfn)
{
	struct bpfdrv_pci_fn *fn = bdev->active_fn;
	u64 end;

	if (check_add_overflow(roff, len, &end))
		return -EINVAL;
	if (region < PCI_STD_NUM_BARS) {
		resource_size_t start = pci_resource_start(fn->pdev, region);

		if (!fn->bar[region] || test_bit(region, &fn->bar_io))
			return -ENXIO;	/* absent, or I/O ports */
		/* a smaller BAR shares its page with others' registers */
		if (!PAGE_ALIGNED(start) || !PAGE_ALIGNED(fn->bar_len[region]))
			return -ENXIO;
		if (end > fn->bar_len[region])
			return -EINVAL;
		if (bpfdrv_pci_msix_hit(fn, region, roff, end, PAGE_SIZE))
			return -EPERM;
		*pfn = (start + roff) >> PAGE_SHIFT;
	} else {
		struct bpfdrv_dma_buf *buf = &fn->dma[region - BPFDRV_REGION_DMA(0)];
		void *cpu = buf->cpu;

		lockdep_assert_held(&fn->dma_lock);
		if (!cpu)
			return -ENXIO;
		if (end > PAGE_ALIGN(buf->size))
			return -EINVAL;
		cpu += roff;
		*pfn = is_vmalloc_addr(cpu) ? vmalloc_to_pfn(cpu) : PHYS_PFN(virt_to_phys(cpu));
	}
	return 0;
}

/*
 * Pages are inserted on first access, under the instance's srcu: a fault
 * after the teardown's drain sees it dead and gets SIGBUS, so no page is
 * mapped behind the revoke's back (mmap() itself maps nothing, because the
 * new mapping is only linked, and reachable by the revoke, after it).
 */
static vm_fault_t bpfdrv_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct bpfdrv_file_kern *f = vma->vm_file->private_data;
	struct bpfdrv_device *bdev = f->bdev;
	u64 off = (u64)vmf->pgoff << PAGE_SHIFT;
	const struct bpfdrv_mmap_window *w;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	struct bpfdrv_pin pin;
	unsigned long pfn;
	u64 roff;
	u64 end;

	pin = bpfdrv_pin(bdev);
	w = bpfdrv_mmap_window(bdev, off, &end);
	/* a region_offset near U64_MAX must not wrap to the region's start */
	if (w && bpfdrv_live(bdev) && bdev->active_fn &&
	    !check_add_overflow(w->region_offset, off - w->offset, &roff) &&
	    (w->region >= PCI_STD_NUM_BARS || !bpfdrv_pci_pm_fault(bdev))) {
		mutex_lock(&bdev->active_fn->dma_lock);
		if (!bpfdrv_region_pfn(bdev, w->region, roff, PAGE_SIZE, &pfn))
			ret = vmf_insert_pfn(vma, vmf->address, pfn);
		mutex_unlock(&bdev->active_fn->dma_lock);
	}
	bpfdrv_unpin(bdev, pin);
	return ret;
}

static const struct vm_operations_struct bpfdrv_vm_ops = {
	.fault = bpfdrv_vm_fault,
};

/*
 * A BAR window's mapping keeps its function out of runtime suspend
 * (pci_pm.c): a process may be driving the device through it, which no
 * call shows. Forks and splits open more; each close lets go of one.
 */
static void bpfdrv_vm_bar_open(struct vm_area_struct *vma)
{
	struct bpfdrv_file_kern *f = vma->vm_file->private_data;

	bpfdrv_pci_pm_map(f->bdev, true);
}

static void bpfdrv_vm_bar_close(struct vm_area_struct *vma)
{
	struct bpfdrv_file_kern *f = vma->vm_file->private_data;

	bpfdrv_pci_pm_map(f->bdev, false);
}

static const struct vm_operations_struct bpfdrv_vm_bar_ops = {
	.open = bpfdrv_vm_bar_open,
	.close = bpfdrv_vm_bar_close,
	.fault = bpfdrv_vm_fault,
};

/*
 * DMA buffers reach user space by PFN with the mapping's own attributes,
 * inserted at fault time so that the revoke never misses a page
 * (dma_mmap_coherent() maps at mmap() time, before the mapping is
 * reachable by the revoke). That is right only where a coherent buffer is
 * plain cached memory: x86, whose PCI DMA is coherent, without memory
 * encryption (there the buffer is decrypted, and user space would need
 * pgprot_decrypted(), which dma_pgprot() knows and modules cannot call).
 */
static bool bpfdrv_dma_mmap_ok(void)
{
	return IS_ENABLED(CONFIG_X86) && !cc_platform_has(CC_ATTR_MEM_ENCRYPT);
}

int bpfdrv_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	struct bpfdrv_device *bdev = f->bdev;
	u64 len = vma->vm_end - vma->vm_start;
	const struct bpfdrv_mmap_window *w;
	unsigned long pfn;
	u64 off, end, roff;
	struct bpfdrv_pin pin;
	int ret;

	if (!bdev->map_inode)
		return -ENODEV;
	/*
	 * Private copies of device memory make no sense; nor does exec.
	 * VM_MAYSHARE: a shared mapping of a read-only file lacks VM_SHARED.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE) || (vma->vm_flags & VM_EXEC))
		return -EINVAL;
	if (vma->vm_pgoff > U64_MAX >> PAGE_SHIFT)
		return -EINVAL;
	off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	w = bpfdrv_mmap_window(bdev, off, &end);
	if (!w || len > end - off)
		return -EINVAL;
	if ((vma->vm_flags & VM_WRITE) && !(w->prot & BPFDRV_MAP_WRITE))
		return -EACCES;
	/* registers usually reach the device's DMA: as /dev/mem and vfio */
	if (w->region < PCI_STD_NUM_BARS &&
	    (!capable(CAP_SYS_RAWIO) || bpfdrv_pci_locked_down()))
		return -EPERM;
	if (w->region >= PCI_STD_NUM_BARS && !bpfdrv_dma_mmap_ok()) {
		dev_info_ratelimited(&bdev->dev, "DMA buffers are not mapped to user space with memory encryption or on this architecture\n");
		return -EOPNOTSUPP;
	}

	pin = bpfdrv_pin(bdev);
	ret = -ENODEV;
	if (bpfdrv_live(bdev) && bdev->active_fn &&
	    !check_add_overflow(w->region_offset, off - w->offset, &roff)) {
		mutex_lock(&bdev->active_fn->dma_lock);
		ret = bpfdrv_region_pfn(bdev, w->region, roff, len, &pfn);
		mutex_unlock(&bdev->active_fn->dma_lock);
	}
	bpfdrv_unpin(bdev, pin);
	if (ret)
		return ret;

	vm_flags_clear(vma, VM_MAYEXEC);
	if (!(w->prot & BPFDRV_MAP_WRITE))
		vm_flags_clear(vma, VM_MAYWRITE);	/* nor by mprotect() */
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &bpfdrv_vm_ops;
	if (w->region < PCI_STD_NUM_BARS) {
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
		vma->vm_ops = &bpfdrv_vm_bar_ops;
		bpfdrv_pci_pm_map(bdev, true);
	}
	return 0;
}

const struct bpfdrv_part bpfdrv_part_mmap = {
	.name = "mmap",
	.valid = bpfdrv_mmaps_valid,
	.claim = bpfdrv_mmap_setup,
	.revoke = bpfdrv_mmap_revoke,
	.free = bpfdrv_mmap_free,
};
