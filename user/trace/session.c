// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdrv trace: a session, the top layer (with the command line, cli.c),
 * for `bpfdrv trace` and `bpfdrv stats`. It owns the one struct
 * trace_session every layer below is handed, and runs as a sequence of
 * named phases, each a function that returns 0 to go on or -1 to stop
 * (the exit status is s->exit):
 *
 *   plan      the checks, the command forked (it waits), the hooks probed
 *   load      the programs the hooks need, as the kernel accepts them
 *   attach    every hook that can be, the best way the kernel allows
 *   start     --list ends here; the skipped hooks counted, the timeline
 *             opened, the command started
 *   run       until Ctrl-C, the duration or the command's end, with the
 *             live view and the timeline's events as they come
 *   report    the counts stopped, the summary, the timeline's end, the
 *             losses
 *
 * and one exit path, teardown, which undoes whatever the phases did.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/membarrier.h>

#include "attach.h"
#include "bpfdrv.h"
#include "btf.h"
#include "hooks.h"
#include "load.h"
#include "perfetto.h"
#include "read.h"
#include "report.h"
#include "report_json.h"
#include "report_text.h"
#include "session.h"
#include "trace.skel.h"

/* The signal that ends a run: the one state a signal handler may touch. */
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* Fork the command now, exec it once we are attached (a byte on @go_fd). */
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

/* The checks, the command forked, and how and what to trace, probed. */
static int phase_plan(struct trace_session *s)
{
	struct trace_opts *o = s->opts;
	struct trace_plan *p = s->plan;
	double t0;

	if (hooks_init(p, o->groups))
		return -1;
	refuse_for_tests(p);
	if (o->follow && !o->pid && !o->cmd) {
		err("-f follows the processes a traced one starts: give -p PID or -- COMMAND");
		s->exit = 2;
		return -1;
	}
	if (o->cmd) {
		s->child = start_child(o->cmd, &s->go_fd);
		if (s->child < 0) {
			s->child = 0;
			return -1;
		}
		if (!o->pid)
			o->pid = s->child;
	}
	/* a command is traced with everything it starts, as strace -f does */
	o->follow = o->pid && (o->follow || o->cmd);
	p->count_only = o->count_only;
	t0 = now_s();
	choose_ways(p, o->via);
	p->func_via_forced = o->via;
	probe_sys_devs(p, o);
	p->irq_from_tracepoints = o->irq_tracepoints || !percpu_ksym_resolves();
	probe_hooks(p);
	s->t_probe = now_s() - t0;
	return 0;
}

/* The programs, as the kernel accepts them, and the fork tracepoint. */
static int phase_load(struct trace_session *s)
{
	double t0 = now_s();

	if (trace_load(s) || (s->opts->follow && attach_fork(s)))
		return -1;
	s->t_load = now_s() - t0;
	return 0;
}

static int phase_attach(struct trace_session *s)
{
	double t0 = now_s();

	if (attach_hooks(s))
		return -1;
	s->t_attach = now_s() - t0;
	return 0;
}

/* --list ends here; else the timeline opened and the command started. */
static int phase_start(struct trace_session *s)
{
	struct trace_opts *o = s->opts;
	int n = attached_hooks(s->plan);

	if (report_open(s, o->json ? &report_json : &report_text))
		return -1;
	if (o->list) {
		report_list(s);
		s->exit = 0;
		return -1;
	}
	if (!o->quiet)
		report_skipped(s);
	if (!n) {
		err("nothing to trace: no hook of the chosen groups can be attached here");
		return -1;
	}
	if (o->perfetto && trace_timeline_open(s))
		return -1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "bpfdrv: tracing %d hooks%s\n", n,
		s->child ? "" : "; Ctrl-C to end");
	s->start_time = now_s();
	if (s->child) {
		if (write(s->go_fd, "g", 1) != 1)
			err("cannot start %s", o->cmd[0]);
		close(s->go_fd);
		s->go_fd = -1;
	}
	return 0;
}

/* Until Ctrl-C, the duration, or the command's end. */
static int phase_run(struct trace_session *s)
{
	struct trace_opts *o = s->opts;
	double next = o->interval > 0 ? s->start_time + o->interval : 0;
	double end = o->duration > 0 ? s->start_time + o->duration : 0;
	double next_irq_scan = s->start_time + 1;

	while (!stop) {
		struct timespec tick = { 0, 50 * 1000 * 1000 };
		double t;

		if (s->timeline)
			trace_timeline_poll(s, 50);
		else
			nanosleep(&tick, NULL);
		t = now_s();
		if (s->child && waitpid(s->child, &s->status, WNOHANG) == s->child) {
			s->child = 0;
			break;
		}
		if (next && t >= next) {
			if (o->report)
				o->report(s, false);
			else
				report_interval(s);
			next += o->interval;
		}
		if (end && t >= end)
			break;
		if (t >= next_irq_scan) {
			refresh_irq_devs(s);
			next_irq_scan = t + 1;
		}
	}
	return 0;
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

/* The summary, the timeline's end, and what could not be recorded. */
static int phase_report(struct trace_session *s)
{
	struct trace_opts *o = s->opts;
	struct trace_loss loss;
	int tl_err;

	quiesce(s);
	if (o->report)
		o->report(s, true);
	else
		report_final(s);
	fflush(s->out);
	s->exit = 0;
	if (o->cmd && !s->child)
		s->exit = WIFEXITED(s->status) ? WEXITSTATUS(s->status) :
						 128 + WTERMSIG(s->status);
	if (s->timeline) {
		unsigned long long n = trace_timeline_close(s, &tl_err);

		if (tl_err) {
			err("%s: %s", o->perfetto, strerror(-tl_err));
			s->exit = s->exit ?: 1;
		} else {
			fprintf(stderr, "bpfdrv: wrote %llu timeline events to %s\n",
				n, o->perfetto);
		}
	}
	trace_read_loss(s, &loss);
	report_loss(s, &loss);
	fflush(s->out);
	if (loss.total) {
		err("%llu events were not recorded: the counts are incomplete",
		    (unsigned long long)loss.total);
		s->exit = s->exit ?: 1;
	}
	return 0;
}

/* The one way out: whatever the phases did, undone. */
static void teardown(struct trace_session *s)
{
	int tl_err;

	if (s->timeline)
		trace_timeline_close(s, &tl_err);
	if (s->go_fd >= 0)
		close(s->go_fd);	/* the child sees EOF and exits */
	if (s->child > 0) {	/* tracing ended first: so does the command */
		kill(s->child, SIGTERM);
		waitpid(s->child, &s->status, 0);
	}
	report_close(s);
	detach_hooks(s);
	trace_unload(s);
	free_kernel_btfs();
	trace_read_free(s);
	free(s->plan);
}

int trace_session_run(struct trace_opts *o)
{
	static int (*const phases[])(struct trace_session *s) = {
		phase_plan, phase_load, phase_attach, phase_start, phase_run,
		phase_report, NULL,
	};
	struct trace_session s = {
		.opts = o, .out = o->out ? o->out : stdout, .go_fd = -1, .exit = 1,
		.plan = calloc(1, sizeof(struct trace_plan)),
	};
	int (*const *phase)(struct trace_session *s);
	struct trace_session *sp = &s;

	if (!s.plan) {
		err("out of memory");
		return 1;
	}
	for (phase = phases; *phase; phase++)
		if ((*phase)(sp))
			break;
	teardown(sp);
	return s.exit;
}
