// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: the results read back from the BPF maps: per-CPU rows
 * summed, the (hook, sub-key) rows and the per-process rows named as the
 * kernel and the drivers name them (ioctls, devices, CRTCs, event
 * strings), and everything that could not be recorded. The layers that
 * write reports and timelines read through here; nothing here prints.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drm/drm.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "attach.h"
#include "hooks.h"
#include "nvidia.h"
#include "read.h"
#include "trace.skel.h"

#define MINOR_MASK	0xfffffU

static int lookup_hist(int fd, const struct trace_key *key, struct trace_hist *sum);

/* bpfdrv driver names by minor, from /sys/class/bpfdrv/<name>/dev. */
struct trace_names {
	struct { unsigned int minor; char name[64]; } drivers[256];
	int nr_drivers;
};

static void scan_drivers(struct trace_session *s)
{
	struct trace_names *t = s->names;
	DIR *d;
	struct dirent *de;

	if (!t)
		t = s->names = calloc(1, sizeof(*t));
	d = t ? opendir("/sys/class/bpfdrv") : NULL;
	if (!d)
		return;
	while ((de = readdir(d)) && t->nr_drivers < 256) {
		char path[320], buf[32];
		unsigned int maj, min;
		FILE *f;
		int i;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/bpfdrv/%s/dev", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2) {
			for (i = 0; i < t->nr_drivers && t->drivers[i].minor != min; i++)
				;
			if (i == t->nr_drivers)
				t->nr_drivers++;
			t->drivers[i].minor = min;
			snprintf(t->drivers[i].name, sizeof(t->drivers[i].name), "%.63s",
				 de->d_name);
		}
		fclose(f);
	}
	closedir(d);
}

static const char *driver_name(const struct trace_session *s, unsigned int minor)
{
	const struct trace_names *t = s->names;
	int i;

	for (i = 0; t && i < t->nr_drivers; i++)
		if (t->drivers[i].minor == minor)
			return t->drivers[i].name;
	return NULL;
}

void trace_read_free(struct trace_session *s)
{
	free(s->names);
	s->names = NULL;
}

/* The sub-key that JSON shows: a DRM ioctl's number, without the driver. */
__u32 trace_sub_number(const struct trace_plan *p, int hook, __u32 sub)
{
	return trace_hook_is_ioctl(p, hook) ? TRACE_IOCTL_NR(sub) : sub;
}

/* The device node of a minor, for the class of hook @h. */
static void minor_name(const struct trace_session *s, const struct hook *h, __u32 minor,
		       char *buf, size_t size)
{
	const struct trace_opts *o = s->opts;
	const char *name = NULL;
	int i;

	switch (h->dev_class) {
	case TRACE_DEV_BPFDRV:
		name = driver_name(s, minor);
		break;
	case TRACE_DEV_NVIDIA:
	case TRACE_DEV_NVIDIA_UVM:
		nvidia_minor_name(minor, h->dev_class == TRACE_DEV_NVIDIA_UVM, buf, size);
		return;
	case TRACE_DEV_USER:	/* the --device that names exactly this one */
		for (i = 0; i < o->nr_devices; i++)
			if ((o->devices[i] & MINOR_MASK) == minor)
				name = o->device_names[i];
		break;
	default:
		break;
	}
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "minor%u", minor);
}

/*
 * A row's sub-key in words: the ioctl's name as the kernel's descriptor
 * gives it (the number where it has none), driver name, CRTC or event
 * string.
 */
static void trace_sub_name(const struct trace_session *s, int hook, __u32 sub,
			   const struct trace_hist *hist, char *buf, size_t size)
{
	const struct hook *h = &s->plan->hooks[hook];
	static const char prefix[] = "DRM_IOCTL_";
	__u32 nr = TRACE_IOCTL_NR(sub);
	const char *name;

	buf[0] = '\0';
	if (trace_hook_is_ioctl(s->plan, hook)) {
		if (hist && hist->str[0]) {
			name = hist->str;
			if (!strncmp(name, prefix, sizeof(prefix) - 1))
				name += sizeof(prefix) - 1;
			snprintf(buf, size, "%.*s", TRACE_STR_LEN, name);
		} else if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
			snprintf(buf, size, "DRIVER+0x%02x", nr - DRM_COMMAND_BASE);
		} else {
			snprintf(buf, size, "0x%02x", nr);
		}
	} else if (h->arg == TRACE_ARG_IOCTL_CMD) {
		name = h->dev_class == TRACE_DEV_NVIDIA ? nvidia_ioctl_name(sub) :
		       h->dev_class == TRACE_DEV_NVIDIA_UVM ? nvidia_uvm_ioctl_name(sub) :
		       NULL;
		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "0x%x", sub);
	} else if (trace_hook_per_minor(s->plan, hook)) {
		minor_name(s, h, sub, buf, size);
	} else if (h->prog == TP_XID && h->kind == HOOK_TP) {
		snprintf(buf, size, "%u %.*s", sub, TRACE_STR_LEN, hist ? hist->str : "");
	} else if (h->prog == TP_IRQ_NAMED && h->kind == HOOK_TP) {
		snprintf(buf, size, "irq%u", sub);
	} else if (trace_hook_is_fault(s->plan, hook)) {
		snprintf(buf, size, "%.*s %s", TRACE_STR_LEN, hist ? hist->str : "?",
			 sub & TRACE_FAULT_WRITE ? "write" : "read");
	} else if (h->flags & TRACE_CTX_CRTC) {
		snprintf(buf, size, "crtc%u", sub);
	} else if (hist && hist->str[0]) {
		snprintf(buf, size, "%.*s", TRACE_STR_LEN, hist->str);
	}
}

