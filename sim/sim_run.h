/*
 * sim/sim_run.h: a scenario run with its outputs streamed through
 * the simulator's writer (sim.h), for the ntsim command, the scenario kind
 * and the tests. Records at chosen indices, and the first and last, are
 * picked out as they stream by, so nothing else of the trace is kept.
 */
#ifndef NTSIM_SIM_SIM_RUN_H
#define NTSIM_SIM_SIM_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "sim.h"

typedef struct ntsim_run_picks {
    const size_t *indices;        /* records to keep (any order); may be NULL */
    size_t count;
    nrt_sys_trace_event_t *kept;  /* count slots: kept[i] is record indices[i] */
    bool *found;                  /* count flags: whether the trace reached it */
    nrt_sys_trace_event_t first, last; /* valid when the result has records */
} ntsim_run_picks_t;

/* Every record kept in memory while the trace has at most `max` (for the
 * whole-trace timelines, D-TIMELINE); past it they are let go and
 * `overflowed` says so, so memory stays bounded. */
typedef struct ntsim_run_keep {
    size_t max;                   /* 0: keep nothing */
    nrt_sys_trace_event_t *records; /* malloc'd; free() it */
    size_t count, cap;
    bool overflowed;
} ntsim_run_keep_t;

typedef struct ntsim_run_io {
    ntsim_output_files_t files;   /* any NULL: digested only */
    ntsim_run_picks_t *picks;     /* may be NULL */
    ntsim_run_keep_t *keep;       /* may be NULL */
    ntsim_progress_fn progress;   /* may be NULL */
    void *progress_ctx;
    /* Out: which output failed to write, with its errno (when NRT_FAILURE). */
    const char *failed_file;
    int failed_errno;
} ntsim_run_io_t;

/* Runs sc, streaming its outputs. NRT_SUCCESS; NRT_RESOURCE when memory ran
 * out; NRT_FAILURE when a file could not be written (io->failed_file says
 * which); the simulator's own refusals as it returns them. */
NRT_STATUS ntsim_run_scenario(const ntsim_scenario_t *sc, ntsim_run_io_t *io,
                              ntsim_run_result_t *r, ntsim_outputs_t *o);
/* The same, with every drained batch and every notification also handed to
 * `also` (NULL, or either of its functions NULL: nothing), after the files
 * got it; a status other than NRT_SUCCESS from it stops the run. The
 * inspect session's ntrace.pb is written this way (conformance/ntsim). */
NRT_STATUS ntsim_run_scenario_also(const ntsim_scenario_t *sc, ntsim_run_io_t *io,
                                   const ntsim_sim_sink_t *also, ntsim_run_result_t *r,
                                   ntsim_outputs_t *o);

#endif /* NTSIM_SIM_SIM_RUN_H */
