// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline in Perfetto's own format (--perfetto FILE): a Trace of
 * TracePackets (protos/perfetto/trace/trace_packet.proto), encoded here
 * by hand, which ui.perfetto.dev and trace_processor open and which can be
 * merged with a system trace:
 *
 *   a call (ioctl, bpfdrv callback)   a slice on its thread's track
 *   a tracepoint                      an instant on it
 *   a job's or fence's life           a slice on a "jobs and fences" track
 *                                     of its process (as many as overlap)
 *   interrupts                        "hardirq"/"softirq" tracks of the
 *                                     process "interrupts" (one per overlap)
 *   a device's DMA and faults         its own track in the process "devices"
 *   a flow (a submit to its job and   the submit's slice begins it
 *   to its fence)                     (TrackEvent.flow_ids), the job's
 *                                     slice or the fence's instant ends
 *                                     it (terminating_flow_ids)
 *
 * Event and category names are interned (sent once per trace), tracks are
 * small numbers described once: about 45 bytes a call against the JSON's
 * 106. The events go to a temporary file first, so that the track
 * descriptors, whose names are known only at the end, come before them.
 * Timestamps are CLOCK_MONOTONIC, with a clock snapshot that relates
 * them to the boot clock Perfetto's traces use.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timeline.h"
#include "timeline_proto.h"

/* field numbers of the messages used (Perfetto's protos) */
#define TRACE_PACKET			1
#define PKT_CLOCK_SNAPSHOT		6
#define PKT_TIMESTAMP			8
#define PKT_SEQUENCE_ID			10
#define PKT_TRACK_EVENT			11
#define PKT_INTERNED_DATA		12
#define PKT_SEQUENCE_FLAGS		13
#define PKT_TIMESTAMP_CLOCK_ID		58
#define PKT_TRACK_DESCRIPTOR		60
#define SNAPSHOT_CLOCKS			1
#define CLOCK_ID			1
#define CLOCK_TIMESTAMP			2
#define INTERNED_CATEGORIES		1
#define INTERNED_NAMES			2
#define INTERNED_IID			1
#define INTERNED_NAME			2
#define EVENT_CATEGORY_IIDS		3
#define EVENT_TYPE			9
#define EVENT_NAME_IID			10
#define EVENT_TRACK_UUID		11
#define EVENT_FLOW_IDS			47	/* fixed64 */
#define EVENT_TERMINATING_FLOW_IDS	48	/* fixed64 */
#define TRACK_UUID			1
#define TRACK_NAME			2
#define TRACK_PROCESS			3
#define TRACK_THREAD			4
#define TRACK_PARENT_UUID		5
#define PROCESS_PID			1
#define PROCESS_NAME			6
#define THREAD_PID			1
#define THREAD_TID			2

#define TYPE_SLICE_BEGIN		1
#define TYPE_SLICE_END			2
#define TYPE_INSTANT			3
#define CLOCK_MONOTONIC_ID		3	/* BuiltinClock */
#define CLOCK_BOOTTIME_ID		6
#define SEQ_ID				1
#define SEQ_INCREMENTAL_STATE_CLEARED	1
#define SEQ_NEEDS_INCREMENTAL_STATE	2

#define PB_MAX		1024
#define TRACKS_MAX	4096	/* powers of 2 */
#define STRINGS_MAX	8192
#define NAMES_MAX	4096
#define LANES_MAX	16	/* overlapping lives of one process */

struct pb {
	unsigned char b[PB_MAX];
	size_t n;
	bool over;
};

enum track_kind { TRACK_OF_THREAD, TRACK_OF_PROCESS, TRACK_NAMED };

/* A track: a thread, a process, or one named (device, lane) in a process. */
struct track {
	__u64 key;		/* 0: free */
	__u32 uuid;
	enum track_kind kind;
	__u32 pid, tid;		/* tid: the place's, for the name */
	__u32 lane;
	char label[24];		/* a lane's, if named by kind */
};

struct lanes {
	__u64 key;		/* 0: free */
	__u64 end[LANES_MAX];	/* when its last slice ends */
	unsigned int n;
};

struct timeline_writer {
	FILE *f, *events;
	__u32 next_uuid;
	unsigned int nr_tracks;
	struct track tracks[TRACKS_MAX];
	struct { __u64 hash; __u32 iid; } strings[STRINGS_MAX];
	__u32 next_iid;
	struct { __u64 key; char name[96]; } names[NAMES_MAX];
	struct lanes lanes[TRACKS_MAX];
	bool failed;
};

static void pb_varint(struct pb *p, __u64 v)
{
	do {
		if (p->n == PB_MAX) {
			p->over = true;
			return;
		}
		p->b[p->n++] = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
	} while (v);
}

