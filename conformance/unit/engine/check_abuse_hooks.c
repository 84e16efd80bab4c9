/*
 * conformance/unit/engine/check_abuse_hooks.c: the public API called back
 * from inside the engine's own hooks (a clock or thread-id hook that stops,
 * emits, or ends its thread), the second half of the abuse suite
 * (check_abuse.c has the NULL arguments).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_fixture.h"
#include "check_suites.h"

/* --- calls from inside the engine's own hooks ---------------------------------------- */

static NRT_STATUS g_stop_from_hook = NRT_SUCCESS;
static int g_hook_calls;

static uint64_t clock_that_stops(void *ctx)
{
    (void)ctx;
    if (g_hook_calls++ == 0)
        g_stop_from_hook = nrt_sys_trace_stop();
    return 5000;
}

/* A clock hook that calls stop() would wait for its own emit forever; it is
 * refused with an error, and the emit and the session go on. */
START_TEST(test_stop_from_inside_a_hook_is_refused_not_deadlocked)
{
    ntsim_fixture_begin(1000, 0, 7);
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, (const uint32_t[]){0}, 1);
    ntsim_capture_hooks_t hooks = {clock_that_stops, NULL, NULL};
    ck_assert_int_eq(ntsim_capture_set_hooks(&hooks), NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    g_hook_calls = 0;
    uint64_t id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                          NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 77);
    ck_assert_uint_eq(id, 77);
    ck_assert_int_eq(g_stop_from_hook, NRT_FAILURE);
    ck_assert_str_eq(ntsim_fixture.last_message,
                     "nrt_sys_trace_stop called from inside an emit (a clock or thread-id hook): "
                     "refused, a thread cannot wait for its own emit");
    ck_assert(ntsim_capture_is_capturing());
    nrt_sys_trace_event_t rec;
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, &rec, 1, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 1); /* the emit that called the hook was captured */
    ck_assert_uint_eq(rec.timestamp_ns, 5000);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_fixture_end();
}
END_TEST

static uint64_t g_inner_id = 1;

static uint64_t clock_that_emits(void *ctx)
{
    (void)ctx;
    g_inner_id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                         NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 88);
    return 6000;
}

/* The fixture (virtual tid 7), a config of NC 0 with 1024 records, and
 * clock_that_emits as the clock hook; the caller starts the session. */
static void begin_with_a_clock_that_emits(nrt_sys_trace_config_t *cfg)
{
    ntsim_fixture_begin(1000, 0, 7);
    ntsim_fixture_config(cfg, 1024, (const uint32_t[]){0}, 1);
    ntsim_capture_hooks_t hooks = {clock_that_emits, NULL, NULL};
    ck_assert_int_eq(ntsim_capture_set_hooks(&hooks), NRT_SUCCESS);
}

/* An emit from inside an emit (here the clock hook): its exit would clear the
 * in-emit flag stop() waits on while the outer emit still writes its slot, so
 * it is refused (0, counted as reentrant, one warning) and the outer emit is
 * captured alone. */
START_TEST(test_emit_from_inside_a_hook_is_refused_and_counted)
{
    nrt_sys_trace_config_t cfg;
    begin_with_a_clock_that_emits(&cfg);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    unsigned before = ntsim_fixture.warnings;
    for (int i = 0; i < 2; i++)
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL,
                                                  77),
                          77);
    ck_assert_uint_eq(g_inner_id, 0);
    ck_assert_uint_eq(ntsim_fixture.warnings - before, 1);
    ntsim_capture_stats_t st;
    ck_assert_int_eq(ntsim_capture_global_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.reentrant, 2);
    nrt_sys_trace_event_t rec[4];
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, rec, 4, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2); /* the two outer emits, nothing from inside them */
    ck_assert_uint_eq(rec[0].tracking_id, 77);
    ck_assert_uint_eq(rec[0].timestamp_ns, 6000);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_fixture_end();
}
END_TEST

/* include/ntsim/capture.h: shutdown clears every counter but sessions, the
 * reentrant count among them (D-GRACE): one refused emit from inside a hook
 * counts 1, which stop keeps readable and shutdown clears. */
START_TEST(test_shutdown_clears_the_reentrant_count)
{
    nrt_sys_trace_config_t cfg;
    begin_with_a_clock_that_emits(&cfg);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            0, NULL, 77);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_capture_stats_t st;
    ck_assert_int_eq(ntsim_capture_global_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.reentrant, 1);
    ntsim_capture_shutdown();
    ck_assert_int_eq(ntsim_capture_global_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.reentrant, 0);
    ntsim_fixture_end();
}
END_TEST

