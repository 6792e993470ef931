// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * fuzz_cover: coverage guidance for fuzz_sys. Each thread traces its own
 * system calls with KCOV (Documentation/dev-tools/kcov.rst); an edge is a
 * pair of consecutive PCs, hashed into one bitmap all threads share, as
 * AFL counts them. A program whose calls set a new bit keeps its tape (its
 * random choices) in the corpus, in memory and, with a directory, on disk
 * for the next run. Half the programs replay a corpus tape, some choices
 * changed (to another value, or to the next one up or down: the next case
 * of a switch) or only a prefix of it kept: the generator's choices stay
 * typed, so a mutated program is still a program.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/kcov.h>

#include "fuzz_cover.h"

#define COVER_WORDS	(256 * 1024)	/* a call's PCs, at most */
#define EDGE_BITS	22
#define PC_BITS		20
#define PC_SLOTS	0x100000UL	/* 2^PC_BITS */
#define CORPUS_MAX	8192
#define MODULES_MAX	4
#define GOLDEN		0x9E3779B97F4A7C15ULL

struct corpus_entry {
	unsigned int len;
	__u64 *v;
};

static int cover_on;
static const char *corpus_dir;
static atomic_ullong edges[1 << (EDGE_BITS - 6)];
static atomic_ullong pcs[PC_SLOTS];
static atomic_ullong nr_edges, nr_pcs, nr_module_pcs, nr_programs, nr_replayed;
static struct {
	unsigned long start, end;
} modules[MODULES_MAX];
static unsigned int nr_modules;
static pthread_mutex_t corpus_lock = PTHREAD_MUTEX_INITIALIZER;
static struct corpus_entry corpus[CORPUS_MAX];
static unsigned int corpus_len, corpus_loaded, corpus_saved;

__u64 fuzz_rng(__u64 *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

__u64 fuzz_tape_next(struct fuzz_tape *t)
{
	__u64 v;

	if (t->pos < t->replay)
		return t->v[t->pos++];
	v = fuzz_rng(&t->rng);
	if (t->pos < TAPE_MAX)
		t->v[t->pos++] = v;
	return v;
}

/*
 * KCOV gives PCs less the kernel's KASLR offset (kcov.c: canonicalize_ip),
 * the distance of _text from where x86_64 links it.
 */
static unsigned long kaslr_offset(void)
{
	unsigned long addr, offset = 0;
	char line[256], type, name[128];
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %127s", &addr, &type, name) == 3 &&
		    !strcmp(name, "_text")) {
			offset = addr - 0xffffffff81000000UL;
			break;
		}
	fclose(f);
	return offset;
}

/* The named modules, from /proc/modules (root sees addresses), as KCOV's PCs. */
static void modules_read(const char * const *names)
{
	char line[512], name[64];
	unsigned long size, addr, kaslr = kaslr_offset();
	unsigned int i;
	FILE *f = fopen("/proc/modules", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && nr_modules < MODULES_MAX) {
		if (sscanf(line, "%63s %lu %*s %*s %*s %lx", name, &size, &addr) != 3 ||
		    !addr)
			continue;
		for (i = 0; names[i]; i++)
			if (!strcmp(name, names[i])) {
				modules[nr_modules].start = addr - kaslr;
				modules[nr_modules++].end = addr - kaslr + size;
			}
	}
	fclose(f);
}

static int in_modules(unsigned long pc)
{
	unsigned int i;

	for (i = 0; i < nr_modules; i++)
		if (pc >= modules[i].start && pc < modules[i].end)
			return 1;
	return 0;
}

/* Under corpus_lock: @v joins the corpus, and the directory if there is one. */
static int corpus_add(const __u64 *v, unsigned int len, int save)
{
	char path[4096];
	__u64 hash = 0xcbf29ce484222325ULL;
	unsigned int i;
	int fd, ok;

	if (!len || corpus_len >= CORPUS_MAX)
		return 0;
	corpus[corpus_len].v = malloc(len * sizeof(*v));
	if (!corpus[corpus_len].v)
		return 0;
	memcpy(corpus[corpus_len].v, v, len * sizeof(*v));
	corpus[corpus_len++].len = len;
	if (!save || !corpus_dir)
		return 1;
	for (i = 0; i < len; i++)
		hash = (hash ^ v[i]) * 0x100000001b3ULL;
	snprintf(path, sizeof(path), "%s/%016llx.tape", corpus_dir,
		 (unsigned long long)hash);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return 1;
	ok = write(fd, v, len * sizeof(*v)) == (ssize_t)(len * sizeof(*v));
	close(fd);
	if (ok)
		corpus_saved++;
	else
		unlink(path);
	return 1;
}

