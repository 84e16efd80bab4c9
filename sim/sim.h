/*
 * sim/sim.h: the simulated Neuron device and the runtime paths that feed
 * the real capture engine.
 *
 * One run: the scenario's host threads issue executes on the NeuronCores;
 * every runtime path emits its sys_trace events through
 * nrt_sys_trace_new_event exactly as libnrt would, with the engine's clock
 * and thread-id hooks pointed at the simulator; the device posts
 * notifications that go through the real converter; the rings are drained
 * (periodically and at the end) and the drained records are the run's
 * trace. Everything is on the virtual clock, so a scenario and its seed
 * give the same bytes on any machine.
 */
#ifndef NTSIM_SIM_SIM_H
#define NTSIM_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nrt/nrt_profile_notification.h"
#include "ntsim/capture.h"
#include "ntsim/convert.h"
#include "scenario.h"
#include "scheduler.h"

/* Per-NC clock fit recovered from the sync_info pairs of the trace. */
typedef struct ntsim_skew {
    uint64_t samples;         /* (cpu, nc) pairs seen */
    double offset_ns;         /* device - host at t = 0 */
    double drift_ppm;         /* device rate - 1, in ppm */
} ntsim_skew_t;

/* The least-squares sums behind one clock's fit, kept as the trace streams
 * by (sums about the first sample, so that doubles stay precise). */
typedef struct ntsim_skew_acc {
    double x0, y0, sx, sy, sxx, sxy;
    uint64_t n;
} ntsim_skew_acc_t;

/* Where a run's trace goes while it runs: nothing of it is kept in memory.
 * `records` gets each drained batch (one NC's records of one fetch, oldest
 * first; fetches in time order, NCs ascending within one); `infos` each
 * converted notification as the device posts it, then at the end the
 * EXPLICIT trace_infos, one per TopSP. The arrays are valid only during the
 * call. A status other than NRT_SUCCESS stops the run and is its result.
 * Either function may be NULL. */
typedef struct ntsim_sim_sink {
    NRT_STATUS (*records)(void *ctx, const nrt_sys_trace_event_t *records, size_t n);
    NRT_STATUS (*infos)(void *ctx, const ntsim_trace_info_t *infos, size_t n);
    void *ctx;
} ntsim_sim_sink_t;

typedef struct ntsim_run_result {
    uint64_t record_count;    /* records in the trace (drained) */
    uint64_t info_count;      /* trace_infos: converted, then EXPLICIT */
    /* Counts. */
    uint64_t events_emitted;  /* emit calls the runtime paths made */
    uint64_t per_type[NRT_SYS_TRACE_EVENT_TYPE_COUNT]; /* in the trace */
    uint64_t per_nc[NTSIM_NC_COUNT];                   /* in the trace */
    ntsim_nc_stats_t nc_stats[NTSIM_NC_COUNT];         /* the engine's, at the end */
    ntsim_notify_stats_t notify;                       /* converter counts for this run */
    uint64_t notifications_posted;                     /* by the device */
    /* What the device posted from each block's notification queues, by
     * notification_type: the TPB (per-NC) block's and the TopSP block's
     * (spec §5's subscribe lists: {0,3,1,2,4,5} and {6,8,7}). A scenario's
     * injected invalid notifications are no block's: counted above only. */
    uint64_t posted_tpb[NOTIFICATION_TYPE_MAX + 1], posted_topsp[NOTIFICATION_TYPE_MAX + 1];
    uint64_t executes;
    uint64_t fetches;
    uint64_t simulated_ns;    /* virtual time at the end of the run */
    /* Executions whose model the exporters asked for after the run had
     * forgotten it (D-JSON-MODEL-ID's table keeps only the executions a
     * later fetch can still see): always 0, or the table is wrong. */
    uint64_t model_lookup_misses;
    uint64_t exec_table_peak; /* the most executions the table held at once */
    ntsim_skew_t skew[NTSIM_MAX_CORES]; /* per physical core, instance-wide */
} ntsim_run_result_t;

/* Progress callback: simulated ns done, of total; called at most every
 * 2^20 scheduler events. */
typedef void (*ntsim_progress_fn)(uint64_t done_ns, uint64_t total_ns, uint64_t events,
                                  void *ctx);

/* Runs one scenario through the engine, handing the trace to `sink` (NULL:
 * counted only) as it is drained. The engine must not be capturing; the run
 * installs and removes its hooks, its exporters' model lookup and gid map.
 * NRT_RESOURCE on OOM, or the sink's status (the engine is left stopped). */
NRT_STATUS ntsim_sim_run(const ntsim_scenario_t *sc, const ntsim_sim_sink_t *sink,
                         ntsim_progress_fn progress, void *ctx, ntsim_run_result_t *out);

