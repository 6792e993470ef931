// SPDX-License-Identifier: GPL-2.0
/*
 * spi_flash_sim: a test-only SPI controller with a SPI NOR flash on it.
 *
 * The platform device "bpfdrv-spi-sim" carries a SPI host controller with
 * two chip selects. Chip select 0 is wired to an emulated 1 MiB flash that
 * identifies as a Winbond W25Q80 (JEDEC ID ef 40 14), so flashrom knows it;
 * chip select 1 is wired to nothing, and reads all 1s, as a floating MISO
 * with a pull-up does. The flash answers in SPI modes 0 and 3, MSB first,
 * with an active-low chip select, as real NOR flash does; in any other mode
 * it does not answer.
 *
 * The flash keeps NOR semantics: it powers up erased (0xff), a page
 * program only clears bits and wraps within its 256-byte page, and program
 * and erase need a write enable first. Operations complete at once, so the
 * status register never shows busy.
 *
 * Three attributes of the platform device serve the tests:
 *   new_device     "CS" registers a SPI device there (modalias
 *                  "spi-flash-sim", which no driver claims; bind spidev to it
 *                  with driver_override);
 *   delete_device  "CS" unregisters it;
 *   last_message   the chip select, mode, clock, word size and length of the
 *                  last message, as the controller saw them.
 *
 * With the module parameter "slow_delete_ms" set, each deletion of a device
 * of the controller stalls that long before the other bus notifiers
 * (bpfdrv's) see it: a window in which the tests race a driver's detach
 * with the controller's removal.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/spi/spi.h>
#include <linux/vmalloc.h>

#define SIM_NAME		"bpfdrv-spi-sim"
#define SIM_NUM_CS		2
#define SIM_FLASH_CS		0
#define SIM_FLASH_SIZE		SZ_1M
#define SIM_PAGE_SIZE		256

/* The commands of a W25Q80 that the emulation serves. */
#define CMD_WRSR		0x01
#define CMD_PAGE_PROGRAM	0x02
#define CMD_READ		0x03
#define CMD_WRDI		0x04
#define CMD_RDSR		0x05
#define CMD_WREN		0x06
#define CMD_FAST_READ		0x0b
#define CMD_RDSR3		0x15
#define CMD_ERASE_4K		0x20
#define CMD_RDSR2		0x35
#define CMD_ERASE_32K		0x52
#define CMD_CHIP_ERASE		0x60
#define CMD_REMS		0x90
#define CMD_RDID		0x9f
#define CMD_RES			0xab
#define CMD_CHIP_ERASE_ALT	0xc7
#define CMD_ERASE_64K		0xd8

#define SR_WEL			BIT(1)

static const u8 sim_jedec_id[] = { 0xef, 0x40, 0x14 };
#define SIM_DEVICE_ID		0x13	/* what RES and REMS give */

struct spi_flash_sim {
	struct mutex lock;		/* the flash's state, last */
	u8 *mem;
	bool wel;			/* write enable latch */
	u8 cmd;				/* the command of this selection */
	u32 nbytes;			/* bytes since chip select went active */
	u32 addr;			/* its address, as received */
	char last[96];			/* last_message */
	/*
	 * Not under lock: the core takes the controller's add_lock while
	 * adding a device, and its io_mutex before a transfer takes lock.
	 */
	struct mutex devices_lock;
	struct spi_device *devices[SIM_NUM_CS];	/* made by new_device */
};

static struct platform_device *sim_pdev;

static unsigned int slow_delete_ms;
module_param(slow_delete_ms, uint, 0644);
MODULE_PARM_DESC(slow_delete_ms, "Stall each deletion of a device of the controller this long (ms)");

/* The address bytes of a command: 1 to 3 after the command byte. */
static bool sim_addr_byte(struct spi_flash_sim *sim, u32 i, u8 in)
{
	if (i > 3)
		return false;
	sim->addr = (sim->addr << 8 | in) & (SIM_FLASH_SIZE - 1);
	return true;
}

