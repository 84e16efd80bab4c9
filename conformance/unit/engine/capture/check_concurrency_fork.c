/*
 * conformance/unit/engine/capture/check_concurrency_fork.c: a child forked
 * while another thread emits (D-FORK), a case of the concurrency suite
 * (make tsan runs that suite). Before D-FORK such a child's stop() waited
 * for ever on the emitter's in_emit flag (20 of 20 children) and a drain
 * could wait on the slot the emitter was writing (3 of 20): the emitter does
 * not exist in the child, so nothing would ever end either wait. A thread
 * that drains meanwhile may hold its NC's drain lock at the fork. The child
 * now starts with no session: stop says it is not running, a drain finds
 * nothing, the counters are zero, and a session of its own works, its
 * thread records all freed at its shutdown.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "capture_fixture.h"
#include "check_suites.h"
#include "ntsim/capture.h"

static _Atomic bool g_keep_emitting;
static _Atomic uint64_t g_emitted;

static void *drain_until_told(void *arg)
{
    (void)arg;
    nrt_sys_trace_event_t out[16];
    size_t n;
    while (atomic_load_explicit(&g_keep_emitting, memory_order_relaxed))
        (void)nrt_sys_trace_drain_events(0, out, 16, &n);
    return NULL;
}

static void *emit_until_told(void *arg)
{
    (void)arg;
    while (atomic_load_explicit(&g_keep_emitting, memory_order_relaxed)) {
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 1);
        atomic_fetch_add_explicit(&g_emitted, 1, memory_order_relaxed);
    }
    return NULL;
}

static void quiet(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)level;
    (void)message;
    (void)ctx;
}

/* What a child finds, with D-FORK's answers: 0, or the number of the first
 * check that failed (its exit status). A wait that never ends is ended by
 * the alarm (the parent sees SIGALRM). */
static int child_checks(void)
{
    ntsim_log_set_sink(quiet, NULL); /* stop's "not running" warning is expected */
    (void)signal(SIGALRM, SIG_DFL);   /* not Check's timeout handler, which kills the test */
    alarm(10);
    if (nrt_sys_trace_stop() != NRT_FAILURE)
        return 1; /* the parent's session is not the child's to stop */
    nrt_sys_trace_event_t out[64];
    size_t n = 99;
    if (nrt_sys_trace_drain_events(0, out, 64, &n) != NRT_SUCCESS || n != 0)
        return 2;
    ntsim_nc_stats_t st;
    if (ntsim_capture_nc_stats(0, &st) != NRT_SUCCESS || st.created != 0 || st.pushed != 0 ||
        st.drained != 0 || st.in_ring != 0 || st.capacity != 0)
        return 3;
    /* A session of its own: three events in, the same three out. */
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, (const uint32_t[]){0}, 1);
    if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS)
        return 4;
    for (int i = 0; i < 3; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 7);
    if (nrt_sys_trace_drain_events(0, out, 64, &n) != NRT_SUCCESS || n != 3 ||
        out[0].tracking_id != 7)
        return 5;
    if (nrt_sys_trace_stop() != NRT_SUCCESS)
        return 6;
    /* Every record but the child's own was marked exited: shutdown frees
     * them all. */
    ntsim_capture_shutdown();
    if (ntsim__aligned_live() != 0)
        return 7;
    return 0;
}

START_TEST(test_child_forked_while_a_thread_emits_starts_with_no_session)
{
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, (const uint32_t[]){0}, 1);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    /* The forking thread has a record of its own: in a child, the emitter's
     * record is then not the one its thread takes (which would clear its
     * flag), so only the fork's reset can. */
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            0, NULL, 1);
    atomic_store(&g_keep_emitting, true);
    atomic_store(&g_emitted, 0);
    pthread_t t, d;
    ck_assert_int_eq(pthread_create(&t, NULL, emit_until_told, NULL), 0);
    ck_assert_int_eq(pthread_create(&d, NULL, drain_until_told, NULL), 0);
    while (atomic_load(&g_emitted) < 1000)
        sched_yield();
    const char *why[] = {"", "stop did not fail", "a drain found events", "counters not zero",
                         "start failed", "its own session's drain", "its own stop",
                         "blocks left after its shutdown"};
    for (int k = 0; k < 20; k++) {
        uint64_t before = atomic_load(&g_emitted);
        while (atomic_load(&g_emitted) < before + 100)
            sched_yield(); /* the emitter is at work when the fork comes */
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0)
            _exit(child_checks());
        int status = 0;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(!WIFSIGNALED(status), "child %d: killed by signal %d (%s)", k,
                      WTERMSIG(status), WTERMSIG(status) == SIGALRM ? "hung for 10 s" : "crashed");
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d: check %d: %s", k,
                      WEXITSTATUS(status), why[WEXITSTATUS(status) < 8 ? WEXITSTATUS(status) : 0]);
    }
    atomic_store(&g_keep_emitting, false);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_int_eq(pthread_join(d, NULL), 0);
    /* The parent's session went on through the forks. */
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_ge(st.created, 3000);
    ck_assert_uint_eq(st.created, st.drained + st.overwritten + st.in_ring + st.busy);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    /* Stopped, the parent's counters are its last session's; a child's are
     * zero all the same (a session it never had). */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(child_checks());
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child after stop: status %d",
                  status);
}
END_TEST

static void teardown(void)
{
    ntsim_capture_shutdown();
}

void ntsim_check_add_concurrency_fork(Suite *s)
{
    TCase *tc = tcase_create("concurrency_fork");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120); /* valgrind and TSan run this serially and slowly */
    tcase_add_test(tc, test_child_forked_while_a_thread_emits_starts_with_no_session);
    suite_add_tcase(s, tc);
}
