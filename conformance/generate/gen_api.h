/*
 * conformance/generate/gen_api.h: a generated `api` case (a call sequence),
 * as gen_api.c makes and writes it, and gen_api_check.c takes its expected
 * values, checks its invariants and shrinks it.
 */
#ifndef NTSIM_CONFORMANCE_GEN_API_H
#define NTSIM_CONFORMANCE_GEN_API_H

#include "api_calls.h"
#include "gen_int.h"
#include "ntsim/capture.h"

enum { MAX_CALLS = 24, COUNT = NRT_SYS_TRACE_EVENT_TYPE_COUNT };

typedef struct api_step_case {
    api_call_t call;
    unsigned nulls;
    bool fail;                 /* failing allocations (ntsim_gen_api_sweeps) */
    uint64_t allocs_ok;
    uint64_t value;
    uint32_t nc_from, nc_to;
    bool range, enabled;
    char name[64];
    uint32_t type, phase, nc;
    uint64_t tracking, seq, repeat;
    bool has_seq, has_data;
    nrt_sys_trace_event_data_t data;
    int options;               /* 0 null, 1 inline, 2 allocated */
    int32_t opt_nc;
    uint64_t opt_max;
    bool preset;
    /* expected, from the reference's reply */
    bool expected, has_status;
    int32_t status;
    char **log;                /* what it logged, as entries (ntsim_gen_log_entries) */
    size_t n_log;
    uint64_t returns, count, max, written;
    bool has_count, has_returns;
    char **names;
    size_t n_names;
    bool ncs[NTSIM_NC_COUNT], types[COUNT], has_sets;
    int64_t got_opt_nc;
    char *json;
    uint64_t stats[7];
    int32_t category;
    char *text;
} api_step_case_t;

typedef struct api_case {
    uint64_t clock_start, clock_step, thread_id;
    api_step_case_t steps[MAX_CALLS];
    size_t n;
} api_case_t;

/* Whether a step's failing allocations are a sweep (fail_allocations: sweep):
 * every call but get_event_types, whose allocations facts §4 pins and which
 * is given a count (fail_allocations_after; D-ALLOCATOR). */
static inline bool ntsim_gen_api_sweeps(const api_step_case_t *s)
{
    return s->fail && s->call != API_GET_EVENT_TYPES;
}

/* gen_api.c */
void ntsim_gen_api_drop_step(api_step_case_t *s); /* its expected values, freed */
void ntsim_gen_api_free(void *p);
void *ntsim_gen_api_copy(const void *p);          /* the inputs, no expected values */
/* The api grammar's name of a status (NRT_SUCCESS ...), NULL for one it has none for. */
const char *ntsim_gen_api_status_word(int32_t s);

/* gen_api_check.c: the kind table's expect, check, shrink, size and cover. */
ntsim_gen_expect_status_t ntsim_gen_api_expect(void *p, const ntsim_gen_replies_t *ref, char *why,
                                               size_t cap);
void ntsim_gen_api_check(const void *p, const ntsim_gen_replies_t *got, const char *who,
                         const char *id, ntsim_report_t *r);
void *ntsim_gen_api_shrink(const void *p, size_t k);
size_t ntsim_gen_api_size(const void *p);
void ntsim_gen_api_cover(const void *p, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref);

#endif /* NTSIM_CONFORMANCE_GEN_API_H */
