// SPDX-License-Identifier: GPL-2.0
/*
 * Programs beside and in place of a driver's, loaded as root would with
 * libbpf, not through bpfdrv load: an extension (freplace) in place of a
 * driver's callback or of its static subprogram, a return-value modifier
 * on it, and a tracing program calling a bpfdrv kfunc must each be
 * refused; fentry and fexit on it may attach, but only observe (the
 * driver's reads return what they did, counted once each). A driver's
 * callback cannot be run with a made-up context (BPF_PROG_TEST_RUN), and
 * a syscall program cannot call bpfdrv's kfuncs.
 *
 *   test_beside TARGET_OBJ BESIDE_OBJ SYSCALL_OBJ
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "datasec.h"
#include "tap.h"

#define NODE	"/dev/bpfdrv/beside_target"
#define READS	100

/* libbpf's messages of the last load, for the reason of a refusal */
static char log_text[1 << 16];
static size_t log_len;

static int keep_log(enum libbpf_print_level level, const char *fmt,
		    va_list args)
{
	if (log_len < sizeof(log_text) - 1)
		log_len += vsnprintf(log_text + log_len,
				     sizeof(log_text) - log_len, fmt, args);
	if (log_len > sizeof(log_text) - 1)
		log_len = sizeof(log_text) - 1;
	return 0;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * The reason of the last refusal: the verifier's last line before its
 * statistics, or libbpf's last line.
 */
static const char *refusal(void)
{
	static char line[160];
	char *end = strstr(log_text, "-- END PROG LOAD LOG --");
	char *p;

	if (!end)
		end = log_text + log_len;
	for (;;) {
		while (end > log_text && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		for (p = end; p > log_text && p[-1] != '\n'; p--)
			;
		if (p == log_text || !(starts(p, "processed ") || *p == ' ' ||
				       starts(p, "verification time") ||
				       starts(p, "stack depth")))
			break;
		end = p;
	}
	snprintf(line, sizeof(line), "%.*s", (int)(end - p), p);
	return line;
}

/* Reads of the target; how many returned 0, as the driver does. */
static int reads_ok(int n)
{
	int fd = open(NODE, O_RDONLY), i, good = 0;
	char c;

	for (i = 0; fd >= 0 && i < n; i++)
		good += read(fd, &c, 1) == 0;
	if (fd >= 0)
		close(fd);
	return good;
}

struct attempt {
	const char *prog;	/* in BESIDE_OBJ */
	const char *target;	/* a function of beside_target's read */
	const char *what;
	const char *counter;	/* NULL: must be refused */
	const char *reason;	/* if set, the refusal's log names it */
};

static const struct attempt attempts[] = {
	{ "replace_read", "beside_read", "freplace of the driver's callback", NULL, NULL },
	{ "replace_twice", "twice", "freplace of the driver's static subprogram", NULL, NULL },
	{ "modret_read", "beside_read", "fmod_ret on the driver's callback", NULL, NULL },
	{ "wake_read", "beside_read", "fentry calling bpfdrv_dev_wake()", NULL,
	  "bpfdrv_dev_wake" },
	{ "entry_read", "beside_read", "fentry on the driver's callback", "entries", NULL },
	{ "exit_read", "beside_read", "fexit on the driver's callback", "exits", NULL },
	{ "entry_twice", "twice", "fentry on the driver's subprogram", "entries_twice", NULL },
};

/* Load and attach @a's program aimed at @target_fd; say what happened. */
static void try_attempt(const char *path, int target_fd,
			const struct attempt *a)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *prog, *p;
	struct bpf_link *link = NULL;
	int err, good;
	__u64 *count;

	prog = obj ? bpf_object__find_program_by_name(obj, a->prog) : NULL;
	if (!ok(prog, "beside: %s is in %s", a->prog, path))
		goto out;
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog);
	log_len = 0;
	log_text[0] = '\0';
	err = bpf_program__set_attach_target(prog, target_fd, a->target);
	if (!err)
		err = bpf_object__load(obj);
	if (err) {
		ok(!a->reason || strstr(log_text, a->reason),
		   "beside: %s: refused at load: %s", a->what, refusal());
		goto out;
	}
	if (bpf_program__type(prog) == BPF_PROG_TYPE_EXT)
		link = bpf_program__attach_freplace(prog, target_fd, a->target);
	else
		link = bpf_program__attach_trace(prog);
	if (!link) {
		ok(1, "beside: %s: loaded, refused at attach: %s", a->what,
		   strerror(errno));
		goto out;
	}
	good = reads_ok(READS);
	count = a->counter ? (__u64 *)datasec_var(obj, ".bss", a->counter) : NULL;
	if (!a->counter)
		ok(0, "beside: %s: refused (it attached; %d of %d reads as the driver returns)",
		   a->what, good, READS);
	else
		ok(good == READS && count && *count == READS,
		   "beside: %s: attached, only observes: %d of %d reads as the driver returns, counted %llu",
		   a->what, good, READS, count ? (unsigned long long)*count : 0ULL);
out:
	bpf_link__destroy(link);
	bpf_object__close(obj);
}

/* The syscall program of @path calls a bpfdrv kfunc: the verifier refuses. */
static void try_syscall(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;
	int err;

	if (!ok(obj, "beside: %s opens", path))
		return;
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, bpf_program__type(p) == BPF_PROG_TYPE_SYSCALL);
	log_len = 0;
	log_text[0] = '\0';
	err = bpf_object__load(obj);
	ok(err && strstr(log_text, "bpfdrv_dev_wake"),
	   "beside: a syscall program calling bpfdrv_dev_wake() is refused: %s",
	   err ? refusal() : "it loaded");
	bpf_object__close(obj);
}

int main(int argc, char **argv)
{
	char ctx[64];
	struct bpf_object *target;
	struct bpf_link *link;
	int target_fd, err;
	LIBBPF_OPTS(bpf_test_run_opts, run, .ctx_in = ctx,
		    .ctx_size_in = sizeof(ctx));
	size_t i;

	if (argc != 4) {
		fprintf(stderr, "usage: test_beside TARGET_OBJ BESIDE_OBJ SYSCALL_OBJ\n");
		return 2;
	}
	libbpf_set_print(keep_log);
	target = bpf_object__open_file(argv[1], NULL);
	if (!ok(target && !bpf_object__load(target), "beside: %s loads", argv[1]))
		return 1;
	link = bpf_map__attach_struct_ops(bpf_object__find_map_by_name(target,
								       "beside_target"));
	for (i = 0; link && i < 40 && access(NODE, F_OK); i++)
		usleep(50000);
	if (!ok(link && reads_ok(1) == 1, "beside: beside_target attached and reads"))
		return 1;
	target_fd = bpf_program__fd(bpf_object__find_program_by_name(target,
								     "beside_read"));
	for (i = 0; i < sizeof(attempts) / sizeof(attempts[0]); i++)
		try_attempt(argv[2], target_fd, &attempts[i]);

	/* run the driver's callback with a context of one's own making */
	memset(ctx, 0x41, sizeof(ctx));
	err = bpf_prog_test_run_opts(target_fd, &run);
	ok(err, "beside: the driver's callback cannot be run with a made-up context (%s)",
	   err ? strerror(errno) : "it ran");
	try_syscall(argv[3]);

	ok(reads_ok(READS) == READS, "beside: the driver reads as before");
	bpf_link__destroy(link);
	for (i = 0; i < 40 && !access(NODE, F_OK); i++)
		usleep(50000);
	ok(access(NODE, F_OK), "beside: beside_target detached");
	bpf_object__close(target);
	return tap_failures ? 1 : 0;
}
