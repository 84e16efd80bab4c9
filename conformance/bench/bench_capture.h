/*
 * conformance/bench/bench_capture.h: what the capture benchmark's three
 * files share: bench_capture.c (the options, the series and their rows,
 * capture sessions, the single-thread costs, main), bench_threads.c (the
 * multi-thread throughputs and their peers), bench_drain.c (the drain's
 * bandwidth and its references).
 */
#ifndef NTSIM_BENCH_CAPTURE_H
#define NTSIM_BENCH_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "nrt/nrt_sys_trace.h"

enum { MAX_ROUNDS = 31, RING_FULL = 4096, RING_SMALL = 8192 };

extern uint64_t events;        /* per measurement, per thread: --events */
extern int rounds;             /* --rounds */
extern uint64_t drain_records; /* records per drain measurement */
extern uint64_t ring_big;      /* holds `events` without filling */
/* Keeps the optimizer from deleting measured work. */
extern volatile uint64_t sink;
extern nrt_sys_trace_event_data_t payload;

/* lttng_peer.c: the LTTng-UST peer (0 when run.sh could not start a session). */
int ntsim_bench_lttng_enabled(void);
void ntsim_bench_lttng_emit(const uint8_t *rec);

/* bench_capture.c: one figure's value per round, and its table rows. */
typedef struct series {
    const char *name;
    double v[MAX_ROUNDS];
} series_t;
uint64_t now_ns(clockid_t clock);
void summarize(const series_t *s, double *med, double *lo, double *hi);
void row(const series_t *s, int dp, const char *note);
void goal_row(const series_t *s, int dp, double goal, bool at_most, const char *goal_text);
/* A capture of max events per NC on the NCs ncs[0..n); n emits on NC nc. */
void start_capture(uint64_t max, const uint32_t *ncs, int n);
void emit_loop(uint32_t nc, uint64_t n);

/* bench_threads.c: events per second of `threads` threads emitting n each
 * on ncs (a ring of `ring` records; *busy: refusals), the cost of passing
 * one cache line between the CPUs, and the bare per-NC sequence's rate. */
double throughput(int threads, const uint32_t *ncs, uint64_t ring, uint64_t n, uint64_t *busy);
double line_pass_ns(void);
double throughput_bare_seq(int threads, uint8_t *ring, uint64_t slots, uint64_t n, bool shared);

/* bench_drain.c: faults p[0..bytes) in; one round of the drain figures. */
void touch_pages(const void *p, size_t bytes);
void drain_round(nrt_sys_trace_event_t *out, uint8_t *src, uint8_t *slots, double *drain,
                 double *drain_shared, double *cached, double *streaming, double *one_call,
                 double *slot_copy);

#endif /* NTSIM_BENCH_CAPTURE_H */
