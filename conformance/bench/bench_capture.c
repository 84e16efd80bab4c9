/*
 * conformance/bench/bench_capture.c: what the capture engine costs (`make bench`).
 *
 * Not a test: it prints tables, every figure beside a peer measured in the
 * same round:
 *   - the clock read alone, and a 112-byte memcpy (the physical floor);
 *   - ntsim's emit with the real clock, with a virtual clock, into a full
 *     ring (every push evicts);
 *   - LTTng-UST carrying the same 112 bytes into a flight-recorder session
 *     (when conformance/bench/run.sh could start one);
 *   - 1 thread vs 2 threads on one NC (the second revokes the first's
 *     ownership) vs 2 threads on two NCs, with rings that fill and that
 *     do not;
 *   - drain bandwidth (of a ring one thread filled, and of one two threads
 *     filled) vs copying the same bytes with memcpy (cached stores) and with
 *     non-temporal stores, and vs one pass over the same 128-byte slots.
 * This machine is noisy (a shared VM), so every figure is measured once per
 * round, over N rounds, and reported as the median and [min-max] of the
 * rounds; every ratio is computed within each round and reported the same
 * way. The load average is printed at the start and at the end. Per-event
 * costs are thread CPU time (CLOCK_THREAD_CPUTIME_ID); throughputs and
 * bandwidths are wall time. --quick (make bench-quick) runs a small version
 * for CI in well under 30 s; it checks nothing.
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

uint64_t events = 1000000; /* per measurement, per thread: --events */
int rounds = 7;            /* --rounds */
uint64_t drain_records = 1u << 20;
uint64_t ring_big;         /* holds `events` without filling */

uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Keeps the optimizer from deleting measured work. */
volatile uint64_t sink;

nrt_sys_trace_event_data_t payload;

/* --- series: one figure's value per round ------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max of the rounds. */
void summarize(const series_t *s, double *med, double *lo, double *hi)
{
    double v[MAX_ROUNDS];
    memcpy(v, s->v, sizeof(double) * (size_t)rounds);
    qsort(v, (size_t)rounds, sizeof *v, cmp_double);
    *med = rounds % 2 ? v[rounds / 2] : (v[rounds / 2 - 1] + v[rounds / 2]) / 2;
    *lo = v[0];
    *hi = v[rounds - 1];
}

/* One table row: name, median [min-max] with `dp` decimals, then a note. */
void row(const series_t *s, int dp, const char *note)
{
    double med, lo, hi;
    summarize(s, &med, &lo, &hi);
    char cell[32], range[64];
    snprintf(cell, sizeof cell, "%.*f", dp, med);
    snprintf(range, sizeof range, "[%.*f-%.*f]", dp, lo, dp, hi);
    printf("  %-46s %9s %-17s %s\n", s->name, cell, range, note ? note : "");
}

/* A row with a goal: "met" when the median meets it, and how many rounds
 * did. `at_most`: the goal is an upper bound. */
void goal_row(const series_t *s, int dp, double goal, bool at_most,
                     const char *goal_text)
{
    double med, lo, hi;
    summarize(s, &med, &lo, &hi);
    int ok = 0;
    for (int k = 0; k < rounds; k++)
        ok += at_most ? s->v[k] <= goal : s->v[k] >= goal;
    char note[96];
    snprintf(note, sizeof note, "goal %s: %s (%d/%d rounds)", goal_text,
             (at_most ? med <= goal : med >= goal) ? "met" : "NOT met", ok, rounds);
    row(s, dp, note);
}

/* --- capture sessions -------------------------------------------------------------- */

void start_capture(uint64_t max, const uint32_t *ncs, int n)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, max);
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    for (int i = 0; i < n; i++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, ncs[i], true);
    if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS) {
        fprintf(stderr, "bench: start failed\n");
        exit(1);
    }
}

/* The payload and the sum are the caller's own (on its stack): a shared
 * global written by two threads would measure false sharing, not ntsim. */
void emit_loop(uint32_t nc, uint64_t n)
{
    nrt_sys_trace_event_data_t d = payload;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        d.hw_notify.exec_id = i;
        sum += nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                                       NRT_SYS_TRACE_EVENT_PHASE_INSTANT, nc, &d, 0);
    }
    sink += sum;
}

/* --- single-thread costs (thread CPU ns per event) ------------------------------- */

static double cost_clock(void)
{
    uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    for (uint64_t i = 0; i < events; i++)
        sink += now_ns(CLOCK_REALTIME);
    return (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)events;
}

