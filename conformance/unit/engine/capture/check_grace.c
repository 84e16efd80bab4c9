/*
 * conformance/unit/engine/capture/check_grace.c: the thread registry and the grace barrier
 * (engine/capture/grace.c), tests of the concurrency suite (make tsan runs that
 * suite only). What happens once per process (the pthread key, the choice
 * between membarrier and fences) is tested in a fresh copy of this binary,
 * re-run with NTSIM_GRACE_FRESH=<scenario>: a constructor runs the scenario
 * before main and exits with 0 or the number of the check that failed.
 * Failures are forced with a seccomp filter (membarrier) or by exhausting
 * the process's pthread keys.
 */
#define _GNU_SOURCE /* syscall, SYS_gettid, sched_setaffinity */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/membarrier.h>
#include <linux/seccomp.h>

#include "capture_fixture.h"
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
#if defined(__SANITIZE_THREAD__)
#define CHECK_HAS_TSAN 1
#endif
#ifndef CHECK_HAS_TSAN
#define CHECK_HAS_TSAN 0
#endif


/* A session of NC 0 only, ring 1024, with the fixture's capturing sink. */
static void start_nc0_logged(void)
{
    ntsim_fixture_begin(1000, 1, 7);
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, (const uint32_t[]){0}, 1);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
}

static void *emit_on_nc0(void *arg)
{
    uint64_t *id = arg;
    *id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, *id);
    return NULL;
}

/* D-RING-OWNER, D-GRACE: a second thread pushing to a ring that another
 * thread owns revokes the ownership with ntsim__grace_barrier (membarrier
 * where start picked it, nothing in fence mode). That barrier cannot fail
 * after a successful registration (grace.c), so a revocation logs nothing,
 * in either mode: the session's only warning or error would be the
 * barrier's "membarrier failed" error. Both emits are captured. The second
 * round forces fence mode (the mode of ThreadSanitizer and of kernels
 * without membarrier) after start, before the session's first emit, so
 * that no emitter ever runs in the other mode. */
START_TEST(test_ring_revocation_logs_nothing_in_either_grace_mode)
{
    for (int fence = 0; fence < 2; fence++) {
        start_nc0_logged();
        if (fence)
            atomic_store(&ntsim__grace_fence_mode, true);
        uint64_t mine = 11, theirs = 12;
        emit_on_nc0(&mine); /* this thread owns NC 0's ring */
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, emit_on_nc0, &theirs), 0);
        ck_assert_int_eq(pthread_join(t, NULL), 0);
        ck_assert_uint_eq(mine, 11);
        ck_assert_uint_eq(theirs, 12);
        ntsim_nc_stats_t st;
        ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
        ck_assert_uint_eq(st.created, 2);
        ck_assert_uint_eq(ntsim_fixture.warnings, 0);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
        ck_assert_uint_eq(ntsim_fixture.warnings, 0);
        ntsim_fixture_end();
    }
}
END_TEST

/* engine/capture/grace.c: every write of a record's `alive` flag, at a thread's exit
 * and in shutdown, is made under the registry lock, as every read of it (a
 * registration's walk) is. Here a second thread registers, walking over
 * the first one's live record, and only then does the first one end (or,
 * in the second test, shut the engine down and end): the one order between
 * the walk's read and that write is the lock, and the threads tell each
 * other only through relaxed atomics, which give ThreadSanitizer no order
 * (make tsan: a write outside the lock is a reported race). In every build
 * each thread gets a live record of its own. */
typedef struct walker_pair {
    ntsim_thread_t *first, *second;
    _Atomic bool first_registered, second_registered;
    bool shut_down; /* the first thread shuts the engine down before it ends */
} walker_pair_t;

static void *register_then_end_after_the_second(void *arg)
{
    walker_pair_t *w = arg;
    w->first = ntsim__thread_register();
    atomic_store_explicit(&w->first_registered, true, memory_order_relaxed);
    while (!atomic_load_explicit(&w->second_registered, memory_order_relaxed))
        sched_yield();
    if (w->shut_down)
        ntsim_capture_shutdown();
    return NULL;
}

static void *register_second(void *arg)
{
    walker_pair_t *w = arg;
    while (!atomic_load_explicit(&w->first_registered, memory_order_relaxed))
        sched_yield();
    w->second = ntsim__thread_register();
    atomic_store_explicit(&w->second_registered, true, memory_order_relaxed);
    return NULL;
}

