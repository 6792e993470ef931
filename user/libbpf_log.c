// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf's word, kept for error reports: everything it said, its warnings,
 * and the verifier's refusal of a program explained (where it stopped, in
 * the source, and why).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfdrv.h"

#define LOG_TAIL_LINES	12

static bool verbose;
static char *libbpf_log;	/* everything libbpf said, for error reports */
static size_t libbpf_log_len;
static char *libbpf_warns;	/* libbpf's warnings, e.g. a missing kfunc */
static size_t libbpf_warns_len;

/* Append @n bytes of @s to the growing string *@buf of *@len bytes. */
static void append(char **buf, size_t *len, const char *s, size_t n)
{
	char *p = realloc(*buf, *len + n + 1);

	if (!p)
		return;
	memcpy(p + *len, s, n + 1);
	*buf = p;
	*len += n;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char *line;
	int n;

	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	/* one call can carry a whole verifier log: no fixed-size buffer */
	n = vasprintf(&line, fmt, ap);
	if (n < 0)
		return n;
	if (verbose)
		fputs(line, stderr);
	if (level == LIBBPF_WARN)
		append(&libbpf_warns, &libbpf_warns_len, line, n);
	append(&libbpf_log, &libbpf_log_len, line, n);
	free(line);
	return n;
}

/* Start of the line @nlines lines before @p, not before @floor. */
static const char *lines_back(const char *floor, const char *p, int nlines)
{
	while (p > floor && nlines >= 0) {
		p--;
		if (*p == '\n')
			nlines--;
	}
	return p == floor ? p : p + 1;
}

/* The last line before the line at @before that @match accepts, or NULL. */
static const char *last_line_with(const char *floor, const char *before,
				  bool (*match)(const char *line))
{
	const char *p = before;

	while (p > floor) {
		/* p - 1 ends the line before the one at p */
		const char *line = lines_back(floor, p - 1, 0);

		if (match(line))
			return line;
		p = line;
	}
	return NULL;
}

/* "; c source @ file.bpf.c:12", the verifier's note of a source line */
static bool is_source_line(const char *line)
{
	return line[0] == ';' && line[1] == ' ';
}

/* "12: (85) call ...", an instruction */
static bool is_insn_line(const char *line)
{
	while (*line >= '0' && *line <= '9')
		line++;
	return line[0] == ':' && line[1] == ' ' && line[2] == '(';
}

static void put_line(const char *what, const char *line)
{
	fprintf(stderr, "bpfdrv:   %s%.*s\n", what, (int)strcspn(line, "\n"), line);
}

/*
 * Where the verifier stopped: the last instruction it checked, the source
 * line that instruction comes from (the object's BTF line info; build with
 * -g) and its reason, the lines that follow the instruction up to a blank
 * line or "processed N insns".
 */
static void print_verifier_error(const char *begin, const char *end)
{
	const char *stop = strstr(begin, "\nprocessed ");
	const char *insn, *src, *p, *what = "reason:      ";

	if (!stop || stop > end)
		return;
	insn = last_line_with(begin, stop + 1, is_insn_line);
	if (!insn)
		return;
	src = last_line_with(begin, insn, is_source_line);
	fprintf(stderr, "bpfdrv: where the verifier stopped:\n");
	if (src)
		put_line("source:      ", src + 2);
	put_line("instruction: ", insn);
	for (p = strchr(insn, '\n') + 1; p < stop && *p != '\n';
	     p = strchr(p, '\n') + 1) {
		put_line(what, p);
		what = "             ";
	}
}

/*
 * Print the useful part of the verifier log libbpf reported. Kernels with
 * structured diagnostics ("Verification failed: ...") get the error, its
 * place and the suggestion; older ones the last lines, which end with the
 * error.
 */
static bool print_verifier_tail(void)
{
	const char *begin, *end, *vf, *stop, *sugg;

	if (!libbpf_log)
		return false;
	begin = strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --");
	begin = begin ? strchr(begin, '\n') : NULL;
	if (!begin)
		return false;
	begin++;
	end = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end)
		return false;
	/* libbpf prefixes the END marker line with "libbpf: prog 'x': " */
	while (end > begin && end[-1] != '\n')
		end--;

	print_verifier_error(begin, end);
	fprintf(stderr, "bpfdrv: verifier log (the error; -v shows all):\n");
	vf = strstr(begin, "\nVerification failed:");
	if (!vf || vf > end) {
		stop = strstr(begin, "\nprocessed ");
		if (!stop || stop > end)
			stop = end;
		begin = lines_back(begin, stop, LOG_TAIL_LINES);
		fwrite(begin, 1, stop - begin, stderr);
		fputc('\n', stderr);
		return true;
	}
	sugg = strstr(vf, "\nSuggestion:");
	if (sugg && sugg > end)
		sugg = NULL;
	stop = strstr(vf, "\nCausal path:");
	if (!stop || stop > end)
		stop = sugg ? sugg : end;
	begin = lines_back(begin, vf, 3);
	fwrite(begin, 1, stop - begin, stderr);
	fputc('\n', stderr);
	if (sugg) {
		const char *e = strstr(sugg + 1, "\n\n");

		if (!e || e > end)
			e = end;
		fwrite(sugg + 1, 1, e - sugg - 1, stderr);
		fputc('\n', stderr);
	}
	return true;
}

