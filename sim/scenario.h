/*
 * sim/scenario.h: what one simulated run does.
 *
 * A scenario is plain data: the built-in default (scenario_default.c), or a
 * YAML file read over it by sim/scenario_load.c. The file format's keys are
 * listed once, in sim/scenario_keys.c (sim/scenarios/README.md is their
 * schema, checked against it). Every field below says what the simulator
 * does with it.
 */
#ifndef NTSIM_SIM_SCENARIO_H
#define NTSIM_SIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "nrt/nrt_sys_trace.h"

enum {
    NTSIM_MAX_MODELS = 8,
    NTSIM_MAX_FAULTS = 64,
    NTSIM_MAX_HOST_THREADS = 256,
    NTSIM_MAX_CORES = 512, /* physical NeuronCores of one instance */
    NTSIM_MAX_LNC = 2      /* physical cores per logical NC (NEURON_LOGICAL_NC_CONFIG) */
};

/* The faults a scenario injects, listed once: XX(ID, name in a scenario
 * file, what it does). The loader's names and the schema's list come from
 * it. */
#define NTSIM_FAULT_KIND_MAP(XX)                                                          \
    XX(RING_BURST, "ring_burst", "`events` GENERIC instants on `nc` at once")            \
    XX(INVALID_NOTIFICATION, "invalid_notification",                                     \
       "the device posts notification_type `type`, `count` times")                        \
    XX(NUMERICAL_ERROR, "numerical_error", "the next execute on `nc` ends with NUM_ERR")  \
    XX(STOP_BEFORE_FETCH, "stop_before_fetch", "stop() before the final fetch: the rest is lost")

typedef enum ntsim_fault_kind {
#define NTSIM_FAULT_KIND_ENUM_(id, name, what) NTSIM_FAULT_##id,
    NTSIM_FAULT_KIND_MAP(NTSIM_FAULT_KIND_ENUM_)
#undef NTSIM_FAULT_KIND_ENUM_
        NTSIM_FAULT_KIND_COUNT
} ntsim_fault_kind_t;

typedef struct ntsim_fault {
    ntsim_fault_kind_t kind;
    uint64_t at_ns;           /* after t = 0 */
    uint32_t nc;
    uint64_t events;          /* ring_burst */
    int32_t type;             /* invalid_notification: the bad notification_type */
    uint64_t count;           /* invalid_notification: how many (default 1) */
} ntsim_fault_t;

typedef struct ntsim_model {
    uint64_t id;
    char name[32];
    uint64_t exec_ns;         /* device time of one execute */
    bool collectives;         /* CC_EXEC, barriers, hostcc, the EXPLICIT status */
    uint32_t inputs, outputs; /* tensors per execute, 1..8 */
    uint64_t weight_bytes;
} ntsim_model_t;

/*
 * The instance (D-LNC): `devices` Neuron devices of `cores_per_device`
 * physical NeuronCores each, numbered instance-wide (device d's cores are
 * d * cores_per_device ...). The runtime groups `lnc` consecutive physical
 * cores of a device into one logical NC, numbered instance-wide too
 * (logical g = physical g * lnc ... g * lnc + lnc - 1). The process sees
 * `cores` of them (NEURON_RT_VISIBLE_CORES): its nc_idx v, the trace's
 * nc_idx, is logical NC vnc_gid[v], which is also v's worker_gid.
 */
typedef struct ntsim_scenario {
    char name[64];
    char path[256];           /* where it was read from, or "(built-in)" */
    uint64_t seed;
    char arch[16];            /* trace.ntff's ntrace_info.arch ("trn2"; "" writes ntsim-sim) */
    uint32_t devices, cores_per_device, lnc;
    uint32_t cores;           /* visible logical NCs: nc_idx 0 .. cores - 1 */
    uint32_t vnc_gid[NTSIM_NC_COUNT]; /* the instance-wide logical NC of each */
    uint64_t duration_ns;
    uint64_t host_start_ns;
    uint32_t host_threads;
    uint64_t request_interval_ns;
    /* clock_spread: every physical core's clock drawn from the seed within
     * +-these (when the file gives it; `clocks` then override). */
    uint64_t spread_offset_ns, spread_drift_ppm;
    /* Each physical core's device clock, by instance-wide physical index. */
    int64_t clock_offset_ns[NTSIM_MAX_CORES];
    int64_t clock_drift_ppm[NTSIM_MAX_CORES];
    ntsim_model_t models[NTSIM_MAX_MODELS];
    uint32_t model_count;
    uint64_t max_events_per_nc;
    bool type_disabled[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    bool nc_disabled[NTSIM_NC_COUNT];
    uint64_t fetch_interval_ns;
    ntsim_fault_t faults[NTSIM_MAX_FAULTS];
    uint32_t fault_count;
} ntsim_scenario_t;

/* The built-in default: 2 NCs, 2 models (one with collectives), every one
 * of the 46 event types, one fault of each runtime kind, well under a second. */
void ntsim_scenario_default(ntsim_scenario_t *sc);

/* Sets a one-device instance of n physical cores, LNC 1, all visible: what
 * a scenario's `cores: n` means. */
void ntsim_scenario_set_cores(ntsim_scenario_t *sc, uint32_t n);

/* An upper bound of the events a run of sc emits, in parts, so that a
 * refusal can name the fields behind the largest one. Computed from the
 * scenario alone, before the run: each host thread's executes fit in its
 * share of duration_ns at one per (9 us of host steps + the shortest
 * model's device time + request_interval_ns), each emitting at most
 * 32 + 5 per tensor + 16 with collectives + 8 per physical core of the NC
 * (workload.c; measured 40..110 in all); ring bursts and invalid
 * notifications add theirs. Saturates at UINT64_MAX. The unit suite checks
 * it bounds every committed scenario's count from above, within 4x. */
typedef struct ntsim_scenario_estimate {
    uint64_t executes;        /* all host threads together */
    uint64_t per_execute;     /* events of one execute, at most */
    uint64_t host;            /* executes x per_execute, plus loads and markers */
    uint64_t faults;          /* ring_burst events and invalid notifications */
    uint64_t total;
} ntsim_scenario_estimate_t;

void ntsim_scenario_estimate(const ntsim_scenario_t *sc, ntsim_scenario_estimate_t *e);

/* The instance-wide physical core behind the j-th physical core of visible
 * logical NC v (j < lnc). */
static inline uint32_t ntsim_phys_core(const ntsim_scenario_t *sc, uint32_t v, uint32_t j)
{
    return sc->vnc_gid[v] * sc->lnc + j;
}

#endif /* NTSIM_SIM_SCENARIO_H */