static void run_walker_pair(bool shut_down)
{
    for (int round = 0; round < 4; round++) {
        walker_pair_t *w = calloc(1, sizeof *w);
        ck_assert_ptr_nonnull(w);
        w->shut_down = shut_down;
        pthread_t a, b;
        ck_assert_int_eq(pthread_create(&a, NULL, register_then_end_after_the_second, w), 0);
        ck_assert_int_eq(pthread_create(&b, NULL, register_second, w), 0);
        ck_assert_int_eq(pthread_join(a, NULL), 0);
        ck_assert_int_eq(pthread_join(b, NULL), 0);
        ck_assert_ptr_nonnull(w->first);
        ck_assert_ptr_nonnull(w->second);
        ck_assert(w->first != w->second);
        free(w);
    }
}

START_TEST(test_thread_exit_marks_its_record_under_the_registry_lock)
{
    run_walker_pair(false);
}
END_TEST

START_TEST(test_shutdown_marks_the_callers_record_under_the_registry_lock)
{
    run_walker_pair(true);
}
END_TEST

/* include/ntsim/capture.h: shutdown frees every engine resource, the
 * calling thread's record included (engine/capture/grace.h), and the thread may
 * then end: its exit must not touch the freed record (make asan: a
 * heap-use-after-free). Here a thread emits, shuts the engine down and
 * ends; another session then captures normally. */
static void *emit_shut_down_and_end(void *arg)
{
    uint64_t *id = arg;
    emit_on_nc0(id);
    ntsim_capture_shutdown();
    return NULL;
}

START_TEST(test_thread_that_shut_the_engine_down_ends_cleanly)
{
    for (int round = 0; round < 4; round++) {
        start_nc0_logged();
        uint64_t id = 21;
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, emit_shut_down_and_end, &id), 0);
        ck_assert_int_eq(pthread_join(t, NULL), 0);
        ck_assert_uint_eq(id, 21);
        ck_assert(!ntsim_capture_is_capturing());
        ntsim_fixture_end();
    }
    start_nc0_logged();
    uint64_t id = 22;
    emit_on_nc0(&id);
    ck_assert_uint_eq(id, 22);
    ck_assert_uint_eq(ntsim_fixture.warnings, 0);
    ntsim_fixture_end();
}
END_TEST

/* engine/capture/grace.c, ntsim__grace_shutdown: the record of another thread still
 * alive is kept (its exit handler will still write it) and shutdown goes on
 * past it; that thread, idle during the shutdown, emits again in the next
 * session with the same record and is captured. */
static _Atomic int idle_step; /* 1: registered; 2: emit again; 3: done */
static uint64_t idle_second_id;

static void *emit_idle_emit(void *arg)
{
    uint64_t *id = arg;
    emit_on_nc0(id);
    atomic_store(&idle_step, 1);
    while (atomic_load(&idle_step) != 2)
        sched_yield();
    idle_second_id = 32;
    emit_on_nc0(&idle_second_id);
    atomic_store(&idle_step, 3);
    return NULL;
}

START_TEST(test_shutdown_keeps_the_record_of_a_thread_still_running)
{
    atomic_store(&idle_step, 0);
    start_nc0_logged();
    uint64_t id = 31;
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, emit_idle_emit, &id), 0);
    while (atomic_load(&idle_step) != 1)
        sched_yield();
    ck_assert_uint_eq(id, 31);
    ntsim_fixture_end(); /* stops and shuts down while the thread idles */
    start_nc0_logged();
    atomic_store(&idle_step, 2);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_int_eq(atomic_load(&idle_step), 3);
    ck_assert_uint_eq(idle_second_id, 32);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.created, 1);
    ntsim_fixture_end();
}
END_TEST

/* --- first use in a fresh process (engine/capture/grace.c's once-only set-up) -------- */

/* The registry's pthread key and the membarrier registration are made once
 * per process, at the first registration and the first start: the other
 * tests of this binary cannot see them. These tests run this same binary
 * again (/proc/self/exe) with NTSIM_GRACE_FRESH naming a scenario; the
 * constructor below runs it before main, in a process where the engine has
 * done nothing yet, and exits with 0 or the number of the first check that
 * failed. Each scenario captures the messages of every level. */