/* Byte @i (0: the command) of a selection comes in; what goes out. */
static u8 sim_flash_byte(struct spi_flash_sim *sim, u8 in)
{
	u32 i = sim->nbytes++;
	u32 at;

	if (!i) {
		sim->cmd = in;
		sim->addr = 0;
		if (in == CMD_WREN)
			sim->wel = true;
		else if (in == CMD_WRDI)
			sim->wel = false;
		return 0xff;
	}
	switch (sim->cmd) {
	case CMD_RDID:
		return i <= sizeof(sim_jedec_id) ? sim_jedec_id[i - 1] : 0;
	case CMD_RDSR:
		return sim->wel ? SR_WEL : 0;
	case CMD_RDSR2:
	case CMD_RDSR3:
		return 0;
	case CMD_RES:
		return i > 3 ? SIM_DEVICE_ID : 0xff;
	case CMD_REMS:
		if (sim_addr_byte(sim, i, in))
			return 0xff;
		/* address 0: manufacturer first; address 1: device first */
		return ((i - 4) ^ sim->addr) & 1 ? SIM_DEVICE_ID : sim_jedec_id[0];
	case CMD_READ:
	case CMD_FAST_READ:
		if (sim_addr_byte(sim, i, in))
			return 0xff;
		if (sim->cmd == CMD_FAST_READ && i == 4)
			return 0xff;	/* the dummy byte */
		at = sim->addr + i - (sim->cmd == CMD_READ ? 4 : 5);
		return sim->mem[at & (SIM_FLASH_SIZE - 1)];
	case CMD_PAGE_PROGRAM:
		if (sim_addr_byte(sim, i, in) || !sim->wel)
			return 0xff;
		at = (sim->addr & ~(SIM_PAGE_SIZE - 1)) |
		     ((sim->addr + i - 4) & (SIM_PAGE_SIZE - 1));
		sim->mem[at] &= in;
		return 0xff;
	case CMD_ERASE_4K:
	case CMD_ERASE_32K:
	case CMD_ERASE_64K:
		sim_addr_byte(sim, i, in);
		return 0xff;
	default:
		return 0xff;
	}
}

/* Chip select goes inactive: erases complete, the latch resets. */
static void sim_flash_deselect(struct spi_flash_sim *sim)
{
	u32 size = 0;

	if (!sim->nbytes)
		return;
	switch (sim->cmd) {
	case CMD_ERASE_4K:
		size = SZ_4K;
		break;
	case CMD_ERASE_32K:
		size = SZ_32K;
		break;
	case CMD_ERASE_64K:
		size = SZ_64K;
		break;
	case CMD_CHIP_ERASE:
	case CMD_CHIP_ERASE_ALT:
		if (sim->wel && sim->nbytes == 1)
			memset(sim->mem, 0xff, SIM_FLASH_SIZE);
		break;
	}
	if (size && sim->wel && sim->nbytes == 4)
		memset(sim->mem + (sim->addr & ~(size - 1)), 0xff, size);
	switch (sim->cmd) {
	case CMD_WRSR:
	case CMD_PAGE_PROGRAM:
	case CMD_ERASE_4K:
	case CMD_ERASE_32K:
	case CMD_ERASE_64K:
	case CMD_CHIP_ERASE:
	case CMD_CHIP_ERASE_ALT:
		sim->wel = false;
		break;
	}
	sim->nbytes = 0;
}

/* Whether the flash hears @spi: its chip select, in mode 0 or 3. */
static bool sim_flash_selected(struct spi_device *spi)
{
	u32 mode = spi->mode;

	return spi_get_chipselect(spi, 0) == SIM_FLASH_CS &&
	       !(mode & (SPI_CS_HIGH | SPI_LSB_FIRST)) &&
	       !(mode & SPI_CPOL) == !(mode & SPI_CPHA);
}

static int sim_transfer_one_message(struct spi_controller *ctlr,
				    struct spi_message *msg)
{
	struct spi_flash_sim *sim = spi_controller_get_devdata(ctlr);
	bool selected = sim_flash_selected(msg->spi);
	struct spi_transfer *xfer;
	u32 speed = 0, bits = 0;
	unsigned int i;

	mutex_lock(&sim->lock);
	list_for_each_entry(xfer, &msg->transfers, transfer_list) {
		const u8 *tx = xfer->tx_buf;
		u8 *rx = xfer->rx_buf;

		for (i = 0; i < xfer->len; i++) {
			u8 out = selected ? sim_flash_byte(sim, tx ? tx[i] : 0) :
					    0xff;

			if (rx)
				rx[i] = out;
		}
		msg->actual_length += xfer->len;
		speed = xfer->speed_hz;
		bits = xfer->bits_per_word;
		if (xfer->cs_change &&
		    !list_is_last(&xfer->transfer_list, &msg->transfers))
			sim_flash_deselect(sim);
	}
	sim_flash_deselect(sim);
	snprintf(sim->last, sizeof(sim->last),
		 "cs=%u mode=0x%x speed=%u bits=%u len=%u\n",
		 spi_get_chipselect(msg->spi, 0), msg->spi->mode & 0xff,
		 speed, bits, msg->actual_length);
	mutex_unlock(&sim->lock);
	msg->status = 0;
	spi_finalize_current_message(ctlr);
	return 0;
}

static struct spi_flash_sim *sim_from_dev(struct device *dev)
{
	return spi_controller_get_devdata(dev_get_drvdata(dev));
}

static int sim_parse_cs(const char *buf, unsigned int *cs)
{
	int ret = kstrtouint(buf, 0, cs);

	if (ret)
		return ret;
	return *cs < SIM_NUM_CS ? 0 : -EINVAL;
}

