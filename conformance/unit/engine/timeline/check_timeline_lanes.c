/*
 * conformance/unit/engine/timeline/check_timeline_lanes.c: lanes
 * (engine/timeline/timeline_lanes.c; D-TIMELINE-ORDER): items grouped by lane
 * key and placed by begin, spans nested or sent to an overflow lane, the
 * lanes' names and tids, the DMA lane's types, and the core of a device item
 * or a drop that names none.
 */
#include <stdio.h>

#include "check_timeline.h"

/* D-TIMELINE-ORDER: within a lane group, at equal begins the longer span is
 * placed first (it is the outer), whatever the record order; and a host
 * overflow lane's tid is 0x7D000000 + k, k counting them in lane order.
 * Thread 7: i0 [1000,1500] then i1 [1000,2000] (record order): placed i1,
 * i0, i0 nests in i1, one lane "thread 7". Thread 9: i2 [3000,4000], i3
 * [3500,4500], i4 [3800,5000], each crossing the ones before: lanes
 * "thread 9", "... (overlap 1)" tid 0x7D000000 = 2097152000, "... (overlap
 * 2)" tid 0x7D000001 = 2097152001. */
START_TEST(test_lanes_put_the_longer_span_first_and_number_host_overflow_tids_up)
{
    nrt_sys_trace_event_t r[10];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), S, 0, 7, 2, 1000, 1, 1);
    r[2] = rec(TY(EXECUTE_API), T, 0, 7, 1, 1500, 2, 2);
    r[3] = rec(TY(EXECUTE_API), T, 0, 7, 2, 2000, 3, 3);
    r[4] = rec(TY(EXECUTE_API), S, 0, 9, 3, 3000, 4, 4);
    r[5] = rec(TY(EXECUTE_API), S, 0, 9, 4, 3500, 5, 5);
    r[6] = rec(TY(EXECUTE_API), S, 0, 9, 5, 3800, 6, 6);
    r[7] = rec(TY(EXECUTE_API), T, 0, 9, 3, 4000, 7, 7);
    r[8] = rec(TY(EXECUTE_API), T, 0, 9, 4, 4500, 8, 8);
    r[9] = rec(TY(EXECUTE_API), T, 0, 9, 5, 5000, 9, 9);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 10, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 5);
    ck_assert_uint_eq(tl.nlanes, 4);
    static const char *const name[4] = {"thread 7", "thread 9", "thread 9 (overlap 1)",
                                        "thread 9 (overlap 2)"};
    static const uint32_t tid[4] = {7, 9, UINT32_C(0x7D000000), UINT32_C(0x7D000001)};
    for (size_t l = 0; l < 4; l++) {
        ck_assert_str_eq(tl.lanes[l].name, name[l]);
        ck_assert_uint_eq(tl.lanes[l].tid, tid[l]);
    }
    static const uint32_t lane[5] = {0, 0, 1, 2, 3};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_uint_eq(tl.items[i].begin, i < 2 ? 1000 : i == 2 ? 3000 : i == 3 ? 3500 : 3800);
        ck_assert_msg(tl.items[i].lane == lane[i], "item %zu on lane %u", i, tl.items[i].lane);
    }
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER: within a lane group items are placed in order of begin,
 * not in record order. Thread 7's records hold span A (1: 3000..4000) before
 * span B (2: 1000..5000), so item 0 is A and item 1 is B; placed by begin, B
 * comes first on lane 0 and A nests inside it (4000 <= 5000): one lane, no
 * overflow. Placed in record order, B would cross A and go to an overlap lane. */
