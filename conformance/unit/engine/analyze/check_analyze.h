/*
 * conformance/unit/engine/analyze/check_analyze.h: what the analyses'
 * suites share (check_stats.c, check_diff.c): a record of thread 7 with its
 * ids (id = nc_local_id | nc << 50, D-IDS), time and, for nc_exec_running's
 * START and kbl_exec_pre, its exec_id. Static inline: the test program
 * exports none of it.
 */
#ifndef NTSIM_CHECK_ANALYZE_H
#define NTSIM_CHECK_ANALYZE_H

#include <string.h>

#include "nrt/nrt_sys_trace_event.h"

#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x
enum { S = NRT_SYS_TRACE_EVENT_PHASE_START, P = NRT_SYS_TRACE_EVENT_PHASE_STOP,
       I = NRT_SYS_TRACE_EVENT_PHASE_INSTANT };

static inline nrt_sys_trace_event_t rec(uint32_t type, uint32_t phase, uint32_t nc, uint64_t id,
                                        uint64_t track, uint64_t t, uint64_t exec)
{
    nrt_sys_trace_event_t e;
    memset(&e, 0, sizeof e);
    e.trace_type = (nrt_sys_trace_event_type_t)type;
    e.phase = (nrt_sys_trace_event_phase_t)phase;
    e.nc_idx = nc;
    e.nc_local_id = id;
    e.id = id | (uint64_t)nc << 50;
    e.tracking_id = track;
    e.timestamp_ns = t;
    e.thread_id = 7;
    if (type == TY(DEVICE_EXEC) && phase == S)
        e.data.nc_exec_start.exec_id = (uint32_t)exec;
    if (type == TY(EXEC_PRE))
        e.data.exec_pre.exec_id = exec;
    return e;
}

#endif /* NTSIM_CHECK_ANALYZE_H */
