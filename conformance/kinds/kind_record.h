/*
 * conformance/kinds/kind_record.h: a `record` vector as kind_record.c reads it
 * (the grammar heads kind_record.c) and kind_record_judge.c judges it.
 */
#ifndef NTSIM_CONFORMANCE_RECORD_VECTOR_H
#define NTSIM_CONFORMANCE_RECORD_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntsim/capture.h"
#include "record_input.h"
#include "vector.h"

#define RECORD_BYTES sizeof(nrt_sys_trace_event_t)

typedef struct record_emit {
    uint32_t type, phase, nc_idx;
    uint64_t tracking_id;
    bool has_seq;
    uint64_t nrta_seq_id;
    bool has_data;
    nrt_sys_trace_event_data_t data;
    bool has_returns;
    uint64_t returns;
    uint64_t repeat;            /* how many times to make this call, >= 1 */
} record_emit_t;

/* The counters a vector may pin, by name, with their offset in the stats. */
typedef struct counter {
    const char *name;
    size_t offset;
} record_counter_t;

/* kind_record.c's tables: ntsim_nc_stats_t's counters, the global ones. */
#define NC_COUNTERS 10
#define GLOBAL_COUNTERS 2
extern const record_counter_t ntsim_record_nc_counters[NC_COUNTERS];
extern const record_counter_t ntsim_record_global_counters[GLOBAL_COUNTERS];

typedef struct record_body {
    bool capturing;
    uint64_t max_events;
    bool ncs[NTSIM_NC_COUNT];
    bool type_enabled[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    uint64_t clock_start, clock_step, thread_id;
    record_emit_t *emits;
    size_t emit_count;
    int64_t drain_nc;               /* -1: no drain */
    uint64_t drain_max;             /* capacity passed to drain; 0: records + 8 */
    uint8_t (*records)[RECORD_BYTES];
    size_t record_count;
    bool stop;
    int64_t stats_nc;               /* -1: no stats */
    bool nc_has[NC_COUNTERS];
    uint64_t nc_want[NC_COUNTERS];
    bool global_has[GLOBAL_COUNTERS];
    uint64_t global_want[GLOBAL_COUNTERS];
    ntsim_vec_log_t log;
} record_body_t;


struct ntsim_testee;
/* kind_record_judge.c: the vector as one RecordRequest to the testee, and its
 * reply compared with the vector. */
void ntsim_record_judge(const ntsim_vector_t *v, struct ntsim_testee *t, ntsim_report_t *r);

#endif /* NTSIM_CONFORMANCE_RECORD_VECTOR_H */
