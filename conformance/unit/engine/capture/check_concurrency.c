/*
 * conformance/unit/engine/capture/check_concurrency.c: many emitters and a drainer at
 * once, the suite make tsan and make memcheck run for threads. Its other
 * cases are in check_concurrency_lifecycle.c (lifecycle calls that meet),
 * check_concurrency_settings.c (the exporters' settings changed while they
 * serialize) and check_grace.c (the thread registry and the grace barrier).
 *
 * Four threads emit into NC 0 and one each into NC 1 and NC 2, through rings
 * of 1024 so that they overflow, while a drainer pops all three NCs. Every
 * record carries a checksum over its payload and its producer's own counter.
 * Afterwards, for each NC: created == drained + overwritten + still in the
 * ring, every drained record is intact, and each producer's records arrive
 * in the order it emitted them. Runs under ThreadSanitizer (make tsan) and
 * valgrind (make memcheck). Assertions are made by the test's own thread;
 * worker threads only count problems.
 *
 * Then one ring driven directly: an owner and a drainer, and an owner whose
 * ownership a second producer revokes in the middle of the run (the
 * handover of engine/capture/ring.c, whose every interleaving is also
 * model-checked: make model), many times over; the test hook and a drain
 * against a push in progress; and a large drain handed to another thread.
 */
#define _GNU_SOURCE /* syscall, SYS_gettid, pthread_setaffinity_np */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/membarrier.h>

#include "check_suites.h"
#include "grace.h"
#include "ntsim/capture.h"
#include "ntsim/convert.h"
#include "ring.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CHECK_HAS_TSAN 1
#endif
#endif
#ifndef CHECK_HAS_TSAN
#define CHECK_HAS_TSAN 0
#endif

enum {
    PRODUCERS = 6,           /* 4 on NC 0, 1 on NC 1, 1 on NC 2 */
    EVENTS_PER_PRODUCER = 20000,
    RING = 1024,
    DRAIN_BATCH = 256
};

static const uint32_t producer_nc[PRODUCERS] = {0, 0, 0, 0, 1, 2};

typedef struct producer {
    int index;
    uint64_t tid;
    uint64_t captured;        /* emits that returned nonzero */
    uint64_t refused;         /* emits that returned 0 */
} producer_t;

static producer_t producers[PRODUCERS];
static _Atomic int producers_done;
static _Atomic uint64_t bad_records;      /* checksum, type, nc or tid wrong */
static _Atomic uint64_t out_of_order;     /* a producer's counter went backwards */
static uint64_t drained_seen[3];          /* drainer thread only, read after join */
static int64_t last_k[PRODUCERS];         /* drainer thread only */
static uint64_t last_local_id[3];         /* drainer thread only */

static uint64_t checksum(uint64_t tensor_id, uint64_t size)
{
    return (tensor_id * UINT64_C(0x9E3779B97F4A7C15)) ^ (size + UINT64_C(0x5bd1e995));
}

static void *produce(void *arg)
{
    producer_t *p = arg;
    p->tid = (uint64_t)syscall(SYS_gettid);
    for (uint64_t k = 0; k < EVENTS_PER_PRODUCER; k++) {
        nrt_sys_trace_event_data_t d;
        memset(&d, 0, sizeof d);
        d.exec_tensor_free.tensor_id = ((uint64_t)p->index << 32) | k;
        d.exec_tensor_free.size = k * 7 + 1;
        d.exec_tensor_free.ref_count = checksum(d.exec_tensor_free.tensor_id,
                                                d.exec_tensor_free.size);
        uint64_t id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_TENSOR_FREE,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                                              producer_nc[p->index], &d,
                                              d.exec_tensor_free.tensor_id + 1);
        if (id != 0)
            p->captured++;
        else
            p->refused++;
    }
    atomic_fetch_add_explicit(&producers_done, 1, memory_order_release);
    return NULL;
}

