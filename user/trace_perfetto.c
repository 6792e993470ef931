// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace --perfetto FILE: the events of a trace as a timeline, in
 * the Chrome trace-event JSON that ui.perfetto.dev and chrome://tracing
 * open. The BPF programs put one record per event in a ring buffer (only
 * when this is asked for); here each becomes:
 *
 *   a function call (ioctl, bpfdrv callback)  "X" span on its thread
 *   a tracepoint (vblank, fence signaled)     "i" instant on its thread
 *   a job's or fence's life (queue to done)   "b"/"e" async span of the
 *                                             process that started it
 *
 * Processes are tracks named by their command; events in interrupt
 * context go to the process "interrupts", threads "hardirq"/"softirq";
 * a device's DMA mappings and I/O page faults to the process "devices",
 * a thread per device. Timestamps are CLOCK_MONOTONIC in microseconds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "trace.h"
#include "trace_session.h"
#include "trace.skel.h"

#define NAME_CACHE	8192	/* a power of 2 */
#define IRQ_PID		0
#define DEVICES_PID	0x7fffffffU	/* no process has it: above pid_max */
/* a device's track: its name's hash without the fault rows' direction bit */
#define DEVICE_TID(sub)	((sub) >> 1)

struct trace_timeline {
	struct trace_session *s;
	struct ring_buffer *rb;
	FILE *f;
	unsigned long long written;
	bool first;
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
	hook = trace_hook_by_id(hook_id);
	if (hook < 0)
		return "?";
	trace_row_name(t->s, hook_id, sub, detail, sizeof(detail));
	snprintf(t->names[h].name, sizeof(t->names[h].name), "%s%s%s",
		 trace_hook_name(hook), detail[0] ? " " : "", detail);
	t->names[h].hook = hook_id;
	t->names[h].sub = sub;
	t->names[h].used = true;
	return t->names[h].name;
}

static void begin(struct trace_timeline *t)
{
	fputs(t->first ? "\n" : ",\n", t->f);
	t->first = false;
	t->written++;
}

static void where(struct trace_timeline *t, const struct trace_tl_event *e)
{
	__u32 pid = trace_tgid_is_irq(e->tgid) ? IRQ_PID : e->tgid;
	__u32 tid = e->tid;
	int hook = trace_hook_by_id(e->hook);

	if (hook >= 0 && trace_hook_per_device(hook)) {
		fprintf(t->f, ",\"pid\":%u,\"tid\":%u", DEVICES_PID, DEVICE_TID(e->sub));
		return;
	}
	if (e->tgid == TRACE_TGID_HARDIRQ)
		tid = 1;
	else if (e->tgid == TRACE_TGID_SOFTIRQ)
		tid = 2;
	fprintf(t->f, ",\"pid\":%u,\"tid\":%u", pid, tid);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct trace_timeline *t = ctx;
	const struct trace_tl_event *e = data;
	int hook = trace_hook_by_id(e->hook);
	const char *cat = hook >= 0 ? trace_group_name(trace_hook_group(hook)) : "?";

	if (size < sizeof(*e))
		return 0;
	begin(t);
	fputs("{\"name\":", t->f);
	json_str(t->f, event_name(t, e->hook, e->sub));
	fprintf(t->f, ",\"cat\":\"%s\"", cat);
	switch (e->kind) {
	case TRACE_EV_SPAN:
		fprintf(t->f, ",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f", e->ts / 1e3, e->dur / 1e3);
		where(t, e);
		break;
	case TRACE_EV_INSTANT:
		fprintf(t->f, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f", e->ts / 1e3);
		where(t, e);
		break;
	default:	/* an object's life: a begin and an end with one id */
		fprintf(t->f, ",\"ph\":\"b\",\"id\":\"0x%llx\",\"ts\":%.3f",
			(unsigned long long)e->ts ^ e->hook, e->ts / 1e3);
		where(t, e);
		fputs("},\n{\"name\":", t->f);
		json_str(t->f, event_name(t, e->hook, e->sub));
		fprintf(t->f, ",\"cat\":\"%s\",\"ph\":\"e\",\"id\":\"0x%llx\",\"ts\":%.3f",
			cat, (unsigned long long)e->ts ^ e->hook, (e->ts + e->dur) / 1e3);
		where(t, e);
		t->written++;
		break;
	}
	fputs("}", t->f);
	return 0;
}

struct trace_timeline *trace_timeline_open(struct trace_session *s, const char *path)
{
	struct trace_timeline *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->s = s;
	t->first = true;
	t->f = fopen(path, "w");
	if (!t->f) {
		err("%s: %s", path, strerror(errno));
		free(t);
		return NULL;
	}
	t->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.events), on_event, t, NULL);
	if (!t->rb) {
		err("cannot read the timeline's ring buffer: %s", strerror(errno));
		fclose(t->f);
		free(t);
		return NULL;
	}
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", t->f);
	return t;
}

/* Wait up to @ms for events and write them. */
void trace_timeline_poll(struct trace_timeline *t, int ms)
{
	ring_buffer__poll(t->rb, ms);
}

static void meta(struct trace_timeline *t, const char *what, __u32 pid, __u32 tid,
		 const char *name)
{
	begin(t);
	fprintf(t->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		what, pid, tid);
	json_str(t->f, name);
	fputs("}}", t->f);
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
		if (!trace_hook_per_device(rows[i].hook))
			continue;
		if (!any)
			meta(t, "process_name", DEVICES_PID, 0, "devices");
		any = true;
		snprintf(name, sizeof(name), "%.*s", TRACE_STR_LEN, rows[i].hist.str);
		meta(t, "thread_name", DEVICES_PID, DEVICE_TID(rows[i].sub), name);
	}
	free(rows);
}

/* The last events, the track names, and the file's end. */
unsigned long long trace_timeline_close(struct trace_timeline *t)
{
	struct trace_proc_row *procs;
	unsigned long long n;
	__u32 last = ~0U;
	char name[64];
	int i, np;

	ring_buffer__consume(t->rb);
	name_devices(t);
	np = trace_read_procs(t->s, &procs);
	meta(t, "process_name", IRQ_PID, 0, "interrupts");
	meta(t, "thread_name", IRQ_PID, 1, "hardirq");
	meta(t, "thread_name", IRQ_PID, 2, "softirq");
	for (i = 0; i < np; i++) {
		if (procs[i].tgid == last || trace_tgid_is_irq(procs[i].tgid))
			continue;
		last = procs[i].tgid;
		snprintf(name, sizeof(name), "%s %u", procs[i].comm, last);
		meta(t, "process_name", last, 0, name);
		meta(t, "thread_name", last, 0, "jobs and fences");
	}
	free(procs);
	fputs("\n]}\n", t->f);
	fclose(t->f);
	ring_buffer__free(t->rb);
	n = t->written;
	free(t);
	return n;
}
