/*
 * conformance/unit/engine/check_capture.c: the capture engine's API and lifecycle.
 *
 * Byte-exact records are pinned by vectors/record_*.yaml; these tests pin
 * the status codes, the counters, the gates and the config API, each value
 * worked out from facts §4/§5 or a decision in docs/decisions.md.
 */
#define _GNU_SOURCE /* syscall, SYS_membarrier */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>

#include "abi_registry.h"
#include "alloc_probe.h"
#include "capture_fixture.h"
#include "check_suites.h"
#include "grace.h"
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

static const uint32_t only_nc0_and_3[] = {0, 3};

static void setup(void)
{
    ntsim_fixture_begin(1000, 10, 4242);
}

static void teardown(void)
{
    ntsim_fixture_end();
}

static void start_small(void)
{
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, only_nc0_and_3, 2);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
}

static ntsim_nc_stats_t stats_of(uint32_t nc)
{
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(nc, &st), NRT_SUCCESS);
    return st;
}

START_TEST(test_emit_while_not_capturing_captures_nothing)
{
    ck_assert(!ntsim_capture_is_capturing());
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 99),
                      0);
    ck_assert_uint_eq(stats_of(0).created, 0);
    ck_assert_uint_eq(ntsim_fixture.now_ns, 1000); /* the clock was not even read */
}
END_TEST

START_TEST(test_start_rejects_a_null_config)
{
    ck_assert_int_eq(nrt_sys_trace_start(NULL), NRT_INVALID);
    ck_assert(!ntsim_capture_is_capturing());
}
END_TEST

/* facts §4: start while running warns and returns 1; the session goes on. */
START_TEST(test_second_start_warns_returns_failure_and_keeps_capturing)
{
    start_small();
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 4096, only_nc0_and_3, 2);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_FAILURE);
    ck_assert_int_eq(NRT_FAILURE, 1);
    ck_assert_uint_eq(ntsim_fixture.warnings, 1);
    ck_assert_str_eq(ntsim_fixture.last_message,
                     "sys trace capture is already running: start ignored");
    ck_assert_uint_eq(stats_of(0).capacity, 1024);
    ck_assert_uint_ne(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0),
                      0);
}
END_TEST

/* facts §4: a second stop is an error; it changes nothing (D-LIFECYCLE). */
START_TEST(test_stop_when_not_capturing_warns_and_fails)
{
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_FAILURE);
    start_small();
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_FAILURE);
    ck_assert_str_eq(ntsim_fixture.last_message, "sys trace capture is not running: stop ignored");
    ck_assert_uint_eq(ntsim_fixture.warnings, 2);
}
END_TEST

/* facts §4: the shim clamps max_events_per_nc to [1024, 0x100000]. */
START_TEST(test_start_clamps_max_events_per_nc)
{
    const uint64_t given[] = {0, 10, 1023, 1024, 5000, 0x100000, 0x100001, UINT64_MAX};
    const uint64_t want[] = {1024, 1024, 1024, 1024, 5000, 0x100000, 0x100000, 0x100000};
    for (size_t i = 0; i < sizeof given / sizeof given[0]; i++) {
        nrt_sys_trace_config_t cfg;
        const uint32_t nc = 1;
        ntsim_fixture_config(&cfg, given[i], &nc, 1);
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        ck_assert_uint_eq(stats_of(1).capacity, want[i]);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
}
END_TEST

START_TEST(test_rings_exist_only_for_enabled_ncs)
{
    start_small();
    ck_assert_uint_eq(stats_of(0).capacity, 1024);
    ck_assert_uint_eq(stats_of(3).capacity, 1024);
    ck_assert_uint_eq(stats_of(1).capacity, 0);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 1, NULL, 5),
                      0);
    ck_assert_uint_eq(stats_of(1).created, 0);
}
END_TEST

START_TEST(test_disabled_type_is_not_captured)
{
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, only_nc0_and_3, 2);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, "hw_notify",
                                                                             false),
                     NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 5),
                      0);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 5),
                      5);
    ck_assert_uint_eq(stats_of(3).created, 1);
}
END_TEST

/* facts §5: type > 45 is dropped; ours also counts it and warns once. */
START_TEST(test_type_out_of_range_is_dropped_counted_and_warned_once)
{
    start_small();
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_COUNT,
                                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 7),
                          0);
    ntsim_capture_stats_t g;
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.invalid_type, 3);
    ck_assert_uint_eq(stats_of(0).created, 0);
    ck_assert_uint_eq(ntsim_fixture.warnings, 1);
    char want[64];
    snprintf(want, sizeof want, "invalid event type %d: event dropped",
             (int)NRT_SYS_TRACE_EVENT_TYPE_COUNT);
    ck_assert_str_eq(ntsim_fixture.last_message, want);
}
END_TEST

/* facts §5: nc_idx >= 256 warns and uses NC 0. */
START_TEST(test_nc_out_of_range_is_redirected_to_nc_0)
{
    start_small();
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 256, NULL, 11),
                      11);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, UINT32_MAX, NULL,
                                              12),
                      12);
    ntsim_capture_stats_t g;
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.clamped_nc_idx, 2);
    ck_assert_uint_eq(ntsim_fixture.warnings, 1);
    ck_assert_str_eq(ntsim_fixture.last_message, "nc_idx 256 is out of range [0, 255]: using NC 0");
    nrt_sys_trace_event_t out[4];
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 4, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(out[0].nc_idx, 0);
    ck_assert_uint_eq(out[1].tracking_id, 12);
}
END_TEST

/* facts §5: tracking_id = caller's if nonzero, else seq | nc_idx << 50;
 * D-TRACKING-ZERO: NC 0's first derived id is 0. */
START_TEST(test_tracking_id_is_the_callers_or_derived_from_seq)
{
    start_small();
    const uint64_t nc3 = UINT64_C(3) << 50;
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_START, 3, NULL, 0),
                      0 | nc3);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_START, 3, NULL, 0),
                      1 | nc3);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_START, 3, NULL,
                                              UINT64_MAX),
                      UINT64_MAX);
    /* seq counts every push, caller ids included: the next derived is 3. */
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_START, 3, NULL, 0),
                      3 | nc3);
    /* The quirk: captured, yet the return value is 0. */
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_START, 0, NULL, 0),
                      0);
    ck_assert_uint_eq(stats_of(0).pushed, 1);
}
END_TEST

