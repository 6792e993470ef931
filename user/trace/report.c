// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: the results read back from the BPF maps (per-CPU rows
 * summed, named as the kernel and the drivers name them) and printed the
 * bcc libbpf-tools way: a live table at an interval, a summary with log2
 * histograms at the end, or JSON, one object per line; and --list.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <drm/drm.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "fdinfo.h"
#include "hooks.h"
#include "nvidia.h"
#include "trace.skel.h"

static int lookup_hist(int fd, const struct trace_key *key, struct trace_hist *sum);

const char *trace_group_name(unsigned int group)
{
	switch (group) {
	case TRACE_NPU: return "npu";
	case TRACE_DRM: return "drm";
	case TRACE_BPFDRV: return "bpfdrv";
	case TRACE_NVIDIA: return "nvidia";
	case TRACE_DEV: return "dev";
	case TRACE_IOMMU: return "iommu";
	}
	return "?";
}

/* --- reading the results --- */

#define MINOR_MASK	0xfffffU

int trace_hook_by_id(__u32 id)
{
	int i;

	if (id < (__u32)NR_HOOKS)
		return hooks[id].kind == HOOK_LAT ? -1 : (int)id;
	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].kind == HOOK_LAT && hooks[i].lat_id == id)
			return i;
	return -1;
}

const char *trace_hook_name(int i) { return hooks[i].name; }
const char *trace_hook_target(int i) { return hooks[i].target; }
unsigned int trace_hook_group(int i) { return hooks[i].group; }
bool trace_hook_attached(int i) { return hooks[i].attached; }
bool trace_hook_per_minor(int i)
{
	return (hooks[i].kind == HOOK_FUNC || hooks[i].kind == HOOK_SYS) &&
	       (hooks[i].arg == TRACE_ARG_FILE_MINOR ||
		hooks[i].arg == TRACE_ARG_INODE_MINOR);
}

/* iommu:io_page_fault: rows per device and direction, with addresses */
static bool hook_is_fault(int i)
{
	return hooks[i].kind == HOOK_TP && hooks[i].prog == TP_IOMMU_FAULT;
}

/* Are the hook's rows per device (its sub-key a device name's hash)? */
bool trace_hook_per_device(int i)
{
	return (hooks[i].kind == HOOK_TP && (hooks[i].flags & TRACE_CTX_DEV)) ||
	       hook_is_fault(i) || hooks[i].kind == HOOK_FENTRY;
}

/* bpfdrv driver names by minor, from /sys/class/bpfdrv/<name>/dev. */
static struct { unsigned int minor; char name[64]; } drivers[256];
static int nr_drivers;

static void scan_drivers(void)
{
	DIR *d = opendir("/sys/class/bpfdrv");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && nr_drivers < 256) {
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
			for (i = 0; i < nr_drivers && drivers[i].minor != min; i++)
				;
			if (i == nr_drivers)
				nr_drivers++;
			drivers[i].minor = min;
			snprintf(drivers[i].name, sizeof(drivers[i].name), "%.63s",
				 de->d_name);
		}
		fclose(f);
	}
	closedir(d);
}

const char *trace_driver_name(unsigned int minor)
{
	int i;

	for (i = 0; i < nr_drivers; i++)
		if (drivers[i].minor == minor)
			return drivers[i].name;
	return NULL;
}

static bool hook_is_ioctl(int hook)
{
	return hooks[hook].kind == HOOK_FUNC && hooks[hook].arg == TRACE_ARG_IOCTL_NR;
}

/* The sub-key that JSON shows: a DRM ioctl's number, without the driver. */
static __u32 sub_number(int hook, __u32 sub)
{
	return hook_is_ioctl(hook) ? TRACE_IOCTL_NR(sub) : sub;
}