static void check_record(uint32_t nc, const nrt_sys_trace_event_t *e)
{
    const struct nrt_sys_trace_event_data_exec_tensor_free *f = &e->data.exec_tensor_free;
    int index = (int)(f->tensor_id >> 32);
    int64_t k = (int64_t)(f->tensor_id & 0xffffffffu);
    bool ok = e->trace_type == NRT_SYS_TRACE_EVENT_TYPE_TENSOR_FREE && e->nc_idx == nc &&
              index >= 0 && index < PRODUCERS && producer_nc[index] == nc &&
              f->ref_count == checksum(f->tensor_id, f->size) &&
              f->size == (uint64_t)k * 7 + 1 && e->tracking_id == f->tensor_id + 1 &&
              e->thread_id == producers[index].tid;
    if (!ok) {
        atomic_fetch_add_explicit(&bad_records, 1, memory_order_relaxed);
        return;
    }
    if (k <= last_k[index] || (drained_seen[nc] > 0 && e->nc_local_id <= last_local_id[nc]))
        atomic_fetch_add_explicit(&out_of_order, 1, memory_order_relaxed);
    last_k[index] = k;
    last_local_id[nc] = e->nc_local_id;
    drained_seen[nc]++;
}

static void drain_all(nrt_sys_trace_event_t *buf)
{
    for (uint32_t nc = 0; nc < 3; nc++) {
        size_t n;
        do {
            if (nrt_sys_trace_drain_events(nc, buf, DRAIN_BATCH, &n) != NRT_SUCCESS) {
                atomic_fetch_add_explicit(&bad_records, 1, memory_order_relaxed);
                return;
            }
            for (size_t i = 0; i < n; i++)
                check_record(nc, &buf[i]);
        } while (n == DRAIN_BATCH);
    }
}

static void *drainer(void *arg)
{
    nrt_sys_trace_event_t *buf = arg;
    /* acquire: pairs with each producer's release, so the final pass below
     * runs after every emit has returned. */
    while (atomic_load_explicit(&producers_done, memory_order_acquire) < PRODUCERS)
        drain_all(buf);
    drain_all(buf);
    return NULL;
}

START_TEST(test_concurrent_emitters_and_drainer_lose_nothing_uncounted)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, RING);
    for (uint32_t nc = 3; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);

    memset(producers, 0, sizeof producers);
    memset(drained_seen, 0, sizeof drained_seen);
    memset(last_local_id, 0, sizeof last_local_id);
    for (int i = 0; i < PRODUCERS; i++)
        last_k[i] = -1;
    atomic_store(&producers_done, 0);
    atomic_store(&bad_records, 0);
    atomic_store(&out_of_order, 0);

    nrt_sys_trace_event_t *buf = calloc(DRAIN_BATCH, sizeof *buf);
    ck_assert_ptr_nonnull(buf);
    pthread_t threads[PRODUCERS], drain_thread;
    ck_assert_int_eq(pthread_create(&drain_thread, NULL, drainer, buf), 0);
    for (int i = 0; i < PRODUCERS; i++) {
        producers[i].index = i;
        ck_assert_int_eq(pthread_create(&threads[i], NULL, produce, &producers[i]), 0);
    }
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(threads[i], NULL);
    pthread_join(drain_thread, NULL);
    free(buf);

    uint64_t torn_or_misplaced = atomic_load(&bad_records);
    uint64_t reordered = atomic_load(&out_of_order);
    ck_assert_uint_eq(torn_or_misplaced, 0);
    ck_assert_uint_eq(reordered, 0);
    for (uint32_t nc = 0; nc < 3; nc++) {
        ntsim_nc_stats_t st;
        ck_assert_int_eq(ntsim_capture_nc_stats(nc, &st), NRT_SUCCESS);
        uint64_t captured = 0, refused = 0, emitted = 0;
        for (int i = 0; i < PRODUCERS; i++)
            if (producer_nc[i] == nc) {
                captured += producers[i].captured;
                refused += producers[i].refused;
                emitted += EVENTS_PER_PRODUCER;
            }
        ck_assert_uint_eq(captured + refused, emitted);
        ck_assert_uint_eq(st.created, emitted);
        ck_assert_uint_eq(st.pushed, captured);
        ck_assert_uint_eq(st.busy, refused);
        ck_assert_uint_eq(st.in_ring, 0);
        ck_assert_uint_eq(st.drained, drained_seen[nc]);
        ck_assert_uint_eq(st.pushed, st.drained + st.overwritten + st.in_ring);
    }
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* stop() while emitters run: every emit either lands before the rings are
 * freed or sees capture off; no crash, no use after free (ASan, TSan,
 * memcheck), and the counters still balance for the stopped session. */