/* facts §5: the STOP passes back the START's id, so the pair shares it. */
START_TEST(test_start_and_stop_share_the_tracking_id)
{
    start_small();
    uint64_t id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_EXEC_PRE,
                                          NRT_SYS_TRACE_EVENT_PHASE_START, 3, NULL, 0);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_EXEC_PRE, NRT_SYS_TRACE_EVENT_PHASE_STOP, 3,
                            NULL, id);
    nrt_sys_trace_event_t out[2];
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(3, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(out[0].tracking_id, id);
    ck_assert_uint_eq(out[1].tracking_id, id);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    ck_assert_uint_eq(out[1].nc_local_id, 1);
    ck_assert_uint_eq(out[0].timestamp_ns, 1000);
    ck_assert_uint_eq(out[1].timestamp_ns, 1010);
    ck_assert_uint_eq(out[1].thread_id, 4242);
}
END_TEST

/* facts §5: stop drops the rings undrained; ours counts what it dropped. */
START_TEST(test_stop_drops_undrained_events_and_counts_them)
{
    start_small();
    for (int i = 0; i < 5; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 1);
    nrt_sys_trace_event_t out[8];
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(3, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ntsim_nc_stats_t st = stats_of(3);
    ck_assert_uint_eq(st.created, 5);
    ck_assert_uint_eq(st.drained, 2);
    ck_assert_uint_eq(st.lost_at_stop, 3);
    ck_assert_uint_eq(st.in_ring, 0);
    ck_assert_uint_eq(st.overwritten, 0);
    /* Nothing is left to drain, and draining is not an error. */
    ck_assert_int_eq(nrt_sys_trace_drain_events(3, out, 8, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 0);
    /* The next start begins a fresh session. */
    start_small();
    ck_assert_uint_eq(stats_of(3).created, 0);
    ck_assert_uint_eq(stats_of(3).lost_at_stop, 0);
}
END_TEST

START_TEST(test_overflow_counts_overwritten_with_times)
{
    start_small();
    for (int i = 0; i < 1500; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 1);
    ntsim_nc_stats_t st = stats_of(0);
    ck_assert_uint_eq(st.created, 1500);
    ck_assert_uint_eq(st.overwritten, 476);
    ck_assert_uint_eq(st.in_ring, 1024);
    /* Clock reads: emit k reads 1000 + 10 k; the first eviction is emit 1024. */
    ck_assert_uint_eq(st.first_overwrite_ns, 1000 + 10 * 1024);
    ck_assert_uint_eq(st.last_overwrite_ns, 1000 + 10 * 1499);
}
END_TEST

START_TEST(test_drain_rejects_bad_arguments)
{
    start_small();
    nrt_sys_trace_event_t out[1];
    size_t n = 77;
    ck_assert_int_eq(nrt_sys_trace_drain_events(256, out, 1, &n), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 1, NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, NULL, 1, &n), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, NULL, 0, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(nrt_sys_trace_drain_events(1, out, 1, &n), NRT_SUCCESS); /* no ring */
    ck_assert_uint_eq(n, 0);
}
END_TEST

/* Bad input loses nothing already captured: every refused drain and fetch
 * (facts §5 / nrt_sys_trace.h: NRT_INVALID, nothing drained) leaves the ring
 * as it was, and a good fetch afterwards returns every event. */
START_TEST(test_refused_drains_and_fetches_lose_nothing_captured)
{
    start_small();
    for (int i = 0; i < 3; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 1);
    nrt_sys_trace_event_t out[4];
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, NULL, 4, &n), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 4, NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_drain_events(300, out, 4, &n), NRT_INVALID);
    char *buf = NULL, not_null = 'x';
    size_t len = 0;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(NULL, &len, NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, NULL, NULL), NRT_INVALID);
    char *stale = &not_null;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&stale, &len, NULL), NRT_INVALID);
    nrt_sys_trace_fetch_options_t *opt;
    ck_assert_int_eq(nrt_sys_trace_fetch_options_allocate(&opt), NRT_SUCCESS);
    nrt_sys_trace_fetch_options_set_nc_idx(opt, 256);
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &len, opt), NRT_INVALID);
    ck_assert_ptr_null(buf);
    nrt_sys_trace_fetch_options_free(opt);
    ntsim_nc_stats_t st = stats_of(0);
    ck_assert_uint_eq(st.in_ring, 3);
    ck_assert_uint_eq(st.drained, 0);
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 4, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(out[0].nc_local_id, 0);
    ck_assert_uint_eq(out[2].nc_local_id, 2);
}
END_TEST

START_TEST(test_hooks_cannot_change_while_capturing)
{
    start_small();
    ck_assert_int_eq(ntsim_capture_set_hooks(NULL), NRT_FAILURE);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_capture_set_hooks(NULL), NRT_SUCCESS);
}
END_TEST

/* D-PAYLOAD-HOLES: only the chosen member's field bytes are copied. */
START_TEST(test_payload_holes_padding_and_unused_bytes_are_zero)
{
    start_small();
    nrt_sys_trace_event_data_t d;
    memset(&d, 0xaa, sizeof d);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                            NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, &d, 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_START,
                            3, &d, 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_TENSOR_READ_BATCH,
                            NRT_SYS_TRACE_EVENT_PHASE_START, 3, &d, 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            3, &d, 1); /* D-PHASE: INSTANT of a pair carries nothing */
    nrt_sys_trace_event_t out[4];
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(3, out, 4, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 4);
    const uint8_t *b = (const uint8_t *)&out[0].data;
    /* hw_notify: fields at 0..5, 8..11, 16..39; holes 6..7 and 12..15. */
    for (size_t i = 0; i < 40; i++) {
        bool hole = (i >= 6 && i < 8) || (i >= 12 && i < 16);
        ck_assert_uint_eq(b[i], hole ? 0 : 0xaa);
    }
    const uint8_t *g = (const uint8_t *)&out[1].data;
    for (size_t i = 0; i < 40; i++)
        ck_assert_uint_eq(g[i], 0); /* spec §2 QUIRK: GENERIC has no payload */
    const uint8_t *rb = (const uint8_t *)&out[2].data;
    for (size_t i = 0; i < 40; i++)
        ck_assert_uint_eq(rb[i], i < 4 ? 0xaa : 0);
    const uint8_t *cc = (const uint8_t *)&out[3].data;
    for (size_t i = 0; i < 40; i++)
        ck_assert_uint_eq(cc[i], 0);
    /* Record padding: after trace_type (4..7) and the tail (105..111). */
    const uint8_t *rec = (const uint8_t *)&out[0];
    for (size_t i = 4; i < 8; i++)
        ck_assert_uint_eq(rec[i], 0);
    for (size_t i = 105; i < 112; i++)
        ck_assert_uint_eq(rec[i], 0);
}
END_TEST

