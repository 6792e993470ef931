// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace --perfetto: the timeline's events on their way to a writer,
 * and the flows between them. The programs give an accelerator job's
 * submit (a DRM ioctl's span) a flow id, and the scheduler job and the
 * fence it led to carry it (trace.h, TRACE_FLOW_*); each (id, role) is a
 * flow from the span to that event. The two ends reach user space in
 * either order (a fast device signals the fence before the ioctl
 * returns), and one may never come (tracing stopped first, a ring buffer
 * full, a driver that emits no fence): an event with flows waits here
 * until their other ends come, then both are written with the flows that
 * met. One whose other end does not come is written without that flow:
 * at the end, when WAITING newer events wait (the oldest gives up), or
 * when later flows need its slot (the oldest near a flow's hash gives
 * way). No flow in the file begins or ends alone. An event with no flow
 * is written at once.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "flows.h"

#define WAITING		4096	/* events waiting for a flow's other end */
#define FLOW_SLOTS_BITS	13
#define FLOW_SLOTS	(1 << FLOW_SLOTS_BITS)	/* flows with one end seen */
#define PROBES		16	/* slots a flow may take, from its hash */

struct waiting {
	struct timeline_event e;
	__u32 ids[2];		/* its flows: id << TRACE_FLOW_SHIFT | role */
	int nr;
	unsigned int open;	/* bit k: ids[k]'s other end not come yet */
	unsigned int met;	/* bit k: ids[k]'s ends met */
	unsigned long long seq;	/* its arrival */
	int prev, next;		/* the waiting, oldest first; -1: none */
};

struct timeline_flows {
	const struct timeline_format *fmt;
	struct timeline_writer *w;
	unsigned long long written, arrived;
	struct waiting wait[WAITING];
	bool used[WAITING];
	int free[WAITING], nr_free;
	int oldest, newest;	/* of the waiting; -1: none */
	struct { __u32 id; int w; } slots[FLOW_SLOTS];	/* id 0: free */
};

struct timeline_flows *flows_open(const struct timeline_format *fmt,
				  struct timeline_writer *w)
{
	struct timeline_flows *f = calloc(1, sizeof(*f));
	int i;

	if (!f)
		return NULL;
	f->fmt = fmt;
	f->w = w;
	f->oldest = -1;
	f->newest = -1;
	for (i = 0; i < WAITING; i++)
		f->free[f->nr_free++] = WAITING - 1 - i;
	return f;
}

/* @e to the writer, with the flows of @ids that @met says met. */
static void write_event(struct timeline_flows *f, const struct timeline_event *e,
			const __u32 *ids, int nr, unsigned int met)
{
	struct timeline_flow fl = {}, *flp = NULL;
	int k;

	for (k = 0; k < nr; k++) {
		if (!(met & (1U << k)))
			continue;
		flp = &fl;
		if (e->kind == TRACE_EV_SPAN)
			fl.out[fl.nr_out++] = ids[k];
		else
			fl.in = ids[k];
	}
	switch (e->kind) {
	case TRACE_EV_SPAN:
		f->fmt->span(f->w, &e->place, e->name, e->cat, e->ts, e->dur, flp);
		break;
	case TRACE_EV_INSTANT:
		f->fmt->instant(f->w, &e->place, e->name, e->cat, e->ts, flp);
		break;
	default:	/* an object's life */
		f->fmt->life(f->w, &e->place, e->name, e->cat, e->ts, e->dur, flp);
		f->written++;	/* its begin and its end */
		break;
	}
	f->written++;
}

/* A waiting event whose flows all met or were given up: written, freed. */
static void write_if_ready(struct timeline_flows *f, int i)
{
	struct waiting *w = &f->wait[i];

	if (w->open)
		return;
	write_event(f, &w->e, w->ids, w->nr, w->met);
	if (w->prev >= 0)
		f->wait[w->prev].next = w->next;
	else
		f->oldest = w->next;
	if (w->next >= 0)
		f->wait[w->next].prev = w->prev;
	else
		f->newest = w->prev;
	f->used[i] = false;
	f->free[f->nr_free++] = i;
}

/* The bit of flow @id in waiting event @i. */
static unsigned int bit_of(const struct waiting *w, __u32 id)
{
	return w->ids[0] == id ? 1 : 2;
}

/*
 * The slot of flow @id: where it waits, else a free one, else the one of
 * the oldest flow there, given up (within PROBES of its hash: a lookup
 * reads them all, so a slot freed needs no tombstone).
 */
static int flow_slot(struct timeline_flows *f, __u32 id)
{
	unsigned int h = (id * 2654435761U) >> (32 - FLOW_SLOTS_BITS), p;
	int empty = -1, oldest = -1;

	for (p = 0; p < PROBES; p++) {
		int s = (h + p) & (FLOW_SLOTS - 1);

		if (f->slots[s].id == id)
			return s;
		if (!f->slots[s].id) {
			if (empty < 0)
				empty = s;
		} else if (oldest < 0 || f->wait[f->slots[s].w].seq <
					 f->wait[f->slots[oldest].w].seq) {
			oldest = s;
		}
	}
	return empty >= 0 ? empty : oldest;
}

/* Waiting event @i written now, without the flows whose ends did not meet. */
static void give_up(struct timeline_flows *f, int i)
{
	struct waiting *w = &f->wait[i];
	int k, slot;

	for (k = 0; k < w->nr; k++) {
		if (!(w->open & (1U << k)))
			continue;
		slot = flow_slot(f, w->ids[k]);
		if (f->slots[slot].id == w->ids[k] && f->slots[slot].w == i)
			f->slots[slot].id = 0;
	}
	w->open = 0;
	write_if_ready(f, i);
}

void flows_event(struct timeline_flows *f, const struct timeline_event *e)
{
	__u32 ids[2], id = e->flow >> TRACE_FLOW_SHIFT;
	unsigned int roles = e->flow & TRACE_FLOW_ROLES;
	bool is_span = e->kind == TRACE_EV_SPAN;
	struct waiting *w;
	int nr = 0, k, i;

	f->arrived++;
	if (is_span) {	/* a submit: a flow per role taken */
		if (roles & TRACE_FLOW_JOB)
			ids[nr++] = id << TRACE_FLOW_SHIFT | TRACE_FLOW_JOB;
		if (roles & TRACE_FLOW_FENCE)
			ids[nr++] = id << TRACE_FLOW_SHIFT | TRACE_FLOW_FENCE;
	} else if (roles == TRACE_FLOW_JOB || roles == TRACE_FLOW_FENCE) {
		ids[nr++] = e->flow;	/* the end of one */
	}
	if (!id || !nr) {
		write_event(f, e, ids, 0, 0);
		return;
	}
	if (!f->nr_free)	/* the oldest waiting gives up what has not met */
		give_up(f, f->oldest);
	i = f->free[--f->nr_free];
	w = &f->wait[i];
	f->used[i] = true;
	w->e = *e;
	w->nr = nr;
	w->open = (1U << nr) - 1;
	w->met = 0;
	w->seq = f->arrived;
	w->prev = f->newest;
	w->next = -1;
	if (f->newest >= 0)
		f->wait[f->newest].next = i;
	else
		f->oldest = i;
	f->newest = i;
	for (k = 0; k < nr; k++) {
		int slot = flow_slot(f, ids[k]);
		__u32 was = f->slots[slot].id;
		int other = f->slots[slot].w;
		struct waiting *o = &f->wait[other];
		bool other_span = o->e.kind == TRACE_EV_SPAN;

		w->ids[k] = ids[k];
		/* its other end: a submit's span for an end, an end for a span */
		if (was == ids[k] && is_span != other_span) {
			w->open &= ~(1U << k);
			w->met |= 1U << k;
			o->open &= ~bit_of(o, was);
			o->met |= bit_of(o, was);
			f->slots[slot].id = 0;
			write_if_ready(f, other);
			continue;
		}
		if (was) {	/* an older flow whose other end did not come: given up */
			o->open &= ~bit_of(o, was);
			write_if_ready(f, other);
		}
		f->slots[slot].id = ids[k];
		f->slots[slot].w = i;
	}
	write_if_ready(f, i);
}

unsigned long long flows_close(struct timeline_flows *f)
{
	unsigned long long n;

	while (f->oldest >= 0)	/* in the order they came */
		give_up(f, f->oldest);
	n = f->written;
	free(f);
	return n;
}
