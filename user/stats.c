// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv stats: per driver and per callback, call counts and latencies.
 *
 * Two sources. The module's always-on per-CPU counters
 * (/sys/class/bpfdrv/<name>/stats) give call counts since attach at no
 * extra cost. Latencies and errors come from the bpfdrv group of
 * `bpfdrv trace` (kprobes on the module's file operations), attached only
 * while this command measures (-d, -i or a COMMAND), so the drivers' hot
 * paths carry no tracing otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpfdrv.h"
#include "trace/cli.h"
#include "trace/hooks.h"
#include "trace/read.h"
#include "trace/report_json.h"
#include "trace/report_text.h"
#include "trace/session.h"

#define SYSFS_CLASS	"/sys/class/bpfdrv"
#define MAX_DRIVERS	256

static const char * const callbacks[] = {
	"open", "release", "read", "write", "ioctl", "poll",
};
#define NR_CALLBACKS	6

struct driver_counts {
	char name[BPFDRV_NAME_MAX + 16];
	unsigned long long calls[NR_CALLBACKS];
	unsigned long long bad_returns;
};

struct stats_ctx {
	const char *only;	/* one driver, or NULL */
	struct driver_counts before[MAX_DRIVERS];
	int nbefore;
};

static int read_counts(const char *name, struct driver_counts *c)
{
	char path[300], key[32];
	unsigned long long v;
	FILE *f;
	int i;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(path, sizeof(path), SYSFS_CLASS "/%s/stats", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%31s %llu", key, &v) == 2) {
		for (i = 0; i < NR_CALLBACKS; i++)
			if (!strcmp(key, callbacks[i]))
				c->calls[i] = v;
		if (!strcmp(key, "bad_returns"))
			c->bad_returns = v;
	}
	fclose(f);
	return 0;
}

/* Every attached driver's counters (or only @only's). */
static int read_all_counts(const char *only, struct driver_counts *out)
{
	DIR *d = opendir(SYSFS_CLASS);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < MAX_DRIVERS) {
		if (de->d_name[0] == '.' || (only && strcmp(only, de->d_name)))
			continue;
		if (!read_counts(de->d_name, &out[n]))
			n++;
	}
	closedir(d);
	return n;
}