static _Atomic bool keep_emitting;

static void *emit_until_told(void *arg)
{
    uint32_t nc = (uint32_t)(uintptr_t)arg;
    while (atomic_load_explicit(&keep_emitting, memory_order_relaxed))
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, nc, NULL, 1);
    return NULL;
}

START_TEST(test_stop_and_restart_while_emitters_run)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, RING);
    for (uint32_t nc = 2; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    atomic_store(&keep_emitting, true);
    pthread_t threads[3];
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, emit_until_told,
                                        (void *)(uintptr_t)(i % 2)),
                         0);
    for (int round = 0; round < 20; round++) {
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        nrt_sys_trace_event_t out[64];
        size_t n;
        ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 64, &n), NRT_SUCCESS);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
        ntsim_nc_stats_t st;
        ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
        ck_assert_uint_eq(st.pushed, st.drained + st.overwritten + st.lost_at_stop);
        ck_assert_uint_eq(st.drained, n);
    }
    atomic_store(&keep_emitting, false);
    for (int i = 0; i < 3; i++)
        pthread_join(threads[i], NULL);
}
END_TEST

/* --- one ring, driven directly --------------------------------------------------- */

enum { RING_SMALL = 64, RING_EVENTS = 60000, RING_DRAIN_BATCH = 8 };

typedef struct ring_run {
    ntsim_ring_t *ring;
    _Atomic uint64_t clock;            /* ns: strictly increasing, shared */
    _Atomic bool second_registered;    /* the second producer has its thread record */
    _Atomic bool second_may_start;     /* set by the owner after its solo part */
    _Atomic bool second_pushed;        /* the second producer has pushed once */
    _Atomic int producers_done;
    int producers;
    uint64_t captured[2], refused[2];  /* each producer's own */
    /* drainer only, read after join */
    uint64_t drained, bad, reordered;
    int64_t last_k[2];
    uint64_t last_pos;
} ring_run_t;

typedef struct ring_producer {
    ring_run_t *run;
    int index;
} ring_producer_t;

static void *ring_produce(void *arg)
{
    ring_producer_t *p = arg;
    ring_run_t *run = p->run;
    /* Both threads alive at once hold distinct thread records (an exited
     * thread's record is reused, and with it the ownership). */
    ntsim_thread_t *self = ntsim__thread_self();
    if (p->index == 1) {
        atomic_store_explicit(&run->second_registered, true, memory_order_release);
        while (!atomic_load_explicit(&run->second_may_start, memory_order_acquire))
            sched_yield();
    } else if (run->producers == 2) {
        while (!atomic_load_explicit(&run->second_registered, memory_order_acquire))
            sched_yield();
    }
    for (uint64_t k = 0; k < RING_EVENTS; k++) {
        if (p->index == 0 && run->producers == 2 && k == RING_EVENTS / 4)
            atomic_store_explicit(&run->second_may_start, true, memory_order_release);
        if (p->index == 0 && run->producers == 2 && k == RING_EVENTS / 2)
            while (!atomic_load_explicit(&run->second_pushed, memory_order_acquire))
                sched_yield(); /* the handover happens while we push */
        if (p->index == 1 && k == 1)
            atomic_store_explicit(&run->second_pushed, true, memory_order_release);
        uint64_t now = atomic_fetch_add_explicit(&run->clock, 1, memory_order_relaxed);
        ntsim_ring_reservation_t res;
        if (ntsim__ring_reserve(run->ring, now, self, &res) != NRT_SUCCESS) {
            run->refused[p->index]++;
            continue;
        }
        memset(res.rec, 0, sizeof *res.rec);
        res.rec->tracking_id = (uint64_t)p->index << 32 | k;
        res.rec->nc_local_id = res.pos;
        res.rec->timestamp_ns = now;
        res.rec->data.exec_tensor_free.ref_count = checksum(res.rec->tracking_id, now);
        ntsim__ring_commit(&res);
        run->captured[p->index]++;
    }
    atomic_fetch_add_explicit(&run->producers_done, 1, memory_order_release);
    return NULL;
}

