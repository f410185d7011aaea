package cgen

// runtimeHead is the part of the harness the process functions use: the
// per-thread records, the time stamps, the random numbers and the loop
// bounds. It follows the #defines of NT, NW, PARENT, LEAD, NSLOT and NBAD.
const runtimeHead = `
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An interval of time a thread spent at a location a bad state names. */
typedef struct { long s, e; } iv_t;

/* What one thread records in a round: its own cache lines only, written
 * with plain stores, read by thread 0 after the round. */
struct thr {
	int id, cpu, sense, err; /* err: 1 + the bad state of the failed assert */
	int others_done;         /* spin_stop saw every other thread done */
	uint64_t rng;
	int n[NSLOT];     /* intervals recorded per slot this round */
	iv_t *iv[NSLOT];
} __attribute__((aligned(64)));

static struct thr T[NT] __attribute__((aligned(64)));
static long ITERATIONS, SPINCAP, IVCAP;
static volatile long ndone __attribute__((aligned(64))); /* threads done this round */
static volatile int hwlock __attribute__((aligned(64)));  /* atomic blocks over several variables */
static int parent_parked; /* the parent reached the wait for its threads this round */

/* RDTSCP waits until the instructions before it have executed and their
 * loads are done, and does not wait for stores to drain: a stamp adds no
 * ordering of memory accesses to the thread. */
static inline long STAMP(void)
{
	unsigned lo, hi, aux;
	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	return (long)((unsigned long)hi << 32 | lo);
}
static inline long rdtsc(void)
{
	unsigned lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (long)((unsigned long)hi << 32 | lo);
}
#define STAMP_INF LONG_MAX
#define REC(t, sl, a, b) do { int n_ = (t)->n[sl]; if (n_ < IVCAP) { (t)->iv[sl][n_].s = (a); (t)->iv[sl][n_].e = (b); (t)->n[sl] = n_ + 1; } } while (0)

static inline uint64_t rnd(struct thr *t)
{
	uint64_t x = t->rng;
	x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
	t->rng = x;
	return x * 2685821657736338717ULL;
}
static inline uint64_t rnd_below(struct thr *t, uint64_t n) { return (rnd(t) >> 32) % n; }
/* A value for "r = *": small integers, where programs branch. */
static inline long rnd_val(struct thr *t) { return (long)rnd_below(t, 4) - 1; }
/* One of the set bits of en, at random. */
static inline unsigned long pick(struct thr *t, unsigned long en)
{
	int k = (int)rnd_below(t, (uint64_t)__builtin_popcountl(en));
	for (unsigned long i = 0;; i++)
		if ((en >> i & 1) && k-- == 0)
			return i;
}
/* A busy-wait gives up after SPINCAP spins, or when every other thread has
 * been done for a while (256 more spins, so that it has read again what
 * they wrote, which can no longer change): the thread stays where it is,
 * as a process of the model may. */
static inline int spin_stop(struct thr *t, long spins)
{
	if (spins > SPINCAP)
		return 1;
	if (__atomic_load_n(&ndone, __ATOMIC_RELAXED) < NW - 1)
		return 0;
	if (t->others_done)
		return 1;
	t->others_done = 1;
	return 0;
}
static inline void hw_lock(void)
{
	while (__atomic_exchange_n(&hwlock, 1, __ATOMIC_ACQUIRE)) /* XCHG */
		__builtin_ia32_pause();
}
static inline void hw_unlock(void) { __atomic_store_n(&hwlock, 0, __ATOMIC_RELEASE); }

/* Whether some instant lies in one interval of each of the k lists (thread
 * th[j], slot sl[j]): the threads were at those locations together. Each
 * list is sorted and disjoint (one thread, one location). */
static int overlap(int k, const int *th, const int *sl)
{
	int idx[NT] = {0};
	for (;;) {
		long maxs = LONG_MIN, mine = LONG_MAX;
		int arg = 0;
		for (int j = 0; j < k; j++) {
			struct thr *t = &T[th[j]];
			if (idx[j] >= t->n[sl[j]])
				return 0;
			iv_t v = t->iv[sl[j]][idx[j]];
			if (v.s > maxs)
				maxs = v.s;
			if (v.e < mine) {
				mine = v.e;
				arg = j;
			}
		}
		if (maxs < mine)
			return 1;
		idx[arg]++;
	}
}
`

