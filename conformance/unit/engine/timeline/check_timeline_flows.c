/*
 * conformance/unit/engine/timeline/check_timeline_flows.c: executions and their flows
 * (engine/timeline/timeline.c, stage 3; D-TIMELINE, D-TIMELINE-ORDER "Flows"):
 * the exec_id an nrt_execute takes from the exec stages its thread runs
 * inside it, and the device spans of that id its flows reach.
 */
#include "check_timeline.h"

/* D-TIMELINE, flows: the nrt_execute of thread 7 (item 0) takes exec_id 2
 * from its kbl_exec_pre, the one of thread 8 (item 2) exec_id 1 from its
 * own; so in thread order the (nc, exec_id) keys are (0, 2), (0, 1). The
 * nc_exec_running spans with exec_id 1 (item 4) and 2 (item 5) each get a
 * flow from their nrt_execute: (0 -> 5) and (2 -> 4), numbered 1 and 2 in
 * order of (source, destination). */
START_TEST(test_flows_find_executions_whose_exec_ids_fall_in_thread_order)
{
    nrt_sys_trace_event_t r[12];
    execute_around_stage(r, 0, 0, 7, 1, 1000, 2000, 2, 1100, 1200, 2);
    execute_around_stage(r, 4, 0, 8, 3, 1000, 2000, 4, 1100, 1200, 1);
    device_exec_span(r, 8, 0, 7, 5, 1300, 1400, 1);
    device_exec_span(r, 10, 0, 7, 6, 1500, 1600, 2);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 12, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 6);
    ck_assert_uint_eq(tl.items[0].exec_id, 2);
    ck_assert_uint_eq(tl.items[2].exec_id, 1);
    ck_assert_uint_eq(tl.nflows, 2);
    ck_assert_uint_eq(tl.flows[0].id, 1);
    ck_assert_uint_eq(tl.flows[0].from, 0);
    ck_assert_uint_eq(tl.flows[0].to, 5);
    ck_assert_uint_eq(tl.flows[1].id, 2);
    ck_assert_uint_eq(tl.flows[1].from, 2);
    ck_assert_uint_eq(tl.flows[1].to, 4);
    ck_assert_uint_eq(tl.items[5].flow_in, 1);
    ck_assert_uint_eq(tl.items[4].flow_in, 2);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, flows: of several nrt_execute spans of one (nc,
 * exec_id), the flow starts at the one that begins last, whatever the
 * record order. NC 0: thread 7's nrt_execute [3000,4000] (records 0-3, item
 * 0) runs a kbl_exec_pre of exec_id 5 (item 1); thread 8's [1000,2000]
 * (records 4-7, item 2) runs one of exec_id 5 too (item 3); an
 * nc_exec_running of exec_id 5 [5000,5100] (item 4, no sync: unaligned,
 * its own times). Both nrt_execute spans take exec_id 5; item 0 begins
 * last (3000 > 1000), so the one flow is 1: item 0 -> item 4. */
START_TEST(test_flow_starts_at_the_execution_of_its_exec_id_that_begins_last)
{
    nrt_sys_trace_event_t r[10];
    execute_around_stage(r, 0, 0, 7, 1, 3000, 4000, 2, 3100, 3200, 5);
    execute_around_stage(r, 4, 0, 8, 3, 1000, 2000, 4, 1100, 1200, 5);
    device_exec_span(r, 8, 0, 7, 5, 5000, 5100, 5);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 10, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 5);
    ck_assert_uint_eq(tl.items[0].begin, 3000);
    ck_assert_uint_eq(tl.items[2].begin, 1000);
    ck_assert_uint_eq(tl.items[0].exec_id, 5);
    ck_assert_uint_eq(tl.items[2].exec_id, 5);
    ck_assert_uint_eq(tl.nflows, 1);
    ck_assert_uint_eq(tl.flows[0].id, 1);
    ck_assert_uint_eq(tl.flows[0].from, 0);
    ck_assert_uint_eq(tl.flows[0].to, 4);
    ck_assert_uint_eq(tl.items[0].flows_count, 1);
    ck_assert_uint_eq(tl.items[0].flows_first, 0);
    ck_assert_uint_eq(tl.items[2].flows_count, 0);
    ck_assert_uint_eq(tl.items[4].flow_in, 1);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, flows: an nrt_execute takes the exec_id of an exec-stage
 * span that begins inside it (at or after its begin), not of one that
 * begins before it. NC 0, thread 7: kbl_exec_pre of exec_id 9 [500,600]
 * (item 0), then the thread's only nrt_execute [1000,2000] (item 1), then an
 * nc_exec_running of exec_id 9 [2500,2600] (item 2, unaligned). The stage
 * begins before the nrt_execute: item 1 keeps exec_id 0 and no flow is
 * drawn. */
