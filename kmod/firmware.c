// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware files a driver declares (chr_ext_ops.firmware): each instance
 * loads them before its init, with the kernel's firmware loader (its
 * search path, fallback and cache), from bpfdrv/<driver>/<name>. The names
 * are checked at load, so no path leaves that directory; a missing or
 * oversized file refuses the instance, saying which (last_refusal). The
 * files stay loaded while the instance lives, so a reset can load the
 * device again without the filesystem; the driver copies them into a DMA
 * buffer or through a BAR with the kfuncs below.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/ctype.h>
#include <linux/firmware.h>
#include <linux/io.h>
#include <linux/overflow.h>
#include <linux/sched.h>

#include "allow.h"
#include "bpfdrv.h"
#include "kfuncs.h"
#include "parts.h"
#include "pci.h"

static unsigned int firmware_max_kib = 16384;
module_param(firmware_max_kib, uint, 0644);
MODULE_PARM_DESC(firmware_max_kib,
		 "Largest firmware file a driver may declare, in KiB (default: 16384)");

/* A name stays in its driver's directory: no '/', no leading '.'. */
static bool bpfdrv_fw_name_ok(const char *name)
{
	size_t len = strnlen(name, BPFDRV_FIRMWARE_NAME_MAX);
	size_t i;

	if (!len || len == BPFDRV_FIRMWARE_NAME_MAX || name[0] == '.')
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("._-", name[i]))
			return false;
	return true;
}

static int bpfdrv_fw_valid(const struct chr_ext_ops *ops)
{
	bool ended = false;
	int i;

	for (i = 0; i < BPFDRV_MAX_FIRMWARE; i++) {
		const char *name = ops->firmware[i];

		if (!name[0] && !memchr_inv(name, 0, BPFDRV_FIRMWARE_NAME_MAX)) {
			ended = true;
			continue;
		}
		if (ended)
			return bpfdrv_refuse_err(-EINVAL,
						 "%s: firmware[%d] follows an empty name (the list ends at the first)",
						 ops->name, i);
		if (!bpfdrv_fw_name_ok(name))
			return bpfdrv_refuse_err(-EINVAL,
						 "%s: firmware[%d] \"%.*s\": a name is letters, digits, '.', '_' and '-', not starting with '.', at most %d characters",
						 ops->name, i, BPFDRV_FIRMWARE_NAME_MAX, name,
						 BPFDRV_FIRMWARE_NAME_MAX - 1);
	}
	return 0;
}

static void bpfdrv_fw_release(struct bpfdrv_device *bdev)
{
	int i;

	for (i = 0; i < BPFDRV_MAX_FIRMWARE; i++) {
		release_firmware(bdev->fw[i]);
		bdev->fw[i] = NULL;
	}
}

/* Before init: every declared file, or the instance is refused. */
static int bpfdrv_fw_claim(struct bpfdrv_device *bdev)
{
	struct device *dev = bdev->dev.parent ?: &bdev->dev;
	const struct chr_ext_ops *ops = bdev->ops;
	char path[BPFDRV_NAME_MAX + BPFDRV_FIRMWARE_NAME_MAX + 8];
	int i, ret;

	for (i = 0; i < BPFDRV_MAX_FIRMWARE && ops->firmware[i][0]; i++) {
		snprintf(path, sizeof(path), "bpfdrv/%s/%s", bdev->drv->name,
			 ops->firmware[i]);
		ret = firmware_request_nowarn(&bdev->fw[i], path, dev);
		if (ret) {
			bdev->fw[i] = NULL;
			ret = bpfdrv_refuse_err(ret, "%s: firmware %s: %s",
						bdev->pub.name, path,
						ret == -ENOENT ?
						"no such file where the firmware loader looks" :
						"the firmware loader failed");
			goto err;
		}
		if (bdev->fw[i]->size > (size_t)READ_ONCE(firmware_max_kib) * SZ_1K) {
			ret = bpfdrv_refuse_err(-EFBIG,
						"%s: firmware %s is %zu bytes, more than firmware_max_kib (%u KiB)",
						bdev->pub.name, path, bdev->fw[i]->size,
						READ_ONCE(firmware_max_kib));
			goto err;
		}
	}
	return 0;
err:
	bpfdrv_fw_release(bdev);
	return ret;
}