/* D-PAYLOAD-HOLES: `data == NULL`, or a (type, phase) with no payload, gives
 * an all-zero payload, also in a slot that a drained record used before. */
START_TEST(test_null_or_absent_payload_is_zero_in_a_reused_slot)
{
    start_small();
    nrt_sys_trace_event_data_t d;
    memset(&d, 0xaa, sizeof d);
    for (int i = 0; i < 1024; i++) /* one lap of the 1024-record ring of NC 0 */
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, &d, 1);
    nrt_sys_trace_event_t *out = malloc(1024 * sizeof *out);
    ck_assert_ptr_nonnull(out);
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 1024, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 1024);
    ck_assert_uint_eq(((const uint8_t *)&out[1023].data)[0], 0xaa);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                            NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            0, &d, 1); /* spec §2 QUIRK: GENERIC has no payload */
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    for (size_t r = 0; r < 2; r++) {
        const uint8_t *b = (const uint8_t *)&out[r].data;
        for (size_t i = 0; i < sizeof out[r].data; i++)
            ck_assert_uint_eq(b[i], 0);
    }
    free(out);
}
END_TEST

/* D-LIFECYCLE: the stopped session's counters stay readable until the next
 * start, which begins fresh ones for every NC, also one it does not capture. */
START_TEST(test_start_clears_the_last_counters_of_an_nc_it_does_not_capture)
{
    start_small();
    for (int i = 0; i < 5; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 1);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_uint_eq(stats_of(3).created, 5);
    ck_assert_uint_eq(stats_of(3).lost_at_stop, 5);
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, only_nc0_and_3, 1); /* NC 0 only */
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ntsim_nc_stats_t st = stats_of(3);
    ck_assert_uint_eq(st.created, 0);
    ck_assert_uint_eq(st.lost_at_stop, 0);
    ck_assert_uint_eq(st.capacity, 0);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    st = stats_of(3);
    ck_assert_uint_eq(st.created, 0);
    ck_assert_uint_eq(st.lost_at_stop, 0);
}
END_TEST

/* include/ntsim/capture.h: shutdown "clears every counter but sessions": the
 * per-session global counters and the last counters of every NC, not only
 * NC 0's. */
START_TEST(test_shutdown_clears_every_counter_but_sessions)
{
    start_small();
    ntsim_capture_stats_t g;
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    uint64_t sessions = g.sessions;
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            3, NULL, 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            256, NULL, 1); /* facts §5: counted in clamped_nc_idx, on NC 0 */
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_COUNT, NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0,
                            NULL, 1); /* counted in invalid_type */
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_uint_eq(stats_of(3).lost_at_stop, 1);
    ck_assert_uint_eq(stats_of(0).lost_at_stop, 1);
    ntsim_capture_shutdown();
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, sessions);
    ck_assert_uint_eq(g.clamped_nc_idx, 0);
    ck_assert_uint_eq(g.invalid_type, 0);
    ck_assert_uint_eq(g.reentrant, 0);
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc += 3) {
        ntsim_nc_stats_t st = stats_of(nc);
        ck_assert_uint_eq(st.created, 0);
        ck_assert_uint_eq(st.pushed, 0);
        ck_assert_uint_eq(st.lost_at_stop, 0);
        ck_assert_uint_eq(st.capacity, 0);
    }
}
END_TEST

START_TEST(test_nrta_seq_id_is_recorded_only_by_the_with_seq_shim)
{
    start_small();
    nrt_sys_trace_new_event_with_seq(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                     NRT_SYS_TRACE_EVENT_PHASE_START, 3, NULL, 1, 0);
    nrt_sys_trace_new_event_with_seq(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                     NRT_SYS_TRACE_EVENT_PHASE_START, 3, NULL, 1, UINT64_MAX);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_START, 3,
                            NULL, 1);
    nrt_sys_trace_event_t out[3];
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(3, out, 3, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 3);
    ck_assert(out[0].has_nrta_seq_id);
    ck_assert_uint_eq(out[0].nrta_seq_id, 0);
    ck_assert(out[1].has_nrta_seq_id);
    ck_assert_uint_eq(out[1].nrta_seq_id, UINT64_MAX);
    ck_assert(!out[2].has_nrta_seq_id);
    ck_assert_uint_eq(out[2].nrta_seq_id, 0);
}
END_TEST

