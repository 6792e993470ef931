// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace --perfetto FILE: the events of a trace as a timeline. The
 * BPF programs put one record per event in a ring buffer (only when this
 * is asked for); here each is named ("group/hook detail") and placed:
 *
 *   a function call (ioctl, bpfdrv callback)  a span on its thread
 *   a tracepoint (vblank, fence signaled)     an instant on its thread
 *   a job's or fence's life (queue to done)   a span of the process that
 *                                             started it
 *
 * Events in interrupt context go to the process "interrupts", threads
 * "hardirq"/"softirq"; a device's DMA mappings and I/O page faults to the
 * process "devices", a thread per device. A writer puts them in its
 * format (timeline.h): Perfetto's protobuf, or Chrome's trace-event JSON
 * for a FILE named *.json; flows.c hands them over, holding back those
 * that begin or end a flow (a submit to its job and fence) until the
 * flow's other end came.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "flows.h"
#include "hooks.h"
#include "perfetto.h"
#include "read.h"
#include "timeline.h"
#include "timeline_json.h"
#include "timeline_proto.h"
#include "trace.skel.h"

#define NAME_CACHE	8192	/* a power of 2 */
/* a device's track: its name's hash without the fault rows' direction bit */
#define DEVICE_TID(sub)	((sub) >> 1)

struct trace_timeline {
	struct trace_session *s;
	struct ring_buffer *rb;
	const struct timeline_format *fmt;
	struct timeline_writer *w;
	struct timeline_flows *flows;	/* the events on their way to w */
	struct { __u32 hook, sub; bool used; char name[96]; } names[NAME_CACHE];
};

/* "group/hook detail" of an event, looked up once per (hook, sub). */
static const char *event_name(struct trace_timeline *t, __u32 hook_id, __u32 sub)
{
	unsigned int h = (hook_id * 2654435761U ^ sub * 40503U) & (NAME_CACHE - 1);
	char detail[64];
	int i, hook;

	for (i = 0; i < NAME_CACHE; i++, h = (h + 1) & (NAME_CACHE - 1)) {
		if (!t->names[h].used)
			break;
		if (t->names[h].hook == hook_id && t->names[h].sub == sub)
			return t->names[h].name;
	}
	if (i == NAME_CACHE)
		return "?";
	hook = trace_hook_by_id(t->s->plan, hook_id);
	if (hook < 0)
		return "?";
	trace_row_name(t->s, hook_id, sub, detail, sizeof(detail));
	snprintf(t->names[h].name, sizeof(t->names[h].name), "%s%s%s",
		 trace_hook_name(t->s->plan, hook), detail[0] ? " " : "", detail);
	t->names[h].hook = hook_id;
	t->names[h].sub = sub;
	t->names[h].used = true;
	return t->names[h].name;
}

static void place_of(const struct trace_plan *plan, const struct trace_tl_event *e,
		     struct timeline_place *p)
{
	int hook = trace_hook_by_id(plan, e->hook);

	if (hook >= 0 && trace_hook_per_device(plan, hook)) {
		p->kind = TL_DEVICE;
		p->pid = TIMELINE_DEVICES_PID;
		p->tid = DEVICE_TID(e->sub);
	} else if (trace_tgid_is_irq(e->tgid)) {
		p->kind = TL_IRQ;
		p->pid = TIMELINE_IRQ_PID;
		p->tid = e->tgid == TRACE_TGID_HARDIRQ ? TIMELINE_HARDIRQ_TID :
							 TIMELINE_SOFTIRQ_TID;
	} else {
		p->kind = TL_THREAD;
		p->pid = e->tgid;
		p->tid = e->tid;
	}
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct trace_timeline *t = ctx;
	const struct trace_tl_event *e = data;
	const struct trace_plan *plan = t->s->plan;
	int hook = trace_hook_by_id(plan, e->hook);
	struct timeline_event ev = {
		.kind = e->kind == TRACE_EV_SPAN || e->kind == TRACE_EV_INSTANT ?
			e->kind : TRACE_EV_OBJECT,
		.cat = hook >= 0 ? trace_group_name(plan->hooks[hook].group) : "?",
		.ts = e->ts, .dur = e->dur, .flow = e->flow,
	};