/* 112-byte copies into a ring-sized buffer, with or without a clock read. */
static double cost_memcpy(uint8_t *ring, bool with_clock)
{
    uint8_t rec[112] = {1};
    uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    for (uint64_t i = 0; i < events; i++) {
        if (with_clock)
            memcpy(rec, &(uint64_t){now_ns(CLOCK_REALTIME)}, 8);
        memcpy(ring + (i & (ring_big - 1)) * 112, rec, 112);
    }
    double r = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)events;
    sink += ring[(events - 1) & (ring_big - 1)];
    return r;
}

static uint64_t virtual_now(void *ctx)
{
    uint64_t *t = ctx;
    return (*t)++;
}

/* ntsim emit; ring: 0 = big enough never to fill, else its capacity (filled
 * first: the evicting steady state is measured). */
static double cost_emit(bool virtual_clock, uint64_t ring)
{
    uint64_t vt = 1;
    ntsim_capture_hooks_t hooks = {virtual_now, NULL, &vt};
    ntsim_capture_set_hooks(virtual_clock ? &hooks : NULL);
    const uint32_t nc0 = 0;
    start_capture(ring ? ring : ring_big, &nc0, 1);
    if (ring != 0)
        emit_loop(0, ring);
    uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    emit_loop(0, events);
    double r = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)events;
    nrt_sys_trace_stop();
    ntsim_capture_set_hooks(NULL);
    return r;
}

static double cost_lttng(void)
{
    uint8_t rec[112];
    memset(rec, 0x5a, sizeof rec);
    uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    for (uint64_t i = 0; i < events; i++) {
        memcpy(rec, &i, sizeof i);
        ntsim_bench_lttng_emit(rec);
    }
    return (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)events;
}

/* --- main ------------------------------------------------------------------------------ */

static void print_load(const char *when)
{
    double load[3];
    if (getloadavg(load, 3) == 3)
        printf("load average %s: %.2f %.2f %.2f\n", when, load[0], load[1], load[2]);
}

