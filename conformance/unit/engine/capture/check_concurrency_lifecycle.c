/*
 * conformance/unit/engine/capture/check_concurrency_lifecycle.c: lifecycle calls that
 * meet other threads (D-LIFECYCLE, D-GRACE), a case of the concurrency suite
 * (make tsan runs that suite): a call waiting for a start, a start waiting
 * for a stop's emit, stats read during shutdown, refused calls that warn
 * after releasing the lifecycle, thread records released at exit or
 * shutdown, and session hooks registered while sessions start. Assertions are made by the test's own thread.
 */
#define _GNU_SOURCE /* syscall, SYS_gettid, pthread_setaffinity_np, SCHED_IDLE */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "capture_fixture.h"
#include "check_suites.h"
#include "grace.h"
#include "ntsim/capture.h"
#include "ntsim/convert.h"
#include "ring.h"
#include "session.h"

static void teardown(void)
{
    ntsim_capture_shutdown();
}

/* D-LIFECYCLE: start and the calls it excludes (start, stop, set_hooks) are
 * serialized, and a successful start is capturing before any of them can
 * run: set_hooks called while start is under way (here from start's own
 * log message, which it writes holding the lifecycle lock) waits for it and
 * then fails, capture running. To give the waiting call its best chance to
 * overtake, the starting thread runs at SCHED_IDLE on the waiter's CPU, so
 * that waking the waiter preempts it at once. */
static _Atomic int race_setter_go; /* 1: call set_hooks now; 2: it returned */
static _Atomic NRT_STATUS race_setter_status;

static void start_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)level;
    (void)ctx;
    if (strncmp(message, "sys trace: ", 11) != 0)
        return;
    atomic_store(&race_setter_go, 1);
    nanosleep(&(struct timespec){0, 20000000}, NULL); /* the setter blocks on the lock */
}

static void pin_to(const cpu_set_t *cpu)
{
    (void)pthread_setaffinity_np(pthread_self(), sizeof *cpu, cpu);
}

static void *race_setter(void *arg)
{
    pin_to(arg);
    while (atomic_load(&race_setter_go) == 0)
        sched_yield();
    atomic_store(&race_setter_status, ntsim_capture_set_hooks(NULL));
    atomic_store(&race_setter_go, 2);
    return NULL;
}

static void *race_starter(void *arg)
{
    pin_to(arg);
    (void)pthread_setschedparam(pthread_self(), SCHED_IDLE, &(struct sched_param){0});
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    return (void *)(intptr_t)nrt_sys_trace_start(&cfg);
}

START_TEST(test_call_waiting_for_a_start_sees_it_capturing)
{
    cpu_set_t all, one;
    CPU_ZERO(&one);
    if (sched_getaffinity(0, sizeof all, &all) == 0)
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &all)) {
                CPU_SET(c, &one);
                break;
            }
    ntsim_log_set_sink(start_sink, NULL);
    for (int round = 0; round < 5; round++) {
        atomic_store(&race_setter_go, 0);
        atomic_store(&race_setter_status, NRT_SUCCESS);
        pthread_t setter, starter;
        ck_assert_int_eq(pthread_create(&setter, NULL, race_setter, &one), 0);
        ck_assert_int_eq(pthread_create(&starter, NULL, race_starter, &one), 0);
        void *started;
        pthread_join(starter, &started);
        pthread_join(setter, NULL);
        ck_assert_int_eq((NRT_STATUS)(intptr_t)started, NRT_SUCCESS);
        ck_assert_int_eq(atomic_load(&race_setter_go), 2);
        ck_assert_msg(atomic_load(&race_setter_status) == NRT_FAILURE,
                      "round %d: set_hooks ran between start's unlock and its state store",
                      round);
        ck_assert(ntsim_capture_is_capturing());
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
    ntsim_log_set_sink(NULL, NULL);
}
END_TEST

/* engine/capture/grace.c: a thread's record is released at the thread's exit, under
 * the registry lock, and a later thread may take it again. The two threads
 * here are never joined with each other before the second registers (the
 * sleep only makes the first's exit come first): under make tsan the
 * registry lock is the only order between the release and the reuse, so a
 * release written outside the lock is reported as a data race. In every
 * build, each thread gets a live record of its own kernel thread id. */
typedef struct registered {
    ntsim_thread_t *t;
    uint64_t tid_seen, tid_real;
    bool alive;
} registered_t;

static void *register_and_exit(void *arg)
{
    registered_t *r = arg;
    r->t = ntsim__thread_register();
    r->tid_real = (uint64_t)syscall(SYS_gettid);
    if (r->t != NULL) {
        r->tid_seen = r->t->tid;
        r->alive = r->t->alive;
    }
    return NULL;
}

