// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace's report as JSON, one object per line (docs/observability.md
 * lists each type and its fields): hook, irq_context, functions and
 * startup (--list), interval,
 * stat and proc (the summary), end and lost.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "bpfdrv.h"
#include "report_format.h"
#include "report_json.h"

/* A number, or null for NaN (JSON has none). */
static void json_num(FILE *out, double v)
{
	if (isnan(v))
		fputs("null", out);
	else
		fprintf(out, "%.3f", v);
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

/* "context": where a process row's events ran; irq rows have no pid. */
static void json_who(FILE *out, __u32 tgid, const char *comm)
{
	if (tgid == TRACE_TGID_HARDIRQ)
		fputs("\"pid\":null,\"context\":\"hardirq\",\"comm\":", out);
	else if (tgid == TRACE_TGID_SOFTIRQ)
		fputs("\"pid\":null,\"context\":\"softirq\",\"comm\":", out);
	else
		fprintf(out, "\"pid\":%u,\"context\":\"task\",\"comm\":", tgid);
	json_str(out, comm);
}

static void json_list_head(FILE *out)
{
}

static void json_list_hook(FILE *out, const struct hook *h, const char *kind,
			   const char *status)
{
	fprintf(out, "{\"type\":\"hook\",\"group\":\"%s\",\"hook\":\"%s\","
		"\"kind\":\"%s\",\"target\":", trace_group_name(h->group),
		h->name, kind);
	if (h->target)
		json_str(out, h->target);
	else
		fputs("null", out);
	fprintf(out, ",\"attached\":%s,\"status\":", h->attached ? "true" : "false");
	json_str(out, status);
	fputs(",\"what\":", out);
	json_str(out, h->what);
	fputs("}\n", out);
}

static void json_irq_context(FILE *out, const char *how)
{
	fputs("{\"type\":\"irq_context\",\"how\":", out);
	json_str(out, how);
	fputs("}\n", out);
}

static void json_functions(FILE *out, const char *const *ways, int n, const char *why)
{
	int i;

	fputs("{\"type\":\"functions\",\"ways\":[", out);
	for (i = 0; i < n; i++) {
		fputs(i ? "," : "", out);
		json_str(out, ways[i]);
	}
	fputs("],\"why\":", out);
	json_str(out, why);
	fputs("}\n", out);
}

static void json_startup(FILE *out, const struct trace_session *s)
{
	fprintf(out, "{\"type\":\"startup\",\"total_s\":%.3f,\"probe_s\":%.3f,"
		"\"load_s\":%.3f,\"attach_s\":%.3f,\"attach_functions_s\":%.3f,\"copy_programs_s\":%.3f}\n",
		s->t_probe + s->t_load + s->t_attach, s->t_probe, s->t_load,
		s->t_attach, s->plan->t_attach_func, s->plan->t_copy);
}

static void json_interval(FILE *out, const struct trace_plan *p, const __u64 *delta,
			  double elapsed, double dt, __u64 lost)
{
	bool first = true;
	int i;

	fprintf(out, "{\"type\":\"interval\",\"elapsed_s\":%.3f,\"counts\":{", elapsed);
	for (i = 0; i < p->nr_hooks; i++) {
		if (!delta[i])
			continue;
		fprintf(out, "%s\"%s/%s\":%llu", first ? "" : ",",
			trace_group_name(p->hooks[i].group), p->hooks[i].name,
			(unsigned long long)delta[i]);
		first = false;
	}
	fprintf(out, "},\"lost\":%llu}\n", (unsigned long long)lost);
}

static void json_summary(FILE *out, const struct trace_plan *p,
			 const struct trace_row *rows, int n,
			 const struct trace_proc_row *procs, int np, double duration)
{
	char drv[TRACE_DRV_LEN + 1];
	int i;

	for (i = 0; i < n; i++) {
		const struct trace_row *r = &rows[i];
		const struct hook *h = &p->hooks[r->hook];

		fprintf(out, "{\"type\":\"stat\",\"group\":\"%s\",\"hook\":\"%s\","
			"\"target\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(h->group), h->name, h->target ? h->target : "",
			trace_sub_number(p, r->hook, r->sub));
		json_str(out, r->sub_name);
		if (trace_hook_is_ioctl(p, r->hook)) {
			trace_row_driver(&r->hist, drv, sizeof(drv));
			fputs(",\"driver\":", out);
			json_str(out, drv);
		}
		if (h->group == TRACE_IOMMU)
			fprintf(out, ",\"bytes\":%llu", (unsigned long long)r->hist.bytes);
		if (trace_hook_is_fault(p, r->hook))
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
		json_num(out, trace_stddev_us(&r->hist));
		fputs(",\"hist_us\":", out);
		trace_json_hist(out, &r->hist);
		fputs("}\n", out);
	}
	for (i = 0; i < np; i++) {
		fputs("{\"type\":\"proc\",", out);
		json_who(out, procs[i].tgid, procs[i].comm);
		fprintf(out, ",\"group\":\"%s\",\"hook\":\"%s\",\"sub\":%u,\"detail\":",
			trace_group_name(p->hooks[procs[i].hook].group),
			p->hooks[procs[i].hook].name,
			trace_sub_number(p, procs[i].hook, procs[i].sub));
		json_str(out, procs[i].sub_name);
		if (trace_hook_is_ioctl(p, procs[i].hook)) {
			fputs(",\"driver\":", out);
			json_str(out, procs[i].driver);
		}
		fprintf(out, ",\"count\":%llu}\n", (unsigned long long)procs[i].count);
	}
	fprintf(out, "{\"type\":\"end\",\"duration_s\":%.3f}\n", duration);
}

static void json_loss(FILE *out, const struct trace_loss *l)
{
	int i;

	fprintf(out, "{\"type\":\"lost\",\"total\":%llu,\"probe_missed\":%llu,"
		"\"recursion_missed\":%llu", (unsigned long long)l->total,
		(unsigned long long)l->probe, (unsigned long long)l->recursion);
	for (i = 0; i < TRACE_LOST_NR; i++)
		fprintf(out, ",\"%s\":%llu", trace_lost_name(i),
			(unsigned long long)l->bpf[i]);
	fputs("}\n", out);
}

const struct report_format report_json = {
	.list_head = json_list_head,
	.list_hook = json_list_hook,
	.irq_context = json_irq_context,
	.functions = json_functions,
	.startup = json_startup,
	.interval = json_interval,
	.summary = json_summary,
	.loss = json_loss,
};