/* The device clock of physical core `core` (instance-wide) at host time t
 * (offset + drift; deterministic integer arithmetic). */
uint64_t ntsim_device_clock(const ntsim_scenario_t *sc, uint32_t core, uint64_t host_ns);

/* Adds the sync pairs of n records (their sync_info, TIMESTAMP_SYNC's flat
 * pair) to the sums of the physical core whose clock each read (D-LNC);
 * ntsim_skew_solve fits device = host + a + b (host - start) from them. */
void ntsim_skew_add(const ntsim_scenario_t *sc, const nrt_sys_trace_event_t *records, size_t n,
                    ntsim_skew_acc_t acc[NTSIM_MAX_CORES]);
void ntsim_skew_solve(const ntsim_skew_acc_t acc[NTSIM_MAX_CORES],
                      ntsim_skew_t out[NTSIM_MAX_CORES]);

/* A run's output files, written as the run goes (outputs.c):
 *   trace.json          the fetch document of every drained record, byte for
 *                       byte what nrt_sys_trace_fetch_events returns for them
 *   trace.ntff          an ntrace_info of the same records
 *   notifications.ntff  an ntrace_info whose collected_profiles are the
 *                       converted notifications, then the EXPLICIT ones
 *   records             optional: the raw 112-byte records, drain order
 * Any FILE may be NULL: that output is still digested and measured, not
 * written. */
/* The trace files' names in DIR, in the writer's order (json, ntff, notif):
 * the one list of them, which ntsim run opens and names. */
enum { NTSIM_SIM_TRACE_FILES = 3 };
extern const char *const ntsim_sim_trace_files[NTSIM_SIM_TRACE_FILES];

typedef struct ntsim_output_files {
    FILE *json, *ntff, *notif, *records;
    bool no_digests;          /* skip the digests (ntsim run prints none) */
} ntsim_output_files_t;

/* What the writer wrote: each file's length and digest (ntsim_sim_digest of
 * its bytes, computed as they stream by; 0 with no_digests). */
typedef struct ntsim_outputs {
    uint64_t json_len, ntff_len, notif_len, records_len;
    uint64_t json_digest, ntff_digest, notif_digest;
} ntsim_outputs_t;

/* trace.ntff's ntrace_info options for a scenario (D-LNC): arch (the
 * scenario's, or "ntsim-sim"), session_id the seed, logical_nc_size the LNC,
 * and each visible NC's device (nd_idx) through its instance-wide id. *opt
 * points into arch and nd_of_nc, the caller's storage. The inspect session's
 * ntrace.pb is written with the same (D-INSPECT-ENV). */
#define NTSIM_SIM_ARCH_CAP sizeof(((ntsim_scenario_t *)0)->arch)
void ntsim_sim_ntff_options(const ntsim_scenario_t *sc, char arch[NTSIM_SIM_ARCH_CAP],
                            uint32_t nd_of_nc[NTSIM_NC_COUNT], ntsim_ntff_options_t *opt);

typedef struct ntsim_sim_writer ntsim_sim_writer_t;
NRT_STATUS ntsim_sim_writer_create(const ntsim_scenario_t *sc, const ntsim_output_files_t *files,
                                   ntsim_sim_writer_t **out);
/* The sink that feeds the writer; pass it to ntsim_sim_run. */
ntsim_sim_sink_t ntsim_sim_writer_sink(ntsim_sim_writer_t *w);
/* Writes the files' tails and fills *o. NRT_FAILURE (errno kept) when a
 * file could not be written, here or during the run. */
NRT_STATUS ntsim_sim_writer_finish(ntsim_sim_writer_t *w, ntsim_outputs_t *o);
/* The errno of the first failed write, and which file ("trace.json", ...). */
const char *ntsim_sim_writer_failed_file(const ntsim_sim_writer_t *w, int *err);
void ntsim_sim_writer_free(ntsim_sim_writer_t *w);

/* Creates dir and its parents (existing ones are fine), for a run's output
 * directories; 0, or -1 with errno (ENOMEM when the path could not be
 * copied). */
int ntsim_mkdir_p(const char *dir);

/* A 64-bit digest of bytes (SipHash-1-3 under a fixed key): pins outputs in
 * scenario vectors (D-SCENARIO-DIGEST). */
uint64_t ntsim_sim_digest(const void *data, size_t len);

/* Stress mode: real threads on the real clock drive the engine; checks the
 * counters' invariants, not bytes. Prints its findings to `out`. Returns 0
 * when every invariant held. */
int ntsim_stress(unsigned threads, unsigned ncs, double seconds, FILE *out);

#endif /* NTSIM_SIM_SIM_H */