START_TEST(test_lanes_place_a_group_by_begin_not_by_record_order)
{
    nrt_sys_trace_event_t r[4];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 3000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), S, 0, 7, 2, 1000, 1, 1);
    r[2] = rec(TY(EXECUTE_API), T, 0, 7, 1, 4000, 2, 2);
    r[3] = rec(TY(EXECUTE_API), T, 0, 7, 2, 5000, 3, 3);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 2);
    ck_assert_uint_eq(tl.items[0].begin, 3000);
    ck_assert_uint_eq(tl.items[0].end, 4000);
    ck_assert_uint_eq(tl.items[1].begin, 1000);
    ck_assert_uint_eq(tl.items[1].end, 5000);
    ck_assert_uint_eq(tl.nlanes, 1);
    ck_assert_str_eq(tl.lanes[0].name, "thread 7");
    ck_assert_uint_eq(tl.lanes[0].tid, 7);
    ck_assert_uint_eq(tl.lanes[0].spans, 2);
    ck_assert_uint_eq(tl.items[0].lane, 0);
    ck_assert_uint_eq(tl.items[1].lane, 0);
    /* the span edges in time order: B begins, A begins, A ends, B ends */
    static const uint64_t ts[4] = {1000, 3000, 4000, 5000};
    static const size_t item[4] = {1, 0, 0, 1};
    static const ntsim_tl_edge_kind_t kind[4] = {NTSIM_TL_BEGIN, NTSIM_TL_BEGIN, NTSIM_TL_END,
                                                 NTSIM_TL_END};
    size_t n = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind == NTSIM_TL_SAMPLE)
            continue;
        ck_assert_uint_lt(n, 4);
        ck_assert_uint_eq(tl.edges[e].ts, ts[n]);
        ck_assert_uint_eq(tl.edges[e].index, item[n]);
        ck_assert_int_eq(tl.edges[e].kind, kind[n]);
        n++;
    }
    ck_assert_uint_eq(n, 4);
    ntsim__timeline_free(&tl);
}
END_TEST

/* The edges of a timeline that are not counter samples, as "B0 E0 I2 ..."
 * (kind, item), in the timeline's order. */
static void item_edges(const ntsim_timeline_t *tl, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < tl->nedges; i++) {
        const ntsim_tl_edge_t *ed = &tl->edges[i];
        if (ed->kind == NTSIM_TL_SAMPLE)
            continue;
        char k = ed->kind == NTSIM_TL_BEGIN ? 'B' : ed->kind == NTSIM_TL_END ? 'E' : 'I';
        int w = snprintf(out + used, cap - used, "%s%c%zu@%llu", used ? " " : "", k, ed->index,
                         (unsigned long long)ed->ts);
        ck_assert(w > 0 && (size_t)w < cap - used);
        used += (size_t)w;
    }
}

/* D-TIMELINE-ORDER, lanes: an item goes to the first lane "where it nests
 * (its end not after the innermost open span's, once the spans ended by its
 * begin are closed)". Thread 7: i0 [1000,2000], i1 [2000,3000] starting as
 * i0 ends, i2 [2500,3000] ending with i1. By hand: i0 has ended by i1's
 * begin, so it is closed and i1 opens on lane 0; i2's end 3000 is not after
 * i1's 3000, so it nests in i1 on lane 0: one lane "thread 7", no overflow.
 * Edges (samples left out): i0's end at 2000 before i1's begin at 2000 (the
 * ends its begin closes come first), and at 3000 the inner i2 ends before
 * i1. */
