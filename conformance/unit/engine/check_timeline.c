/*
 * conformance/unit/engine/check_timeline.c: the timeline writers' exact bytes, worked
 * out by hand from D-TIMELINE, D-TIMELINE-ORDER, D-PFTRACE-CLOCK and each
 * writer's decision (D-CHROME-JSON, D-PFTRACE, D-TIMELINE-HTML), on two
 * small traces whose model is derived once below; and their out-of-memory
 * paths (D-ALLOCATOR): every allocation failing in turn gives NRT_RESOURCE
 * with nothing left allocated, or the same bytes as without a failure.
 *
 * Trace A, the host (NC 0, thread 7 unless said; record id = 1000 + index):
 *
 *   r  type          phase  track  t     nc_local_id  payload
 *   0  nrt_execute   START  100    5000  0            model_id 11
 *   1  kbl_exec_pre  START  42     5100  1            exec_id 42, model_id 11
 *   2  model_submit  INST   0      5200  2            model_id 11
 *   3  kbl_exec_pre  STOP   42     5300  3            exec_id 42, model_id 11
 *   4  tensor_read   START  7      5500  4            tensor_id 3, size 64
 *   5  nrt_execute   STOP   100    5600  5            model_id 11
 *   6  tensor_read   STOP   7      5700  6            tensor_id 3, size 64
 *   7  kmgr_exec_core STOP  77     5050  9            exec_id 5, model_id 11
 *   8  enc_barrier   START  55     5800  10 (thread 9) peer_id -3, exec_id 42, nec_dev_id 1
 *
 * Items (record order): i0 nrt_execute [5000,5600] (r0, r5); i1 kbl_exec_pre
 * [5100,5300]; i2 model_submit instant 5200; i3 tensor_read [5500,5700];
 * i4 kmgr_exec_core unmatched STOP at 5050; i5 enc_barrier unmatched START at
 * 5800; then the drop i6: NC 0's ids run 0..6, 9, 10, so 2 are lost before
 * r7, at 5050. i0 takes exec_id 42 from i1 (same thread and NC, inside it);
 * i4 (exec_id 5) comes later and finds i0 taken.
 *
 * Counters (made first, so first at equal times): "NC 0 events lost" 0 at
 * 5000, 2 at 5050; "NC 0 events pushed" id + 1 at each record: 1..7 at
 * 5000..5700, 10 at 5050, 11 at 5800.
 *
 * Lanes: group (host, 7) placed in order i0, i4, i1, i2, i3: i0, i4, i1, i2
 * nest on lane 0 "thread 7"; i3 [5500,5700] crosses i0 (i1 ended at 5300)
 * and opens lane 1 "thread 7 (overlap 1)" (tid 0x7D000000 = 2097152000);
 * group (host, 9): lane 2 "thread 9"; the drop: lane 3 "NC 0" in the device
 * process (pid 0x7F000000 = 2130706432, tid 0x7E000000 = 2113929216).
 * Edges by time: 5000 lost 0, pushed 1, begin i0; 5050 lost 2, pushed 10,
 * i4, the drop; 5100 pushed 2, begin i1; 5200 pushed 3, i2; 5300 pushed 4,
 * end i1; 5500 pushed 5, begin i3; 5600 pushed 6, end i0; 5700 pushed 7, end
 * i3; 5800 pushed 11, i5. t_min 5000, t_max 5800.
 *
 * Trace B, the device, with options {pid 77, nd_idx 3, host_name h"<&>'}
 * (thread 7, NC 1 unless said; record id = 2000 + index):
 *
 *   r   type             phase  track  t      id  payload
 *   0   nrt_execute      START  200    9000   0   model_id 12
 *   1   kbl_exec_pre     START  43     9100   1   exec_id 43, model_id 12
 *   2   kbl_exec_pre     STOP   43     9200   2   exec_id 43, model_id 12
 *   3   nc_exec_running  START  300    9300   3   core 0, exec_id 43, sync {dev 11000, cpu 10000}
 *   4   nc_model_switch  START  301    9400   4   core 1, model 12, exec 43, sync {12500, 10500}
 *   5   nc_model_switch  STOP   301    9500   5   sync {dev 12700, cpu 0}
 *   6   hw_notify        INST   5      9600   6   core 0, hint 7, custom 9, exec 43, sync {12001, 0}
 *   7   nc_exec_running  STOP   300    9700   7   sync {dev 13050, cpu 12048}
 *   8   cc_running       START  302    9800   8   gid 2, op 5, exec 43, sync {12300, 11150}, algo 3
 *   9   cc_running       STOP   302    9900   9   sync {dev 12400, cpu 0}
 *   10  nrt_dma_mem_alloc START 303    10100  10  hbm 1, usage 6 (weight), nc_hbm, !aligned, mla 2
 *   11  nrt_dma_mem_alloc STOP  303    10200  11  4096 bytes at 0xabc0, rc 0, totals 8192, 16384
 *   12  nrt_execute      STOP   200    13000  12  model_id 12
 *   13  hw_notify (NC 2) INST   0      9050   0   core 0, hint 1, sync {dev 777, cpu 0}
 *
 * NC 1's device items name cores 0 and 1, so cc_running (no device_core_idx)
 * has no core; NC 2 names only core 0. Clocks in order of first use: c0 (1,
 * 0) with pairs (cpu 10000, dev 11000), (12048, 13050): mean x 1024, mean y
 * 1001, b = 2048 / (2 * 1024^2) = 1/1024, a = 1001 - 1 = 1000 (all exact);
 * c1 (1, 1), one pair (10500, 12500): a = 2000, b = 0; c2 (1, none), one
 * pair (11150, 12300): a = 1150; c3 (2, 0): no pair (cpu 0), so unaligned.
 * Aligned: 11000 -> 10000, 13050 -> 10000 + 2050 * 1024/1025 = 12048,
 * 12001 -> 10000 + round(1001 * 1024/1025 = 1000.02) = 11000, 12500 -> 10500,
 * 12700 -> 10700, 12300 -> 11150, 12400 -> 11250; the NC 2 notify keeps its
 * emit time 9050. No residual.
 *
 * Items: i0 nrt_execute [9000,13000] takes exec_id 43 from i1 [9100,9200];
 * i2 nc_exec_running [10000,12048]; i3 nc_model_switch [10500,10700]; i4
 * hw_notify 11000; i5 cc_running [11150,11250]; i6 dma alloc [10100,10200];
 * i7 hw_notify (NC 2) 9050. Flows from i0 (NC 1, exec 43), by destination:
 * 1 -> i2, 2 -> i3, 3 -> i5. Lanes: 0 "thread 7"; then the device process
 * (pid 0x7F000003 = 2130706435): 1 "NC 1 core 0" (i2, i4), 2 "NC 1 core 1",
 * 3 "NC 1 (no core)", 4 "NC 1 notifications & DMA", 5 "NC 2"; tids
 * 2113929216 + 0..4. Counters: NC 1 pushed and lost, NC 2 pushed and lost,
 * sampled at the records' emit times. No loss.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc_probe.h"
#include "ntsim/capture.h"
#include "check_suites.h"
#include "perfetto_trace.pb-c.h"
#include "alloc.h"
#include "report.h"
#include "timeline.h"
#include "timeline_build.h"

#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x
#define S NRT_SYS_TRACE_EVENT_PHASE_START
#define T NRT_SYS_TRACE_EVENT_PHASE_STOP
#define I NRT_SYS_TRACE_EVENT_PHASE_INSTANT

/* Every test runs with the probe filling new memory with zeros, so a read
 * past what the writers wrote (an edge past the last, a lane past the
 * last) shows in the bytes, the same way every run. */
static void setup(void)
{
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
    (void)ntsim_json_set_model_lookup(NULL, NULL);
    ntsim_probe_begin_filled(UINT64_MAX, 0);
}

static void teardown(void)
{
    ntsim_probe_end();
    ntsim_log_set_sink(NULL, NULL);
}

static nrt_sys_trace_event_t rec(uint32_t type, uint32_t phase, uint32_t nc, uint64_t thread,
                                 uint64_t tracking, uint64_t t, uint64_t nc_local_id, uint64_t id)
{
    nrt_sys_trace_event_t r;
    memset(&r, 0, sizeof r);
    r.trace_type = (nrt_sys_trace_event_type_t)type;
    r.phase = (nrt_sys_trace_event_phase_t)phase;
    r.nc_idx = nc;
    r.thread_id = thread;
    r.tracking_id = tracking;
    r.timestamp_ns = t;
    r.nc_local_id = nc_local_id;
    r.id = id;
    return r;
}

/* A kbl_exec_pre span of exec_id on (nc, thread), the exec-stage span an
 * nrt_execute takes its exec_id from (D-TIMELINE): its START at t0 in r[i],
 * its STOP at t1 in r[i + 1], each record's nc_local_id and id its index. */
static void exec_pre_span(nrt_sys_trace_event_t *r, uint32_t i, uint32_t nc, uint64_t thread,
                          uint64_t tracking, uint64_t t0, uint64_t t1, uint32_t exec_id)
{
    r[i] = rec(TY(EXEC_PRE), S, nc, thread, tracking, t0, i, i);
    r[i].data.exec_pre.exec_id = exec_id;
    r[i + 1] = rec(TY(EXEC_PRE), T, nc, thread, tracking, t1, i + 1, i + 1);
    r[i + 1].data = r[i].data;
}

/* An nrt_execute span [t0, t1] around one exec stage, exec_pre_span's
 * [s0, s1] of exec_id: records r[i] (START), r[i + 1], r[i + 2] (the stage),
 * r[i + 3] (STOP), each record's nc_local_id and id its index. */
static void execute_around_stage(nrt_sys_trace_event_t *r, uint32_t i, uint32_t nc,
                                 uint64_t thread, uint64_t tracking, uint64_t t0, uint64_t t1,
                                 uint64_t stage_tracking, uint64_t s0, uint64_t s1,
                                 uint32_t exec_id)
{
    r[i] = rec(TY(EXECUTE_API), S, nc, thread, tracking, t0, i, i);
    exec_pre_span(r, i + 1, nc, thread, stage_tracking, s0, s1, exec_id);
    r[i + 3] = rec(TY(EXECUTE_API), T, nc, thread, tracking, t1, i + 3, i + 3);
}

/* A device span of exec_id (nc_exec_running, a flow's destination): its
 * START at t0 in r[i], its STOP (no payload) at t1 in r[i + 1]. */
static void device_exec_span(nrt_sys_trace_event_t *r, uint32_t i, uint32_t nc, uint64_t thread,
                             uint64_t tracking, uint64_t t0, uint64_t t1, uint32_t exec_id)
{
    r[i] = rec(TY(DEVICE_EXEC), S, nc, thread, tracking, t0, i, i);
    r[i].data.nc_exec_start.exec_id = exec_id;
    r[i + 1] = rec(TY(DEVICE_EXEC), T, nc, thread, tracking, t1, i + 1, i + 1);
}

static size_t trace_a(nrt_sys_trace_event_t *r)
{
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 100, 5000, 0, 1000);
    r[0].data.nrt_exec.model_id = 11;
    r[1] = rec(TY(EXEC_PRE), S, 0, 7, 42, 5100, 1, 1001);
    r[1].data.exec_pre.exec_id = 42;
    r[1].data.exec_pre.model_id = 11;
    r[2] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5200, 2, 1002);
    r[2].data.model_submit.model_id = 11;
    r[3] = rec(TY(EXEC_PRE), T, 0, 7, 42, 5300, 3, 1003);
    r[3].data = r[1].data;
    r[4] = rec(TY(TENSOR_READ), S, 0, 7, 7, 5500, 4, 1004);
    r[4].data.exec_tensor_read.tensor_id = 3;
    r[4].data.exec_tensor_read.size = 64;
    r[5] = rec(TY(EXECUTE_API), T, 0, 7, 100, 5600, 5, 1005);
    r[5].data = r[0].data;
    r[6] = rec(TY(TENSOR_READ), T, 0, 7, 7, 5700, 6, 1006);
    r[6].data = r[4].data;
    r[7] = rec(TY(EXEC_CORE), T, 0, 7, 77, 5050, 9, 1009);
    r[7].data.exec_core.exec_id = 5;
    r[7].data.exec_core.model_id = 11;
    r[8] = rec(TY(ENC_BARRIER), S, 0, 9, 55, 5800, 10, 1010);
    r[8].data.enc_barrier.peer_id = -3;
    r[8].data.enc_barrier.exec_id = 42;
    r[8].data.enc_barrier.nec_dev_id = 1;
    return 9;
}

static size_t trace_b(nrt_sys_trace_event_t *r)
{
    r[0] = rec(TY(EXECUTE_API), S, 1, 7, 200, 9000, 0, 2000);
    r[0].data.nrt_exec.model_id = 12;
    r[1] = rec(TY(EXEC_PRE), S, 1, 7, 43, 9100, 1, 2001);
    r[1].data.exec_pre.exec_id = 43;
    r[1].data.exec_pre.model_id = 12;
    r[2] = rec(TY(EXEC_PRE), T, 1, 7, 43, 9200, 2, 2002);
    r[2].data = r[1].data;
    r[3] = rec(TY(DEVICE_EXEC), S, 1, 7, 300, 9300, 3, 2003);
    r[3].data.nc_exec_start.device_core_idx = 0;
    r[3].data.nc_exec_start.exec_id = 43;
    r[3].data.nc_exec_start.sync_info.nc_timestamp_ns = 11000;
    r[3].data.nc_exec_start.sync_info.cpu_timestamp_ns = 10000;
    r[4] = rec(TY(NC_MODEL_SWITCH), S, 1, 7, 301, 9400, 4, 2004);
    r[4].data.nc_model_switch_start.device_core_idx = 1;
    r[4].data.nc_model_switch_start.model_id = 12;
    r[4].data.nc_model_switch_start.exec_id = 43;
    r[4].data.nc_model_switch_start.sync_info.nc_timestamp_ns = 12500;
    r[4].data.nc_model_switch_start.sync_info.cpu_timestamp_ns = 10500;
    r[5] = rec(TY(NC_MODEL_SWITCH), T, 1, 7, 301, 9500, 5, 2005);
    r[5].data.nc_model_switch_stop.sync_info.nc_timestamp_ns = 12700;
    r[6] = rec(TY(HW_NOTIFY), I, 1, 7, 5, 9600, 6, 2006);
    r[6].data.hw_notify.device_core_idx = 0;
    r[6].data.hw_notify.hint = 7;
    r[6].data.hw_notify.custom_data = 9;
    r[6].data.hw_notify.exec_id = 43;
    r[6].data.hw_notify.sync_info.nc_timestamp_ns = 12001;
    r[7] = rec(TY(DEVICE_EXEC), T, 1, 7, 300, 9700, 7, 2007);
    r[7].data.nc_exec_stop.sync_info.nc_timestamp_ns = 13050;
    r[7].data.nc_exec_stop.sync_info.cpu_timestamp_ns = 12048;
    r[8] = rec(TY(CC_EXEC), S, 1, 7, 302, 9800, 8, 2008);
    r[8].data.cc_exec_start.gid = 2;
    r[8].data.cc_exec_start.op_id = 5;
    r[8].data.cc_exec_start.exec_id = 43;
    r[8].data.cc_exec_start.sync_info.nc_timestamp_ns = 12300;
    r[8].data.cc_exec_start.sync_info.cpu_timestamp_ns = 11150;
    r[8].data.cc_exec_start.algo = 3;
    r[9] = rec(TY(CC_EXEC), T, 1, 7, 302, 9900, 9, 2009);
    r[9].data.cc_exec_stop.sync_info.nc_timestamp_ns = 12400;
    r[10] = rec(TY(DMA_MEM_ALLOC), S, 1, 7, 303, 10100, 10, 2010);
    r[10].data.dma_mem_alloc_start.hbm_idx = 1;
    r[10].data.dma_mem_alloc_start.usage_type = DMA_MEM_USAGE_TYPE_WEIGHT;
    r[10].data.dma_mem_alloc_start.is_nc_hbm = true;
    r[10].data.dma_mem_alloc_start.is_aligned = false;
    r[10].data.dma_mem_alloc_start.mla_idx = 2;
    r[11] = rec(TY(DMA_MEM_ALLOC), T, 1, 7, 303, 10200, 11, 2011);
    r[11].data.dma_mem_alloc_stop.allocated_bytes = 4096;
    r[11].data.dma_mem_alloc_stop.physical_address = 0xabc0;
    r[11].data.dma_mem_alloc_stop.return_code = 0;
    r[11].data.dma_mem_alloc_stop.usage_type_total_bytes = 8192;
    r[11].data.dma_mem_alloc_stop.total_bytes = 16384;
    r[12] = rec(TY(EXECUTE_API), T, 1, 7, 200, 13000, 12, 2012);
    r[12].data = r[0].data;
    r[13] = rec(TY(HW_NOTIFY), I, 2, 7, 0, 9050, 0, 2013);
    r[13].data.hw_notify.hint = 1;
    r[13].data.hw_notify.sync_info.nc_timestamp_ns = 777;
    return 14;
}

static const ntsim_timeline_options_t options_b = {77, 3, "h\"<&>'"};

