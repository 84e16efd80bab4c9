/*
 * conformance/kinds/kind_api.h: one call of an `api` vector, as kind_api.c reads it
 * (the grammar heads kind_api.c) and kind_api_run.c makes it; the calls'
 * names are the testee protocol's (api_calls.h).
 */
#ifndef NTSIM_CONFORMANCE_API_STEP_H
#define NTSIM_CONFORMANCE_API_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_sys_trace.h"
#include "api_calls.h"
#include "log_expect.h"
#include "ntsim/capture.h"
#include "vector.h"

/* What fetch passes as its options. */
typedef enum api_options {
    API_OPTIONS_NULL,     /* options: null (or absent) */
    API_OPTIONS_INLINE,   /* options: {nc_idx: N, max_events_per_nc: M} */
    API_OPTIONS_ALLOCATED /* options: allocated, the fetch_options_allocate one */
} api_options_t;

/* The per-NC counters nc_stats may pin, by name (kind_api_run.c's table). */
#define API_STATS 7

typedef struct api_name_want {
    size_t index;
    char *name;
} api_name_want_t;

typedef struct api_step {
    api_call_t call;
    unsigned nulls;    /* API_NULL_* */
    bool check_status; /* the call returns a status */
    NRT_STATUS status; /* expected: NRT_SUCCESS unless given */
    ntsim_vec_log_t log; /* what the call logs (log_expect.h); not given: not checked */
    bool fail_allocs;   /* fail_allocations_after: N */
    uint64_t allocs_ok; /*   the allocations that succeed first */
    bool alloc_sweep;   /* fail_allocations: sweep */
    /* arguments */
    uint64_t value;  /* set_max_events_per_nc, set_nc_idx, status_value */
    uint32_t nc_idx; /* config_set_capture_enabled_for_nc, emit, nc_stats */
    uint32_t nc_to;  /* config_set_capture_enabled_for_nc: the last index */
    bool enabled;
    char *name;           /* config_set_capture_enabled_for_event_type */
    uint32_t type, phase; /* emit, get_event_type_category */
    uint64_t tracking_id;
    bool has_seq;
    uint64_t nrta_seq_id;
    bool has_data;
    nrt_sys_trace_event_data_t data;
    uint64_t repeat; /* emit: calls, >= 1 */
    api_options_t options;
    nrt_sys_trace_fetch_options_t inline_options;
    bool preset_buffer; /* fetch: *buffer non-NULL on entry */
    /* expectations */
    bool has_returns;
    uint64_t returns; /* emit's tracking id */
    char *json;       /* fetch: the exact document */
    bool has_written_size;
    uint64_t written_size;
    bool has_count, count_is_types; /* count: N, or COUNT (the number of types) */
    uint64_t count;
    api_name_want_t *names; /* names: {index: name} */
    size_t name_count;
    bool has_max;
    uint64_t max; /* config_get / fetch_options_get max_events_per_nc */
    bool has_opt_nc;
    int64_t opt_nc; /* fetch_options_get nc_idx */
    bool check_ncs;
    bool ncs[NTSIM_NC_COUNT]; /* config_get: the enabled NCs */
    bool check_types;
    bool types[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    int64_t category; /* get_event_type_category */
    char *text;       /* get_status_as_str */
    bool stat_has[API_STATS];
    uint64_t stat_want[API_STATS];
} api_step_t;

typedef struct api_body {
    uint64_t clock_start, clock_step, thread_id; /* the session (capture_fixture.h) */
    api_step_t *steps;
    size_t step_count;
} api_body_t;

/* Readers of each call's own keys (kind_api_args.c), for kind_api.c's table:
 * NRT_SUCCESS, NRT_INVALID after reporting, or NRT_RESOURCE. */
typedef NRT_STATUS (*ntsim_api_parse_fn)(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                         api_step_t *s);
NRT_STATUS ntsim_api_parse_value(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 api_step_t *s);
NRT_STATUS ntsim_api_parse_set_nc(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                  api_step_t *s);
NRT_STATUS ntsim_api_parse_set_type(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                    api_step_t *s);
NRT_STATUS ntsim_api_parse_config_get(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                      api_step_t *s);
NRT_STATUS ntsim_api_parse_names(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 api_step_t *s);
NRT_STATUS ntsim_api_parse_emit(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                api_step_t *s);
NRT_STATUS ntsim_api_parse_options_get(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                       api_step_t *s);
NRT_STATUS ntsim_api_parse_fetch(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 api_step_t *s);
NRT_STATUS ntsim_api_parse_nc_stats(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                    api_step_t *s);
NRT_STATUS ntsim_api_parse_category(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                    api_step_t *s);
NRT_STATUS ntsim_api_parse_status_str(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                      api_step_t *s);
/* The integer under key: N (at most max), or COUNT, COUNT+K, COUNT-K (K at
 * most COUNT): the number of event types and K off it, so that a vector
 * follows the enum when a type is added (vectors/README.md). */
NRT_STATUS ntsim_api_parse_types_count(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                       const char *key, uint64_t max, uint64_t *out);
/* Reports "path.key: what" at node. */
NRT_STATUS ntsim_api_field_error(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 const char *key, const char *what);
/* A malloc'd copy of the string under key (left NULL when absent). */
NRT_STATUS ntsim_api_copy_str(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                              const char *key, bool required, char **out);

/* facts §1: the category names, by value (UNKNOWN, HARDWARE, SOFTWARE). */
extern const char *const ntsim_api_category_names[3];
/* The counter names nc_stats accepts, in kind_api_run.c's order. */
extern const char *const ntsim_api_stat_names[API_STATS + 1];
/* A status's name for messages: "NRT_INVALID (2)", or its number. */
const char *ntsim_api_status_name(NRT_STATUS status, char *buf, size_t cap);
struct ntsim_testee;
struct NtsimTestee__ApiReply;
/* Whether a `fail_allocations: sweep` attempt of `call` ran out of memory as
 * a sweep goes on past: NRT_RESOURCE, and a fetch's *buffer left alone. The
 * judge asks again after one; the generator skips its replies alike. */
bool ntsim_api_out_of_memory(api_call_t call, const struct NtsimTestee__ApiReply *m);
/* The most attempts of a `fail_allocations: sweep` call: a call that still
 * runs out of memory with this many allocations allowed fails its vector. */
#define NTSIM_API_SWEEP_MAX 4096
/* kind_api_run.c: asks the testee to make the calls in order (begin, one
 * request per call, end: testee.proto's ApiRequest) and compares each reply;
 * each mismatch is "<id>.calls[i]: <field>: expected X, got Y". A call
 * whose status differs ends the sequence; end releases whatever the calls
 * left. nc_stats calls, and the log checks, need the testee's stats and log
 * capabilities; without them they are left out. */
void ntsim_api_judge(const ntsim_vector_t *v, struct ntsim_testee *t, ntsim_report_t *r);
/* The capabilities a vector cannot be judged without: fail_allocations
 * when a call gives fail_allocations_after or fail_allocations. */
unsigned ntsim_api_needs(const ntsim_vector_t *v);

#endif /* NTSIM_CONFORMANCE_API_STEP_H */
