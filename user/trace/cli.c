// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: the command line. Options are parsed into struct
 * trace_opts (those `bpfdrv stats` shares too: trace_parse_common()) and a
 * session (session.c) runs them. The programs attached only while the
 * command runs are libbpf CO-RE ones (trace.bpf.c); what each layer below
 * does is in core.h.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bpfdrv.h"
#include "cli.h"
#include "nvidia.h"
#include "session.h"
#include "trace.h"

static int parse_seconds(const char *arg, const char *what, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || *v <= 0 || *v > 86400 * 365) {
		err("invalid %s '%s': a number of seconds > 0", what, arg);
		return -1;
	}
	return 0;
}

int trace_parse_common(int opt, const char *arg, struct trace_opts *o)
{
	char *end;
	long v;

	switch (opt) {
	case 'i':
		return parse_seconds(arg, "interval", &o->interval);
	case 'd':
		return parse_seconds(arg, "duration", &o->duration);
	case 'j':
		o->json = true;
		return 0;
	case 'f':
		o->follow = true;
		return 0;
	case 'p':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v <= 0 || v > 0x3fffffff) {
			err("invalid PID '%s'", arg);
			return -1;
		}
		o->pid = v;
		return 0;
	case 'c':
		if (!*arg || strlen(arg) >= TRACE_COMM_LEN) {
			err("invalid COMM '%s': 1-%d characters", arg,
				  TRACE_COMM_LEN - 1);
			return -1;
		}
		o->comm = arg;
		return 0;
	case 'o':
		o->out = fopen(arg, "w");
		if (!o->out) {
			err("%s: %s", arg, strerror(errno));
			return -1;
		}
		return 0;
	}
	return 1;
}

static int parse_groups(const char *arg, unsigned int *groups)
{
	char buf[64], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	*groups = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "npu"))
			*groups |= TRACE_NPU;
		else if (!strcmp(tok, "drm"))
			*groups |= TRACE_DRM;
		else if (!strcmp(tok, "bpfdrv"))
			*groups |= TRACE_BPFDRV;
		else if (!strcmp(tok, "nvidia"))
			*groups |= TRACE_NVIDIA;
		else if (!strcmp(tok, "dev"))
			*groups |= TRACE_DEV;
		else if (!strcmp(tok, "iommu"))
			*groups |= TRACE_IOMMU;
		else if (!strcmp(tok, "all"))
			*groups |= TRACE_ALL;
		else
			break;
	}
	if (tok || !*groups) {
		err("invalid group list '%s': npu, drm, bpfdrv, nvidia, iommu, dev or all, %s",
		    arg, "comma-separated");
		return -1;
	}
	return 0;
}

/* --device PATH or MAJOR[:MINOR]: a character device for the dev group */
static int parse_device(const char *arg, struct trace_opts *o)
{
	unsigned int major, minor = TRACE_ANY_MINOR;
	struct stat st;
	char *end;

	if (o->nr_devices >= TRACE_MAX_DEVICES) {
		err("at most %d devices", TRACE_MAX_DEVICES);
		return -1;
	}
	if (arg[0] == '/') {
		if (stat(arg, &st)) {
			err("%s: %s", arg, strerror(errno));
			return -1;
		}
		if (!S_ISCHR(st.st_mode)) {
			err("%s is not a character device", arg);
			return -1;
		}
		major = major(st.st_rdev);
		minor = minor(st.st_rdev);
	} else {
		errno = 0;
		major = strtoul(arg, &end, 10);
		if (!errno && *end == ':')
			minor = strtoul(end + 1, &end, 10);
		if (errno || end == arg || *end || major >= 4096 ||
		    (minor != TRACE_ANY_MINOR && minor >= TRACE_ANY_MINOR)) {
			err("invalid device '%s': a path, or MAJOR[:MINOR]", arg);
			return -1;
		}
	}
	o->devices[o->nr_devices] = (major << 20) | minor;
	o->device_names[o->nr_devices++] = (char *)arg;
	return 0;
}