static void check_text(const char *what, const char *want, const char *got, size_t got_len);

/* The expected text: its lines, joined. */
static char *joined(const char *const *lines)
{
    size_t n = 1;
    for (size_t i = 0; lines[i] != NULL; i++)
        n += strlen(lines[i]);
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    s[0] = '\0';
    for (size_t i = 0; lines[i] != NULL; i++)
        strcat(s, lines[i]);
    return s;
}

static void check_lines(const char *what, const char *const *want_lines, const char *got,
                        size_t got_len)
{
    char *want = joined(want_lines);
    check_text(what, want, got, got_len);
    free(want);
}

static void check_text(const char *what, const char *want, const char *got, size_t got_len)
{
    ck_assert_uint_eq(strlen(got), got_len);
    if (strcmp(want, got) == 0)
        return;
    ntsim_report_t r;
    ntsim_report_init(&r);
    ntsim_report_diff(&r, what, "bytes", want, got);
    ck_abort_msg("%s", r.text);
    ntsim_report_free(&r);
}

/* --- the model ---------------------------------------------------------------- */

/* Trace A's model, as the header works it out. */
START_TEST(test_model_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 7);
    static const struct {
        uint64_t begin, end;
        uint32_t lane, flags;
        uint64_t exec_id;
    } want[7] = {
        {5000, 5600, 0, NTSIM_TL_SPAN, 42},          {5100, 5300, 0, NTSIM_TL_SPAN, 42},
        {5200, 5200, 0, 0, 0},                       {5500, 5700, 1, NTSIM_TL_SPAN, 0},
        {5050, 5050, 0, NTSIM_TL_UNMATCHED_STOP, 5}, {5800, 5800, 2, NTSIM_TL_UNMATCHED_START, 42},
        {5050, 5050, 3, NTSIM_TL_DROP, 0},
    };
    for (size_t i = 0; i < 7; i++) {
        ck_assert_msg(tl.items[i].begin == want[i].begin && tl.items[i].end == want[i].end,
                      "item %zu: [%llu, %llu]", i, (unsigned long long)tl.items[i].begin,
                      (unsigned long long)tl.items[i].end);
        ck_assert_uint_eq(tl.items[i].lane, want[i].lane);
        ck_assert_uint_eq(tl.items[i].flags, want[i].flags);
        ck_assert_uint_eq(tl.items[i].exec_id, want[i].exec_id);
    }
    ck_assert_uint_eq(tl.items[6].lost, 2);
    ck_assert_uint_eq(tl.items[6].rec, 7);
    ck_assert_uint_eq(tl.nlanes, 4);
    ck_assert_uint_eq(tl.ncounters, 2);
    ck_assert_uint_eq(tl.nedges, 11 + 10); /* 11 samples; 3 begins, 3 ends, 4 instants */
    ck_assert_uint_eq(tl.t_min, 5000);
    ck_assert_uint_eq(tl.t_max, 5800);
    ck_assert_uint_eq(tl.lanes[0].spans, 2);
    ck_assert_uint_eq(tl.lanes[0].instants, 2);
    ck_assert_uint_eq(tl.lanes[1].spans, 1);
    ck_assert_uint_eq(tl.lanes[2].instants, 1);
    ck_assert_uint_eq(tl.lanes[3].instants, 1);
    ck_assert_uint_eq(tl.lanes[3].uuid, 0x1003);
    ck_assert_uint_eq(tl.counters[1].uuid, 0x1005);
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, n, NULL, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.spans, 3);
    ck_assert_uint_eq(st.instants, 1);
    ck_assert_uint_eq(st.unmatched_start, 1);
    ck_assert_uint_eq(st.unmatched_stop, 1);
    ck_assert_uint_eq(st.drops, 1);
    ck_assert_uint_eq(st.lost_events, 2);
    ck_assert_uint_eq(st.flows, 0);
    ck_assert_uint_eq(st.lanes, 4);
    ck_assert_uint_eq(st.clocks, 0);
    ck_assert_uint_eq(st.sync_pairs, 0);
    ck_assert_uint_eq(st.unaligned, 0);
    ntsim__timeline_free(&tl);
}
END_TEST

/* Trace B's model: clocks, cores, flows, as the header works them out. */
START_TEST(test_model_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, n, &options_b, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 8);
    static const uint64_t when[8][2] = {{9000, 13000}, {9100, 9200},   {10000, 12048},
                                        {10500, 10700}, {11000, 11000}, {11150, 11250},
                                        {10100, 10200}, {9050, 9050}};
    static const uint32_t lane[8] = {0, 0, 1, 2, 1, 3, 4, 5};
    static const uint64_t flow_in[8] = {0, 0, 1, 2, 0, 3, 0, 0};
    for (size_t i = 0; i < 8; i++) {
        ck_assert_msg(tl.items[i].begin == when[i][0] && tl.items[i].end == when[i][1],
                      "item %zu: [%llu, %llu]", i, (unsigned long long)tl.items[i].begin,
                      (unsigned long long)tl.items[i].end);
        ck_assert_uint_eq(tl.items[i].lane, lane[i]);
        ck_assert_uint_eq(tl.items[i].flow_in, flow_in[i]);
    }
    ck_assert_uint_eq(tl.items[0].exec_id, 43);
    ck_assert_uint_eq(tl.items[0].flows_count, 3);
    ck_assert_uint_eq(tl.items[7].flags, NTSIM_TL_DEVICE | NTSIM_TL_UNALIGNED);
    ck_assert_uint_eq(tl.items[4].dev_begin, 12001);
    ck_assert_uint_eq(tl.nclocks, 4);
    static const uint32_t nc[4] = {1, 1, 1, 2}, core[4] = {0, 1, NTSIM_TL_NO_CORE, 0};
    static const uint64_t c0[4] = {10000, 10500, 11150, 0}, pairs[4] = {2, 1, 1, 0};
    static const double a[4] = {1000, 2000, 1150, 0}, b[4] = {1.0 / 1024, 0, 0, 0};
    for (size_t c = 0; c < 4; c++) {
        ck_assert_uint_eq(tl.clocks[c].nc, nc[c]);
        ck_assert_uint_eq(tl.clocks[c].core, core[c]);
        ck_assert_uint_eq(tl.clocks[c].c0, c0[c]);
        ck_assert_uint_eq(tl.clocks[c].pairs, pairs[c]);
        ck_assert(tl.clocks[c].a == a[c]);
        ck_assert(tl.clocks[c].b == b[c]);
        ck_assert(tl.clocks[c].max_residual_ns == 0);
    }
    ck_assert_uint_eq(tl.clocks[1].pair_first, 2);
    ck_assert_uint_eq(tl.clocks[2].pair_first, 3);
    ck_assert_uint_eq(tl.npairs, 4);
    ck_assert_str_eq(tl.lanes[1].name, "NC 1 core 0");
    ck_assert_str_eq(tl.lanes[3].name, "NC 1 (no core)");
    ck_assert_str_eq(tl.processes[0].name, "h\"<&>'");
    ck_assert_uint_eq(tl.processes[1].pid, 0x7F000003);
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, n, &options_b, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.spans, 6);
    ck_assert_uint_eq(st.instants, 2);
    ck_assert_uint_eq(st.flows, 3);
    ck_assert_uint_eq(st.lanes, 6);
    ck_assert_uint_eq(st.clocks, 4);
    ck_assert_uint_eq(st.sync_pairs, 4);
    ck_assert_uint_eq(st.unaligned, 1);
    ck_assert(st.max_residual_ns == 0);
    ntsim__timeline_free(&tl);
}
END_TEST

/* --- Chrome JSON (D-CHROME-JSON) ------------------------------------------------ */

/* ts_origin_ns = t_min - 1000 = 4000; ts and dur in us with three decimals. */
static const char *const chrome_a[] = {
    "{\"traceEvents\":[\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"ntsim host\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":1,\"tid\":0,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2130706432,\"tid\":0,\"args\":{\"name\":\"neuron device 0\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":2130706432,\"tid\":0,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":7,\"args\":{\"name\":\"thread 7\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":7,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2097152000,\"args\":{\"name\":\"thread 7 (overlap 1)\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":2097152000,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":9,\"args\":{\"name\":\"thread 9\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":9,\"args\":{\"sort_index\":2}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706432,\"tid\":2113929216,\"args\":{\"name\":\"NC 0\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706432,\"tid\":2113929216,\"args\":{\"sort_index\":3}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events lost\",\"pid\":2130706432,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":1}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.000,\"dur\":0.600,\"args\":{\"model_id\":11,\"stop.model_id\":11,\"tracking_id\":100,\"thread_id\":7,\"nc_idx\":0,\"id\":1000,\"exec_id\":42}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events lost\",\"pid\":2130706432,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":2}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":10}},\n",
    "{\"ph\":\"I\",\"name\":\"kmgr_exec_core (unmatched stop)\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.050,\"s\":\"t\",\"args\":{\"exec_id\":5,\"model_id\":11,\"tracking_id\":77,\"thread_id\":7,\"nc_idx\":0,\"id\":1009,\"unmatched\":\"stop: no START with this tracking_id\"}},\n",
    "{\"ph\":\"I\",\"name\":\"events lost\",\"cat\":\"device\",\"pid\":2130706432,\"tid\":2113929216,\"ts\":1.050,\"s\":\"t\",\"args\":{\"lost_events\":2,\"next_nc_local_id\":9,\"nc_idx\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.100,\"args\":{\"events\":2}},\n",
    "{\"ph\":\"X\",\"name\":\"kbl_exec_pre\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.100,\"dur\":0.200,\"args\":{\"exec_id\":42,\"model_id\":11,\"stop.exec_id\":42,\"stop.model_id\":11,\"tracking_id\":42,\"thread_id\":7,\"nc_idx\":0,\"id\":1001}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.200,\"args\":{\"events\":3}},\n",
    "{\"ph\":\"I\",\"name\":\"nrt_model_submit\",\"cat\":\"host\",\"pid\":1,\"tid\":7,\"ts\":1.200,\"s\":\"t\",\"args\":{\"model_id\":11,\"tracking_id\":0,\"thread_id\":7,\"nc_idx\":0,\"id\":1002}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.300,\"args\":{\"events\":4}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.500,\"args\":{\"events\":5}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_tensor_read\",\"cat\":\"host\",\"pid\":1,\"tid\":2097152000,\"ts\":1.500,\"dur\":0.200,\"args\":{\"tensor_id\":3,\"size\":64,\"stop.tensor_id\":3,\"stop.size\":64,\"tracking_id\":7,\"thread_id\":7,\"nc_idx\":0,\"id\":1004}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.600,\"args\":{\"events\":6}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.700,\"args\":{\"events\":7}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,\"ts\":1.800,\"args\":{\"events\":11}},\n",
    "{\"ph\":\"I\",\"name\":\"enc_barrier (unmatched start)\",\"cat\":\"host\",\"pid\":1,\"tid\":9,\"ts\":1.800,\"s\":\"t\",\"args\":{\"peer_id\":-3,\"exec_id\":42,\"nec_dev_id\":1,\"tracking_id\":55,\"thread_id\":9,\"nc_idx\":0,\"id\":1010,\"unmatched\":\"start: no STOP with this tracking_id\"}}\n",
    "],\"otherData\":{\"ts_origin_ns\":\"4000\",\"clock\":\"host CLOCK_REALTIME\",\"spans\":3,\"instants\":1,\"unmatched\":2,\"drops\":1}}\n",
    NULL};

/* ts_origin_ns = 9000 - 1000 = 8000. The flows' "s" is on the nrt_execute,
 * the "f" on nc_exec_running (both spans "exec"); the flows to
 * nc_model_switch and cc_running are the .pftrace's only. */
static const char *const chrome_b[] = {
    "{\"traceEvents\":[\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":77,\"tid\":0,\"args\":{\"name\":\"h\\\"<&>'\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":77,\"tid\":0,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2130706435,\"tid\":0,\"args\":{\"name\":\"neuron device 3\"}},\n",
    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":2130706435,\"tid\":0,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":77,\"tid\":7,\"args\":{\"name\":\"thread 7\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":77,\"tid\":7,\"args\":{\"sort_index\":0}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929216,\"args\":{\"name\":\"NC 1 core 0\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929216,\"args\":{\"sort_index\":1}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929217,\"args\":{\"name\":\"NC 1 core 1\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929217,\"args\":{\"sort_index\":2}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929218,\"args\":{\"name\":\"NC 1 (no core)\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929218,\"args\":{\"sort_index\":3}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929219,\"args\":{\"name\":\"NC 1 notifications & DMA\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929219,\"args\":{\"sort_index\":4}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2130706435,\"tid\":2113929220,\"args\":{\"name\":\"NC 2\"}},\n",
    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":2130706435,\"tid\":2113929220,\"args\":{\"sort_index\":5}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events lost\",\"pid\":2130706435,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.000,\"args\":{\"events\":1}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"exec\",\"pid\":77,\"tid\":7,\"ts\":1.000,\"dur\":4.000,\"args\":{\"model_id\":12,\"stop.model_id\":12,\"tracking_id\":200,\"thread_id\":7,\"nc_idx\":1,\"id\":2000,\"exec_id\":43}},\n",
    "{\"ph\":\"s\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":1,\"pid\":77,\"tid\":7,\"ts\":1.000},\n",
    "{\"ph\":\"C\",\"name\":\"NC 2 events lost\",\"pid\":2130706435,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":0}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 2 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.050,\"args\":{\"events\":1}},\n",
    "{\"ph\":\"I\",\"name\":\"hw_notify\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929220,\"ts\":1.050,\"s\":\"t\",\"args\":{\"device_core_idx\":0,\"hint\":1,\"custom_data\":0,\"nc_timestamp_ns\":777,\"exec_id\":0,\"tracking_id\":0,\"thread_id\":7,\"nc_idx\":2,\"id\":2013,\"device_ns\":777,\"aligned\":false}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.100,\"args\":{\"events\":2}},\n",
    "{\"ph\":\"X\",\"name\":\"kbl_exec_pre\",\"cat\":\"host\",\"pid\":77,\"tid\":7,\"ts\":1.100,\"dur\":0.100,\"args\":{\"exec_id\":43,\"model_id\":12,\"stop.exec_id\":43,\"stop.model_id\":12,\"tracking_id\":43,\"thread_id\":7,\"nc_idx\":1,\"id\":2001}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.200,\"args\":{\"events\":3}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.300,\"args\":{\"events\":4}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.400,\"args\":{\"events\":5}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.500,\"args\":{\"events\":6}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.600,\"args\":{\"events\":7}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.700,\"args\":{\"events\":8}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.800,\"args\":{\"events\":9}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":1.900,\"args\":{\"events\":10}},\n",
    "{\"ph\":\"X\",\"name\":\"nc_exec_running\",\"cat\":\"exec\",\"pid\":2130706435,\"tid\":2113929216,\"ts\":2.000,\"dur\":2.048,\"args\":{\"device_core_idx\":0,\"exec_id\":43,\"nc_timestamp_ns\":11000,\"model_id\":0,\"stop.nc_timestamp_ns\":13050,\"tracking_id\":300,\"thread_id\":7,\"nc_idx\":1,\"id\":2003,\"device_ns\":11000,\"aligned\":true}},\n",
    "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":1,\"pid\":2130706435,\"tid\":2113929216,\"ts\":2.000},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":2.100,\"args\":{\"events\":11}},\n",
    "{\"ph\":\"X\",\"name\":\"nrt_dma_mem_alloc\",\"cat\":\"dma\",\"pid\":2130706435,\"tid\":2113929219,\"ts\":2.100,\"dur\":0.100,\"args\":{\"hbm_idx\":1,\"is_nc_hbm\":true,\"is_aligned\":false,\"mla_idx\":2,\"usage_type\":\"weight\",\"stop.allocated_bytes\":4096,\"stop.total_bytes\":16384,\"stop.usage_type_total_bytes\":8192,\"stop.return_code\":0,\"stop.physical_address\":\"0xabc0\",\"tracking_id\":303,\"thread_id\":7,\"nc_idx\":1,\"id\":2010}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":2.200,\"args\":{\"events\":12}},\n",
    "{\"ph\":\"X\",\"name\":\"nc_model_switch\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929217,\"ts\":2.500,\"dur\":0.200,\"args\":{\"device_core_idx\":1,\"model_id\":12,\"exec_id\":43,\"nc_timestamp_ns\":12500,\"stop.nc_timestamp_ns\":12700,\"tracking_id\":301,\"thread_id\":7,\"nc_idx\":1,\"id\":2004,\"device_ns\":12500,\"aligned\":true}},\n",
    "{\"ph\":\"I\",\"name\":\"hw_notify\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929216,\"ts\":3.000,\"s\":\"t\",\"args\":{\"device_core_idx\":0,\"hint\":7,\"custom_data\":9,\"nc_timestamp_ns\":12001,\"exec_id\":43,\"tracking_id\":5,\"thread_id\":7,\"nc_idx\":1,\"id\":2006,\"device_ns\":12001,\"aligned\":true}},\n",
    "{\"ph\":\"X\",\"name\":\"cc_running\",\"cat\":\"device\",\"pid\":2130706435,\"tid\":2113929218,\"ts\":3.150,\"dur\":0.100,\"args\":{\"gid\":2,\"op_id\":5,\"nc_timestamp_ns\":12300,\"exec_id\":43,\"algorithm\":\"3\",\"stop.nc_timestamp_ns\":12400,\"tracking_id\":302,\"thread_id\":7,\"nc_idx\":1,\"id\":2008,\"device_ns\":12300,\"aligned\":true}},\n",
    "{\"ph\":\"C\",\"name\":\"NC 1 events pushed\",\"pid\":2130706435,\"tid\":0,\"ts\":5.000,\"args\":{\"events\":13}}\n",
    "],\"otherData\":{\"ts_origin_ns\":\"8000\",\"clock\":\"host CLOCK_REALTIME\",\"spans\":6,\"instants\":2,\"unmatched\":0,\"drops\":0}}\n",
    NULL};