START_TEST(test_execution_ignores_an_exec_stage_that_begins_before_it)
{
    nrt_sys_trace_event_t r[6];
    exec_pre_span(r, 0, 0, 7, 2, 500, 600, 9);
    r[2] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 2, 2);
    r[3] = rec(TY(EXECUTE_API), T, 0, 7, 1, 2000, 3, 3);
    device_exec_span(r, 4, 0, 7, 5, 2500, 2600, 9);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 3);
    ck_assert_uint_eq(tl.items[0].exec_id, 9);
    ck_assert_uint_eq(tl.items[1].type, TY(EXECUTE_API));
    ck_assert_uint_eq(tl.items[1].exec_id, 0);
    ck_assert_uint_eq(tl.items[2].exec_id, 9);
    ck_assert_uint_eq(tl.nflows, 0);
    ck_assert_uint_eq(tl.items[1].flows_count, 0);
    ck_assert_uint_eq(tl.items[2].flow_in, 0);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, flows, with records out of thread and time order. NC 0:
 *   r0-1    kbl_exec_pre of thread 7, exec_id 7, [1100,1200]   item 0
 *   r2, r5  nrt_execute of thread 9 [1000,2000]                item 1
 *   r3-4    kbl_exec_pre of thread 9, exec_id 9, [1100,1200]   item 2
 *   r6, r9  nrt_execute of thread 8 [1000,2000]                item 3
 *   r7-8    kbl_exec_pre of thread 8, exec_id 8, [1100,1200]   item 4
 *   r10-11  nrt_execute of thread 7 [1000,2000]                item 5
 *   then nc_exec_running spans (unaligned: their own times) of exec_id 9
 *   [3000,3100] (item 6), 7 [3200,3300] (item 7), 8 [3400,3500] (item 8)
 *   and 9 [3600,3700] (item 9).
 * Each nrt_execute takes its thread's stage: item 1 exec_id 9, item 3 8,
 * item 5 7 (its stage, item 0, was recorded before it). Flows by (source,
 * destination): 1 (1 -> 6), 2 (1 -> 9), 3 (3 -> 8), 4 (5 -> 7); so item 1
 * holds flows 0-1, item 3 flow 2, item 5 flow 3. */
