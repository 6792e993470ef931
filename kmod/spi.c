// SPDX-License-Identifier: GPL-2.0
/*
 * The SPI device of a BPF driver: chr_ext_ops names a controller by its
 * parent device (a platform device or a PCI function; a trailing '*'
 * matches any name that starts as the rest), a chip select, a mode and a
 * clock. When an instance is made, bpfdrv registers a SPI device of its own
 * there (modalias "bpfdrv", which no driver claims), so the chip select is
 * busy for everyone else; the bpfdrv_spi_* kfuncs reach that device only.
 *
 * The device is held (hold.c): when the controller goes (its driver
 * unbound, its parent gone), it unregisters the device, which revokes the
 * hold: the transfers in flight end, the later ones fail with ENODEV (a
 * reference keeps the device's memory), and the driver is ejected.
 * Otherwise the device is unregistered after exit, under the controller's
 * add_lock, which its removal holds while it unregisters its devices: one
 * of the two does it, once. Transfers go through a
 * kernel bounce buffer: program memory may be on a stack, which is no
 * place for DMA.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>

#include "bpfdrv.h"
#include "hold.h"
#include "parts.h"
#include "kfuncs.h"

static_assert(BPFDRV_SPI_CPHA == SPI_CPHA && BPFDRV_SPI_CPOL == SPI_CPOL &&
	      BPFDRV_SPI_CS_HIGH == SPI_CS_HIGH &&
	      BPFDRV_SPI_LSB_FIRST == SPI_LSB_FIRST);

#define BPFDRV_SPI_MODALIAS	"bpfdrv"
/* The class of SPI host controllers (/sys/class/spi_master). */
#define BPFDRV_SPI_HOST_CLASS	"spi_master"

/* Checks at load: a known mode, a chip select in range, a name that fits. */
static int bpfdrv_spi_valid(const struct chr_ext_ops *ops)
{
	if (strnlen(ops->spi_controller, BPFDRV_SPI_CONTROLLER_MAX) ==
	    BPFDRV_SPI_CONTROLLER_MAX) {
		pr_info("driver %s: spi_controller is not NUL-terminated\n",
			ops->name);
		return -EINVAL;
	}
	if (!ops->spi_controller[0]) {
		if (ops->spi_cs || ops->spi_mode || ops->spi_max_speed_hz) {
			pr_info("driver %s: a SPI chip select, mode or clock needs spi_controller\n",
				ops->name);
			return -EINVAL;
		}
		return 0;
	}
	if (ops->spi_mode & ~BPFDRV_SPI_MODE_MASK) {
		pr_info("driver %s: SPI mode 0x%x has unknown bits (known: 0x%x)\n",
			ops->name, ops->spi_mode, BPFDRV_SPI_MODE_MASK);
		return -EINVAL;
	}
	if (ops->spi_cs > BPFDRV_SPI_CS_MAX) {
		pr_info("driver %s: SPI chip select %u is out of range (0-%d)\n",
			ops->name, ops->spi_cs, BPFDRV_SPI_CS_MAX);
		return -EINVAL;
	}
	return 0;
}

static int bpfdrv_spi_is_host(struct device *dev, void *data)
{
	struct device **host = data;

	if (!dev->class || strcmp(dev->class->name, BPFDRV_SPI_HOST_CLASS))
		return 0;
	*host = get_device(dev);
	return 1;
}

/* The SPI host controller under @parent, referenced, or NULL. */
static struct spi_controller *bpfdrv_spi_host_of(struct device *parent)
{
	struct device *host = NULL;

	device_for_each_child(parent, &host, bpfdrv_spi_is_host);
	return host ? container_of(host, struct spi_controller, dev) : NULL;
}

static int bpfdrv_spi_parent_matches(struct device *dev, const void *pattern)
{
	struct spi_controller *ctlr;

	if (!bpfdrv_name_matches(dev_name(dev), pattern))
		return 0;
	ctlr = bpfdrv_spi_host_of(dev);
	if (!ctlr)
		return 0;
	spi_controller_put(ctlr);
	return 1;
}

/* The controller whose parent is named @pattern, referenced, or NULL. */
static struct spi_controller *bpfdrv_spi_find(const char *pattern)
{
	const struct bus_type *buses[] = {
		&platform_bus_type,
#ifdef CONFIG_PCI
		&pci_bus_type,
#endif
	};
	struct spi_controller *ctlr;
	struct device *parent;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(buses); i++) {
		parent = bus_find_device(buses[i], NULL, pattern,
					 bpfdrv_spi_parent_matches);
		if (!parent)
			continue;
		ctlr = bpfdrv_spi_host_of(parent);
		put_device(parent);
		if (ctlr)
			return ctlr;
	}
	return NULL;
}

