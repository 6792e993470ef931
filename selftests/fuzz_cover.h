/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_cover: the system-call fuzzer's coverage (KCOV) and corpus. A
 * program is a few calls whose random choices are recorded on a tape; a
 * program whose calls reached a new edge of the kernel's code keeps its
 * tape in the corpus, and later programs replay corpus tapes with a few
 * choices changed.
 */
#ifndef __BPFDRV_FUZZ_COVER_H
#define __BPFDRV_FUZZ_COVER_H

#include <linux/types.h>

#define TAPE_MAX	2048

/* A thread's random choices: recorded, or replayed from the corpus. */
struct fuzz_tape {
	__u64 rng;			/* fresh choices come from here */
	__u64 v[TAPE_MAX];
	unsigned int pos;		/* the next choice */
	unsigned int replay;		/* choices before it are replayed */
	unsigned int fixed;		/* -r: every program replays these */
	int from_corpus;
};

/* A thread's KCOV buffer: its own, enabled by the thread itself. */
struct fuzz_cover {
	int fd;
	unsigned long *area;
	unsigned long prev;		/* the last PC: edges are PC pairs */
	unsigned int found;		/* new edges in this program */
};

struct fuzz_cover_stats {
	unsigned long long edges, pcs, module_pcs, programs, replayed;
	unsigned int corpus, loaded, saved;
};

/* the xorshift generator under the tape */
__u64 fuzz_rng(__u64 *state);
/* the next choice: replayed from the tape, else fresh and recorded */
__u64 fuzz_tape_next(struct fuzz_tape *tape);

/*
 * Coverage on or off, the corpus in @dir (NULL: in memory only) and the
 * modules whose PCs are counted apart. Returns 0, or -errno (no KCOV).
 */
int fuzz_cover_init(const char *dir, const char * const *modules);
int fuzz_cover_on(void);
/* before the threads start: a KCOV file and buffer for @c */
int fuzz_cover_open(struct fuzz_cover *c);
/* in the thread itself: trace its system calls */
int fuzz_cover_enable(struct fuzz_cover *c);
/* the PCs since the last call: new edges are counted in c->found */
void fuzz_cover_collect(struct fuzz_cover *c);

/* a tape (a corpus file) that every program of @t replays as it is */
int fuzz_tape_load(struct fuzz_tape *t, const char *path);
/* a program starts: a mutated corpus tape, or a fresh one */
void fuzz_program_begin(struct fuzz_tape *tape, struct fuzz_cover *c);
/* and ends: kept in the corpus if it found something */
void fuzz_program_end(struct fuzz_tape *tape, struct fuzz_cover *c);

void fuzz_cover_stats(struct fuzz_cover_stats *s);

#endif /* __BPFDRV_FUZZ_COVER_H */
