// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv bind/unbind, and the binding done by bpfdrv load: a PCI function
 * is handed to bpfdrv.ko's pci_driver the way vfio-pci and uio_pci_generic
 * take devices, with driver_override. bpfdrv has no ID table, so nothing
 * is bound to it unless asked for here.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpfdrv.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define PCI_DRIVER	"/sys/bus/pci/drivers/bpfdrv"

/* "DDDD:BB:DD.F", hexadecimal. */
bool pci_bdf_valid(const char *bdf)
{
	static const char form[] = "xxxx:xx:xx.x";
	size_t i;

	if (strlen(bdf) != sizeof(form) - 1)
		return false;
	for (i = 0; i < sizeof(form) - 1; i++)
		if (form[i] == 'x' ? !isxdigit((unsigned char)bdf[i]) : bdf[i] != form[i])
			return false;
	return true;
}

static int write_file(const char *path, const char *s)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

/* The name of the driver bound to @bdf, "" if none. */
static void pci_driver_of(const char *bdf, char *name, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", bdf);
	n = readlink(path, target, sizeof(target) - 1);
	name[0] = '\0';
	if (n > 0) {
		target[n] = '\0';
		snprintf(name, size, "%s", strrchr(target, '/') + 1);
	}
}

int pci_read_id(const char *bdf, const char *attr, unsigned int *id)
{
	char path[PATH_MAX], buf[16];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/%s", bdf, attr);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	*id = strtoul(buf, NULL, 16);
	return 0;
}

static int pci_check(const char *bdf)
{
	char path[PATH_MAX];

	if (!pci_bdf_valid(bdf)) {
		err("'%s' is not a PCI address (want DDDD:BB:DD.F, as lspci -D prints)",
		    bdf);
		return -1;
	}
	snprintf(path, sizeof(path), PCI_DEVICES "/%s", bdf);
	if (access(path, F_OK)) {
		err("no PCI device %s", bdf);
		return -1;
	}
	return check_module();
}

/*
 * The functions this run of the tool took (bound to bpfdrv), with the
 * driver each had, so a load that fails can give them back.
 */
#define MAX_TAKEN	32
static struct {
	char bdf[16];
	char drv[64];
} taken[MAX_TAKEN];
static int nr_taken;

static void note_taken(const char *bdf, const char *drv)
{
	if (nr_taken == MAX_TAKEN)
		return;
	snprintf(taken[nr_taken].bdf, sizeof(taken[0].bdf), "%s", bdf);
	snprintf(taken[nr_taken].drv, sizeof(taken[0].drv), "%s", drv);
	nr_taken++;
}

/*
 * Take @bdf from bpfdrv if bpfdrv has it, then clear its driver_override.
 * Returns 0, or the unbind's -errno (driver_override is then left).
 */
static int pci_release(const char *bdf)
{
	char path[PATH_MAX], drv[64];
	int ret;

	pci_driver_of(bdf, drv, sizeof(drv));
	if (!strcmp(drv, "bpfdrv")) {
		ret = write_file(PCI_DRIVER "/unbind", bdf);
		if (ret)
			return ret;
	}
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver_override", bdf);
	write_file(path, "\n");
	return 0;
}

/*
 * Give back every function this run took: release it and let the PCI core
 * probe it again, which hands it to the driver it had (or leaves it free if
 * it had none).
 */
void pci_give_back(void)
{
	char drv[64];
	int i;

	for (i = 0; i < nr_taken; i++) {
		const char *bdf = taken[i].bdf;

		pci_release(bdf);
		if (taken[i].drv[0])
			write_file("/sys/bus/pci/drivers_probe", bdf);
		pci_driver_of(bdf, drv, sizeof(drv));
		if (taken[i].drv[0] && strcmp(drv, taken[i].drv))
			fprintf(stderr, "bpfdrv: %s: could not give it back to %s\n",
				bdf, taken[i].drv);
		else
			fprintf(stderr, "bpfdrv: %s: given back%s%s\n", bdf,
				taken[i].drv[0] ? " to " : " (it had no driver)",
				taken[i].drv);
	}
	nr_taken = 0;
}

/* Hand @bdf to bpfdrv, taking it from the driver it has, if any. */
int pci_bind(const char *bdf)
{
	char path[PATH_MAX], drv[64];
	int ret;

	if (pci_check(bdf))
		return -1;
	pci_driver_of(bdf, drv, sizeof(drv));
	if (!strcmp(drv, "bpfdrv"))
		return 0;
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver_override", bdf);
	ret = write_file(path, "bpfdrv");
	if (ret) {
		err("%s: cannot set driver_override: %s", bdf, strerror(-ret));
		return -1;
	}
	note_taken(bdf, drv);
	if (drv[0]) {
		snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver/unbind", bdf);
		ret = write_file(path, bdf);
		if (ret) {
			err("%s: cannot unbind it from %s: %s", bdf, drv, strerror(-ret));
			return -1;
		}
	}
	ret = write_file("/sys/bus/pci/drivers_probe", bdf);
	pci_driver_of(bdf, drv, sizeof(drv));
	if (strcmp(drv, "bpfdrv")) {
		err("%s: bpfdrv did not take the device: %s (see dmesg)", bdf,
		    ret ? strerror(-ret) : "probe failed");
		return -1;
	}
	return 0;
}