/* facts §4 defaults: all NCs and types on, max 0x100000. */
START_TEST(test_config_defaults_and_setters)
{
    nrt_sys_trace_config_t *cfg = NULL;
    ck_assert_int_eq(nrt_sys_trace_config_allocate(NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_config_allocate(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(cfg->max_events_per_nc, 0x100000);
    for (int i = 0; i < NTSIM_NC_COUNT; i++)
        ck_assert(cfg->capture_enabled_for_nc[i]);
    for (int t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        ck_assert(cfg->capture_enabled_for_event_type[t]);
    nrt_sys_trace_config_set_max_events_per_nc(cfg, 7);
    ck_assert_uint_eq(cfg->max_events_per_nc, 7); /* clamped only by start */
    nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, 255, false);
    ck_assert(!cfg->capture_enabled_for_nc[255]);
    nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, 256, false);
    ck_assert_str_eq(ntsim_fixture.last_message, "nc_idx 256 is out of range [0, 255]: ignored");
    /* By the interned names the getter returns (facts §4, D-NAMES); the
     * enum suffix of the inspect layer's doc examples is not one of them. */
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, "device_exec",
                                                                             false),
                     NRT_INVALID);
    ck_assert(cfg->capture_enabled_for_event_type[7]);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg,
                                                                             "nc_exec_running",
                                                                             false),
                     NRT_SUCCESS);
    ck_assert(!cfg->capture_enabled_for_event_type[7]);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, "cc_running",
                                                                             false),
                     NRT_SUCCESS);
    ck_assert(!cfg->capture_enabled_for_event_type[8]);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, "nope", false),
                     NRT_INVALID);
    ck_assert_str_eq(ntsim_fixture.last_message, "unknown event type name 'nope'");
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, NULL, false),
                     NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(NULL, "generic",
                                                                             false),
                     NRT_INVALID);
    const char **names;
    size_t count;
    ck_assert_int_eq(nrt_sys_trace_config_get_enabled_event_types(cfg, &names, &count),
                     NRT_SUCCESS);
    ck_assert_uint_eq(count, NRT_SYS_TRACE_EVENT_TYPE_COUNT - 2);
    ck_assert_str_eq(names[6], "cc_exec_barrier");
    ck_assert_str_eq(names[7], "nrt_tensor_read"); /* 7 and 8 are off */
    nrt_sys_trace_free_event_types(names, count);
    for (int t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        cfg->capture_enabled_for_event_type[t] = false;
    ck_assert_int_eq(nrt_sys_trace_config_get_enabled_event_types(cfg, &names, &count),
                     NRT_SUCCESS);
    ck_assert_ptr_null(names);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(nrt_sys_trace_config_get_enabled_event_types(cfg, NULL, &count),
                     NRT_INVALID);
    nrt_sys_trace_config_free(cfg);
}
END_TEST

/* facts §4: COUNT (46) names, index = enum value. */
START_TEST(test_get_event_types_lists_every_name_by_value)
{
    const char **names;
    size_t count;
    ck_assert_int_eq(nrt_sys_trace_get_event_types(NULL, &count), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_get_event_types(&names, NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_get_event_types(&names, &count), NRT_SUCCESS);
    ck_assert_uint_eq(count, NRT_SYS_TRACE_EVENT_TYPE_COUNT);
    ck_assert_str_eq(names[0], "generic");
    ck_assert_str_eq(names[24], "hw_notify");
    ck_assert_str_eq(names[7], "nc_exec_running");
    ck_assert_str_eq(names[36], "exec_consume_tpb_status_notifications");
    ck_assert_str_eq(names[45], "hostcc_wait");
    /* The setter accepts every name the getter returns. */
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    for (size_t i = 0; i < count; i++)
        ck_assert_int_eq(
            nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, names[i], false),
            NRT_SUCCESS);
    for (int t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        ck_assert(!cfg.capture_enabled_for_event_type[t]);
    /* Freed either way: with the helper, or with libc (facts §4). */
    for (size_t i = 0; i < count; i++)
        free((void *)names[i]);
    free((void *)names);
}
END_TEST

START_TEST(test_fetch_options_defaults_and_setters)
{
    nrt_sys_trace_fetch_options_t *o = NULL;
    ck_assert_int_eq(nrt_sys_trace_fetch_options_allocate(NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_fetch_options_allocate(&o), NRT_SUCCESS);
    ck_assert_uint_eq(o->max_events_per_nc, 0);
    ck_assert_int_eq(o->nc_idx, -1);
    nrt_sys_trace_fetch_options_set_nc_idx(o, 7);
    ck_assert_int_eq(o->nc_idx, 7);
    nrt_sys_trace_fetch_options_set_nc_idx(o, UINT64_MAX);
    ck_assert_int_eq(o->nc_idx, -1);
    nrt_sys_trace_fetch_options_set_nc_idx(o, (UINT64_C(1) << 32) + 1);
    ck_assert_int_eq(o->nc_idx, INT32_MAX); /* D-FETCH-NC: kept as out of range */
    nrt_sys_trace_fetch_options_set_max_events_per_nc(o, 12);
    ck_assert_uint_eq(o->max_events_per_nc, 12);
    nrt_sys_trace_fetch_options_set_defaults(o);
    ck_assert_int_eq(o->nc_idx, -1);
    ck_assert_uint_eq(o->max_events_per_nc, 0);
    nrt_sys_trace_fetch_options_free(o);
}
END_TEST

/* facts §1: HARDWARE = {6,7,8,13,24,25,26}; t > 45 logs and is UNKNOWN. */
START_TEST(test_event_type_category_api)
{
    ck_assert_int_eq(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY),
                     NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE);
    ck_assert_int_eq(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_GENERIC),
                     NRT_SYS_TRACE_EVENT_CATEGORY_SOFTWARE);
    ck_assert_uint_eq(ntsim_fixture.warnings, 0);
    ck_assert_int_eq(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_COUNT),
                     NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN);
    char want[64];
    snprintf(want, sizeof want, "unknown event type %d: category UNKNOWN",
             (int)NRT_SYS_TRACE_EVENT_TYPE_COUNT);
    ck_assert_str_eq(ntsim_fixture.last_message, want);
}
END_TEST

/* D-STATUS-STR: every enumerator the compiled NRT_STATUS has is named by
 * its own spelling; the gaps of the enum are "UNKNOWN". The vectors
 * api.status_str.* pin the same by hand. */
START_TEST(test_status_string_is_the_enumerator_name)
{
    const ntsim_abi_enum_t *e = ntsim_abi_enum_find("NRT_STATUS");
    ck_assert_ptr_nonnull(e);
    for (size_t i = 0; i < e->member_count; i++)
        ck_assert_str_eq(nrt_get_status_as_str((NRT_STATUS)e->members[i].value),
                         e->members[i].name);
    ck_assert_str_eq(nrt_get_status_as_str((NRT_STATUS)8), "UNKNOWN");
    ck_assert_str_eq(nrt_get_status_as_str((NRT_STATUS)1207), "UNKNOWN");
}
END_TEST

/* D-JSON-DATA: the exporter's phase-mismatch count and its once-per-type
 * warning reset at each start(). A NUM_ERR START (no arm: facts §2) is
 * counted once and warned once; after a new start() the same record is
 * counted from zero and warned again. */