enum { FRESH_LOG_MAX = 8 };
static char fresh_log[FRESH_LOG_MAX][512];
static int fresh_log_count;

static void fresh_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)ctx;
    if (fresh_log_count < FRESH_LOG_MAX)
        snprintf(fresh_log[fresh_log_count], sizeof fresh_log[0], "%s: %s",
                 level == NTSIM_LOG_ERROR ? "error" : level == NTSIM_LOG_WARN ? "warning" : "info",
                 message);
    fresh_log_count++;
}

/* How many captured messages are exactly `line`; how many are not info. */
static int fresh_count(const char *line)
{
    int n = 0;
    for (int i = 0; i < fresh_log_count && i < FRESH_LOG_MAX; i++)
        n += strcmp(fresh_log[i], line) == 0;
    return n;
}

static int fresh_not_info(void)
{
    int n = 0;
    for (int i = 0; i < fresh_log_count && i < FRESH_LOG_MAX; i++)
        n += strncmp(fresh_log[i], "info: ", 6) != 0;
    return n;
}

/* True when the kernel offers private expedited membarrier to this process
 * and the engine may use it (not under ThreadSanitizer): the test asks the
 * kernel itself, as test_emitters_use_membarrier_where_the_kernel_offers_it
 * does. */
static bool fresh_membarrier_offered(void)
{
#if defined(__SANITIZE_THREAD__) || CHECK_HAS_TSAN
    return false;
#else
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    return cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
           syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
}

/* Makes every later membarrier(2) of this process fail with `err` (seccomp). */
static bool fresh_deny_membarrier(int err)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_membarrier, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof filter / sizeof filter[0], filter};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
}

static void *fresh_emit_nc0(void *arg)
{
    uint64_t *id = arg;
    *id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, *id);
    return NULL;
}

/* A session of NC 0 (ring 1024): this thread emits (it owns the ring),
 * then another thread does (a revocation: ntsim__grace_barrier); 0 when
 * both are captured. Before the stop, `before_stop` runs if not NULL. */
static int fresh_session(bool (*before_emits)(void))
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS)
        return 10;
    if (before_emits != NULL && !before_emits())
        return 11;
    uint64_t mine = 41, theirs = 42;
    fresh_emit_nc0(&mine);
    pthread_t t;
    if (pthread_create(&t, NULL, fresh_emit_nc0, &theirs) != 0 || pthread_join(t, NULL) != 0)
        return 12;
    if (mine != 41 || theirs != 42)
        return 13;
    if (nrt_sys_trace_stop() != NRT_SUCCESS)
        return 14;
    return 0;
}

/* start, an emit of this thread, stop, shutdown: 0, or where it failed. */
static int fresh_cycle(void)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
    for (uint32_t nc = 1; nc < NTSIM_NC_COUNT; nc++)
        nrt_sys_trace_config_set_capture_enabled_for_nc(&cfg, nc, false);
    if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS)
        return 61;
    if (nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 5) != 5 ||
        ntsim__tls_self == NULL)
        return 62;
    if (nrt_sys_trace_stop() != NRT_SUCCESS)
        return 63;
    ntsim_capture_shutdown();
    return ntsim__tls_self == NULL ? 0 : 64;
}

/* The "fifo" scenario: an emitter whose clock hook gives the CPU away 200
 * times (sched_yield) while inside the emit, a stop waiting for it, both
 * SCHED_FIFO on one CPU, and a watchdog elsewhere. */
enum { FIFO_HOOK_YIELDS = 200 };
static _Atomic bool fifo_armed, fifo_entered, fifo_stopped;

static uint64_t fifo_yielding_clock(void *ctx)
{
    (void)ctx;
    if (atomic_exchange(&fifo_armed, false)) {
        atomic_store(&fifo_entered, true);
        for (int i = 0; i < FIFO_HOOK_YIELDS; i++)
            sched_yield();
    }
    return 7000;
}

static void *fifo_watchdog(void *arg)
{
    (void)arg;
    for (int i = 0; i < 300 && !atomic_load(&fifo_stopped); i++)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    if (!atomic_load(&fifo_stopped))
        _exit(70); /* the stop never let the emitter finish: a livelock */
    return NULL;
}

/* The "no_keys_handoff" scenario's sink: on the registration's warning it
 * hands a stop to another thread and gives that thread 2 s. */