static void ring_check_batch(ring_run_t *run, const nrt_sys_trace_event_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const nrt_sys_trace_event_t *e = &buf[i];
        int index = (int)(e->tracking_id >> 32);
        int64_t k = (int64_t)(e->tracking_id & 0xffffffffu);
        if (index < 0 || index >= run->producers ||
            e->data.exec_tensor_free.ref_count != checksum(e->tracking_id, e->timestamp_ns)) {
            run->bad++;
            continue;
        }
        if (k <= run->last_k[index] || (run->drained > 0 && e->nc_local_id <= run->last_pos))
            run->reordered++;
        run->last_k[index] = k;
        run->last_pos = e->nc_local_id;
        run->drained++;
    }
}

static void *ring_drain(void *arg)
{
    ring_run_t *run = arg;
    nrt_sys_trace_event_t buf[RING_DRAIN_BATCH];
    for (;;) {
        /* acquire: pairs with the producers' release, so that once it reads
         * them all done, the pops below see every push committed. */
        bool last = atomic_load_explicit(&run->producers_done, memory_order_acquire) == run->producers;
        size_t n = ntsim__ring_pop(run->ring, buf, RING_DRAIN_BATCH);
        ring_check_batch(run, buf, n);
        if (last && n == 0)
            break;
        /* Small pops, then a pause: the producers keep the ring full, so
         * that the pops claim at the eviction front, where a pusher and the
         * drain decide the same record (ring.c, C4 and P3). */
        for (int i = 0; !last && i < 200; i++)
            ntsim__cpu_relax();
    }
    return NULL;
}

/* Runs `count` producers (the second starts once the first has pushed
 * a quarter of its records) and a drainer on one small ring, then checks
 * what both sides saw and what the ring counts. */
static void ring_run_and_check(int count)
{
    /* membarrier where the kernel has it, as a session would (fence mode
     * under ThreadSanitizer and valgrind). */
    ntsim__grace_prepare();
    ring_run_t *run = calloc(1, sizeof *run);
    ck_assert_ptr_nonnull(run);
    ck_assert_int_eq(ntsim__ring_create(RING_SMALL, true, &run->ring), NRT_SUCCESS);
    atomic_store(&run->clock, 1);
    run->producers = count;
    run->last_k[0] = run->last_k[1] = -1;
    pthread_t threads[2], drain_thread;
    ring_producer_t args[2];
    ck_assert_int_eq(pthread_create(&drain_thread, NULL, ring_drain, run), 0);
    for (int i = 0; i < count; i++) {
        args[i] = (ring_producer_t){run, i};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, ring_produce, &args[i]), 0);
    }
    for (int i = 0; i < count; i++)
        pthread_join(threads[i], NULL);
    pthread_join(drain_thread, NULL);

    ck_assert_uint_eq(run->bad, 0);
    ck_assert_uint_eq(run->reordered, 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(run->ring, &c);
    uint64_t captured = 0, refused = 0;
    for (int i = 0; i < count; i++) {
        ck_assert_uint_eq(run->captured[i] + run->refused[i], RING_EVENTS);
        captured += run->captured[i];
        refused += run->refused[i];
    }
    ck_assert_uint_eq(c.pushed, captured);
    ck_assert_uint_eq(c.busy, refused);
    ck_assert_uint_eq(c.drained, run->drained);
    ck_assert_uint_eq(c.pushed, c.consumed); /* the final pass emptied it */
    ck_assert_uint_eq(c.pushed, c.drained + c.overwritten);
    /* An eviction and only an eviction stamps the times. */
    ck_assert_uint_eq(c.overwritten > 0, c.first_overwrite_ns != 0);
    ck_assert_uint_le(c.first_overwrite_ns, c.last_overwrite_ns);
    ck_assert(ntsim__ring_valid(run->ring));
    uintptr_t owner = atomic_load(&run->ring->owner);
    if (count == 1)
        ck_assert_uint_ne(owner, NTSIM_RING_OWNER_SHARED); /* never revoked: no CAS */
    else
        ck_assert_uint_eq(owner, NTSIM_RING_OWNER_SHARED);
    ntsim__ring_destroy(run->ring);
    free(run);
}

/* One owner and a drainer: the owner keeps the ring for the whole run, and
 * nothing is lost uncounted. */
START_TEST(test_ring_owner_and_drainer_lose_nothing_uncounted)
{
    ring_run_and_check(1);
}
END_TEST