static int bpfdrv_spi_cs_match(struct device *dev, void *data)
{
	u32 *cs = data;

	return dev->bus == &spi_bus_type &&
	       spi_get_chipselect(to_spi_device(dev), 0) == *cs;
}

/* Whether a device of @ctlr sits at chip select @cs. */
static bool bpfdrv_spi_cs_busy(struct spi_controller *ctlr, u32 cs)
{
	return device_for_each_child(&ctlr->dev, &cs, bpfdrv_spi_cs_match);
}

/* Unregister @spi, unless its controller did; drop it. */
static void bpfdrv_spi_unregister(struct spi_device *spi)
{
	/* its reference keeps its controller's memory */
	struct spi_controller *ctlr = spi->controller;

	mutex_lock(&ctlr->add_lock);
	if (device_is_registered(&spi->dev))
		spi_unregister_device(spi);
	mutex_unlock(&ctlr->add_lock);
	spi_dev_put(spi);
}

static void bpfdrv_spi_hold_release(struct bpfdrv_hold *h)
{
	struct bpfdrv_device *bdev = h->bdev;

	bpfdrv_spi_unregister(bdev->spi);
	bdev->spi = NULL;
}

static const struct bpfdrv_hold_ops bpfdrv_spi_hold_ops = {
	.release = bpfdrv_spi_hold_release,
};

/**
 * bpfdrv_spi_claim - register the SPI device a driver declares
 * @bdev: the device being created, named, not yet live
 *
 * Return: 0 (also when it declares none), -ENODEV for a missing controller,
 * -EINVAL for a chip select, clock or mode the controller does not have,
 * -EBUSY for a chip select in use, -EIO for another failure of the SPI core.
 */
static int bpfdrv_spi_claim(struct bpfdrv_device *bdev)
{
	const struct chr_ext_ops *ops = bdev->ops;
	struct spi_board_info info = { .modalias = BPFDRV_SPI_MODALIAS };
	char what[BPFDRV_HOLD_WHAT_MAX];
	struct spi_controller *ctlr;
	struct spi_device *spi;
	int ret;

	if (!ops->spi_controller[0])
		return 0;
	ctlr = bpfdrv_spi_find(ops->spi_controller);
	if (!ctlr) {
		dev_info(&bdev->dev, "no SPI controller under a device named '%s' (ls -l /sys/class/spi_master lists them)\n",
			 ops->spi_controller);
		return -ENODEV;
	}
	ret = -EINVAL;
	if (ops->spi_cs >= ctlr->num_chipselect) {
		dev_info(&bdev->dev, "SPI controller %s has chip selects 0-%u, not %u\n",
			 dev_name(&ctlr->dev), ctlr->num_chipselect - 1,
			 ops->spi_cs);
		goto out;
	}
	if (ops->spi_max_speed_hz && ctlr->min_speed_hz &&
	    ops->spi_max_speed_hz < ctlr->min_speed_hz) {
		dev_info(&bdev->dev, "SPI controller %s clocks at %u Hz at least, not %u\n",
			 dev_name(&ctlr->dev), ctlr->min_speed_hz,
			 ops->spi_max_speed_hz);
		goto out;
	}
	if (ops->spi_mode & ~ctlr->mode_bits) {
		dev_info(&bdev->dev, "SPI controller %s cannot do mode 0x%x (it can 0x%x)\n",
			 dev_name(&ctlr->dev), ops->spi_mode,
			 ctlr->mode_bits & BPFDRV_SPI_MODE_MASK);
		goto out;
	}
	info.chip_select = ops->spi_cs;
	info.mode = ops->spi_mode;
	info.max_speed_hz = ops->spi_max_speed_hz;
	spi = spi_new_device(ctlr, &info);
	if (!spi) {
		/* the SPI core logged why: mostly, the chip select is taken */
		ret = bpfdrv_spi_cs_busy(ctlr, ops->spi_cs) ? -EBUSY : -EIO;
		dev_info(&bdev->dev, "cannot add SPI device at chip select %u of %s: %d%s\n",
			 ops->spi_cs, dev_name(&ctlr->dev), ret,
			 ret == -EBUSY ? " (in use)" : "");
		goto out;
	}
	snprintf(what, sizeof(what), "SPI controller %s of %s",
		 dev_name(&ctlr->dev), dev_name(ctlr->dev.parent));
	/* the controller's removal unregisters it: keep its memory */
	bdev->spi = spi_dev_get(spi);
	ret = bpfdrv_hold(bdev, &bdev->spi_hold, &spi->dev, &bpfdrv_spi_hold_ops,
			  what);
	if (ret) {
		bdev->spi = NULL;
		bpfdrv_spi_unregister(spi);
	}
out:
	spi_controller_put(ctlr);
	return ret;
}