START_TEST(test_flows_of_executions_recorded_out_of_thread_order)
{
    nrt_sys_trace_event_t r[20];
    exec_pre_span(r, 0, 0, 7, 2, 1100, 1200, 7);
    execute_around_stage(r, 2, 0, 9, 10, 1000, 2000, 11, 1100, 1200, 9);
    execute_around_stage(r, 6, 0, 8, 20, 1000, 2000, 21, 1100, 1200, 8);
    r[10] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 10, 10);
    r[11] = rec(TY(EXECUTE_API), T, 0, 7, 1, 2000, 11, 11);
    static const uint32_t dev_exec[4] = {9, 7, 8, 9};
    for (int d = 0; d < 4; d++) {
        uint64_t t = 3000 + 200 * (uint64_t)d, id = 12 + 2 * (uint64_t)d;
        r[id] = rec(TY(DEVICE_EXEC), S, 0, 7, 30 + (uint64_t)d, t, id, id);
        r[id].data.nc_exec_start.exec_id = dev_exec[d];
        r[id + 1] = rec(TY(DEVICE_EXEC), T, 0, 7, 30 + (uint64_t)d, t + 100, id + 1, id + 1);
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 20, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 10);
    ck_assert_uint_eq(tl.items[1].exec_id, 9);
    ck_assert_uint_eq(tl.items[3].exec_id, 8);
    ck_assert_uint_eq(tl.items[5].exec_id, 7);
    static const size_t from[4] = {1, 1, 3, 5}, to[4] = {6, 9, 8, 7};
    ck_assert_uint_eq(tl.nflows, 4);
    for (size_t f = 0; f < 4; f++) {
        ck_assert_uint_eq(tl.flows[f].id, f + 1);
        ck_assert_uint_eq(tl.flows[f].from, from[f]);
        ck_assert_uint_eq(tl.flows[f].to, to[f]);
        ck_assert_uint_eq(tl.items[to[f]].flow_in, f + 1);
    }
    ck_assert_uint_eq(tl.items[1].flows_count, 2);
    ck_assert_uint_eq(tl.items[1].flows_first, 0);
    ck_assert_uint_eq(tl.items[3].flows_count, 1);
    ck_assert_uint_eq(tl.items[3].flows_first, 2);
    ck_assert_uint_eq(tl.items[5].flows_count, 1);
    ck_assert_uint_eq(tl.items[5].flows_first, 3);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, flows: only exec-stage spans (17-20) lend an exec_id,
 * one beginning at the nrt_execute's very end still does, and flows go to
 * device spans only. NC 0, thread 7: nrt_execute [1000,2000] (item 0); an
 * nc_exec_running span of exec_id 5 [1100,1150] inside it (item 1, device,
 * unaligned: not a stage); a kbl_exec_pre of exec_id 6 beginning at 2000
 * (item 2); an nc_exec_running span of exec_id 6 [2500,2600] (item 3); an
 * nc_exec_running START of exec_id 6 at 2700 with no STOP (item 4, an
 * unmatched-start instant). Item 0 takes exec_id 6; one flow, 1: 0 -> 3. */
START_TEST(test_execution_takes_exec_id_of_stages_only_up_to_its_end_and_flows_to_spans)
{
    nrt_sys_trace_event_t r[9];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 0, 0);
    device_exec_span(r, 1, 0, 7, 2, 1100, 1150, 5);
    exec_pre_span(r, 3, 0, 7, 3, 2000, 2100, 6);
    r[5] = rec(TY(EXECUTE_API), T, 0, 7, 1, 2000, 5, 5);
    device_exec_span(r, 6, 0, 7, 4, 2500, 2600, 6);
    r[8] = rec(TY(DEVICE_EXEC), S, 0, 7, 5, 2700, 8, 8);
    r[8].data.nc_exec_start.exec_id = 6;
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 9, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 5);
    ck_assert_uint_eq(tl.items[0].end, 2000);
    ck_assert_uint_eq(tl.items[2].begin, 2000);
    ck_assert_uint_eq(tl.items[4].flags & (NTSIM_TL_SPAN | NTSIM_TL_UNMATCHED_START),
                      NTSIM_TL_UNMATCHED_START);
    ck_assert_uint_eq(tl.items[0].exec_id, 6);
    ck_assert_uint_eq(tl.nflows, 1);
    ck_assert_uint_eq(tl.flows[0].id, 1);
    ck_assert_uint_eq(tl.flows[0].from, 0);
    ck_assert_uint_eq(tl.flows[0].to, 3);
    ck_assert_uint_eq(tl.items[1].flow_in, 0);
    ck_assert_uint_eq(tl.items[3].flow_in, 1);
    ck_assert_uint_eq(tl.items[4].flow_in, 0);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, flows: a device span recorded before its nrt_execute
 * still gets its flow. NC 0, thread 7: nc_exec_running of exec_id 4
 * [3000,3100] (records 0 and 5, item 0, unaligned); nrt_execute [1000,2000]
 * (item 1) around a kbl_exec_pre of exec_id 4 (item 2). One flow, 1: 1 -> 0. */