/* An owner, a second producer that revokes its ownership in the middle of
 * the run, and a drainer: records intact, each producer's order kept,
 * counts exact. */
START_TEST(test_ring_handover_under_load_keeps_order_and_counts)
{
    ring_run_and_check(2);
}
END_TEST

static void teardown(void)
{
    ntsim_capture_shutdown();
}

/* D-GRACE: emitters flag themselves with plain stores when the kernel
 * offers private expedited membarrier (the query lists it and this
 * process can register for it), and use the seq_cst exchange without it
 * or under ThreadSanitizer, which cannot see membarrier. The test asks the
 * kernel itself; registering twice is allowed (membarrier(2)). */
START_TEST(test_emitters_use_membarrier_where_the_kernel_offers_it)
{
    ntsim__grace_prepare(); /* as every start does */
    bool fence = true;
#if !defined(__SANITIZE_THREAD__) && !CHECK_HAS_TSAN
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
        fence = false;
#endif
    ck_assert_int_eq(atomic_load(&ntsim__grace_fence_mode), fence);
}
END_TEST

/* --- the test hook and a drain against a push in progress -------------------------- */

/* ring.h: ntsim__capture_skip_to runs under the locks a drain and stop()
 * take (the lifecycle mutex, then the NC's drain lock, the order start()
 * and stop() take them), so it may run while another thread starts and
 * stops sessions: it moves a ring that exists and is unused, or returns
 * false, and never touches a ring being freed. Under make tsan a lock
 * taken in the other order, or not taken, is reported. Afterwards, in a
 * session of our own, the move is exact: the next seq of NC 0 is the
 * position given, 4096 (its derived id 4096 | 0 << 50, facts §5). */
enum { SKIP_ROUNDS = 100 };
static _Atomic bool skipping_done;

static void *start_and_stop_rounds(void *arg)
{
    nrt_sys_trace_config_t *cfg = arg;
    for (int round = 0; round < SKIP_ROUNDS; round++) {
        if (nrt_sys_trace_start(cfg) == NRT_SUCCESS)
            nrt_sys_trace_stop();
    }
    atomic_store_explicit(&skipping_done, true, memory_order_release);
    return NULL;
}

START_TEST(test_skip_to_while_another_thread_starts_and_stops)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, RING);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    atomic_store(&skipping_done, false);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, start_and_stop_rounds, &cfg), 0);
    while (!atomic_load_explicit(&skipping_done, memory_order_acquire))
        (void)ntsim__capture_skip_to(0, 4096);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert(!ntsim_capture_is_capturing());
    ck_assert(!ntsim__capture_skip_to(0, 4096)); /* no session: no ring */
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert(ntsim__capture_skip_to(0, 4096));
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 0),
                      4096);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* engine/capture/ring.c, P4 and C2: a record is the consumer's only once its stamp
 * says PUBLISHED, so a drain that runs while a push has claimed its slot
 * but not committed it returns nothing and leaves the slot to the pusher;
 * the record then arrives whole with the next drain. The drain runs on
 * another thread started from the thread-id hook, which emit calls between
 * its claim and its commit; the hook waits for it with relaxed loads only,
 * so under make tsan nothing orders the drain's reads before the rest of
 * the push: a store of the push into the slot's stamp (bytes past the
 * 112-byte record) other than the commit would be reported as a race. */
static _Atomic int mid_push_drain_done;
static size_t mid_push_drained = 99;
static pthread_t mid_push_drainer;

static void *drain_nc0_once(void *arg)
{
    (void)arg;
    nrt_sys_trace_event_t out[4];
    size_t n = 77;
    if (nrt_sys_trace_drain_events(0, out, 4, &n) != NRT_SUCCESS)
        n = 88;
    mid_push_drained = n;
    atomic_store_explicit(&mid_push_drain_done, 1, memory_order_relaxed);
    return NULL;
}

static uint64_t thread_id_that_drains(void *ctx)
{
    (void)ctx;
    if (pthread_create(&mid_push_drainer, NULL, drain_nc0_once, NULL) != 0)
        return 0;
    while (atomic_load_explicit(&mid_push_drain_done, memory_order_relaxed) == 0)
        sched_yield();
    return 4343;
}

