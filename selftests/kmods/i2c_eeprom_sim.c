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
 */
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

static int __init sim_init(void)
{
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	memset(sim->mem, 0xff, sizeof(sim->mem));
	ret = sim_add();
	if (ret)
		kfree(sim);
	return ret;
}
module_init(sim_init);

static void __exit sim_exit(void)
{
	sim_del();
	kfree(sim);
}
module_exit(sim_exit);

MODULE_DESCRIPTION("Test-only I2C adapter with raw transfers and an emulated EEPROM");
MODULE_LICENSE("GPL");
