/*
 * ntsim/capture.h: the capture engine's emit and drain shims, and ntsim's
 * own extensions (injectable clock, statistics, logging, shutdown).
 *
 * The nrt_* functions here are libnrt's internal shims, exported under the
 * same names and signatures so that outside tools written against libnrt
 * link against ntsim unchanged. The ntsim_* functions are ours.
 * Compiles as C11 and as C++.
 */
#ifndef NTSIM_CAPTURE_H
#define NTSIM_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace.h"
#include "nrt/nrt_sys_trace_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Emit and drain (libnrt's shims)                                          */
/* ------------------------------------------------------------------------ */

/* Captures one event on NeuronCore nc_idx and returns the tracking id the
 * record carries, to be passed back on the matching STOP; 0 if the event was
 * not captured (not capturing, type >= COUNT, type or NC disabled, or the
 * ring refused it as busy, which is counted).
 *
 * tracking_id: the caller's id if nonzero, else derived as
 *   seq | ((uint64_t)nc_idx << 50)
 * where seq is the NC's count of events pushed before this one.
 *
 * QUIRK (kept from libnrt, D-TRACKING-ZERO): NC 0's first derived id is
 * 0 | 0 << 50 = 0, the same value as "not captured". A START on NC 0 that
 * returns 0 may have been captured; passing that 0 back on the STOP derives a
 * fresh id, so the pair no longer matches. Callers that pair spans on NC 0
 * should pass their own nonzero tracking id (libnrt's runtime does for
 * execs: the exec id).
 *
 * nc_idx >= 256 is logged and redirected to NC 0, as libnrt does. data may
 * be NULL (zero payload); otherwise it must point to a full 40-byte union, of
 * which only the member chosen by (type, phase) is copied: that member's
 * fields, with holes and the rest of the slot zeroed (D-PAYLOAD-HOLES). For
 * GENERIC and CONSUME_* the slot is all zeros. */
NTSIM_EXPORT uint64_t nrt_sys_trace_new_event(nrt_sys_trace_event_type_t type,
                                 nrt_sys_trace_event_phase_t phase, uint32_t nc_idx,
                                 const nrt_sys_trace_event_data_t *data, uint64_t tracking_id);
/* The same, also recording nrta_seq_id with has_nrta_seq_id = true. */
NTSIM_EXPORT uint64_t nrt_sys_trace_new_event_with_seq(nrt_sys_trace_event_type_t type,
                                          nrt_sys_trace_event_phase_t phase, uint32_t nc_idx,
                                          const nrt_sys_trace_event_data_t *data,
                                          uint64_t tracking_id, nrta_seq_t nrta_seq_id);

/* Pops up to `capacity` records of one NC, oldest first, into out[] at the
 * 112-byte stride; *count says how many. Popped records are gone. With no
 * ring (not capturing, or the NC disabled) *count is 0 and the status
 * NRT_SUCCESS. NRT_INVALID for nc_idx >= 256, a NULL count, or a NULL out
 * with capacity > 0 (nothing is popped). */
NTSIM_EXPORT NRT_STATUS nrt_sys_trace_drain_events(uint32_t nc_idx, nrt_sys_trace_event_t *out,
                                      size_t capacity, size_t *count);

/* Exported by libnrt but absent from its public header (facts §4): the
 * category of any type value; UNKNOWN (logged) for values >= COUNT. */
NTSIM_EXPORT nrt_sys_trace_event_category_t nrt_sys_trace_get_event_type_category(
    nrt_sys_trace_event_type_t type);

/* ------------------------------------------------------------------------ */
/* Injectable clock and thread id                                           */
/* ------------------------------------------------------------------------ */

typedef struct ntsim_capture_hooks {
    uint64_t (*now_ns)(void *ctx);    /* host clock, ns; NULL: CLOCK_REALTIME */
    uint64_t (*thread_id)(void *ctx); /* NULL: the thread's gettid(), cached */
    void *ctx;                        /* passed to both */
} ntsim_capture_hooks_t;

/* Installs hooks (NULL restores the defaults). Only while not capturing:
 * NRT_FAILURE otherwise. The simulator and the tests install a virtual
 * clock so that every record is deterministic. */
NTSIM_EXPORT NRT_STATUS ntsim_capture_set_hooks(const ntsim_capture_hooks_t *hooks);

/* ------------------------------------------------------------------------ */
/* Statistics: nothing is lost without a count                              */
/* ------------------------------------------------------------------------ */

