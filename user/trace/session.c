// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: what the kernel side of an accelerator workload does, from
 * libbpf CO-RE programs (trace.bpf.c) attached only while the command runs.
 * This file runs a session (open, load what the kernel accepts, attach,
 * run the command, report) and the command line; the hook table and
 * probing are in trace_hooks.c, attaching in trace_attach.c, the results
 * in trace_report.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <drm/drm.h>
#include <linux/membarrier.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"
#include "bpfdrv_fop.h"
#include "trace.h"
#include "hooks.h"
#include "nvidia.h"
#include "trace.skel.h"
#include "trace_irqtp.skel.h"

/* trace_irqtp.bpf.o stands in for trace.bpf.o: the same maps and data */
_Static_assert(sizeof(*((struct trace_bpf *)0)->bss) ==
	       sizeof(*((struct trace_irqtp_bpf *)0)->bss), "trace_irqtp .bss");
_Static_assert(sizeof(*((struct trace_bpf *)0)->rodata) ==
	       sizeof(*((struct trace_irqtp_bpf *)0)->rodata), "trace_irqtp .rodata");
_Static_assert(sizeof(((struct trace_bpf *)0)->maps) ==
	       sizeof(((struct trace_irqtp_bpf *)0)->maps), "trace_irqtp maps");
_Static_assert(sizeof(((struct trace_bpf *)0)->progs) ==
	       sizeof(((struct trace_irqtp_bpf *)0)->progs), "trace_irqtp programs");

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* --- the session --- */

/* A kernel symbol's address (0 if none), asked of kallsyms by find_ksym. */
static __u64 find_ksym(struct trace_bpf *skel, const char *name)
{
	struct trace_ksym args = {};
	/* a syscall program's context is copied back in place */
	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = &args,
		    .ctx_size_in = sizeof(args));
	int fd = bpf_program__fd(skel->progs.find_ksym);

	if (fd < 0 || strlen(name) >= sizeof(args.name))
		return 0;
	strcpy(args.name, name);
	if (bpf_prog_test_run_opts(fd, &topts) || topts.retval)
		return 0;
	return args.addr;
}