static uint64_t clock_fixed(void *ctx)
{
    (void)ctx;
    return 5150;
}

START_TEST(test_drain_during_a_push_sees_nothing_until_it_commits)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, RING);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    ntsim_capture_hooks_t hooks = {clock_fixed, thread_id_that_drains, NULL};
    ck_assert_int_eq(ntsim_capture_set_hooks(&hooks), NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    atomic_store(&mid_push_drain_done, 0);
    mid_push_drained = 99;
    ck_assert_uint_eq(nrt_sys_trace_new_event_with_seq(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                       NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0,
                                                       NULL, 0, 12),
                      0); /* NC 0's first derived id: seq 0 */
    ck_assert_int_eq(pthread_join(mid_push_drainer, NULL), 0);
    ck_assert_uint_eq(mid_push_drained, 0);
    nrt_sys_trace_event_t out[2];
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0].thread_id, 4343);
    ck_assert_uint_eq(out[0].timestamp_ns, 5150);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    ck_assert_uint_eq(out[0].nrta_seq_id, 12);
    ck_assert(out[0].has_nrta_seq_id);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.pushed, 1);
    ck_assert_uint_eq(st.drained, 1);
    ck_assert_uint_eq(st.lost_at_stop, 0);
    ck_assert_int_eq(ntsim_capture_set_hooks(NULL), NRT_SUCCESS);
}
END_TEST

/* Revocation against an owner that keeps pushing, many times over (engine/
 * ring.c, "Ownership"; D-RING-OWNER). The owner makes oseq odd with a plain
 * store and re-reads owner; the revoker marks owner and reads oseq. With
 * membarrier the owner's side is a store and a load (the store-buffer
 * pattern): only the revoker's barrier keeps both from missing the other;
 * if both did, the owner would claim with a plain store while the revoker
 * claims by CAS, and the two would take one position. Each round: a fresh
 * ring of 64, this thread takes it (one push) and keeps pushing while
 * another thread, after a varying delay, pushes once (the revocation);
 * then every push admitted has a position of its own (pushed == admitted,
 * busy == refused), and the ring is SHARED and consistent. The two threads
 * run on two CPUs where there are two (so that they do run at once); the
 * rounds stop after 1.5 s on a slow machine. */
enum { REVOKE_ROUNDS = CHECK_HAS_TSAN ? 300 : 20000, REVOKE_MIN_ROUNDS = 300, REVOKE_RING = 64 };

static struct {
    _Atomic(ntsim_ring_t *) ring;
    _Atomic unsigned round; /* the round the revoker may push in */
    _Atomic unsigned done;  /* the last round it pushed in */
    _Atomic bool quit;
    unsigned delay;
    uint64_t admitted, refused;
    int cpu[2]; /* the CPUs the two threads run on, -1: not pinned */
} g_revoke;

