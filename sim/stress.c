/*
 * sim/stress.c: `ntsim run --stress` — the engine under real threads and
 * the real clock.
 *
 * N threads emit TENSOR_FREE events spread over M NCs as fast as they can,
 * each record carrying its thread, its sequence number and a checksum, while
 * a drainer pops every NC. Rings are small (1024) so they overflow. At the
 * end the invariants must hold: every drained record intact; each thread's
 * records in the order it emitted them; per NC
 *   created == pushed + busy,  pushed == drained + overwritten + in_ring;
 * and the emit calls that returned nonzero equal pushed. Bytes are not
 * compared: the real clock makes them different every run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

enum { STRESS_RING = 1024, STRESS_BATCH = 512, STRESS_MAX_THREADS = 64 };

typedef struct stress {
    unsigned threads, ncs;
    double seconds;
    _Atomic bool stop;
    _Atomic unsigned done;
    uint64_t captured[STRESS_MAX_THREADS];
    uint64_t emitted[STRESS_MAX_THREADS];
    /* drainer only */
    int64_t last_k[STRESS_MAX_THREADS];
    uint64_t drained[NTSIM_NC_COUNT];
    uint64_t bad, reordered;
} stress_t;

typedef struct worker {
    stress_t *s;
    unsigned index;
} worker_t;

static uint64_t checksum(uint64_t a, uint64_t b)
{
    return (a * UINT64_C(0x9E3779B97F4A7C15)) ^ (b + UINT64_C(0x5bd1e995));
}

static void *emitter(void *arg)
{
    worker_t *w = arg;
    stress_t *s = w->s;
    uint32_t nc = w->index % s->ncs;
    for (uint64_t k = 0; !atomic_load_explicit(&s->stop, memory_order_relaxed); k++) {
        nrt_sys_trace_event_data_t d;
        memset(&d, 0, sizeof d);
        d.exec_tensor_free.tensor_id = ((uint64_t)w->index << 40) | k;
        d.exec_tensor_free.size = k;
        d.exec_tensor_free.ref_count = checksum(d.exec_tensor_free.tensor_id, k);
        if (nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_TENSOR_FREE,
                                    NRT_SYS_TRACE_EVENT_PHASE_INSTANT, nc, &d,
                                    d.exec_tensor_free.tensor_id + 1) != 0)
            s->captured[w->index]++;
        s->emitted[w->index]++;
    }
    /* release: this thread's counters and emits happen before the drainer's
     * final pass reads them. */
    atomic_fetch_add_explicit(&s->done, 1, memory_order_release);
    return NULL;
}

static void drain_pass(stress_t *s, nrt_sys_trace_event_t *buf)
{
    for (uint32_t nc = 0; nc < s->ncs; nc++) {
        size_t n;
        do {
            /* nc < ncs <= 256, buf holds a batch: drain cannot refuse. */
            (void)nrt_sys_trace_drain_events(nc, buf, STRESS_BATCH, &n);
            for (size_t i = 0; i < n; i++) {
                const struct nrt_sys_trace_event_data_exec_tensor_free *f =
                    &buf[i].data.exec_tensor_free;
                unsigned t = (unsigned)(f->tensor_id >> 40);
                int64_t k = (int64_t)(f->tensor_id & ((UINT64_C(1) << 40) - 1));
                if (t >= s->threads || t % s->ncs != nc ||
                    f->ref_count != checksum(f->tensor_id, (uint64_t)k) ||
                    buf[i].tracking_id != f->tensor_id + 1) {
                    s->bad++;
                    continue;
                }
                if (k <= s->last_k[t])
                    s->reordered++;
                s->last_k[t] = k;
            }
            s->drained[nc] += n;
        } while (n == STRESS_BATCH);
    }
}

static void *drainer(void *arg)
{
    stress_t *s = arg;
    nrt_sys_trace_event_t *buf = malloc(STRESS_BATCH * sizeof *buf);
    if (buf == NULL) {
        s->bad++;
        return NULL;
    }
    while (atomic_load_explicit(&s->done, memory_order_acquire) < s->threads)
        drain_pass(s, buf);
    drain_pass(s, buf);
    free(buf);
    return NULL;
}

/* Runs the drainer and the emitters for the run's time, then stops capture.
 * Returns how many invariants already failed (threads that would not start,
 * a refused stop). */
static int run_threads(stress_t *s, FILE *out)
{
    unsigned threads = s->threads;
    double seconds = s->seconds;
    pthread_t th[STRESS_MAX_THREADS], dr;
    worker_t w[STRESS_MAX_THREADS];
    unsigned started = 0;
    int failures = 0;
    bool drainer_started = pthread_create(&dr, NULL, drainer, s) == 0;
    for (unsigned i = 0; drainer_started && i < threads; i++) {
        w[i] = (worker_t){s, i};
        if (pthread_create(&th[i], NULL, emitter, &w[i]) != 0)
            break;
        started++;
    }
    if (!drainer_started || started < threads) {
        fprintf(out, "ntsim stress: cannot start %u threads: %s\n", threads + 1,
                "pthread_create failed");
        failures++;
        /* The threads that did start count toward done; the rest never will. */
        atomic_fetch_add_explicit(&s->done, threads - started, memory_order_release);
    } else {
        struct timespec wait = {(time_t)seconds,
                                (long)((seconds - (double)(time_t)seconds) * 1e9)};
        nanosleep(&wait, NULL);
    }
    atomic_store_explicit(&s->stop, true, memory_order_relaxed);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (drainer_started)
        pthread_join(dr, NULL);
    /* Every count is final once stopped (D-LIFECYCLE: readable until the next
     * start); stop drops nothing here, the drainer has emptied every ring. */
    if (nrt_sys_trace_stop() != NRT_SUCCESS) {
        fprintf(out, "  FAIL: stop() refused at the end of the stress run\n");
        failures++;
    }

    return failures;
}