static ssize_t new_device_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct spi_controller *ctlr = dev_get_drvdata(dev);
	struct spi_flash_sim *sim = sim_from_dev(dev);
	struct spi_board_info info = {
		.modalias = "spi-flash-sim",
		.max_speed_hz = 1000000,
	};
	struct spi_device *spi;
	unsigned int cs;
	int ret = sim_parse_cs(buf, &cs);

	if (ret)
		return ret;
	info.chip_select = cs;
	mutex_lock(&sim->devices_lock);
	if (sim->devices[cs]) {
		ret = -EEXIST;
		goto out;
	}
	spi = spi_new_device(ctlr, &info);
	if (!spi) {
		/* the core said why: "chipselect 0 already in use" */
		ret = -EBUSY;
		goto out;
	}
	sim->devices[cs] = spi;
out:
	mutex_unlock(&sim->devices_lock);
	return ret ?: count;
}
static DEVICE_ATTR_WO(new_device);

static ssize_t delete_device_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct spi_flash_sim *sim = sim_from_dev(dev);
	struct spi_device *spi;
	unsigned int cs;
	int ret = sim_parse_cs(buf, &cs);

	if (ret)
		return ret;
	mutex_lock(&sim->devices_lock);
	spi = sim->devices[cs];
	sim->devices[cs] = NULL;
	mutex_unlock(&sim->devices_lock);
	if (!spi)
		return -ENOENT;
	spi_unregister_device(spi);
	return count;
}
static DEVICE_ATTR_WO(delete_device);

static ssize_t last_message_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct spi_flash_sim *sim = sim_from_dev(dev);
	ssize_t n;

	mutex_lock(&sim->lock);
	n = sysfs_emit(buf, "%s", sim->last);
	mutex_unlock(&sim->lock);
	return n;
}
static DEVICE_ATTR_RO(last_message);

static struct attribute *sim_attrs[] = {
	&dev_attr_new_device.attr,
	&dev_attr_delete_device.attr,
	&dev_attr_last_message.attr,
	NULL
};
ATTRIBUTE_GROUPS(sim);

static void sim_free_mem(void *mem)
{
	vfree(mem);
}

static int sim_probe(struct platform_device *pdev)
{
	struct spi_flash_sim *sim;
	struct spi_controller *ctlr;
	int ret;

	ctlr = devm_spi_alloc_host(&pdev->dev, sizeof(*sim));
	if (!ctlr)
		return -ENOMEM;
	sim = spi_controller_get_devdata(ctlr);
	mutex_init(&sim->lock);
	mutex_init(&sim->devices_lock);
	sim->mem = vmalloc(SIM_FLASH_SIZE);
	if (!sim->mem)
		return -ENOMEM;
	ret = devm_add_action_or_reset(&pdev->dev, sim_free_mem, sim->mem);
	if (ret)
		return ret;
	memset(sim->mem, 0xff, SIM_FLASH_SIZE);

	ctlr->bus_num = -1;
	ctlr->num_chipselect = SIM_NUM_CS;
	ctlr->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_LSB_FIRST;
	ctlr->bits_per_word_mask = SPI_BPW_MASK(8);
	ctlr->min_speed_hz = 100000;
	ctlr->max_speed_hz = 50000000;
	ctlr->transfer_one_message = sim_transfer_one_message;
	platform_set_drvdata(pdev, ctlr);
	return devm_spi_register_controller(&pdev->dev, ctlr);
}

static struct platform_driver sim_driver = {
	.driver = {
		.name = SIM_NAME,
		.dev_groups = sim_groups,
	},
	.probe = sim_probe,
};

/* Runs before bpfdrv's notifier (a higher priority) as a device goes. */
static int sim_bus_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct device *dev = data;
	unsigned int ms = READ_ONCE(slow_delete_ms);

	if (action == BUS_NOTIFY_DEL_DEVICE && ms && dev->parent &&
	    dev->parent->parent == &sim_pdev->dev)
		msleep(ms);
	return NOTIFY_DONE;
}

static struct notifier_block sim_nb = {
	.notifier_call = sim_bus_notify,
	.priority = 1,
};

static int __init sim_init(void)
{
	int ret = platform_driver_register(&sim_driver);

	if (ret)
		return ret;
	sim_pdev = platform_device_register_simple(SIM_NAME, -1, NULL, 0);
	if (IS_ERR(sim_pdev)) {
		platform_driver_unregister(&sim_driver);
		return PTR_ERR(sim_pdev);
	}
	ret = bus_register_notifier(&spi_bus_type, &sim_nb);
	if (ret) {
		platform_device_unregister(sim_pdev);
		platform_driver_unregister(&sim_driver);
	}
	return ret;
}
module_init(sim_init);

static void __exit sim_exit(void)
{
	platform_device_unregister(sim_pdev);
	bus_unregister_notifier(&spi_bus_type, &sim_nb);
	platform_driver_unregister(&sim_driver);
}
module_exit(sim_exit);

MODULE_DESCRIPTION("Test-only SPI controller with an emulated SPI NOR flash");
MODULE_LICENSE("GPL");
