// SPDX-License-Identifier: GPL-2.0
/*
 * I2C devices of a BPF driver: chr_ext_ops names an adapter (a trailing
 * '*' matches any name that starts as the rest) and up to four
 * 7-bit addresses. When an instance is made, bpfdrv takes a reference on
 * the adapter and registers a client of its own at each address (a dummy
 * client, as drivers do for a chip's second address), so the address is
 * busy for everyone else, as i2cdetect's "UU" shows. The bpfdrv_i2c_*
 * kfuncs reach those clients only, by their index in i2c_addrs.
 *
 * The adapter is held (hold.c): when it is deleted (its driver unbound, its
 * parent gone, or on its own), the deletion unregisters the clients (bpfdrv
 * keeps a reference on each, so the kfuncs never meet freed memory), then
 * the hold is revoked: the kfuncs in flight end, the later ones fail with
 * ENODEV, the adapter reference its deletion waits for is dropped, and the
 * driver is ejected. Otherwise, the clients are unregistered after exit and
 * the adapter is put last.
 *
 * Exactly one of the two unregisters a client: the clients sit on the
 * adapter's list of clients made outside probing (userspace_clients), which
 * the deletion empties under its lock before it unregisters the other
 * children; the teardown unregisters, under that lock, only the clients
 * still on the list. (Root's delete_device may take a client from the list
 * too: its address is free again, and the driver keeps a client it cannot
 * lose memory under.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/i2c.h>
#include <linux/slab.h>

#include "bpfdrv.h"
#include "hold.h"
#include "parts.h"
#include "kfuncs.h"

struct bpfdrv_i2c {
	struct i2c_adapter *adap;
	unsigned int nr_clients;
	struct i2c_client *clients[BPFDRV_MAX_I2C_CLIENTS];
};

static unsigned int bpfdrv_i2c_count(const struct chr_ext_ops *ops)
{
	unsigned int n = 0;

	while (n < BPFDRV_MAX_I2C_CLIENTS && ops->i2c_addrs[n])
		n++;
	return n;
}

/* Checks at load: an adapter with addresses, valid and distinct. */
static int bpfdrv_i2c_valid(const struct chr_ext_ops *ops)
{
	unsigned int i, j, n = bpfdrv_i2c_count(ops);

	if (strnlen(ops->i2c_adapter, BPFDRV_I2C_ADAPTER_MAX) ==
	    BPFDRV_I2C_ADAPTER_MAX || !n != !ops->i2c_adapter[0]) {
		pr_info("driver %s: an I2C adapter needs addresses, and addresses an adapter\n",
			ops->name);
		return -EINVAL;
	}
	for (i = 0; i < BPFDRV_MAX_I2C_CLIENTS; i++) {
		u16 addr = ops->i2c_addrs[i];

		if (i >= n && addr) {
			pr_info("driver %s: I2C address %u follows the end of i2c_addrs (a 0)\n",
				ops->name, i);
			return -EINVAL;
		}
		if (i < n && (addr < BPFDRV_I2C_ADDR_FIRST ||
			      addr > BPFDRV_I2C_ADDR_LAST)) {
			pr_info("driver %s: I2C address 0x%x is reserved or not 7-bit (want 0x%02x-0x%02x)\n",
				ops->name, addr, BPFDRV_I2C_ADDR_FIRST,
				BPFDRV_I2C_ADDR_LAST);
			return -EINVAL;
		}
		for (j = 0; j < i && i < n; j++) {
			if (ops->i2c_addrs[j] == addr) {
				pr_info("driver %s: I2C address 0x%02x is declared twice\n",
					ops->name, addr);
				return -EINVAL;
			}
		}
	}
	return 0;
}

struct bpfdrv_i2c_match {
	const char *name;
	int nr;			/* the first adapter of that name, or -1 */
};

static int bpfdrv_i2c_match(struct device *dev, void *data)
{
	struct i2c_adapter *adap = i2c_verify_adapter(dev);
	struct bpfdrv_i2c_match *match = data;

	if (!adap || !bpfdrv_name_matches(adap->name, match->name))
		return 0;
	match->nr = adap->nr;
	return 1;
}

/* The adapter named @name, referenced, or NULL. */
static struct i2c_adapter *bpfdrv_i2c_find(const char *name)
{
	struct bpfdrv_i2c_match match = { .name = name, .nr = -1 };
	struct i2c_adapter *adap;

	/* i2c_get_adapter() takes the lock the walk holds: get it after */
	i2c_for_each_dev(&match, bpfdrv_i2c_match);
	if (match.nr < 0)
		return NULL;
	adap = i2c_get_adapter(match.nr);
	/* it went, and another took its number, between the two */
	if (adap && !bpfdrv_name_matches(adap->name, name)) {
		i2c_put_adapter(adap);
		adap = NULL;
	}
	return adap;
}