START_TEST(test_start_resets_the_json_phase_mismatch_counts_and_warnings)
{
    nrt_sys_trace_event_t r;
    memset(&r, 0, sizeof r);
    r.trace_type = NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR;
    r.phase = NRT_SYS_TRACE_EVENT_PHASE_START;
    for (int session = 0; session < 2; session++) {
        start_small();
        unsigned warned_before = ntsim_fixture.warnings;
        char *doc = NULL;
        size_t n;
        ck_assert_int_eq(ntsim_json_serialize(&r, 1, &doc, &n), NRT_SUCCESS);
        nrt_sys_trace_buffer_free(doc);
        ntsim_json_stats_t st;
        ck_assert_int_eq(ntsim_json_stats(&st), NRT_SUCCESS);
        ck_assert_uint_eq(st.phase_mismatch, 1);
        ck_assert_uint_eq(st.phase_mismatch_by_type[NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR], 1);
        ck_assert_uint_eq(ntsim_fixture.warnings, warned_before + 1);
        ck_assert_ptr_nonnull(strstr(ntsim_fixture.last_message, "NumericalErr"));
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
}
END_TEST

/* D-RING-MEMORY, F5.start.log_size: start logs the ring memory, 112·n/2^30
 * GB; rings within the 1 GiB budget are mapped in full, above it on first
 * touch, and the log says which. 1 NC x 1024 records (128 KiB of slots) is
 * within it: no "first touch"; 9 NCs x 0x100000 records (9 x 128 MiB) is
 * over it: 112 x 9 x 2^20 / 2^30 = 0.984375, "0.984 GB", and "first touch". */
START_TEST(test_start_logs_first_touch_mapping_only_over_the_ring_budget)
{
    nrt_sys_trace_config_t cfg;
    const uint32_t one[] = {0};
    ntsim_fixture_config(&cfg, 1024, one, 1);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_ge(ntsim_fixture.log_count, 1);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[0], "sys trace: 1 NCs x 1024 events"));
    ck_assert_ptr_null(strstr(ntsim_fixture.log[0], "first touch"));
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);

    const uint32_t nine[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    ntsim_fixture_config(&cfg, 0x100000, nine, 9);
    size_t at = ntsim_fixture.log_count;
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_uint_gt(ntsim_fixture.log_count, at);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at], "sys trace: 9 NCs x 1048576 events: 0.984 GB"));
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at], "first touch"));
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* D-RING-MEMORY: rings are prefaulted when the session's rings take at
 * most 1 GiB at 128 bytes a record, one slot. 8 NCs x 2^20 records is
 * 8 x 2^20 x 128 = 2^30 bytes exactly: within the budget, so no
 * first-touch note; 112 x 2^23 / 2^30 = 0.875 GB of records. (One record
 * more would be over it: 9 NCs above.) */
START_TEST(test_start_prefaults_a_session_of_exactly_the_ring_budget)
{
    nrt_sys_trace_config_t cfg;
    const uint32_t eight[] = {0, 1, 2, 3, 4, 5, 6, 7};
    ntsim_fixture_config(&cfg, 0x100000, eight, 8);
    size_t at = ntsim_fixture.log_count;
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_uint_gt(ntsim_fixture.log_count, at);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at], "sys trace: 8 NCs x 1048576 events: 0.875 GB"));
    ck_assert_ptr_null(strstr(ntsim_fixture.log[at], "first touch"));
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* F5.emit.seq: a warning once seq >= 2^50, where the derived tracking id
 * seq | nc_idx << 50 (D-IDS) starts to collide with the NC bits. The ring
 * of NC 3 is moved to position 2^50 - 1024 (as if that many events had been
 * captured and drained; 1024 is its capacity), so by hand: the 1024 events
 * after it are seq 2^50 - 1024 .. 2^50 - 1, silent, the last one's id
 * (2^50 - 1) | 3 << 50; the next is seq 2^50 = 1125899906842624, warned,
 * its id 2^50 | 3 << 50 = 3 << 50; the one after is not warned again. */
START_TEST(test_seq_warning_starts_exactly_at_two_to_the_fifty)
{
    const uint64_t limit = UINT64_C(1) << 50, nc3 = UINT64_C(3) << 50;
    start_small();
    ck_assert(ntsim__capture_skip_to(3, limit - 1024));
    size_t at = ntsim_fixture.log_count;
    uint64_t id = 0;
    for (int i = 0; i < 1024; i++)
        id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                     NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0);
    ck_assert_uint_eq(id, (limit - 1) | nc3);
    ck_assert_uint_eq(ntsim_fixture.log_count, at);
    id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                 NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0);
    ck_assert_uint_eq(id, nc3);
    ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[at],
                                 "NC 3: seq reached 2^50 (1125899906842624): derived tracking "
                                 "ids now collide with nc_idx"));
    id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                 NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0);
    ck_assert_uint_eq(id, (limit + 1) | nc3);
    ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* D-LOG, D-LIFECYCLE: start(NULL) is NRT_INVALID and says why, as an error
 * (the fixture counts errors with warnings). */
START_TEST(test_start_with_a_null_config_logs_an_error)
{
    ck_assert_int_eq(nrt_sys_trace_start(NULL), NRT_INVALID);
    ck_assert_uint_eq(ntsim_fixture.warnings, 1);
    ck_assert_uint_eq(ntsim_fixture.log_count, 1);
    ck_assert_str_eq(ntsim_fixture.log[0], "error: nrt_sys_trace_start: config is NULL");
}
END_TEST

/* include/ntsim/capture.h: invalid_type, clamped_nc_idx and reentrant count
 * "this session", sessions "successful starts since process start". A
 * session that counted one of each is stopped (its counts stay readable),
 * then a new start counts from zero again and adds exactly 1 to sessions;
 * refused starts (NULL, already running) add nothing. */
START_TEST(test_start_counts_one_session_and_resets_the_session_counters)
{
    ntsim_capture_stats_t g;
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    const uint64_t s0 = g.sessions;
    start_small();
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, s0 + 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_COUNT, NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0,
                            NULL, 1);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            256, NULL, 1);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.invalid_type, 1);
    ck_assert_uint_eq(g.clamped_nc_idx, 1);
    ck_assert_int_eq(nrt_sys_trace_start(NULL), NRT_INVALID);
    start_small();
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, only_nc0_and_3, 2);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_FAILURE); /* already running */
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, s0 + 2);
    ck_assert_uint_eq(g.invalid_type, 0);
    ck_assert_uint_eq(g.clamped_nc_idx, 0);
    ck_assert_uint_eq(g.reentrant, 0);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, s0 + 2);
}
END_TEST

