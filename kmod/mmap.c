// SPDX-License-Identifier: GPL-2.0
/*
 * mmap of a PCI instance's node (ABI 3): the windows a driver declares in
 * chr_ext_ops.mmaps map its memory BARs (uncached) and its DMA buffer into
 * processes, as uio_pci_generic and vfio-pci do. Bounds, permissions, the
 * MSI-X table, CAP_SYS_RAWIO for BARs and lockdown are checked here on each
 * mmap(), never left to the driver, and no BPF runs under the caller's mmap
 * lock.
 *
 * Mappings are revocable. All files of an instance share one address_space,
 * an inode of a pseudo filesystem (as DRM and vfio have), whatever device
 * node they were opened through. Teardown zaps every mapping of it in every
 * process once no mmap() is in flight, before exit quiesces the device and
 * the BARs or buffer go; an access after that faults, and the fault handler
 * gives SIGBUS, never stale hardware or freed pages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pci.h>
#include <linux/pseudo_fs.h>

#include "bpfdrv.h"

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
int bpfdrv_mmaps_valid(const struct chr_ext_ops *ops)
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
int bpfdrv_mmap_setup(struct bpfdrv_device *bdev)
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
void bpfdrv_mmap_free(struct bpfdrv_device *bdev)
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

/* In teardown, after the drain: no mmap() in flight, none starts. */
void bpfdrv_mmap_revoke(struct bpfdrv_device *bdev)
{
	if (bdev->map_inode)
		unmap_mapping_range(bdev->map_inode->i_mapping, 0, 0, 1);
}

/* Only after a revoke: the pages are gone. */
static vm_fault_t bpfdrv_vm_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct bpfdrv_vm_ops = {
	.fault = bpfdrv_vm_fault,
};

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

/* Does [@start, @end) of BAR @bar touch a page of the MSI-X table or PBA? */
static bool bpfdrv_mmap_hits_msix(struct pci_dev *pdev, int bar, u64 start,
				  u64 end)
{
	static const int regs[] = { PCI_MSIX_TABLE, PCI_MSIX_PBA };
	int i, nvec = pci_msix_vec_count(pdev);
	u64 sizes[] = { (u64)nvec * PCI_MSIX_ENTRY_SIZE,
			BITS_TO_LONGS(nvec) * sizeof(long) };
	u32 val;

	if (nvec <= 0)
		return false;
	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		u64 first, last;

		pci_read_config_dword(pdev, pdev->msix_cap + regs[i], &val);
		if ((val & PCI_MSIX_TABLE_BIR) != bar)
			continue;
		first = round_down(val & PCI_MSIX_TABLE_OFFSET, PAGE_SIZE);
		last = round_up((val & PCI_MSIX_TABLE_OFFSET) + sizes[i], PAGE_SIZE);
		if (start < last && first < end)
			return true;
	}
	return false;
}

static int bpfdrv_mmap_bar(struct bpfdrv_device *bdev,
			   struct vm_area_struct *vma, int bar, u64 roff,
			   u64 len)
{
	struct bpfdrv_pci_fn *fn = bdev->pci;
	struct pci_dev *pdev = fn->pdev;
	resource_size_t start = pci_resource_start(pdev, bar);
	u64 end;

	/* registers usually reach the device's DMA: as /dev/mem and vfio */
	if (!capable(CAP_SYS_RAWIO) || bpfdrv_pci_locked_down())
		return -EPERM;
	if (!fn->bar[bar] || test_bit(bar, &fn->bar_io))
		return -ENXIO;	/* absent, or I/O ports */
	/* a smaller BAR shares its page with others' registers */
	if (!PAGE_ALIGNED(start) || !PAGE_ALIGNED(fn->bar_len[bar]))
		return -ENXIO;
	if (check_add_overflow(roff, len, &end) || end > fn->bar_len[bar])
		return -EINVAL;
	if (bpfdrv_mmap_hits_msix(pdev, bar, roff, end))
		return -EPERM;
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	return io_remap_pfn_range(vma, vma->vm_start, (start + roff) >> PAGE_SHIFT,
				  len, vma->vm_page_prot);
}

static int bpfdrv_mmap_dma(struct bpfdrv_device *bdev,
			   struct vm_area_struct *vma, u64 roff, u64 len)
{
	struct bpfdrv_pci_fn *fn = bdev->pci;
	unsigned long pgoff = vma->vm_pgoff;
	/* pairs with bpfdrv_dma_alloc(): the size is set before the buffer */
	void *cpu = smp_load_acquire(&fn->dma_cpu);
	u64 end;
	int ret;

	if (!cpu)
		return -ENXIO;
	if (check_add_overflow(roff, len, &end) || end > PAGE_ALIGN(fn->dma_size))
		return -EINVAL;
	/* dma_mmap_coherent() maps from the buffer's page vm_pgoff */
	vma->vm_pgoff = roff >> PAGE_SHIFT;
	ret = dma_mmap_coherent(&fn->pdev->dev, vma, cpu, fn->dma_addr,
				fn->dma_size);
	vma->vm_pgoff = pgoff;
	return ret;
}

int bpfdrv_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct bpfdrv_file_kern *f = filp->private_data;
	struct bpfdrv_device *bdev = f->bdev;
	u64 len = vma->vm_end - vma->vm_start;
	const struct bpfdrv_mmap_window *w;
	u64 off, end, roff;
	int ret, idx;

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
	roff = w->region_offset + (off - w->offset);

	vm_flags_clear(vma, VM_MAYEXEC);
	if (!(w->prot & BPFDRV_MAP_WRITE))
		vm_flags_clear(vma, VM_MAYWRITE);	/* nor by mprotect() */
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &bpfdrv_vm_ops;

	idx = srcu_read_lock(&bdev->srcu);
	if (!READ_ONCE(bdev->live) || !bdev->pci)
		ret = -ENODEV;
	else if (w->region < PCI_STD_NUM_BARS)
		ret = bpfdrv_mmap_bar(bdev, vma, w->region, roff, len);
	else
		ret = bpfdrv_mmap_dma(bdev, vma, roff, len);
	srcu_read_unlock(&bdev->srcu, idx);
	return ret;
}
