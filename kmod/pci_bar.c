// SPDX-License-Identifier: GPL-2.0
/*
 * Register access for the instance's own PCI function: config space (reads
 * anywhere, writes to a few harmless fields) and its BARs, memory or I/O
 * ports, bounds-checked; nothing while the kernel is locked down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/io.h>
#include <linux/overflow.h>
#include <linux/pci.h>

#include "bpfdrv.h"
#include "pci.h"
#include "parts.h"
#include "kfuncs.h"

/* PCI_COMMAND bits a driver may change; the rest stay as the kernel set them. */
#define BPFDRV_CMD_WRITABLE	(PCI_COMMAND_MASTER | PCI_COMMAND_PARITY | \
				 PCI_COMMAND_SERR | PCI_COMMAND_INTX_DISABLE)
/* PCI_STATUS error bits, write-one-to-clear. */
#define BPFDRV_STATUS_W1C	(PCI_STATUS_DETECTED_PARITY | \
				 PCI_STATUS_SIG_SYSTEM_ERROR | \
				 PCI_STATUS_REC_MASTER_ABORT | \
				 PCI_STATUS_REC_TARGET_ABORT | \
				 PCI_STATUS_SIG_TARGET_ABORT | \
				 PCI_STATUS_PARITY)

/* The instance's function, or NULL if it has none or lockdown forbids it. */
struct bpfdrv_pci_fn *bpfdrv_pci_fn_of(struct bpfdrv_dev *dev, int *err)
{
	struct bpfdrv_pci_fn *fn = to_bpfdrv_device(dev)->active_fn;

	*err = -ENODEV;
	if (!fn)
		return NULL;
	*err = -EPERM;
	if (bpfdrv_pci_locked_down())
		return NULL;
	return fn;
}

/*
 * Where the function's MSI-X table and PBA are (fixed by the hardware),
 * read once at bind: the writes below are checked against them.
 */
void bpfdrv_pci_msix_find(struct bpfdrv_pci_fn *fn)
{
	static const int regs[] = { PCI_MSIX_TABLE, PCI_MSIX_PBA };
	struct pci_dev *pdev = fn->pdev;
	int i, nvec = pci_msix_vec_count(pdev);
	u64 sizes[] = { (u64)nvec * PCI_MSIX_ENTRY_SIZE,
			BITS_TO_LONGS(nvec) * sizeof(long) };
	u32 val;

	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		fn->msix[i].bar = -1;
		if (nvec <= 0)
			continue;
		pci_read_config_dword(pdev, pdev->msix_cap + regs[i], &val);
		fn->msix[i].bar = val & PCI_MSIX_TABLE_BIR;
		fn->msix[i].start = val & PCI_MSIX_TABLE_OFFSET;
		fn->msix[i].end = fn->msix[i].start + sizes[i];
	}
}

/*
 * Does [@start, @end) of BAR @bar touch the function's MSI-X table or PBA,
 * each widened to multiples of @granule (a page for mmap)? A driver that
 * could write them would aim the device's interrupt messages anywhere.
 */
bool bpfdrv_pci_msix_hit(const struct bpfdrv_pci_fn *fn, int bar, u64 start,
			 u64 end, u64 granule)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fn->msix); i++) {
		if (fn->msix[i].bar != bar)
			continue;
		if (start < round_up(fn->msix[i].end, granule) &&
		    round_down(fn->msix[i].start, granule) < end)
			return true;
	}
	return false;
}

/*
 * [@off, @off + @len) of memory BAR @bar, outside the MSI-X table and
 * PBA, for bulk writes (firmware.c); NULL with *err set.
 */
void __iomem *bpfdrv_pci_bar_span(struct bpfdrv_dev *dev, u32 bar, u64 off,
				  u64 len, int *err)
{
	struct bpfdrv_pci_fn *fn = bpfdrv_pci_fn_of(dev, err);
	u64 end;

	if (!fn)
		return NULL;
	*err = -ENXIO;
	if (bar >= PCI_STD_NUM_BARS || !fn->bar[bar] || test_bit(bar, &fn->bar_io))
		return NULL;
	*err = -ERANGE;
	if (check_add_overflow(off, len, &end) || end > fn->bar_len[bar])
		return NULL;
	*err = -EACCES;
	if (bpfdrv_pci_msix_hit(fn, bar, off, end, 1))
		return NULL;
	return fn->bar[bar] + off;
}

