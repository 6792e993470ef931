/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading the tracing programs (load.c): the object opened for the
 * session's options, only the programs its hooks need, and the programs
 * the kernel refuses on their own left out with the reason, so that they
 * cost only their hooks. The attaching layer asks it which program serves
 * a hook and whether it loaded.
 */
#ifndef __BPFDRV_TRACE_LOAD_H
#define __BPFDRV_TRACE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "core.h"
#include "hooks.h"

struct bpf_program;
struct trace_bpf;

/* BPFDRV_TRACE_REFUSE=prog,...: programs to treat as refused (tests). */
void refuse_for_tests(struct trace_plan *p);
/* Can this kernel resolve a percpu variable as a ksym? */
bool percpu_ksym_resolves(void);
/* The programs into s->skel: 0, or -1 (said why). */
int trace_load(struct trace_session *s);
void trace_unload(struct trace_session *s);

/* Is @prog not loaded? Then why, in @why. */
bool prog_unusable(const struct trace_plan *p, const struct bpf_program *prog,
		   char *why, size_t size);
/* The program of a tracepoint hook, and its irq_handler_exit one if timed. */
struct bpf_program *tp_program(struct trace_bpf *skel, enum tp_prog p);
struct bpf_program *tp_exit_program(struct trace_bpf *skel, enum tp_prog p);

#endif /* __BPFDRV_TRACE_LOAD_H */