START_TEST(test_chrome_json_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    char *doc = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, n, NULL, &doc, &len), NRT_SUCCESS);
    check_lines("chrome.a", chrome_a, doc, len);
    ntsim_buffer_free(doc);
}
END_TEST

START_TEST(test_chrome_json_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    char *doc = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, n, &options_b, &doc, &len), NRT_SUCCESS);
    check_lines("chrome.b", chrome_b, doc, len);
    ntsim_buffer_free(doc);
}
END_TEST

/* --- .pftrace (D-PFTRACE) ---------------------------------------------------------- */

/* A decoded message as one line: its present fields in field-number order,
 * `name:value`, sub-messages as `name {...}`, enums by name, strings quoted
 * (\" and \\ escaped), fixed64 and the other integers in decimal. */
typedef struct text {
    char *s;
    size_t len, cap;
} text_t;

static void text_add(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(text_t *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        ck_assert_int_ge(n, 0);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap * 2 + (size_t)n + 64;
        t->s = realloc(t->s, t->cap);
        ck_assert_ptr_nonnull(t->s);
    }
}

static void print_msg(text_t *t, const ProtobufCMessage *m);

static void print_value(text_t *t, const ProtobufCFieldDescriptor *f, const void *p)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: text_add(t, "%d", *(const int32_t *)p); break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: text_add(t, "%u", *(const uint32_t *)p); break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64: text_add(t, "%lld", (long long)*(const int64_t *)p); break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        text_add(t, "%llu", (unsigned long long)*(const uint64_t *)p);
        break;
    case PROTOBUF_C_TYPE_BOOL:
        text_add(t, "%s", *(const protobuf_c_boolean *)p ? "true" : "false");
        break;
    case PROTOBUF_C_TYPE_FLOAT: text_add(t, "%g", (double)*(const float *)p); break;
    case PROTOBUF_C_TYPE_DOUBLE: text_add(t, "%g", *(const double *)p); break;
    case PROTOBUF_C_TYPE_ENUM: {
        int v = *(const int *)p;
        const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(f->descriptor, v);
        if (ev != NULL)
            text_add(t, "%s", ev->name);
        else
            text_add(t, "%d", v);
        break;
    }
    case PROTOBUF_C_TYPE_STRING: {
        text_add(t, "\"");
        for (const char *c = *(char *const *)p; *c; c++)
            text_add(t, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
        text_add(t, "\"");
        break;
    }
    case PROTOBUF_C_TYPE_BYTES: text_add(t, "<bytes>"); break;
    case PROTOBUF_C_TYPE_MESSAGE:
        text_add(t, "{");
        print_msg(t, *(ProtobufCMessage *const *)p);
        text_add(t, "}");
        break;
    }
}

static size_t elem_size(ProtobufCType type)
{
    switch (type) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return 8;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(void *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    default: return 4;
    }
}

static void print_msg(text_t *t, const ProtobufCMessage *m)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    bool first = true;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const void *member = base + f->offset;
        const char *sep = first ? "" : " ";
        const char *colon = f->type == PROTOBUF_C_TYPE_MESSAGE ? " " : ":";
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            const char *arr = *(const char *const *)member;
            for (size_t j = 0; j < n; j++) {
                text_add(t, "%s%s%s", first ? "" : " ", f->name, colon);
                print_value(t, f, arr + j * elem_size(f->type));
                first = false;
            }
            continue;
        }
        bool present;
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
            present = *(const uint32_t *)(base + f->quantifier_offset) == f->id;
        else if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_MESSAGE)
            present = *(const void *const *)member != NULL &&
                      *(const void *const *)member != f->default_value;
        else
            present = *(const protobuf_c_boolean *)(base + f->quantifier_offset) != 0;
        if (!present)
            continue;
        text_add(t, "%s%s%s", sep, f->name, colon);
        print_value(t, f, member);
        first = false;
    }
}

/* The .pftrace of the records, decoded, one packet per line. */
static char *pftrace_text(const nrt_sys_trace_event_t *r, size_t n,
                          const ntsim_timeline_options_t *opt)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, n, opt, &bytes, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack(NULL, len, bytes);
    ck_assert_ptr_nonnull(trace);
    text_t t = {NULL, 0, 0};
    text_add(&t, "%s", "");
    for (size_t i = 0; i < trace->n_packet; i++) {
        print_msg(&t, &trace->packet[i]->base);
        text_add(&t, "\n");
    }
    perfetto__protos__trace__free_unpacked(trace, NULL);
    ntsim_buffer_free(bytes);
    return t.s;
}

/* Each packet's fields in field-number order (TracePacket: clock_snapshot 6,
 * timestamp 8, trusted_packet_sequence_id 10, track_event 11,
 * sequence_flags 13, track_descriptor 60, first_packet_on_sequence 87;
 * TrackEvent: debug_annotations 4, type 9, track_uuid 11, categories 22,
 * name 23, counter_value 30, flow_ids 47, terminating_flow_ids 48;
 * DebugAnnotation: its value (bool 2, uint 3, int 4, string 6), then name
 * 10). The annotations of a begin or instant: the START's data keys typed as
 * the JSON writes them, exec_id (an nrt_execute's), tracking_id, thread_id,
 * nc_idx, id, then device_ns and clock_seq (2 + clock, aligned items only),
 * unmatched; of an end: the STOP's keys as stop.<key>; of a drop: lost_events,
 * next_nc_local_id, nc_idx. Uuids: lanes 0x1000 = 4096 on, then counters. */
#define SEQ1 "trusted_packet_sequence_id:1"
#define U(name, v) "debug_annotations {uint_value:" #v " name:\"" name "\"} "
#define IV(name, v) "debug_annotations {int_value:" #v " name:\"" name "\"} "
#define B(name, v) "debug_annotations {bool_value:" #v " name:\"" name "\"} "
#define STR(name, v) "debug_annotations {string_value:\"" v "\" name:\"" name "\"} "
#define COUNTER(ts, uuid, v) \
    "timestamp:" #ts " " SEQ1 " track_event {type:TYPE_COUNTER track_uuid:" #uuid " counter_value:" #v "}\n"
#define EV(ts) "timestamp:" #ts " " SEQ1 " track_event {"
#define REC(trk, thread, nc, id) U("tracking_id", trk) U("thread_id", thread) U("nc_idx", nc) U("id", id)

static const char *const pftrace_a[] = {
    "clock_snapshot {clocks {clock_id:1 timestamp:5000} primary_trace_clock:BUILTIN_CLOCK_REALTIME} "
    "timestamp:5000 " SEQ1 " sequence_flags:1 first_packet_on_sequence:true\n",
    SEQ1 " track_descriptor {uuid:1 process {pid:1 process_name:\"ntsim host\"}}\n",
    SEQ1 " track_descriptor {uuid:2 process {pid:2130706432 process_name:\"neuron device 0\"}}\n",
    SEQ1 " track_descriptor {uuid:4096 thread {pid:1 tid:7 thread_name:\"thread 7\"} parent_uuid:1}\n",
    SEQ1 " track_descriptor {uuid:4097 thread {pid:1 tid:2097152000 thread_name:\"thread 7 (overlap 1)\"} parent_uuid:1}\n",
    SEQ1 " track_descriptor {uuid:4098 thread {pid:1 tid:9 thread_name:\"thread 9\"} parent_uuid:1}\n",
    SEQ1 " track_descriptor {uuid:4099 thread {pid:2130706432 tid:2113929216 thread_name:\"NC 0\"} parent_uuid:2}\n",
    SEQ1 " track_descriptor {uuid:4100 name:\"NC 0 events pushed\" parent_uuid:2 counter {unit_name:\"events\"}}\n",
    SEQ1 " track_descriptor {uuid:4101 name:\"NC 0 events lost\" parent_uuid:2 counter {unit_name:\"events\"}}\n",
    COUNTER(5000, 4101, 0),
    COUNTER(5000, 4100, 1),
    EV(5000) U("model_id", 11) U("exec_id", 42) REC(100, 7, 0, 1000)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"nrt_execute\"}\n",
    COUNTER(5050, 4101, 2),
    COUNTER(5050, 4100, 10),
    EV(5050) U("exec_id", 5) U("model_id", 11) REC(77, 7, 0, 1009)
    STR("unmatched", "stop: no START with this tracking_id")
    "type:TYPE_INSTANT track_uuid:4096 categories:\"host\" categories:\"unmatched\" "
    "name:\"kmgr_exec_core (unmatched stop)\"}\n",
    EV(5050) U("lost_events", 2) U("next_nc_local_id", 9) U("nc_idx", 0)
    "type:TYPE_INSTANT track_uuid:4099 categories:\"device\" categories:\"drop\" name:\"events lost\"}\n",
    COUNTER(5100, 4100, 2),
    EV(5100) U("exec_id", 42) U("model_id", 11) REC(42, 7, 0, 1001)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"kbl_exec_pre\"}\n",
    COUNTER(5200, 4100, 3),
    EV(5200) U("model_id", 11) REC(0, 7, 0, 1002)
    "type:TYPE_INSTANT track_uuid:4096 categories:\"host\" name:\"nrt_model_submit\"}\n",
    COUNTER(5300, 4100, 4),
    EV(5300) U("stop.exec_id", 42) U("stop.model_id", 11) "type:TYPE_SLICE_END track_uuid:4096}\n",
    COUNTER(5500, 4100, 5),
    EV(5500) U("tensor_id", 3) U("size", 64) REC(7, 7, 0, 1004)
    "type:TYPE_SLICE_BEGIN track_uuid:4097 categories:\"host\" name:\"nrt_tensor_read\"}\n",
    COUNTER(5600, 4100, 6),
    EV(5600) U("stop.model_id", 11) "type:TYPE_SLICE_END track_uuid:4096}\n",
    COUNTER(5700, 4100, 7),
    EV(5700) U("stop.tensor_id", 3) U("stop.size", 64) "type:TYPE_SLICE_END track_uuid:4097}\n",
    COUNTER(5800, 4100, 11),
    EV(5800) IV("peer_id", -3) U("exec_id", 42) IV("nec_dev_id", 1) REC(55, 9, 0, 1010)
    STR("unmatched", "start: no STOP with this tracking_id")
    "type:TYPE_INSTANT track_uuid:4098 categories:\"host\" categories:\"unmatched\" "
    "name:\"enc_barrier (unmatched start)\"}\n",
    NULL};

/* Device clock k's pairs are ClockSnapshots {REALTIME: cpu, 64: dev} on
 * sequence 2 + k, after the descriptors; c3 has none. The nrt_execute
 * carries the flow ids 1..3, each device span its terminating id. */
#define SNAP(seq, cpu, dev, first)                                                              \
    "clock_snapshot {clocks {clock_id:1 timestamp:" #cpu "} clocks {clock_id:64 timestamp:" #dev \
    "}} timestamp:" #cpu " trusted_packet_sequence_id:" #seq first "\n"
#define FIRST " sequence_flags:1 first_packet_on_sequence:true"
#define DESC(uuid, pid, tid, name, parent)                                                      \
    SEQ1 " track_descriptor {uuid:" #uuid " thread {pid:" #pid " tid:" #tid " thread_name:\"" name \
    "\"} parent_uuid:" #parent "}\n"
#define CDESC(uuid, name)                                                                       \
    SEQ1 " track_descriptor {uuid:" #uuid " name:\"" name "\" parent_uuid:2 counter {unit_name:\"events\"}}\n"

static const char *const pftrace_b[] = {
    "clock_snapshot {clocks {clock_id:1 timestamp:9000} primary_trace_clock:BUILTIN_CLOCK_REALTIME} "
    "timestamp:9000 " SEQ1 " sequence_flags:1 first_packet_on_sequence:true\n",
    SEQ1 " track_descriptor {uuid:1 process {pid:77 process_name:\"h\\\"<&>'\"}}\n",
    SEQ1 " track_descriptor {uuid:2 process {pid:2130706435 process_name:\"neuron device 3\"}}\n",
    DESC(4096, 77, 7, "thread 7", 1),
    DESC(4097, 2130706435, 2113929216, "NC 1 core 0", 2),
    DESC(4098, 2130706435, 2113929217, "NC 1 core 1", 2),
    DESC(4099, 2130706435, 2113929218, "NC 1 (no core)", 2),
    DESC(4100, 2130706435, 2113929219, "NC 1 notifications & DMA", 2),
    DESC(4101, 2130706435, 2113929220, "NC 2", 2),
    CDESC(4102, "NC 1 events pushed"),
    CDESC(4103, "NC 1 events lost"),
    CDESC(4104, "NC 2 events pushed"),
    CDESC(4105, "NC 2 events lost"),
    SNAP(2, 10000, 11000, FIRST),
    SNAP(2, 12048, 13050, ""),
    SNAP(3, 10500, 12500, FIRST),
    SNAP(4, 11150, 12300, FIRST),
    COUNTER(9000, 4103, 0),
    COUNTER(9000, 4102, 1),
    EV(9000) U("model_id", 12) U("exec_id", 43) REC(200, 7, 1, 2000)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"nrt_execute\" "
    "flow_ids:1 flow_ids:2 flow_ids:3}\n",
    COUNTER(9050, 4105, 0),
    COUNTER(9050, 4104, 1),
    EV(9050) U("device_core_idx", 0) U("hint", 1) U("custom_data", 0) U("nc_timestamp_ns", 777)
    U("exec_id", 0) REC(0, 7, 2, 2013) U("device_ns", 777)
    "type:TYPE_INSTANT track_uuid:4101 categories:\"device\" name:\"hw_notify\"}\n",
    COUNTER(9100, 4102, 2),
    EV(9100) U("exec_id", 43) U("model_id", 12) REC(43, 7, 1, 2001)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"kbl_exec_pre\"}\n",
    COUNTER(9200, 4102, 3),
    EV(9200) U("stop.exec_id", 43) U("stop.model_id", 12) "type:TYPE_SLICE_END track_uuid:4096}\n",
    COUNTER(9300, 4102, 4),
    COUNTER(9400, 4102, 5),
    COUNTER(9500, 4102, 6),
    COUNTER(9600, 4102, 7),
    COUNTER(9700, 4102, 8),
    COUNTER(9800, 4102, 9),
    COUNTER(9900, 4102, 10),
    EV(10000) U("device_core_idx", 0) U("exec_id", 43) U("nc_timestamp_ns", 11000) U("model_id", 0)
    REC(300, 7, 1, 2003) U("device_ns", 11000) U("clock_seq", 2)
    "type:TYPE_SLICE_BEGIN track_uuid:4097 categories:\"device\" name:\"nc_exec_running\" "
    "terminating_flow_ids:1}\n",
    COUNTER(10100, 4102, 11),
    EV(10100) U("hbm_idx", 1) B("is_nc_hbm", true) B("is_aligned", false) U("mla_idx", 2)
    STR("usage_type", "weight") REC(303, 7, 1, 2010)
    "type:TYPE_SLICE_BEGIN track_uuid:4100 categories:\"dma\" name:\"nrt_dma_mem_alloc\"}\n",
    COUNTER(10200, 4102, 12),
    EV(10200) U("stop.allocated_bytes", 4096) U("stop.total_bytes", 16384)
    U("stop.usage_type_total_bytes", 8192) U("stop.return_code", 0)
    STR("stop.physical_address", "0xabc0") "type:TYPE_SLICE_END track_uuid:4100}\n",
    EV(10500) U("device_core_idx", 1) U("model_id", 12) U("exec_id", 43) U("nc_timestamp_ns", 12500)
    REC(301, 7, 1, 2004) U("device_ns", 12500) U("clock_seq", 3)
    "type:TYPE_SLICE_BEGIN track_uuid:4098 categories:\"device\" name:\"nc_model_switch\" "
    "terminating_flow_ids:2}\n",
    EV(10700) U("stop.nc_timestamp_ns", 12700) "type:TYPE_SLICE_END track_uuid:4098}\n",
    EV(11000) U("device_core_idx", 0) U("hint", 7) U("custom_data", 9) U("nc_timestamp_ns", 12001)
    U("exec_id", 43) REC(5, 7, 1, 2006) U("device_ns", 12001) U("clock_seq", 2)
    "type:TYPE_INSTANT track_uuid:4097 categories:\"device\" name:\"hw_notify\"}\n",
    EV(11150) U("gid", 2) U("op_id", 5) U("nc_timestamp_ns", 12300) U("exec_id", 43)
    STR("algorithm", "3") REC(302, 7, 1, 2008) U("device_ns", 12300) U("clock_seq", 4)
    "type:TYPE_SLICE_BEGIN track_uuid:4099 categories:\"device\" name:\"cc_running\" "
    "terminating_flow_ids:3}\n",
    EV(11250) U("stop.nc_timestamp_ns", 12400) "type:TYPE_SLICE_END track_uuid:4099}\n",
    EV(12048) U("stop.nc_timestamp_ns", 13050) "type:TYPE_SLICE_END track_uuid:4097}\n",
    COUNTER(13000, 4102, 13),
    EV(13000) U("stop.model_id", 12) "type:TYPE_SLICE_END track_uuid:4096}\n",
    NULL};