START_TEST(test_thread_record_is_released_at_exit_under_the_registry_lock)
{
    for (int round = 0; round < 4; round++) {
        registered_t first = {0}, second = {0};
        pthread_t a, b;
        ck_assert_int_eq(pthread_create(&a, NULL, register_and_exit, &first), 0);
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
        ck_assert_int_eq(pthread_create(&b, NULL, register_and_exit, &second), 0);
        ck_assert_int_eq(pthread_join(b, NULL), 0);
        ck_assert_int_eq(pthread_join(a, NULL), 0);
        ck_assert_ptr_nonnull(first.t);
        ck_assert_ptr_nonnull(second.t);
        ck_assert(first.alive && second.alive);
        ck_assert_uint_eq(first.tid_seen, first.tid_real);
        ck_assert_uint_eq(second.tid_seen, second.tid_real);
    }
}
END_TEST

/* --- lifecycle calls that meet ------------------------------------------------ */

/* Start and stop are serialized (engine/capture/capture.c; D-GRACE: stop waits for
 * the emits already inside): a start that arrives while a stop waits for an
 * emit in flight waits for that stop to finish, then begins a session that
 * captures. Here the emit is held inside its clock hook; the stop has
 * cleared the state (is_capturing is false) and waits; the start must not
 * return before the emit is let go, and afterwards NC 0 has a fresh ring of
 * 1024 that captures the next emit. */
static _Atomic bool hold_armed, hold_entered, hold_release;

static uint64_t holding_clock(void *ctx)
{
    (void)ctx;
    if (atomic_exchange(&hold_armed, false)) {
        atomic_store(&hold_entered, true);
        while (!atomic_load(&hold_release))
            nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return 5000;
}

static void *emit_held(void *arg)
{
    (void)arg;
    return (void *)(uintptr_t)nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                      NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL,
                                                      11);
}

static void *stop_in_thread(void *arg)
{
    (void)arg;
    return (void *)(intptr_t)nrt_sys_trace_stop();
}

static _Atomic bool late_start_done;

static void *start_in_thread(void *arg)
{
    NRT_STATUS st = nrt_sys_trace_start(arg);
    atomic_store(&late_start_done, true);
    return (void *)(intptr_t)st;
}

START_TEST(test_start_during_a_stops_wait_for_an_emit_runs_after_that_stop)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    ntsim_capture_hooks_t hooks = {holding_clock, NULL, NULL};
    ck_assert_int_eq(ntsim_capture_set_hooks(&hooks), NRT_SUCCESS);
    atomic_store(&hold_entered, false);
    atomic_store(&hold_release, false);
    atomic_store(&late_start_done, false);
    atomic_store(&hold_armed, true);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    pthread_t emitter, stopper, starter;
    ck_assert_int_eq(pthread_create(&emitter, NULL, emit_held, NULL), 0);
    while (!atomic_load(&hold_entered))
        sched_yield();
    ck_assert_int_eq(pthread_create(&stopper, NULL, stop_in_thread, NULL), 0);
    while (ntsim_capture_is_capturing())
        sched_yield();
    ck_assert_int_eq(pthread_create(&starter, NULL, start_in_thread, &cfg), 0);
    nanosleep(&(struct timespec){0, 100000000}, NULL);
    bool started_early = atomic_load(&late_start_done);
    atomic_store(&hold_release, true);
    void *emitted, *stopped, *started;
    pthread_join(emitter, &emitted);
    pthread_join(stopper, &stopped);
    pthread_join(starter, &started);
    ck_assert_msg(!started_early, "start returned while a stop was still waiting for an emit");
    ck_assert_uint_eq((uint64_t)(uintptr_t)emitted, 11);
    ck_assert_int_eq((NRT_STATUS)(intptr_t)stopped, NRT_SUCCESS);
    ck_assert_int_eq((NRT_STATUS)(intptr_t)started, NRT_SUCCESS);
    ck_assert(ntsim_capture_is_capturing());
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.capacity, 1024);
    ck_assert_uint_eq(st.created, 0);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 12),
                      12);
    nrt_sys_trace_event_t out[2];
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0].tracking_id, 12);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_capture_set_hooks(NULL), NRT_SUCCESS);
}
END_TEST

/* D-LIFECYCLE: a stopped session's counters stay readable until the next
 * start; shutdown clears them (include/ntsim/capture.h), each NC's under the
 * lock its readers take, so a stats call racing the shutdown (shutdown only
 * forbids other emitters) gets NC 3's counters whole, before (5 created, 5
 * lost at stop, capacity 1024) or after (all 0), never a mix. Under make
 * tsan, a clear outside the NC's lock is a reported race. */
