// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline in Chrome's trace-event JSON (--perfetto FILE.json), which
 * ui.perfetto.dev and chrome://tracing open:
 *
 *   a call (ioctl, bpfdrv callback)        "X" span on its thread
 *   a tracepoint (vblank, fence signaled)  "i" instant on its thread
 *   a job's or fence's life                "b"/"e" async span of its process
 *   a flow (a submit to its job, fence)    "s" where it begins, "f" where
 *                                          it ends, bound to the event
 *                                          there ("bp":"e")
 *
 * Places are pid/tid pairs; names are "M" metadata events at the end.
 * Timestamps in microseconds. About 106 bytes an event.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bpfdrv.h"
#include "timeline.h"
#include "timeline_json.h"
#include "trace.h"

struct timeline_writer {
	FILE *f;
	bool first;
	unsigned long long next_id;	/* of an async span */
};

static struct timeline_writer *json_open(FILE *f)
{
	struct timeline_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->f = f;
	w->first = true;
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", f);
	return w;
}

/* An event's start, up to its phase. */
static void json_begin(struct timeline_writer *w, const char *name, const char *cat)
{
	fputs(w->first ? "\n{\"name\":" : ",\n{\"name\":", w->f);
	w->first = false;
	json_str(w->f, name);
	fprintf(w->f, ",\"cat\":\"%s\"", cat);
}

static void json_end(struct timeline_writer *w, const struct timeline_place *p)
{
	fprintf(w->f, ",\"pid\":%u,\"tid\":%u}", p->pid, p->tid);
}

/*
 * A flow's begin ("s") or end ("f") at @ts, bound to the event there:
 * named by where it goes (trace.h's roles: a job, a fence).
 */
static void json_flow(struct timeline_writer *w, const struct timeline_place *p,
		      const char *ph, __u64 id, __u64 ts)
{
	json_begin(w, (id & TRACE_FLOW_ROLES) == TRACE_FLOW_JOB ? "submit to job" :
		   "submit to fence", "flow");
	fprintf(w->f, ",\"ph\":\"%s\",\"id\":\"0x%llx\",\"bp\":\"e\",\"ts\":%.3f",
		ph, (unsigned long long)id, ts / 1e3);
	json_end(w, p);
}

static void json_flows(struct timeline_writer *w, const struct timeline_place *p,
		       const struct timeline_flow *fl, __u64 ts)
{
	int k;

	if (!fl)
		return;
	for (k = 0; k < fl->nr_out; k++)
		json_flow(w, p, "s", fl->out[k], ts);
	if (fl->in)
		json_flow(w, p, "f", fl->in, ts);
}

static void json_span(struct timeline_writer *w, const struct timeline_place *p,
		      const char *name, const char *cat, __u64 ts, __u64 dur,
		      const struct timeline_flow *fl)
{
	json_begin(w, name, cat);
	fprintf(w->f, ",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f", ts / 1e3, dur / 1e3);
	json_end(w, p);
	json_flows(w, p, fl, ts);
}

static void json_instant(struct timeline_writer *w, const struct timeline_place *p,
			 const char *name, const char *cat, __u64 ts,
			 const struct timeline_flow *fl)
{
	json_begin(w, name, cat);
	fprintf(w->f, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f", ts / 1e3);
	json_end(w, p);
	json_flows(w, p, fl, ts);
}

/* a begin and an end with one id; its flow ends at the begin */
static void json_life(struct timeline_writer *w, const struct timeline_place *p,
		      const char *name, const char *cat, __u64 ts, __u64 dur,
		      const struct timeline_flow *fl)
{
	unsigned long long id = ++w->next_id;

	json_begin(w, name, cat);
	fprintf(w->f, ",\"ph\":\"b\",\"id\":\"0x%llx\",\"ts\":%.3f", id, ts / 1e3);
	json_end(w, p);
	json_flows(w, p, fl, ts);
	json_begin(w, name, cat);
	fprintf(w->f, ",\"ph\":\"e\",\"id\":\"0x%llx\",\"ts\":%.3f", id, (ts + dur) / 1e3);
	json_end(w, p);
}

static void json_meta(struct timeline_writer *w, const char *what, __u32 pid,
		      __u32 tid, const char *name)
{
	fputs(w->first ? "\n" : ",\n", w->f);
	w->first = false;
	fprintf(w->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		what, pid, tid);
	json_str(w->f, name);
	fputs("}}", w->f);
}

/* tid 0: a process, whose thread 0 holds its jobs and fences */
static void json_name(struct timeline_writer *w, __u32 pid, __u32 tid, const char *name)
{
	if (tid) {
		json_meta(w, "thread_name", pid, tid, name);
		return;
	}
	json_meta(w, "process_name", pid, 0, name);
	if (pid != TIMELINE_IRQ_PID && pid != TIMELINE_DEVICES_PID)
		json_meta(w, "thread_name", pid, 0, "jobs and fences");
}

static int json_close(struct timeline_writer *w)
{
	int ret;

	fputs("\n]}\n", w->f);
	ret = ferror(w->f) ? -EIO : 0;
	if (fclose(w->f) && !ret)
		ret = -EIO;
	free(w);
	return ret;
}

const struct timeline_format timeline_json = {
	.format = "trace-event JSON",
	.open = json_open,
	.span = json_span,
	.instant = json_instant,
	.life = json_life,
	.name = json_name,
	.close = json_close,
};
