/*
 * sim/scenario_load.h: scenario files (sim/scenario.h), read over the
 * simulator's built-in default. The format's keys are listed once, in
 * scenario_keys.c; sim/scenarios/README.md is their schema (every key, its
 * type, default and limit), checked against the list by the unit suite.
 *
 *   version: 1
 *   name: default
 *   cores: 2                     # or instance: {devices, cores_per_device, lnc, ...}
 *   host: {threads: 2, request_interval_ns: 40000}
 *   models: [{id: 1, name: mlp, exec_ns: 30000}]
 *   faults: [{kind: numerical_error, at_ns: 9000, nc: 1}]
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

/* The same, with a relative path (and the file a name falls back to) taken
 * relative to directory `base` instead of the working directory (NULL: the
 * working directory): a vector's `scenario:` is relative to the vector
 * file's own directory (D-DATA-LOCATE). */
char *ntsim_scenario_find_in(const char *arg, const char *base, ntsim_errors_t *errors);

/* The names of the shipped scenarios (their files' names without .yaml),
 * sorted, joined by ", " into a malloc'd string, with their directory in
 * *dir (malloc'd); NULL with why when the directory cannot be read. */
char *ntsim_scenario_shipped(char **dir, char *why, size_t cap);

/* The same, from text in memory (`name` labels the errors; fuzzing). */
NRT_STATUS ntsim_scenario_load_string(const char *name, const char *text, size_t len,
                                      ntsim_scenario_t *sc, char *errors, size_t cap);

#endif /* NTSIM_SIM_SCENARIO_LOAD_H */