static _Atomic bool stats_reader_go, stats_reader_seen;
static _Atomic uint64_t stats_reads, stats_torn;

static void *read_stats_until_told(void *arg)
{
    (void)arg;
    do {
        ntsim_nc_stats_t st;
        if (ntsim_capture_nc_stats(3, &st) != NRT_SUCCESS)
            atomic_fetch_add_explicit(&stats_torn, 1, memory_order_relaxed);
        bool before = st.created == 5 && st.pushed == 5 && st.lost_at_stop == 5 &&
                      st.capacity == 1024 && st.in_ring == 0;
        bool after = st.created == 0 && st.pushed == 0 && st.lost_at_stop == 0 &&
                     st.capacity == 0 && st.in_ring == 0;
        if (!before && !after)
            atomic_fetch_add_explicit(&stats_torn, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&stats_reads, 1, memory_order_relaxed);
        if (!atomic_load_explicit(&stats_reader_seen, memory_order_relaxed))
            atomic_store(&stats_reader_seen, true);
    } while (atomic_load_explicit(&stats_reader_go, memory_order_relaxed));
    return NULL;
}

START_TEST(test_stats_read_during_shutdown_are_whole_before_or_after)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, nc == 3);
    for (int round = 0; round < 20; round++) {
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        for (int i = 0; i < 5; i++)
            nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                    NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 1);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
        atomic_store(&stats_reader_go, true);
        atomic_store(&stats_reader_seen, false);
        atomic_store(&stats_reads, 0);
        atomic_store(&stats_torn, 0);
        pthread_t reader;
        ck_assert_int_eq(pthread_create(&reader, NULL, read_stats_until_told, NULL), 0);
        while (!atomic_load(&stats_reader_seen))
            sched_yield();
        ntsim_capture_shutdown();
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        atomic_store_explicit(&stats_reader_go, false, memory_order_relaxed);
        pthread_join(reader, NULL);
        uint64_t reads = atomic_load(&stats_reads), torn = atomic_load(&stats_torn);
        ck_assert_uint_ge(reads, 1);
        ck_assert_msg(torn == 0, "round %d: %llu of %llu reads mixed the two", round,
                      (unsigned long long)torn, (unsigned long long)reads);
        ntsim_nc_stats_t st;
        ck_assert_int_eq(ntsim_capture_nc_stats(3, &st), NRT_SUCCESS);
        ck_assert_uint_eq(st.created, 0);
        ck_assert_uint_eq(st.lost_at_stop, 0);
    }
}
END_TEST

/* include/ntsim/capture.h: shutdown "frees every engine resource", the
 * calling thread's registry record included (engine/capture/grace.h): a thread that
 * emitted has a record, and after shutdown it has none until it emits
 * again. */
START_TEST(test_shutdown_releases_the_calling_threads_record)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 3),
                      3);
    ck_assert_ptr_nonnull(ntsim__tls_self);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_capture_shutdown();
    ck_assert_ptr_null(ntsim__tls_self);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 4),
                      4);
    ck_assert_ptr_nonnull(ntsim__tls_self);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* A refused start, stop or set_hooks writes its warning after it has let go
 * of the lifecycle lock (D-LOG): the message is the call's last act, so a
 * sink that hands work to another thread calling the engine (here
 * set_hooks) is not blocked by the call that is logging. The sink gives that
 * thread 2 s. */
static _Atomic bool warn_armed, warn_helper_go, warn_helper_done;
static _Atomic NRT_STATUS warn_helper_status;
static _Atomic bool warn_helper_in_time;

static void handing_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)message;
    (void)ctx;
    if (level != NTSIM_LOG_WARN || !atomic_exchange(&warn_armed, false))
        return;
    atomic_store(&warn_helper_go, true);
    for (int i = 0; i < 2000 && !atomic_load(&warn_helper_done); i++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    atomic_store(&warn_helper_in_time, atomic_load(&warn_helper_done));
}

static void *set_hooks_when_told(void *arg)
{
    (void)arg;
    while (!atomic_load(&warn_helper_go))
        sched_yield();
    atomic_store(&warn_helper_status, ntsim_capture_set_hooks(NULL));
    atomic_store(&warn_helper_done, true);
    return NULL;
}

typedef enum { REFUSED_STOP, REFUSED_SET_HOOKS, REFUSED_START } refused_call_t;

/* A refused call whose warning goes to a sink that waits for another
 * thread's set_hooks: the refusal must have released the lifecycle lock. */
