/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpfdrv trace --perfetto FILE (perfetto.c): the ring buffer's events
 * named, placed on tracks and handed to a timeline writer (timeline.h).
 */
#ifndef __BPFDRV_TRACE_PERFETTO_H
#define __BPFDRV_TRACE_PERFETTO_H

#include "core.h"

/* s->timeline, writing to s->opts->perfetto: 0, or -1 (said why). */
int trace_timeline_open(struct trace_session *s);
/* Wait up to @ms for events and write them. */
void trace_timeline_poll(struct trace_session *s, int ms);
/* The last events and the file's end: the events written; *err 0 or -errno. */
unsigned long long trace_timeline_close(struct trace_session *s, int *err);

#endif /* __BPFDRV_TRACE_PERFETTO_H */