/* The device node of a minor, for the class of hook @h. */
static void minor_name(const struct trace_opts *o, const struct hook *h, __u32 minor,
		       char *buf, size_t size)
{
	const char *name = NULL;
	int i;

	switch (h->dev_class) {
	case TRACE_DEV_BPFDRV:
		name = trace_driver_name(minor);
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
	const struct hook *h = &hooks[hook];
	static const char prefix[] = "DRM_IOCTL_";
	__u32 nr = TRACE_IOCTL_NR(sub);
	const char *name;

	buf[0] = '\0';
	if (hook_is_ioctl(hook)) {
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
	} else if (trace_hook_per_minor(hook)) {
		minor_name(s->opts, h, sub, buf, size);
	} else if (h->prog == TP_XID && h->kind == HOOK_TP) {
		snprintf(buf, size, "%u %.*s", sub, TRACE_STR_LEN, hist ? hist->str : "");
	} else if (h->prog == TP_IRQ_NAMED && h->kind == HOOK_TP) {
		snprintf(buf, size, "irq%u", sub);
	} else if (hook_is_fault(hook)) {
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
	int hook = trace_hook_by_id(hook_id);
	struct trace_hist hist;

	buf[0] = '\0';
	if (hook < 0)
		return;
	if (!nr_drivers)
		scan_drivers();
	trace_sub_name(s, hook, sub,
		       lookup_hist(bpf_map__fd(s->skel->maps.hists), &key, &hist) ?
		       NULL : &hist, buf, size);
}

/* A row's DRM driver, for driver ioctls. */
static void row_driver(const struct trace_hist *hist, char *buf, size_t size)
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
static bool counted_by_call(int hook)
{
	return hooks[hook].kind == HOOK_FUNC || hooks[hook].kind == HOOK_SYS;
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
		if (counted_by_call(rows[i].hook))
			rows[i].hist.count = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (lookup_proc(fd, &key, &v))
			continue;
		for (i = 0; i < n; i++)
			if (counted_by_call(rows[i].hook) &&
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

	scan_drivers();
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct trace_row r = {};
		int hook;

		key = next;
		prev = &key;
		hook = trace_hook_by_id(key.hook);
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
		hook = trace_hook_by_id(key.hook);
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
		row_driver(hp, r.driver, sizeof(r.driver));
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
static void trace_json_num(FILE *out, double v)
{
	if (isnan(v))
		fputs("null", out);
	else
		fprintf(out, "%.3f", v);
}

/* --- printing --- */

void trace_print_hist(FILE *out, const struct trace_hist *h)
{
	int i, last = -1, width = 40;
	__u32 max = 0;

	for (i = 0; i < TRACE_HIST_SLOTS; i++) {
		if (h->slots[i])
			last = i;
		if (h->slots[i] > max)
			max = h->slots[i];
	}
	if (last < 0)
		return;
	fprintf(out, "%24s : %-8s distribution\n", "usecs", "count");
	for (i = 0; i <= last; i++) {
		unsigned long long lo = i ? 1ULL << i : 0, hi = (1ULL << (i + 1)) - 1;
		int stars = max ? (int)((unsigned long long)h->slots[i] * width / max) : 0;
		char range[48];	/* two 20-digit numbers */

		snprintf(range, sizeof(range), "%llu -> %llu", lo, hi);
		fprintf(out, "%24s : %-8u |%-*.*s|\n", range, h->slots[i], width,
			stars, "****************************************");
	}
}

void trace_json_hist(FILE *out, const struct trace_hist *h)
{
	bool first = true;
	int i;

	fputs("[", out);
	for (i = 0; i < TRACE_HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		fprintf(out, "%s{\"lo\":%llu,\"hi\":%llu,\"count\":%u}", first ? "" : ",",
			i ? 1ULL << i : 0ULL, (1ULL << (i + 1)) - 1, h->slots[i]);
		first = false;
	}
	fputs("]", out);
}

/* How events in interrupts are told from the interrupted task's. */
static void print_irq_context(struct trace_session *s)
{
	char how[192];

	irq_context(s->plan, s->opts, how, sizeof(how));
	if (s->opts->json) {
		fputs("{\"type\":\"irq_context\",\"how\":", s->out);
		json_str(s->out, how);
		fputs("}\n", s->out);
	} else {
		fprintf(s->out, "\nInterrupt context: %s.\n", how);
	}
}

void print_list(struct trace_session *s)
{
	FILE *out = s->out;
	int i;

	if (!s->opts->json)
		fprintf(out, "%-7s %-22s %-10s %-28s %s\n", "GROUP", "HOOK", "KIND",
			"TARGET", "STATUS");
	for (i = 0; i < NR_HOOKS; i++) {
		const struct hook *h = &hooks[i];
		const char *kind = h->kind == HOOK_FUNC || h->kind == HOOK_SYS ?
				   via_names[h->via] :
				   h->kind == HOOK_TP ? "tracepoint" :
				   h->kind == HOOK_FENTRY ? "fentry" : "latency";
		char status[256];

		if (!(h->group & s->opts->groups))
			continue;
		if (!h->attached)
			kind = "-";
		if (h->attached)	/* and why not a way tried before */
			snprintf(status, sizeof(status), "attached%s%s%s%s",
				 h->kind == HOOK_FUNC && s->plan->count_only &&
				 h->via <= VIA_KPROBE ?
				 ", entry only" : "", h->why[0] ? " (" : "", h->why,
				 h->why[0] ? ")" : "");
		else
			snprintf(status, sizeof(status), "skipped: %s", h->why);
		if (s->opts->json) {
			fprintf(out, "{\"type\":\"hook\",\"group\":\"%s\",\"hook\":\"%s\","
				"\"kind\":\"%s\",\"target\":", trace_group_name(h->group),
				h->name, kind);
			if (h->target)
				json_str(out, h->target);
			else
				fputs("null", out);
			fprintf(out, ",\"attached\":%s,\"status\":",
				h->attached ? "true" : "false");
			json_str(out, status);
			fputs(",\"what\":", out);
			json_str(out, h->what);
			fputs("}\n", out);
		} else {
			fprintf(out, "%-7s %-22s %-10s %-28s %s\n", trace_group_name(h->group),
				h->name, kind, h->target ? h->target : "-", status);
		}
	}
	print_irq_context(s);
	if (s->opts->json)
		fprintf(out, "{\"type\":\"startup\",\"total_s\":%.3f,\"probe_s\":%.3f,"
			"\"load_s\":%.3f,\"attach_s\":%.3f,\"attach_functions_s\":%.3f,\"copy_programs_s\":%.3f}\n",
			s->t_probe + s->t_load + s->t_attach, s->t_probe, s->t_load,
			s->t_attach, s->plan->t_attach_func, s->plan->t_copy);
	else
		fprintf(out, "\nStarted in %.2f s: probing %.2f s, loading %.2f s, "
			"attaching %.2f s (functions %.2f s).\n",
			s->t_probe + s->t_load + s->t_attach, s->t_probe, s->t_load,
			s->t_attach, s->plan->t_attach_func);
}

/* Column widths that fit the longest hook and detail names (at least @hw, @dw). */
static void name_widths(const struct trace_row *rows, int n,
			const struct trace_proc_row *procs, int np, int *hw, int *dw)
{
	int i, len;

	for (i = 0; rows && i < n; i++) {
		len = strlen(hooks[rows[i].hook].name);
		*hw = len > *hw ? len : *hw;
		len = strlen(rows[i].sub_name);
		*dw = len > *dw ? len : *dw;
	}
	for (i = 0; i < np; i++) {
		len = strlen(hooks[procs[i].hook].name);
		*hw = len > *hw ? len : *hw;
		len = strlen(procs[i].sub_name);
		*dw = len > *dw ? len : *dw;
	}
}

static int proc_key_cmp(const void *a, const void *b)
{
	const struct trace_proc_row *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->hook != y->hook)
		return x->hook < y->hook ? -1 : 1;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

static int proc_delta_cmp(const void *a, const void *b)
{
	const struct trace_proc_row *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : proc_key_cmp(a, b);
}

#define TOP_PROC_ROWS	20
#define TOP_CLIENTS	32

/* "12.0 KiB" */
static const char *human_size(long long bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = bytes;
	int u = 0;

	if (bytes < 0)
		return "-";
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, units[u]);
	return buf;
}

/*
 * The top view's DRM clients: those of the processes traced so far, from
 * their fdinfo (trace_fdinfo.c), each with its engines' busy share since
 * the last frame and its buffers.
 */
static void top_clients(struct trace_session *s, const struct trace_proc_row *procs,
			int np, double dt)
{
	struct trace_drm_client *c = calloc(TOP_CLIENTS, sizeof(*c));
	__u32 pids[TOP_CLIENTS];
	int i, j, n, npids = 0;
	char mem[32];

	if (!c)
		return;
	for (i = 0; i < np && npids < TOP_CLIENTS; i++) {
		if (trace_tgid_is_irq(procs[i].tgid))
			continue;
		for (j = 0; j < npids && pids[j] != procs[i].tgid; j++)
			;
		if (j == npids)
			pids[npids++] = procs[i].tgid;
	}
	n = trace_drm_clients(pids, npids, c, TOP_CLIENTS);
	if (n)
		fprintf(s->out, "\n%-7s %-16s %-16s %8s %7s %6s %12s\n", "PID", "COMM",
			"DRM DRIVER", "CLIENT", "ENGINES", "BUSY%", "MEMORY");
	for (i = 0; i < n; i++) {
		const char *comm = "?";
		double busy = -1;

		for (j = 0; j < np; j++)
			if (procs[j].tgid == c[i].pid)
				comm = procs[j].comm;
		for (j = 0; j < s->nr_prev_clients; j++) {
			const struct trace_drm_client *was = &s->prev_clients[j];

			if (was->pid == c[i].pid && was->id == c[i].id &&
			    c[i].engine_ns >= was->engine_ns && dt > 0)	/* % of dt */
				busy = (c[i].engine_ns - was->engine_ns) / (dt * 1e7);
		}
		fprintf(s->out, "%-7u %-16s %-16s %8llu %7d ", c[i].pid, comm, c[i].driver,
			c[i].id, c[i].engines);
		if (busy >= 0 && c[i].engines)
			fprintf(s->out, "%6.1f", busy);
		else
			fprintf(s->out, "%6s", "-");
		fprintf(s->out, " %12s\n", human_size(c[i].memory, mem, sizeof(mem)));
	}
	free(s->prev_clients);
	s->prev_clients = c;
	s->nr_prev_clients = n;
}

/*
 * The top view (--top, or -i on a terminal): the screen redrawn each
 * interval with each hook's rate and the busiest processes' rows since the
 * last one, as nvtop and intel_gpu_top show theirs.
 */
static void trace_report_top(struct trace_session *s, const __u64 *totals)
{
	struct trace_proc_row *procs, *delta, *old;
	double t = now_s(), dt = t - s->last_time;
	int i, np, nd = 0, hw = 22, dw = 18;
	struct trace_loss loss;
	time_t wall = time(NULL);
	char ts[16];

	np = trace_read_procs(s, &procs);
	if (np < 0)
		np = 0;
	qsort(procs, np, sizeof(*procs), proc_key_cmp);
	delta = calloc(np ? np : 1, sizeof(*delta));
	for (i = 0; delta && i < np; i++) {
		__u64 before = 0;

		old = s->prev_procs ? bsearch(&procs[i], s->prev_procs, s->nr_prev_procs,
					      sizeof(*procs), proc_key_cmp) : NULL;
		if (old)
			before = old->count;
		if (procs[i].count > before) {
			delta[nd] = procs[i];
			delta[nd++].count = procs[i].count - before;
		}
	}
	if (delta)
		qsort(delta, nd, sizeof(*delta), proc_delta_cmp);
	name_widths(NULL, 0, delta, nd < TOP_PROC_ROWS ? nd : TOP_PROC_ROWS, &hw, &dw);
	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&wall));
	fputs("\033[H\033[2J", s->out);
	fprintf(s->out, "bpfdrv trace  %s  traced %.0f s, every %.1f s; Ctrl-C to end\n\n",
		ts, t - s->start_time, s->opts->interval);
	fprintf(s->out, "%-7s %-*s %10s %10s %12s\n", "GROUP", hw, "HOOK", "COUNT",
		"RATE/s", "TOTAL");
	for (i = 0; i < NR_HOOKS; i++) {
		__u64 d = totals[i] - s->prev[i];

		if (!totals[i])
			continue;
		fprintf(s->out, "%-7s %-*s %10llu %10.1f %12llu\n",
			trace_group_name(hooks[i].group), hw, hooks[i].name,
			(unsigned long long)d, dt > 0 ? d / dt : 0.0,
			(unsigned long long)totals[i]);
	}
	fprintf(s->out, "\n%-7s %-16s %-*s %-*s %10s %10s\n", "PID", "COMM", hw, "HOOK",
		dw, "DETAIL", "COUNT", "RATE/s");
	for (i = 0; i < nd && i < TOP_PROC_ROWS; i++) {
		char pid[16] = "-";

		if (!trace_tgid_is_irq(delta[i].tgid))
			snprintf(pid, sizeof(pid), "%u", delta[i].tgid);
		fprintf(s->out, "%-7s %-16s %-*s %-*s %10llu %10.1f\n", pid, delta[i].comm,
			hw, hooks[delta[i].hook].name, dw,
			delta[i].sub_name[0] ? delta[i].sub_name : "-",
			(unsigned long long)delta[i].count,
			dt > 0 ? delta[i].count / dt : 0.0);
	}
	if (!nd)
		fprintf(s->out, "(no events this interval)\n");
	else if (nd > TOP_PROC_ROWS)
		fprintf(s->out, "(%d more rows)\n", nd - TOP_PROC_ROWS);
	top_clients(s, procs, np, dt);
	trace_read_loss(s, &loss);
	if (loss.total > s->prev_lost)
		fprintf(s->out, "\nLOST %llu events: the counts are incomplete\n",
			(unsigned long long)(loss.total - s->prev_lost));
	s->prev_lost = loss.total;
	for (i = 0; i < NR_HOOKS; i++)
		s->prev[i] = totals[i];
	free(delta);
	free(s->prev_procs);
	s->prev_procs = procs;
	s->nr_prev_procs = np;
	fflush(s->out);
	s->last_time = t;
}

/* Live view: what each hook did since the last interval. */
void trace_report_interval(struct trace_session *s)
{
	__u64 totals[TRACE_MAX_HOOKS] = {};
	struct trace_loss loss;
	struct trace_row *rows;
	double t = now_s(), dt = t - s->last_time;
	bool first = true;
	int i, n;

	n = trace_read_rows(s, &rows);
	for (i = 0; i < n; i++)
		totals[rows[i].hook] += rows[i].hist.count;
	free(rows);
	if (s->opts->top && !s->opts->json) {
		trace_report_top(s, totals);
		return;
	}
	if (s->opts->json) {
		fprintf(s->out, "{\"type\":\"interval\",\"elapsed_s\":%.3f,\"counts\":{",
			t - s->start_time);
	} else {
		time_t wall = time(NULL);
		char ts[16];

		strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&wall));
		fprintf(s->out, "\n%s %-7s %-22s %10s %10s\n", ts, "GROUP", "HOOK",
			"COUNT", "RATE/s");
	}
	for (i = 0; i < NR_HOOKS; i++) {
		__u64 d = totals[i] - s->prev[i];

		s->prev[i] = totals[i];
		if (!d)
			continue;
		if (s->opts->json) {
			fprintf(s->out, "%s\"%s/%s\":%llu", first ? "" : ",",
				trace_group_name(hooks[i].group), hooks[i].name,
				(unsigned long long)d);
		} else {
			fprintf(s->out, "%8s %-7s %-22s %10llu %10.1f\n", "",
				trace_group_name(hooks[i].group), hooks[i].name,
				(unsigned long long)d, dt > 0 ? d / dt : 0.0);
		}
		first = false;
	}
	trace_read_loss(s, &loss);
	if (s->opts->json)
		fprintf(s->out, "},\"lost\":%llu}\n",
			(unsigned long long)(loss.total - s->prev_lost));
	else if (first)
		fprintf(s->out, "%8s (no events)\n", "");
	if (!s->opts->json && loss.total > s->prev_lost)
		fprintf(s->out, "%8s LOST %llu events: the counts are incomplete\n", "",
			(unsigned long long)(loss.total - s->prev_lost));
	s->prev_lost = loss.total;
	fflush(s->out);
	s->last_time = t;
}

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