static _Atomic bool handoff_done;
static _Atomic NRT_STATUS handoff_status;
static bool handoff_in_time, handoff_seen;

static void *handoff_stop(void *arg)
{
    (void)arg;
    atomic_store(&handoff_status, nrt_sys_trace_stop());
    atomic_store(&handoff_done, true);
    return NULL;
}

static void handoff_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    fresh_sink(level, message, ctx);
    if (handoff_seen || strncmp(message, "pthread_key_create failed", 25) != 0)
        return;
    handoff_seen = true;
    pthread_t t;
    if (pthread_create(&t, NULL, handoff_stop, NULL) != 0)
        return;
    for (int i = 0; i < 200 && !atomic_load(&handoff_done); i++)
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    handoff_in_time = atomic_load(&handoff_done);
    pthread_detach(t);
}

static bool fresh_deny_membarrier_eperm(void)
{
    return fresh_deny_membarrier(EPERM);
}

static int fresh_scenario(const char *name)
{
    ntsim_log_set_sink(fresh_sink, NULL);
    bool offered = fresh_membarrier_offered();
    const char *unavailable = "info: membarrier unavailable: emitters use a full fence";
    int rc;
    if (strcmp(name, "plain") == 0) {
        /* The first registration creates the key, the first start registers
         * for membarrier where the kernel offers it: neither says anything
         * but the fallback's info line where there is none. */
        if ((rc = fresh_session(NULL)) != 0)
            return rc;
        if (fresh_not_info() != 0)
            return 20;
#if defined(__SANITIZE_THREAD__) || CHECK_HAS_TSAN
        if (fresh_count(unavailable) != 0) /* TSan: fence mode, said nowhere */
            return 21;
#else
        if (fresh_count(unavailable) != (offered ? 0 : 1))
            return 21;
#endif
        if (atomic_load(&ntsim__grace_fence_mode) != !offered)
            return 22;
        return 0;
    }
    if (strcmp(name, "no_membarrier") == 0) {
        /* The kernel refuses membarrier (ENOSYS, as without
         * CONFIG_MEMBARRIER): one info line, fence mode, nothing worse. */
        if (!fresh_deny_membarrier(ENOSYS))
            return 30;
        if ((rc = fresh_session(NULL)) != 0)
            return rc;
        if (fresh_not_info() != 0)
            return 31;
#if defined(__SANITIZE_THREAD__) || CHECK_HAS_TSAN
        if (fresh_count(unavailable) != 0) /* TSan: fence mode, said nowhere */
            return 32;
#else
        if (fresh_count(unavailable) != 1)
            return 32;
#endif
        if (!atomic_load(&ntsim__grace_fence_mode))
            return 33;
        return 0;
    }
    if (strcmp(name, "membarrier_fails") == 0) {
        /* Registered, then membarrier fails (grace.c: "cannot happen after
         * a successful registration; say so"): the revocation's barrier
         * logs an error, the stop's a warning, in that order. In fence
         * mode no barrier is a syscall: nothing to say. */
        if ((rc = fresh_session(fresh_deny_membarrier_eperm)) != 0)
            return rc;
        if (!offered)
            return fresh_not_info() == 0 ? 0 : 40;
        if (fresh_not_info() != 2)
            return 41;
        if (fresh_count("error: membarrier failed: ring handshakes are unordered") != 1 ||
            fresh_count("warning: membarrier failed during stop") != 1)
            return 42;
        for (int i = 0; i < fresh_log_count && i < FRESH_LOG_MAX; i++)
            if (strncmp(fresh_log[i], "warning: ", 9) == 0)
                return 43; /* the stop's warning came before the error */
            else if (strncmp(fresh_log[i], "error: ", 7) == 0)
                break;
        return 0;
    }
    if (strcmp(name, "no_keys") == 0) {
        /* No pthread key left: the first registration says once that exited
         * threads' records will not be reused, and captures all the same. */
#if defined(__SANITIZE_THREAD__) || CHECK_HAS_TSAN
        return 0; /* ThreadSanitizer's runtime needs keys of its own */
#endif
        pthread_key_t k;
        int made = 0;
        while (pthread_key_create(&k, NULL) == 0)
            made++;
        if (made == 0)
            return 50;
        if ((rc = fresh_session(NULL)) != 0)
            return rc;
        if (fresh_not_info() != 1)
            return 51;
        if (fresh_count("warning: pthread_key_create failed: exited threads' records will not "
                        "be reused") != 1)
            return 52;
        return 0;
    }
    if (strcmp(name, "fifo") == 0) {
        /* engine/capture/grace.c, ntsim__grace_wait: "the emitter may be descheduled
         * mid-emit": a stop that finds an emitter inside gives the CPU away
         * while it waits (sched_yield), however long that emit takes. Here
         * the emitter and the stop are SCHED_FIFO at one priority on one CPU,
         * where the emitter runs only when the stop yields: the stop must
         * return, and within 3 s (the watchdog, on another CPU, ends the
         * process with 70 otherwise). Without the right to use SCHED_FIFO
         * there is nothing to run: 0. */
        ntsim_capture_hooks_t hooks = {fifo_yielding_clock, NULL, NULL};
        if (ntsim_capture_set_hooks(&hooks) != NRT_SUCCESS)
            return 71;
        nrt_sys_trace_config_t cfg;
        nrt_sys_trace_config_set_defaults(&cfg);
        nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
        if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS)
            return 72;
        pthread_t watchdog, emitter;
        if (pthread_create(&watchdog, NULL, fifo_watchdog, NULL) != 0)
            return 73;
        int cpu = sched_getcpu();
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu < 0 ? 0 : cpu, &one);
        struct sched_param fifo = {.sched_priority = 1}, other = {.sched_priority = 0};
        if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0 ||
            pthread_setschedparam(pthread_self(), SCHED_FIFO, &fifo) != 0) {
            atomic_store(&fifo_stopped, true);
            pthread_join(watchdog, NULL);
            return nrt_sys_trace_stop() == NRT_SUCCESS ? 0 : 74;
        }
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
        pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
        pthread_attr_setschedparam(&attr, &fifo);
        pthread_attr_setaffinity_np(&attr, sizeof one, &one);
        uint64_t id = 51;
        atomic_store(&fifo_armed, true);
        if (pthread_create(&emitter, &attr, fresh_emit_nc0, &id) != 0)
            return 75;
        pthread_attr_destroy(&attr);
        while (!atomic_load(&fifo_entered))
            sched_yield(); /* lets the emitter run into its hook */
        NRT_STATUS st = nrt_sys_trace_stop();
        atomic_store(&fifo_stopped, true);
        pthread_setschedparam(pthread_self(), SCHED_OTHER, &other);
        pthread_join(emitter, NULL);
        pthread_join(watchdog, NULL);
        return st == NRT_SUCCESS ? 0 : 76;
    }
    if (strcmp(name, "no_keys_handoff") == 0) {
        /* D-GRACE: the registration's warning is written before the registry
         * lock is taken, and before the emit is inside its guarded part:
         * a sink may hand it to a thread that calls stop(), which goes
         * through at once (nothing to wait for). The emit, which enters
         * after the state is cleared, then returns 0. */
#if defined(__SANITIZE_THREAD__) || CHECK_HAS_TSAN
        return 0; /* ThreadSanitizer's runtime needs keys of its own */
#endif
        pthread_key_t k;
        while (pthread_key_create(&k, NULL) == 0)
            continue;
        ntsim_log_set_sink(handoff_sink, NULL);
        nrt_sys_trace_config_t cfg;
        nrt_sys_trace_config_set_defaults(&cfg);
        nrt_sys_trace_config_set_max_events_per_nc(&cfg, 1024);
        if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS)
            return 80;
        uint64_t id = 61;
        fresh_emit_nc0(&id);
        if (!handoff_seen)
            return 81;
        if (!handoff_in_time)
            return 82; /* the stop waited for the sink's caller */
        while (!atomic_load(&handoff_done))
            sched_yield();
        if (atomic_load(&handoff_status) != NRT_SUCCESS)
            return 83;
        return id == 0 ? 0 : 84;
    }
    if (strcmp(name, "cycles") == 0) {
        /* include/ntsim/capture.h: shutdown frees every engine resource, the
         * caller's thread record included (engine/capture/grace.h). So a cycle of
         * start, emit (which registers this thread again), stop and shutdown
         * leaves the heap as it found it: after two cycles (the first
         * allocates what libc keeps for good: the key's block, stdio), 16 more
         * leave glibc's bytes in use exactly where they were. run_fresh turns
         * the per-thread cache and the fast bins off for this one (their
         * chunks count as in use), and nothing else allocates meanwhile. */
        for (int i = 0; i < 2; i++)
            if ((rc = fresh_cycle()) != 0)
                return rc;
        size_t before = mallinfo2().uordblks;
        for (int i = 0; i < 16; i++)
            if ((rc = fresh_cycle()) != 0)
                return rc;
        return mallinfo2().uordblks == before ? 0 : 60;
    }
    return 99;
}