/**
 * bpfdrv_spi_release - unregister the SPI device
 * @bdev: the device, dead, its callbacks drained and exit done
 */
static void bpfdrv_spi_release(struct bpfdrv_device *bdev)
{
	bpfdrv_hold_release(&bdev->spi_hold);
}

/*
 * The device's SPI device, held for a transfer of @size and @size2 bytes
 * (ended by bpfdrv_spi_put()), or NULL with *err: -ENODEV (none, or its
 * controller went), -EINVAL (a size out of range).
 */
static struct spi_device *bpfdrv_spi_get(struct bpfdrv_dev *dev, u32 size,
					 u32 size2, int *err)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);

	if (!bpfdrv_hold_get(&bdev->spi_hold)) {
		*err = -ENODEV;
		return NULL;
	}
	if (!size || size > BPFDRV_SPI_XFER_MAX || !size2 ||
	    size2 > BPFDRV_SPI_XFER_MAX) {
		bpfdrv_hold_put(&bdev->spi_hold);
		*err = -EINVAL;
		return NULL;
	}
	return bdev->spi;
}

static void bpfdrv_spi_put(struct bpfdrv_dev *dev)
{
	bpfdrv_hold_put(&to_bpfdrv_device(dev)->spi_hold);
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_spi_transfer - full duplex: send @buf, and fill it with the bytes
 *	received meanwhile
 * @dev: the device
 * @buf: program memory
 * @buf__sz: its size, 1..BPFDRV_SPI_XFER_MAX
 *
 * Return: 0, -ENODEV (no SPI device), -EINVAL (size out of range),
 * -ENOMEM, or the controller's error.
 */
__bpf_kfunc int bpfdrv_spi_transfer(struct bpfdrv_dev *dev, void *buf,
				    u32 buf__sz)
{
	struct spi_transfer xfer = { .len = buf__sz };
	struct spi_device *spi;
	u8 *bounce;
	int ret;

	spi = bpfdrv_spi_get(dev, buf__sz, buf__sz, &ret);
	if (!spi)
		return ret;
	bounce = kmalloc(2 * buf__sz, GFP_KERNEL);
	if (!bounce) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(bounce, buf, buf__sz);
	xfer.tx_buf = bounce;
	xfer.rx_buf = bounce + buf__sz;
	ret = spi_sync_transfer(spi, &xfer, 1);
	if (!ret)
		memcpy(buf, bounce + buf__sz, buf__sz);
	kfree(bounce);
out:
	bpfdrv_spi_put(dev);
	return ret;
}

/**
 * bpfdrv_spi_write_then_read - send @tx, then read @rx__sz bytes into @rx,
 *	chip select active throughout
 * @dev: the device
 * @tx: the bytes to send (a command, an address)
 * @tx__sz: how many, 1..BPFDRV_SPI_XFER_MAX
 * @rx: program memory for the answer
 * @rx__sz: how many, 1..BPFDRV_SPI_XFER_MAX
 *
 * Return: 0, or errors as bpfdrv_spi_transfer().
 */
__bpf_kfunc int bpfdrv_spi_write_then_read(struct bpfdrv_dev *dev, void *tx,
					   u32 tx__sz, void *rx, u32 rx__sz)
{
	struct spi_device *spi;
	int ret;

	spi = bpfdrv_spi_get(dev, tx__sz, rx__sz, &ret);
	if (!spi)
		return ret;
	/* bounces through a buffer of its own */
	ret = spi_write_then_read(spi, tx, tx__sz, rx, rx__sz);
	bpfdrv_spi_put(dev);
	return ret;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_spi_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_spi_transfer, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_spi_write_then_read, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_spi_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_spi = {
	.name = "spi",
	.kfuncs = &bpfdrv_spi_kfunc_ids,
	.valid = bpfdrv_spi_valid,
	.claim = bpfdrv_spi_claim,
	.release = bpfdrv_spi_release,
};
