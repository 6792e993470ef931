// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace's report as text, for people: --list's table, the live
 * table of each interval, the summary (a row per hook and detail, a row
 * per process, DMA bytes and fault addresses, a log2 histogram per timed
 * row) and what was lost.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report_format.h"
#include "report_text.h"

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

void trace_name_widths(const struct trace_plan *p, const struct trace_row *rows, int n,
		       const struct trace_proc_row *procs, int np, int *hw, int *dw)
{
	int i, len;

	for (i = 0; rows && i < n; i++) {
		len = strlen(p->hooks[rows[i].hook].name);
		*hw = len > *hw ? len : *hw;
		len = strlen(rows[i].sub_name);
		*dw = len > *dw ? len : *dw;
	}
	for (i = 0; i < np; i++) {
		len = strlen(p->hooks[procs[i].hook].name);
		*hw = len > *hw ? len : *hw;
		len = strlen(procs[i].sub_name);
		*dw = len > *dw ? len : *dw;
	}
}

static void text_list_head(FILE *out)
{
	fprintf(out, "%-7s %-22s %-10s %-28s %s\n", "GROUP", "HOOK", "KIND",
		"TARGET", "STATUS");
}

static void text_list_hook(FILE *out, const struct hook *h, const char *kind,
			   const char *status)
{
	fprintf(out, "%-7s %-22s %-10s %-28s %s\n", trace_group_name(h->group),
		h->name, kind, h->target ? h->target : "-", status);
}

static void text_irq_context(FILE *out, const char *how)
{
	fprintf(out, "\nInterrupt context: %s.\n", how);
}

static void text_functions(FILE *out, const char *const *ways, int n, const char *why)
{
	int i;

	fputs("Functions: ", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? (i == n - 1 ? ", then " : ", ") : "", ways[i]);
	fprintf(out, " (%s).\n", why);
}

static void text_startup(FILE *out, const struct trace_session *s)
{
	fprintf(out, "\nStarted in %.2f s: probing %.2f s, loading %.2f s, "
		"attaching %.2f s (functions %.2f s).\n",
		s->t_probe + s->t_load + s->t_attach, s->t_probe, s->t_load,
		s->t_attach, s->plan->t_attach_func);
}

static void text_interval(FILE *out, const struct trace_plan *p, const __u64 *delta,
			  double elapsed, double dt, __u64 lost)
{
	time_t wall = time(NULL);
	bool first = true;
	char ts[16];
	int i;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&wall));
	fprintf(out, "\n%s %-7s %-22s %10s %10s\n", ts, "GROUP", "HOOK",
		"COUNT", "RATE/s");
	for (i = 0; i < p->nr_hooks; i++) {
		if (!delta[i])
			continue;
		fprintf(out, "%8s %-7s %-22s %10llu %10.1f\n", "",
			trace_group_name(p->hooks[i].group), p->hooks[i].name,
			(unsigned long long)delta[i], dt > 0 ? delta[i] / dt : 0.0);
		first = false;
	}
	if (first)
		fprintf(out, "%8s (no events)\n", "");
	if (lost)
		fprintf(out, "%8s LOST %llu events: the counts are incomplete\n", "",
			(unsigned long long)lost);
}

/* DMA bytes per device and the I/O page faults' addresses (-g iommu). */
static void print_dma_text(FILE *out, const struct trace_plan *p,
			   const struct trace_row *rows, int n)
{
	bool first = true;
	int i;

	for (i = 0; i < n; i++) {
		const struct trace_row *r = &rows[i];
		const struct hook *h = &p->hooks[r->hook];
		bool fault = trace_hook_is_fault(p, r->hook);

		if (!r->hist.bytes && !fault)
			continue;
		if (first)
			fprintf(out, "\n%-22s %-18s %10s %s\n", "HOOK", "DEVICE", "COUNT",
				"BYTES OR ADDRESSES");
		first = false;
		if (fault)
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

static void text_summary(FILE *out, const struct trace_plan *p,
			 const struct trace_row *rows, int n,
			 const struct trace_proc_row *procs, int np, double duration)
{
	int i, hw = 22, dw = 18;

	trace_name_widths(p, rows, n, procs, np, &hw, &dw);
	fprintf(out, "\nTraced for %.1f s.\n\n%-7s %-*s %-*s %10s %7s %10s %10s\n",
		duration, "GROUP", hw, "HOOK", dw, "DETAIL", "COUNT",
		"ERRORS", "AVG(us)", "MAX(us)");
	for (i = 0; i < n; i++) {
		const struct trace_hist *h = &rows[i].hist;
		char avg[24] = "-", max[24] = "-";

		if (h->timed) {
			snprintf(avg, sizeof(avg), "%.1f", h->total_ns / 1e3 / h->timed);
			snprintf(max, sizeof(max), "%.1f", h->max_ns / 1e3);
		}
		fprintf(out, "%-7s %-*s %-*s %10llu %7llu %10s %10s\n",
			trace_group_name(p->hooks[rows[i].hook].group),
			hw, p->hooks[rows[i].hook].name, dw,
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
				procs[i].comm, hw, p->hooks[procs[i].hook].name, dw,
				procs[i].sub_name[0] ? procs[i].sub_name : "-",
				(unsigned long long)procs[i].count);
		}
	}

	print_dma_text(out, p, rows, n);
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
			trace_group_name(p->hooks[rows[i].hook].group),
			p->hooks[rows[i].hook].name, rows[i].sub_name[0] ? " " : "",
			rows[i].sub_name, (unsigned long long)h->timed,
			h->total_ns / 1e3 / h->timed, sds);
		trace_print_hist(out, h);
	}
}

static void text_loss(FILE *out, const struct trace_loss *l)
{
	int i;

	if (!l->total) {
		fprintf(out, "\nNo events lost.\n");
		return;
	}
	fprintf(out, "\nLOST %llu events: the counts are incomplete "
		"(probe misses %llu, skipped by recursion %llu",
		(unsigned long long)l->total, (unsigned long long)l->probe,
		(unsigned long long)l->recursion);
	for (i = 0; i < TRACE_LOST_NR; i++)
		if (l->bpf[i])
			fprintf(out, ", %s %llu", trace_lost_name(i),
				(unsigned long long)l->bpf[i]);
	fputs(")\n", out);
}

const struct report_format report_text = {
	.list_head = text_list_head,
	.list_hook = text_list_hook,
	.irq_context = text_irq_context,
	.functions = text_functions,
	.startup = text_startup,
	.interval = text_interval,
	.summary = text_summary,
	.loss = text_loss,
};
