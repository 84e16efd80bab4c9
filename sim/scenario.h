/*
 * sim/scenario.h: what one simulated run does, read from YAML.
 *
 *   version: 1
 *   name: default
 *   comment: one line                     # optional
 *   seed: 42                              # the run's only source of variation
 *   cores: 2                              # NeuronCores, 1..256
 *   duration_ns: 2000000                  # simulated time; requests start before it
 *   host:
 *     start_ns: 1700000000000000000      # host clock at t = 0
 *     threads: 2                          # simulated host threads issuing executes
 *     request_interval_ns: 40000          # between one thread's executes
 *   devices:                              # optional per-NC device clock
 *     - {nc: 0, offset_ns: 1500, drift_ppm: 25}
 *   models:                               # 1..8
 *     - {id: 1, name: mlp, exec_ns: 30000, collectives: true, inputs: 2, outputs: 1,
 *        weight_bytes: 1048576}
 *   capture:
 *     max_events_per_nc: 4096             # before start()'s clamp
 *     disabled_types: [HW_NOTIFY]         # enum suffixes (or enabled_types: the only ones)
 *     disabled_ncs: [1]
 *     fetch_interval_ns: 0                # 0: fetch once, at the end
 *   faults:                               # optional
 *     - {kind: ring_burst, at_ns: 1000, nc: 0, events: 1500}
 *     - {kind: invalid_notification, at_ns: 5000, nc: 0, type: 9}
 *     - {kind: numerical_error, at_ns: 9000, nc: 1}
 *     - {kind: stop_before_fetch}
 *
 * Errors are "file:line:col: field: message" (the vector loader's readers).
 */
#ifndef NTSIM_SIM_SCENARIO_H
#define NTSIM_SIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "nrt/nrt_sys_trace.h"

enum { NTSIM_MAX_MODELS = 8, NTSIM_MAX_FAULTS = 64 };

typedef enum ntsim_fault_kind {
    NTSIM_FAULT_RING_BURST,           /* `events` GENERIC instants on `nc` at once */
    NTSIM_FAULT_INVALID_NOTIFICATION, /* the device posts notification_type `type` */
    NTSIM_FAULT_NUMERICAL_ERROR,      /* the next execute on `nc` ends with NUM_ERR */
    NTSIM_FAULT_STOP_BEFORE_FETCH     /* stop() before the final fetch: the rest is lost */
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

typedef struct ntsim_scenario {
    char name[64];
    char path[256];           /* where it was read from, or "(built-in)" */
    uint64_t seed;
    uint32_t cores;
    uint64_t duration_ns;
    uint64_t host_start_ns;
    uint32_t host_threads;
    uint64_t request_interval_ns;
    int64_t clock_offset_ns[NTSIM_NC_COUNT];
    int64_t clock_drift_ppm[NTSIM_NC_COUNT];
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

/* Reads a scenario file over the defaults. On error returns NRT_INVALID (or
 * NRT_FAILURE if unreadable) and writes every error, one per line, to
 * `errors` (cap bytes). */
NRT_STATUS ntsim_scenario_load(const char *path, ntsim_scenario_t *sc, char *errors,
                               size_t cap);

/* The same, from text in memory (`name` labels the errors; fuzzing). */
NRT_STATUS ntsim_scenario_load_string(const char *name, const char *text, size_t len,
                                      ntsim_scenario_t *sc, char *errors, size_t cap);

#endif /* NTSIM_SIM_SCENARIO_H */
