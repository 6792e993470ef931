// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace --top (or -i on a terminal): the screen redrawn each
 * interval with each hook's rate and the busiest processes' rows since the
 * last one, then the DRM clients of the processes traced so far, from
 * their fdinfo, as nvtop and intel_gpu_top show theirs. Text only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fdinfo.h"
#include "hooks.h"
#include "read.h"
#include "report_text.h"
#include "top.h"

/* The last frame: each process's counts and DRM clients, to show what changed. */
struct trace_top {
	struct trace_proc_row *prev_procs;
	int nr_prev_procs;
	struct trace_drm_client *prev_clients;
	int nr_prev_clients;
};

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
 * their fdinfo (fdinfo.c), each with its engines' busy share since
 * the last frame and its buffers.
 */
static void top_clients(struct trace_session *s, const struct trace_proc_row *procs,
			int np, double dt)
{
	struct trace_top *t = s->top;
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
		for (j = 0; j < t->nr_prev_clients; j++) {
			const struct trace_drm_client *was = &t->prev_clients[j];

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
	free(t->prev_clients);
	t->prev_clients = c;
	t->nr_prev_clients = n;
}

__u64 top_frame(struct trace_session *s, const __u64 *totals, const __u64 *prev,
		__u64 prev_lost, double dt)
{
	const struct trace_plan *p = s->plan;
	struct trace_proc_row *procs, *delta, *old;
	double t = now_s();
	int i, np, nd = 0, hw = 22, dw = 18;
	struct trace_loss loss;
	time_t wall = time(NULL);
	struct trace_top *top;
	char ts[16];

	if (!s->top)
		s->top = calloc(1, sizeof(*s->top));
	top = s->top;
	if (!top)
		return prev_lost;
	np = trace_read_procs(s, &procs);
	if (np < 0)
		np = 0;
	qsort(procs, np, sizeof(*procs), proc_key_cmp);
	delta = calloc(np ? np : 1, sizeof(*delta));
	for (i = 0; delta && i < np; i++) {
		__u64 before = 0;

		old = top->prev_procs ? bsearch(&procs[i], top->prev_procs, top->nr_prev_procs,
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
	trace_name_widths(p, NULL, 0, delta, nd < TOP_PROC_ROWS ? nd : TOP_PROC_ROWS, &hw, &dw);
	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&wall));
	fputs("\033[H\033[2J", s->out);
	fprintf(s->out, "bpfdrv trace  %s  traced %.0f s, every %.1f s; Ctrl-C to end\n\n",
		ts, t - s->start_time, s->opts->interval);
	fprintf(s->out, "%-7s %-*s %10s %10s %12s\n", "GROUP", hw, "HOOK", "COUNT",
		"RATE/s", "TOTAL");
	for (i = 0; i < p->nr_hooks; i++) {
		__u64 d = totals[i] - prev[i];

		if (!totals[i])
			continue;
		fprintf(s->out, "%-7s %-*s %10llu %10.1f %12llu\n",
			trace_group_name(p->hooks[i].group), hw, p->hooks[i].name,
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
			hw, p->hooks[delta[i].hook].name, dw,
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
	if (loss.total > prev_lost)
		fprintf(s->out, "\nLOST %llu events: the counts are incomplete\n",
			(unsigned long long)(loss.total - prev_lost));
	free(delta);
	free(top->prev_procs);
	top->prev_procs = procs;
	top->nr_prev_procs = np;
	return loss.total;
}

void top_free(struct trace_session *s)
{
	if (!s->top)
		return;
	free(s->top->prev_procs);
	free(s->top->prev_clients);
	free(s->top);
	s->top = NULL;
}