/* DMA bytes per device and the I/O page faults' addresses (-g iommu). */
static void print_dma_text(FILE *out, const struct trace_row *rows, int n)
{
	bool first = true;
	int i;

	for (i = 0; i < n; i++) {
		const struct trace_row *r = &rows[i];
		const struct hook *h = &hooks[r->hook];

		if (!r->hist.bytes && !hook_is_fault(r->hook))
			continue;
		if (first)
			fprintf(out, "\n%-22s %-18s %10s %s\n", "HOOK", "DEVICE", "COUNT",
				"BYTES OR ADDRESSES");
		first = false;
		if (hook_is_fault(r->hook))
			fprintf(out, "%-22s %-18s %10llu 0x%llx-0x%llx\n", h->name,
				r->sub_name, (unsigned long long)r->hist.count,
				(unsigned long long)r->hist.addr_min,
				(unsigned long long)r->hist.addr_max);
		else
			fprintf(out, "%-22s %-18s %10llu %llu\n", h->name,
				r->sub_name[0] ? r->sub_name : "-",
				(unsigned long long)r->hist.count,
				(unsigned long long)r->hist.bytes);
	}
}

static void print_summary_text(struct trace_session *s, struct trace_row *rows,
			       int n, struct trace_proc_row *procs, int np)
{
	FILE *out = s->out;
	int i, hw = 22, dw = 18;

	name_widths(rows, n, procs, np, &hw, &dw);
	fprintf(out, "\nTraced for %.1f s.\n\n%-7s %-*s %-*s %10s %7s %10s %10s\n",
		now_s() - s->start_time, "GROUP", hw, "HOOK", dw, "DETAIL", "COUNT",
		"ERRORS", "AVG(us)", "MAX(us)");
	for (i = 0; i < n; i++) {
		const struct trace_hist *h = &rows[i].hist;
		char avg[24] = "-", max[24] = "-";

		if (h->timed) {
			snprintf(avg, sizeof(avg), "%.1f", h->total_ns / 1e3 / h->timed);
			snprintf(max, sizeof(max), "%.1f", h->max_ns / 1e3);
		}
		fprintf(out, "%-7s %-*s %-*s %10llu %7llu %10s %10s\n",
			trace_group_name(hooks[rows[i].hook].group),
			hw, hooks[rows[i].hook].name, dw,
			rows[i].sub_name[0] ? rows[i].sub_name : "-",
			(unsigned long long)h->count, (unsigned long long)h->errors,
			avg, max);
	}
	if (!n)
		fprintf(out, "(no events)\n");

	if (np) {
		fprintf(out, "\n%-7s %-16s %-*s %-*s %10s\n", "PID", "COMM", hw, "HOOK",
			dw, "DETAIL", "COUNT");
		for (i = 0; i < np; i++) {
			char pid[16] = "-";

			if (!trace_tgid_is_irq(procs[i].tgid))
				snprintf(pid, sizeof(pid), "%u", procs[i].tgid);
			fprintf(out, "%-7s %-16s %-*s %-*s %10llu\n", pid,
				procs[i].comm, hw, hooks[procs[i].hook].name, dw,
				procs[i].sub_name[0] ? procs[i].sub_name : "-",
				(unsigned long long)procs[i].count);
		}
	}

	print_dma_text(out, rows, n);
	for (i = 0; i < n; i++) {
		const struct trace_hist *h = &rows[i].hist;
		char sds[32] = "- (too long to square)";
		double sd;

		if (!h->timed)
			continue;
		sd = trace_stddev_us(h);
		if (!isnan(sd))
			snprintf(sds, sizeof(sds), "%.1f us", sd);
		fprintf(out, "\n%s %s%s%s: %llu, avg %.1f us, stddev %s\n",
			trace_group_name(hooks[rows[i].hook].group),
			hooks[rows[i].hook].name, rows[i].sub_name[0] ? " " : "",
			rows[i].sub_name, (unsigned long long)h->timed,
			h->total_ns / 1e3 / h->timed, sds);
		trace_print_hist(out, h);
	}
}