/* D-WARN-ONCE: the seq warning is logged once per session, so a second
 * session that reaches seq 2^50 on the same NC warns again. NC 3's ring is
 * moved to 2^50 (its first event is then seq 2^50 = 1125899906842624,
 * derived id 2^50 | 3 << 50 = 3 << 50) in each of two sessions. */
START_TEST(test_seq_warning_is_logged_again_in_the_next_session)
{
    const uint64_t limit = UINT64_C(1) << 50, nc3 = UINT64_C(3) << 50;
    for (int session = 0; session < 2; session++) {
        start_small();
        ck_assert(ntsim__capture_skip_to(3, limit));
        size_t at = ntsim_fixture.log_count;
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0),
                          nc3);
        ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
        ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
        ck_assert_str_eq(ntsim_fixture.log[at],
                         "warning: NC 3: seq reached 2^50 (1125899906842624): derived tracking "
                         "ids now collide with nc_idx");
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0),
                          (limit + 1) | nc3);
        ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    }
}
END_TEST

/* D-RING-MEMORY: the budget is 128 bytes a record, not a byte less. 9 NCs
 * x 932068 records = 8388612 records, 4 more than 2^23: 8388612 x 128 =
 * 1073742336 bytes, 512 over 2^30, so first touch (at 127 bytes a record
 * they would fit: 1065353724). 112 x 8388612 / 2^30 = 0.8750004, "0.875 GB". */
START_TEST(test_start_maps_on_first_touch_just_over_the_ring_budget)
{
    nrt_sys_trace_config_t cfg;
    const uint32_t nine[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    ntsim_fixture_config(&cfg, 932068, nine, 9);
    size_t at = ntsim_fixture.log_count;
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_uint_gt(ntsim_fixture.log_count, at);
    ck_assert_str_eq(ntsim_fixture.log[at],
                     "info: sys trace: 9 NCs x 932068 events: 0.875 GB of rings (mapped on first "
                     "touch: over the prefault budget)");
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* D-GRACE, engine/capture/grace.h: the emit path's mode (membarrier, or the seq_cst
 * exchange without it) starts as the always-safe fence mode and is chosen by
 * start. Put back to that initial value between sessions, a start must pick
 * membarrier again wherever the kernel offers it (the test asks the kernel,
 * as test_emitters_use_membarrier_where_the_kernel_offers_it does). */
START_TEST(test_start_picks_membarrier_where_the_kernel_offers_it)
{
    atomic_store(&ntsim__grace_fence_mode, true); /* no session: no emitter reads it */
    start_small();
    bool fence = true;
#if !defined(__SANITIZE_THREAD__) && !CHECK_HAS_TSAN
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
        fence = false;
#endif
    ck_assert_int_eq(atomic_load(&ntsim__grace_fence_mode), fence);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
}
END_TEST

/* The address space in use, from /proc/self/status (VmSize, KiB), or 0. */
static uint64_t address_space_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmSize: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (uint64_t)kib * 1024;
}

/* The child of test_start_that_cannot_map_a_ring_frees_the_others: its exit
 * status is 0, or the number of the first check that failed. */
static int start_with_room_for_two_rings(void)
{
    const uint64_t records = UINT64_C(1) << 18, ring = records * 128; /* D-RING-MEMORY */
    uint64_t used = address_space_bytes();
    if (used == 0)
        return 10;
    struct rlimit lim = {.rlim_cur = used + 2 * ring + ring / 2, .rlim_max = RLIM_INFINITY};
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        return 11;
    const uint32_t three[] = {0, 1, 2};
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, records, three, 3);
    size_t at = ntsim_fixture.log_count;
    if (nrt_sys_trace_start(&cfg) != NRT_RESOURCE)
        return 1;
    if (ntsim_capture_is_capturing())
        return 2;
    if (ntsim_fixture.log_count != at + 1 || at >= NTSIM_FIXTURE_LOG_MAX ||
        strcmp(ntsim_fixture.log[at], "error: cannot allocate the ring of NC 2 (262144 events)") != 0)
        return 3;
    /* Both rings mapped before the failure were unmapped: two fit again.
     * (A leaked one would leave room for one at most.) */
    const uint32_t two[] = {0, 1};
    ntsim_fixture_config(&cfg, records, two, 2);
    if (nrt_sys_trace_start(&cfg) != NRT_SUCCESS) /* a lock left held would hang here */
        return 4;
    ntsim_nc_stats_t st;
    if (ntsim_capture_nc_stats(1, &st) != NRT_SUCCESS || st.capacity != records)
        return 5;
    if (nrt_sys_trace_stop() != NRT_SUCCESS)
        return 6;
    return 0;
}

/* D-ALLOCATOR's promise for start: a start that cannot map the ring of one
 * NC returns NRT_RESOURCE, logs which, frees the rings it mapped for the
 * NCs before it and leaves the lifecycle free for the next start. In a
 * child whose address space has room for two rings of 2^18 records (32 MiB
 * each) and a half, a start of three NCs maps NC 0's and NC 1's and fails
 * on NC 2's; then a start of two NCs must fit. */