START_TEST(test_pftrace_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    char *got = pftrace_text(r, n, NULL);
    check_lines("pftrace.a", pftrace_a, got, strlen(got));
    free(got);
}
END_TEST

START_TEST(test_pftrace_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    char *got = pftrace_text(r, n, &options_b);
    check_lines("pftrace.b", pftrace_b, got, strlen(got));
    free(got);
}
END_TEST

/* --- the HTML page (D-TIMELINE-HTML) --------------------------------------------------- */

/* From <h1> to </svg>: the style and the script before and after are
 * constants. x = 230 + (t - t_min) * 1100 / (t_max - t_min) ("%.2f"); lane
 * l's top y_l = 28 + 4 + the rows above it (rows * 14 + 8 each), a lane
 * having as many rows as its deepest nesting (at least 1); a mark at depth d
 * (open spans on its lane when it begins) sits at y_l + 14 d: a span's rect
 * at y + 1, 12 high, class "span [device] t<type % 12>"; an instant's circle
 * at y + 7, r 4, class "instant [device] [flagged]"; a flow's line from and
 * to y + 7. The lane's background rect at y_l - 2, rows * 14 + 4 high; its
 * name at y_l + 11. Times in data-b/e and the title as ns/us after t_min.
 *
 * A: span 800, x = 230 + 1.375 (t - 5000). Depths in edge order: i0 0, i4 1,
 * i1 1, i2 2 on lane 0 (3 rows, y 32); i3 0 on lane 1 (y 32 + 50 = 82); i5
 * on lane 2 (y 104); the drop on lane 3 (y 126); height 126 - 4 + 22 = 144. */
#define LANE(name, pid, tid, spans, instants, bg, h, ty)                                         \
    "<g class=\"lane\" data-lane=\"" name "\" data-pid=\"" #pid "\" data-tid=\"" #tid            \
    "\" data-spans=\"" #spans "\" data-instants=\"" #instants "\">\n"                             \
    "<rect class=\"lane-bg\" x=\"0\" y=\"" #bg "\" width=\"1340\" height=\"" #h "\"/>"             \
    "<text class=\"lane-name\" x=\"4\" y=\"" #ty "\">" name "</text>\n"
#define RECT(cls, x, y, w, b, e) \
    "<rect class=\"" cls "\" x=\"" #x "\" y=\"" #y "\" width=\"" #w "\" height=\"12\" data-b=\"" #b "\" data-e=\"" #e "\">"
#define CIRCLE(cls, x, y, b) \
    "<circle class=\"" cls "\" cx=\"" #x "\" cy=\"" #y "\" r=\"4\" data-b=\"" #b "\" data-e=\"" #b "\">"

static const char *const html_a[] = {
    "<h1>ntsim timeline: ntsim host, neuron device 0</h1>\n",
    "<p id=\"summary\">3 spans, 1 instants, 2 unmatched, 1 drops (2 events lost), 0 flows, 4 lanes, "
    "0 device clocks (worst sync residual 0.0 ns); time is the host clock from 5000 ns, device "
    "times aligned.</p>\n",
    "<div id=\"controls\"><button id=\"zoom-in\">+</button><button id=\"zoom-out\">&#8722;</button>"
    "<button id=\"zoom-reset\">reset</button> wheel to zoom, drag to pan, point at a mark for its "
    "details</div>\n<div id=\"detail\"></div>\n",
    "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"1340\" height=\"144\" "
    "data-label=\"230\" data-plot=\"1100\" data-span=\"800\" data-t0=\"5000\" data-spans=\"3\" "
    "data-lanes=\"4\">\n<g id=\"ticks\"></g>\n",
    LANE("thread 7", 1, 7, 2, 2, 30, 46, 43),
    RECT("span t3", 230.00, 33, 825.00, 0, 600)
    "<title>nrt_execute&#10;at +0.000 us, 0.600 us&#10;nc 0, thread 7, tracking_id 100, exec_id 42"
    "&#10;model_id: 11</title></rect>\n",
    CIRCLE("instant flagged", 298.75, 53, 50)
    "<title>kmgr_exec_core (unmatched stop: no START with its tracking_id)&#10;at +0.050 us"
    "&#10;nc 0, thread 7, tracking_id 77, exec_id 5&#10;exec_id: 5&#10;model_id: 11</title></circle>\n",
    RECT("span t5", 367.50, 47, 275.00, 100, 300)
    "<title>kbl_exec_pre&#10;at +0.100 us, 0.200 us&#10;nc 0, thread 7, tracking_id 42, exec_id 42"
    "&#10;exec_id: 42&#10;model_id: 11</title></rect>\n",
    CIRCLE("instant", 505.00, 67, 200)
    "<title>nrt_model_submit&#10;at +0.200 us&#10;nc 0, thread 7, tracking_id 0&#10;model_id: 11"
    "</title></circle>\n",
    "</g>\n",
    LANE("thread 7 (overlap 1)", 1, 2097152000, 1, 0, 80, 18, 93),
    RECT("span t9", 917.50, 83, 275.00, 500, 700)
    "<title>nrt_tensor_read&#10;at +0.500 us, 0.200 us&#10;nc 0, thread 7, tracking_id 7"
    "&#10;tensor_id: 3&#10;size: 64</title></rect>\n",
    "</g>\n",
    LANE("thread 9", 1, 9, 0, 1, 102, 18, 115),
    CIRCLE("instant flagged", 1330.00, 111, 800)
    "<title>enc_barrier (unmatched start: no STOP with its tracking_id)&#10;at +0.800 us"
    "&#10;nc 0, thread 9, tracking_id 55, exec_id 42&#10;peer_id: -3&#10;exec_id: 42"
    "&#10;nec_dev_id: 1</title></circle>\n",
    "</g>\n",
    LANE("NC 0", 2130706432, 2113929216, 0, 1, 124, 18, 137),
    CIRCLE("instant flagged", 298.75, 133, 50)
    "<title>events lost: 2 (nc_local_id before 9 missing on NC 0)</title></circle>\n",
    "</g>\n",
    "<g class=\"flows\">\n</g>\n</svg>\n",
    NULL};

/* B: span 4000, x = 230 + 0.275 (t - 9000). Rows: lane 0 2 (i1 inside i0),
 * lane 1 2 (i4 inside i2), the others 1: y 32, 68, 104, 126, 148, 170;
 * height 188. Flows from i0 (y 32 + 7) to i2, i3, i5. */
static const char *const html_b[] = {
    "<h1>ntsim timeline: h&quot;&lt;&amp;&gt;&#39;, neuron device 3</h1>\n",
    "<p id=\"summary\">6 spans, 2 instants, 0 unmatched, 0 drops (0 events lost), 3 flows, 6 lanes, "
    "4 device clocks (worst sync residual 0.0 ns); time is the host clock from 9000 ns, device "
    "times aligned.</p>\n",
    "<div id=\"controls\"><button id=\"zoom-in\">+</button><button id=\"zoom-out\">&#8722;</button>"
    "<button id=\"zoom-reset\">reset</button> wheel to zoom, drag to pan, point at a mark for its "
    "details</div>\n<div id=\"detail\"></div>\n",
    "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"1340\" height=\"188\" "
    "data-label=\"230\" data-plot=\"1100\" data-span=\"4000\" data-t0=\"9000\" data-spans=\"6\" "
    "data-lanes=\"6\">\n<g id=\"ticks\"></g>\n",
    LANE("thread 7", 77, 7, 2, 0, 30, 32, 43),
    RECT("span t3", 230.00, 33, 1100.00, 0, 4000)
    "<title>nrt_execute&#10;at +0.000 us, 4.000 us&#10;nc 1, thread 7, tracking_id 200, exec_id 43"
    "&#10;model_id: 12</title></rect>\n",
    RECT("span t5", 257.50, 47, 27.50, 100, 200)
    "<title>kbl_exec_pre&#10;at +0.100 us, 0.100 us&#10;nc 1, thread 7, tracking_id 43, exec_id 43"
    "&#10;exec_id: 43&#10;model_id: 12</title></rect>\n",
    "</g>\n",
    LANE("NC 1 core 0", 2130706435, 2113929216, 1, 1, 66, 32, 79),
    RECT("span device t7", 505.00, 69, 563.20, 1000, 3048)
    "<title>nc_exec_running&#10;at +1.000 us, 2.048 us&#10;nc 1, thread 7, tracking_id 300, "
    "exec_id 43&#10;device clock 11000 ns, aligned&#10;device_core_idx: 0&#10;exec_id: 43"
    "&#10;nc_timestamp_ns: 11000&#10;model_id: 0</title></rect>\n",
    CIRCLE("instant device", 780.00, 89, 2000)
    "<title>hw_notify&#10;at +2.000 us&#10;nc 1, thread 7, tracking_id 5, exec_id 43"
    "&#10;device clock 12001 ns, aligned&#10;device_core_idx: 0&#10;hint: 7&#10;custom_data: 9"
    "&#10;nc_timestamp_ns: 12001&#10;exec_id: 43</title></circle>\n",
    "</g>\n",
    LANE("NC 1 core 1", 2130706435, 2113929217, 1, 0, 102, 18, 115),
    RECT("span device t2", 642.50, 105, 55.00, 1500, 1700)
    "<title>nc_model_switch&#10;at +1.500 us, 0.200 us&#10;nc 1, thread 7, tracking_id 301, "
    "exec_id 43&#10;device clock 12500 ns, aligned&#10;device_core_idx: 1&#10;model_id: 12"
    "&#10;exec_id: 43&#10;nc_timestamp_ns: 12500</title></rect>\n",
    "</g>\n",
    LANE("NC 1 (no core)", 2130706435, 2113929218, 1, 0, 124, 18, 137),
    RECT("span device t8", 821.25, 127, 27.50, 2150, 2250)
    "<title>cc_running&#10;at +2.150 us, 0.100 us&#10;nc 1, thread 7, tracking_id 302, exec_id 43"
    "&#10;device clock 12300 ns, aligned&#10;gid: 2&#10;op_id: 5&#10;nc_timestamp_ns: 12300"
    "&#10;exec_id: 43&#10;algorithm: 3</title></rect>\n",
    "</g>\n",
    LANE("NC 1 notifications &amp; DMA", 2130706435, 2113929219, 1, 0, 146, 18, 159),
    RECT("span t10", 532.50, 149, 27.50, 1100, 1200)
    "<title>nrt_dma_mem_alloc&#10;at +1.100 us, 0.100 us&#10;nc 1, thread 7, tracking_id 303"
    "&#10;hbm_idx: 1&#10;is_nc_hbm: true&#10;is_aligned: false&#10;mla_idx: 2"
    "&#10;usage_type: weight</title></rect>\n",
    "</g>\n",
    LANE("NC 2", 2130706435, 2113929220, 0, 1, 168, 18, 181),
    CIRCLE("instant device", 243.75, 177, 50)
    "<title>hw_notify&#10;at +0.050 us&#10;nc 2, thread 7, tracking_id 0&#10;device clock 777 ns "
    "(no sync pair: not aligned)&#10;device_core_idx: 0&#10;hint: 1&#10;custom_data: 0"
    "&#10;nc_timestamp_ns: 777&#10;exec_id: 0</title></circle>\n",
    "</g>\n",
    "<g class=\"flows\">\n",
    "<line class=\"flow\" x1=\"230.00\" y1=\"39\" x2=\"505.00\" y2=\"75\" data-b=\"0\" data-e=\"1000\"/>\n",
    "<line class=\"flow\" x1=\"230.00\" y1=\"39\" x2=\"642.50\" y2=\"111\" data-b=\"0\" data-e=\"1500\"/>\n",
    "<line class=\"flow\" x1=\"230.00\" y1=\"39\" x2=\"821.25\" y2=\"133\" data-b=\"0\" data-e=\"2150\"/>\n",
    "</g>\n</svg>\n",
    NULL};

/* The page around the part worked out above: a document with its style and
 * script inline, the middle exactly as expected. */
static void check_page(const char *what, const char *const *middle, const char *page, size_t len)
{
    ck_assert_uint_eq(strlen(page), len);
    static const char head[] = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                               "<title>ntsim timeline</title>\n<style>";
    ck_assert(strncmp(page, head, sizeof head - 1) == 0);
    const char *h1 = strstr(page, "</style></head>\n<body>\n<h1>");
    ck_assert_ptr_nonnull(h1);
    h1 += strlen("</style></head>\n<body>\n");
    const char *end = strstr(h1, "</svg>\n");
    ck_assert_ptr_nonnull(end);
    end += strlen("</svg>\n");
    ck_assert(strncmp(end, "<script>", 8) == 0);
    ck_assert_str_eq(page + len - strlen("</script>\n</body></html>\n"),
                     "</script>\n</body></html>\n");
    char *got = strndup(h1, (size_t)(end - h1));
    ck_assert_ptr_nonnull(got);
    check_lines(what, middle, got, strlen(got));
    free(got);
}

START_TEST(test_html_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, NULL, &page, &len), NRT_SUCCESS);
    check_page("html.a", html_a, page, len);
    ntsim_buffer_free(page);
}
END_TEST

START_TEST(test_html_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, n, &options_b, &page, &len), NRT_SUCCESS);
    check_page("html.b", html_b, page, len);
    ntsim_buffer_free(page);
}
END_TEST

/* The first five records of traces C and D: an nrt_execute START at 1 ms
 * on thread 7 (model 1), its kbl_exec_pre [1000100, 1000200] naming
 * exec_id 1, and an nc_model_switch [1000300, 1000400] of exec_id 1 whose
 * pairs have dev - cpu = 5000 - 1000300. */
static void execute_with_a_model_switch(nrt_sys_trace_event_t r[5])
{
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 1, 1000000, 0, 0);
    r[0].data.nrt_exec.model_id = 1;
    exec_pre_span(r, 1, 0, 7, 2, 1000100, 1000200, 1);
    r[3] = rec(TY(NC_MODEL_SWITCH), S, 0, 7, 3, 1000300, 3, 3);
    r[3].data.nc_model_switch_start.exec_id = 1;
    r[3].data.nc_model_switch_start.sync_info.nc_timestamp_ns = 5000;
    r[3].data.nc_model_switch_start.sync_info.cpu_timestamp_ns = 1000300;
    r[4] = rec(TY(NC_MODEL_SWITCH), T, 0, 7, 3, 1000400, 4, 4);
    r[4].data.nc_model_switch_stop.sync_info.nc_timestamp_ns = 5100;
    r[4].data.nc_model_switch_stop.sync_info.cpu_timestamp_ns = 1000400;
}

/* --- Chrome JSON details (D-CHROME-JSON, D-TIMELINE-ORDER) ---------------------------- */

/* Trace C: an nrt_execute [1 ms, 3001 ms] (exec_id 1 from its kbl_exec_pre)
 * whose first flow goes to an nc_model_switch (item 2, flow 1) and second to
 * an nc_exec_running (item 3, flow 2): the span binds flows ("exec") because
 * one of them ends on nc_exec_running, and only flow 2 is written ("s" on the
 * nrt_execute, "f" on the device span). The device records' pairs all have
 * dev - cpu = 5000 - 1000300 = -995300: b = 0, aligned times are the cpus.
 * ts_origin_ns = 1000000 - 1000 = 999000; the nrt_execute lasts 3e9 ns =
 * 3000000.000 us; the last pushed sample (id 7, count 8) is at 3001000000,
 * 3000001.000 us after the origin. */