	if (size < sizeof(*e))
		return 0;
	ev.name = event_name(t, e->hook, e->sub);
	place_of(plan, e, &ev.place);
	flows_event(t->flows, &ev);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int trace_timeline_open(struct trace_session *s)
{
	struct trace_timeline *t = calloc(1, sizeof(*t));
	const char *path = s->opts->perfetto;
	FILE *f;

	if (!t)
		return -1;
	t->s = s;
	t->fmt = ends_with(path, ".json") ? &timeline_json : &timeline_proto;
	f = fopen(path, "w");
	if (!f) {
		err("%s: %s", path, strerror(errno));
		free(t);
		return -1;
	}
	t->w = t->fmt->open(f);
	if (!t->w) {
		err("%s: %s", path, strerror(errno));
		fclose(f);
		free(t);
		return -1;
	}
	t->flows = flows_open(t->fmt, t->w);
	t->rb = t->flows ? ring_buffer__new(bpf_map__fd(s->skel->maps.events), on_event,
					    t, NULL) : NULL;
	if (!t->rb) {
		err("cannot read the timeline's ring buffer: %s", strerror(errno));
		if (t->flows)
			flows_close(t->flows);
		t->fmt->close(t->w);
		free(t);
		return -1;
	}
	s->timeline = t;
	return 0;
}

/* Wait up to @ms for events and write them. */
void trace_timeline_poll(struct trace_session *s, int ms)
{
	ring_buffer__poll(s->timeline->rb, ms);
}

/* The devices' tracks, named by the rows of their events. */
static void name_devices(struct trace_timeline *t)
{
	struct trace_row *rows;
	bool any = false;
	char name[TRACE_STR_LEN + 1];
	int i, n;

	n = trace_read_rows(t->s, &rows);
	for (i = 0; i < n; i++) {
		if (!trace_hook_per_device(t->s->plan, rows[i].hook))
			continue;
		if (!any)
			t->fmt->name(t->w, TIMELINE_DEVICES_PID, 0, "devices");
		any = true;
		snprintf(name, sizeof(name), "%.*s", TRACE_STR_LEN, rows[i].hist.str);
		t->fmt->name(t->w, TIMELINE_DEVICES_PID, DEVICE_TID(rows[i].sub), name);
	}
	free(rows);
}

/* The last events, the track names, and the file's end. */
unsigned long long trace_timeline_close(struct trace_session *s, int *err)
{
	struct trace_timeline *t = s->timeline;
	struct trace_proc_row *procs;
	unsigned long long n;
	__u32 last = ~0U;
	char name[64];
	int i, np;

	ring_buffer__consume(t->rb);
	n = flows_close(t->flows);	/* the events that waited for a flow */
	name_devices(t);
	np = trace_read_procs(t->s, &procs);
	t->fmt->name(t->w, TIMELINE_IRQ_PID, 0, "interrupts");
	t->fmt->name(t->w, TIMELINE_IRQ_PID, TIMELINE_HARDIRQ_TID, "hardirq");
	t->fmt->name(t->w, TIMELINE_IRQ_PID, TIMELINE_SOFTIRQ_TID, "softirq");
	for (i = 0; i < np; i++) {
		if (procs[i].tgid == last || trace_tgid_is_irq(procs[i].tgid))
			continue;
		last = procs[i].tgid;
		snprintf(name, sizeof(name), "%s %u", procs[i].comm, last);
		t->fmt->name(t->w, last, 0, name);
	}
	free(procs);
	*err = t->fmt->close(t->w);
	ring_buffer__free(t->rb);
	free(t);
	s->timeline = NULL;
	return n;
}