static bool bpfdrv_i2c_listed(struct i2c_adapter *adap,
			      struct i2c_client *client)
{
	struct i2c_client *listed;

	list_for_each_entry(listed, &adap->userspace_clients, detected)
		if (listed == client)
			return true;
	return false;
}

/* Put @client where the adapter's deletion unregisters it. */
static void bpfdrv_i2c_list(struct i2c_adapter *adap, struct i2c_client *client)
{
	mutex_lock_nested(&adap->userspace_clients_lock, i2c_adapter_depth(adap));
	list_add_tail(&client->detected, &adap->userspace_clients);
	mutex_unlock(&adap->userspace_clients_lock);
}

/*
 * Unregister the clients the adapter's deletion (or delete_device) has not
 * taken. A client listed after the deletion emptied the list (an attach
 * racing it) is a dummy child it unregisters too: it is left alone.
 */
static void bpfdrv_i2c_unregister(struct bpfdrv_i2c *c)
{
	struct i2c_adapter *adap = c->adap;
	struct i2c_client *client;
	unsigned int i;

	mutex_lock_nested(&adap->userspace_clients_lock, i2c_adapter_depth(adap));
	for (i = 0; i < c->nr_clients; i++) {
		client = c->clients[i];
		if (!bpfdrv_i2c_listed(adap, client))
			continue;
		list_del(&client->detected);
		if (device_is_registered(&client->dev))
			i2c_unregister_device(client);
	}
	mutex_unlock(&adap->userspace_clients_lock);
}

/* Unregister the clients (unless the adapter's deletion did), drop them. */
static void bpfdrv_i2c_free(struct bpfdrv_i2c *c, bool unregister)
{
	unsigned int i;

	if (unregister)
		bpfdrv_i2c_unregister(c);
	for (i = 0; i < c->nr_clients; i++)
		put_device(&c->clients[i]->dev);
	if (c->adap)
		i2c_put_adapter(c->adap);
	kfree(c);
}

/* The adapter is being deleted and has unregistered the clients. */
static void bpfdrv_i2c_hold_revoke(struct bpfdrv_hold *h)
{
	struct bpfdrv_i2c *c = h->bdev->i2c;

	/* i2c_del_adapter() waits for its last reference */
	i2c_put_adapter(c->adap);
	c->adap = NULL;
}

static void bpfdrv_i2c_hold_release(struct bpfdrv_hold *h)
{
	struct bpfdrv_device *bdev = h->bdev;

	bpfdrv_i2c_free(bdev->i2c, !h->gone);
	bdev->i2c = NULL;
}

static const struct bpfdrv_hold_ops bpfdrv_i2c_hold_ops = {
	.revoke = bpfdrv_i2c_hold_revoke,
	.release = bpfdrv_i2c_hold_release,
};

/**
 * bpfdrv_i2c_claim - take the I2C addresses a driver declares
 * @bdev: the device being created, named, not yet live
 *
 * Return: 0 (also when it declares none), -ENODEV for a missing adapter,
 * -EBUSY for an address in use, -ENOMEM.
 */
static int bpfdrv_i2c_claim(struct bpfdrv_device *bdev)
{
	const struct chr_ext_ops *ops = bdev->ops;
	unsigned int i, n = bpfdrv_i2c_count(ops);
	char what[BPFDRV_HOLD_WHAT_MAX];
	struct i2c_client *client;
	struct bpfdrv_i2c *c;
	int ret;

	if (!n)
		return 0;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->adap = bpfdrv_i2c_find(ops->i2c_adapter);
	if (!c->adap) {
		dev_info(&bdev->dev, "no I2C adapter named '%s' (i2cdetect -l lists them)\n",
			 ops->i2c_adapter);
		kfree(c);
		return -ENODEV;
	}
	for (i = 0; i < n; i++) {
		client = i2c_new_dummy_device(c->adap, ops->i2c_addrs[i]);
		if (IS_ERR(client)) {
			dev_info(&bdev->dev, "cannot take I2C address 0x%02x on '%s': %ld%s\n",
				 ops->i2c_addrs[i], ops->i2c_adapter,
				 PTR_ERR(client), PTR_ERR(client) == -EBUSY ?
				 " (in use: i2cdetect shows UU)" : "");
			bpfdrv_i2c_free(c, true);
			return PTR_ERR(client);
		}
		/* the adapter's deletion unregisters it: keep its memory */
		get_device(&client->dev);
		c->clients[c->nr_clients++] = client;
		bpfdrv_i2c_list(c->adap, client);
	}
	snprintf(what, sizeof(what), "I2C adapter %s", c->adap->name);
	bdev->i2c = c;
	ret = bpfdrv_hold(bdev, &bdev->i2c_hold, &c->adap->dev,
			  &bpfdrv_i2c_hold_ops, what);
	if (ret) {
		bdev->i2c = NULL;
		bpfdrv_i2c_free(c, true);
	}
	return ret;
}

