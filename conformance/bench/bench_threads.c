/*
 * conformance/bench/bench_threads.c: the capture benchmark's multi-thread
 * throughputs (wall time) and the peers of its one-NC figures (bench_capture.h).
 */
#define _GNU_SOURCE /* CLOCK_THREAD_CPUTIME_ID, pthread_setaffinity_np, getloadavg */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "bench_capture.h"
#include "ntsim/capture.h"

/* --- multi-thread throughput (wall time) ------------------------------------------- */

/* Wall time of a multi-thread measurement: each thread notes when it
 * starts and ends its loop, and the measurement spans the first start to
 * the last end. (Timing from the main thread after the start barrier was
 * wrong with two CPUs: the main thread, a third, may not run again until
 * the workers are well into their loops, so two threads looked faster.) */
typedef struct span {
    uint64_t start, end;
} span_t;

static double span_seconds(const span_t *s, int threads)
{
    uint64_t first = s[0].start, last = s[0].end;
    for (int i = 1; i < threads; i++) {
        first = s[i].start < first ? s[i].start : first;
        last = s[i].end > last ? s[i].end : last;
    }
    return (double)(last - first) / 1e9;
}

typedef struct worker {
    uint32_t nc;
    int cpu;
    uint64_t n;
    pthread_barrier_t *go;
    span_t span;
} worker_t;

static void pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *worker_run(void *arg)
{
    worker_t *w = arg;
    pin_to(w->cpu);
    pthread_barrier_wait(w->go);
    w->span.start = now_ns(CLOCK_MONOTONIC);
    emit_loop(w->nc, w->n);
    w->span.end = now_ns(CLOCK_MONOTONIC);
    return NULL;
}

/* Captured events per second with `threads` emitters on the given NCs, each
 * emitting `n`, into rings of `ring` records; *busy gets the refusals. */
double throughput(int threads, const uint32_t *ncs, uint64_t ring, uint64_t n,
                  uint64_t *busy)
{
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    start_capture(ring, ncs, threads);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
    pthread_t t[2];
    worker_t w[2];
    for (int i = 0; i < threads; i++) {
        w[i] = (worker_t){ncs[i], i % cpus, n, &go, {0, 0}};
        pthread_create(&t[i], NULL, worker_run, &w[i]);
    }
    pthread_barrier_wait(&go);
    span_t spans[2] = {{0, 0}, {0, 0}}; /* threads <= 2 fill the first `threads` */
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        spans[i] = w[i].span;
    }
    double secs = span_seconds(spans, threads);
    pthread_barrier_destroy(&go);
    uint64_t pushed = 0;
    *busy = 0;
    for (int i = 0; i < threads; i++) {
        if (i > 0 && ncs[i] == ncs[0])
            break; /* one NC: counted once */
        ntsim_nc_stats_t st;
        ntsim_capture_nc_stats(ncs[i], &st);
        pushed += st.pushed;
        *busy += st.busy;
    }
    nrt_sys_trace_stop();
    return (double)pushed / secs;
}

/* --- the peers of the one-NC figures: what any per-NC sequence costs ------------------ */

/* Every record of an NC takes the next number of one per-NC counter
 * (nc_local_id, D-IDS), so two threads on one NC must pass that counter's
 * cache line between their CPUs for every event they interleave: the time of
 * that pass bounds their throughput whatever the ring does. These two peers
 * measure it in the same round as ntsim:
 *   - line_pass_ns: one thread per CPU, taking turns incrementing one shared
 *     word; the time of one pass of its line from one CPU to the other;
 *   - the bare per-NC sequence: per event, the same clock read, one atomic
 *     fetch_add on a shared counter and a 112-byte copy into slot [seq] of a
 *     ring-sized buffer: the least a design with a per-NC sequence does. */
typedef struct pass_arg {
    _Atomic uint64_t *word;
    uint64_t parity, n;
    int cpu;
    pthread_barrier_t *go;
    span_t span;
} pass_arg_t;