/* Prints the per-NC counters and checks every invariant; returns how many
 * failed. */
static int report(stress_t *s, FILE *out)
{
    unsigned threads = s->threads, ncs = s->ncs;
    double seconds = s->seconds;
    int failures = 0;
    uint64_t total_emitted = 0;
    fprintf(out, "ntsim stress: %u threads on %u NCs for %.1f s, rings of %d\n", threads, ncs,
            seconds, STRESS_RING);
    fprintf(out, "  nc  emitted      created      pushed       overwritten  drained      busy  "
                 "in_ring\n");
    for (uint32_t nc = 0; nc < ncs; nc++) {
        ntsim_nc_stats_t st;
        (void)ntsim_capture_nc_stats(nc, &st); /* nc < 256, &st non-NULL: cannot fail */
        uint64_t emitted = 0, captured = 0;
        for (unsigned i = 0; i < threads; i++)
            if (i % ncs == nc) {
                emitted += s->emitted[i];
                captured += s->captured[i];
            }
        total_emitted += emitted;
        fprintf(out, "  %-3u %-12llu %-12llu %-12llu %-12llu %-12llu %-5llu %llu\n", nc,
                (unsigned long long)emitted, (unsigned long long)st.created,
                (unsigned long long)st.pushed, (unsigned long long)st.overwritten,
                (unsigned long long)st.drained, (unsigned long long)st.busy,
                (unsigned long long)st.in_ring);
#define CHECK(cond, what)                                                          \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(out, "  FAIL nc %u: %s\n", nc, what);                           \
            failures++;                                                            \
        }                                                                          \
    } while (0)
        CHECK(st.created == emitted, "created != emit calls");
        CHECK(st.created == st.pushed + st.busy, "created != pushed + busy");
        CHECK(st.pushed == st.drained + st.overwritten + st.in_ring,
              "pushed != drained + overwritten + in_ring");
        CHECK(st.pushed == captured, "pushed != emits that returned nonzero");
        CHECK(st.drained == s->drained[nc], "drained != records the drainer saw");
        CHECK(st.in_ring == 0 && st.lost_at_stop == 0, "records left after the final drain");
        /* The counters' invariant, stated in ntsim/capture.h. */
        bool holds = st.created == st.drained + st.overwritten + st.in_ring + st.lost_at_stop +
                                       st.busy;
        fprintf(out, "      created %llu = drained %llu + overwritten %llu + in_ring %llu + "
                     "lost_at_stop %llu + busy %llu: %s\n",
                (unsigned long long)st.created, (unsigned long long)st.drained,
                (unsigned long long)st.overwritten, (unsigned long long)st.in_ring,
                (unsigned long long)st.lost_at_stop, (unsigned long long)st.busy,
                holds ? "holds" : "BROKEN");
        CHECK(holds, "created != drained + overwritten + in_ring + lost_at_stop + busy");
#undef CHECK
    }
    if (s->bad > 0) {
        fprintf(out, "  FAIL: %llu records torn or misplaced\n", (unsigned long long)s->bad);
        failures++;
    }
    if (s->reordered > 0) {
        fprintf(out, "  FAIL: %llu records out of their thread's order\n",
                (unsigned long long)s->reordered);
        failures++;
    }
    fprintf(out, "  %.1f M emits/s in all; invariants: %s\n",
            (double)total_emitted / seconds / 1e6, failures == 0 ? "all held" : "BROKEN");
    return failures;
}

int ntsim_stress(unsigned threads, unsigned ncs, double seconds, FILE *out)
{
    if (threads == 0 || threads > STRESS_MAX_THREADS || ncs == 0 || ncs > NTSIM_NC_COUNT)
        return -1;
    stress_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return -1;
    s->threads = threads;
    s->ncs = ncs;
    s->seconds = seconds;
    for (unsigned i = 0; i < threads; i++)
        s->last_k[i] = -1;
    /* The real clock and the real thread ids; refused only while capturing. */
    if (ntsim_capture_set_hooks(NULL) != NRT_SUCCESS) {
        fprintf(out, "ntsim stress: the engine is already capturing\n");
        free(s);
        return 1;
    }
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, STRESS_RING);
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        cfg.capture_enabled_for_nc[nc] = nc < ncs;
    if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS) {
        free(s);
        return -1;
    }
    int failures = run_threads(s, out);
    failures += report(s, out);
    ntsim_capture_shutdown();
    free(s);
    return failures == 0 ? 0 : 1;
}
