/*
 * bench/bench_capture.c: what the capture engine costs (`make bench`).
 *
 * Not a test: it prints a table, with every figure beside a peer measured in
 * the same run (these machines are noisy, so ratios are what to compare):
 *   - the clock read alone, and a 112-byte memcpy (the physical floor);
 *   - ntsim's emit with the real clock, with a virtual clock, into a full
 *     ring (every push evicts);
 *   - LTTng-UST carrying the same 112 bytes into a flight-recorder session
 *     (when bench/run.sh could start one);
 *   - 1 thread vs 2 threads on one NC vs 2 threads on two NCs;
 *   - drain bandwidth vs memcpy bandwidth.
 * Per-event costs are thread CPU time (CLOCK_THREAD_CPUTIME_ID), median of
 * several rounds; throughputs are wall time.
 */
#define _GNU_SOURCE /* CLOCK_THREAD_CPUTIME_ID, pthread_setaffinity_np */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ntsim/capture.h"

int ntsim_bench_lttng_enabled(void);
void ntsim_bench_lttng_emit(const uint8_t *rec);

enum { ROUNDS = 5, RING_BIG = 0x100000 };

static uint64_t events = 1000000; /* per round, per thread; --events */

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* Keeps the optimizer from deleting measured work. */
static volatile uint64_t sink;

static nrt_sys_trace_event_data_t payload;

static void start_capture(uint64_t max, const uint32_t *ncs, int n)
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
static void emit_loop(uint32_t nc, uint64_t n)
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

/* --- single-thread costs (thread CPU ns per event) --------------------------- */

static double cost_clock(void)
{
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        for (uint64_t i = 0; i < events; i++)
            sink += now_ns(CLOCK_REALTIME);
        r[k] = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)events;
    }
    return median(r, ROUNDS);
}

/* 112-byte copies into a ring-sized buffer, with or without a clock read. */
static double cost_memcpy(bool with_clock)
{
    uint8_t *ring = calloc(RING_BIG, 112);
    uint8_t rec[112] = {1};
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        for (uint64_t i = 0; i < events; i++) {
            if (with_clock)
                memcpy(rec, &(uint64_t){now_ns(CLOCK_REALTIME)}, 8);
            memcpy(ring + (i & (RING_BIG - 1)) * 112, rec, 112);
        }
        r[k] = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)events;
        sink += ring[(events - 1) & (RING_BIG - 1)];
    }
    free(ring);
    return median(r, ROUNDS);
}

static uint64_t virtual_now(void *ctx)
{
    uint64_t *t = ctx;
    return (*t)++;
}

/* ntsim emit; ring: 0 = big enough never to fill, else its capacity. */
static double cost_emit(bool virtual_clock, uint64_t ring)
{
    uint64_t vt = 0;
    ntsim_capture_hooks_t hooks = {virtual_now, NULL, &vt};
    ntsim_capture_set_hooks(virtual_clock ? &hooks : NULL);
    const uint32_t nc0 = 0;
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        start_capture(ring ? ring : RING_BIG, &nc0, 1);
        if (ring != 0)
            emit_loop(0, ring); /* fill first: measure the evicting steady state */
        uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        emit_loop(0, ring ? events : (events < RING_BIG ? events : RING_BIG));
        uint64_t n = ring ? events : (events < RING_BIG ? events : RING_BIG);
        r[k] = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)n;
        nrt_sys_trace_stop();
    }
    ntsim_capture_set_hooks(NULL);
    return median(r, ROUNDS);
}

static double cost_lttng(void)
{
    uint8_t rec[112];
    memset(rec, 0x5a, sizeof rec);
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        for (uint64_t i = 0; i < events; i++) {
            memcpy(rec, &i, sizeof i);
            ntsim_bench_lttng_emit(rec);
        }
        r[k] = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)events;
    }
    return median(r, ROUNDS);
}

/* --- multi-thread throughput (wall time) ------------------------------------- */

typedef struct worker {
    uint32_t nc;
    int cpu;
    pthread_barrier_t *go;
} worker_t;

static void *worker_run(void *arg)
{
    worker_t *w = arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(w->cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    pthread_barrier_wait(w->go);
    emit_loop(w->nc, events);
    return NULL;
}

/* Events per second with `threads` emitters on the given NCs, into rings of
 * `ring` records. */
static double throughput(int threads, const uint32_t *ncs, uint64_t ring)
{
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        start_capture(ring, ncs, threads);
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
        pthread_t t[2];
        worker_t w[2];
        for (int i = 0; i < threads; i++) {
            w[i] = (worker_t){ncs[i], i % cpus, &go};
            pthread_create(&t[i], NULL, worker_run, &w[i]);
        }
        uint64_t t0 = now_ns(CLOCK_MONOTONIC);
        pthread_barrier_wait(&go);
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
        double secs = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
        r[k] = (double)threads * (double)events / secs;
        pthread_barrier_destroy(&go);
        nrt_sys_trace_stop();
    }
    return median(r, ROUNDS);
}

/* --- drain bandwidth ----------------------------------------------------------- */

