/*
 * sim/scenario_load.h: scenario files (sim/scenario.h), read over the
 * simulator's built-in default.
 *
 *   version: 1
 *   name: default
 *   comment: one line                     # optional
 *   seed: 42                              # the run's only source of variation
 *   cores: 2                              # NeuronCores, 1..256: one device, LNC 1
 *   instance:                             # or the instance (not both; D-LNC)
 *     arch: trn2                          # trace.ntff's arch (default ntsim-sim)
 *     devices: 16                         # 1..64
 *     cores_per_device: 8                 # physical NeuronCores, 1..64 (512 in all)
 *     lnc: 2                              # physical cores per logical NC: 1 or 2
 *     visible_cores: "0-3,8"              # the logical NCs the process sees (all;
 *                                         # at most 256), nc_idx 0.. in order
 *   duration_ns: 2000000                  # simulated time; requests start before it
 *   host:
 *     start_ns: 1700000000000000000      # host clock at t = 0
 *     threads: 2                          # simulated host threads issuing executes,
 *                                         # 0..256; thread k drives NC k mod cores
 *     request_interval_ns: 40000          # between one thread's executes
 *   clock_spread: {offset_ns: 50000, drift_ppm: 30}  # optional: every physical core's
 *                                         # clock drawn from the seed within +-these
 *   clocks:                               # optional: a physical core's device clock
 *     - {core: 0, offset_ns: 1500, drift_ppm: 25}   # (instance-wide index; overrides
 *                                                   # clock_spread)
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
 * Errors are "file:line:col: field: message" (the strict YAML reader).
 */
#ifndef NTSIM_SIM_SCENARIO_LOAD_H
#define NTSIM_SIM_SCENARIO_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "scenario.h"
#include "yaml_reader.h" /* ntsim_errors_t */

/* A scenario whose run would emit more events than this (the estimate of
 * ntsim_scenario_estimate, before it runs) is refused, naming the fields
 * behind the estimate (D-SCENARIO-BUDGET): a typo in duration_ns or
 * request_interval_ns must not write terabytes for hours. */
#define NTSIM_SCENARIO_EVENT_BUDGET UINT64_C(20000000)

/* Sets the budget for every later load (a command's --max-events; 0: no
 * budget). Called before any load, from one thread. */
void ntsim_scenario_set_event_budget(uint64_t events);

/* Reads a scenario file over the defaults. On error returns NRT_INVALID (or
 * NRT_FAILURE if unreadable) and writes every error, one per line, to
 * `errors` (cap bytes). */
NRT_STATUS ntsim_scenario_load(const char *path, ntsim_scenario_t *sc, char *errors,
                               size_t cap);

/* What a scenario argument (`ntsim run ARG`, a vector's `scenario:`) names,
 * found from anywhere (D-SCENARIO-NAMES): ARG itself when it looks like a path
 * (it holds a '/' or ends in .yaml); otherwise the shipped scenario of that
 * name (ARG.yaml among the shipped scenarios, sim/locate.h), else a file ARG
 * in the working directory. A malloc'd path, or NULL with one line in
 * *errors when nothing is found: "ARG: no such file, and no shipped scenario
 * of that name; the shipped scenarios (DIR): a, b, ...". NULL also when
 * memory runs out (the line says so when it can be kept). */
char *ntsim_scenario_find(const char *arg, ntsim_errors_t *errors);

/* The names of the shipped scenarios (their files' names without .yaml),
 * sorted, joined by ", " into a malloc'd string, with their directory in
 * *dir (malloc'd); NULL with why when the directory cannot be read. */
char *ntsim_scenario_shipped(char **dir, char *why, size_t cap);

/* The same, from text in memory (`name` labels the errors; fuzzing). */
NRT_STATUS ntsim_scenario_load_string(const char *name, const char *text, size_t len,
                                      ntsim_scenario_t *sc, char *errors, size_t cap);

#endif /* NTSIM_SIM_SCENARIO_LOAD_H */
