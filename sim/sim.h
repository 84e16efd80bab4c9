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

typedef struct ntsim_run_result {
    /* The trace: every drained record, in drain order (per fetch, NCs
     * ascending, each ring oldest first). */
    nrt_sys_trace_event_t *records;
    size_t record_count;
    /* Device notifications wrapped for NTFF: converted ones, then EXPLICIT. */
    ntsim_trace_info_t *infos;
    size_t info_count;
    uint8_t *info_bytes;      /* storage the infos' payloads point into */
    /* The runtime's execution -> model table: exec_models[e - 1] is the
     * model of exec id e, for e in 1..exec_count (D-JSON-MODEL-ID). */
    uint64_t *exec_models;
    uint64_t exec_count;
    /* Counts. */
    uint64_t events_emitted;  /* emit calls the runtime paths made */
    uint64_t per_type[NRT_SYS_TRACE_EVENT_TYPE_COUNT]; /* in the trace */
    uint64_t per_nc[NTSIM_NC_COUNT];                   /* in the trace */
    ntsim_nc_stats_t nc_stats[NTSIM_NC_COUNT];         /* the engine's, at the end */
    ntsim_notify_stats_t notify;                       /* converter counts for this run */
    uint64_t notifications_posted;                     /* by the device */
    uint64_t executes;
    uint64_t fetches;
    uint64_t simulated_ns;    /* virtual time at the end of the run */
    ntsim_skew_t skew[NTSIM_NC_COUNT];
} ntsim_run_result_t;

/* Progress callback: simulated ns done, of total; called at most every
 * 2^20 scheduler events. */
typedef void (*ntsim_progress_fn)(uint64_t done_ns, uint64_t total_ns, uint64_t events,
                                  void *ctx);

/* Runs one scenario through the engine. The engine must not be capturing;
 * the run installs and removes its hooks. NRT_RESOURCE on OOM (the engine is
 * left stopped and the result freed). */
NRT_STATUS ntsim_sim_run(const ntsim_scenario_t *sc, ntsim_progress_fn progress, void *ctx,
                         ntsim_run_result_t *out);
void ntsim_run_result_free(ntsim_run_result_t *r);

/* The device clock of NC nc at host time t (offset + drift; deterministic
 * integer arithmetic). */
uint64_t ntsim_device_clock(const ntsim_scenario_t *sc, uint32_t nc, uint64_t host_ns);

/* Fits device = host + a + b (host - start) per NC from the records'
 * sync_info pairs and TIMESTAMP_SYNC events. */
void ntsim_skew_fit(const ntsim_scenario_t *sc, const nrt_sys_trace_event_t *records, size_t n,
                    ntsim_skew_t out[NTSIM_NC_COUNT]);

/* A run's three output files as bytes (outputs.c). */
typedef struct ntsim_outputs {
    char *json;               /* trace.json: the fetch document of r->records */
    size_t json_len;
    uint8_t *ntff;            /* trace.ntff: an ntrace_info of the same records */
    size_t ntff_len;
    uint8_t *notif;           /* notifications.ntff: the converted, then EXPLICIT infos */
    size_t notif_len;
} ntsim_outputs_t;

/* Serializes a run's results into the three files, with the run's
 * execution -> model table as the exporters' model lookup. NRT_RESOURCE (with
 * nothing left allocated) when memory runs out. */
NRT_STATUS ntsim_sim_outputs(const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                             ntsim_outputs_t *o);
void ntsim_sim_outputs_free(ntsim_outputs_t *o);
/* A 64-bit digest of bytes (SipHash-1-3 under a fixed key): pins outputs in
 * scenario vectors (D-SCENARIO-DIGEST). */
uint64_t ntsim_sim_digest(const void *data, size_t len);

/* Stress mode: real threads on the real clock drive the engine; checks the
 * counters' invariants, not bytes. Prints its findings to `out`. Returns 0
 * when every invariant held. */
int ntsim_stress(unsigned threads, unsigned ncs, double seconds, FILE *out);

#endif /* NTSIM_SIM_SIM_H */