START_TEST(test_flow_reaches_a_device_span_recorded_before_its_execution)
{
    nrt_sys_trace_event_t r[6];
    r[0] = rec(TY(DEVICE_EXEC), S, 0, 7, 9, 3000, 0, 0);
    r[0].data.nc_exec_start.exec_id = 4;
    execute_around_stage(r, 1, 0, 7, 1, 1000, 2000, 2, 1100, 1200, 4);
    r[5] = rec(TY(DEVICE_EXEC), T, 0, 7, 9, 3100, 5, 5);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 3);
    ck_assert_uint_eq(tl.items[1].exec_id, 4);
    ck_assert_uint_eq(tl.nflows, 1);
    ck_assert_uint_eq(tl.flows[0].id, 1);
    ck_assert_uint_eq(tl.flows[0].from, 1);
    ck_assert_uint_eq(tl.flows[0].to, 0);
    ck_assert_uint_eq(tl.items[0].flow_in, 1);
    ck_assert_uint_eq(tl.items[1].flows_count, 1);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE, flows: an nrt_execute takes the exec id of the exec-stage
 * spans (17-20) its thread runs inside it, kbl_exec_post (20) included, and
 * of no other span: an enc_barrier (16) carrying exec_id 5 inside it, before
 * the kbl_exec_post of exec 9, gives it nothing. NC 0, thread 7:
 *   r0/r5 nrt_execute [1000,2000]; r1/r2 enc_barrier [1050,1060] exec 5;
 *   r3/r4 kbl_exec_post [1100,1200] exec 9; r6/r7 nc_exec_running
 *   [1300,1400] exec 9 (no sync pair: keeps its emit times).
 * Items: i0 nrt_execute, i1 enc_barrier, i2 kbl_exec_post, i3 nc_exec_running;
 * i0 takes exec_id 9, and one flow (id 1) goes from i0 to i3. */
START_TEST(test_execute_takes_the_exec_id_of_kbl_exec_post_and_not_of_enc_barrier)
{
    nrt_sys_trace_event_t r[8];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(ENC_BARRIER), S, 0, 7, 2, 1050, 1, 1);
    r[1].data.enc_barrier.exec_id = 5;
    r[2] = rec(TY(ENC_BARRIER), T, 0, 7, 2, 1060, 2, 2);
    r[2].data = r[1].data;
    r[3] = rec(TY(EXEC_POST), S, 0, 7, 3, 1100, 3, 3);
    r[3].data.exec_post.exec_id = 9;
    r[4] = rec(TY(EXEC_POST), T, 0, 7, 3, 1200, 4, 4);
    r[4].data = r[3].data;
    r[5] = rec(TY(EXECUTE_API), T, 0, 7, 1, 2000, 5, 5);
    device_exec_span(r, 6, 0, 7, 4, 1300, 1400, 9);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 8, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 4);
    ck_assert_uint_eq(tl.items[0].type, TY(EXECUTE_API));
    ck_assert_uint_eq(tl.items[0].exec_id, 9);
    ck_assert_uint_eq(tl.items[1].exec_id, 5);
    ck_assert_uint_eq(tl.items[2].exec_id, 9);
    ck_assert_uint_eq(tl.nflows, 1);
    ck_assert_uint_eq(tl.flows[0].id, 1);
    ck_assert_uint_eq(tl.flows[0].from, 0);
    ck_assert_uint_eq(tl.flows[0].to, 3);
    ck_assert_uint_eq(tl.items[3].flow_in, 1);
    ntsim__timeline_free(&tl);
}
END_TEST

Suite *make_timeline_flows_suite(void)
{
    Suite *s = suite_create("timeline_flows");
    TCase *tc = tcase_create("timeline_flows");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_flows_find_executions_whose_exec_ids_fall_in_thread_order);
    tcase_add_test(tc, test_execute_takes_the_exec_id_of_kbl_exec_post_and_not_of_enc_barrier);
    tcase_add_test(tc, test_flow_starts_at_the_execution_of_its_exec_id_that_begins_last);
    tcase_add_test(tc, test_execution_ignores_an_exec_stage_that_begins_before_it);
    tcase_add_test(tc, test_flows_of_executions_recorded_out_of_thread_order);
    tcase_add_test(tc, test_execution_takes_exec_id_of_stages_only_up_to_its_end_and_flows_to_spans);
    tcase_add_test(tc, test_flow_reaches_a_device_span_recorded_before_its_execution);
    suite_add_tcase(s, tc);
    return s;
}
