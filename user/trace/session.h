/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracing session (session.c), the top layer: what `bpfdrv trace`
 * (cli.c) and `bpfdrv stats` (stats.c, with its own report callback in
 * the options) run.
 */
#ifndef __BPFDRV_TRACE_SESSION_H
#define __BPFDRV_TRACE_SESSION_H

#include "core.h"

/* Trace as @o says, until it ends; the exit status of the command. */
int trace_session_run(struct trace_opts *o);

#endif /* __BPFDRV_TRACE_SESSION_H */