START_TEST(test_chrome_json_flows_ids_and_long_times)
{
    nrt_sys_trace_event_t r[8];
    execute_with_a_model_switch(r);
    r[5] = rec(TY(DEVICE_EXEC), S, 0, 7, 4, 1000500, 5, 5);
    r[5].data.nc_exec_start.exec_id = 1;
    r[5].data.nc_exec_start.sync_info.nc_timestamp_ns = 5200;
    r[5].data.nc_exec_start.sync_info.cpu_timestamp_ns = 1000500;
    r[6] = rec(TY(DEVICE_EXEC), T, 0, 7, 4, 1000600, 6, 6);
    r[6].data.nc_exec_stop.sync_info.nc_timestamp_ns = 5300;
    r[6].data.nc_exec_stop.sync_info.cpu_timestamp_ns = 1000600;
    r[7] = rec(TY(EXECUTE_API), T, 0, 7, 1, UINT64_C(3001000000), 7, 7);
    r[7].data = r[0].data;
    char *doc = NULL;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 8, NULL, &doc, &len), NRT_SUCCESS);
    static const char *const want[] = {
        "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"exec\",\"pid\":1,\"tid\":7,\"ts\":1.000,"
        "\"dur\":3000000.000,\"args\":{\"model_id\":1,\"stop.model_id\":1,\"tracking_id\":1,"
        "\"thread_id\":7,\"nc_idx\":0,\"id\":0,\"exec_id\":1}},\n"
        "{\"ph\":\"s\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":2,\"pid\":1,\"tid\":7,\"ts\":1.000},\n",
        "{\"ph\":\"X\",\"name\":\"nc_model_switch\",\"cat\":\"device\",\"pid\":2130706432,"
        "\"tid\":2113929216,\"ts\":1.300,\"dur\":0.100,",
        "{\"ph\":\"X\",\"name\":\"nc_exec_running\",\"cat\":\"exec\",\"pid\":2130706432,"
        "\"tid\":2113929216,\"ts\":1.500,\"dur\":0.100,",
        "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":2,\"pid\":2130706432,"
        "\"tid\":2113929216,\"ts\":1.500}",
        "{\"ph\":\"C\",\"name\":\"NC 0 events pushed\",\"pid\":2130706432,\"tid\":0,"
        "\"ts\":3000001.000,\"args\":{\"events\":8}}",
        "\"ts_origin_ns\":\"999000\"",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(doc, want[i]) != NULL, "missing: %s\nin: %s", want[i], doc);
    ck_assert_ptr_null(strstr(doc, "\"id\":1,\"pid\""));
    ntsim_buffer_free(doc);
}
END_TEST

/* D-CHROME-JSON: the origin is 1 us before the first item, 0 when that is
 * earlier than 1 us; a name whose JSON string takes 256 bytes or more (the
 * host name is the caller's) is written "?". */
START_TEST(test_chrome_json_origin_and_long_names)
{
    static const struct {
        uint64_t t;
        const char *origin, *ts;
    } at[] = {{500, "\"ts_origin_ns\":\"0\"", "\"ts\":0.500,"},
              {999, "\"ts_origin_ns\":\"0\"", "\"ts\":0.999,"},
              {1000, "\"ts_origin_ns\":\"0\"", "\"ts\":1.000,"},
              {1001, "\"ts_origin_ns\":\"1\"", "\"ts\":1.000,"}};
    for (size_t i = 0; i < 4; i++) {
        nrt_sys_trace_event_t e = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, at[i].t, 0, 0);
        char *doc = NULL;
        size_t len;
        ck_assert_int_eq(ntsim_chrome_trace_serialize(&e, 1, NULL, &doc, &len), NRT_SUCCESS);
        ck_assert_msg(strstr(doc, at[i].origin) && strstr(doc, at[i].ts), "t %llu: %s",
                      (unsigned long long)at[i].t, doc);
        ntsim_buffer_free(doc);
    }
    /* The model keeps 63 bytes of a name (D-TIMELINE-ORDER); a control byte
     * takes 6 in JSON (\u0001): 42 of them, the quotes and 1 or 2 more
     * bytes need 255 (written) or 256 ("?"). */
    char name[64];
    for (size_t plain = 1; plain <= 2; plain++) {
        memset(name, 1, 42);
        memset(name + 42, 'h', plain);
        name[42 + plain] = '\0';
        ntsim_timeline_options_t opt = {0, 0, name};
        nrt_sys_trace_event_t e = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
        char *doc = NULL;
        size_t len;
        ck_assert_int_eq(ntsim_chrome_trace_serialize(&e, 1, &opt, &doc, &len), NRT_SUCCESS);
        char want[320] = "\"process_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"";
        for (int i = 0; i < 42 && plain == 1; i++)
            strcat(want, "\\u0001");
        strcat(want, plain == 1 ? "h\"}}" : "?\"}}");
        ck_assert_msg(strstr(doc, want) != NULL, "%zu: %.400s", plain, doc);
        ntsim_buffer_free(doc);
    }
    /* ... and cuts a longer host name at 63 bytes. */
    char longer[100];
    memset(longer, 'h', 99);
    longer[99] = '\0';
    ntsim_timeline_options_t opt = {0, 0, longer};
    nrt_sys_trace_event_t e = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(&e, 1, &opt, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(strlen(tl.processes[0].name), 63);
    ntsim__timeline_free(&tl);
}
END_TEST

/* n MODEL_SUBMIT instants on NC 0, record i on thread 1000 + i at
 * (i + 1) ms, with tracking id, nc_local_id and id i: one lane each. The
 * caller frees the array. */
static nrt_sys_trace_event_t *instants_on_threads(size_t n)
{
    nrt_sys_trace_event_t *r = malloc(n * sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, 0, 1000 + i, i, 1000000 * (i + 1), i, i);
    return r;
}

/* Outputs past what the writers reserve up front (the Chrome JSON's 200 bytes
 * per edge, the page's 400 per item do not cover the lanes' names): 300
 * threads, one instant each, 1 ms apart. D-TIMELINE-ORDER: 300 lanes; NC 0's
 * 300 records give a lost sample and pushed samples every second record
 * (300 / 256 + 1 = 2) and at the last: 150 + 1. So the Chrome JSON holds 4
 * process and 600 thread metadata events, 300 instants and 152 samples. */
START_TEST(test_writers_grow_past_their_first_reservation)
{
    nrt_sys_trace_event_t *r = instants_on_threads(300);
    char *doc = NULL;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 300, NULL, &doc, &len), NRT_SUCCESS);
    size_t events = 0;
    for (const char *p = doc; (p = strstr(p, "{\"ph\":")) != NULL; p++)
        events++;
    ck_assert_uint_eq(events, 4 + 600 + 300 + 152);
    ck_assert_ptr_nonnull(strstr(doc, "\"name\":\"thread_name\",\"pid\":1,\"tid\":1299,"
                                      "\"args\":{\"name\":\"thread 1299\"}}"));
    ck_assert_ptr_nonnull(strstr(doc, "\"ts\":299001.000,\"s\":\"t\""));
    ck_assert_str_eq(doc + len - 2, "}\n");
    ntsim_buffer_free(doc);
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 300, NULL, &doc, &len), NRT_SUCCESS);
    size_t lanes = 0;
    for (const char *p = doc; (p = strstr(p, "<g class=\"lane\"")) != NULL; p++)
        lanes++;
    ck_assert_uint_eq(lanes, 300);
    ck_assert_str_eq(doc + len - strlen("</body></html>\n"), "</body></html>\n");
    ntsim_buffer_free(doc);
    free(r);
}
END_TEST

/* ntsim__text_put (timeline.h): a piece goes where it fits with its NUL,
 * else the buffer grows and it goes there; the first failure sticks. The
 * growbuf's first capacity is 4096 (growbuf.h): after 10 bytes, a piece of
 * 4086 fills it to the last byte, so it (with its NUL) needs the next
 * capacity, and comes out whole. */
START_TEST(test_text_put_fills_its_buffer_to_the_last_byte)
{
    ntsim_textout_t o = {{NULL, 0, 0}, NRT_SUCCESS};
    ntsim__text_put(&o, "%s", "0123456789");
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 10);
    ck_assert_uint_eq(o.b.cap, 4096);
    char *piece = malloc(4087);
    ck_assert_ptr_nonnull(piece);
    memset(piece, 'p', 4086);
    piece[4086] = '\0';
    ntsim__text_put(&o, "%s", piece);
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 4096);
    ck_assert_uint_eq(o.b.cap, 8192);
    ck_assert(memcmp(o.b.data, "0123456789", 10) == 0);
    ck_assert(memcmp(o.b.data + 10, piece, 4086) == 0);
    ck_assert_int_eq(o.b.data[4096], '\0');
    ntsim__text_put(&o, "%s", ""); /* nothing: a no-op */
    ck_assert_uint_eq(o.b.len, 4096);
    /* Out of memory while growing: NRT_RESOURCE, and it sticks. The first
     * piece fits in the 8192 (8182 bytes and the NUL), the second does not. */
    ntsim_probe_begin(0);
    ntsim__text_put(&o, "%s", piece);
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 8182);
    ntsim__text_put(&o, "%s", piece);
    ck_assert_int_eq(o.st, NRT_RESOURCE);
    ck_assert_uint_eq(o.b.len, 8182);
    ntsim_probe_end();
    ntsim__text_put(&o, "%s", "x");
    ck_assert_int_eq(o.st, NRT_RESOURCE);
    ck_assert_uint_eq(o.b.len, 8182);
    ntsim__free(o.b.data);
    free(piece);
}
END_TEST

/* --- out of memory (D-ALLOCATOR) -------------------------------------------------------- */

typedef NRT_STATUS (*writer_fn)(const nrt_sys_trace_event_t *, size_t,
                                const ntsim_timeline_options_t *, void **, size_t *);

static NRT_STATUS write_pftrace(const nrt_sys_trace_event_t *r, size_t n,
                                const ntsim_timeline_options_t *o, void **out, size_t *len)
{
    return ntsim_pftrace_serialize(r, n, o, (uint8_t **)out, len);
}

static NRT_STATUS write_chrome(const nrt_sys_trace_event_t *r, size_t n,
                               const ntsim_timeline_options_t *o, void **out, size_t *len)
{
    return ntsim_chrome_trace_serialize(r, n, o, (char **)out, len);
}

static NRT_STATUS write_html(const nrt_sys_trace_event_t *r, size_t n,
                             const ntsim_timeline_options_t *o, void **out, size_t *len)
{
    return ntsim_timeline_html_serialize(r, n, o, (char **)out, len);
}

static NRT_STATUS write_stats(const nrt_sys_trace_event_t *r, size_t n,
                              const ntsim_timeline_options_t *o, void **out, size_t *len)
{
    ntsim_timeline_stats_t *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    NRT_STATUS rc = ntsim_timeline_stats(r, n, o, st);
    if (rc != NRT_SUCCESS) {
        free(st);
        return rc;
    }
    *out = st;
    *len = sizeof *st;
    return NRT_SUCCESS;
}

/* Every allocation of a writer failing in turn: NRT_RESOURCE and nothing
 * left allocated, until enough are allowed; then the same bytes as with no
 * limit, and only the output left allocated (none for the stats). */
static void check_out_of_memory(writer_fn w, bool output_block, const nrt_sys_trace_event_t *r,
                                size_t n, const ntsim_timeline_options_t *o)
{
    void *whole = NULL;
    size_t whole_len = 0;
    ck_assert_int_eq(w(r, n, o, &whole, &whole_len), NRT_SUCCESS);
    for (uint64_t allow = 0;; allow++) {
        ck_assert_uint_lt(allow, 10000);
        void *out = NULL;
        size_t len = 0;
        ntsim_probe_begin(allow);
        NRT_STATUS st = w(r, n, o, &out, &len);
        ntsim_probe_end();
        if (st != NRT_SUCCESS) {
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_msg(ntsim_probe.live == 0, "allow %u: %zu blocks left", (unsigned)allow,
                          ntsim_probe.live);
            continue;
        }
        ck_assert_uint_eq(ntsim_probe.refused, 0);
        ck_assert_uint_eq(ntsim_probe.live, output_block ? 1 : 0);
        ck_assert_uint_eq(len, whole_len);
        ck_assert(memcmp(out, whole, len) == 0);
        if (output_block)
            ntsim_buffer_free(out);
        else
            free(out);
        break;
    }
    if (output_block)
        ntsim_buffer_free(whole);
    else
        free(whole);
}

START_TEST(test_writers_run_out_of_memory_cleanly)
{
    nrt_sys_trace_event_t a[16], b[16];
    size_t na = trace_a(a), nb = trace_b(b);
    static const writer_fn writers[] = {write_pftrace, write_chrome, write_html, write_stats};
    /* 300 instants on 300 threads: outputs past the writers' first
     * reservation, so they grow. */
    nrt_sys_trace_event_t *many = malloc(300 * sizeof *many);
    ck_assert_ptr_nonnull(many);
    for (size_t i = 0; i < 300; i++)
        many[i] = rec(TY(MODEL_SUBMIT), I, 0, 1000 + i, i, 1000 + 10 * i, i, i);
    for (size_t i = 0; i < 4; i++) {
        check_out_of_memory(writers[i], i < 3, a, na, NULL);
        check_out_of_memory(writers[i], i < 3, b, nb, &options_b);
        check_out_of_memory(writers[i], i < 3, many, 300, NULL);
    }
    free(many);
}
END_TEST

/* D-PFTRACE-CLOCK by hand, where the pairs do not lie on a line. NC 3's
 * clock: c0 = 100000, x = cpu - c0 = 0, 1024, 2048, y = dev - cpu = 1000,
 * 1004, 1002: mean x 1024, mean y 1002, sxx = 2 * 1024^2, sxy = 2048, so
 * b = 1/1024 and a = 1002 - 1 = 1001. Aligned: c0 + round((x + y - 1001) *
 * 1024/1025): -0.999 -> -1, 1025.998 -> 1026, 2047.001 -> 2047; residuals
 * 1, 2, 1. NC 4's: y = 1001, 1000, 1002: b = 1024 / 2097152 = 1/2048, a =
 * 1000.5; (x + y - 1000.5) * 2048/2049: 0.4998 -> 0, 1023.0005 -> 1023,
 * 2048.4998 -> 2048; residuals 0, 1, 0. The worst of all clocks is 2. */
START_TEST(test_clock_fit_and_alignment_by_hand)
{
    static const uint64_t x[3] = {0, 1024, 2048};
    static const uint64_t y3[3] = {1000, 1004, 1002}, y4[3] = {1001, 1000, 1002};
    nrt_sys_trace_event_t r[6];
    for (int i = 0; i < 6; i++) {
        int nc = i < 3 ? 3 : 4;
        uint64_t cpu = 100000 + x[i % 3];
        uint64_t dev = cpu + (nc == 3 ? y3[i % 3] : y4[i % 3]);
        r[i] = rec(TY(HW_NOTIFY), I, (uint32_t)nc, 7, 0, 5, (uint64_t)(i % 3), (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev;
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu;
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert(tl.stats.max_residual_ns == 2);
    ck_assert_uint_eq(tl.clocks[0].c0, 100000);
    ck_assert(tl.clocks[0].b == 1.0 / 1024);
    ck_assert(tl.clocks[0].a == 1001);
    ck_assert(tl.clocks[0].max_residual_ns == 2);
    ck_assert_uint_eq(tl.clocks[0].pairs, 3);
    ck_assert(tl.clocks[1].b == 1.0 / 2048);
    ck_assert(tl.clocks[1].a == 1000.5);
    ck_assert(tl.clocks[1].max_residual_ns == 1);
    ck_assert_uint_eq(tl.clocks[1].pair_first, 3);
    static const int64_t aligned3[3] = {-1, 1026, 2047}, aligned4[3] = {0, 1023, 2048};
    for (size_t i = 0; i < 6; i++) {
        int64_t want = i < 3 ? aligned3[i] : aligned4[i - 3];
        ck_assert_msg(tl.items[i].begin == (uint64_t)(100000 + want), "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    }
    ntsim__timeline_free(&tl);

    /* Three more clocks, worked out the same way.
     * NC 5, x = 0, 1, 2, 10, 11 and y = 1000 + (-6, 2, 5, 1, -2): the offsets
     * sum to 0 and so do x times them, so the line is y = 1000 (b = 0 up to
     * the rounding of mean x = 4.8) and each aligned time is cpu + the
     * offset: residuals 6, 2, 5, 1, 2, the worst the first pair's.
     * NC 6, (x, y) = (0, 1000), (1, 1001): mean 0.5, 1000.5, sxx = sxy = 0.5,
     * b = 1, a = 1000; its third record, device time c0 + 1004 with no host
     * half, aligns to c0 + 4 / 2 = c0 + 2.
     * NC 7, x = 0, 1, 3, y = 2^52 for all (a device clock 52 days ahead, still
     * exact in a double): y - mean y is exactly 0, so b = 0,
     * a = 2^52, and each aligned time is its own cpu: the sums taken about
     * the means lose nothing to a huge offset (D-PFTRACE-CLOCK). */
    static const uint64_t x5[5] = {0, 1, 2, 10, 11};
    static const int64_t r5[5] = {-6, 2, 5, 1, -2};
    nrt_sys_trace_event_t m[11];
    for (int i = 0; i < 5; i++) {
        m[i] = rec(TY(HW_NOTIFY), I, 5, 7, 0, 5, (uint64_t)i, (uint64_t)i);
        m[i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x5[i];
        m[i].data.hw_notify.sync_info.nc_timestamp_ns =
            (uint64_t)(100000 + (int64_t)x5[i] + 1000 + r5[i]);
    }
    for (int i = 0; i < 3; i++) {
        m[5 + i] = rec(TY(HW_NOTIFY), I, 6, 7, 0, 5, (uint64_t)i, (uint64_t)(5 + i));
        m[5 + i].data.hw_notify.sync_info.cpu_timestamp_ns = i < 2 ? 100000 + (uint64_t)i : 0;
        m[5 + i].data.hw_notify.sync_info.nc_timestamp_ns =
            i < 2 ? 100000 + (uint64_t)i + 1000 + (uint64_t)i : 100000 + 1004;
    }
    static const uint64_t x7[3] = {0, 1, 3};
    for (int i = 0; i < 3; i++) {
        m[8 + i] = rec(TY(HW_NOTIFY), I, 7, 7, 0, 5, (uint64_t)i, (uint64_t)(8 + i));
        m[8 + i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x7[i];
        m[8 + i].data.hw_notify.sync_info.nc_timestamp_ns = 100000 + x7[i] + (UINT64_C(1) << 52);
    }
    ck_assert_int_eq(ntsim__timeline_build(m, 11, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 3);
    ck_assert(tl.clocks[0].max_residual_ns == 6);
    ck_assert(tl.clocks[1].b == 1 && tl.clocks[1].a == 1000);
    ck_assert(tl.clocks[2].b == 0 && tl.clocks[2].a == (double)(UINT64_C(1) << 52));
    ck_assert(tl.stats.max_residual_ns == 6);
    static const uint64_t begin[11] = {99994,  100003, 100007, 100011, 100009, 100000,
                                       100001, 100002, 100000, 100001, 100003};
    for (size_t i = 0; i < 11; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);

    /* ntsim__clock_align on its own: halves away from zero, both signs. */
    ntsim_tl_clock_t c = {.c0 = 1000, .a = 0, .b = 0.5, .pairs = 1};
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 3), 1000 + 2); /* 3/1.5 = 2 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 2), 1000 + 1); /* 1.33 -> 1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 1), 1000 + 1); /* 0.67 -> 1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 - 1), 1000 - 1); /* -0.67 -> -1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 - 2), 1000 - 1); /* -1.33 -> -1 */
    c.b = 1.0; /* x = d / 2: the halves */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 1), 1000 + 1);  /* 0.5 -> 1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 - 1), 1000 - 1);  /* -0.5 -> -1 */
    ck_assert_uint_eq(ntsim__clock_align(&c, 1000 + 3), 1000 + 2);  /* 1.5 -> 2 */
}
END_TEST

/* D-TIMELINE-HTML: a mark's title gives its time after t_min in us with
 * three decimals. By hand: the second instant is 1999500 ns after the
 * first, 1999500 / 1000 = 1999 us and 1999500 % 1000 = 500 ns: "+1999.500
 * us"; the first is at +0.000 us. */
START_TEST(test_html_title_gives_the_time_in_us_with_three_decimals)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000 + 1999500, 1, 1);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 2, NULL, &page, &len), NRT_SUCCESS);
    static const char *const want[] = {
        "<title>nrt_model_submit&#10;at +0.000 us&#10;nc 0, thread 7, tracking_id 0",
        "<title>nrt_model_submit&#10;at +1999.500 us&#10;nc 0, thread 7, tracking_id 0",
    };
    for (size_t i = 0; i < 2; i++)
        ck_assert_msg(strstr(page, want[i]) != NULL, "missing: %s", want[i]);
    ntsim_buffer_free(page);
}
END_TEST

