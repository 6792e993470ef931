// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: the report, the bcc libbpf-tools way: a live table at an
 * interval (or the top view, redrawn in place), a summary with log2
 * histograms at the end, and --list. What is reported is decided here,
 * from the rows read.c reads; how it is written is the writer's
 * (report_text.c, report_json.c), one per format.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "report.h"
#include "report_format.h"
#include "top.h"

/* What the last report showed, to report what happened since. */
struct trace_view {
	const struct report_format *fmt;
	__u64 prev[TRACE_MAX_HOOKS];	/* each hook's count */
	__u64 prev_lost;
	double last_time;		/* 0: the start */
};

int report_open(struct trace_session *s, const struct report_format *fmt)
{
	s->view = calloc(1, sizeof(*s->view));
	if (!s->view)
		return -1;
	s->view->fmt = fmt;
	return 0;
}

void report_close(struct trace_session *s)
{
	top_free(s);
	free(s->view);
	s->view = NULL;
}

/* Append to @buf (of @size, @len used) what @fmt says. */
static size_t append(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len >= size)
		return len;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	return n < 0 ? len : len + n;
}

/*
 * Hooks this kernel or machine lacks are never an error: one line says how
 * many each group skipped and why, grouped (the modules not loaded, those
 * not in this kernel, those that need others); trace -l says which and
 * why one by one.
 */
void report_skipped(const struct trace_session *s)
{
	const struct trace_plan *p = s->plan;
	unsigned int groups = s->opts->groups;
	char line[1024] = "", mods[512] = "", mod[64], seen[600], key[72];
	size_t len = 0, mlen = 0;
	int i, g, n, total = 0, absent = 0, needs = 0, other = 0;

	for (g = 0; g < 32; g++) {
		n = 0;
		for (i = 0; i < p->nr_hooks; i++)
			if ((p->hooks[i].group & groups & (1u << g)) && !p->hooks[i].attached)
				n++;
		if (!n)
			continue;
		total += n;
		len = append(line, sizeof(line), len, "%s%s %d", len ? ", " : "",
			     trace_group_name(1u << g), n);
	}
	if (!total)
		return;
	for (i = 0; i < p->nr_hooks; i++) {
		const struct hook *h = &p->hooks[i];

		if (!(h->group & groups) || h->attached)
			continue;
		if (sscanf(h->why, "module %63s not loaded", mod) == 1) {
			/* each module once */
			snprintf(seen, sizeof(seen), ", %s,", mods);
			snprintf(key, sizeof(key), ", %s,", mod);
			if (!strstr(seen, key))
				mlen = append(mods, sizeof(mods), mlen, "%s%s",
					      mlen ? ", " : "", mod);
		} else if (strstr(h->why, "not in this kernel")) {
			absent++;
		} else if (!strncmp(h->why, "needs ", 6)) {
			needs++;
		} else {
			other++;
		}
	}
	len = append(line, sizeof(line), len, ")");
	if (mlen)
		len = append(line, sizeof(line), len, ": modules not loaded: %s", mods);
	if (absent)
		len = append(line, sizeof(line), len, "; %d not in this kernel", absent);
	if (needs)
		len = append(line, sizeof(line), len, "; %d need those", needs);
	if (other)
		append(line, sizeof(line), len, "; %d refused", other);
	fprintf(stderr, "bpfdrv: %d hook%s skipped (%s; bpfdrv trace -l says why\n",
		total, total == 1 ? "" : "s", line);
}

/* --list: each hook of the groups, how it is traced or why it is not. */
void report_list(struct trace_session *s)
{
	const struct report_format *fmt = s->view->fmt;
	const struct trace_plan *p = s->plan;
	const char *ways[4];	/* p->ways, then syscall */
	char how[192];
	int i;

	fmt->list_head(s->out);
	for (i = 0; i < p->nr_hooks; i++) {
		const struct hook *h = &p->hooks[i];
		const char *kind = h->kind == HOOK_FUNC || h->kind == HOOK_SYS ?
				   via_names[h->via] :
				   h->kind == HOOK_TP ? "tracepoint" :
				   h->kind == HOOK_FENTRY ? "fentry" : "latency";
		char status[288];

		if (!(h->group & s->opts->groups))
			continue;
		if (!h->attached)
			kind = "-";
		if (h->attached)	/* and why not a way tried before */
			snprintf(status, sizeof(status), "attached%s%s%s%s",
				 h->kind == HOOK_FUNC && p->count_only &&
				 h->via <= VIA_KPROBE ?
				 ", entry only" : "", h->why[0] ? " (" : "", h->why,
				 h->why[0] ? ")" : "");
		else
			snprintf(status, sizeof(status), "skipped: %s", h->why);
		fmt->list_hook(s->out, h, kind, status);
	}
	/* how events in interrupts are told from the interrupted task's */
	irq_context(s, how, sizeof(how));
	fmt->irq_context(s->out, how);
	for (i = 0; i < p->nr_ways; i++)
		ways[i] = via_names[p->ways[i]];
	ways[i++] = via_names[VIA_SYSCALL];
	fmt->functions(s->out, ways, i, p->ways_why);
	fmt->startup(s->out, s);
}

/* The live view: what each hook did since the last interval. */
void report_interval(struct trace_session *s)
{
	struct trace_view *v = s->view;
	__u64 totals[TRACE_MAX_HOOKS] = {}, delta[TRACE_MAX_HOOKS] = {};
	struct trace_loss loss;
	struct trace_row *rows;
	double t = now_s(), dt = t - (v->last_time ?: s->start_time);
	int i, n;

	n = trace_read_rows(s, &rows);
	for (i = 0; i < n; i++)
		totals[rows[i].hook] += rows[i].hist.count;
	free(rows);
	if (s->opts->top && !s->opts->json) {
		v->prev_lost = top_frame(s, totals, v->prev, v->prev_lost, dt);
	} else {
		for (i = 0; i < s->plan->nr_hooks; i++)
			delta[i] = totals[i] - v->prev[i];
		trace_read_loss(s, &loss);
		v->fmt->interval(s->out, s->plan, delta, t - s->start_time, dt,
				 loss.total - v->prev_lost);
		v->prev_lost = loss.total;
	}
	memcpy(v->prev, totals, sizeof(v->prev));
	fflush(s->out);
	v->last_time = t;
}

/* The summary: every row, every process's, and their latencies. */
void report_final(struct trace_session *s)
{
	struct trace_proc_row *procs;
	struct trace_row *rows;
	int n, np;

	n = trace_read_rows(s, &rows);
	np = trace_read_procs(s, &procs);
	s->view->fmt->summary(s->out, s->plan, rows, n, procs, np,
			      now_s() - s->start_time);
	free(rows);
	free(procs);
}

void report_loss(struct trace_session *s, const struct trace_loss *l)
{
	s->view->fmt->loss(s->out, l);
}
