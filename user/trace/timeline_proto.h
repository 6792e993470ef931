/* SPDX-License-Identifier: GPL-2.0 */
/* The timeline in Perfetto's protobuf (TrackEvent) (timeline_proto.c). */
#ifndef __BPFDRV_TRACE_TIMELINE_PROTO_H
#define __BPFDRV_TRACE_TIMELINE_PROTO_H

struct timeline_format;
extern const struct timeline_format timeline_proto;

#endif /* __BPFDRV_TRACE_TIMELINE_PROTO_H */