/* D-CHROME-JSON: only the nrt_execute spans that a flow to an
 * nc_exec_running joins have the category "exec"; flows to the other
 * device spans are in the .pftrace only. Here the nrt_execute's one flow
 * (exec_id 1, from its kbl_exec_pre) goes to an nc_model_switch: the span
 * keeps its lane's category, "host", and no "s"/"f" is written. */
START_TEST(test_chrome_json_execute_with_only_a_model_switch_flow_stays_host)
{
    nrt_sys_trace_event_t r[6];
    execute_with_a_model_switch(r);
    r[5] = rec(TY(EXECUTE_API), T, 0, 7, 1, 1000700, 5, 5);
    r[5].data = r[0].data;
    char *doc = NULL;
    size_t len;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 6, NULL, &doc, &len), NRT_SUCCESS);
    static const char want[] = "{\"ph\":\"X\",\"name\":\"nrt_execute\",\"cat\":\"host\",\"pid\":1,"
                               "\"tid\":7,\"ts\":1.000,\"dur\":0.700,";
    ck_assert_msg(strstr(doc, want) != NULL, "missing: %s\nin: %s", want, doc);
    ck_assert_ptr_null(strstr(doc, "\"ph\":\"s\""));
    ck_assert_ptr_null(strstr(doc, "\"ph\":\"f\""));
    ntsim_buffer_free(doc);
}
END_TEST

/* A sync pair that two records repeat is one point of the clock fit, not
 * two. NC 8, (x, y) = (0, 1000), (1, 1001), (2, 1000) and (0, 1000) again:
 * three distinct points, mean x 1, sxy = (-1)(1000 - my) + (1)(1000 - my)
 * = 0 exactly, so b = 0 and the clock has 3 pairs. (Weighing the repeated
 * point twice would give mean x 0.75 and b = 0.25 / 2.75.) */
START_TEST(test_clock_fit_counts_a_repeated_sync_pair_once)
{
    static const uint64_t x[4] = {0, 1, 2, 0}, y[4] = {1000, 1001, 1000, 1000};
    nrt_sys_trace_event_t r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, 8, 7, 0, 5, (uint64_t)i, (uint64_t)i);
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x[i];
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = 100000 + x[i] + y[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 1);
    ck_assert_uint_eq(tl.clocks[0].pairs, 3);
    ck_assert(tl.clocks[0].b == 0);
    ntsim__timeline_free(&tl);
}
END_TEST

typedef struct build_job {
    const nrt_sys_trace_event_t *r;
    size_t n;
    ntsim_timeline_t tl;
    NRT_STATUS st;
    atomic_bool done;
} build_job_t;

static void *build_in_thread(void *arg)
{
    build_job_t *job = arg;
    job->st = ntsim__timeline_build(job->r, job->n, NULL, &job->tl);
    atomic_store(&job->done, true);
    return NULL;
}

/* D-TIMELINE: a STOP pairs with the open START of its (tracking_id, type,
 * NC); two spans one after the other, tracking_id 4 then 5, are two spans.
 * The build must end: it runs in a thread, and a build still running after
 * 10 s (a pairing that never ends, e.g. an open-span table probed with a
 * mask that is not capacity - 1) fails the test instead of hanging it. */
START_TEST(test_spans_one_after_the_other_pair_and_the_build_ends)
{
    nrt_sys_trace_event_t r[4];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 4, 1000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), T, 0, 7, 4, 2000, 1, 1);
    r[2] = rec(TY(EXECUTE_API), S, 0, 7, 5, 3000, 2, 2);
    r[3] = rec(TY(EXECUTE_API), T, 0, 7, 5, 4000, 3, 3);
    static build_job_t job; /* outlives the test if the build never ends */
    job.r = r;
    job.n = 4;
    atomic_store(&job.done, false);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, build_in_thread, &job), 0);
    for (int ms = 0; ms < 10000 && !atomic_load(&job.done); ms++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    if (!atomic_load(&job.done)) {
        pthread_detach(t);
        ck_abort_msg("ntsim__timeline_build of 4 records still running after 10 s");
    }
    pthread_join(t, NULL);
    ck_assert_int_eq(job.st, NRT_SUCCESS);
    ck_assert_uint_eq(job.tl.nitems, 2);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_uint_eq(job.tl.items[i].flags & (NTSIM_TL_SPAN | NTSIM_TL_UNMATCHED_START |
                                                   NTSIM_TL_UNMATCHED_STOP), NTSIM_TL_SPAN);
        ck_assert_uint_eq(job.tl.items[i].rec, 2 * i);
        ck_assert_uint_eq(job.tl.items[i].stop, 2 * i + 1);
    }
    ntsim__timeline_free(&job.tl);
}
END_TEST

/* D-TIMELINE: a device item whose record has no device time keeps its
 * timestamp_ns and counts as unaligned. An nc_exec_running INSTANT carries
 * no payload at all (the type's INSTANT phase has none, event_table.h), so
 * the search for its sync_info has no field to look at: by hand, one
 * instant at 4000 ns, begin = end = 4000, device time 0, unaligned 1, one
 * clock (NC 0, no core) with no pair. */
START_TEST(test_device_instant_without_payload_keeps_its_host_time)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(DEVICE_EXEC), I, 0, 7, 0, 4000, 0, 0);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 1, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.items[0].begin, 4000);
    ck_assert_uint_eq(tl.items[0].end, 4000);
    ck_assert_uint_eq(tl.items[0].dev_begin, 0);
    ck_assert_uint_eq(tl.items[0].flags, NTSIM_TL_DEVICE | NTSIM_TL_UNALIGNED);
    ntsim__timeline_free(&tl);
    ntsim_timeline_stats_t st;
    ck_assert_int_eq(ntsim_timeline_stats(r, 1, NULL, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.instants, 1);
    ck_assert_uint_eq(st.unaligned, 1);
    ck_assert_uint_eq(st.clocks, 1);
    ck_assert_uint_eq(st.sync_pairs, 0);
}
END_TEST

/* D-TIMELINE: "A span whose end is before its begin is drawn with length
 * 0." An nrt_execute START at 2000 ns closed by a STOP read at 1500 ns: one
 * span, begin = end = 2000, and the trace ends at 2000. */
START_TEST(test_span_stopping_before_its_start_has_length_zero)
{
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(EXECUTE_API), S, 0, 7, 4, 2000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), T, 0, 7, 4, 1500, 1, 1);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 2, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 1);
    ck_assert_uint_eq(tl.items[0].flags, NTSIM_TL_SPAN);
    ck_assert_uint_eq(tl.items[0].begin, 2000);
    ck_assert_uint_eq(tl.items[0].end, 2000);
    ck_assert_uint_eq(tl.t_min, 2000);
    ck_assert_uint_eq(tl.t_max, 2000);
    ntsim__timeline_free(&tl);
}
END_TEST

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

/* D-TIMELINE, counters: the pushed counter is sampled at every record when
 * the NC has at most 255 records. 255 host instants on NC 0, nc_local_id
 * i at 1000 + i ns: 255 samples of "NC 0 events pushed" (counter 0), with
 * the values 1..255 in time order; the lost counter (1) has its one sample
 * of 0 (no gap). */
START_TEST(test_pushed_counter_samples_every_record_of_an_nc_with_255)
{
    enum { N = 255 };
    static nrt_sys_trace_event_t r[N];
    for (uint64_t i = 0; i < N; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000 + i, i, i);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, N, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.ncounters, 2);
    size_t pushed = 0, lost = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE)
            continue;
        if (tl.edges[e].index == 0) {
            pushed++;
            ck_assert_int_eq(tl.edges[e].value, (int64_t)pushed);
        } else {
            lost++;
            ck_assert_int_eq(tl.edges[e].value, 0);
        }
    }
    ck_assert_uint_eq(pushed, N);
    ck_assert_uint_eq(lost, 1);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-PFTRACE-CLOCK: a slope that puts 1 + b below 0.5 is no clock and fits
 * the offset only; 1 + b = 0.5 itself is a clock. By hand, c0 = 100000:
 * NC 9, (x, y) = (0, 1000), (2, 999): mean x 1, mean y 999.5, sxx = 2,
 * sxy = (-1)(0.5) + (1)(-0.5) = -1, b = -0.5 exactly (1 + b = 0.5, kept),
 * a = 999.5 + 0.5 = 1000; aligned c0 + (x + y - 1000) / 0.5: 0 and 2, the
 * pairs' own cpu, residuals 0. NC 10, (0, 1000), (2, 994): sxy = -6, b = -3
 * (1 + b = -2, refused): b = 0, a = mean y = 997; aligned c0 + x + y - 997:
 * 3 and -1, residuals 3 and 3. The worst of both clocks is 3. */