/* D-GRACE: a refused emit from inside an emit warns once a session: the next
 * session warns again (D-WARN-ONCE's rule for the emit path's warnings). */
START_TEST(test_emit_from_inside_a_hook_warns_once_each_session)
{
    nrt_sys_trace_config_t cfg;
    begin_with_a_clock_that_emits(&cfg);
    for (int session = 0; session < 2; session++) {
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        unsigned before = ntsim_fixture.warnings;
        for (int i = 0; i < 2; i++)
            nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                    NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 77);
        ck_assert_uint_eq(ntsim_fixture.warnings - before, 1);
        ck_assert_str_eq(ntsim_fixture.last_message,
                         "an emit from inside an emit (a clock or thread-id hook) is refused: "
                         "event dropped");
        ntsim_capture_stats_t st;
        ck_assert_int_eq(ntsim_capture_global_stats(&st), NRT_SUCCESS);
        ck_assert_uint_eq(st.reentrant, 2);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
    ntsim_fixture_end();
}
END_TEST

/* D-WARN-ONCE, D-GRACE: the refused emit's warning is logged at the first
 * refusal of the session, not a later one, and never again in it; every
 * refusal is counted. */
START_TEST(test_emit_from_inside_a_hook_warns_at_the_first_refusal)
{
    nrt_sys_trace_config_t cfg;
    begin_with_a_clock_that_emits(&cfg);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    unsigned before = ntsim_fixture.warnings;
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 77),
                      77);
    ck_assert_uint_eq(ntsim_fixture.warnings - before, 1);
    ck_assert_str_eq(ntsim_fixture.last_message,
                     "an emit from inside an emit (a clock or thread-id hook) is refused: "
                     "event dropped");
    for (int i = 0; i < 3; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 77);
    ck_assert_uint_eq(ntsim_fixture.warnings - before, 1);
    ntsim_capture_stats_t st;
    ck_assert_int_eq(ntsim_capture_global_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.reentrant, 4);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_fixture_end();
}
END_TEST

/* A thread may end inside a hook (pthread_exit from the clock hook): it
 * never leaves that emit. The next thread to emit takes over its registry
 * record (D-GRACE) and must start outside any emit: its event is captured
 * with its tracking id (facts §5), not refused as an emit inside an emit,
 * and stop() then has no emit to wait for. */
static _Thread_local bool t_exit_in_clock;

static uint64_t clock_that_may_exit(void *ctx)
{
    (void)ctx;
    if (t_exit_in_clock)
        pthread_exit(NULL);
    return 9000;
}

static void *emit_and_exit_in_the_hook(void *arg)
{
    (void)arg;
    t_exit_in_clock = true;
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            0, NULL, 44);
    return NULL; /* not reached */
}

static void *emit_once(void *arg)
{
    *(uint64_t *)arg = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                               NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 55);
    return NULL;
}

START_TEST(test_thread_after_one_that_ended_inside_a_hook_emits_normally)
{
    ntsim_fixture_begin(1000, 0, 7);
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, (const uint32_t[]){0}, 1);
    ntsim_capture_hooks_t hooks = {clock_that_may_exit, NULL, NULL};
    ck_assert_int_eq(ntsim_capture_set_hooks(&hooks), NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, emit_and_exit_in_the_hook, NULL), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    uint64_t id = 0;
    ck_assert_int_eq(pthread_create(&t, NULL, emit_once, &id), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_uint_eq(id, 55);
    ntsim_capture_stats_t st;
    ck_assert_int_eq(ntsim_capture_global_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.reentrant, 0);
    nrt_sys_trace_event_t rec[2];
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, rec, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 1); /* the ended thread had not reserved a slot yet */
    ck_assert_uint_eq(rec[0].tracking_id, 55);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_fixture_end();
}
END_TEST

void ntsim_check_add_abuse_hooks(TCase *tc)
{
    tcase_add_test(tc, test_stop_from_inside_a_hook_is_refused_not_deadlocked);
    tcase_add_test(tc, test_emit_from_inside_a_hook_is_refused_and_counted);
    tcase_add_test(tc, test_emit_from_inside_a_hook_warns_once_each_session);
    tcase_add_test(tc, test_emit_from_inside_a_hook_warns_at_the_first_refusal);
    tcase_add_test(tc, test_thread_after_one_that_ended_inside_a_hook_emits_normally);
    tcase_add_test(tc, test_shutdown_clears_the_reentrant_count);
}