__attribute__((constructor)) static void fresh_process_child(void)
{
    const char *name = getenv("NTSIM_GRACE_FRESH");
    if (name != NULL)
        _exit(fresh_scenario(name));
}

/* Runs this binary again with NTSIM_GRACE_FRESH=name; its exit status. */
static int run_fresh_with(const char *name, const char *extra);

static int run_fresh(const char *name)
{
    return run_fresh_with(name, NULL);
}

/* The same with one more environment variable, `extra` ("NAME=value"). */
static int run_fresh_with(const char *name, const char *extra)
{
    if (ntsim_check_under_valgrind())
        return 0; /* see ntsim_check_under_valgrind: nothing to check there */
    extern char **environ;
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **env = calloc(n + 3, sizeof *env);
    ck_assert_ptr_nonnull(env);
    char var[64];
    snprintf(var, sizeof var, "NTSIM_GRACE_FRESH=%s", name);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "NTSIM_GRACE_FRESH=", 18) != 0)
            env[k++] = environ[i];
    env[k++] = var;
    if (extra != NULL)
        env[k++] = (char *)extra;
    env[k] = NULL;
    char *argv[] = {(char *)"check_ntsim", NULL};
    pid_t pid;
    ck_assert_int_eq(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, env), 0);
    free(env);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(test_first_registration_and_start_log_nothing_where_all_is_offered)
{
    ck_assert_int_eq(run_fresh("plain"), 0);
}
END_TEST

