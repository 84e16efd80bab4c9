/*
 * conformance/unit/engine/timeline/check_timeline.h: what the timeline suites share
 * (check_timeline.c and the files beside it): the records their tests build,
 * their two fixtures, and the comparison of a writer's bytes with the text
 * worked out by hand. Static inline, so that each file calls them by their
 * short names and the test program exports none of them.
 *
 * rec() builds any record, trace_a() and trace_b() the two small traces
 * whose model is derived once below (from D-TIMELINE, D-TIMELINE-ORDER and
 * D-PFTRACE-CLOCK); their tests run with setup() and teardown(). host_rec()
 * builds a host record of thread 7, NC 0, numbered in the order of the calls,
 * and pairing_records() the trace of the pairing tests; their tests run with
 * host_setup() and host_teardown(), which start the numbering at 0.
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
#ifndef NTSIM_CONFORMANCE_CHECK_TIMELINE_H
#define NTSIM_CONFORMANCE_CHECK_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_probe.h"
#include "check_suites.h"
#include "ntsim/capture.h"
#include "report.h"
#include "timeline.h"

#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x
#define S NRT_SYS_TRACE_EVENT_PHASE_START
#define T NRT_SYS_TRACE_EVENT_PHASE_STOP
#define I NRT_SYS_TRACE_EVENT_PHASE_INSTANT
#define T0 UINT64_C(1700000000000000000)

/* Every test runs with the probe filling new memory with zeros, so a read
 * past what the writers wrote (an edge past the last, a lane past the
 * last) shows in the bytes, the same way every run. */
static inline void setup(void)
{
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
    (void)ntsim_json_set_model_lookup(NULL, NULL);
    ntsim_probe_begin_filled(UINT64_MAX, 0);
}

static inline void teardown(void)
{
    ntsim_probe_end();
    ntsim_log_set_sink(NULL, NULL);
}

static inline nrt_sys_trace_event_t rec(uint32_t type, uint32_t phase, uint32_t nc, uint64_t thread,
                                        uint64_t tracking, uint64_t t, uint64_t nc_local_id,
                                        uint64_t id)
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
static inline void exec_pre_span(nrt_sys_trace_event_t *r, uint32_t i, uint32_t nc, uint64_t thread,
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
static inline void execute_around_stage(nrt_sys_trace_event_t *r, uint32_t i, uint32_t nc,
                                        uint64_t thread, uint64_t tracking, uint64_t t0,
                                        uint64_t t1, uint64_t stage_tracking, uint64_t s0,
                                        uint64_t s1, uint32_t exec_id)
{
    r[i] = rec(TY(EXECUTE_API), S, nc, thread, tracking, t0, i, i);
    exec_pre_span(r, i + 1, nc, thread, stage_tracking, s0, s1, exec_id);
    r[i + 3] = rec(TY(EXECUTE_API), T, nc, thread, tracking, t1, i + 3, i + 3);
}

/* A device span of exec_id (nc_exec_running, a flow's destination): its
 * START at t0 in r[i], its STOP (no payload) at t1 in r[i + 1]. */
static inline void device_exec_span(nrt_sys_trace_event_t *r, uint32_t i, uint32_t nc,
                                    uint64_t thread, uint64_t tracking, uint64_t t0, uint64_t t1,
                                    uint32_t exec_id)
{
    r[i] = rec(TY(DEVICE_EXEC), S, nc, thread, tracking, t0, i, i);
    r[i].data.nc_exec_start.exec_id = exec_id;
    r[i + 1] = rec(TY(DEVICE_EXEC), T, nc, thread, tracking, t1, i + 1, i + 1);
}

static inline size_t trace_a(nrt_sys_trace_event_t *r)
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

static inline size_t trace_b(nrt_sys_trace_event_t *r)
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

static const ntsim_timeline_options_t options_b = {77, 3, "h\"<&>'", NULL};

static inline void check_text(const char *what, const char *want, const char *got, size_t got_len);

/* The expected text: its lines, joined. */
static inline char *joined(const char *const *lines)
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

static inline void check_lines(const char *what, const char *const *want_lines, const char *got,
                               size_t got_len)
{
    char *want = joined(want_lines);
    check_text(what, want, got, got_len);
    free(want);
}

static inline void check_text(const char *what, const char *want, const char *got, size_t got_len)
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

static uint64_t g_seq; /* nc_local_id of the next host_rec(): from 0 in each test */

static inline void host_setup(void)
{
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
    g_seq = 0;
}

static inline void host_teardown(void)
{
    ntsim_capture_shutdown();
    ntsim_log_set_sink(NULL, NULL);
}

/* A host record: thread 7, NC 0; nc_local_id counts the calls. */
static inline nrt_sys_trace_event_t host_rec(uint32_t type, uint32_t phase, uint64_t tracking,
                                             uint64_t t)
{
    nrt_sys_trace_event_t r;
    memset(&r, 0, sizeof r);
    r.trace_type = (nrt_sys_trace_event_type_t)type;
    r.phase = (nrt_sys_trace_event_phase_t)phase;
    r.tracking_id = tracking;
    r.timestamp_ns = t;
    r.thread_id = 7;
    r.nc_local_id = r.id = g_seq++;
    return r;
}

/* The records of test_pairing (test_timeline_pairs_by_tracking_id_and_flags_the_unmatched,
 * check_timeline.c): worked out by hand there. */
static inline size_t pairing_records(nrt_sys_trace_event_t *r)
{
    size_t n = 0;
    r[n++] = host_rec(TY(EXEC_CORE), T, 9, T0 + 50);     /* a STOP with no START: unmatched */
    r[n++] = host_rec(TY(EXEC_PRE), S, 5, T0 + 100);     /* span A [100, 300] */
    r[n++] = host_rec(TY(EXEC_POST), S, 5, T0 + 150);    /* same tracking id, other type: B */
    r[n++] = host_rec(TY(EXEC_POST), T, 5, T0 + 200);    /* B [150, 200] */
    r[n++] = host_rec(TY(EXEC_PRE), T, 5, T0 + 300);     /* closes A */
    r[n++] = host_rec(TY(EXEC_WAIT), S, 11, T0 + 400);   /* a START with no STOP: unmatched */
    r[n++] = host_rec(TY(TENSOR_READ), S, 20, T0 + 500); /* C, reused key, outer */
    r[n++] = host_rec(TY(TENSOR_READ), S, 20, T0 + 510); /* D, inner */
    r[n++] = host_rec(TY(TENSOR_READ), T, 20, T0 + 520); /* closes D (innermost) */
    r[n++] = host_rec(TY(TENSOR_READ), T, 20, T0 + 600); /* closes C */
    r[n++] = host_rec(TY(MODEL_SUBMIT), I, 0, T0 + 550); /* an instant */
    return n;
}

#endif /* NTSIM_CONFORMANCE_CHECK_TIMELINE_H */