START_TEST(test_clock_slope_below_half_the_rate_is_no_clock)
{
    static const uint64_t x[4] = {0, 2, 0, 2}, y[4] = {1000, 999, 1000, 994};
    nrt_sys_trace_event_t r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, i < 2 ? 9 : 10, 7, 0, 5, (uint64_t)(i % 2), (uint64_t)i);
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = 100000 + x[i];
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = 100000 + x[i] + y[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert(tl.clocks[0].b == -0.5 && tl.clocks[0].a == 1000);
    ck_assert(tl.clocks[0].max_residual_ns == 0);
    ck_assert(tl.clocks[1].b == 0 && tl.clocks[1].a == 997);
    ck_assert(tl.clocks[1].max_residual_ns == 3);
    ck_assert(tl.stats.max_residual_ns == 3);
    static const uint64_t begin[4] = {100000, 100002, 100003, 99999};
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-PFTRACE-CLOCK: an aligned time past +-4.6e18 ns is clamped there. NC 11
 * has one pair, (cpu, dev) = (100000, 100000): c0 = 100000, b = 0, a = 0,
 * so a device time d aligns to c0 + (d - c0). Its second record's device
 * time is c0 + 5e18 (x = 5e18, past the limit): c0 + 4.6e18; its third's is
 * c0 - 5e18 (x = -5e18, a device clock 58 years behind): c0 - 4.6e18, mod
 * 2^64. Both 5e18 and 4.6e18 are exact in a double (5^18 and 23 * 5^17 are
 * below 2^53). The pair itself aligns to c0, residual 0. */
START_TEST(test_clock_aligned_time_is_clamped_at_4_6e18_ns_both_ways)
{
    static const uint64_t c0 = 100000, far = UINT64_C(5000000000000000000),
                          limit = UINT64_C(4600000000000000000);
    static const uint64_t dev[3] = {c0, c0 + far, c0 - far}, cpu[3] = {c0, 0, 0};
    nrt_sys_trace_event_t r[3];
    for (int i = 0; i < 3; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, 11, 7, 0, 5, (uint64_t)i, (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev[i];
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 3, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 1);
    ck_assert_uint_eq(tl.clocks[0].pairs, 1);
    ck_assert(tl.clocks[0].b == 0 && tl.clocks[0].a == 0);
    ck_assert(tl.clocks[0].max_residual_ns == 0);
    const uint64_t begin[3] = {c0, c0 + limit, c0 - limit};
    for (size_t i = 0; i < 3; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-PFTRACE-CLOCK refuses only a slope that is not a number or that puts
 * 1 + b below 0.5: a device clock a billion times faster than the host is
 * still a clock. By hand, c0 = 100000: NC 12, (x, y) = (0, 0), (1, 1e9):
 * mean x 0.5, mean y 5e8, sxx = 2 * 0.25 = 0.5, sxy = (-0.5)(-5e8) +
 * (0.5)(5e8) = 5e8, b = 1e9 exactly, a = 5e8 - 1e9 * 0.5 = 0; aligned c0 +
 * (x + y) / (1 + 1e9): 0 and 1, the pairs' own cpu, residuals 0; its third
 * record, device time c0 + 3 + 3e9 with no host half, aligns to c0 + 3.
 * NC 13, (0, 0), (1, 2e9): sxy = 1e9, b = 2e9, a = 1e9 - 1e9 = 0; aligned 0
 * and (1 + 2e9) / (1 + 2e9) = 1; device time c0 + 2 + 4e9 -> c0 + 2. (Fitting
 * the offset only would put NC 12's pairs at c0 - 5e8 and c0 + 1 + 5e8.) */
START_TEST(test_clock_slope_of_a_billion_or_more_is_still_a_clock)
{
    static const uint64_t c0 = 100000, e9 = 1000000000;
    const uint64_t cpu[6] = {c0, c0 + 1, 0, c0, c0 + 1, 0};
    const uint64_t dev[6] = {c0,     c0 + 1 + e9, c0 + 3 + 3 * e9,
                             c0,     c0 + 1 + 2 * e9, c0 + 2 + 4 * e9};
    nrt_sys_trace_event_t r[6];
    for (int i = 0; i < 6; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, i < 3 ? 12 : 13, 7, 0, 5, (uint64_t)(i % 3), (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev[i];
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert(tl.clocks[0].b == 1e9 && tl.clocks[0].a == 0);
    ck_assert(tl.clocks[1].b == 2e9 && tl.clocks[1].a == 0);
    ck_assert(tl.clocks[0].max_residual_ns == 0 && tl.clocks[1].max_residual_ns == 0);
    ck_assert(tl.stats.max_residual_ns == 0);
    const uint64_t begin[6] = {c0, c0 + 1, c0 + 3, c0, c0 + 1, c0 + 2};
    for (size_t i = 0; i < 6; i++)
        ck_assert_msg(tl.items[i].begin == begin[i], "item %zu: %llu", i,
                      (unsigned long long)tl.items[i].begin);
    ntsim__timeline_free(&tl);
}
END_TEST

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

/* An allocator as C 7.22.3 lets malloc be: a request of zero bytes may give
 * NULL. The writers ask for no empty block (an empty trace included), so
 * such a NULL is never taken for running out of memory. */
static void *malloc_null_for_zero(size_t n)
{
    return n == 0 ? NULL : malloc(n);
}

static void *calloc_null_for_zero(size_t count, size_t n)
{
    return count == 0 || n == 0 ? NULL : calloc(count, n);
}

/* An allocator that refuses, once, the first new block of 8 KiB or more (a
 * writer's first output buffer), and then gives what is asked. */
static bool g_refused_big;

static void *realloc_refuse_first_big(void *p, size_t n)
{
    if (p == NULL && n >= 8192 && !g_refused_big) {
        g_refused_big = true;
        return NULL;
    }
    return realloc(p, n);
}

typedef NRT_STATUS (*serialize_fn)(const nrt_sys_trace_event_t *, size_t,
                                   const ntsim_timeline_options_t *, char **, size_t *);

static NRT_STATUS pftrace_as_text(const nrt_sys_trace_event_t *r, size_t n,
                                  const ntsim_timeline_options_t *options, char **out,
                                  size_t *len)
{
    uint8_t *bytes = NULL;
    NRT_STATUS st = ntsim_pftrace_serialize(r, n, options, &bytes, len);
    *out = (char *)bytes;
    return st;
}

/* facts §4, D-ALLOCATOR: a failed allocation gives NRT_RESOURCE with
 * nothing lost, or, when the writer does without the block, the same bytes
 * as without the failure; never a write through the NULL it got. */
START_TEST(test_writers_take_no_empty_block_and_survive_a_refused_first_buffer)
{
    static const serialize_fn writers[3] = {ntsim_timeline_html_serialize,
                                            ntsim_chrome_trace_serialize, pftrace_as_text};
    nrt_sys_trace_event_t r[2];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 6000, 1, 1);
    ntsim_probe_end();
    for (size_t w = 0; w < 3; w++) {
        for (size_t n = 0; n <= 2; n += 2) {
            char *want = NULL, *got = NULL;
            size_t want_len = 0, got_len = 0;
            ck_assert_int_eq(writers[w](r, n, NULL, &want, &want_len), NRT_SUCCESS);
            ck_assert_int_eq(ntsim_replace_allocator(malloc_null_for_zero, realloc,
                                                     calloc_null_for_zero, free),
                             NRT_SUCCESS);
            NRT_STATUS st = writers[w](r, n, NULL, &got, &got_len);
            ck_assert_msg(st == NRT_SUCCESS, "writer %zu, %zu records: %d", w, n, (int)st);
            ck_assert(got_len == want_len && memcmp(got, want, want_len) == 0);
            free(got);
            got = NULL;
            g_refused_big = false;
            ck_assert_int_eq(ntsim_replace_allocator(malloc, realloc_refuse_first_big, calloc,
                                                     free),
                             NRT_SUCCESS);
            st = writers[w](r, n, NULL, &got, &got_len);
            ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
            if (st == NRT_SUCCESS)
                ck_assert(got_len == want_len && memcmp(got, want, want_len) == 0);
            else
                ck_assert_msg(st == NRT_RESOURCE && got == NULL, "writer %zu: %d", w, (int)st);
            free(got);
            ntsim_buffer_free(want);
        }
    }
}
END_TEST

/* timeline.h: ntsim__text_put's "first failure sticks in st and later calls
 * do nothing" holds for a failed format too, not only for out of memory: a
 * wide character no charset encodes ((wchar_t)-1, refused by wcrtomb in the C
 * locale and in UTF-8 alike) makes vsnprintf fail. That is an output (I/O)
 * failure, not out of memory: NRT_FAILURE (D-STATUS). The text before it
 * stays, nothing after it is added. */
START_TEST(test_text_put_format_failure_sticks_as_nrt_failure)
{
    static const wchar_t unencodable[] = {(wchar_t)-1, 0};
    ntsim_textout_t o = {{NULL, 0, 0}, NRT_SUCCESS};
    ntsim__text_put(&o, "%s", "ab");
    ck_assert_int_eq(o.st, NRT_SUCCESS);
    ck_assert_uint_eq(o.b.len, 2);
    ntsim__text_put(&o, "%ls", unencodable);
    ck_assert_int_eq(o.st, NRT_FAILURE);
    ck_assert_uint_eq(o.b.len, 2);
    ntsim__text_put(&o, "%s", "cd");
    ck_assert_int_eq(o.st, NRT_FAILURE);
    ck_assert_uint_eq(o.b.len, 2);
    ck_assert(memcmp(o.b.data, "ab", 2) == 0);
    ntsim__free(o.b.data);
}
END_TEST

/* D-ALLOCATOR for the Chrome JSON when the memory runs out while the
 * document grows past its first reservation, not only before it: 400
 * threads, one instant each, 1 ms apart (the records of
 * test_writers_grow_past_their_first_reservation, 100 more: about 390 bytes
 * of output per thread, while the first capacity, 256 + 200 per edge rounded
 * up to a power of two from 4096, is 131072 for these ~600 edges). Every
 * refused allocation gives NRT_RESOURCE with nothing left allocated, the
 * half-written document included; then the same bytes as with no limit. */
START_TEST(test_chrome_json_out_of_memory_while_growing_leaks_nothing)
{
    nrt_sys_trace_event_t *r = instants_on_threads(400);
    char *doc = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 400, NULL, &doc, &len), NRT_SUCCESS);
    ck_assert_uint_gt(len, 131072);
    ntsim_buffer_free(doc);
    check_out_of_memory(write_chrome, true, r, 400, NULL);
    free(r);
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

/* D-TIMELINE-HTML: x = 230 + (t - t_min) * 1100 / span with "a span of at
 * least 1 ns": a page whose marks all sit at one time (one instant, so t_max
 * = t_min) has data-span 1, and its mark at x = 230 + 0 * 1100 / 1 = 230.00,
 * data-b = data-e = 0. */
START_TEST(test_html_span_of_a_single_instant_is_one_ns)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 5000, 0, 0);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 1, NULL, &page, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(page, " data-span=\"1\" "));
    ck_assert_ptr_nonnull(strstr(page, " cx=\"230.00\" "));
    ck_assert_ptr_nonnull(strstr(page, " data-b=\"0\" data-e=\"0\">"));
    ck_assert_ptr_null(strstr(page, "nan"));
    ntsim_buffer_free(page);
}
END_TEST

/* D-TIMELINE-HTML, the layout by hand, on a trace with no counter samples
 * (host records of NC 256 make none, D-TIMELINE-ORDER), so that the first
 * edge is a span's begin. Thread 7: nrt_execute A [1000, 3200]; inside it
 * tensor read B [1001, 3000] (1999 ns: "1.999 us"), inside B tensor read C
 * [2000, 2000] (length 0), and after B ends, still inside A, tensor read D
 * [3100, 3103]. One lane, y_l = 32, depths A 0, B 1, C 2, D 1 (B's end
 * closed it): 3 rows. Span 2200 ns, x = 230 + (t - 1000) / 2:
 * A x 230.00 y 33 w 1100.00; B x 230.50 y 47 w 999.50; C x 730.00 y 61,
 * w 0 drawn 1.00 wide; D x 1280.00 y 47 w 1.50 (at least 1: kept). */
START_TEST(test_html_lays_nested_and_following_spans_from_the_first_edge)
{
    nrt_sys_trace_event_t r[8];
    r[0] = rec(TY(EXECUTE_API), S, 256, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(TENSOR_READ), S, 256, 7, 2, 1001, 0, 1);
    r[2] = rec(TY(TENSOR_READ), S, 256, 7, 3, 2000, 0, 2);
    r[3] = rec(TY(TENSOR_READ), T, 256, 7, 3, 2000, 0, 3);
    r[4] = rec(TY(TENSOR_READ), T, 256, 7, 2, 3000, 0, 4);
    r[5] = rec(TY(TENSOR_READ), S, 256, 7, 4, 3100, 0, 5);
    r[6] = rec(TY(TENSOR_READ), T, 256, 7, 4, 3103, 0, 6);
    r[7] = rec(TY(EXECUTE_API), T, 256, 7, 1, 3200, 0, 7);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 8, NULL, &page, &len), NRT_SUCCESS);
    static const char *const want[] = {
        RECT("span t3", 230.00, 33, 1100.00, 0, 2200) "<title>nrt_execute&#10;at +0.000 us, "
                                                      "2.200 us&#10;nc 256, thread 7, tracking_id 1",
        RECT("span t9", 230.50, 47, 999.50, 1, 2000) "<title>nrt_tensor_read&#10;at +0.001 us, "
                                                     "1.999 us&#10;nc 256, thread 7, tracking_id 2",
        RECT("span t9", 730.00, 61, 1.00, 1000, 1000) "<title>nrt_tensor_read&#10;at +1.000 us, "
                                                      "0.000 us&#10;nc 256, thread 7, tracking_id 3",
        RECT("span t9", 1280.00, 47, 1.50, 2100, 2103) "<title>nrt_tensor_read&#10;at +2.100 us, "
                                                       "0.003 us&#10;nc 256, thread 7, tracking_id 4",
    };
    ck_assert_ptr_nonnull(strstr(page, LANE("thread 7", 1, 7, 4, 0, 30, 46, 43)));
    const char *at = page;
    for (size_t i = 0; i < 4; i++) {
        at = strstr(at, "<rect class=\"span");
        ck_assert_msg(at != NULL, "span %zu missing", i);
        ck_assert_msg(strncmp(at, want[i], strlen(want[i])) == 0, "span %zu: want %s, got %.200s",
                      i, want[i], at);
        at++;
    }
    ck_assert_ptr_null(strstr(at, "<rect class=\"span"));
    ntsim_buffer_free(page);
}
END_TEST

/* An allocator that refuses exactly one request (the k-th malloc, calloc or
 * realloc) and gives every other, counting the blocks it handed out and
 * that are still held. */
static uint64_t g_one_calls, g_one_refuse;
static bool g_one_refused;
static long g_one_live;

static bool one_refuse_now(void)
{
    if (g_one_calls++ != g_one_refuse)
        return false;
    g_one_refused = true;
    return true;
}

static void *one_malloc(size_t n)
{
    if (one_refuse_now())
        return NULL;
    void *p = malloc(n);
    g_one_live += p != NULL;
    return p;
}

static void *one_calloc(size_t count, size_t n)
{
    if (one_refuse_now())
        return NULL;
    void *p = calloc(count, n);
    g_one_live += p != NULL;
    return p;
}

static void *one_realloc(void *old, size_t n)
{
    if (one_refuse_now())
        return NULL;
    void *p = realloc(old, n);
    g_one_live += p != NULL && old == NULL;
    return p;
}

static void one_free(void *p)
{
    g_one_live -= p != NULL;
    free(p);
}

/* facts §4, D-ALLOCATOR: whichever single allocation of the page writer is
 * refused (the later ones given), the call returns NRT_RESOURCE with its
 * output untouched and nothing left allocated, or, when it does without the
 * block (the first-capacity hint), the same page as with no failure; never a
 * write through the NULL it got. */
START_TEST(test_html_survives_any_one_refused_allocation)
{
    nrt_sys_trace_event_t r[3];
    r[0] = rec(TY(MODEL_SUBMIT), S, 0, 7, 1, 1000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 9, 0, 1500, 1, 1);
    r[2] = rec(TY(MODEL_SUBMIT), T, 0, 7, 1, 2000, 2, 2);
    char *want = NULL;
    size_t want_len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 3, NULL, &want, &want_len), NRT_SUCCESS);
    for (uint64_t k = 0;; k++) {
        ck_assert_uint_lt(k, 10000);
        g_one_calls = 0;
        g_one_refuse = k;
        g_one_refused = false;
        g_one_live = 0;
        char *got = NULL;
        size_t got_len = 0;
        ck_assert_int_eq(ntsim_replace_allocator(one_malloc, one_realloc, one_calloc, one_free),
                         NRT_SUCCESS);
        NRT_STATUS st = ntsim_timeline_html_serialize(r, 3, NULL, &got, &got_len);
        ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
        if (st == NRT_SUCCESS) {
            ck_assert(got_len == want_len && memcmp(got, want, want_len) == 0);
            ck_assert_int_eq(g_one_live, 1);
            free(got);
        } else {
            ck_assert_msg(st == NRT_RESOURCE, "refusing request %u: %d", (unsigned)k, (int)st);
            ck_assert_ptr_null(got);
            ck_assert_msg(g_one_live == 0, "refusing request %u: %ld blocks left", (unsigned)k,
                          g_one_live);
        }
        if (!g_one_refused)
            break;
    }
    ntsim_buffer_free(want);
}
END_TEST

/* D-TIMELINE-HTML: a flow is a line between its two marks' y + 7, each at
 * its depth. By hand: thread 7 (NC 1) holds tensor read [1000, 5000],
 * inside it nrt_execute X [1100, 4000] (depth 1), inside X kbl_exec_pre
 * [1200, 1300] with exec_id 43 (depth 2): 3 rows, lane 0 at y 32, lane 1 at
 * 28 + 3 * 14 + 8 + 4 = 82. NC 1 core 0 holds nc_exec_running [2000, 3500]
 * (depth 0) and inside it nc_model_switch [2100, 2200] (depth 1), both exec
 * 43 and without a sync pair (host times kept). Span 4000, x = 230 +
 * 0.275 (t - 1000). Flows from X (y 32 + 14 + 7 = 53, x 257.50) to the exec
 * (y 82 + 7 = 89, x 505.00) and to the switch (y 82 + 14 + 7 = 103, x
 * 532.50). */
START_TEST(test_html_flow_ends_sit_at_their_marks_depth)
{
    nrt_sys_trace_event_t r[10];
    r[0] = rec(TY(TENSOR_READ), S, 1, 7, 10, 1000, 0, 0);
    r[1] = rec(TY(EXECUTE_API), S, 1, 7, 11, 1100, 1, 1);
    exec_pre_span(r, 2, 1, 7, 12, 1200, 1300, 43);
    r[4] = rec(TY(DEVICE_EXEC), S, 1, 7, 20, 2000, 4, 4);
    r[4].data.nc_exec_start.exec_id = 43;
    r[5] = rec(TY(NC_MODEL_SWITCH), S, 1, 7, 21, 2100, 5, 5);
    r[5].data.nc_model_switch_start.exec_id = 43;
    r[6] = rec(TY(NC_MODEL_SWITCH), T, 1, 7, 21, 2200, 6, 6);
    r[7] = rec(TY(DEVICE_EXEC), T, 1, 7, 20, 3500, 7, 7);
    r[8] = rec(TY(EXECUTE_API), T, 1, 7, 11, 4000, 8, 8);
    r[9] = rec(TY(TENSOR_READ), T, 1, 7, 10, 5000, 9, 9);
    char *page = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 10, NULL, &page, &len), NRT_SUCCESS);
    static const char want[] =
        "<g class=\"flows\">\n"
        "<line class=\"flow\" x1=\"257.50\" y1=\"53\" x2=\"505.00\" y2=\"89\" data-b=\"100\" "
        "data-e=\"1000\"/>\n"
        "<line class=\"flow\" x1=\"257.50\" y1=\"53\" x2=\"532.50\" y2=\"103\" data-b=\"100\" "
        "data-e=\"1100\"/>\n"
        "</g>\n";
    ck_assert_msg(strstr(page, want) != NULL, "flows: %s", strstr(page, "<g class=\"flows\">"));
    ntsim_buffer_free(page);
}
END_TEST
/* D-TIMELINE-ORDER, counters: per NC in ascending order (pushed, then lost),
 * each NC's records walked by nc_local_id, whatever the record order. Three
 * host instants: r0 NC 2 id 0 at 1000; r1 NC 1 id 1 at 1500; r2 NC 1 id 0 at
 * 2000. NC 1 comes first: counters 0 "NC 1 events pushed", 1 "NC 1 events
 * lost", 2 "NC 2 events pushed", 3 "NC 2 events lost". NC 1 walked as r2 (id
 * 0), r1 (id 1): no gap; lost 0 at r2's 2000, pushed 1 at 2000 and 2 at 1500.
 * NC 2: lost 0 and pushed 1 at 1000. Samples by time, at equal times in the
 * order made: (1000, c3, 0), (1000, c2, 1), (1500, c0, 2), (2000, c1, 0),
 * (2000, c0, 1). */
START_TEST(test_counters_come_by_ascending_nc_and_nc_local_id_not_record_order)
{
    nrt_sys_trace_event_t r[3];
    r[0] = rec(TY(MODEL_SUBMIT), I, 2, 7, 0, 1000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 1, 7, 0, 1500, 1, 1);
    r[2] = rec(TY(MODEL_SUBMIT), I, 1, 7, 0, 2000, 0, 2);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 3, NULL, &tl), NRT_SUCCESS);
    static const char *const names[4] = {"NC 1 events pushed", "NC 1 events lost",
                                         "NC 2 events pushed", "NC 2 events lost"};
    ck_assert_uint_eq(tl.ncounters, 4);
    for (size_t c = 0; c < 4; c++) {
        ck_assert_str_eq(tl.counters[c].name, names[c]);
        ck_assert_uint_eq(tl.counters[c].nc, c < 2 ? 1 : 2);
    }
    ck_assert_uint_eq(tl.stats.drops, 0);
    ck_assert_uint_eq(tl.stats.lost_events, 0);
    static const struct { uint64_t ts; size_t counter; int64_t value; } want[5] = {
        {1000, 3, 0}, {1000, 2, 1}, {1500, 0, 2}, {2000, 1, 0}, {2000, 0, 1}};
    size_t n = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE)
            continue;
        ck_assert_uint_lt(n, 5);
        ck_assert_uint_eq(tl.edges[e].ts, want[n].ts);
        ck_assert_uint_eq(tl.edges[e].index, want[n].counter);
        ck_assert_int_eq(tl.edges[e].value, want[n].value);
        n++;
    }
    ck_assert_uint_eq(n, 5);
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