/* The detail of the row (hook id, sub) in words, for the timeline. */
void trace_row_name(struct trace_session *s, __u32 hook_id, __u32 sub,
		    char *buf, size_t size)
{
	struct trace_key key = { .hook = hook_id, .sub = sub };
	int hook = trace_hook_by_id(s->plan, hook_id);
	struct trace_hist hist;

	buf[0] = '\0';
	if (hook < 0)
		return;
	if (!s->names || !s->names->nr_drivers)
		scan_drivers(s);
	trace_sub_name(s, hook, sub,
		       lookup_hist(bpf_map__fd(s->skel->maps.hists), &key, &hist) ?
		       NULL : &hist, buf, size);
}

/* A row's DRM driver, for driver ioctls. */
void trace_row_driver(const struct trace_hist *hist, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s", TRACE_DRV_LEN, hist ? hist->drv : "");
}

/* Make room in *rows for element @n (doubling); false if out of memory. */
static bool grow_rows(void **rows, int n, int *cap, size_t size)
{
	int want = *cap ? *cap * 2 : 64;
	void *p;

	if (n < *cap)
		return true;
	p = realloc(*rows, want * size);
	if (!p)
		return false;
	*rows = p;
	*cap = want;
	return true;
}

static int row_cmp(const void *a, const void *b)
{
	const struct trace_row *x = a, *y = b;

	if (x->hook != y->hook)
		return x->hook - y->hook;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

/*
 * Every CPU's copy of @key's value (@size bytes each); NULL if none. The
 * maps are per CPU: a row is the sum of its CPUs' copies. Each event adds
 * to one copy only, so the names of a new row are in the copy of the CPU
 * that made it.
 */
static void *lookup_percpu(int fd, const void *key, size_t size, int *cpus)
{
	void *v;

	*cpus = libbpf_num_possible_cpus();
	v = *cpus > 0 ? calloc(*cpus, size) : NULL;
	if (v && bpf_map_lookup_elem(fd, key, v)) {
		free(v);
		v = NULL;
	}
	return v;
}

static int lookup_hist(int fd, const struct trace_key *key, struct trace_hist *sum)
{
	struct trace_hist *v;
	int cpus, c, i;

	v = lookup_percpu(fd, key, sizeof(*v), &cpus);
	if (!v)
		return -1;
	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < cpus; c++) {
		if (v[c].count && (!sum->count || v[c].addr_min < sum->addr_min))
			sum->addr_min = v[c].addr_min;
		sum->count += v[c].count;
		sum->errors += v[c].errors;
		sum->timed += v[c].timed;
		sum->total_ns += v[c].total_ns;
		if (__builtin_add_overflow(sum->sumsq_100ns2, v[c].sumsq_100ns2,
					   &sum->sumsq_100ns2))
			sum->sumsq_overflow = 1;
		sum->sumsq_overflow |= v[c].sumsq_overflow;
		sum->bytes += v[c].bytes;
		if (v[c].addr_max > sum->addr_max)
			sum->addr_max = v[c].addr_max;
		if (v[c].max_ns > sum->max_ns)
			sum->max_ns = v[c].max_ns;
		for (i = 0; i < TRACE_HIST_SLOTS; i++)
			sum->slots[i] += v[c].slots[i];
		if (!sum->str[0])
			memcpy(sum->str, v[c].str, sizeof(sum->str));
		if (!sum->drv[0])
			memcpy(sum->drv, v[c].drv, sizeof(sum->drv));
	}
	free(v);
	return 0;
}

static int lookup_proc(int fd, const struct trace_proc_key *key, struct trace_proc *sum)
{
	struct trace_proc *v;
	int cpus, c;

	v = lookup_percpu(fd, key, sizeof(*v), &cpus);
	if (!v)
		return -1;
	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < cpus; c++) {
		sum->count += v[c].count;
		if (!sum->comm[0])
			memcpy(sum->comm, v[c].comm, sizeof(sum->comm));
	}
	free(v);
	return 0;
}

/* Are the hook's events calls (func_count()): a function's or a syscall's? */
static bool counted_by_call(const struct trace_plan *p, int hook)
{
	return p->hooks[hook].kind == HOOK_FUNC || p->hooks[hook].kind == HOOK_SYS;
}

/*
 * Counting only (-C), a function's calls are counted in the process rows
 * alone, one map update per call: a (hook, sub) row's count is their sum.
 */
