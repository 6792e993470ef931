// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline's flows without a kernel: synthetic events, as the tracing
 * programs would give them, through user/trace/flows.c to both writers
 * (Perfetto's protobuf and Chrome's JSON); selftests/timeline.py then
 * checks the files (trace-host.sh runs both halves).
 *
 *   test_timeline_flows FILE.pftrace FILE.json
 *	submits on four threads, each an accelerator job through the
 *	scheduler (a flow to its job, one to its fence), a direct job (a
 *	flow to its fence) or a scheduler job whose driver emits no fence;
 *	some ends lost, some begins lost, each end before or after its
 *	begin, other events between, and a burst of submits whose fences
 *	never come (more than flows.c holds). Prints the events and the
 *	flows that must be in the files, as one JSON line.
 *
 *   test_timeline_flows bench N FILE.pftrace FILE.json
 *	N events like a DRM workload's (ioctl spans, instants, lives), a
 *	third of the ioctls submits with their jobs and fences, written
 *	with their flows, then the same events without: write time and
 *	bytes per event of each format (the time is the CPU time of the
 *	process, writing the files included). Built with -DOLD_WRITERS against
 *	writers that know no flows, it times those (the same events).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "trace/timeline.h"
#include "trace/timeline_json.h"
#include "trace/timeline_proto.h"
#ifndef OLD_WRITERS
#include "trace/flows.h"
#endif

/* util.c's, which needs libbpf: JSON's string escaping */
void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

#define PID		4242
#define JOB		1U	/* trace.h's TRACE_FLOW_JOB, _FENCE, _SHIFT */
#define FENCE		2U
#define SHIFT		2

enum { SPAN, INSTANT, LIFE };	/* trace.h's TRACE_EV_* */

struct ev {
	int kind;
	__u32 tid;		/* 0: the process's jobs and fences */
	const char *name;
	__u64 ts, dur;
	__u32 flow;
};

static unsigned long long rnd_state = 88172645463325252ULL;

static unsigned int rnd(unsigned int n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state % n;
}

struct out {
	const struct timeline_format *fmt;
	struct timeline_writer *w;
#ifndef OLD_WRITERS
	struct timeline_flows *flows;
#endif
	unsigned long long written;
};

static int out_open(struct out *o, const struct timeline_format *fmt, const char *path)
{
	FILE *f = fopen(path, "w");

	o->fmt = fmt;
	o->w = f ? fmt->open(f) : NULL;
	o->written = 0;
	if (!o->w) {
		perror(path);
		return -1;
	}
#ifndef OLD_WRITERS
	o->flows = flows_open(fmt, o->w);
	if (!o->flows)
		return -1;
#endif
	return 0;
}

static void out_event(struct out *o, const struct ev *e)
{
	struct timeline_place p = { TL_THREAD, PID, e->tid };
#ifndef OLD_WRITERS
	struct timeline_event te = {
		.kind = e->kind, .place = p, .name = e->name, .cat = "drm",
		.ts = e->ts, .dur = e->dur, .flow = e->flow,
	};

	flows_event(o->flows, &te);
#else
	switch (e->kind) {
	case SPAN:
		o->fmt->span(o->w, &p, e->name, "drm", e->ts, e->dur);
		break;
	case INSTANT:
		o->fmt->instant(o->w, &p, e->name, "drm", e->ts);
		break;
	default:
		o->fmt->life(o->w, &p, e->name, "drm", e->ts, e->dur);
		o->written++;
	}
	o->written++;
#endif
}

static int out_close(struct out *o)
{
#ifndef OLD_WRITERS
	o->written = flows_close(o->flows);
#endif
	o->fmt->name(o->w, PID, 0, "synthetic 4242");
	return o->fmt->close(o->w);
}

/* Room for the events of a run; @n events are there. */
static struct ev *evs;
static int nr_evs, cap_evs;

static void add(int kind, __u32 tid, const char *name, __u64 ts, __u64 dur, __u32 flow)
{
	if (nr_evs == cap_evs) {
		cap_evs = cap_evs ? 2 * cap_evs : 4096;
		evs = realloc(evs, cap_evs * sizeof(*evs));
		if (!evs)
			exit(1);
	}
	evs[nr_evs++] = (struct ev){ kind, tid, name, ts, dur, flow };
}

/*
 * Submit @id at @ts from thread @tid: a job through the scheduler (a flow
 * to its life, one to its fence), or direct (to its fence), or a job
 * whose fence is never emitted; @lose: 1 its span lost, 2 an end lost.
 */
static int submit(__u32 id, __u32 tid, __u64 ts, int how, int lose)
{
	__u32 roles = how == 1 ? FENCE : JOB | FENCE;
	int flows = 0;

	if (lose != 1)
		add(SPAN, tid, "drm_ioctl BPFDRV_SUBMIT", ts, 5000, id << SHIFT | roles);
	if (how != 1 && lose != 2) {
		add(LIFE, 0, "sched_queue_to_done", ts + 1000, 60000, id << SHIFT | JOB);
		flows += lose != 1;
	}
	if (how != 2 && !(how == 1 && lose == 2)) {
		add(INSTANT, 0, "fence_signaled", ts + 40000, 0, id << SHIFT | FENCE);
		flows += lose != 1;
	}
	return flows;
}

