/*
 * ntsim/analyze.h: what a trace says at a glance (`ntsim stats`, D-STATS)
 * and what differs between two traces (`ntsim diff`, D-DIFF), over any
 * trace the read stage reads (ntsim/read.h). Compiles as C11 and as C++.
 *
 * Every block goes through ntsim_replace_allocator's functions
 * (D-ALLOCATOR); NRT_RESOURCE when memory runs out.
 */
#ifndef NTSIM_ANALYZE_H
#define NTSIM_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"
#include "ntsim/read.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* ntsim stats (D-STATS)                                                    */
/* ------------------------------------------------------------------------ */

/* Span durations in ns: STOP's timestamp_ns - START's, as the trace gives
 * them (0 for a STOP stamped before its START, as the timeline draws it).
 * Percentiles are nearest-rank, exact: pQ is the ceil(Q/100 * n)-th
 * smallest of the n durations. total saturates at UINT64_MAX. */
typedef struct ntsim_stats_durations {
    uint64_t min, p50, p90, p99, max, total;
} ntsim_stats_durations_t;

/* One event type present in the trace. */
typedef struct ntsim_stats_type {
    uint32_t type;            /* the C enum value; NRT_SYS_TRACE_EVENT_TYPE_COUNT stands
                               * for every type past the table */
    const char *name;         /* its interned name ("unknown" past the table); static */
    uint64_t events;          /* its records, every phase */
    uint64_t spans;           /* START/STOP pairs (D-TIMELINE's pairing) */
    uint64_t unmatched_start; /* STARTs no STOP closed */
    uint64_t unmatched_stop;  /* STOPs with no START open under their key */
    ntsim_stats_durations_t duration_ns; /* of its spans; all 0 when spans is 0 */
} ntsim_stats_type_t;

/* One of the slowest spans. */
typedef struct ntsim_stats_span {
    uint32_t type;            /* as ntsim_stats_type_t's */
    const char *name;
    uint32_t nc_idx;
    uint64_t tracking_id;
    bool has_exec_id;         /* the START's data has an exec_id key (else the STOP's) */
    uint64_t exec_id;
    uint64_t start_ns;        /* the START's timestamp_ns */
    uint64_t duration_ns;
} ntsim_stats_span_t;

/* One NC the records name. */
typedef struct ntsim_stats_nc {
    uint32_t nc_idx;
    uint64_t events;          /* its records */
    uint64_t lost;            /* nc_local_ids missing below its highest (D-TIMELINE-ORDER's
                               * gaps, a repeated id counted once); 0 for nc_idx >= 256 */
    uint64_t busy_ns;         /* the length of the union of its nc_exec_running spans */
} ntsim_stats_nc_t;

typedef struct ntsim_stats_report {
    uint64_t events;               /* every record */
    ntsim_stats_type_t *types;     /* the types with records, in enum order */
    size_t type_count;
    ntsim_stats_span_t *slowest;   /* the `top` slowest spans: by duration (longest first),
                                    * then start (earliest first), then trace order */
    size_t slowest_count;
    ntsim_stats_nc_t *ncs;         /* the NCs with records, ascending */
    size_t nc_count;
} ntsim_stats_report_t;

/* The analysis, fed the records a batch at a time (in the trace's order:
 * a STOP pairs with a START fed before it). Memory (D-STATS): the spans
 * open at once, the `top` slowest, and 8 bytes per span (its duration, for
 * exact percentiles) and 16 per nc_exec_running span (for the union), so at
 * most 8 bytes per record; per NC its gaps. */
typedef struct ntsim_stats ntsim_stats_t;

/* A new analysis keeping the `top` slowest spans (at most
 * NTSIM_STATS_TOP_MAX). NRT_INVALID for NULL out or top past the maximum. */
#define NTSIM_STATS_TOP_MAX 1000000
NTSIM_EXPORT NRT_STATUS ntsim_stats_create(size_t top, ntsim_stats_t **out);
/* Feeds `count` records. NRT_INVALID for NULL s or NULL events with count > 0. */
NTSIM_EXPORT NRT_STATUS ntsim_stats_add(ntsim_stats_t *s, const nrt_sys_trace_event_t *events,
                                        size_t count);
/* The report of what was fed (*out: free it with ntsim_stats_report_free);
 * s may be fed more and asked again. */
NTSIM_EXPORT NRT_STATUS ntsim_stats_report(ntsim_stats_t *s, ntsim_stats_report_t **out);
NTSIM_EXPORT void ntsim_stats_free(ntsim_stats_t *s);
NTSIM_EXPORT void ntsim_stats_report_free(ntsim_stats_report_t *r);