/* "context": where a process row's events ran; irq rows have no pid. */
void trace_json_who(FILE *out, __u32 tgid, const char *comm)
{
	if (tgid == TRACE_TGID_HARDIRQ)
		fputs("\"pid\":null,\"context\":\"hardirq\",\"comm\":", out);
	else if (tgid == TRACE_TGID_SOFTIRQ)
		fputs("\"pid\":null,\"context\":\"softirq\",\"comm\":", out);
	else
		fprintf(out, "\"pid\":%u,\"context\":\"task\",\"comm\":", tgid);
	json_str(out, comm);
}

static void print_summary_json(struct trace_session *s, struct trace_row *rows,
			       int n, struct trace_proc_row *procs, int np)
{
	FILE *out = s->out;
	char drv[TRACE_DRV_LEN + 1];
	int i;

	for (i = 0; i < n; i++) {
		const struct trace_row *r = &rows[i];
		const struct hook *h = &hooks[r->hook];

		fprintf(out, "{\"type\":\"stat\",\"group\":\"%s\",\"hook\":\"%s\","
			"\"target\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(h->group), h->name, h->target ? h->target : "",
			sub_number(r->hook, r->sub));
		json_str(out, r->sub_name);
		if (hook_is_ioctl(r->hook)) {
			row_driver(&r->hist, drv, sizeof(drv));
			fputs(",\"driver\":", out);
			json_str(out, drv);
		}
		if (h->group == TRACE_IOMMU)
			fprintf(out, ",\"bytes\":%llu", (unsigned long long)r->hist.bytes);
		if (hook_is_fault(r->hook))
			fprintf(out, ",\"write\":%s,\"addr_min\":%llu,\"addr_max\":%llu",
				r->sub & TRACE_FAULT_WRITE ? "true" : "false",
				(unsigned long long)r->hist.addr_min,
				(unsigned long long)r->hist.addr_max);
		fprintf(out, ",\"count\":%llu,\"errors\":%llu,\"timed\":%llu,"
			"\"total_ns\":%llu,\"max_ns\":%llu,\"sumsq_100ns2\":%llu,"
			"\"stddev_us\":",
			(unsigned long long)r->hist.count, (unsigned long long)r->hist.errors,
			(unsigned long long)r->hist.timed, (unsigned long long)r->hist.total_ns,
			(unsigned long long)r->hist.max_ns,
			(unsigned long long)r->hist.sumsq_100ns2);
		trace_json_num(out, trace_stddev_us(&r->hist));
		fputs(",\"hist_us\":", out);
		trace_json_hist(out, &r->hist);
		fputs("}\n", out);
	}
	for (i = 0; i < np; i++) {
		fputs("{\"type\":\"proc\",", out);
		trace_json_who(out, procs[i].tgid, procs[i].comm);
		fprintf(out, ",\"group\":\"%s\",\"hook\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(hooks[procs[i].hook].group),
			hooks[procs[i].hook].name, sub_number(procs[i].hook, procs[i].sub));
		json_str(out, procs[i].sub_name);
		if (hook_is_ioctl(procs[i].hook)) {
			fputs(",\"driver\":", out);
			json_str(out, procs[i].driver);
		}
		fprintf(out, ",\"count\":%llu}\n", (unsigned long long)procs[i].count);
	}
	fprintf(out, "{\"type\":\"end\",\"duration_s\":%.3f}\n", now_s() - s->start_time);
}