/* An access of @size bytes at @off inside a region of @len bytes, aligned. */
static bool bpfdrv_access_ok(u64 off, u32 size, u64 len)
{
	u64 end;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return false;
	return !(off & (size - 1)) && !check_add_overflow(off, (u64)size, &end) &&
	       end <= len;
}

/* The mapped address of a checked BAR access, or NULL with *err set. */
static void __iomem *bpfdrv_mmio_addr(struct bpfdrv_dev *dev, u32 bar, u64 off,
				      u32 size, int *err)
{
	struct bpfdrv_pci_fn *fn = bpfdrv_pci_fn_of(dev, err);

	if (!fn)
		return NULL;
	*err = -EINVAL;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return NULL;
	*err = -ENXIO;
	if (bar >= PCI_STD_NUM_BARS || !fn->bar[bar])
		return NULL;
	*err = -EINVAL;		/* ports are 1, 2 or 4 bytes wide */
	if (size == 8 && test_bit(bar, &fn->bar_io))
		return NULL;
	*err = -ERANGE;
	if (!bpfdrv_access_ok(off, size, fn->bar_len[bar]))
		return NULL;
	return fn->bar[bar] + off;
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_pci_cfg_read - read the instance's PCI configuration space
 * @dev: the instance
 * @off: offset, aligned to @size
 * @size: 1, 2 or 4 bytes
 * @val: where the value goes
 *
 * Return: 0, -EINVAL for a bad size, alignment or offset, -ENODEV for an
 * instance without a PCI function, -EPERM under lockdown.
 */
__bpf_kfunc int bpfdrv_pci_cfg_read(struct bpfdrv_dev *dev, u32 off, u32 size,
				    u32 *val)
{
	struct bpfdrv_pci_fn *fn;
	int err;
	u16 w;
	u8 b;

	*val = 0;
	fn = bpfdrv_pci_fn_of(dev, &err);
	if (!fn)
		return err;
	if (size == 8 || !bpfdrv_access_ok(off, size, fn->pdev->cfg_size))
		return -EINVAL;
	switch (size) {
	case 1:
		err = pci_read_config_byte(fn->pdev, off, &b);
		*val = b;
		break;
	case 2:
		err = pci_read_config_word(fn->pdev, off, &w);
		*val = w;
		break;
	default:
		err = pci_read_config_dword(fn->pdev, off, val);
	}
	return pcibios_err_to_errno(err);
}

/**
 * bpfdrv_pci_cfg_write - write one of the few config fields a driver owns
 * @dev: the instance
 * @off: PCI_COMMAND or PCI_STATUS
 * @size: 2
 * @val: the new value
 *
 * PCI_COMMAND: only bus mastering (as bpfdrv_pci_set_master() allows it),
 * parity and SERR reporting and INTx disable may change (INTx disable is
 * left to bpfdrv where it masks a shared INTx line per interrupt); PCI_STATUS:
 * write-one-to-clear error bits. BARs, capabilities (MSI, power
 * management) and the rest stay the kernel's.
 *
 * Return: 0, -EPERM for any other field or bit (or lockdown), -EINVAL for a
 * bad size, -ENODEV for an instance without a PCI function.
 */
__bpf_kfunc int bpfdrv_pci_cfg_write(struct bpfdrv_dev *dev, u32 off, u32 size,
				     u32 val)
{
	struct bpfdrv_pci_fn *fn;
	u16 cmd, mine;
	int err;

	fn = bpfdrv_pci_fn_of(dev, &err);
	if (!fn)
		return err;
	if (size != 2)
		return off == PCI_COMMAND || off == PCI_STATUS ? -EINVAL : -EPERM;
	switch (off) {
	case PCI_COMMAND:
		err = pci_read_config_word(fn->pdev, PCI_COMMAND, &cmd);
		if (err)
			return pcibios_err_to_errno(err);
		if ((val ^ cmd) & ~BPFDRV_CMD_WRITABLE & 0xffff || val > 0xffff)
			return -EPERM;
		/* bus mastering is DMA: only the one way, confined or opted in */
		if (val & ~cmd & PCI_COMMAND_MASTER) {
			err = bpfdrv_pci_set_master(fn);
			if (err)
				return err;
		}
		/* under the handlers' lock; INTx masking may be bpfdrv's */
		mine = BPFDRV_CMD_WRITABLE;
		if (fn->intx_masked)
			mine &= ~PCI_COMMAND_INTX_DISABLE;
		return bpfdrv_pci_cmd_update(fn, mine & ~val, mine & val);
	case PCI_STATUS:
		if (val & ~BPFDRV_STATUS_W1C)
			return -EPERM;
		return pcibios_err_to_errno(pci_write_config_word(fn->pdev, off, val));
	}
	return -EPERM;
}

/**
 * bpfdrv_pci_bar_len - length of one of the instance's BARs
 * @dev: the instance
 * @bar: BAR number, 0-5
 *
 * Return: the length in bytes (of a memory or I/O-port BAR), -ENXIO for an
 * absent BAR,
 * -ENODEV for an instance without a PCI function, -EPERM under lockdown.
 */
__bpf_kfunc s64 bpfdrv_pci_bar_len(struct bpfdrv_dev *dev, u32 bar)
{
	struct bpfdrv_pci_fn *fn;
	int err;

	fn = bpfdrv_pci_fn_of(dev, &err);
	if (!fn)
		return err;
	if (bar >= PCI_STD_NUM_BARS || !fn->bar[bar])
		return -ENXIO;
	return fn->bar_len[bar];
}

/**
 * bpfdrv_mmio_read - read a device register in a memory or I/O-port BAR
 * @dev: the instance
 * @bar: BAR number, 0-5
 * @off: byte offset in the BAR, aligned to @size
 * @size: 1, 2, 4 or 8 bytes (8 only in a memory BAR)
 * @val: where the value goes (0 on error)
 *
 * Return: 0, -ERANGE if [@off, @off + @size) is outside the BAR or
 * misaligned (nothing is read), -EINVAL for a bad size, -ENXIO for an
 * absent BAR, -ENODEV, -EPERM under lockdown.
 */
__bpf_kfunc int bpfdrv_mmio_read(struct bpfdrv_dev *dev, u32 bar, u64 off,
				 u32 size, u64 *val)
{
	void __iomem *p;
	int err;

	*val = 0;
	p = bpfdrv_mmio_addr(dev, bar, off, size, &err);
	if (!p)
		return err;
	if (bpfdrv_pci_msix_hit(to_bpfdrv_device(dev)->active_fn, bar, off,
				off + size, 1))
		return -EACCES;
	if (test_bit(bar, &to_bpfdrv_device(dev)->active_fn->bar_io)) {
		/* an I/O-port cookie from pci_iomap(): ioread*() does in/out */
		*val = size == 1 ? ioread8(p) : size == 2 ? ioread16(p) : ioread32(p);
		return 0;
	}
	switch (size) {
	case 1:
		*val = readb(p);
		break;
	case 2:
		*val = readw(p);
		break;
	case 4:
		*val = readl(p);
		break;
	default:
		*val = readq(p);
	}
	return 0;
}

/**
 * bpfdrv_mmio_write - write a device register in a memory or I/O-port BAR
 * @dev: the instance
 * @bar: BAR number, 0-5
 * @off: byte offset in the BAR, aligned to @size
 * @size: 1, 2, 4 or 8 bytes
 * @val: the value (its low @size bytes)
 *
 * Return: as bpfdrv_mmio_read(); nothing is written on error.
 */
__bpf_kfunc int bpfdrv_mmio_write(struct bpfdrv_dev *dev, u32 bar, u64 off,
				  u32 size, u64 val)
{
	void __iomem *p;
	int err;

	p = bpfdrv_mmio_addr(dev, bar, off, size, &err);
	if (!p)
		return err;
	if (bpfdrv_pci_msix_hit(to_bpfdrv_device(dev)->active_fn, bar, off,
				off + size, 1))
		return -EACCES;
	if (test_bit(bar, &to_bpfdrv_device(dev)->active_fn->bar_io)) {
		if (size == 1)
			iowrite8(val, p);
		else if (size == 2)
			iowrite16(val, p);
		else
			iowrite32(val, p);
		return 0;
	}
	switch (size) {
	case 1:
		writeb(val, p);
		break;
	case 2:
		writew(val, p);
		break;
	case 4:
		writel(val, p);
		break;
	default:
		writeq(val, p);
	}
	return 0;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_pci_bar_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_pci_cfg_read, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_pci_cfg_write, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_pci_bar_len, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_mmio_read, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_mmio_write, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(bpfdrv_pci_bar_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_pci_bar = {
	.name = "pci_bar",
	.kfuncs = &bpfdrv_pci_bar_kfunc_ids,
};