START_TEST(test_lanes_close_a_span_ending_at_a_begin_and_nest_an_equal_end)
{
    nrt_sys_trace_event_t r[6];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), T, 0, 7, 1, 2000, 1, 1);
    r[2] = rec(TY(EXECUTE_API), S, 0, 7, 2, 2000, 2, 2);
    r[3] = rec(TY(EXECUTE_API), S, 0, 7, 3, 2500, 3, 3);
    r[4] = rec(TY(EXECUTE_API), T, 0, 7, 3, 3000, 4, 4);
    r[5] = rec(TY(EXECUTE_API), T, 0, 7, 2, 3000, 5, 5);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 3);
    ck_assert_uint_eq(tl.nlanes, 1);
    ck_assert_str_eq(tl.lanes[0].name, "thread 7");
    ck_assert_uint_eq(tl.lanes[0].spans, 3);
    for (size_t i = 0; i < 3; i++)
        ck_assert_msg(tl.items[i].lane == 0, "item %zu on lane %u", i, tl.items[i].lane);
    char got[256];
    item_edges(&tl, got, sizeof got);
    ck_assert_str_eq(got, "B0@1000 E0@2000 B1@2000 B2@2500 E2@3000 E1@3000");
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER: host items are grouped by (0, thread_id), and thread id
 * 0 is a thread like any other (the thread-id hook may give it). A trace of
 * thread 0 alone, one span [1000,2000] and an instant at 1500, is one lane
 * "thread 0" holding 1 span and 1 instant, with the edges B0, I1, E0 and
 * nothing else (the setup fills new memory with zeros, so a key read past
 * the last one would look like thread 0's). */
START_TEST(test_lanes_of_a_trace_of_thread_zero_alone_hold_each_item_once)
{
    nrt_sys_trace_event_t r[3];
    r[0] = rec(TY(EXECUTE_API), S, 0, 0, 1, 1000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 0, 0, 1500, 1, 1);
    r[2] = rec(TY(EXECUTE_API), T, 0, 0, 1, 2000, 2, 2);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 3, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 2);
    ck_assert_uint_eq(tl.nlanes, 1);
    ck_assert_str_eq(tl.lanes[0].name, "thread 0");
    ck_assert_uint_eq(tl.lanes[0].tid, 0);
    ck_assert_uint_eq(tl.lanes[0].spans, 1);
    ck_assert_uint_eq(tl.lanes[0].instants, 1);
    char got[256];
    item_edges(&tl, got, sizeof got);
    ck_assert_str_eq(got, "B0@1000 I1@1500 E0@2000");
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, names: `NC <nc> core <core>` only for an NC whose
 * device items name several cores, `NC <nc> (no core)` only beside such
 * lanes, else `NC <nc>`. A trace read from a file may hold any nc_idx, 256
 * (one past the last NC slot) included. With a host span first (thread 7,
 * [1000,2000]) and one device instant of NC 256 at 1500: naming core 0 (a
 * hw_notify with device_core_idx 0, no device time: unaligned, keeps its
 * time), its NC names one core; naming none (an nc_exec_running INSTANT, no
 * payload), its NC names none. Either way lane 1 is plain "NC 256". */
START_TEST(test_lanes_of_nc_256_are_named_nc_256)
{
    for (int with_core = 0; with_core < 2; with_core++) {
        nrt_sys_trace_event_t r[3];
        r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 0, 0);
        r[1] = rec(TY(EXECUTE_API), T, 0, 7, 1, 2000, 1, 1);
        if (with_core) {
            r[2] = rec(TY(HW_NOTIFY), I, 256, 7, 0, 1500, 0, 2);
            r[2].data.hw_notify.device_core_idx = 0;
        } else {
            r[2] = rec(TY(DEVICE_EXEC), I, 256, 7, 0, 1500, 0, 2);
        }
        ntsim_timeline_t tl;
        ck_assert_int_eq(ntsim__timeline_build(r, 3, NULL, &tl), NRT_SUCCESS);
        ck_assert_uint_eq(tl.nitems, 2);
        ck_assert_uint_eq(tl.nlanes, 2);
        ck_assert_str_eq(tl.lanes[0].name, "thread 7");
        ck_assert_msg(strcmp(tl.lanes[1].name, "NC 256") == 0, "with_core %d: lane 1 \"%s\"",
                      with_core, tl.lanes[1].name);
        ck_assert_uint_eq(tl.items[1].lane, 1);
        ntsim__timeline_free(&tl);
    }
}
END_TEST

/* The same rule past the engine's 256 NCs: an imported trace's NC 300 whose
 * device items name cores 1 and 0 (two hw_notify instants, at 1100 and 1200)
 * and none (an nc_exec_running instant at 1300) gets, after the host span
 * (thread 7, [1000,2000]), the lanes of its groups in key order (D-TIMELINE-
 * ORDER: `(1, nc, NC lane, core)`, no core sorting last as 0xFFFFFFFF):
 * "NC 300 core 0", "NC 300 core 1", "NC 300 (no core)". Lanes of NC 301,
 * whose one item names core 5, are plain "NC 301". */
START_TEST(test_lanes_of_an_nc_past_255_with_several_cores_are_named_per_core)
{
    nrt_sys_trace_event_t r[6];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), T, 0, 7, 1, 2000, 1, 1);
    r[2] = rec(TY(HW_NOTIFY), I, 300, 7, 0, 1100, 0, 2);
    r[2].data.hw_notify.device_core_idx = 1;
    r[3] = rec(TY(HW_NOTIFY), I, 300, 7, 0, 1200, 0, 3);
    r[3].data.hw_notify.device_core_idx = 0;
    r[4] = rec(TY(DEVICE_EXEC), I, 300, 7, 0, 1300, 0, 4);
    r[5] = rec(TY(HW_NOTIFY), I, 301, 7, 0, 1400, 0, 5);
    r[5].data.hw_notify.device_core_idx = 5;
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 5);
    ck_assert_uint_eq(tl.nlanes, 5);
    ck_assert_str_eq(tl.lanes[0].name, "thread 7");
    ck_assert_str_eq(tl.lanes[1].name, "NC 300 core 0");
    ck_assert_str_eq(tl.lanes[2].name, "NC 300 core 1");
    ck_assert_str_eq(tl.lanes[3].name, "NC 300 (no core)");
    ck_assert_str_eq(tl.lanes[4].name, "NC 301");
    /* items in record order: the span, then r[2..5] */
    ck_assert_uint_eq(tl.items[1].lane, 2);
    ck_assert_uint_eq(tl.items[2].lane, 1);
    ck_assert_uint_eq(tl.items[3].lane, 3);
    ck_assert_uint_eq(tl.items[4].lane, 4);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE, lanes: per NC, "notifications & DMA" holds the DMA copies and
 * allocations (30-35) and the notification-queue drains (36-39), both ends
 * included; their neighbours 29 (tensor_block_while_exec) and 40
 * (cc_prepare) are the runtime's and stay on their thread. NC 2, thread 7:
 *   r0 tensor_block_while_exec INST 1000; r1/r2 dmem_buf_copyin START/STOP
 *   [1100,1200]; r3 consume_pool_stdio INST 1300; r4 cc_prepare INST 1400
 * (nc_local_id 0..4: no gap). Items i0 (29), i1 (30, span), i2 (39), i3
 * (40); lanes by key: 0 "thread 7" (host) with i0 and i3, 1 "NC 2
 * notifications & DMA" with i1 and i2. */