static const char *const lost_names[TRACE_LOST_NR] = {
	[TRACE_LOST_CALLS] = "calls_full",
	[TRACE_LOST_ROWS] = "rows_full",
	[TRACE_LOST_PROCS] = "procs_full",
	[TRACE_LOST_OWNERS] = "objects_full",
	[TRACE_LOST_FOLLOW] = "children_not_followed",
	[TRACE_LOST_EVENTS] = "timeline_full",
};

void print_loss(struct trace_session *s, const struct trace_loss *l)
{
	int i;

	if (s->opts->json) {
		fprintf(s->out, "{\"type\":\"lost\",\"total\":%llu,\"probe_missed\":%llu,"
			"\"recursion_missed\":%llu", (unsigned long long)l->total,
			(unsigned long long)l->probe, (unsigned long long)l->recursion);
		for (i = 0; i < TRACE_LOST_NR; i++)
			fprintf(s->out, ",\"%s\":%llu", lost_names[i],
				(unsigned long long)l->bpf[i]);
		fputs("}\n", s->out);
		return;
	}
	if (!l->total) {
		fprintf(s->out, "\nNo events lost.\n");
		return;
	}
	fprintf(s->out, "\nLOST %llu events: the counts are incomplete "
		"(probe misses %llu, skipped by recursion %llu",
		(unsigned long long)l->total, (unsigned long long)l->probe,
		(unsigned long long)l->recursion);
	for (i = 0; i < TRACE_LOST_NR; i++)
		if (l->bpf[i])
			fprintf(s->out, ", %s %llu", lost_names[i],
				(unsigned long long)l->bpf[i]);
	fputs(")\n", s->out);
}

void trace_report_final(struct trace_session *s)
{
	struct trace_proc_row *procs;
	struct trace_row *rows;
	int n, np;

	n = trace_read_rows(s, &rows);
	np = trace_read_procs(s, &procs);
	if (s->opts->json)
		print_summary_json(s, rows, n, procs, np);
	else
		print_summary_text(s, rows, n, procs, np);
	free(rows);
	free(procs);
}
