/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of bpfdrv trace (cli.c; its cmd_trace() is declared
 * with the other commands in bpfdrv.h), and the options stats shares.
 */
#ifndef __BPFDRV_TRACE_CLI_H
#define __BPFDRV_TRACE_CLI_H

#include "core.h"

/*
 * One option that trace and stats share (-i, -d, -j, -f, -p, -c, -o)
 * into @o: 0, -1 if invalid (said why), 1 if not one of them.
 */
int trace_parse_common(int opt, const char *arg, struct trace_opts *o);

#endif /* __BPFDRV_TRACE_CLI_H */