static void usage_trace(FILE *f)
{
	fprintf(f,
		"usage: bpfdrv trace [OPTIONS] [-- COMMAND [ARGS]]\n"
		"  Trace the Intel NPU (intel_vpu), DRM, NVIDIA's driver and bpfdrv's\n"
		"  own drivers: counts per process, ioctl and callback latency\n"
		"  histograms, GPU scheduler and dma_fence latencies; DMA mappings and\n"
		"  I/O page faults per device (iommu). Hooks this kernel lacks or\n"
		"  refuses are skipped, each with its reason (see --list).\n"
		"  -g, --groups LIST    npu,drm,bpfdrv,nvidia,iommu,dev or all (default:\n"
		"                       npu,drm,bpfdrv,nvidia; all is all but dev)\n"
		"  -l, --list           show each hook, what it attached to, and exit\n"
		"  -i, --interval SECS  print a live table every SECS seconds (on a\n"
		"                       terminal: --top's, redrawn in place)\n"
		"      --top            redraw each interval's rates in place, with\n"
		"                       the busiest processes (every 1 s unless -i)\n"
		"  -d, --duration SECS  stop after SECS seconds (default: Ctrl-C)\n"
		"  -p, --pid PID        only this process\n"
		"  -f, --follow         with -p: and the processes it starts from now on\n"
		"  -c, --comm COMM      only processes with this command name\n"
		"  -j, --json           JSON, one object per line\n"
		"  -o, --output FILE    write the report to FILE\n"
		"      --perfetto FILE  also write a timeline for ui.perfetto.dev, in\n"
		"                       Perfetto's protobuf (trace-event JSON if FILE\n"
		"                       ends in .json)\n"
		"  -q, --quiet          do not count the skipped hooks on stderr\n"
		"  -C, --count-only     count function calls at entry, without their\n"
		"                       latency and errors: the cheapest way\n"
		"      --fentry, --kprobe-multi, --kprobes\n"
		"                       trace functions this way, not the one chosen\n"
		"                       for this kernel (see --list)\n"
		"      --syscalls       trace the system calls on the devices' files\n"
		"                       instead of functions (chosen by itself where\n"
		"                       the kernel refuses function probes)\n"
		"      --device DEV     the dev group: a character device by PATH or\n"
		"                       MAJOR[:MINOR], traced by its system calls\n"
		"                       (repeatable)\n"
		"      --irq-tracepoints  tell interrupts from the irq tracepoints, as\n"
		"                       where percpu ksyms cannot be resolved\n"
		"      --ioctl-names    print NVIDIA's ioctl numbers and names, and exit\n"
		"  -- COMMAND           run COMMAND once attached, trace it and every\n"
		"                       process it starts, stop when it exits (exit\n"
		"                       status: its status)\n"
		"  -h, --help           this help\n");
}

int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "groups", required_argument, NULL, 'g' },
		{ "list", no_argument, NULL, 'l' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "follow", no_argument, NULL, 'f' },
		{ "comm", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "count-only", no_argument, NULL, 'C' },
		{ "kprobes", no_argument, NULL, 'K' },
		{ "fentry", no_argument, NULL, 'F' },
		{ "kprobe-multi", no_argument, NULL, 'M' },
		{ "perfetto", required_argument, NULL, 'P' },
		{ "syscalls", no_argument, NULL, 'S' },
		{ "device", required_argument, NULL, 'D' },
		{ "irq-tracepoints", no_argument, NULL, 'I' },
		{ "top", no_argument, NULL, 'T' },
		{ "ioctl-names", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct trace_opts o = { .groups = TRACE_DEFAULT };
	bool groups_given = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+g:li:d:p:fc:jo:qCh", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			if (parse_groups(optarg, &o.groups))
				return 2;
			groups_given = true;
			break;
		case 'S':
			o.via = 1 + VIA_SYSCALL;
			break;
		case 'I':
			o.irq_tracepoints = true;
			break;
		case 'T':
			o.top = true;
			break;
		case 'N':	/* NVIDIA's names and numbers, to check them against its header */
			nvidia_print_ioctl_names(stdout);
			return 0;
		case 'D':
			if (parse_device(optarg, &o))
				return 2;
			break;
		case 'l':
			o.list = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'C':
			o.count_only = true;
			break;
		case 'K':
			o.via = 1 + VIA_KPROBE;
			break;
		case 'F':
			o.via = 1 + VIA_FENTRY;
			break;
		case 'M':
			o.via = 1 + VIA_MULTI;
			break;
		case 'P':
			o.perfetto = optarg;
			break;
		case 'h':
			usage_trace(stdout);
			return 0;
		case '?':
			usage_trace(stderr);
			return 2;
		default:
			if (trace_parse_common(opt, optarg, &o))
				return 2;
		}
	}
	if (optind < argc)
		o.cmd = argv + optind;
	/* the live view redraws in place on a terminal, or when asked to */
	if (o.top && !o.interval)
		o.interval = 1;
	if (o.interval && !o.json && !o.out && isatty(STDOUT_FILENO))
		o.top = true;
	if (o.top && o.json) {
		err("--top draws for people: not with --json");
		return 2;
	}
	/* --device alone: trace those devices; with -g: as the list says */
	if (o.nr_devices && !groups_given)
		o.groups = TRACE_DEV;
	if (o.cmd && o.list) {
		err("--list takes no command");
		return 2;
	}
	if (geteuid()) {
		err("tracing needs root (CAP_BPF and CAP_PERFMON)");
		return 1;
	}
	ret = trace_session_run(&o);
	if (o.out)
		fclose(o.out);
	return ret;
}