START_TEST(test_start_without_membarrier_says_so_once_and_uses_fences)
{
    ck_assert_int_eq(run_fresh("no_membarrier"), 0);
}
END_TEST

START_TEST(test_membarrier_failing_after_registration_is_logged)
{
    ck_assert_int_eq(run_fresh("membarrier_fails"), 0);
}
END_TEST

START_TEST(test_shutdown_cycles_leave_the_heap_as_they_found_it)
{
    ck_assert_int_eq(
        run_fresh_with("cycles", "GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.mxfast=0"),
        0);
}
END_TEST

START_TEST(test_stop_yields_to_an_emitter_it_waits_for)
{
    ck_assert_int_eq(run_fresh("fifo"), 0);
}
END_TEST

START_TEST(test_registration_warning_is_written_outside_the_registry_lock)
{
    ck_assert_int_eq(run_fresh("no_keys_handoff"), 0);
}
END_TEST

START_TEST(test_registration_without_a_pthread_key_warns_once_and_captures)
{
    ck_assert_int_eq(run_fresh("no_keys"), 0);
}
END_TEST

void ntsim_check_add_grace_tests(TCase *tc)
{
    tcase_add_test(tc, test_ring_revocation_logs_nothing_in_either_grace_mode);
    tcase_add_test(tc, test_thread_exit_marks_its_record_under_the_registry_lock);
    tcase_add_test(tc, test_shutdown_marks_the_callers_record_under_the_registry_lock);
    tcase_add_test(tc, test_thread_that_shut_the_engine_down_ends_cleanly);
    tcase_add_test(tc, test_shutdown_keeps_the_record_of_a_thread_still_running);
    tcase_add_test(tc, test_first_registration_and_start_log_nothing_where_all_is_offered);
    tcase_add_test(tc, test_start_without_membarrier_says_so_once_and_uses_fences);
    tcase_add_test(tc, test_membarrier_failing_after_registration_is_logged);
    tcase_add_test(tc, test_registration_without_a_pthread_key_warns_once_and_captures);
    tcase_add_test(tc, test_shutdown_cycles_leave_the_heap_as_they_found_it);
    tcase_add_test(tc, test_stop_yields_to_an_emitter_it_waits_for);
    tcase_add_test(tc, test_registration_warning_is_written_outside_the_registry_lock);
}