/* [@off, @off + @len) of the instance's file @fw, or NULL with *err set. */
static const u8 *bpfdrv_fw_span(struct bpfdrv_dev *dev, u32 fw, u64 off,
				u64 len, int *err)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);
	u64 end;

	*err = -ENOENT;
	if (fw >= BPFDRV_MAX_FIRMWARE || !bdev->fw[fw])
		return NULL;
	*err = -ERANGE;
	if (check_add_overflow(off, len, &end) || end > bdev->fw[fw]->size)
		return NULL;
	return bdev->fw[fw]->data + off;
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_fw_size - the size of one of the driver's firmware files (ABI 13)
 * @dev: the instance
 * @fw: its index in chr_ext_ops.firmware
 *
 * Return: its size in bytes, or -ENOENT if the driver declared no file @fw.
 */
__bpf_kfunc s64 bpfdrv_fw_size(struct bpfdrv_dev *dev, u32 fw)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);

	if (fw >= BPFDRV_MAX_FIRMWARE || !bdev->fw[fw])
		return -ENOENT;
	return bdev->fw[fw]->size;
}

/**
 * bpfdrv_fw_to_dma_buf - copy part of a firmware file into a DMA buffer
 *	(ABI 13)
 * @dev: the instance
 * @fw: the file's index in chr_ext_ops.firmware
 * @fw_off: where to start in the file
 * @pos: BPFDRV_DMA_POS(buffer, offset in it)
 * @len: bytes
 *
 * The device then reads the buffer by DMA, as the driver programs it.
 * Sleepable programs only.
 *
 * Return: 0, -ENOENT (no file @fw), -ERANGE (either range out of bounds:
 * nothing copied), -ENOMEM (no such buffer), -EINVAL, -ENODEV, -EPERM.
 */
__bpf_kfunc int bpfdrv_fw_to_dma_buf(struct bpfdrv_dev *dev, u32 fw,
				     u64 fw_off, u64 pos, u32 len)
{
	const u8 *src;
	void *dst;
	int err;

	src = bpfdrv_fw_span(dev, fw, fw_off, len, &err);
	if (!src)
		return err;
	dst = bpfdrv_pci_dma_span(dev, pos, len, &err);
	if (!dst)
		return err;
	memcpy(dst, src, len);
	return 0;
}

/* bytes written through a BAR between two chances to reschedule */
#define BPFDRV_FW_BAR_CHUNK	SZ_64K

/**
 * bpfdrv_fw_to_bar - write part of a firmware file through a memory BAR
 *	(ABI 13)
 * @dev: the instance
 * @fw: the file's index in chr_ext_ops.firmware
 * @fw_off: where to start in the file
 * @pos: BPFDRV_BAR_POS(BAR, offset in it): a memory BAR, 0-5
 * @len: bytes
 *
 * Never into the function's MSI-X table or PBA. Sleepable programs only.
 *
 * Return: 0, -ENOENT (no file @fw), -ERANGE (out of the file or the BAR:
 * nothing written), -ENXIO (no such memory BAR), -EACCES (the range
 * touches the MSI-X table or PBA), -EINTR (killed: part written),
 * -ENODEV, -EPERM.
 */
__bpf_kfunc int bpfdrv_fw_to_bar(struct bpfdrv_dev *dev, u32 fw, u64 fw_off,
				 u64 pos, u32 len)
{
	void __iomem *dst;
	const u8 *src;
	u32 done, n;
	int err;

	src = bpfdrv_fw_span(dev, fw, fw_off, len, &err);
	if (!src)
		return err;
	dst = bpfdrv_pci_bar_span(dev, pos >> 56, pos & (BIT_ULL(56) - 1), len,
				  &err);
	if (!dst)
		return err;
	for (done = 0; done < len; done += n) {
		n = min_t(u32, len - done, BPFDRV_FW_BAR_CHUNK);
		memcpy_toio(dst + done, src + done, n);
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_fw_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_fw_size, KF_TRUSTED_ARGS)
BTF_ID_FLAGS(func, bpfdrv_fw_to_dma_buf, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_fw_to_bar, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_fw_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_firmware = {
	.name = "firmware",
	.kfuncs = &bpfdrv_fw_kfunc_ids,
	.valid = bpfdrv_fw_valid,
	.claim = bpfdrv_fw_claim,
	.release = bpfdrv_fw_release,
};
