// SPDX-License-Identifier: GPL-2.0
/*
 * i2c_eeprom_sim: a test-only I2C adapter that does raw I2C transfers,
 * with a 256-byte EEPROM on it.
 *
 * The adapter "bpfdrv-i2c-sim" has no parent device; its module is held
 * while a client uses it. The EEPROM at 0x50 works as a 24C02 does: the
 * first byte written sets its address pointer, the bytes after it are
 * stored from there, and reads go on from the pointer (wrapping at 256).
 * Nothing answers at any other address (a NAK: -ENXIO). i2c-stub and the
 * q35 SMBus controller do SMBus only; this one serves i2ctransfer and
 * bpfdrv_i2c_transfer().
 *
 * Writing 0 to the module parameter "present" deletes the adapter while the
 * module stays (as a DRM driver deletes a DP-AUX adapter), 1 adds it again.
 * With "slow_delete_ms" set, each deletion of a client on the adapter
 * stalls that long before the other bus notifiers (bpfdrv's) see it: a
 * window in which the tests race a driver's detach with the deletion.
 *
 * The module also drives "bpfdrv-i2c-gpio-sim" clients (made through the
 * adapter's new_device): a GPIO expander whose 8 input lines read 0, with
 * a chip labelled as the client's driver, as an I2C expander's would be.
 */
#include <linux/delay.h>
#include <linux/gpio/driver.h>
#include <linux/i2c.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#define SIM_EEPROM_ADDR	0x50
#define SIM_EEPROM_SIZE	256

struct i2c_eeprom_sim {
	struct i2c_adapter adap;
	u8 mem[SIM_EEPROM_SIZE];
	u8 ptr;			/* under the adapter's bus lock */
};

static struct i2c_eeprom_sim *sim;
static bool sim_present;
static DEFINE_MUTEX(sim_lock);

static unsigned int slow_delete_ms;
module_param(slow_delete_ms, uint, 0644);
MODULE_PARM_DESC(slow_delete_ms, "Stall each deletion of a client of the adapter this long (ms)");

static int sim_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct i2c_eeprom_sim *s = i2c_get_adapdata(adap);
	int i, j;

	for (i = 0; i < num; i++) {
		struct i2c_msg *m = &msgs[i];

		if (m->addr != SIM_EEPROM_ADDR || (m->flags & I2C_M_TEN))
			return -ENXIO;
		if (m->flags & I2C_M_RECV_LEN)
			return -EOPNOTSUPP;
		if (m->flags & I2C_M_RD) {
			for (j = 0; j < m->len; j++)
				m->buf[j] = s->mem[s->ptr++];
		} else if (m->len) {
			s->ptr = m->buf[0];
			for (j = 1; j < m->len; j++)
				s->mem[s->ptr++] = m->buf[j];
		}
	}
	return num;
}

static u32 sim_functionality(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | (I2C_FUNC_SMBUS_EMUL & ~I2C_FUNC_SMBUS_BLOCK_DATA);
}

static const struct i2c_algorithm sim_algo = {
	.master_xfer = sim_xfer,
	.functionality = sim_functionality,
};

static int sim_add(void)
{
	int ret;

	memset(&sim->adap, 0, sizeof(sim->adap));
	sim->adap.owner = THIS_MODULE;
	sim->adap.algo = &sim_algo;
	strscpy(sim->adap.name, "bpfdrv-i2c-sim", sizeof(sim->adap.name));
	i2c_set_adapdata(&sim->adap, sim);
	ret = i2c_add_adapter(&sim->adap);
	sim_present = !ret;
	return ret;
}

static void sim_del(void)
{
	if (sim_present)
		i2c_del_adapter(&sim->adap);	/* waits for its users */
	sim_present = false;
}

static int sim_present_set(const char *val, const struct kernel_param *kp)
{
	bool present;
	int ret;

	ret = kstrtobool(val, &present);
	if (ret)
		return ret;
	if (!sim)	/* at insmod: the adapter is added anyway */
		return -EINVAL;
	mutex_lock(&sim_lock);
	if (present && !sim_present)
		ret = sim_add();
	else if (!present)
		sim_del();
	mutex_unlock(&sim_lock);
	return ret;
}

static int sim_present_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", sim_present);
}

static const struct kernel_param_ops sim_present_ops = {
	.set = sim_present_set,
	.get = sim_present_get,
};
module_param_cb(present, &sim_present_ops, NULL, 0644);
MODULE_PARM_DESC(present, "Whether the adapter exists (0 deletes it, 1 adds it)");

/* Runs before bpfdrv's notifier (a higher priority) as a client goes. */
static int sim_bus_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct i2c_client *client = i2c_verify_client(data);
	unsigned int ms = READ_ONCE(slow_delete_ms);

	if (action == BUS_NOTIFY_DEL_DEVICE && ms && client &&
	    client->adapter == &sim->adap)
		msleep(ms);
	return NOTIFY_DONE;
}

static struct notifier_block sim_nb = {
	.notifier_call = sim_bus_notify,
	.priority = 1,
};

static int gpio_sim_get(struct gpio_chip *gc, unsigned int offset)
{
	return 0;
}

static int gpio_sim_get_direction(struct gpio_chip *gc, unsigned int offset)
{
	return GPIO_LINE_DIRECTION_IN;
}

static int gpio_sim_direction_input(struct gpio_chip *gc, unsigned int offset)
{
	return 0;
}

static int gpio_sim_probe(struct i2c_client *client)
{
	struct gpio_chip *gc;

	gc = devm_kzalloc(&client->dev, sizeof(*gc), GFP_KERNEL);
	if (!gc)
		return -ENOMEM;
	gc->label = client->name;
	gc->parent = &client->dev;
	gc->owner = THIS_MODULE;
	gc->base = -1;
	gc->ngpio = 8;
	gc->can_sleep = true;
	gc->get = gpio_sim_get;
	gc->get_direction = gpio_sim_get_direction;
	gc->direction_input = gpio_sim_direction_input;
	return devm_gpiochip_add_data(&client->dev, gc, NULL);
}

static const struct i2c_device_id gpio_sim_ids[] = {
	{ "bpfdrv-i2c-gpio-sim" },
	{ }
};
MODULE_DEVICE_TABLE(i2c, gpio_sim_ids);

static struct i2c_driver gpio_sim_driver = {
	.driver.name = "bpfdrv-i2c-gpio-sim",
	.probe = gpio_sim_probe,
	.id_table = gpio_sim_ids,
};

static int __init sim_init(void)
{
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	memset(sim->mem, 0xff, sizeof(sim->mem));
	ret = i2c_add_driver(&gpio_sim_driver);
	if (ret)
		goto err_free;
	ret = bus_register_notifier(&i2c_bus_type, &sim_nb);
	if (ret)
		goto err_driver;
	ret = sim_add();
	if (ret)
		goto err_notifier;
	return 0;

err_notifier:
	bus_unregister_notifier(&i2c_bus_type, &sim_nb);
err_driver:
	i2c_del_driver(&gpio_sim_driver);
err_free:
	kfree(sim);
	return ret;
}
module_init(sim_init);

static void __exit sim_exit(void)
{
	sim_del();
	bus_unregister_notifier(&i2c_bus_type, &sim_nb);
	i2c_del_driver(&gpio_sim_driver);
	kfree(sim);
}
module_exit(sim_exit);

MODULE_DESCRIPTION("Test-only I2C adapter with raw transfers, an emulated EEPROM and GPIO expander");
MODULE_LICENSE("GPL");