static const struct driver_counts *find_counts(const struct driver_counts *c,
					       int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

/* bpfdrv stats without a measurement: the module's counters, now. */
static int print_counters(const char *only, bool json)
{
	static struct driver_counts c[MAX_DRIVERS];
	int i, j, n = read_all_counts(only, c);

	if (only && !n) {
		err("no driver named '%s' is attached (see: bpfdrv list)", only);
		return 1;
	}
	if (!json)
		printf("%-20s %-8s %12s\n", "DRIVER", "CALLBACK", "CALLS");
	for (i = 0; i < n; i++) {
		if (json) {
			printf("{\"type\":\"counters\",\"driver\":");
			json_str(stdout, c[i].name);
			for (j = 0; j < NR_CALLBACKS; j++)
				printf(",\"%s\":%llu", callbacks[j], c[i].calls[j]);
			printf(",\"bad_returns\":%llu}\n", c[i].bad_returns);
			continue;
		}
		for (j = 0; j < NR_CALLBACKS; j++)
			printf("%-20s %-8s %12llu\n", c[i].name, callbacks[j], c[i].calls[j]);
		printf("%-20s %-8s %12llu\n", c[i].name, "(bad)", c[i].bad_returns);
	}
	if (!n && !json)
		printf("(no drivers attached)\n");
	return 0;
}

static int callback_index(const char *hook)
{
	int i;

	for (i = 0; i < NR_CALLBACKS; i++)
		if (!strcmp(hook, callbacks[i]))
			return i;
	return -1;
}

/* The measurement's report: traced rows joined with the counters' deltas. */
static void stats_report(struct trace_session *s, bool final)
{
	struct stats_ctx *ctx = s->opts->priv;
	static struct driver_counts now[MAX_DRIVERS];
	struct trace_row *rows;
	FILE *out = s->out;
	int i, n, nnow;

	n = trace_read_rows(s, &rows);
	nnow = read_all_counts(ctx->only, now);
	if (!s->opts->json)
		fprintf(out, "\n%-20s %-8s %10s %7s %10s %10s %12s\n", "DRIVER",
			"CALLBACK", "CALLS", "ERRORS", "AVG(us)", "MAX(us)",
			"MODULE_CALLS");
	for (i = 0; i < n; i++) {
		const struct trace_row *r = &rows[i];
		const struct driver_counts *a, *b;
		long long module_calls = -1;
		char mc[24];
		int cb = callback_index(trace_hook_name(s->plan, r->hook));

		if (!trace_hook_per_minor(s->plan, r->hook) || cb < 0)
			continue;
		if (ctx->only && strcmp(ctx->only, r->sub_name))
			continue;
		a = find_counts(ctx->before, ctx->nbefore, r->sub_name);
		b = find_counts(now, nnow, r->sub_name);
		if (b)
			module_calls = b->calls[cb] - (a ? a->calls[cb] : 0);
		if (s->opts->json) {
			fprintf(out, "{\"type\":\"callback\",\"final\":%s,\"driver\":",
				final ? "true" : "false");
			json_str(out, r->sub_name);
			fprintf(out, ",\"minor\":%u,\"callback\":\"%s\",\"calls\":%llu,"
				"\"errors\":%llu,\"total_ns\":%llu,\"max_ns\":%llu,"
				"\"module_calls\":%lld,\"hist_us\":", r->sub,
				callbacks[cb], (unsigned long long)r->hist.count,
				(unsigned long long)r->hist.errors,
				(unsigned long long)r->hist.total_ns,
				(unsigned long long)r->hist.max_ns, module_calls);
			trace_json_hist(out, &r->hist);
			fputs("}\n", out);
			continue;
		}
		if (module_calls >= 0)
			snprintf(mc, sizeof(mc), "%lld", module_calls);
		else
			snprintf(mc, sizeof(mc), "-");
		fprintf(out, "%-20s %-8s %10llu %7llu %10.1f %10.1f %12s\n",
			r->sub_name, callbacks[cb], (unsigned long long)r->hist.count,
			(unsigned long long)r->hist.errors,
			r->hist.timed ? r->hist.total_ns / 1e3 / r->hist.timed : 0.0,
			r->hist.max_ns / 1e3, mc);
	}
	if (final && !s->opts->json) {
		for (i = 0; i < n; i++) {
			const struct trace_row *r = &rows[i];

			if (!trace_hook_per_minor(s->plan, r->hook) || !r->hist.timed ||
			    (ctx->only && strcmp(ctx->only, r->sub_name)))
				continue;
			fprintf(out, "\n%s %s: %llu calls\n", r->sub_name,
				trace_hook_name(s->plan, r->hook),
				(unsigned long long)r->hist.count);
			trace_print_hist(out, &r->hist);
		}
	}
	if (final && s->opts->json)
		fprintf(out, "{\"type\":\"end\"}\n");
	fflush(out);
	free(rows);
}

static void usage_stats(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv stats [OPTIONS] [NAME] [-- COMMAND [ARGS]]\n"
		"  Per driver and callback: the module's call counters; with -d, -i or a\n"
		"  COMMAND, also traced calls, errors and latency histograms.\n"
		"  -i, --interval SECS  measure, print every SECS seconds\n"
		"  -d, --duration SECS  measure for SECS seconds\n"
		"  -p, --pid PID        only calls by this process\n"
		"  -f, --follow         with -p: and by the processes it starts from now on\n"
		"  -c, --comm COMM      only calls by processes with this name\n"
		"  -j, --json           JSON, one object per line\n"
		"  -o, --output FILE    write the report to FILE\n"
		"  -- COMMAND           measure while COMMAND runs (only its calls and\n"
		"                       those of the processes it starts)\n"
		"  -h, --help           this help\n");
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "follow", no_argument, NULL, 'f' },
		{ "comm", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct trace_opts o = { .groups = TRACE_BPFDRV, .quiet = true };
	static struct stats_ctx ctx;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+i:d:p:fc:jo:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage_stats(stdout);
			return 0;
		case '?':
			usage_stats(stderr);
			return 2;
		default:
			if (trace_parse_common(opt, optarg, &o))
				return 2;
		}
	}
	/* NAME, then an optional "--" COMMAND (getopt has eaten a leading --) */
	if (optind < argc && strcmp(argv[optind - 1], "--")) {
		ctx.only = argv[optind++];
		if (optind < argc && !strcmp(argv[optind], "--"))
			optind++;
	}
	if (optind < argc)
		o.cmd = argv + optind;
	if (access("/sys/module/bpfdrv", F_OK)) {
		err("kernel module bpfdrv is not loaded");
		return 1;
	}
	if (ctx.only && access(SYSFS_CLASS, F_OK) == 0) {
		char path[300];

		snprintf(path, sizeof(path), SYSFS_CLASS "/%s", ctx.only);
		if (strlen(ctx.only) >= BPFDRV_NAME_MAX || access(path, F_OK)) {
			err("no driver named '%s' is attached (see: bpfdrv list)",
				  ctx.only);
			return 1;
		}
	}
	if (!o.interval && !o.duration && !o.cmd)
		return print_counters(ctx.only, o.json);
	if (geteuid()) {
		err("measuring needs root (CAP_BPF and CAP_PERFMON)%s", "");
		return 1;
	}
	ctx.nbefore = read_all_counts(ctx.only, ctx.before);
	o.report = stats_report;
	o.priv = &ctx;
	ret = trace_session_run(&o);
	if (o.out)
		fclose(o.out);
	return ret;
}