/* Fork the command now, exec it once we are attached (a byte on @fd). */
static pid_t start_child(char **argv, int *go_fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p)) {
		err("pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		err("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		char c;

		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* tracing failed to start */
		close(p[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "bpfdrv: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go_fd = p[1];
	return pid;
}

/*
 * Stop counting before the final report, so that its rows agree with each
 * other: the programs see `stopping`, and MEMBARRIER_CMD_GLOBAL returns after
 * an RCU grace period, when every program run that began before has ended.
 */
static void quiesce(struct trace_session *s)
{
	s->skel->bss->stopping = true;
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		usleep(100 * 1000);	/* nohz_full CPUs: no global barrier */
}

/*
 * Can this kernel resolve a percpu variable as a ksym (the preempt count)?
 * Not without CONFIG_KALLSYMS_ALL: the verifier then refuses every program
 * that names one ("ldimm64 failed to find the address"), so interrupts are
 * told from tracepoints by an object that names none (trace_irqtp.bpf.o).
 */
static bool percpu_ksym_resolves(void)
{
	static const char *const vars[] = { "__preempt_count", "pcpu_hot" };
	struct btf *btf = kernel_btf(NULL, &(int){ 0 });
	struct bpf_insn insns[4] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_BTF_ID },
		{},
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int i, id = -1, fd;

	for (i = 0; i < 2 && id <= 0; i++)
		id = btf ? btf__find_by_name_kind(btf, vars[i], BTF_KIND_VAR) : -1;
	if (id <= 0)
		return false;	/* neither: the preempt count would read 0 */
	insns[0].imm = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "percpu_ksym", "GPL", insns, 4,
			   NULL);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* The object, opened and set up for this session's options and hooks. */
static struct trace_bpf *open_skel(struct trace_plan *p, const struct trace_opts *o)
{
	struct trace_bpf *skel = calloc(1, sizeof(*skel));
	struct bpf_program *prog;
	int i, e;

	if (!skel || trace_bpf__create_skeleton(skel))
		goto fail;
	/* the same source and layout, built without percpu ksyms */
	if (p->irq_from_tracepoints)
		skel->skeleton->data = trace_irqtp_bpf__elf_bytes(&skel->skeleton->data_sz);
	if (bpf_object__open_skeleton(skel->skeleton, NULL))
		goto fail;
	skel->rodata->targ_tgid = o->pid;
	skel->rodata->targ_follow = o->follow;
	skel->rodata->count_only = p->count_only;
	if (o->perfetto)
		skel->rodata->emit_events = true;
	else	/* the ring buffer stays, smallest */
		bpf_map__set_max_entries(skel->maps.events, getpagesize());
	if (o->comm) {
		skel->rodata->targ_comm_set = true;
		strncpy((char *)skel->rodata->targ_comm, o->comm, TRACE_COMM_LEN - 1);
	}
	/* NVIDIA's interrupt handlers are named after its module */
	strcpy((char *)skel->rodata->irq_name, "nvidia");
	if (set_autoload(p, skel, o->follow))
		goto fail;
	for (i = 0; i < p->nr_refused; i++) {
		prog = bpf_object__find_program_by_name(skel->obj, p->refused[i].name);
		if (prog)
			bpf_program__set_autoload(prog, false);
	}
	return skel;
fail:
	e = errno;
	trace_bpf__destroy(skel);
	errno = e;
	return NULL;
}

/*
 * After the object failed to load: find the programs that the kernel
 * refuses on their own (each loaded alone), and note why.
 */
static int find_refused(struct trace_plan *p, const struct trace_opts *o)
{
	char names[32][64];
	struct bpf_program *prog;
	struct trace_bpf *skel = open_skel(p, o);
	int n = 0, found = 0, i, e;

	if (!skel)
		return 0;
	bpf_object__for_each_program(prog, skel->obj)
		if (bpf_program__autoload(prog) && n < 32)
			snprintf(names[n++], sizeof(names[0]), "%.63s", bpf_program__name(prog));
	trace_bpf__destroy(skel);
	for (i = 0; i < n && p->nr_refused < (int)(sizeof(p->refused) /
						   sizeof(p->refused[0])); i++) {
		size_t mark = libbpf_log_mark();
		struct refused_prog *r = &p->refused[p->nr_refused];

		skel = open_skel(p, o);
		if (!skel)
			break;
		bpf_object__for_each_program(prog, skel->obj)
			if (strcmp(bpf_program__name(prog), names[i]))
				bpf_program__set_autoload(prog, false);
		if (trace_bpf__load(skel)) {
			e = errno;
			_Static_assert(sizeof(r->name) == sizeof(names[0]), "names");
			memcpy(r->name, names[i], sizeof(r->name));
			if (!libbpf_log_reason(mark, r->why, sizeof(r->why)))
				snprintf(r->why, sizeof(r->why), "%s", strerror(e));
			p->nr_refused++;
			found++;
		}
		trace_bpf__destroy(skel);
	}
	return found;
}

/* Load what the kernel accepts: a refused program only loses its hooks. */
static int load_skel(struct trace_session *s, const struct trace_opts *o)
{
	int tries, e = 0;

	for (tries = 0; tries < 3; tries++) {
		s->skel = open_skel(s->plan, o);
		if (!s->skel) {
			err("cannot open the tracing programs: %s", strerror(errno));
			return -1;
		}
		if (!trace_bpf__load(s->skel))
			return 0;
		e = errno;
		trace_bpf__destroy(s->skel);
		s->skel = NULL;
		if (!find_refused(s->plan, o))
			break;
	}
	err("cannot load the tracing programs: %s (-v shows libbpf's log)", strerror(e));
	return -1;
}


/* Append to @buf (of @size, @len used) what @fmt says. */
static size_t append(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len >= size)
		return len;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	return n < 0 ? len : len + n;
}

/*
 * Hooks this kernel or machine lacks are never an error: one line says how
 * many each group skipped and why, grouped (the modules not loaded, those
 * not in this kernel, those that need others); trace -l says which and
 * why one by one; -q: nothing.
 */
static void report_skipped(unsigned int groups)
{
	char line[1024] = "", mods[512] = "", mod[64], seen[600], key[72];
	size_t len = 0, mlen = 0;
	int i, g, n, total = 0, absent = 0, needs = 0, other = 0;

	for (g = 0; g < 32; g++) {
		n = 0;
		for (i = 0; i < NR_HOOKS; i++)
			if ((hooks[i].group & groups & (1u << g)) && !hooks[i].attached)
				n++;
		if (!n)
			continue;
		total += n;
		len = append(line, sizeof(line), len, "%s%s %d", len ? ", " : "",
			     trace_group_name(1u << g), n);
	}
	if (!total)
		return;
	for (i = 0; i < NR_HOOKS; i++) {
		if (!(hooks[i].group & groups) || hooks[i].attached)
			continue;
		if (sscanf(hooks[i].why, "module %63s not loaded", mod) == 1) {
			/* each module once */
			snprintf(seen, sizeof(seen), ", %s,", mods);
			snprintf(key, sizeof(key), ", %s,", mod);
			if (!strstr(seen, key))
				mlen = append(mods, sizeof(mods), mlen, "%s%s",
					      mlen ? ", " : "", mod);
		} else if (strstr(hooks[i].why, "not in this kernel")) {
			absent++;
		} else if (!strncmp(hooks[i].why, "needs ", 6)) {
			needs++;
		} else {
			other++;
		}
	}
	len = append(line, sizeof(line), len, ")");
	if (mlen)
		len = append(line, sizeof(line), len, ": modules not loaded: %s", mods);
	if (absent)
		len = append(line, sizeof(line), len, "; %d not in this kernel", absent);
	if (needs)
		len = append(line, sizeof(line), len, "; %d need those", needs);
	if (other)
		append(line, sizeof(line), len, "; %d refused", other);
	fprintf(stderr, "bpfdrv: %d hook%s skipped (%s; bpfdrv trace -l says why\n",
		total, total == 1 ? "" : "s", line);
}

int trace_session_run(struct trace_opts *o)
{
	struct trace_plan plan = { .groups = o->groups }, *p = &plan;
	struct trace_session s = { .opts = o, .plan = p, .out = o->out ? o->out : stdout };
	struct trace_timeline *timeline = NULL;
	struct trace_loss loss;
	double next, end, t0, next_irq_scan;
	int go_fd = -1, ret = 1, status = 0, i, nattached = 0, tl_err;
	pid_t child = 0;

	refuse_for_tests(p);
	for (i = 0; i < NR_HOOKS; i++) {
		if (!hooks[i].name) {	/* an H_* index out of step with the table */
			err("internal error: hook %d is empty", i);
			return 1;
		}
		hooks[i].prog_fds[0] = hooks[i].prog_fds[1] = -1;
		hooks[i].link_fds[0] = hooks[i].link_fds[1] = -1;
	}
	if (func_slot(NR_HOOKS) > TRACE_FUNC_SLOTS) {
		err("internal error: raise TRACE_FUNC_SLOTS to %d", func_slot(NR_HOOKS));
		return 1;
	}
	if (o->follow && !o->pid && !o->cmd) {
		err("-f follows the processes a traced one starts: give -p PID or -- COMMAND");
		return 2;
	}
	if (o->cmd) {
		child = start_child(o->cmd, &go_fd);
		if (child < 0)
			return 1;
		if (!o->pid)
			o->pid = child;
	}
	/* a command is traced with everything it starts, as strace -f does */
	o->follow = o->pid && (o->follow || o->cmd);
	p->count_only = o->count_only;
	t0 = now_s();
	p->func_via = o->via ? (enum func_via)(o->via - 1) : choose_via(o->count_only);
	p->func_via_forced = o->via;
	probe_sys_devs(p, o);
	p->irq_from_tracepoints = o->irq_tracepoints || !percpu_ksym_resolves();
	probe_hooks(p);
	s.t_probe = now_s() - t0;
	t0 = now_s();
	if (load_skel(&s, o))
		goto out;
	if (bpf_program__fd(s.skel->progs.find_ksym) >= 0)
		s.skel->bss->drm_core_ioctls = find_ksym(s.skel, "drm:drm_ioctls") ?:
					       find_ksym(s.skel, "drm_ioctls");
	if (o->follow) {
		char why[128] = "";

		if (!prog_unusable(p, s.skel->progs.trace_fork, why, sizeof(why))) {
			s.skel->links.trace_fork =
				bpf_program__attach(s.skel->progs.trace_fork);
			snprintf(why, sizeof(why), "%s", strerror(errno));
		}
		if (!s.skel->links.trace_fork) {
			err("cannot follow the forks of process %u: %s", o->pid, why);
			goto out;
		}
	}
	s.t_load = now_s() - t0;
	t0 = now_s();
	attach_hooks(p, s.skel);
	s.t_attach = now_s() - t0;
	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].attached && hooks[i].kind != HOOK_LAT)
			nattached++;

	if (o->list) {
		print_list(&s);
		ret = 0;
		goto out;
	}
	if (!o->quiet)
		report_skipped(o->groups);
	if (!nattached) {
		err("nothing to trace: no hook of the chosen groups can be attached here");
		goto out;
	}

	if (o->perfetto) {
		timeline = trace_timeline_open(&s, o->perfetto);
		if (!timeline)
			goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "bpfdrv: tracing %d hooks%s\n", nattached,
		child ? "" : "; Ctrl-C to end");
	s.start_time = s.last_time = now_s();
	next = o->interval > 0 ? s.start_time + o->interval : 0;
	end = o->duration > 0 ? s.start_time + o->duration : 0;
	next_irq_scan = s.start_time + 1;
	if (child) {
		if (write(go_fd, "g", 1) != 1)
			err("cannot start %s", o->cmd[0]);
		close(go_fd);
		go_fd = -1;
	}
	while (!stop) {
		struct timespec tick = { 0, 50 * 1000 * 1000 };
		double t;

		if (timeline)
			trace_timeline_poll(timeline, 50);
		else
			nanosleep(&tick, NULL);
		t = now_s();
		if (child && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (next && t >= next) {
			if (o->report)
				o->report(&s, false);
			else
				trace_report_interval(&s);
			next += o->interval;
		}
		if (end && t >= end)
			break;
		if (t >= next_irq_scan) {
			refresh_irq_devs(s.skel);
			next_irq_scan = t + 1;
		}
	}
	quiesce(&s);
	if (o->report)
		o->report(&s, true);
	else
		trace_report_final(&s);
	fflush(s.out);
	ret = 0;
	if (o->cmd && !child)
		ret = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (timeline) {
		unsigned long long n = trace_timeline_close(timeline, &tl_err);

		timeline = NULL;
		if (tl_err) {
			err("%s: %s", o->perfetto, strerror(-tl_err));
			ret = ret ?: 1;
		} else {
			fprintf(stderr, "bpfdrv: wrote %llu timeline events to %s\n",
				n, o->perfetto);
		}
	}
	trace_read_loss(&s, &loss);
	print_loss(&s, &loss);
	fflush(s.out);
	if (loss.total) {
		err("%llu events were not recorded: the counts are incomplete",
		    (unsigned long long)loss.total);
		ret = ret ?: 1;
	}
out:
	if (timeline)
		trace_timeline_close(timeline, &tl_err);
	if (go_fd >= 0)
		close(go_fd);	/* the child sees EOF and exits */
	if (child > 0) {	/* tracing ended first: so does the command */
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	detach_hooks();
	trace_bpf__destroy(s.skel);
	free_kernel_btfs();
	free(s.prev_procs);
	free(s.prev_clients);
	return ret;
}

/* --- options shared by trace and stats --- */

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
