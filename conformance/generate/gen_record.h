/*
 * conformance/generate/gen_record.h: a generated `record` case, as
 * gen_record.c makes, writes and takes its expected values, and
 * gen_record_check.c checks its invariants and shrinks it.
 */
#ifndef NTSIM_CONFORMANCE_GEN_RECORD_H
#define NTSIM_CONFORMANCE_GEN_RECORD_H

#include "gen_int.h"
#include "ntsim/capture.h"

typedef struct rec_emit {
    uint32_t type, phase, nc_idx;
    uint64_t tracking_id;
    bool has_seq;
    uint64_t seq;
    bool has_data;
    nrt_sys_trace_event_data_t data;
    uint64_t repeat;
    bool has_returns;         /* expected: the tracking id the call returns */
    uint64_t returns;
} rec_emit_t;

typedef struct rec_case {
    bool capturing;
    uint64_t max_events;
    bool ncs[NTSIM_NC_COUNT];
    bool disabled[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    uint64_t clock_start, clock_step, thread_id;
    rec_emit_t *emits;
    size_t n_emits;
    int drain_nc;             /* -1: no drain */
    uint64_t drain_max;       /* >= 1 */
    bool stop;
    int stats_nc;             /* -1: no stats */
    bool global, log;
    /* expected, from the reference */
    bool expected;
    nrt_sys_trace_event_t *records;
    size_t n_records;
    ntsim_nc_stats_t stats;
    uint64_t invalid_type, clamped;
    char **lines;
    size_t n_lines;
} rec_case_t;

/* gen_record.c */
void ntsim_gen_record_free(void *p);
void *ntsim_gen_record_copy(const void *p);        /* the inputs, no expected values */
uint64_t ntsim_gen_record_capacity(uint64_t max);  /* start()'s clamp of the ring size */
const NtsimTestee__RecordReply *ntsim_gen_record_reply(const ntsim_gen_replies_t *g);

/* gen_record_check.c: the kind table's check, shrink, size and cover. */
void ntsim_gen_record_check(const void *p, const ntsim_gen_replies_t *got, const char *who,
                            const char *id, ntsim_report_t *r);
void *ntsim_gen_record_shrink(const void *p, size_t k);
size_t ntsim_gen_record_size(const void *p);
void ntsim_gen_record_cover(const void *p, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref);

#endif /* NTSIM_CONFORMANCE_GEN_RECORD_H */