START_TEST(test_start_that_cannot_map_a_ring_frees_the_others)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(start_with_room_for_two_rings());
    int status = 0;
    pid_t done = 0;
    for (int waited_ms = 0; waited_ms < 30000 && done == 0; waited_ms += 10) {
        done = waitpid(pid, &status, WNOHANG);
        if (done == 0)
            nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    if (done == 0) { /* a start that waits forever: the lifecycle lock was left held */
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ck_abort_msg("the start after a failed start did not return in 30 s");
    }
    ck_assert_int_eq(done, pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* D-LIFECYCLE, D-LOG: stop counts what it drops per NC as lost_at_stop and
 * says so in one info message for each NC that lost something, naming the
 * NC and the count. Here NC 0 keeps 1 undrained event (the smallest loss)
 * and NC 3 lost nothing (its 2 events were drained): exactly one message,
 * for NC 0, with 1. */
START_TEST(test_stop_logs_each_nc_with_undrained_events_once)
{
    start_small();
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            0, NULL, 1);
    for (int i = 0; i < 2; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 1);
    nrt_sys_trace_event_t out[4];
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(3, out, 4, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    size_t at = ntsim_fixture.log_count;
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
    ck_assert_msg(strncmp(ntsim_fixture.log[at], "info: NC 0: 1 ", 14) == 0, "logged: %s",
                  ntsim_fixture.log[at]);
    ck_assert_uint_eq(stats_of(0).lost_at_stop, 1);
    ck_assert_uint_eq(stats_of(3).lost_at_stop, 0);
}
END_TEST

/* include/ntsim/capture.h: nc_stats is NRT_INVALID for nc_idx >= 256 (the
 * first such is 256 itself) or a NULL stats, and writes nothing then. */
START_TEST(test_nc_stats_rejects_nc_256_and_null)
{
    start_small();
    ntsim_nc_stats_t st;
    memset(&st, 0xa5, sizeof st);
    ck_assert_int_eq(ntsim_capture_nc_stats(NTSIM_NC_COUNT, &st), NRT_INVALID);
    ck_assert_int_eq(ntsim_capture_nc_stats(UINT32_MAX, &st), NRT_INVALID);
    ck_assert_int_eq(ntsim_capture_nc_stats(0, NULL), NRT_INVALID);
    ck_assert_uint_eq(st.capacity, UINT64_C(0xa5a5a5a5a5a5a5a5));
    ck_assert_int_eq(ntsim_capture_nc_stats(NTSIM_NC_COUNT - 1, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.capacity, 0); /* NC 255 has no ring */
}
END_TEST

/* include/ntsim/capture.h: sessions counts successful starts since process
 * start; a refused start (running already, NULL config) is not one. The
 * result is read into a buffer filled with garbage each time. */
START_TEST(test_global_stats_count_successful_starts_only)
{
    ntsim_capture_stats_t g;
    memset(&g, 0xa5, sizeof g);
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    uint64_t before = g.sessions;
    ck_assert_uint_ne(before, UINT64_C(0xa5a5a5a5a5a5a5a5));
    start_small();
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, only_nc0_and_3, 2);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_FAILURE);
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    ck_assert_int_eq(nrt_sys_trace_start(NULL), NRT_INVALID);
    memset(&g, 0xa5, sizeof g);
    ck_assert_int_eq(ntsim_capture_global_stats(&g), NRT_SUCCESS);
    ck_assert_uint_eq(g.sessions, before + 1);
    ck_assert_uint_eq(g.invalid_type, 0);
    ck_assert_uint_eq(g.clamped_nc_idx, 0);
    ck_assert_uint_eq(g.reentrant, 0);
    ck_assert_int_eq(ntsim_capture_global_stats(NULL), NRT_INVALID);
}
END_TEST

/* include/ntsim/capture.h: hooks change only while not capturing; a refused
 * change warns (as the other refused lifecycle calls do, D-LIFECYCLE) and
 * leaves the session's hooks in place: the next record still reads the
 * fixture's clock (1000, the first read) and thread id (4242). */
static uint64_t other_clock(void *ctx)
{
    (void)ctx;
    return 5;
}

static uint64_t other_tid(void *ctx)
{
    (void)ctx;
    return 6;
}

START_TEST(test_set_hooks_while_capturing_warns_and_changes_nothing)
{
    start_small();
    unsigned warned = ntsim_fixture.warnings;
    size_t at = ntsim_fixture.log_count;
    ck_assert_uint_lt(at, NTSIM_FIXTURE_LOG_MAX);
    ntsim_capture_hooks_t other = {other_clock, other_tid, NULL};
    ck_assert_int_eq(ntsim_capture_set_hooks(&other), NRT_FAILURE);
    ck_assert_uint_eq(ntsim_fixture.warnings, warned + 1);
    ck_assert_uint_eq(ntsim_fixture.log_count, at + 1);
    ck_assert_int_eq(strncmp(ntsim_fixture.log[at], "warning: ", 9), 0);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 9),
                      9);
    nrt_sys_trace_event_t out[2];
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_drain_events(0, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0].timestamp_ns, 1000);
    ck_assert_uint_eq(out[0].thread_id, 4242);
}
END_TEST

/* F5.emit.state_gate, F5.stop: stop and shutdown clear the capture state
 * before they drop the rings, so an emit made while they drop them (here
 * from the log sink, on the info message of an NC with undrained events,
 * D-LOG) sees capture off and returns 0, even on the NC whose ring is
 * being dropped. */
static int sink_emits;
static uint64_t sink_emit_result;

static void emitting_sink(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)ctx;
    if (level != NTSIM_LOG_INFO || strstr(message, "NC 3: ") != message)
        return;
    sink_emits++;
    sink_emit_result = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                               NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 7);
}

START_TEST(test_emit_while_stop_or_shutdown_drops_the_rings_is_not_captured)
{
    for (int shutdown = 0; shutdown < 2; shutdown++) {
        ntsim_fixture_begin(1000, 10, 4242);
        start_small();
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                                  NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 1),
                          1);
        sink_emits = 0;
        sink_emit_result = 99;
        ntsim_log_set_sink(emitting_sink, NULL);
        if (shutdown)
            ntsim_capture_shutdown();
        else
            ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
        ntsim_log_set_sink(NULL, NULL);
        ck_assert_int_eq(sink_emits, 1);
        ck_assert_uint_eq(sink_emit_result, 0);
        ck_assert(!ntsim_capture_is_capturing());
        ntsim_fixture_end();
    }
}
END_TEST

/* D-CLOCK-READ: without a clock hook, timestamp_ns is CLOCK_REALTIME in
 * nanoseconds, tv_sec * 10^9 + tv_nsec, read once per emit: each event's
 * stamp lies between two CLOCK_REALTIME reads taken around its emit. */
static uint64_t realtime_ns(void)
{
    struct timespec ts;
    ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &ts), 0);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

START_TEST(test_default_clock_stamps_realtime_nanoseconds)
{
    ck_assert_int_eq(ntsim_capture_set_hooks(NULL), NRT_SUCCESS);
    start_small();
    uint64_t bounds[3];
    bounds[0] = realtime_ns();
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            3, NULL, 1);
    bounds[1] = realtime_ns();
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC, NRT_SYS_TRACE_EVENT_PHASE_INSTANT,
                            3, NULL, 2);
    bounds[2] = realtime_ns();
    nrt_sys_trace_event_t out[2];
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(3, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_uint_ge(out[i].timestamp_ns, bounds[i]);
        ck_assert_uint_le(out[i].timestamp_ns, bounds[i + 1]);
    }
}
END_TEST