/* Per-NC counters. Nothing is lost without a count: at any quiet moment (no
 * emit or drain in flight on the NC),
 *
 *     created == drained + overwritten + in_ring + lost_at_stop + busy
 *
 * (in_ring is 0 after stop, lost_at_stop is 0 before it). `ntsim run --stress`
 * prints this equation per NC and checks it. */
typedef struct ntsim_nc_stats {
    uint64_t capacity;           /* ring capacity, records; 0 if the NC had no ring */
    uint64_t created;            /* events that passed every gate: pushed + busy */
    uint64_t pushed;             /* admitted into the ring; seq counts these */
    uint64_t overwritten;        /* evicted by newer events before being drained */
    uint64_t drained;            /* popped by drain or fetch */
    uint64_t in_ring;            /* pushed - overwritten - drained; 0 after stop */
    uint64_t busy;               /* refused: a stalled thread held the slot (not in libnrt) */
    uint64_t lost_at_stop;       /* still in the ring when stop() dropped it */
    uint64_t first_overwrite_ns; /* host clock at the first eviction, 0 if none */
    uint64_t last_overwrite_ns;  /* host clock at the latest eviction, 0 if none */
} ntsim_nc_stats_t;

/* One NC's counters for the current session, or for the last one after
 * stop() (until the next start). NRT_INVALID for nc_idx >= 256 or NULL. */
NTSIM_EXPORT NRT_STATUS ntsim_capture_nc_stats(uint32_t nc_idx, ntsim_nc_stats_t *stats);

typedef struct ntsim_capture_stats {
    uint64_t sessions;       /* successful starts since process start */
    uint64_t invalid_type;   /* emits rejected for type >= COUNT, this session */
    uint64_t clamped_nc_idx; /* emits with nc_idx >= 256, redirected to NC 0, this session */
    uint64_t reentrant;      /* emits from inside an emit (a hook), refused, this session */
} ntsim_capture_stats_t;

/* NRT_INVALID for NULL. */
NTSIM_EXPORT NRT_STATUS ntsim_capture_global_stats(ntsim_capture_stats_t *stats);

/* True between a successful start and stop. */
NTSIM_EXPORT bool ntsim_capture_is_capturing(void);

/* Stops capturing if needed, frees every engine resource and clears every
 * counter but `sessions`. Call it only when no other thread can emit
 * (process teardown, test fixtures). */
NTSIM_EXPORT void ntsim_capture_shutdown(void);

/* ------------------------------------------------------------------------ */
/* Logging                                                                  */
/* ------------------------------------------------------------------------ */

typedef enum ntsim_log_level {
    NTSIM_LOG_ERROR = 0,
    NTSIM_LOG_WARN = 1,
    NTSIM_LOG_INFO = 2
} ntsim_log_level_t;

typedef void (*ntsim_log_fn)(ntsim_log_level_t level, const char *message, void *ctx);

/* Routes the engine's messages (without a trailing newline) to fn; NULL
 * restores the default, which prints warnings and errors to stderr as
 * "ntsim: warning: ...". Not thread-safe against concurrent logging: set it
 * before capturing. */
NTSIM_EXPORT void ntsim_log_set_sink(ntsim_log_fn fn, void *ctx);

/* ------------------------------------------------------------------------ */
/* Allocator                                                                */
/* ------------------------------------------------------------------------ */

typedef void *(*ntsim_malloc_fn)(size_t size);
typedef void *(*ntsim_realloc_fn)(void *ptr, size_t size);
typedef void *(*ntsim_calloc_fn)(size_t count, size_t size);
typedef void (*ntsim_free_fn)(void *ptr);

/* Replaces the allocator behind every heap block the API and the converters
 * allocate and free (configs, fetch options, documents, type-name lists,
 * NTFF buffers, EXPLICIT collections, the timelines and their files), as
 * libuv's uv_replace_allocator does:
 * to count allocations, or to make one fail and see the call return
 * NRT_RESOURCE having lost nothing. The rings are mapped pages and stay
 * outside it. Call it while no block from the previous allocator is alive
 * and no other thread is inside ntsim. The names get_event_types and
 * config_get_enabled_event_types return are freed by their callers with
 * libc's free (facts §4), so the replacement's blocks must be ones free()
 * accepts (a wrapper around malloc, as a counting or failing allocator is).
 * All NULL restores libc's; NRT_INVALID if only some are NULL. */
NTSIM_EXPORT NRT_STATUS ntsim_replace_allocator(ntsim_malloc_fn malloc_fn,
                                                ntsim_realloc_fn realloc_fn,
                                                ntsim_calloc_fn calloc_fn, ntsim_free_fn free_fn);

#ifdef __cplusplus
}
#endif

#endif /* NTSIM_CAPTURE_H */
