/*
 * conformance/unit/engine/capture/check_capture.c: the capture engine's API
 * (engine/capture/capture.c): emits and their gates, tracking ids, drains
 * and fetches, stop and shutdown and the counters they keep, hooks, and
 * payload bytes. A session's start is in check_capture_start.c, the
 * configuration API in check_config.c.
 *
 * Byte-exact records are pinned by vectors/record_*.yaml; these tests pin
 * the status codes, the counters and the gates, each value
 * worked out from facts §4/§5 or a decision in docs/decisions.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc_probe.h"
#include "check_capture.h"
#include "ntsim/convert.h"
#include "ring.h"

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