int main(int argc, char **argv)
{
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
            events = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
            events = 200000;
            rounds = 3;
            drain_records = 1u << 18;
        } else {
            fprintf(stderr, "usage: %s [--quick] [--events N] [--rounds R]   (N per measurement "
                            "per thread, default 1000000; R rounds, default 7, at most %d)\n",
                    argv[0], MAX_ROUNDS);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (events < 1000)
        events = 1000;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = rounds < 1 ? 1 : MAX_ROUNDS;
    for (ring_big = 1; ring_big < events; ring_big <<= 1)
        ;
    ntsim_log_set_sink(NULL, NULL);
    memset(&payload, 0, sizeof payload);
    payload.hw_notify.device_core_idx = 1;
    payload.hw_notify.hint = 0xbeef;
    bool have_lttng = ntsim_bench_lttng_enabled();
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);

    printf("ntsim capture benchmark%s: %" PRIu64 " events per measurement, %d rounds, %d CPUs\n",
           quick ? " (--quick: a smoke run, not figures)" : "", events, rounds, cpus);
    print_load("at start");
    printf("every row: the median of the rounds, [min-max]; ratios are computed within each "
           "round\n");

    series_t clk = {"clock_gettime(CLOCK_REALTIME)", {0}}, cpy = {"memcpy 112 B", {0}},
             floor_ = {"clock read + memcpy 112 B (the floor)", {0}},
             emit = {"ntsim emit, real clock", {0}}, emitv = {"ntsim emit, virtual clock", {0}},
             emitf = {"ntsim emit, ring full (each push evicts)", {0}},
             lttng = {"LTTng-UST 112 B, flight recorder", {0}},
             r_beyond = {"emit - its clock read (ns)", {0}},
             r_full = {"full-ring emit / non-full emit", {0}},
             r_lttng = {"LTTng-UST / ntsim emit", {0}},
             r_floor = {"ntsim emit / the floor", {0}},
             r_lceil = {"LTTng-UST / its clock read alone", {0}};
    series_t t1 = {"1 thread, 8 Ki ring (fills)", {0}}, t2 = {"2 threads, one NC, 8 Ki ring", {0}},
             t2nc = {"2 threads, two NCs, 8 Ki rings", {0}},
             t1nf = {"1 thread, a ring that does not fill", {0}},
             t2nf = {"2 threads, one NC, a ring that does not fill", {0}},
             busy2 = {"busy (refused) with 2 threads on one NC", {0}},
             r_t2 = {"2 threads on one NC / 1 thread, full ring", {0}},
             r_t2nf = {"2 threads on one NC / 1 thread, not full", {0}},
             r_t2nc = {"2 threads on two NCs / 1 thread", {0}};
    series_t pass = {"a cache line's pass from one CPU to the other", {0}},
             b1 = {"bare per-NC sequence, 1 thread", {0}},
             b2 = {"bare per-NC sequence, 2 threads", {0}},
             r_b2 = {"bare sequence: 2 threads / 1 thread", {0}},
             r_t2b = {"ntsim 2 threads one NC / bare, not full", {0}},
             p1 = {"1 thread, own counter, own 8 Ki slots", {0}},
             p2 = {"2 threads, each its own counter and slots", {0}},
             r_p2 = {"sharing nothing: 2 threads / 1 thread", {0}},
             r_t2ncp = {"ntsim 2 threads two NCs / sharing nothing", {0}};
    series_t dr = {"nrt_sys_trace_drain_events", {0}}, mc = {"memcpy, cached stores", {0}},
             nt = {"copy with non-temporal stores", {0}},
             one = {"memcpy in one call (glibc picks)", {0}},
             r_dmc = {"drain / memcpy with cached stores", {0}},
             r_dnt = {"drain / copy with non-temporal stores", {0}},
             sl = {"one pass over 128-byte slots, non-temporal", {0}},
             r_slnt = {"the slot pass / the dense non-temporal copy", {0}},
             r_dsl = {"drain / the slot pass", {0}},
             drs = {"drain of a shared ring", {0}},
             r_dsnt = {"shared-ring drain / non-temporal copy", {0}};

    uint8_t *ringbuf = calloc(ring_big, 112);
    /* The bare sequence's slots: ring_big of them, or 2 x 8 Ki sharing nothing. */
    size_t seq_slots = ring_big > 2 * RING_SMALL ? ring_big : 2 * RING_SMALL;
    uint8_t *seqbuf = aligned_alloc(64, seq_slots * 128);
    size_t drain_bytes = (size_t)drain_records * sizeof(nrt_sys_trace_event_t);
    nrt_sys_trace_event_t *out = malloc(drain_bytes);
    uint8_t *src = malloc(drain_bytes);
    uint8_t *slots = aligned_alloc(64, (size_t)drain_records * 128);
    if (ringbuf == NULL || seqbuf == NULL || out == NULL || src == NULL || slots == NULL) {
        fprintf(stderr, "bench: out of memory\n");
        return 1;
    }
    memset(src, 2, drain_bytes);
    memset(slots, 2, (size_t)drain_records * 128);
    const uint32_t one_nc[] = {0, 0}, two_nc[] = {0, 1};
    uint64_t n_nf = events < ring_big / 2 ? events : ring_big / 2; /* 2 x n_nf fits */

    for (int k = 0; k < rounds; k++) {
        clk.v[k] = cost_clock();
        cpy.v[k] = cost_memcpy(ringbuf, false);
        floor_.v[k] = cost_memcpy(ringbuf, true);
        emit.v[k] = cost_emit(false, 0);
        emitv.v[k] = cost_emit(true, 0);
        emitf.v[k] = cost_emit(false, RING_FULL);
        lttng.v[k] = have_lttng ? cost_lttng() : 0;
        r_beyond.v[k] = emit.v[k] - clk.v[k];
        r_full.v[k] = emitf.v[k] / emit.v[k];
        r_lttng.v[k] = lttng.v[k] / emit.v[k];
        r_floor.v[k] = emit.v[k] / floor_.v[k];
        r_lceil.v[k] = lttng.v[k] / clk.v[k];

        uint64_t b;
        t1.v[k] = throughput(1, one_nc, RING_SMALL, events, &b) / 1e6;
        t2.v[k] = throughput(2, one_nc, RING_SMALL, events, &b) / 1e6;
        busy2.v[k] = (double)b;
        t2nc.v[k] = throughput(2, two_nc, RING_SMALL, events, &b) / 1e6;
        t1nf.v[k] = throughput(1, one_nc, ring_big, 2 * n_nf, &b) / 1e6;
        t2nf.v[k] = throughput(2, one_nc, ring_big, n_nf, &b) / 1e6;
        r_t2.v[k] = t2.v[k] / t1.v[k];
        r_t2nf.v[k] = t2nf.v[k] / t1nf.v[k];
        r_t2nc.v[k] = t2nc.v[k] / t1.v[k];
        pass.v[k] = line_pass_ns();
        b1.v[k] = throughput_bare_seq(1, seqbuf, ring_big, 2 * n_nf, true) / 1e6;
        b2.v[k] = throughput_bare_seq(2, seqbuf, ring_big, n_nf, true) / 1e6;
        p1.v[k] = throughput_bare_seq(1, seqbuf, RING_SMALL, events, false) / 1e6;
        p2.v[k] = throughput_bare_seq(2, seqbuf, RING_SMALL, events, false) / 1e6;
        r_b2.v[k] = b2.v[k] / b1.v[k];
        r_t2b.v[k] = t2nf.v[k] / b2.v[k];
        r_p2.v[k] = p2.v[k] / p1.v[k];
        r_t2ncp.v[k] = r_t2nc.v[k] / r_p2.v[k];

        drain_round(out, src, slots, &dr.v[k], &drs.v[k], &mc.v[k], &nt.v[k], &one.v[k],
                    &sl.v[k]);
        r_dmc.v[k] = dr.v[k] / mc.v[k];
        r_dnt.v[k] = dr.v[k] / nt.v[k];
        r_slnt.v[k] = sl.v[k] / nt.v[k];
        r_dsl.v[k] = dr.v[k] / sl.v[k];
        r_dsnt.v[k] = drs.v[k] / nt.v[k];
    }

    printf("\nper event, thread CPU                            ns/event\n");
    row(&clk, 1, NULL);
    row(&cpy, 1, NULL);
    row(&floor_, 1, NULL);
    row(&emit, 1, NULL);
    goal_row(&emitv, 1, 20, true, "<= 20 ns");
    row(&emitf, 1, NULL);
    if (have_lttng)
        row(&lttng, 1, NULL);
    else
        printf("  %-46s %9s   no active LTTng session (run via make bench)\n", lttng.name, "n/a");
    goal_row(&r_beyond, 1, 15, true, "<= 15 ns");
    goal_row(&r_full, 2, 1.1, true, "<= 1.1x");
    if (have_lttng) {
        goal_row(&r_lttng, 2, 3, false, ">= 3x");
        /* Every event reads CLOCK_REALTIME (libnrt's SystemTime), so no emit
         * is cheaper than that read: the ratio above cannot pass this one. */
        row(&r_lceil, 2, "its ceiling: an emit that only read the clock");
    }
    row(&r_floor, 2, NULL);

    printf("\nthroughput, wall, captured events               Mevents/s\n");
    row(&t1, 2, NULL);
    row(&t2, 2, NULL);
    row(&t2nc, 2, NULL);
    printf("  (a ring that does not fill: %" PRIu64 " records, %" PRIu64
           " events in all; the second thread revokes the first's ownership)\n",
           ring_big, 2 * n_nf);
    row(&t1nf, 2, NULL);
    row(&t2nf, 2, NULL);
    row(&busy2, 0, NULL);
    goal_row(&r_t2, 2, 0.5, false, ">= 0.5x");
    goal_row(&r_t2nf, 2, 0.75, false, ">= 0.75x");
    goal_row(&r_t2nc, 2, 1.8, false, ">= 1.8x");
    printf("  (two threads on one NC: every event takes the next number of one per-NC\n"
           "   counter, nc_local_id, so interleaved events pass its line between CPUs; a bare\n"
           "   fetch_add sequence collapses when that pass is slow, ntsim's producers back off\n"
           "   after a lost claim so that one CPU claims a run of positions)\n");
    row(&pass, 1, "ns");
    row(&b1, 2, NULL);
    row(&b2, 2, NULL);
    row(&r_b2, 2, "a naive per-NC sequence");
    row(&r_t2b, 2, "ntsim / the naive sequence");
    printf("  (the ceiling of two threads on two NCs: the bare sequence's work with nothing\n"
           "   shared, as the 8 Ki-ring rows above)\n");
    row(&p1, 2, NULL);
    row(&p2, 2, NULL);
    row(&r_p2, 2, "what two CPUs of this machine give");
    row(&r_t2ncp, 2, "ntsim's share of that");

    printf("\ndrain of %" PRIu64 " records (%.0f MiB), wall                 GB/s\n", drain_records,
           (double)drain_bytes / 1048576.0);
    row(&dr, 2, NULL);
    row(&mc, 2, NULL);
    row(&nt, 2, NULL);
    row(&one, 2, NULL);
    goal_row(&r_dmc, 2, 0.6, false, ">= 0.6x");
    goal_row(&r_dnt, 2, 0.6, false, ">= 0.6x (like for like)");
    /* Where the rest goes: the ring's layout, then the protocol (an owned
     * ring's batch is claimed on one stamp, C2' of engine/capture/ring.c; a shared
     * ring's stamps are all walked before the copy starts, C2). */
    row(&sl, 2, NULL);
    row(&r_slnt, 2, "the layout's cost: 128 bytes read per record");
    row(&r_dsl, 2, "the protocol's cost, one owner (C2')");
    row(&drs, 2, NULL);
    row(&r_dsnt, 2, "two producers: every stamp walked first (C2)");
    print_load("at end");

    free(ringbuf);
    free(seqbuf);
    free(out);
    free(src);
    free(slots);
    ntsim_capture_shutdown();
    return 0;
}