/* The tapes a run before kept: files of 8-byte choices. */
static void corpus_load(void)
{
	static __u64 v[TAPE_MAX];
	char path[4096];
	struct dirent *d;
	ssize_t n;
	DIR *dir;
	int fd;

	dir = opendir(corpus_dir);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (!strstr(d->d_name, ".tape"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", corpus_dir, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, v, sizeof(v));
		close(fd);
		if (n >= (ssize_t)sizeof(v[0]))
			corpus_loaded += corpus_add(v, n / sizeof(v[0]), 0);
	}
	closedir(dir);
}

int fuzz_cover_init(const char *dir, const char * const *names)
{
	if (access("/sys/kernel/debug/kcov", R_OK | W_OK))
		return -errno;
	cover_on = 1;
	corpus_dir = dir;
	modules_read(names);
	if (dir)
		corpus_load();
	return 0;
}

int fuzz_cover_on(void)
{
	return cover_on;
}

int fuzz_cover_open(struct fuzz_cover *c)
{
	c->fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	if (ioctl(c->fd, KCOV_INIT_TRACE, COVER_WORDS))
		return -errno;
	c->area = mmap(NULL, COVER_WORDS * sizeof(unsigned long),
		       PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (c->area == MAP_FAILED)
		return -errno;
	return 0;
}

int fuzz_cover_enable(struct fuzz_cover *c)
{
	if (ioctl(c->fd, KCOV_ENABLE, KCOV_TRACE_PC))
		return -errno;
	__atomic_store_n(&c->area[0], 0, __ATOMIC_RELAXED);
	return 0;
}

/* A PC not seen before is counted (once, whichever thread sees it first). */
static void pc_add(unsigned long pc)
{
	unsigned long long cur, h = (pc * GOLDEN) >> (64 - PC_BITS);
	unsigned int i;

	for (i = 0; i < 64; i++) {
		atomic_ullong *slot = &pcs[(h + i) & (PC_SLOTS - 1)];

		cur = atomic_load(slot);
		if (!cur && atomic_compare_exchange_strong(slot, &cur, pc)) {
			atomic_fetch_add(&nr_pcs, 1);
			if (in_modules(pc))
				atomic_fetch_add(&nr_module_pcs, 1);
			return;
		}
		if (cur == pc)
			return;
	}
}

void fuzz_cover_collect(struct fuzz_cover *c)
{
	unsigned long n, i, pc, h;
	unsigned long long bit;

	if (!cover_on)
		return;
	n = __atomic_load_n(&c->area[0], __ATOMIC_RELAXED);
	if (n > COVER_WORDS - 1)
		n = COVER_WORDS - 1;
	for (i = 0; i < n; i++) {
		pc = c->area[i + 1];
		h = ((pc ^ (c->prev >> 1)) * GOLDEN) >> (64 - EDGE_BITS);
		bit = 1ULL << (h & 63);
		if (!(atomic_fetch_or(&edges[h >> 6], bit) & bit)) {
			c->found++;
			atomic_fetch_add(&nr_edges, 1);
			pc_add(pc);	/* a new PC makes a new edge */
		}
		c->prev = pc;
	}
	__atomic_store_n(&c->area[0], 0, __ATOMIC_RELAXED);
}

int fuzz_tape_load(struct fuzz_tape *t, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, t->v, sizeof(t->v));
	close(fd);
	if (n < (ssize_t)sizeof(t->v[0]))
		return n < 0 ? -errno : -EINVAL;
	t->fixed = n / sizeof(t->v[0]);
	return 0;
}

void fuzz_program_begin(struct fuzz_tape *t, struct fuzz_cover *c)
{
	struct corpus_entry *e = NULL;
	unsigned int i, len = 0, changes;

	t->pos = 0;
	t->replay = t->fixed;
	t->from_corpus = 0;
	c->found = 0;
	c->prev = 0;
	if (!cover_on || t->fixed)
		return;
	atomic_fetch_add(&nr_programs, 1);
	pthread_mutex_lock(&corpus_lock);
	if (corpus_len && fuzz_rng(&t->rng) % 2) {
		e = &corpus[fuzz_rng(&t->rng) % corpus_len];
		len = e->len;
		memcpy(t->v, e->v, len * sizeof(t->v[0]));
	}
	pthread_mutex_unlock(&corpus_lock);
	if (!e)
		return;
	atomic_fetch_add(&nr_replayed, 1);
	t->from_corpus = 1;
	t->replay = len;
	if (fuzz_rng(&t->rng) % 4 == 0) {
		t->replay = fuzz_rng(&t->rng) % len;	/* a prefix, then fresh */
		return;
	}
	changes = 1 + fuzz_rng(&t->rng) % 4;
	for (i = 0; i < changes; i++) {
		__u64 *v = &t->v[fuzz_rng(&t->rng) % len];

		switch (fuzz_rng(&t->rng) % 3) {
		case 0:
			(*v)++;
			break;
		case 1:
			(*v)--;
			break;
		default:
			*v = fuzz_rng(&t->rng);
		}
	}
}

void fuzz_program_end(struct fuzz_tape *t, struct fuzz_cover *c)
{
	if (!cover_on || !c->found)
		return;
	pthread_mutex_lock(&corpus_lock);
	corpus_add(t->v, t->pos < TAPE_MAX ? t->pos : TAPE_MAX, 1);
	pthread_mutex_unlock(&corpus_lock);
}

void fuzz_cover_stats(struct fuzz_cover_stats *s)
{
	s->edges = atomic_load(&nr_edges);
	s->pcs = atomic_load(&nr_pcs);
	s->module_pcs = atomic_load(&nr_module_pcs);
	s->programs = atomic_load(&nr_programs);
	s->replayed = atomic_load(&nr_replayed);
	pthread_mutex_lock(&corpus_lock);
	s->corpus = corpus_len;
	s->loaded = corpus_loaded;
	s->saved = corpus_saved;
	pthread_mutex_unlock(&corpus_lock);
}