static void refuse_with_a_handing_sink(refused_call_t call)
{
    bool capturing = call != REFUSED_STOP;
    atomic_store(&warn_helper_go, false);
    atomic_store(&warn_helper_done, false);
    atomic_store(&warn_helper_in_time, false);
    atomic_store(&warn_helper_status, NRT_INVALID);
    atomic_store(&warn_armed, true);
    pthread_t helper;
    ck_assert_int_eq(pthread_create(&helper, NULL, set_hooks_when_told, NULL), 0);
    ntsim_log_set_sink(handing_sink, NULL);
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    NRT_STATUS refused = call == REFUSED_STOP        ? nrt_sys_trace_stop()
                         : call == REFUSED_SET_HOOKS ? ntsim_capture_set_hooks(NULL)
                                                     : nrt_sys_trace_start(&cfg);
    ntsim_log_set_sink(NULL, NULL);
    pthread_join(helper, NULL);
    ck_assert_int_eq(refused, NRT_FAILURE);
    ck_assert_msg(atomic_load(&warn_helper_in_time),
                  "%s: another thread's set_hooks waited for the warning",
                  call == REFUSED_STOP        ? "stop while not capturing"
                  : call == REFUSED_SET_HOOKS ? "set_hooks while capturing"
                                              : "start while capturing");
    NRT_STATUS helper_status = atomic_load(&warn_helper_status);
    ck_assert_int_eq(helper_status, capturing ? NRT_FAILURE : NRT_SUCCESS);
}

START_TEST(test_refused_start_stop_and_set_hooks_warn_after_releasing_the_lifecycle)
{
    refuse_with_a_handing_sink(REFUSED_STOP);
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    refuse_with_a_handing_sink(REFUSED_SET_HOOKS);
    refuse_with_a_handing_sink(REFUSED_START);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* engine/session.h: stages register their session hooks while sessions
 * start on another thread (the exporter does so on its first use, from any
 * thread). Two registrations and a stream of starts meet: each set is taken
 * once, and once registered it runs at every later start, exactly once.
 * make tsan sees a registration and a start's walk of the hooks race if the
 * count's release/acquire pair or the registry's lock went missing. */
static _Atomic unsigned g_meet_starts[2];
static void meet_start_0(void) { atomic_fetch_add_explicit(&g_meet_starts[0], 1, memory_order_relaxed); }
static void meet_start_1(void) { atomic_fetch_add_explicit(&g_meet_starts[1], 1, memory_order_relaxed); }
static const ntsim__session_hooks_t g_meet_hooks[2] = {{meet_start_0, NULL}, {meet_start_1, NULL}};

static void *register_meet_hooks(void *arg)
{
    const ntsim__session_hooks_t *h = arg;
    return ntsim__session_register(h) ? (void *)h : NULL;
}

START_TEST(test_session_hooks_registered_while_sessions_start)
{
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, (const uint32_t[]){0}, 1); /* one small ring */
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_create(&t[k], NULL, register_meet_hooks,
                                        (void *)(uintptr_t)&g_meet_hooks[k]),
                         0);
    for (int i = 0; i < 20; i++) {
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
    for (int k = 0; k < 2; k++) {
        void *got;
        ck_assert_int_eq(pthread_join(t[k], &got), 0);
        ck_assert_ptr_eq(got, &g_meet_hooks[k]);
    }
    unsigned before[2] = {atomic_load(&g_meet_starts[0]), atomic_load(&g_meet_starts[1])};
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(atomic_load(&g_meet_starts[0]), before[0] + 1);
    ck_assert_uint_eq(atomic_load(&g_meet_starts[1]), before[1] + 1);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

void ntsim_check_add_concurrency_lifecycle(Suite *s)
{
    TCase *tc = tcase_create("concurrency_lifecycle");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120); /* valgrind and TSan run this serially and slowly */
    tcase_add_test(tc, test_call_waiting_for_a_start_sees_it_capturing);
    tcase_add_test(tc, test_thread_record_is_released_at_exit_under_the_registry_lock);
    tcase_add_test(tc, test_start_during_a_stops_wait_for_an_emit_runs_after_that_stop);
    tcase_add_test(tc, test_stats_read_during_shutdown_are_whole_before_or_after);
    tcase_add_test(tc, test_shutdown_releases_the_calling_threads_record);
    tcase_add_test(tc, test_refused_start_stop_and_set_hooks_warn_after_releasing_the_lifecycle);
    tcase_add_test(tc, test_session_hooks_registered_while_sessions_start);
    suite_add_tcase(s, tc);
}