static void pin_to_cpu(int cpu)
{
    if (cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *revoke_each_round(void *arg)
{
    (void)arg;
    pin_to_cpu(g_revoke.cpu[1]);
    unsigned seen = 0;
    for (;;) {
        unsigned round;
        while ((round = atomic_load(&g_revoke.round)) == seen && !atomic_load(&g_revoke.quit)) {
            if (g_revoke.cpu[1] >= 0)
                ntsim__cpu_relax(); /* a CPU of its own */
            else
                sched_yield();
        }
        if (round == seen)
            return NULL;
        seen = round;
        /* Wait a while reading oseq: the owner's next store to its line then
         * misses, and stays in its store buffer longer. */
        ntsim_ring_t *r = atomic_load(&g_revoke.ring);
        for (unsigned i = 0; i < g_revoke.delay; i++)
            (void)atomic_load_explicit(&r->oseq, memory_order_relaxed);
        ntsim_ring_reservation_t res;
        if (ntsim__ring_reserve(r, 7, ntsim__thread_self(), &res) == NRT_SUCCESS) {
            memset(res.rec, 0, sizeof *res.rec);
            ntsim__ring_commit(&res);
            g_revoke.admitted++;
        } else {
            g_revoke.refused++;
        }
        atomic_store(&g_revoke.done, seen);
    }
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

START_TEST(test_ring_revocation_against_a_pushing_owner_never_shares_a_position)
{
    ntsim__grace_prepare(); /* membarrier where the kernel has it, as a session would */
    memset(&g_revoke, 0, sizeof g_revoke);
    cpu_set_t old;
    ck_assert_int_eq(pthread_getaffinity_np(pthread_self(), sizeof old, &old), 0);
    g_revoke.cpu[0] = g_revoke.cpu[1] = -1;
    for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++)
        if (CPU_ISSET(c, &old))
            g_revoke.cpu[k++] = c;
    if (g_revoke.cpu[1] < 0)
        g_revoke.cpu[0] = -1; /* one CPU: both threads share it */
    pin_to_cpu(g_revoke.cpu[0]);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, revoke_each_round, NULL), 0);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned bad_rounds = 0, rounds = 0;
    uint32_t lcg = 12345;
    while (rounds < REVOKE_ROUNDS && bad_rounds == 0 &&
           (rounds < REVOKE_MIN_ROUNDS || seconds_since(&t0) < 1.5)) {
        unsigned round = ++rounds;
        ntsim_ring_t *r;
        ck_assert_int_eq(ntsim__ring_create(REVOKE_RING, false, &r), NRT_SUCCESS);
        uint64_t admitted = 0, refused = 0;
        ntsim_ring_reservation_t res;
        lcg = lcg * 1103515245u + 12345u;
        g_revoke.delay = (lcg >> 16) % 512;
        g_revoke.admitted = g_revoke.refused = 0;
        atomic_store(&g_revoke.ring, r);
        for (bool go = true; go;) {
            if (admitted + refused == 1)
                atomic_store(&g_revoke.round, round); /* we own it: revoke now */
            go = atomic_load(&g_revoke.done) != round;
            if (g_revoke.cpu[1] < 0 && (admitted + refused) % 64 == 63)
                sched_yield(); /* let the revoker run on our CPU */
            if (ntsim__ring_reserve(r, 5, ntsim__thread_self(), &res) == NRT_SUCCESS) {
                memset(res.rec, 0, sizeof *res.rec);
                ntsim__ring_commit(&res);
                admitted++;
            } else {
                refused++;
            }
        }
        ntsim_ring_counts_t c;
        ntsim__ring_counts(r, &c);
        if (c.pushed != admitted + g_revoke.admitted || c.busy != refused + g_revoke.refused ||
            atomic_load(&r->owner) != NTSIM_RING_OWNER_SHARED || !ntsim__ring_valid(r))
            bad_rounds++;
        ntsim__ring_destroy(r);
    }
    atomic_store(&g_revoke.quit, true);
    pthread_join(t, NULL);
    (void)pthread_setaffinity_np(pthread_self(), sizeof old, &old);
    ck_assert_msg(bad_rounds == 0, "round %u of %u: a position taken twice, or counts off",
                  rounds, REVOKE_ROUNDS);
}
END_TEST

/* A drain expected to copy 8 MiB or more writes its output with streaming
 * stores and fences them before it returns (D-RING: "fences before it
 * returns"; engine/capture/ring.c C5), so a thread the caller hands the output to
 * with a release store sees all of it. Streaming stores are weakly ordered:
 * without the fence a later plain store (the release) can be visible while
 * they still wait in a write-combining buffer, and a reader on another CPU
 * reads the old bytes. Here 80,001 positions are reserved (8.96 MiB
 * expected: streaming stores) and committed one per round; each round's
 * pop copies that one record into out[0] (the next position is not
 * committed: the walk stops), and the reader, which read out[0] the round
 * before, must see every byte of this round's record. */
enum { NT_EXPECTED = 80001, NT_ROUNDS = 200 };

typedef struct nt_handoff {
    nrt_sys_trace_event_t *out;
    _Atomic uint32_t ready; /* the round whose out[0] is complete (release) */
    _Atomic uint32_t seen;  /* the last round the reader checked (release) */
    uint32_t stale_rounds;  /* rounds in which some byte was not the round's */
} nt_handoff_t;