/*
 * Bind every function with one of @ids that has no driver; leave those that
 * another driver holds, saying how to take them.
 */
int pci_bind_matching(const struct bpfdrv_pci_id *ids, int nr_ids)
{
	unsigned int vendor, device;
	struct dirent **list, *de;
	char drv[64];
	int i, n, k, ret = 0;

	/* in address order, as lspci lists them: instance N is the Nth */
	n = scandir(PCI_DEVICES, &list, NULL, alphasort);
	if (n < 0)
		return 0;	/* no PCI bus */
	for (k = 0; k < n; free(list[k++])) {
		de = list[k];
		if (de->d_name[0] == '.' ||
		    pci_read_id(de->d_name, "vendor", &vendor) ||
		    pci_read_id(de->d_name, "device", &device))
			continue;
		for (i = 0; i < nr_ids; i++)
			if (ids[i].vendor == vendor && ids[i].device == device)
				break;
		if (i == nr_ids)
			continue;
		pci_driver_of(de->d_name, drv, sizeof(drv));
		if (!strcmp(drv, "bpfdrv"))
			continue;
		if (drv[0]) {
			printf("%s: in use by %s; 'bpfdrv bind %s' hands it over\n",
			       de->d_name, drv, de->d_name);
			continue;
		}
		if (pci_bind(de->d_name))
			ret = -1;
	}
	free(list);
	return ret;
}

/* Hand @bdf to bpfdrv unless another driver has it (autoload never takes). */
int pci_bind_unclaimed(const char *bdf)
{
	char drv[64];

	pci_driver_of(bdf, drv, sizeof(drv));
	if (drv[0] && strcmp(drv, "bpfdrv")) {
		printf("%s: in use by %s; 'bpfdrv bind %s' hands it over\n",
		       bdf, drv, bdf);
		return 0;
	}
	return pci_bind(bdf);
}

int cmd_bind(int argc, char **argv)
{
	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: bpfdrv bind BDF\n"
			"  hand PCI function BDF (DDDD:BB:DD.F) to bpfdrv; an attached\n"
			"  driver that serves it makes it a device instance\n");
		return argc == 2 ? 0 : 2;
	}
	if (pci_bind(argv[1]))
		return 1;
	printf("%s: bound to bpfdrv\n", argv[1]);
	return 0;
}

/*
 * bpfdrv reset NAME: the kernel's reset of instance NAME's PCI function
 * (its sysfs reset: an FLR, or a bus reset where the function is alone on
 * its bus), which runs the driver's reset_prepare and reset_done around it.
 */
int cmd_reset(int argc, char **argv)
{
	char path[512], link[512], method[128] = "";
	const char *name = argc == 2 ? argv[1] : "", *bdf;
	ssize_t n;
	int ret;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: bpfdrv reset NAME\n"
			"  reset the PCI function of device instance NAME (an FLR, or a bus\n"
			"  reset); its driver's reset_prepare and reset_done run around it\n");
		return argc == 2 ? 0 : 2;
	}
	if (!name[0] || name[0] == '.' || strchr(name, '/') ||
	    strlen(name) >= BPFDRV_NAME_MAX) {
		err("reset: '%s' is not a device instance's name (see: bpfdrv list)", name);
		return 1;
	}
	snprintf(path, sizeof(path), "/sys/class/bpfdrv/%s/device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		snprintf(path, sizeof(path), "/sys/class/bpfdrv/%s", name);
		if (access(path, F_OK))
			err("reset: no device instance '%s' (see: bpfdrv list)", name);
		else
			err("reset: %s has no PCI function", name);
		return 1;
	}
	link[n] = '\0';
	bdf = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (pci_check(bdf))
		return 1;
	snprintf(path, sizeof(path), PCI_DEVICES "/%.64s/reset_method", bdf);
	read_line(path, method, sizeof(method));
	snprintf(path, sizeof(path), PCI_DEVICES "/%.64s/reset", bdf);
	if (access(path, F_OK)) {
		err("reset: %s's PCI function %s has no reset method (no FLR or PM reset, and not alone on its bus)",
		    name, bdf);
		return 1;
	}
	ret = write_file(path, "1");
	if (ret) {
		err("reset: %s's PCI function %s: %s", name, bdf, strerror(-ret));
		return 1;
	}
	printf("%s: PCI function %s reset (%s)\n", name, bdf,
	       method[0] ? method : "the kernel's method");
	return 0;
}

int cmd_unbind(int argc, char **argv)
{
	char drv[64];
	int ret;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: bpfdrv unbind BDF\n"
			"  take PCI function BDF from bpfdrv (its node goes away; open\n"
			"  files get ENODEV) and clear its driver_override\n");
		return argc == 2 ? 0 : 2;
	}
	if (pci_check(argv[1]))
		return 1;
	pci_driver_of(argv[1], drv, sizeof(drv));
	if (strcmp(drv, "bpfdrv")) {
		err("%s is not bound to bpfdrv%s%s", argv[1], drv[0] ? " but to " : "",
		    drv);
		return 1;
	}
	ret = pci_release(argv[1]);
	if (ret) {
		err("%s: cannot unbind: %s", argv[1], strerror(-ret));
		return 1;
	}
	printf("%s: unbound from bpfdrv\n", argv[1]);
	return 0;
}