/**
 * bpfdrv_i2c_release - give the addresses and the adapter back
 * @bdev: the device, dead, its callbacks drained and exit done
 */
static void bpfdrv_i2c_release(struct bpfdrv_device *bdev)
{
	bpfdrv_hold_release(&bdev->i2c_hold);
}

/*
 * The device's client @client, its adapter held for a transfer (ended by
 * bpfdrv_i2c_put()), or NULL with *err: -ENODEV (no I2C clients, or the
 * adapter went), -EINVAL (no such index).
 */
static struct i2c_client *bpfdrv_i2c_get(struct bpfdrv_dev *dev, u32 client,
					 int *err)
{
	struct bpfdrv_device *bdev = to_bpfdrv_device(dev);

	if (!bpfdrv_hold_get(&bdev->i2c_hold)) {
		*err = -ENODEV;
		return NULL;
	}
	if (client >= bdev->i2c->nr_clients) {
		bpfdrv_hold_put(&bdev->i2c_hold);
		*err = -EINVAL;
		return NULL;
	}
	return bdev->i2c->clients[client];
}

static void bpfdrv_i2c_put(struct bpfdrv_dev *dev)
{
	bpfdrv_hold_put(&to_bpfdrv_device(dev)->i2c_hold);
}

/* The client of a block transfer of @size bytes the adapter can do, held. */
static struct i2c_client *bpfdrv_i2c_get_block(struct bpfdrv_dev *dev,
					       u32 client, u32 size, u32 func,
					       int *err)
{
	struct i2c_client *cl = bpfdrv_i2c_get(dev, client, err);

	if (!cl)
		return NULL;
	if (!size || size > BPFDRV_I2C_BLOCK_MAX)
		*err = -EINVAL;
	else if (!i2c_check_functionality(cl->adapter, func))
		*err = -EOPNOTSUPP;
	else
		return cl;
	bpfdrv_i2c_put(dev);
	return NULL;
}

__bpf_kfunc_start_defs();

/**
 * bpfdrv_i2c_read_byte - SMBus receive byte
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 *
 * Return: the byte (0-255), or -ENODEV (no I2C clients), -EINVAL (no such
 * index), or the adapter's error (-ENXIO: no answer, the address NAKed).
 */