static void *nt_reader(void *arg)
{
    nt_handoff_t *h = arg;
    for (uint32_t round = 1; round <= NT_ROUNDS; round++) {
        for (unsigned spins = 0; atomic_load_explicit(&h->ready, memory_order_acquire) != round;)
            if (++spins > (1u << 22))
                sched_yield(); /* the writer may be descheduled */
        const unsigned char *p = (const unsigned char *)&h->out[0];
        size_t bad = 0;
        for (size_t b = 0; b < sizeof h->out[0]; b++)
            bad += p[b] != (unsigned char)(round * 7 + b);
        h->stale_rounds += bad != 0;
        atomic_store_explicit(&h->seen, round, memory_order_release);
    }
    return NULL;
}

START_TEST(test_large_drain_output_is_complete_for_the_thread_it_is_handed_to)
{
    ck_assert_uint_ge((uint64_t)NT_EXPECTED * sizeof(nrt_sys_trace_event_t), (uint64_t)8 << 20);
    ntsim_ring_t *r;
    ck_assert_int_eq(ntsim__ring_create(131072, false, &r), NRT_SUCCESS);
    ntsim_ring_reservation_t *res = calloc(NT_EXPECTED, sizeof *res);
    ck_assert_ptr_nonnull(res);
    for (uint64_t i = 0; i < NT_EXPECTED; i++)
        ck_assert_int_eq(ntsim__ring_reserve(r, 1, ntsim__thread_self(), &res[i]), NRT_SUCCESS);
    nt_handoff_t h;
    memset(&h, 0, sizeof h);
    h.out = aligned_alloc(64, 64 * sizeof *h.out);
    ck_assert_ptr_nonnull(h.out);
    memset(h.out, 0, 64 * sizeof *h.out);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, nt_reader, &h), 0);
    size_t popped = 0;
    for (uint32_t round = 1; round <= NT_ROUNDS; round++) {
        unsigned char *p = (unsigned char *)res[round - 1].rec;
        for (size_t b = 0; b < sizeof *res[round - 1].rec; b++)
            p[b] = (unsigned char)(round * 7 + b);
        ntsim__ring_commit(&res[round - 1]);
        popped += ntsim__ring_pop(r, h.out, NT_EXPECTED) == 1;
        atomic_store_explicit(&h.ready, round, memory_order_release);
        /* Spin before yielding: a system call here could drain the
         * write-combining buffers before the reader looks. */
        for (unsigned spins = 0; atomic_load_explicit(&h.seen, memory_order_acquire) != round;)
            if (++spins > (1u << 22))
                sched_yield();
    }
    pthread_join(t, NULL);
    ck_assert_uint_eq(popped, NT_ROUNDS);
    ck_assert_uint_eq(h.stale_rounds, 0);
    ntsim_ring_counts_t c;
    ntsim__ring_counts(r, &c);
    ck_assert_uint_eq(c.drained, NT_ROUNDS);
    free(h.out);
    free(res);
    ntsim__ring_destroy(r); /* the other reservations are never committed: no thread uses it */
}
END_TEST

Suite *make_concurrency_suite(void)
{
    Suite *s = suite_create("concurrency");
    TCase *tc = tcase_create("concurrency");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120); /* valgrind and TSan run this serially and slowly */
    tcase_add_test(tc, test_concurrent_emitters_and_drainer_lose_nothing_uncounted);
    tcase_add_test(tc, test_stop_and_restart_while_emitters_run);
    tcase_add_test(tc, test_ring_owner_and_drainer_lose_nothing_uncounted);
    tcase_add_test(tc, test_ring_handover_under_load_keeps_order_and_counts);
    tcase_add_test(tc, test_emitters_use_membarrier_where_the_kernel_offers_it);
    tcase_add_test(tc, test_skip_to_while_another_thread_starts_and_stops);
    tcase_add_test(tc, test_drain_during_a_push_sees_nothing_until_it_commits);
    ntsim_check_add_grace_tests(tc); /* check_grace.c */
    tcase_add_test(tc, test_ring_revocation_against_a_pushing_owner_never_shares_a_position);
    tcase_add_test(tc, test_large_drain_output_is_complete_for_the_thread_it_is_handed_to);
    suite_add_tcase(s, tc);
    ntsim_check_add_concurrency_lifecycle(s); /* check_concurrency_lifecycle.c */
    ntsim_check_add_concurrency_settings(s);  /* check_concurrency_settings.c */
    ntsim_check_add_concurrency_fork(s);      /* check_concurrency_fork.c */
    return s;
}