START_TEST(test_dma_lane_takes_types_30_through_39_and_not_29_or_40)
{
    nrt_sys_trace_event_t r[5];
    r[0] = rec(TY(TENSOR_BLOCK_WHILE_EXEC), I, 2, 7, 0, 1000, 0, 0);
    r[1] = rec(TY(DMEM_BUF_COPYIN), S, 2, 7, 1, 1100, 1, 1);
    r[2] = rec(TY(DMEM_BUF_COPYIN), T, 2, 7, 1, 1200, 2, 2);
    r[3] = rec(TY(CONSUME_POOL_STDIO), I, 2, 7, 0, 1300, 3, 3);
    r[4] = rec(TY(CC_PREPARE), I, 2, 7, 0, 1400, 4, 4);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 5, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 4);
    ck_assert_uint_eq(tl.nlanes, 2);
    ck_assert_str_eq(tl.lanes[0].name, "thread 7");
    ck_assert_int_eq(tl.lanes[0].kind, NTSIM_TL_LANE_THREAD);
    ck_assert_str_eq(tl.lanes[1].name, "NC 2 notifications & DMA");
    ck_assert_int_eq(tl.lanes[1].kind, NTSIM_TL_LANE_DMA);
    ck_assert_uint_eq(tl.items[0].type, TY(TENSOR_BLOCK_WHILE_EXEC));
    ck_assert_uint_eq(tl.items[0].lane, 0);
    ck_assert_uint_eq(tl.items[1].type, TY(DMEM_BUF_COPYIN));
    ck_assert_uint_eq(tl.items[1].lane, 1);
    ck_assert_uint_eq(tl.items[2].type, TY(CONSUME_POOL_STDIO));
    ck_assert_uint_eq(tl.items[2].lane, 1);
    ck_assert_uint_eq(tl.items[3].type, TY(CC_PREPARE));
    ck_assert_uint_eq(tl.items[3].lane, 0);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, cores: a device item naming no core takes its NC's only
 * core, whatever the order in which the NCs' items come. hw_notify r0 on NC 5
 * (core 0, at 1000, the first item), hw_notify r1 on NC 3 (core 0, at 1100),
 * nc_exec_running instants r2 on NC 3 (at 1200) and r3 on NC 5 (at 1300),
 * naming no core; no sync pairs (unaligned: emit times). r2 and r3 take
 * their NC's core 0: clocks in order of first use c0 (5, 0), c1 (3, 0), r2's
 * item on c1 and r3's on c0; lanes by key: 0 "NC 3" (i1, i2), 1 "NC 5" (i0,
 * i3). */
