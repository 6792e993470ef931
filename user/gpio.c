// SPDX-License-Identifier: GPL-2.0
/*
 * The GPIO part of bpfdrv load.
 *
 * A driver names its chip and line offsets in its chr_ext_ops map; the
 * loader may rewrite them in the map's initial value before the object
 * loads (--gpio-chip, --gpio-lines), the way --name rewrites the name.
 *
 * When the kernel refuses the claim it only returns an errno; the reason is
 * then looked up through the GPIO character device (/dev/gpiochipN), the
 * same uAPI gpiodetect and gpioinfo use: which chip has the label, how many
 * lines it has, and who holds a line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/gpio.h>

#include <bpf/btf.h>

#include "bpfdrv_abi.h"
#include "bpfdrv.h"
#include "gpio.h"

struct gpio_decl {
	char *chip;				/* in the map value */
	struct bpfdrv_gpio_line *lines;		/* in the map value */
	int nr_lines;
};

/* The declaration inside @value; false if the type has no GPIO members. */
static bool gpio_decl(const struct btf *btf, unsigned int type_id,
		      const char *value, size_t size, struct gpio_decl *d)
{
	int chip = member_offset(btf, type_id, "gpio_chip");
	int lines = member_offset(btf, type_id, "gpio_lines");

	if (chip < 0 || lines < 0 ||
	    (size_t)chip + BPFDRV_GPIO_LABEL_MAX > size ||
	    (size_t)lines + sizeof(*d->lines) * BPFDRV_MAX_GPIO_LINES > size)
		return false;
	d->chip = (char *)value + chip;
	d->lines = (struct bpfdrv_gpio_line *)(value + lines);
	for (d->nr_lines = 0; d->nr_lines < BPFDRV_MAX_GPIO_LINES; d->nr_lines++)
		if (!d->lines[d->nr_lines].flags)
			break;
	return true;
}

int gpio_override(const struct btf *btf, unsigned int type_id, char *value,
		  size_t size, const char *chip, const char *lines,
		  const char *driver)
{
	unsigned int offsets[BPFDRV_MAX_GPIO_LINES];
	struct gpio_decl d;
	int i, n = 0;

	if (!gpio_decl(btf, type_id, value, size, &d) || !d.nr_lines)
		return 0;
	if (chip) {
		if (!*chip || strlen(chip) >= BPFDRV_GPIO_LABEL_MAX) {
			err("invalid --gpio-chip '%s': 1-%d characters",
			    chip, BPFDRV_GPIO_LABEL_MAX - 1);
			return -1;
		}
		memset(d.chip, 0, BPFDRV_GPIO_LABEL_MAX);
		strcpy(d.chip, chip);
	}
	if (!lines)
		return 1;
	while (*lines) {
		char *end;
		unsigned long off;

		errno = 0;
		off = strtoul(lines, &end, 10);
		if (errno || end == lines || off > 65535 ||
		    (*end && *end != ',') || n == BPFDRV_MAX_GPIO_LINES) {
			err("invalid --gpio-lines: want offsets like 3,4,5");
			return -1;
		}
		offsets[n++] = off;
		lines = *end ? end + 1 : end;
	}
	if (n != d.nr_lines) {
		err("--gpio-lines gives %d line%s, driver '%s' declares %d",
		    n, n == 1 ? "" : "s", driver, d.nr_lines);
		return -1;
	}
	for (i = 0; i < n; i++)
		d.lines[i].offset = offsets[i];
	return 1;
}

/* An open /dev/gpiochipN whose label is @label, or -1; fills @info. */
static int open_chip(const char *label, struct gpiochip_info *info)
{
	struct dirent *de;
	char path[300];
	DIR *dir;
	int fd = -1;

	dir = opendir("/dev");
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "gpiochip", 8))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(info, 0, sizeof(*info));
		if (!ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, info) &&
		    !strncmp(info->label, label, sizeof(info->label)))
			break;
		close(fd);
		fd = -1;
	}
	closedir(dir);
	return fd;
}

bool gpio_explain(const struct btf *btf, unsigned int type_id,
		  const char *value, size_t size, int attach_err,
		  const char *driver)
{
	struct gpio_v2_line_info li;
	struct gpiochip_info info;
	struct gpio_decl d;
	bool told = false;
	int fd, i;

	if (!gpio_decl(btf, type_id, value, size, &d) || !d.nr_lines)
		return false;
	fd = open_chip(d.chip, &info);
	if (fd < 0) {
		err("%s: no GPIO chip labelled '%s' (gpiodetect lists them)",
		    driver, d.chip);
		return true;
	}
	for (i = 0; i < d.nr_lines && !told; i++) {
		unsigned int off = d.lines[i].offset;
		int j;

		for (j = 0; j < i && !told; j++) {
			if (d.lines[j].offset == off) {
				err("%s: declares GPIO line %u twice",
				    driver, off);
				told = true;
			}
		}
		if (told)
			break;
		if (off >= info.lines) {
			err("%s: GPIO chip '%s' has no line %u (it has %u)",
			    driver, d.chip, off, info.lines);
			told = true;
			continue;
		}
		if (attach_err != EBUSY)
			continue;
		memset(&li, 0, sizeof(li));
		li.offset = off;
		if (ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, &li) ||
		    !(li.flags & GPIO_V2_LINE_FLAG_USED))
			continue;
		if (li.consumer[0])
			err("%s: GPIO line %u of chip '%s' is in use by '%.*s'",
			    driver, off, d.chip, (int)sizeof(li.consumer),
			    li.consumer);
		else
			err("%s: GPIO line %u of chip '%s' is in use",
			    driver, off, d.chip);
		told = true;
	}
	close(fd);
	return told;
}