static void *pass_run(void *arg)
{
    pass_arg_t *a = arg;
    pin_to(a->cpu);
    pthread_barrier_wait(a->go);
    a->span.start = now_ns(CLOCK_MONOTONIC);
    for (uint64_t i = 0; i < a->n; i++) {
        uint64_t want = 2 * i + a->parity;
        /* acquire/release: a pass hands the line over, nothing else. */
        while (atomic_load_explicit(a->word, memory_order_acquire) != want)
            ;
        atomic_store_explicit(a->word, want + 1, memory_order_release);
    }
    a->span.end = now_ns(CLOCK_MONOTONIC);
    return NULL;
}

/* ns for one pass of a cache line between CPU 0 and CPU 1 (0 with one CPU). */
double line_pass_ns(void)
{
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
        return 0;
    static _Alignas(64) _Atomic uint64_t word;
    atomic_store(&word, 0);
    uint64_t n = events / 10 > 1000 ? events / 10 : 1000;
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, 3);
    pass_arg_t a[2] = {{&word, 0, n, 0, &go, {0, 0}}, {&word, 1, n, 1, &go, {0, 0}}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, pass_run, &a[i]);
    pthread_barrier_wait(&go);
    span_t spans[2] = {{0, 0}, {0, 0}}; /* threads <= 2 fill the first `threads` */
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        spans[i] = a[i].span;
    }
    pthread_barrier_destroy(&go);
    return span_seconds(spans, 2) * 1e9 / (double)(2 * n);
}

typedef struct seq_arg {
    _Atomic uint64_t *seq;
    uint8_t *ring;
    uint64_t slots, n;
    int cpu;
    pthread_barrier_t *go;
    span_t span;
} seq_arg_t;

static void *seq_run(void *arg)
{
    seq_arg_t *a = arg;
    pin_to(a->cpu);
    uint8_t rec[112];
    memset(rec, 0x5a, sizeof rec);
    pthread_barrier_wait(a->go);
    a->span.start = now_ns(CLOCK_MONOTONIC);
    for (uint64_t i = 0; i < a->n; i++) {
        uint64_t t = now_ns(CLOCK_REALTIME);
        /* relaxed: the peer needs a unique number, nothing ordered. */
        uint64_t q = atomic_fetch_add_explicit(a->seq, 1, memory_order_relaxed);
        memcpy(rec, &t, sizeof t);
        memcpy(a->ring + (q & (a->slots - 1)) * 128, rec, sizeof rec);
    }
    a->span.end = now_ns(CLOCK_MONOTONIC);
    return NULL;
}

/* Events per second of the bare per-NC sequence with `threads` threads,
 * each doing n events into a buffer of `slots` 128-byte slots (a power of 2).
 * With `shared` false, each thread has its own counter (on its own line) and
 * its own `slots` slots (thread i at slot i * slots): the same work with
 * nothing shared, what two NCs can get at best on this machine (two vCPUs
 * that are, say, hyperthreads of one core do not double anything). */
double throughput_bare_seq(int threads, uint8_t *ring, uint64_t slots, uint64_t n,
                           bool shared)
{
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    static struct {
        _Alignas(64) _Atomic uint64_t word;
    } seq[2];
    atomic_store(&seq[0].word, 0);
    atomic_store(&seq[1].word, 0);
    touch_pages(ring, (shared ? 1 : (size_t)threads) * slots * 128);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
    seq_arg_t a[2];
    pthread_t t[2];
    for (int i = 0; i < threads; i++) {
        a[i] = shared ? (seq_arg_t){&seq[0].word, ring, slots, n, i % cpus, &go, {0, 0}}
                      : (seq_arg_t){&seq[i].word, ring + (size_t)i * slots * 128, slots, n,
                                    i % cpus, &go, {0, 0}};
        pthread_create(&t[i], NULL, seq_run, &a[i]);
    }
    pthread_barrier_wait(&go);
    span_t spans[2] = {{0, 0}, {0, 0}}; /* threads <= 2 fill the first `threads` */
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        spans[i] = a[i].span;
    }
    pthread_barrier_destroy(&go);
    return (double)(threads * n) / span_seconds(spans, threads);
}