static void count_from_procs(struct trace_session *s, struct trace_row *rows, int n)
{
	int fd = bpf_map__fd(s->skel->maps.procs), i;
	struct trace_proc_key key, next, *prev = NULL;
	struct trace_proc v;

	for (i = 0; i < n; i++)
		if (counted_by_call(s->plan, rows[i].hook))
			rows[i].hist.count = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (lookup_proc(fd, &key, &v))
			continue;
		for (i = 0; i < n; i++)
			if (counted_by_call(s->plan, rows[i].hook) &&
			    (__u32)rows[i].hook == key.hook && rows[i].sub == key.sub)
				rows[i].hist.count += v.count;
	}
}

/* All (hook, sub-key) rows, sorted by hook then sub-key. */
int trace_read_rows(struct trace_session *s, struct trace_row **rowsp)
{
	int fd = bpf_map__fd(s->skel->maps.hists), n = 0, cap = 0;
	struct trace_key key, next, *prev = NULL;
	struct trace_row *rows = NULL;

	scan_drivers(s);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct trace_row r = {};
		int hook;

		key = next;
		prev = &key;
		hook = trace_hook_by_id(s->plan, key.hook);
		if (hook < 0 || lookup_hist(fd, &key, &r.hist))
			continue;
		r.hook = hook;
		r.sub = key.sub;
		trace_sub_name(s, hook, key.sub, &r.hist, r.sub_name, sizeof(r.sub_name));
		if (!grow_rows((void **)&rows, n, &cap, sizeof(*rows)))
			break;
		rows[n++] = r;
	}
	if (s->plan->count_only)
		count_from_procs(s, rows, n);
	if (n)
		qsort(rows, n, sizeof(*rows), row_cmp);
	*rowsp = rows;
	return n;
}

static int proc_cmp(const void *a, const void *b)
{
	const struct trace_proc_row *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->hook != y->hook)
		return x->hook - y->hook;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

int trace_read_procs(struct trace_session *s, struct trace_proc_row **rowsp)
{
	int fd = bpf_map__fd(s->skel->maps.procs), n = 0, cap = 0;
	struct trace_proc_key key, next, *prev = NULL;
	struct trace_proc_row *rows = NULL;
	int hfd = bpf_map__fd(s->skel->maps.hists);

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct trace_hist hist, *hp;
		struct trace_key hkey;
		struct trace_proc v;
		struct trace_proc_row r = {};
		int hook;

		key = next;
		prev = &key;
		hook = trace_hook_by_id(s->plan, key.hook);
		if (hook < 0 || lookup_proc(fd, &key, &v))
			continue;
		r.tgid = key.tgid;
		r.hook = hook;
		r.sub = key.sub;
		r.count = v.count;
		memcpy(r.comm, v.comm, TRACE_COMM_LEN);
		r.comm[TRACE_COMM_LEN] = '\0';
		hkey.hook = key.hook;
		hkey.sub = key.sub;
		hp = lookup_hist(hfd, &hkey, &hist) ? NULL : &hist;
		trace_sub_name(s, hook, key.sub, hp, r.sub_name, sizeof(r.sub_name));
		trace_row_driver(hp, r.driver, sizeof(r.driver));
		if (!grow_rows((void **)&rows, n, &cap, sizeof(*rows)))
			break;
		rows[n++] = r;
	}
	if (n)
		qsort(rows, n, sizeof(*rows), proc_cmp);
	*rowsp = rows;
	return n;
}

/* A number, or null for NaN (JSON has none). */

/*
 * The standard deviation of a row's latencies in microseconds, from the
 * sum of their squares in units of 100 ns (rounded) and the exact mean;
 * NaN when the squares overflowed (latencies of minutes).
 */
double trace_stddev_us(const struct trace_hist *h)
{
	double n = h->timed, mean, var;

	if (h->sumsq_overflow)
		return NAN;
	if (h->timed < 2)
		return 0;
	mean = h->total_ns / 100.0 / n;
	var = ((double)h->sumsq_100ns2 / n - mean * mean) * n / (n - 1);
	return var > 0 ? sqrt(var) / 10 : 0;
}

/*
 * Everything that was not recorded: the programs' own counts (tables
 * full), programs the kernel skipped (recursion), and kprobe misses
 * (a kretprobe has a fixed number of instances for calls in flight).
 */
void trace_read_loss(struct trace_session *s, struct trace_loss *l)
{
	int i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < TRACE_LOST_NR; i++) {
		l->bpf[i] = s->skel->bss->lost[i];
		l->total += l->bpf[i];
	}
	attach_missed(s, &l->recursion, &l->probe);
	l->total += l->recursion + l->probe;
}

/* A cause of loss by its name in the reports. */
const char *trace_lost_name(int cause)
{
	static const char *const names[TRACE_LOST_NR] = {
		[TRACE_LOST_CALLS] = "calls_full",
		[TRACE_LOST_ROWS] = "rows_full",
		[TRACE_LOST_PROCS] = "procs_full",
		[TRACE_LOST_OWNERS] = "objects_full",
		[TRACE_LOST_FOLLOW] = "children_not_followed",
		[TRACE_LOST_EVENTS] = "timeline_full",
	};

	return cause >= 0 && cause < TRACE_LOST_NR ? names[cause] : "?";
}