/* ring.h: ntsim__capture_skip_to names an NC by nc_idx in [0, 255]; any
 * other index has no NC and so no ring: false, nothing changed. An NC that
 * captures and has pushed nothing is moved: the next seq is pos, and the
 * derived id pos | nc_idx << 50 (facts §5). */
START_TEST(test_skip_to_refuses_an_nc_index_out_of_range)
{
    start_small();
    ck_assert(!ntsim__capture_skip_to(NTSIM_NC_COUNT, 4096));
    ck_assert(!ntsim__capture_skip_to(UINT32_MAX, 4096));
    ck_assert(!ntsim__capture_skip_to(1, 4096)); /* no ring */
    ck_assert(ntsim__capture_skip_to(3, 4096));
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 0),
                      4096 | (UINT64_C(3) << 50));
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 0),
                      0); /* NC 0 untouched: its first seq is 0 */
}
END_TEST

/* include/ntsim/capture.h: an emit returns 0 when the event was not
 * captured. A thread's first emit registers it (engine/capture/grace.h), and with
 * no memory for its record (allocated, like every engine block, through
 * ntsim_replace_allocator) the event cannot be captured: 0, nothing pushed.
 * ntsim_capture_shutdown frees the caller's record and those of exited
 * threads, so the next emit of this thread must allocate one; once memory
 * is back, it registers and captures (the caller's id, 55). */
START_TEST(test_emit_without_memory_for_the_thread_record_returns_0)
{
    ntsim_capture_shutdown();
    start_small();
    ntsim_probe_begin(0);
    uint64_t id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                          NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 55);
    ntsim_probe_end();
    ck_assert_uint_eq(id, 0);
    ck_assert_uint_eq(ntsim_probe.refused, 1); /* the record, through the replaceable allocator */
    ck_assert_uint_eq(stats_of(3).created, 0);
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 3, NULL, 55),
                      55);
    ck_assert_uint_eq(stats_of(3).created, 1);
}
END_TEST

Suite *make_capture_suite(void)
{
    Suite *s = suite_create("capture");
    TCase *tc = tcase_create("capture");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_emit_while_not_capturing_captures_nothing);
    tcase_add_test(tc, test_start_rejects_a_null_config);
    tcase_add_test(tc, test_second_start_warns_returns_failure_and_keeps_capturing);
    tcase_add_test(tc, test_stop_when_not_capturing_warns_and_fails);
    tcase_add_test(tc, test_start_clamps_max_events_per_nc);
    tcase_add_test(tc, test_rings_exist_only_for_enabled_ncs);
    tcase_add_test(tc, test_disabled_type_is_not_captured);
    tcase_add_test(tc, test_type_out_of_range_is_dropped_counted_and_warned_once);
    tcase_add_test(tc, test_nc_out_of_range_is_redirected_to_nc_0);
    tcase_add_test(tc, test_tracking_id_is_the_callers_or_derived_from_seq);
    tcase_add_test(tc, test_start_and_stop_share_the_tracking_id);
    tcase_add_test(tc, test_stop_drops_undrained_events_and_counts_them);
    tcase_add_test(tc, test_overflow_counts_overwritten_with_times);
    tcase_add_test(tc, test_drain_rejects_bad_arguments);
    tcase_add_test(tc, test_refused_drains_and_fetches_lose_nothing_captured);
    tcase_add_test(tc, test_hooks_cannot_change_while_capturing);
    tcase_add_test(tc, test_payload_holes_padding_and_unused_bytes_are_zero);
    tcase_add_test(tc, test_null_or_absent_payload_is_zero_in_a_reused_slot);
    tcase_add_test(tc, test_start_clears_the_last_counters_of_an_nc_it_does_not_capture);
    tcase_add_test(tc, test_shutdown_clears_every_counter_but_sessions);
    tcase_add_test(tc, test_nrta_seq_id_is_recorded_only_by_the_with_seq_shim);
    tcase_add_test(tc, test_config_defaults_and_setters);
    tcase_add_test(tc, test_get_event_types_lists_every_name_by_value);
    tcase_add_test(tc, test_fetch_options_defaults_and_setters);
    tcase_add_test(tc, test_event_type_category_api);
    tcase_add_test(tc, test_status_string_is_the_enumerator_name);
    tcase_add_test(tc, test_start_resets_the_json_phase_mismatch_counts_and_warnings);
    tcase_add_test(tc, test_start_logs_first_touch_mapping_only_over_the_ring_budget);
    tcase_add_test(tc, test_start_prefaults_a_session_of_exactly_the_ring_budget);
    tcase_add_test(tc, test_seq_warning_starts_exactly_at_two_to_the_fifty);
    tcase_add_test(tc, test_start_with_a_null_config_logs_an_error);
    tcase_add_test(tc, test_start_counts_one_session_and_resets_the_session_counters);
    tcase_add_test(tc, test_seq_warning_is_logged_again_in_the_next_session);
    tcase_add_test(tc, test_start_maps_on_first_touch_just_over_the_ring_budget);
    tcase_add_test(tc, test_start_picks_membarrier_where_the_kernel_offers_it);
    tcase_add_test(tc, test_start_that_cannot_map_a_ring_frees_the_others);
    tcase_add_test(tc, test_stop_logs_each_nc_with_undrained_events_once);
    tcase_add_test(tc, test_nc_stats_rejects_nc_256_and_null);
    tcase_add_test(tc, test_global_stats_count_successful_starts_only);
    tcase_add_test(tc, test_set_hooks_while_capturing_warns_and_changes_nothing);
    tcase_add_test(tc, test_emit_while_stop_or_shutdown_drops_the_rings_is_not_captured);
    tcase_add_test(tc, test_default_clock_stamps_realtime_nanoseconds);
    tcase_add_test(tc, test_skip_to_refuses_an_nc_index_out_of_range);
    tcase_add_test(tc, test_emit_without_memory_for_the_thread_record_returns_0);
    suite_add_tcase(s, tc);
    return s;
}