__bpf_kfunc int bpfdrv_i2c_read_byte(struct bpfdrv_dev *dev, u32 client)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get(dev, client, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_read_byte(cl);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_write_byte - SMBus send byte
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @value: the byte
 *
 * Return: 0, or errors as bpfdrv_i2c_read_byte().
 */
__bpf_kfunc int bpfdrv_i2c_write_byte(struct bpfdrv_dev *dev, u32 client,
				      u8 value)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get(dev, client, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_write_byte(cl, value);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_read_byte_data - SMBus read byte from register @reg
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @reg: the command (register) byte
 *
 * Return: the byte (0-255), or errors as bpfdrv_i2c_read_byte().
 */
__bpf_kfunc int bpfdrv_i2c_read_byte_data(struct bpfdrv_dev *dev, u32 client,
					  u8 reg)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get(dev, client, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_read_byte_data(cl, reg);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_write_byte_data - SMBus write byte to register @reg
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @reg: the command (register) byte
 * @value: the byte
 *
 * Return: 0, or errors as bpfdrv_i2c_read_byte().
 */
__bpf_kfunc int bpfdrv_i2c_write_byte_data(struct bpfdrv_dev *dev, u32 client,
					   u8 reg, u8 value)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get(dev, client, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_write_byte_data(cl, reg, value);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_read_word_data - SMBus read word (little-endian) from @reg
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @reg: the command (register) byte
 *
 * Return: the word (0-65535), or errors as bpfdrv_i2c_read_byte().
 */
__bpf_kfunc int bpfdrv_i2c_read_word_data(struct bpfdrv_dev *dev, u32 client,
					  u8 reg)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get(dev, client, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_read_word_data(cl, reg);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_write_word_data - SMBus write word (little-endian) to @reg
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @reg: the command (register) byte
 * @value: the word
 *
 * Return: 0, or errors as bpfdrv_i2c_read_byte().
 */
__bpf_kfunc int bpfdrv_i2c_write_word_data(struct bpfdrv_dev *dev, u32 client,
					   u8 reg, u16 value)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get(dev, client, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_write_word_data(cl, reg, value);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_read_block - I2C block read of @buf__sz bytes from @reg
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @reg: the command (register) byte
 * @buf: program memory for the bytes
 * @buf__sz: how many, 1..BPFDRV_I2C_BLOCK_MAX
 *
 * Return: the bytes read, -EINVAL for a size out of range, -EOPNOTSUPP if
 * the adapter cannot do it, or errors as bpfdrv_i2c_read_byte().
 */
__bpf_kfunc int bpfdrv_i2c_read_block(struct bpfdrv_dev *dev, u32 client,
				      u8 reg, void *buf, u32 buf__sz)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get_block(dev, client, buf__sz,
				  I2C_FUNC_SMBUS_READ_I2C_BLOCK, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_read_i2c_block_data(cl, reg, buf__sz, buf);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_write_block - I2C block write of @buf__sz bytes to @reg
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @reg: the command (register) byte
 * @buf: the bytes
 * @buf__sz: how many, 1..BPFDRV_I2C_BLOCK_MAX
 *
 * Return: 0, or errors as bpfdrv_i2c_read_block().
 */
__bpf_kfunc int bpfdrv_i2c_write_block(struct bpfdrv_dev *dev, u32 client,
				       u8 reg, void *buf, u32 buf__sz)
{
	struct i2c_client *cl;
	int ret;

	cl = bpfdrv_i2c_get_block(dev, client, buf__sz,
				  I2C_FUNC_SMBUS_WRITE_I2C_BLOCK, &ret);
	if (!cl)
		return ret;
	ret = i2c_smbus_write_i2c_block_data(cl, reg, buf__sz, buf);
	bpfdrv_i2c_put(dev);
	return ret;
}

/**
 * bpfdrv_i2c_transfer - raw I2C: write the first @wlen bytes of @buf, then
 *	read the rest of it after a repeated start (one transfer, as for an
 *	EEPROM's address then its data)
 * @dev: the device
 * @client: index in chr_ext_ops.i2c_addrs
 * @buf: program memory: the bytes to write, then room for those read
 * @buf__sz: its size, 1..BPFDRV_I2C_MSG_MAX
 * @wlen: bytes to write, 0..@buf__sz (0: only a read; @buf__sz: only a
 *	write)
 *
 * Return: 0, -EINVAL for sizes out of range, -EOPNOTSUPP if the adapter
 * does not do raw I2C (SMBus controllers), or errors as
 * bpfdrv_i2c_read_byte().
 */
__bpf_kfunc int bpfdrv_i2c_transfer(struct bpfdrv_dev *dev, u32 client,
				    void *buf, u32 buf__sz, u32 wlen)
{
	struct i2c_client *cl;
	struct i2c_msg msgs[2];
	u8 *bytes = buf;
	int n = 0, ret = 0;

	cl = bpfdrv_i2c_get(dev, client, &ret);
	if (!cl)
		return ret;
	if (!buf__sz || buf__sz > BPFDRV_I2C_MSG_MAX || wlen > buf__sz)
		ret = -EINVAL;
	else if (!i2c_check_functionality(cl->adapter, I2C_FUNC_I2C))
		ret = -EOPNOTSUPP;
	if (ret) {
		bpfdrv_i2c_put(dev);
		return ret;
	}
	if (wlen)
		msgs[n++] = (struct i2c_msg){ .addr = cl->addr, .len = wlen,
					      .buf = bytes };
	if (wlen < buf__sz)
		msgs[n++] = (struct i2c_msg){ .addr = cl->addr, .flags = I2C_M_RD,
					      .len = buf__sz - wlen,
					      .buf = bytes + wlen };
	ret = i2c_transfer(cl->adapter, msgs, n);
	bpfdrv_i2c_put(dev);
	if (ret == n)
		return 0;
	return ret < 0 ? ret : -EIO;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(bpfdrv_i2c_kfunc_ids)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_byte, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_byte, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_byte_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_byte_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_word_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_word_data, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_read_block, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_write_block, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpfdrv_i2c_transfer, KF_TRUSTED_ARGS | KF_SLEEPABLE)
BTF_KFUNCS_END(bpfdrv_i2c_kfunc_ids)

const struct bpfdrv_part bpfdrv_part_i2c = {
	.name = "i2c",
	.kfuncs = &bpfdrv_i2c_kfunc_ids,
	.valid = bpfdrv_i2c_valid,
	.claim = bpfdrv_i2c_claim,
	.release = bpfdrv_i2c_release,
};