static void pb_uint(struct pb *p, unsigned int field, __u64 v)
{
	pb_varint(p, (__u64)field << 3);
	pb_varint(p, v);
}

static void pb_fixed64(struct pb *p, unsigned int field, __u64 v)
{
	int i;

	pb_varint(p, (__u64)field << 3 | 1);
	if (p->n + 8 > PB_MAX) {
		p->over = true;
		return;
	}
	for (i = 0; i < 8; i++)
		p->b[p->n++] = v >> (8 * i);
}

static void pb_bytes(struct pb *p, unsigned int field, const void *data, size_t len)
{
	pb_varint(p, (__u64)field << 3 | 2);
	pb_varint(p, len);
	if (p->n + len > PB_MAX) {
		p->over = true;
		return;
	}
	memcpy(p->b + p->n, data, len);
	p->n += len;
}

static void pb_str(struct pb *p, unsigned int field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

static void pb_msg(struct pb *p, unsigned int field, const struct pb *inner)
{
	p->over |= inner->over;
	pb_bytes(p, field, inner->b, inner->n);
}

/* A packet of the Trace message, to @f. */
static void pb_packet(struct timeline_writer *w, FILE *f, const struct pb *packet)
{
	struct pb outer = {};

	pb_msg(&outer, TRACE_PACKET, packet);
	if (outer.over || fwrite(outer.b, 1, outer.n, f) != outer.n)
		w->failed = true;
}

static __u64 hash64(__u64 v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v ? v : 1;
}

static __u64 hash_str(const char *s)
{
	__u64 h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h ? h : 1;
}

/*
 * The interned id of @s; a new one is defined in @interned (under @field:
 * names or categories), as the packet that first uses it must. 0: the
 * table is full, the event carries its name (not its category) inline.
 */
static __u32 intern(struct timeline_writer *w, struct pb *interned,
		    unsigned int field, const char *s)
{
	__u64 h = hash_str(s) ^ field;
	unsigned int i, slot = h & (STRINGS_MAX - 1);
	struct pb entry = {};

	for (i = 0; i < STRINGS_MAX; i++, slot = (slot + 1) & (STRINGS_MAX - 1)) {
		if (w->strings[slot].hash == h)
			return w->strings[slot].iid;
		if (!w->strings[slot].hash)
			break;
	}
	if (i == STRINGS_MAX)
		return 0;
	w->strings[slot].hash = h;
	w->strings[slot].iid = ++w->next_iid;
	pb_uint(&entry, INTERNED_IID, w->next_iid);
	pb_str(&entry, INTERNED_NAME, s);
	pb_msg(interned, field, &entry);
	return w->next_iid;
}

/* The track of @key, made with @t's fields the first time. */
static __u32 track(struct timeline_writer *w, __u64 key, const struct track *t)
{
	unsigned int i, slot = hash64(key) & (TRACKS_MAX - 1);

	for (i = 0; i < TRACKS_MAX; i++, slot = (slot + 1) & (TRACKS_MAX - 1)) {
		if (w->tracks[slot].key == key)
			return w->tracks[slot].uuid;
		if (!w->tracks[slot].key)
			break;
	}
	if (i == TRACKS_MAX)
		return 1;	/* full: the first track */
	w->tracks[slot] = *t;
	w->tracks[slot].key = key;
	w->tracks[slot].uuid = ++w->next_uuid;
	w->nr_tracks++;
	return w->next_uuid;
}

static __u32 process_track(struct timeline_writer *w, __u32 pid)
{
	struct track t = { .kind = TRACK_OF_PROCESS, .pid = pid };

	return track(w, 1ULL << 62 | pid, &t);
}

/*
 * A lane of @p's process for a slice from @ts to @end that may overlap
 * others there: the first lane free by @ts. @what names the lanes.
 */
static __u32 lane_track(struct timeline_writer *w, const struct timeline_place *p,
			const char *what, __u64 ts, __u64 end)
{
	__u64 key = hash64((__u64)p->pid << 32 | p->tid | (__u64)p->kind << 60);
	unsigned int i, lane = 0, slot = key & (TRACKS_MAX - 1);
	struct lanes *l = NULL;
	struct track t = { .kind = TRACK_NAMED, .pid = p->pid, .tid = p->tid };

	for (i = 0; i < TRACKS_MAX; i++, slot = (slot + 1) & (TRACKS_MAX - 1)) {
		if (w->lanes[slot].key == key || !w->lanes[slot].key) {
			l = &w->lanes[slot];
			l->key = key;
			break;
		}
	}
	if (l) {
		for (lane = 0; lane < l->n && l->end[lane] > ts; lane++)
			;
		if (lane == LANES_MAX)
			lane = LANES_MAX - 1;	/* overlaps: as few as can be */
		if (lane == l->n)
			l->n++;
		if (l->end[lane] < end)
			l->end[lane] = end;
	}
	t.lane = lane;
	snprintf(t.label, sizeof(t.label), "%s", what);
	process_track(w, p->pid);
	return track(w, (hash64(key ^ (lane + 1) * 0x9E3779B97F4A7C15ULL) & ~(3ULL << 62)) |
		     2ULL << 62, &t);
}

/* The track of an event that does not overlap others at its place. */
static __u32 place_track(struct timeline_writer *w, const struct timeline_place *p,
			 __u64 ts, __u64 end)
{
	struct track t = { .pid = p->pid, .tid = p->tid };

	switch (p->kind) {
	case TL_IRQ:	/* on every CPU at once */
		return lane_track(w, p, p->tid == TIMELINE_HARDIRQ_TID ? "hardirq" :
				  p->tid == TIMELINE_SOFTIRQ_TID ? "softirq" : "irq",
				  ts, end);
	case TL_DEVICE:
		t.kind = TRACK_NAMED;
		process_track(w, p->pid);
		return track(w, 3ULL << 62 | p->tid, &t);
	default:
		if (!p->tid)	/* charged to the process: its objects' track */
			return lane_track(w, p, "jobs and fences", ts, end);
		t.kind = TRACK_OF_THREAD;
		process_track(w, p->pid);
		return track(w, (__u64)p->pid << 31 | p->tid, &t);
	}
}

static void event(struct timeline_writer *w, __u32 uuid, int type,
		  const char *name, const char *cat, __u64 ts,
		  const struct timeline_flow *fl)
{
	struct pb packet = {}, ev = {}, interned = {};
	__u32 name_iid = 0, cat_iid = 0;
	int k;

	if (name) {
		name_iid = intern(w, &interned, INTERNED_NAMES, name);
		cat_iid = intern(w, &interned, INTERNED_CATEGORIES, cat);
	}
	pb_uint(&packet, PKT_TIMESTAMP, ts);
	pb_uint(&packet, PKT_TIMESTAMP_CLOCK_ID, CLOCK_MONOTONIC_ID);
	pb_uint(&packet, PKT_SEQUENCE_ID, SEQ_ID);
	if (name)	/* interned ids: the sequence's state */
		pb_uint(&packet, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	if (interned.n)
		pb_msg(&packet, PKT_INTERNED_DATA, &interned);
	pb_uint(&ev, EVENT_TYPE, type);
	pb_uint(&ev, EVENT_TRACK_UUID, uuid);
	if (name_iid)
		pb_uint(&ev, EVENT_NAME_IID, name_iid);
	else if (name)
		pb_str(&ev, 23, name);	/* TrackEvent.name */
	if (cat_iid)
		pb_uint(&ev, EVENT_CATEGORY_IIDS, cat_iid);
	for (k = 0; fl && k < fl->nr_out; k++)
		pb_fixed64(&ev, EVENT_FLOW_IDS, fl->out[k]);
	if (fl && fl->in)
		pb_fixed64(&ev, EVENT_TERMINATING_FLOW_IDS, fl->in);
	pb_msg(&packet, PKT_TRACK_EVENT, &ev);
	pb_packet(w, w->events, &packet);
}

static void proto_span(struct timeline_writer *w, const struct timeline_place *p,
		       const char *name, const char *cat, __u64 ts, __u64 dur,
		       const struct timeline_flow *fl)
{
	__u32 uuid = place_track(w, p, ts, ts + dur);

	event(w, uuid, TYPE_SLICE_BEGIN, name, cat, ts, fl);
	event(w, uuid, TYPE_SLICE_END, NULL, NULL, ts + dur, NULL);
}

static void proto_instant(struct timeline_writer *w, const struct timeline_place *p,
			  const char *name, const char *cat, __u64 ts,
			  const struct timeline_flow *fl)
{
	event(w, place_track(w, p, ts, ts), TYPE_INSTANT, name, cat, ts, fl);
}

static void proto_life(struct timeline_writer *w, const struct timeline_place *p,
		       const char *name, const char *cat, __u64 ts, __u64 dur,
		       const struct timeline_flow *fl)
{
	struct timeline_place owner = { TL_THREAD, p->pid, 0 };
	__u32 uuid = lane_track(w, p->kind == TL_THREAD ? &owner : p,
				"jobs and fences", ts, ts + dur);

	event(w, uuid, TYPE_SLICE_BEGIN, name, cat, ts, fl);
	event(w, uuid, TYPE_SLICE_END, NULL, NULL, ts + dur, NULL);
}

static char *name_slot(struct timeline_writer *w, __u32 pid, __u32 tid, bool add)
{
	__u64 key = (__u64)pid << 32 | tid | 1ULL << 63;
	unsigned int i, slot = hash64(key) & (NAMES_MAX - 1);

	for (i = 0; i < NAMES_MAX; i++, slot = (slot + 1) & (NAMES_MAX - 1)) {
		if (w->names[slot].key == key)
			return w->names[slot].name;
		if (!w->names[slot].key) {
			if (!add)
				return NULL;
			w->names[slot].key = key;
			return w->names[slot].name;
		}
	}
	return NULL;
}

static void proto_name(struct timeline_writer *w, __u32 pid, __u32 tid, const char *name)
{
	char *slot = name_slot(w, pid, tid, true);

	if (slot)
		snprintf(slot, sizeof(w->names[0].name), "%s", name);
}

/* The first packet: the clocks, and the sequence's state begins. */
static void proto_header(struct timeline_writer *w)
{
	struct pb packet = {}, snapshot = {}, clock = {};
	struct timespec mono, boot;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	pb_uint(&clock, CLOCK_ID, CLOCK_MONOTONIC_ID);
	pb_uint(&clock, CLOCK_TIMESTAMP, mono.tv_sec * 1000000000ULL + mono.tv_nsec);
	pb_msg(&snapshot, SNAPSHOT_CLOCKS, &clock);
	clock.n = 0;
	pb_uint(&clock, CLOCK_ID, CLOCK_BOOTTIME_ID);
	pb_uint(&clock, CLOCK_TIMESTAMP, boot.tv_sec * 1000000000ULL + boot.tv_nsec);
	pb_msg(&snapshot, SNAPSHOT_CLOCKS, &clock);
	pb_uint(&packet, PKT_TIMESTAMP, boot.tv_sec * 1000000000ULL + boot.tv_nsec);
	pb_uint(&packet, PKT_TIMESTAMP_CLOCK_ID, CLOCK_BOOTTIME_ID);
	pb_msg(&packet, PKT_CLOCK_SNAPSHOT, &snapshot);
	pb_uint(&packet, PKT_SEQUENCE_ID, SEQ_ID);
	pb_uint(&packet, PKT_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	pb_packet(w, w->f, &packet);
}

static void proto_describe(struct timeline_writer *w, const struct track *t)
{
	struct pb packet = {}, desc = {}, who = {};
	char label[128];
	const char *name;

	pb_uint(&desc, TRACK_UUID, t->uuid);
	switch (t->kind) {
	case TRACK_OF_PROCESS:
		pb_uint(&who, PROCESS_PID, t->pid);
		name = name_slot(w, t->pid, 0, false);
		if (name && *name)
			pb_str(&who, PROCESS_NAME, name);
		pb_msg(&desc, TRACK_PROCESS, &who);
		break;
	case TRACK_OF_THREAD:
		pb_uint(&desc, TRACK_PARENT_UUID, process_track(w, t->pid));
		pb_uint(&who, THREAD_PID, t->pid);
		pb_uint(&who, THREAD_TID, t->tid);
		pb_msg(&desc, TRACK_THREAD, &who);
		break;
	default:
		pb_uint(&desc, TRACK_PARENT_UUID, process_track(w, t->pid));
		name = t->label[0] ? t->label : name_slot(w, t->pid, t->tid, false);
		if (t->lane)
			snprintf(label, sizeof(label), "%s %u", name ?: "?", t->lane + 1);
		else
			snprintf(label, sizeof(label), "%s", name ?: "?");
		pb_str(&desc, TRACK_NAME, label);
	}
	pb_msg(&packet, PKT_TRACK_DESCRIPTOR, &desc);
	pb_packet(w, w->f, &packet);
}

static struct timeline_writer *proto_open(FILE *f)
{
	struct timeline_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->events = tmpfile();
	if (!w->events) {
		free(w);
		return NULL;
	}
	w->f = f;
	return w;
}

static int proto_close(struct timeline_writer *w)
{
	char buf[65536];
	unsigned int i;
	size_t n;
	int ret;

	proto_header(w);
	for (i = 0; i < TRACKS_MAX; i++)
		if (w->tracks[i].key)
			proto_describe(w, &w->tracks[i]);
	rewind(w->events);
	while ((n = fread(buf, 1, sizeof(buf), w->events)) > 0)
		if (fwrite(buf, 1, n, w->f) != n)
			w->failed = true;
	ret = w->failed || ferror(w->events) || ferror(w->f) ? -EIO : 0;
	fclose(w->events);
	if (fclose(w->f) && !ret)
		ret = -EIO;
	free(w);
	return ret;
}

const struct timeline_format timeline_proto = {
	.format = "Perfetto protobuf",
	.open = proto_open,
	.span = proto_span,
	.instant = proto_instant,
	.life = proto_life,
	.name = proto_name,
	.close = proto_close,
};
