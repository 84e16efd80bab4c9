/*
 * conformance/bench/bench_sim.c: the simulator's own speed (`make bench`, issue 13).
 *
 *   bench_sim peer  N                   the peer: N GENERIC emits round robin
 *                                       over 64 NCs into the engine, drained
 *                                       every 64 x 140 emits (the trn2_48xl
 *                                       scenario's fetch cadence), nothing
 *                                       else: what the simulated runtime's
 *                                       events cost at the least
 *   bench_sim sim SCENARIO DURATION_NS  the scenario through the simulator
 *                                       and the engine, the trace counted
 *                                       and dropped (no output files)
 *   bench_sim e2e SCENARIO DURATION_NS DIR
 *                                       the same, trace.json, trace.ntff and
 *                                       notifications.ntff streamed into DIR
 *
 * Each prints one line: events, wall seconds, events per second and the
 * process's peak RSS (getrusage), so each mode runs in its own process
 * (conformance/bench/sim.sh runs them and prints the ratios against the peer).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nrt/nrt_sys_trace.h"
#include "ntsim/capture.h"
#include "scenario_load.h"
#include "sim_run.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static void report(const char *mode, uint64_t events, double seconds)
{
    printf("%s events %" PRIu64 " seconds %.3f events_per_s %.0f peak_rss_kb %ld\n", mode,
           events, seconds, (double)events / seconds, peak_rss_kb());
}

static uint64_t fake_now(void *ctx)
{
    return ++*(uint64_t *)ctx;
}

static uint64_t fake_tid(void *ctx)
{
    (void)ctx;
    return 1000;
}

static int run_peer(uint64_t n)
{
    enum { NCS = 64, PER_FETCH = NCS * 140, BATCH = 1024 };
    uint64_t clock = 0;
    ntsim_capture_hooks_t hooks = {fake_now, fake_tid, &clock};
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    static nrt_sys_trace_event_t batch[BATCH];
    if (ntsim_capture_set_hooks(&hooks) != NRT_SUCCESS || nrt_sys_trace_start(&cfg) != NRT_SUCCESS) {
        fprintf(stderr, "bench_sim: cannot start the engine\n");
        return 1;
    }
    double t0 = now_s();
    uint64_t drained = 0;
    for (uint64_t i = 0; i < n; i++) {
        (void)nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                      NRT_SYS_TRACE_EVENT_PHASE_INSTANT, (uint32_t)(i % NCS),
                                      NULL, 0);
        if ((i + 1) % PER_FETCH != 0 && i + 1 != n)
            continue;
        for (uint32_t nc = 0; nc < NCS; nc++) {
            size_t got;
            do {
                (void)nrt_sys_trace_drain_events(nc, batch, BATCH, &got);
                drained += got;
            } while (got == BATCH);
        }
    }
    double t = now_s() - t0;
    (void)nrt_sys_trace_stop();
    (void)ntsim_capture_set_hooks(NULL);
    if (drained != n) {
        fprintf(stderr, "bench_sim: peer drained %" PRIu64 " of %" PRIu64 "\n", drained, n);
        return 1;
    }
    report("peer", n, t);
    return 0;
}

static int run_scenario(const char *mode, const char *path, uint64_t duration, const char *dir)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = malloc(sizeof *r);
    char errors[4096];
    int rc = 1;
    if (sc == NULL || r == NULL || ntsim_scenario_load(path, sc, errors, sizeof errors) != NRT_SUCCESS) {
        fprintf(stderr, "bench_sim: %s: %s", path, sc && r ? errors : "out of memory\n");
        goto out;
    }
    sc->duration_ns = duration;
    ntsim_run_io_t io = {{NULL, NULL, NULL, NULL, true}, NULL, NULL, NULL, NULL, NULL, 0};
    const char *names[3] = {"trace.json", "trace.ntff", "notifications.ntff"};
    FILE **slot[3] = {&io.files.json, &io.files.ntff, &io.files.notif};
    for (int i = 0; dir != NULL && i < 3; i++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if ((*slot[i] = fopen(p, "wb")) == NULL) {
            fprintf(stderr, "bench_sim: %s: cannot write\n", p);
            goto close;
        }
    }
    double t0 = now_s();
    NRT_STATUS st;
    if (dir != NULL) {
        ntsim_outputs_t o;
        st = ntsim_run_scenario(sc, &io, r, &o);
    } else {
        st = ntsim_sim_run(sc, NULL, NULL, NULL, r);
    }
    double t = now_s() - t0;
    if (st != NRT_SUCCESS) {
        fprintf(stderr, "bench_sim: the run failed (%d)\n", st);
        goto close;
    }
    report(mode, r->events_emitted, t);
    rc = 0;
close:
    for (int i = 0; i < 3; i++)
        if (*slot[i] != NULL && fclose(*slot[i]) != 0)
            rc = 1;
out:
    free(sc);
    free(r);
    ntsim_capture_shutdown();
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "peer") == 0)
        return run_peer(strtoull(argv[2], NULL, 10));
    if (argc == 4 && strcmp(argv[1], "sim") == 0)
        return run_scenario("sim", argv[2], strtoull(argv[3], NULL, 10), NULL);
    if (argc == 5 && strcmp(argv[1], "e2e") == 0)
        return run_scenario("e2e", argv[2], strtoull(argv[3], NULL, 10), argv[4]);
    fprintf(stderr, "usage: bench_sim peer N | sim SCENARIO DURATION_NS | "
                    "e2e SCENARIO DURATION_NS DIR\n");
    return 2;
}
