/*
 * sim/workload.h: the state of one simulated run, shared by the runtime
 * paths (workload.c) and the run around them (run.c). Internal to sim/.
 */
#ifndef NTSIM_SIM_WORKLOAD_H
#define NTSIM_SIM_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

/* Simulated thread ids: the engine's thread-id hook returns them. */
enum {
    NTSIM__LOADER_TID = 999,     /* the thread that loads and unloads models */
    NTSIM__FAULT_TID = 998,      /* the thread a ring burst comes from */
    NTSIM__FIRST_HOST_TID = 1000 /* host thread k is 1000 + k */
};

typedef struct ntsim__sim_nc {
    uint64_t last_model;
    uint32_t numerical_errors_pending;
    uint64_t dma_total;                               /* bytes allocated on this NC */
    uint64_t dma_by_usage[DMA_MEM_USAGE_TYPE_MAX];    /* bytes by usage type */
    uint64_t next_phys;                               /* bump allocator of addresses */
} ntsim__sim_nc_t;

typedef struct ntsim__sim_alloc {
    uint32_t nc;
    dma_mem_usage_type_t usage;
    uint64_t bytes, phys;
} ntsim__sim_alloc_t;

typedef struct ntsim__sim {
    const ntsim_scenario_t *sc;
    ntsim_sched_t sched;
    uint64_t tid;             /* the simulated thread now running */
    uint64_t end_ns;          /* host time after which no execute starts */
    ntsim__sim_nc_t nc[NTSIM_NC_COUNT];
    ntsim__sim_alloc_t allocs[NTSIM_NC_COUNT * NTSIM_MAX_MODELS * 2];
    size_t alloc_count;
    uint64_t next_exec, next_tensor, next_request, next_nrta, next_op, next_span;
    uint64_t thread_requests[NTSIM_MAX_HOST_THREADS]; /* executes started per host thread */
    uint64_t thread_exec[NTSIM_MAX_HOST_THREADS];     /* its execute in flight, 0: none */
    /* The runtime's execution -> model table (the exporters' model_id
     * lookup, D-JSON-MODEL-ID): exec_models[e - exec_first] is the model of
     * exec id e, for e in [exec_live, next_exec]. Executions below exec_live
     * finished before a drain, so no later fetch can see their records:
     * they are forgotten and the table stays as small as what is in flight
     * plus what the rings may still hold. */
    uint64_t *exec_models;
    size_t exec_model_cap;
    uint64_t exec_first, exec_live;
    uint64_t exec_lookup_misses, exec_table_peak;
    ntsim_explicit_notifs_t *explicit_notifs;
    /* Where the trace goes (sim.h), and what passed through. */
    const ntsim_sim_sink_t *sink;
    NRT_STATUS sink_status;   /* the first refusal of the sink: the run stops */
    nrt_sys_trace_event_t *batch; /* DRAIN_BATCH records: one drain call's */
    uint64_t record_count, info_count;
    uint64_t per_type[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    uint64_t per_nc[NTSIM_NC_COUNT];
    ntsim_skew_acc_t skew[NTSIM_MAX_CORES];
    uint64_t emitted, posted, executes, fetches;
    uint64_t posted_tpb[NOTIFICATION_TYPE_MAX + 1], posted_topsp[NOTIFICATION_TYPE_MAX + 1];
    bool oom;                 /* a step could not allocate: the run stops */
    bool stopped;             /* stop() already called (stop_before_fetch) */
    bool stop_before_fetch;
} ntsim__sim_t;

/* workload.c: schedules the model loads, the host threads' first executes and
 * the scenario's faults (not stop_before_fetch, which run.c handles). */
void ntsim__workload_start(ntsim__sim_t *s);
/* workload.c: frees every DMA allocation (after the last execute). */
void ntsim__workload_unload(ntsim__sim_t *s);
/* workload.c: the model of exec id e, 0 when unknown (the exporters'
 * lookup, D-JSON-MODEL-ID). */
uint64_t ntsim__exec_model(uint64_t exec_id, void *sim);
/* workload.c: forgets the executions no later fetch can see (after a drain). */
void ntsim__exec_forget_drained(ntsim__sim_t *s);

/* True once the run must stop: out of memory, or the sink refused. */
static inline bool ntsim__sim_failed(const ntsim__sim_t *s)
{
    return s->oom || s->sink_status != NRT_SUCCESS;
}
/* run.c: hands converted notifications to the sink (counted). */
void ntsim__sim_infos(ntsim__sim_t *s, const ntsim_trace_info_t *infos, size_t n);
/* Schedules fn at now + delay; an allocation failure marks the run oom. */
void ntsim__sim_at(ntsim__sim_t *s, uint64_t delay, ntsim_sched_fn fn, void *arg, uint64_t arg2);

#endif /* NTSIM_SIM_WORKLOAD_H */