/* The report of the trace file at path, scanned (ntsim_trace_scan_file:
 * records never held). Errors as ntsim_trace_scan_file. */
NTSIM_EXPORT NRT_STATUS ntsim_stats_file(const char *path, const ntsim_read_limits_t *limits,
                                         size_t top, ntsim_stats_report_t **out, char *err,
                                         size_t err_cap);

/* The report as one JSON document (docs/stats.schema.json) and a newline.
 * NRT_FAILURE when out refuses a write (errno kept); NRT_INVALID for NULL. */
NTSIM_EXPORT NRT_STATUS ntsim_stats_write_json(const ntsim_stats_report_t *r, FILE *out);
/* The report as tables for a reader. Errors as ntsim_stats_write_json. */
NTSIM_EXPORT NRT_STATUS ntsim_stats_write_text(const ntsim_stats_report_t *r, FILE *out);

/* ------------------------------------------------------------------------ */
/* ntsim diff (D-DIFF)                                                      */
/* ------------------------------------------------------------------------ */

/* Per NC, the two traces' events are matched in nc_local_id order: equal
 * ids match; where the ids differ, two events of the same (type, phase,
 * tracking_id) match (their nc_local_ids then differ as a field); else the
 * one with the lower id is in its trace only. A matched pair is compared
 * field by field as the fetch document writes each (event_type, phase, id,
 * nc_local_id, tracking_id, thread_id, data.KEY, timestamp_ns, nrta_seq_id;
 * worker_gid is the exporter's map, no field of a record, and model_id=@
 * keys the runtime's lookup: neither is compared). Between two formats,
 * what one of them does not keep (D-READ) is not compared: the summary's
 * not_compared says what. */
typedef struct ntsim_diff_options {
    const char *const *ignore; /* fields not compared: a name above, data.KEY, or data
                                * (every data key); ntsim_diff_field_check says which are */
    size_t ignore_count;
    uint64_t time_tolerance_ns; /* timestamp_ns and data keys ending in _ns this close
                                 * are equal */
} ntsim_diff_options_t;

/* One difference. */
typedef struct ntsim_diff_item {
    uint32_t nc_idx;
    uint64_t event;           /* the event's nc_local_id in A (in B when only in B) */
    const char *type;         /* its event_type name and phase ("start"), A's unless */
    const char *phase;        /*   only in B */
    const char *field;        /* "data.exec_id"; NULL: the event is in one trace only */
    const char *a, *b;        /* the values as the document writes them; NULL: absent */
} ntsim_diff_item_t;

/* Called with each difference in order (NC ascending, then the events in
 * nc_local_id order, then the fields in document order); anything but
 * NRT_SUCCESS stops the diff, which returns it. */
typedef NRT_STATUS (*ntsim_diff_fn)(const ntsim_diff_item_t *d, void *ctx);

typedef struct ntsim_diff_count {
    const char *field;        /* static */
    uint64_t count;
} ntsim_diff_count_t;

typedef struct ntsim_diff_summary {
    uint64_t matched;          /* event pairs compared */
    uint64_t differing;        /* of them, those with a difference */
    uint64_t only_a, only_b;   /* events in one trace only */
    uint64_t differences;      /* field differences, every pair's */
    ntsim_diff_count_t *fields; /* per field with a difference, in document order */
    size_t field_count;
    const char *not_compared;  /* what the two formats do not both keep (static), or NULL */
} ntsim_diff_summary_t;

/* Compares a with b (any two traces read by ntsim/read.h); fn (may be NULL)
 * gets each difference. *out is filled even when fn stops the diff; free
 * it with ntsim_diff_summary_free. Memory: an index of each trace's events
 * (24 bytes each). NRT_INVALID for NULL traces or out, or an ignore name
 * that is no field (ntsim_diff_field_check). */
NTSIM_EXPORT NRT_STATUS ntsim_trace_diff(const ntsim_trace_t *a, const ntsim_trace_t *b,
                                         const ntsim_diff_options_t *options, ntsim_diff_fn fn,
                                         void *ctx, ntsim_diff_summary_t *out);
NTSIM_EXPORT void ntsim_diff_summary_free(ntsim_diff_summary_t *s);

/* Whether `field` names a field diff compares (or `data`); when it does
 * not, *nearest (if not NULL) gets the known name nearest it, or NULL. */
NTSIM_EXPORT bool ntsim_diff_field_check(const char *field, const char **nearest);

#ifdef __cplusplus
}
#endif

#endif /* NTSIM_ANALYZE_H */