static void drain_vs_memcpy(double *drain_gbs, double *memcpy_gbs)
{
    const uint32_t nc0 = 0;
    uint64_t n = RING_BIG;
    size_t bytes = (size_t)n * sizeof(nrt_sys_trace_event_t);
    nrt_sys_trace_event_t *out = malloc(bytes);
    uint8_t *src = malloc(bytes);
    memset(out, 1, bytes); /* fault the pages in before timing */
    memset(src, 2, bytes);
    double d[ROUNDS], m[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        start_capture(RING_BIG, &nc0, 1);
        emit_loop(0, n);
        size_t got = 0;
        uint64_t t0 = now_ns(CLOCK_MONOTONIC);
        nrt_sys_trace_drain_events(0, out, n, &got);
        double secs = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
        d[k] = (double)got * sizeof(nrt_sys_trace_event_t) / secs / 1e9;
        nrt_sys_trace_stop();
        t0 = now_ns(CLOCK_MONOTONIC);
        memcpy(out, src, bytes);
        secs = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
        m[k] = (double)bytes / secs / 1e9;
        sink += ((uint8_t *)out)[bytes - 1];
    }
    *drain_gbs = median(d, ROUNDS);
    *memcpy_gbs = median(m, ROUNDS);
    free(out);
    free(src);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
            events = strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [--events N]   (N per round per thread, default "
                            "1000000)\n",
                    argv[0]);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (events == 0)
        events = 1;
    ntsim_log_set_sink(NULL, NULL);
    memset(&payload, 0, sizeof payload);
    payload.hw_notify.device_core_idx = 1;
    payload.hw_notify.hint = 0xbeef;

    printf("ntsim capture benchmark: %" PRIu64 " events x %d rounds (median), %ld CPUs\n\n",
           events, ROUNDS, sysconf(_SC_NPROCESSORS_ONLN));
    double clk = cost_clock();
    double cpy = cost_memcpy(false);
    double floor = cost_memcpy(true);
    double emit = cost_emit(false, 0);
    double emit_virtual = cost_emit(true, 0);
    double emit_full = cost_emit(false, 4096);
    bool have_lttng = ntsim_bench_lttng_enabled();
    double lttng = have_lttng ? cost_lttng() : 0;

    printf("%-44s %10s   %s\n", "per event (thread CPU)", "ns/event", "vs");
    printf("%-44s %10.1f\n", "clock_gettime(CLOCK_REALTIME)", clk);
    printf("%-44s %10.1f\n", "memcpy 112 B", cpy);
    printf("%-44s %10.1f   the floor\n", "clock read + memcpy 112 B", floor);
    printf("%-44s %10.1f   %.1f ns beyond its clock read (target <= 15)\n",
           "ntsim emit, real clock", emit, emit - clk);
    printf("%-44s %10.1f   target <= 20\n", "ntsim emit, virtual clock", emit_virtual);
    printf("%-44s %10.1f   %.2fx the non-full emit\n", "ntsim emit, ring full (each push evicts)",
           emit_full, emit_full / emit);
    if (have_lttng)
        printf("%-44s %10.1f   ntsim is %.2fx faster (target >= 3x)\n",
               "LTTng-UST 112 B, flight recorder", lttng, lttng / emit);
    else
        printf("%-44s %10s   no active LTTng session (run via make bench)\n",
               "LTTng-UST 112 B, flight recorder", "n/a");
    printf("%-44s %10.2f   emit / (clock + memcpy)\n", "ntsim emit vs the floor", emit / floor);

    /* Scaling is measured on rings that stay in cache (8192 records, 1 MiB
     * each; pushes evict in steady state), so that it shows contention
     * between NCs, not the machine's memory bandwidth; the same with 1 M
     * record rings (128 MiB each) follows, bounded by that bandwidth. */
    const uint32_t one[] = {0, 0}, two[] = {0, 1};
    const uint64_t small = 8192;
    double t1 = throughput(1, one, small);
    double t2same = throughput(2, one, small);
    double t2two = throughput(2, two, small);
    printf("\n%-44s %10s   %s\n", "throughput (wall), 8 Ki-record rings", "Mevents/s",
           "vs 1 thread");
    printf("%-44s %10.2f\n", "1 thread, NC 0", t1 / 1e6);
    printf("%-44s %10.2f   %.2fx\n", "2 threads, one NC", t2same / 1e6, t2same / t1);
    printf("%-44s %10.2f   %.2fx (target >= 1.8x)\n", "2 threads, two NCs", t2two / 1e6,
           t2two / t1);
    double b1 = throughput(1, one, RING_BIG);
    double b2 = throughput(2, two, RING_BIG);
    printf("%-44s %10.2f\n", "1 thread, 1 Mi-record ring (memory-bound)", b1 / 1e6);
    printf("%-44s %10.2f   %.2fx\n", "2 threads, two NCs, 1 Mi-record rings", b2 / 1e6,
           b2 / b1);

    double dg, mg;
    drain_vs_memcpy(&dg, &mg);
    printf("\n%-44s %10s   %s\n", "drain (1 M records, 112 MB)", "GB/s", "vs memcpy");
    printf("%-44s %10.2f\n", "memcpy of the same bytes", mg);
    printf("%-44s %10.2f   %.0f%% (target >= 50%%)\n", "nrt_sys_trace_drain_events", dg,
           100.0 * dg / mg);
    ntsim_capture_shutdown();
    return 0;
}