#ifndef OLD_WRITERS
/* Shuffle the events within windows of @w: ends come before their begins. */
static void shuffle(int w)
{
	int i, j;

	for (i = 0; i < nr_evs; i++) {
		j = i + rnd(w);
		if (j < nr_evs) {
			struct ev t = evs[i];

			evs[i] = evs[j];
			evs[j] = t;
		}
	}
}

static int write_all(const char *proto, const char *json, unsigned long long *written)
{
	struct out o[2];
	int i, k, ret = 0;

	if (out_open(&o[0], &timeline_proto, proto) || out_open(&o[1], &timeline_json, json))
		return -1;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < nr_evs; i++)
			out_event(&o[k], &evs[i]);
		ret |= out_close(&o[k]);
		written[k] = o[k].written;
	}
	return ret;
}

static int scenario(const char *proto, const char *json)
{
	unsigned long long written[2], want = 0;
	int i, flows = 0, lives = 0;
	__u32 id = 0;
	__u64 ts = 1000000000ULL;

	for (i = 0; i < 3000; i++) {
		int how = rnd(3), lose = rnd(20) == 0 ? 1 : rnd(20) == 0 ? 2 : 0;

		flows += submit(++id, 100 + rnd(4), ts, how, lose);
		if (rnd(2))	/* an ioctl that submits nothing */
			add(SPAN, 100 + rnd(4), "drm_ioctl VERSION", ts + 2000, 1000, 0);
		if (rnd(4) == 0)
			add(INSTANT, 0, "fence_init", ts + 3000, 0, 0);
		ts += 10000;
	}
	/* more submits whose fences never come than flows.c has room for */
	for (i = 0; i < 10000; i++, ts += 10000)
		flows += submit(++id, 100 + rnd(4), ts, 2, 0);
	for (i = 0; i < 3000; i++, ts += 10000)
		flows += submit(++id, 100 + rnd(4), ts, rnd(2), 0);
	shuffle(8);
	for (i = 0; i < nr_evs; i++)
		lives += evs[i].kind == LIFE;
	want = nr_evs + lives;
	if (write_all(proto, json, written))
		return 1;
	printf("{\"events\":%d,\"lives\":%d,\"flows\":%d,\"written\":[%llu,%llu],\"want\":%llu}\n",
	       nr_evs, lives, flows, written[0], written[1], want);
	return written[0] != want || written[1] != want;
}
#endif

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);	/* the host is shared */
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* @n events like a DRM workload's; a third of its ioctls submit jobs */
static void workload(int n)
{
	__u32 id = 0;
	__u64 ts = 1000000000ULL;

	rnd_state = 88172645463325252ULL;
	nr_evs = 0;
	while (nr_evs < n) {
		unsigned int r = rnd(10);

		if (r < 7 && rnd(3) == 0) {
			submit(++id, 100 + rnd(4), ts, rnd(2), 0);
		} else if (r < 7) {
			add(SPAN, 100 + rnd(4), r < 4 ? "drm_ioctl VERSION" :
			    "drm_ioctl SYNCOBJ_WAIT", ts, 3000, 0);
		} else if (r < 9) {
			add(INSTANT, 100 + rnd(4), r == 7 ? "fence_init" : "vblank crtc0",
			    ts, 0, 0);
		} else {
			add(LIFE, 0, "fence_init_to_signal", ts, 20000, 0);
		}
		ts += 3000;
	}
}

/*
 * The same events with their flows (@f 1) and without (0), each format:
 * the cost of writing and the bytes an event.
 */
static int bench(int n, const char *proto, const char *json)
{
	const char *paths[2] = { proto, json };
	const char *formats[2] = { "protobuf", "json" };
	int f, k, i, flows = 0;

	workload(n);
	for (i = 0; i < nr_evs; i++)
		flows += evs[i].kind == SPAN ? __builtin_popcount(evs[i].flow & 3) : 0;
	for (f = 1; f >= 0; f--) {
#ifdef OLD_WRITERS
		if (f)
			continue;
#endif
		if (!f)
			for (i = 0; i < nr_evs; i++)
				evs[i].flow = 0;
		for (k = 0; k < 2; k++) {
			const struct timeline_format *fmt = k ? &timeline_json : &timeline_proto;
			double t0, t;
			struct stat st;
			struct out o;
			int i;

			if (out_open(&o, fmt, paths[k]))
				return 1;
			t0 = now();
			for (i = 0; i < nr_evs; i++)
				out_event(&o, &evs[i]);
			if (out_close(&o))
				return 1;
			t = now() - t0;
			stat(paths[k], &st);
			printf("{\"format\":\"%s\",\"flows\":%d,\"events\":%d,\"written\":%llu,"
			       "\"ns_per_event\":%.1f,\"bytes_per_event\":%.1f,\"bytes\":%lld}\n",
			       formats[k], f ? flows : 0, nr_evs, o.written,
			       t * 1e9 / nr_evs, (double)st.st_size / nr_evs,
			       (long long)st.st_size);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "bench"))
		return bench(atoi(argv[2]), argv[3], argv[4]);
	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE.pftrace FILE.json\n"
			"       %s bench N FILE.pftrace FILE.json\n", argv[0], argv[0]);
		return 2;
	}
#ifdef OLD_WRITERS
	return 2;
#else
	return scenario(argv[1], argv[2]);
#endif
}