// runtimeTail is the rest of the harness: rounds, barrier, main. It
// follows reset_shared, run_proc and reached.
const runtimeTail = `
static volatile int bar_count __attribute__((aligned(64)));
static volatile int bar_sense __attribute__((aligned(64)));
static volatile int stop __attribute__((aligned(64)));
static volatile long start_at __attribute__((aligned(64)));
static long SYNC_CYCLES = 1000, JITTER_CYCLES = 17;
static long max_rounds, max_millis, rounds_done, hits, bad_hits[NBAD + 1];
static struct timespec t_start, t_print;

/* A sense-reversing spin barrier: the last thread to arrive releases the
 * others. With sync, it also sets a time a little ahead at which every
 * thread starts (the time stamp counters of the CPUs agree), so that the
 * thread that arrived last does not start first by the time the others
 * take to see the release; each thread adds a few random cycles, so that
 * the round explores different alignments. */
static void barrier(struct thr *t, int sync)
{
	int s = !t->sense;
	t->sense = s;
	if (__atomic_add_fetch(&bar_count, 1, __ATOMIC_SEQ_CST) == NW) {
		bar_count = 0;
		if (sync)
			start_at = rdtsc() + SYNC_CYCLES;
		__atomic_store_n(&bar_sense, s, __ATOMIC_SEQ_CST);
	} else {
		while (__atomic_load_n(&bar_sense, __ATOMIC_ACQUIRE) != s)
			;
	}
	if (sync) {
		long go = start_at + (long)rnd_below(t, (uint64_t)JITTER_CYCLES);
		while (rdtsc() < go)
			;
	}
}

static long millis_since(struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000 + (b.tv_nsec - a->tv_nsec) / 1000000;
}

/* A fresh initial state: shared variables, records, counters; then the
 * parent, if any, up to where it waits for the threads. */
static void reset_round(void)
{
	reset_shared();
	for (int i = 0; i < NT; i++) {
		T[i].err = 0;
		T[i].others_done = 0;
		for (int s = 0; s < NSLOT; s++)
			T[i].n[s] = 0;
	}
	ndone = 0;
	parent_parked = 0;
	if (PARENT >= 0)
		parent_run(0);
}

/* Thread LEAD, between rounds, when every thread has returned: the rest
 * of the parent, the bad states, a fresh round. */
static void end_round(void)
{
	int any = 0;
	if (PARENT >= 0 && parent_parked)
		parent_run(1);
	for (int b = 0; b < NBAD; b++)
		if (reached(b)) {
			bad_hits[b]++;
			any = 1;
		}
	hits += any;
	rounds_done++;
	reset_round();
	if (max_rounds && rounds_done >= max_rounds)
		stop = 1;
	if ((rounds_done & 63) == 0) {
		if (max_millis && millis_since(&t_start) >= max_millis)
			stop = 1;
		if (millis_since(&t_print) >= 100) {
			clock_gettime(CLOCK_MONOTONIC, &t_print);
			printf("progress %ld %ld\n", rounds_done, hits);
			fflush(stdout);
		}
	}
}

static void *worker(void *arg)
{
	struct thr *t = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
		fprintf(stderr, "cannot pin thread %d to CPU %d\n", t->id, t->cpu);
		exit(2);
	}
	for (;;) {
		barrier(t, 1);
		if (stop)
			break;
		run_proc(t);
		__atomic_add_fetch(&ndone, 1, __ATOMIC_SEQ_CST);
		barrier(t, 0);
		if (t->id == LEAD)
			end_round();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (getenv("FENCER_HW_SYNC"))
		SYNC_CYCLES = atol(getenv("FENCER_HW_SYNC"));
	if (getenv("FENCER_HW_JITTER"))
		JITTER_CYCLES = atol(getenv("FENCER_HW_JITTER")) + 1;
	if (argc != 5) {
		fprintf(stderr, "usage: %s ROUNDS MILLIS ITERATIONS SEED\n", argv[0]);
		return 2;
	}
	max_rounds = atol(argv[1]);
	max_millis = atol(argv[2]);
	ITERATIONS = atol(argv[3]);
	uint64_t seed = strtoull(argv[4], NULL, 10);
	SPINCAP = 1000000 + 1000 * ITERATIONS;
	IVCAP = 4 * ITERATIONS + 16;
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		perror("sched_getaffinity");
		return 2;
	}
	int cpus[NT], n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < NW; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	if (n < NW) {
		fprintf(stderr, "%d threads need %d CPUs, this process may use %d\n", NW, NW, CPU_COUNT(&set));
		return 2;
	}
	for (int i = 0, w = 0; i < NT; i++) {
		T[i].id = i;
		T[i].cpu = i == PARENT ? -1 : cpus[w++];
		T[i].rng = (seed + 1) * 0x9E3779B97F4A7C15ULL + (uint64_t)i * 0xBF58476D1CE4E5B9ULL + 1;
		for (int s = 0; s < NSLOT; s++)
			if (!(T[i].iv[s] = malloc(sizeof(iv_t) * IVCAP))) {
				perror("malloc");
				return 2;
			}
	}
	reset_round();
	clock_gettime(CLOCK_MONOTONIC, &t_start);
	t_print = t_start;
	pthread_t th[NT];
	for (int i = 0; i < NT; i++)
		if (i != PARENT && pthread_create(&th[i], NULL, worker, &T[i]) != 0) {
			perror("pthread_create");
			return 2;
		}
	for (int i = 0; i < NT; i++)
		if (i != PARENT)
			pthread_join(th[i], NULL);
	printf("rounds %ld\nhits %ld\n", rounds_done, hits);
	for (int b = 0; b < NBAD; b++)
		printf("bad %d %ld\n", b, bad_hits[b]);
	return 0;
}
`