/* How much libbpf has said so far, for libbpf_log_reason(). */
size_t libbpf_log_mark(void)
{
	return libbpf_log_len;
}

/*
 * Why the kernel refused a program, from what libbpf said after @mark:
 * the last line of the verifier's log before its statistics.
 */
bool libbpf_log_reason(size_t mark, char *buf, size_t size)
{
	const char *begin, *end, *stop, *line;

	if (!libbpf_log || mark > libbpf_log_len)
		return false;
	begin = strstr(libbpf_log + mark, "-- BEGIN PROG LOAD LOG --");
	begin = begin ? strchr(begin, '\n') : NULL;
	if (!begin)
		return false;
	begin++;
	end = strstr(begin, "\nprocessed ");
	stop = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end || (stop && stop < end))
		end = stop ? stop : begin + strlen(begin);
	while (end > begin && (end[-1] == '\n' || end[-1] == '.'))
		end--;
	line = end;
	while (line > begin && line[-1] != '\n')
		line--;
	if (line == end)
		return false;
	snprintf(buf, size, "%.*s", (int)(end - line), line);
	return true;
}

/* The program whose load failed, from libbpf's report. */
static const char *failed_prog(char *buf, size_t size)
{
	const char *p, *q;

	/* only a load the kernel refused leaves a verifier log */
	p = libbpf_log ? strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --") : NULL;
	while (p && p > libbpf_log && p[-1] != '\n')
		p--;
	p = p ? strstr(p, "prog '") : NULL;
	if (!p)
		return NULL;
	p += 6;
	q = strchr(p, '\'');
	if (!q || (size_t)(q - p) >= size)
		return NULL;
	memcpy(buf, p, q - p);
	buf[q - p] = '\0';
	return buf;
}

#define LAST_REFUSAL_FILE "/sys/kernel/bpfdrv/last_refusal"

/* The module's last refusal, "SEQ MESSAGE", when refusal_mark() ran. */
static char refusal_before[256];

static void last_refusal(char *buf, size_t size)
{
	if (read_line(LAST_REFUSAL_FILE, buf, size))
		buf[0] = '\0';
}

/* Note the module's last refusal, before writing programs into maps. */
void refusal_mark(void)
{
	last_refusal(refusal_before, sizeof(refusal_before));
}

/*
 * If the module refused something since refusal_mark() (a call or load it
 * does not grant, found when programs were written into a map), say what.
 */
bool refusal_explain(const char *path)
{
	char after[256];

	last_refusal(after, sizeof(after));
	if (!after[0] || !strcmp(refusal_before, after) || !strchr(after, ' '))
		return false;
	err("%s: bpfdrv refused it: %s", path, strchr(after, ' ') + 1);
	if (strstr(after, "kfunc bpf_iter_num_"))
		err("%s: bpf_for() and bpf_repeat() loop without a budget: loop with bpfdrv_for(i, dev, start, end)",
		    path);
	return true;
}

/*
 * Load @obj, explaining a refusal: the program and the verifier's reason,
 * or what bpfdrv refused when the object's programs were written into its
 * maps (a call or a load it does not grant).
 */
int load_object(struct bpf_object *obj, const char *path)
{
	char prog[128];
	int e;

	refusal_mark();
	if (!bpf_object__load(obj))
		return 0;
	e = errno;
	if (refusal_explain(path))
		return -1;
	if (failed_prog(prog, sizeof(prog)))
		err("%s: the kernel rejected program '%s': %s", path, prog,
		    strerror(e));
	else
		err("%s: load failed: %s", path, strerror(e));
	if (!print_verifier_tail() && libbpf_warns && !verbose)
		fputs(libbpf_warns, stderr);
	/* the one refusal a driver from elsewhere meets first */
	if (libbpf_log && strstr(libbpf_log, "helper bpf_loop#"))
		err("%s: bpf_loop() is not granted, as its rounds have no budget: loop with bpfdrv_for(i, dev, start, end)",
		    path);
	if (libbpf_log && strstr(libbpf_log, "helper bpf_timer_"))
		err("%s: bpf_timer is not granted, as its callbacks run outside bpfdrv's calls: use bpfdrv_timer_start(dev, id, delay_ns) and the timer callback (ABI 10)",
		    path);
	return -1;
}

/* Keep what libbpf says from now on; print it all with @be_verbose. */
void libbpf_log_init(bool be_verbose)
{
	verbose = be_verbose;
	libbpf_set_print(libbpf_print);
}
