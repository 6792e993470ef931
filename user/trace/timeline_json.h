/* SPDX-License-Identifier: GPL-2.0 */
/* The timeline in Chrome's trace-event JSON (timeline_json.c). */
#ifndef __BPFDRV_TRACE_TIMELINE_JSON_H
#define __BPFDRV_TRACE_TIMELINE_JSON_H

struct timeline_format;
extern const struct timeline_format timeline_json;

#endif /* __BPFDRV_TRACE_TIMELINE_JSON_H */
