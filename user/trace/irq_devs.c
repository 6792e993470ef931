// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace -g iommu: which device each IRQ is, for the dev_irq hook,
 * read from sysfs at start and every second after. A PCI function's MSI
 * and MSI-X vectors are its own (msi_irqs/); without them, its INTx line
 * (irq) is, unless another function names the same line: the irq
 * tracepoints do not tell a shared line's handlers apart by device.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "trace.h"
#include "irq_devs.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define MAX_IRQ_DEVS	1024	/* irq_devs' size in trace.bpf.c */

struct irq_owner {
	unsigned int irq;
	bool shared;
	char name[TRACE_STR_LEN];
};

/* The hash of the BPF programs' str_key(): a device name's sub-key. */
static __u32 str_hash(const char *s)
{
	__u32 h = 2166136261U;
	int i;

	for (i = 0; i < TRACE_STR_LEN - 1 && s[i]; i++)
		h = (h ^ (__u8)s[i]) * 16777619U;
	return h;
}

static void add_owner(struct irq_owner *o, int *n, unsigned int irq, const char *name)
{
	int i;

	if (!irq)
		return;
	for (i = 0; i < *n; i++) {
		if (o[i].irq == irq) {
			o[i].shared |= strcmp(o[i].name, name) != 0;
			return;
		}
	}
	if (*n == MAX_IRQ_DEVS)
		return;
	o[*n].irq = irq;
	o[*n].shared = false;
	snprintf(o[*n].name, sizeof(o[*n].name), "%s", name);
	(*n)++;
}

/* A function's IRQs: its MSI vectors, else its INTx line. */
static void add_function(struct irq_owner *o, int *n, const char *name)
{
	char path[512];
	struct dirent *de;
	unsigned int irq;
	bool msi = false;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/msi_irqs", name);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		add_owner(o, n, strtoul(de->d_name, NULL, 10), name);
		msi = true;
	}
	if (d)
		closedir(d);
	if (msi)
		return;
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/irq", name);
	f = fopen(path, "r");
	if (f && fscanf(f, "%u", &irq) == 1)
		add_owner(o, n, irq, name);
	if (f)
		fclose(f);
}

/* Is @irq in @o, and its device's own? */
static bool owned(const struct irq_owner *o, int n, unsigned int irq)
{
	int i;

	for (i = 0; i < n; i++)
		if (o[i].irq == irq)
			return !o[i].shared;
	return false;
}

/*
 * Make the map irq_devs (fd @map_fd) what sysfs says now: IRQs a device
 * has come or changed device, those gone or now shared left out. The
 * number of IRQs in it, or -1.
 */
int trace_fill_irq_devs(int map_fd)
{
	struct irq_owner *o = calloc(MAX_IRQ_DEVS, sizeof(*o));
	DIR *d = opendir(PCI_DEVICES);
	unsigned int key, next, *prev = NULL;
	struct trace_irq_dev v;
	struct dirent *de;
	int n = 0, filled = 0, i;

	if (!o || !d) {
		free(o);
		if (d)
			closedir(d);
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			add_function(o, &n, de->d_name);
	closedir(d);
	while (!bpf_map_get_next_key(map_fd, prev, &next)) {
		if (!owned(o, n, next) && !bpf_map_delete_elem(map_fd, &next))
			continue;	/* the walk starts again from @prev */
		key = next;
		prev = &key;
	}
	for (i = 0; i < n; i++) {
		if (o[i].shared)
			continue;
		memset(&v, 0, sizeof(v));
		snprintf(v.name, sizeof(v.name), "%s", o[i].name);
		v.sub = str_hash(v.name);
		if (!bpf_map_update_elem(map_fd, &o[i].irq, &v, BPF_ANY))
			filled++;
	}
	free(o);
	return filled;
}