START_TEST(test_coreless_device_items_take_their_nc_core_whatever_the_nc_order)
{
    nrt_sys_trace_event_t r[4];
    r[0] = rec(TY(HW_NOTIFY), I, 5, 7, 0, 1000, 0, 0);
    r[0].data.hw_notify.device_core_idx = 0;
    r[1] = rec(TY(HW_NOTIFY), I, 3, 7, 0, 1100, 0, 1);
    r[1].data.hw_notify.device_core_idx = 0;
    r[2] = rec(TY(DEVICE_EXEC), I, 3, 7, 0, 1200, 1, 2);
    r[3] = rec(TY(DEVICE_EXEC), I, 5, 7, 0, 1300, 1, 3);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 4);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert_uint_eq(tl.clocks[0].nc, 5);
    ck_assert_uint_eq(tl.clocks[0].core, 0);
    ck_assert_uint_eq(tl.clocks[1].nc, 3);
    ck_assert_uint_eq(tl.clocks[1].core, 0);
    ck_assert_uint_eq(tl.items[2].clock, 1);
    ck_assert_uint_eq(tl.items[3].clock, 0);
    ck_assert_uint_eq(tl.nlanes, 2);
    ck_assert_str_eq(tl.lanes[0].name, "NC 3");
    ck_assert_str_eq(tl.lanes[1].name, "NC 5");
    ck_assert_uint_eq(tl.items[0].lane, 1);
    ck_assert_uint_eq(tl.items[1].lane, 0);
    ck_assert_uint_eq(tl.items[2].lane, 0);
    ck_assert_uint_eq(tl.items[3].lane, 1);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER: drops go with the device items, by (1, nc, NC lane,
 * core), a drop's core being its NC's only core. hw_notify r0 (at 1000,
 * nc_local_id 0) and r1 (at 1100, nc_local_id 3) on NC 3, both core 1: 2
 * events lost before r1, the drop item i2 at 1100 (the first item made after
 * the records' items). All three share key (1, 3, NC lane, 1): one lane,
 * "NC 3". */
START_TEST(test_first_drop_shares_the_lane_of_its_nc_only_core)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(HW_NOTIFY), I, 3, 7, 0, 1000, 0, 0);
    r[0].data.hw_notify.device_core_idx = 1;
    r[1] = rec(TY(HW_NOTIFY), I, 3, 7, 0, 1100, 3, 1);
    r[1].data.hw_notify.device_core_idx = 1;
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 2, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 3);
    ck_assert(tl.items[2].flags & NTSIM_TL_DROP);
    ck_assert_uint_eq(tl.items[2].lost, 2);
    ck_assert_uint_eq(tl.items[2].begin, 1100);
    ck_assert_uint_eq(tl.nlanes, 1);
    ck_assert_str_eq(tl.lanes[0].name, "NC 3");
    ck_assert_uint_eq(tl.items[0].lane, 0);
    ck_assert_uint_eq(tl.items[1].lane, 0);
    ck_assert_uint_eq(tl.items[2].lane, 0);
    ntsim__timeline_free(&tl);
}
END_TEST

START_TEST(test_timeline_spans_that_cross_go_to_an_overflow_lane)
{
    nrt_sys_trace_event_t r[4];
    r[0] = host_rec(TY(EXEC_PRE), S, 1, T0 + 100);
    r[1] = host_rec(TY(EXEC_CORE), S, 2, T0 + 200);
    r[2] = host_rec(TY(EXEC_PRE), T, 1, T0 + 300); /* [100,300] and [200,400] cross */
    r[3] = host_rec(TY(EXEC_CORE), T, 2, T0 + 400);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.stats.spans, 2);
    ck_assert_uint_eq(tl.nlanes, 2);
    ck_assert_str_eq(tl.lanes[1].name, "thread 7 (overlap 1)");
    ck_assert_uint_ne(tl.lanes[0].tid, tl.lanes[1].tid);
    ntsim__timeline_free(&tl);
}
END_TEST

Suite *make_timeline_lanes_suite(void)
{
    Suite *s = suite_create("timeline_lanes");
    TCase *tc = tcase_create("timeline_lanes");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_lanes_put_the_longer_span_first_and_number_host_overflow_tids_up);
    tcase_add_test(tc, test_lanes_place_a_group_by_begin_not_by_record_order);
    tcase_add_test(tc, test_lanes_close_a_span_ending_at_a_begin_and_nest_an_equal_end);
    tcase_add_test(tc, test_lanes_of_a_trace_of_thread_zero_alone_hold_each_item_once);
    tcase_add_test(tc, test_lanes_of_nc_256_are_named_nc_256);
    tcase_add_test(tc, test_lanes_of_an_nc_past_255_with_several_cores_are_named_per_core);
    tcase_add_test(tc, test_dma_lane_takes_types_30_through_39_and_not_29_or_40);
    tcase_add_test(tc, test_coreless_device_items_take_their_nc_core_whatever_the_nc_order);
    tcase_add_test(tc, test_first_drop_shares_the_lane_of_its_nc_only_core);
    suite_add_tcase(s, tc);
    tc = tcase_create("timeline_lanes_overflow");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_timeline_spans_that_cross_go_to_an_overflow_lane);
    suite_add_tcase(s, tc);
    return s;
}