/* D-TIMELINE-ORDER, counters: with 256 records the NC is past 255, so the
 * pushed counter is sampled every k-th record, k = 256 / 256 + 1 = 2, and at
 * the last. 256 host instants on NC 0, nc_local_id i at 1000 + i ns:
 * samples at i = 0, 2, ..., 254 (values 1, 3, ..., 255) and at i = 255
 * (value 256): 129 samples, in time order. */
START_TEST(test_pushed_counter_samples_every_second_record_of_an_nc_with_256)
{
    enum { N = 256 };
    static nrt_sys_trace_event_t r[N];
    for (uint64_t i = 0; i < N; i++)
        r[i] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000 + i, i, i);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, N, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.ncounters, 2);
    size_t pushed = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE || tl.edges[e].index != 0)
            continue;
        int64_t want = pushed < 128 ? (int64_t)(2 * pushed + 1) : 256;
        ck_assert_int_eq(tl.edges[e].value, want);
        ck_assert_uint_eq(tl.edges[e].ts, 1000 + (uint64_t)want - 1);
        pushed++;
    }
    ck_assert_uint_eq(pushed, 129);
    ntsim__timeline_free(&tl);
}
END_TEST

/* D-TIMELINE-ORDER, counters: a repeated nc_local_id counts once, and each
 * NC's walk stops at its own records. Host instants: NC 0 ids 0 (at 1000),
 * 0 again (at 1000) and 1 (at 1200); NC 1 id 1 (at 1300). Counters 0-1 for
 * NC 0, 2-3 for NC 1. NC 0: lost 0 at 1000, pushed 1 at 1000 and 2 at 1200
 * (the repeat makes no sample). NC 1 starts at id 1: a drop of 1 at 1300
 * (item 4), lost 0 then 1 at 1300, pushed 2 at 1300. Samples in time order,
 * at equal times in the order made: (1000, c1, 0), (1000, c0, 1), (1200, c0,
 * 2), (1300, c3, 0), (1300, c3, 1), (1300, c2, 2). */
START_TEST(test_repeated_nc_local_id_counts_once_and_each_nc_walks_its_own_ids)
{
    nrt_sys_trace_event_t r[4];
    r[0] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000, 0, 0);
    r[1] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1000, 0, 1);
    r[2] = rec(TY(MODEL_SUBMIT), I, 0, 7, 0, 1200, 1, 2);
    r[3] = rec(TY(MODEL_SUBMIT), I, 1, 7, 0, 1300, 1, 3);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 4, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.ncounters, 4);
    ck_assert_uint_eq(tl.nitems, 5);
    ck_assert_uint_eq(tl.items[4].flags, NTSIM_TL_DROP);
    ck_assert_uint_eq(tl.items[4].lost, 1);
    ck_assert_uint_eq(tl.items[4].begin, 1300);
    ck_assert_uint_eq(tl.stats.drops, 1);
    ck_assert_uint_eq(tl.stats.lost_events, 1);
    static const struct { uint64_t ts; size_t counter; int64_t value; } want[6] = {
        {1000, 1, 0}, {1000, 0, 1}, {1200, 0, 2}, {1300, 3, 0}, {1300, 3, 1}, {1300, 2, 2}};
    size_t n = 0;
    for (size_t e = 0; e < tl.nedges; e++) {
        if (tl.edges[e].kind != NTSIM_TL_SAMPLE)
            continue;
        ck_assert_uint_lt(n, 6);
        ck_assert_uint_eq(tl.edges[e].ts, want[n].ts);
        ck_assert_uint_eq(tl.edges[e].index, want[n].counter);
        ck_assert_int_eq(tl.edges[e].value, want[n].value);
        n++;
    }
    ck_assert_uint_eq(n, 6);
    ntsim__timeline_free(&tl);
}
END_TEST

/* Counters and drops are per NC context, and there are 256 (companion
 * facts: CONTEXTS[256]; an emit naming nc_idx >= 256 uses context 0), so a
 * record naming NC 256 (a trace read from a file) has no NC push count of
 * its own: it makes no counter and no drop, whatever its nc_local_id. One
 * host instant of NC 256 with nc_local_id 5: one item, no counter, no drop. */
START_TEST(test_records_of_nc_256_make_no_counters_or_drops)
{
    nrt_sys_trace_event_t r[1];
    r[0] = rec(TY(MODEL_SUBMIT), I, 256, 7, 0, 1000, 5, 0);
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 1, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nitems, 1);
    ck_assert_uint_eq(tl.ncounters, 0);
    ck_assert_uint_eq(tl.stats.drops, 0);
    ck_assert_uint_eq(tl.stats.lost_events, 0);
    for (size_t e = 0; e < tl.nedges; e++)
        ck_assert_int_ne(tl.edges[e].kind, NTSIM_TL_SAMPLE);
    ntsim__timeline_free(&tl);
}
END_TEST


/* timeline_build.h, ntsim__tl_grow: "false when the size would overflow or
 * the allocator refuses (the array is kept)". With an allocator that gives a
 * block for any size (a static one, never written), a need whose
 * need * elem exceeds SIZE_MAX must still give false, leaving the array
 * pointer and its capacity as they were; a need that fits is granted.
 *   elem = (SIZE_MAX / 2) / 64 = 2^57 - 1, need 129: 129 * elem = 2^64 +
 *   2^57 - 129 > SIZE_MAX (from capacity 0 and from capacity 64);
 *   elem 16, need SIZE_MAX / 16 + 1 = 2^60: 2^64 bytes;
 *   elem 2, need 2^63: 2^64 bytes;
 *   elem 16, need 100 from 0: true, a capacity >= 100, and the allocator
 *   asked for exactly capacity * 16 bytes (no wrap). */
static unsigned char g_any_size_block[64];
static size_t g_any_size_asked;

static void *realloc_any_size(void *p, size_t n)
{
    (void)p;
    g_any_size_asked = n;
    return g_any_size_block;
}

START_TEST(test_tl_grow_refuses_a_size_that_overflows_and_keeps_the_array)
{
    static const struct {
        size_t elem, need, cap;
    } cases[] = {
        {(SIZE_MAX / 2) / 64, 129, 0},
        {(SIZE_MAX / 2) / 64, 129, 64},
        {16, SIZE_MAX / 16 + 1, 0},
        {2, (SIZE_MAX / 2) + 1, 0},
    };
    enum { NCASES = sizeof cases / sizeof cases[0] };
    bool got[NCASES];
    void *arr_after[NCASES];
    size_t cap_after[NCASES];
    void *const marker = g_any_size_block + 1; /* an array the call must leave alone */
    ntsim_probe_end();
    ck_assert_int_eq(ntsim_replace_allocator(malloc, realloc_any_size, calloc, free),
                     NRT_SUCCESS);
    for (size_t i = 0; i < NCASES; i++) {
        void *arr = cases[i].cap == 0 ? NULL : marker;
        size_t cap = cases[i].cap;
        got[i] = ntsim__tl_grow(&arr, &cap, cases[i].need, cases[i].elem);
        arr_after[i] = arr;
        cap_after[i] = cap;
    }
    void *arr = NULL;
    size_t cap = 0;
    g_any_size_asked = 0;
    bool fits = ntsim__tl_grow(&arr, &cap, 100, 16);
    ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
    for (size_t i = 0; i < NCASES; i++) {
        ck_assert_msg(!got[i], "case %zu: need %zu of %zu bytes granted", i, cases[i].need,
                      cases[i].elem);
        ck_assert_ptr_eq(arr_after[i], cases[i].cap == 0 ? NULL : marker);
        ck_assert_uint_eq(cap_after[i], cases[i].cap);
    }
    ck_assert(fits);
    ck_assert_ptr_eq(arr, g_any_size_block);
    ck_assert_uint_ge(cap, 100);
    ck_assert_uint_le(cap, SIZE_MAX / 16);
    ck_assert_uint_eq(g_any_size_asked, cap * 16);
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

/* D-TIMELINE-ORDER ("a clock per (NC, core) in order of first use; equal
 * pairs count once"), D-PFTRACE-CLOCK (c0: the first pair's host time) and
 * timeline.h (a clock's pairs sit together in tl->pairs, sorted by cpu):
 * hw_notify instants (core 0), in record order, with their sync {dev, cpu}:
 *   r0 NC 1 {50000, 0}: makes clock 0 (NC 1) but gives no pair (cpu 0);
 *   r1 NC 2 {100500, 100000}: clock 1;  r2 NC 1 {301000, 300000};
 *   r3 NC 2 {200500, 200000};  r4 NC 1 {101000, 100000};
 *   r5 NC 1 {101002, 100000}: the same host time as r4, another device time.
 * So the pairs come in as clocks 1, 0, 1, 0, 0 and must come out grouped by
 * clock, each by host time: clock 0 at pair_first 0 with 3 pairs, cpu
 * 100000, 100000 (devs 101000 and 101002, both kept: not equal), 300000,
 * c0 100000; clock 1 at pair_first 3 with 2 pairs, cpu 100000 then 200000,
 * c0 100000, dev - cpu 500 at both: a = 500, b = 0 exactly. */
START_TEST(test_sync_pairs_group_by_clock_sort_by_host_time_and_keep_distinct_devs)
{
    static const uint32_t nc[6] = {1, 2, 1, 2, 1, 1};
    static const uint64_t dev[6] = {50000, 100500, 301000, 200500, 101000, 101002};
    static const uint64_t cpu[6] = {0, 100000, 300000, 200000, 100000, 100000};
    static const uint64_t local[6] = {0, 0, 1, 1, 2, 3};
    nrt_sys_trace_event_t r[6];
    for (int i = 0; i < 6; i++) {
        r[i] = rec(TY(HW_NOTIFY), I, nc[i], 7, 0, 5, local[i], (uint64_t)i);
        r[i].data.hw_notify.sync_info.nc_timestamp_ns = dev[i];
        r[i].data.hw_notify.sync_info.cpu_timestamp_ns = cpu[i];
    }
    ntsim_timeline_t tl;
    ck_assert_int_eq(ntsim__timeline_build(r, 6, NULL, &tl), NRT_SUCCESS);
    ck_assert_uint_eq(tl.nclocks, 2);
    ck_assert_uint_eq(tl.npairs, 5);
    ck_assert_uint_eq(tl.stats.sync_pairs, 5);
    ck_assert_uint_eq(tl.clocks[0].nc, 1);
    ck_assert_uint_eq(tl.clocks[0].pair_first, 0);
    ck_assert_uint_eq(tl.clocks[0].pairs, 3);
    ck_assert_uint_eq(tl.clocks[0].c0, 100000);
    ck_assert_uint_eq(tl.clocks[1].nc, 2);
    ck_assert_uint_eq(tl.clocks[1].pair_first, 3);
    ck_assert_uint_eq(tl.clocks[1].pairs, 2);
    ck_assert_uint_eq(tl.clocks[1].c0, 100000);
    ck_assert(tl.clocks[1].a == 500);
    ck_assert(tl.clocks[1].b == 0);
    static const uint64_t want_cpu[5] = {100000, 100000, 300000, 100000, 200000};
    static const uint32_t want_clock[5] = {0, 0, 0, 1, 1};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_msg(tl.pairs[i].cpu == want_cpu[i] && tl.pairs[i].clock == want_clock[i],
                      "pair %zu: clock %u cpu %llu", i, tl.pairs[i].clock,
                      (unsigned long long)tl.pairs[i].cpu);
    }
    ck_assert_uint_eq(tl.pairs[0].dev + tl.pairs[1].dev, 101000 + 101002);
    ck_assert_uint_ne(tl.pairs[0].dev, tl.pairs[1].dev);
    ck_assert_uint_eq(tl.pairs[2].dev, 301000);
    ck_assert_uint_eq(tl.pairs[3].dev, 100500);
    ck_assert_uint_eq(tl.pairs[4].dev, 200500);
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

Suite *make_timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("timeline");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_model_of_trace_a);
    tcase_add_test(tc, test_model_of_trace_b);
    tcase_add_test(tc, test_chrome_json_of_trace_a);
    tcase_add_test(tc, test_chrome_json_of_trace_b);
    tcase_add_test(tc, test_pftrace_of_trace_a);
    tcase_add_test(tc, test_pftrace_of_trace_b);
    tcase_add_test(tc, test_html_of_trace_a);
    tcase_add_test(tc, test_html_of_trace_b);
    tcase_add_test(tc, test_chrome_json_flows_ids_and_long_times);
    tcase_add_test(tc, test_chrome_json_origin_and_long_names);
    tcase_add_test(tc, test_writers_grow_past_their_first_reservation);
    tcase_add_test(tc, test_text_put_fills_its_buffer_to_the_last_byte);
    tcase_add_test(tc, test_writers_run_out_of_memory_cleanly);
    tcase_add_test(tc, test_clock_fit_and_alignment_by_hand);
    tcase_add_test(tc, test_html_title_gives_the_time_in_us_with_three_decimals);
    tcase_add_test(tc, test_chrome_json_execute_with_only_a_model_switch_flow_stays_host);
    tcase_add_test(tc, test_clock_fit_counts_a_repeated_sync_pair_once);
    tcase_add_test(tc, test_spans_one_after_the_other_pair_and_the_build_ends);
    tcase_add_test(tc, test_device_instant_without_payload_keeps_its_host_time);
    tcase_add_test(tc, test_span_stopping_before_its_start_has_length_zero);
    tcase_add_test(tc, test_flows_find_executions_whose_exec_ids_fall_in_thread_order);
    tcase_add_test(tc, test_pushed_counter_samples_every_record_of_an_nc_with_255);
    tcase_add_test(tc, test_clock_slope_below_half_the_rate_is_no_clock);
    tcase_add_test(tc, test_clock_aligned_time_is_clamped_at_4_6e18_ns_both_ways);
    tcase_add_test(tc, test_clock_slope_of_a_billion_or_more_is_still_a_clock);
    tcase_add_test(tc, test_lanes_put_the_longer_span_first_and_number_host_overflow_tids_up);
    tcase_add_test(tc, test_writers_take_no_empty_block_and_survive_a_refused_first_buffer);
    tcase_add_test(tc, test_text_put_format_failure_sticks_as_nrt_failure);
    tcase_add_test(tc, test_chrome_json_out_of_memory_while_growing_leaks_nothing);
    tcase_add_test(tc, test_lanes_place_a_group_by_begin_not_by_record_order);
    tcase_add_test(tc, test_lanes_close_a_span_ending_at_a_begin_and_nest_an_equal_end);
    tcase_add_test(tc, test_lanes_of_a_trace_of_thread_zero_alone_hold_each_item_once);
    tcase_add_test(tc, test_lanes_of_nc_256_are_named_nc_256);
    tcase_add_test(tc, test_lanes_of_an_nc_past_255_with_several_cores_are_named_per_core);
    tcase_add_test(tc, test_html_span_of_a_single_instant_is_one_ns);
    tcase_add_test(tc, test_html_survives_any_one_refused_allocation);
    tcase_add_test(tc, test_html_lays_nested_and_following_spans_from_the_first_edge);
    tcase_add_test(tc, test_html_flow_ends_sit_at_their_marks_depth);
    tcase_add_test(tc, test_tl_grow_refuses_a_size_that_overflows_and_keeps_the_array);
    tcase_add_test(tc, test_dma_lane_takes_types_30_through_39_and_not_29_or_40);
    tcase_add_test(tc, test_execute_takes_the_exec_id_of_kbl_exec_post_and_not_of_enc_barrier);
    tcase_add_test(tc, test_sync_pairs_group_by_clock_sort_by_host_time_and_keep_distinct_devs);
    tcase_add_test(tc, test_coreless_device_items_take_their_nc_core_whatever_the_nc_order);
    tcase_add_test(tc, test_first_drop_shares_the_lane_of_its_nc_only_core);
    tcase_add_test(tc, test_counters_come_by_ascending_nc_and_nc_local_id_not_record_order);
    tcase_add_test(tc, test_flow_starts_at_the_execution_of_its_exec_id_that_begins_last);
    tcase_add_test(tc, test_execution_ignores_an_exec_stage_that_begins_before_it);
    tcase_add_test(tc, test_flows_of_executions_recorded_out_of_thread_order);
    tcase_add_test(tc, test_execution_takes_exec_id_of_stages_only_up_to_its_end_and_flows_to_spans);
    tcase_add_test(tc, test_flow_reaches_a_device_span_recorded_before_its_execution);
    tcase_add_test(tc, test_pushed_counter_samples_every_second_record_of_an_nc_with_256);
    tcase_add_test(tc, test_repeated_nc_local_id_counts_once_and_each_nc_walks_its_own_ids);
    tcase_add_test(tc, test_records_of_nc_256_make_no_counters_or_drops);
    suite_add_tcase(s, tc);
    return s;
}
