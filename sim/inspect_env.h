/*
 * sim/inspect_env.h: the environment variables of libnrt's inspect
 * session (facts §4 "Env vars"), read as decision D-INSPECT-ENV says, for
 * `ntsim run` and the `inspect` vector kind.
 *
 * The readers are pure functions of a name -> value lookup: `ntsim run`
 * hands them the process's environ, a vector its `env:` mapping, so the
 * same code answers both and nothing here calls getenv. The result is an
 * inspect config (what to capture, where to write ntrace.pb), or one line
 * per problem, each naming the variable and the part it could not read:
 *
 *   NEURON_RT_INSPECT_EVENT_FILTER_NC: '4-2': range ends before it starts
 */
#ifndef NTSIM_SIM_INSPECT_ENV_H
#define NTSIM_SIM_INSPECT_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"
#include "ntsim/capture.h"
#include "scenario.h"
#include "yaml_reader.h" /* ntsim_errors_t: one formatted line per problem */

/* The variables ntsim honours, listed once: XX(ID, name, values, help):
 * the values it reads and one line of what it does, from which ntsim run
 * --help's list is made. The parser reads them in this order, so errors and
 * warnings come in this order too. */
#define NTSIM_INSPECT_ENV_MAP(XX)                                                           \
    XX(ENABLE, "NEURON_RT_INSPECT_ENABLE", "0|1", "1: an inspect session (default 0)")     \
    XX(OUTPUT_DIR, "NEURON_RT_INSPECT_OUTPUT_DIR", "DIR",                                  \
       "where ntrace.pb goes (default " NTSIM_INSPECT_OUTPUT_DIR_DEFAULT ")")               \
    XX(SYSTEM_PROFILE, "NEURON_RT_INSPECT_SYSTEM_PROFILE", "0|1",                          \
       "the sys_trace capture (default 1)")                                                 \
    XX(DEVICE_PROFILE, "NEURON_RT_INSPECT_DEVICE_PROFILE", "0|1|model|session",            \
       "checked and reported")                                                              \
    XX(ON_EXEC_FAIL, "NEURON_RT_INSPECT_ON_EXEC_FAIL", "0|1", "checked and reported")      \
    XX(EVENT_FILTER_NC, "NEURON_RT_INSPECT_EVENT_FILTER_NC", "0,2,4-7", "the NCs to capture") \
    XX(EVENT_FILTER_TYPE, "NEURON_RT_INSPECT_EVENT_FILTER_TYPE", "hardware,^hw_notify",    \
       "the types to capture")

/* Every variable of the inspect layer starts with this; one ntsim does not
 * know is warned about (a misspelt filter would otherwise do nothing). */
#define NTSIM_INSPECT_ENV_PREFIX "NEURON_RT_INSPECT_"

/* facts §4: NEURON_RT_INSPECT_OUTPUT_DIR's default. */
#define NTSIM_INSPECT_OUTPUT_DIR_DEFAULT "./output"
/* Bytes an output directory may have, its NUL included (Linux's PATH_MAX). */
#define NTSIM_INSPECT_DIR_MAX 4096

typedef enum ntsim_inspect_device_profile {
    NTSIM_INSPECT_DEVICE_OFF,     /* "0" */
    NTSIM_INSPECT_DEVICE_MODEL,   /* "1" or "model" */
    NTSIM_INSPECT_DEVICE_SESSION  /* "session" */
} ntsim_inspect_device_profile_t;

typedef struct ntsim_inspect_config {
    bool enabled;                               /* NEURON_RT_INSPECT_ENABLE is 1 */
    char output_dir[NTSIM_INSPECT_DIR_MAX];     /* where ntrace.pb goes */
    bool system_profile;                        /* the sys_trace capture (default on) */
    ntsim_inspect_device_profile_t device_profile;
    bool on_exec_fail;
    bool nc_enabled[NTSIM_NC_COUNT];            /* EVENT_FILTER_NC (default: all) */
    bool type_enabled[NRT_SYS_TRACE_EVENT_TYPE_COUNT]; /* EVENT_FILTER_TYPE (default: all) */
} ntsim_inspect_config_t;

/* The value of the variable `name`, or NULL when it is not set. */
typedef const char *(*ntsim_inspect_lookup_fn)(const char *name, void *ctx);

/* A lookup over an environ-style array: ctx is a NULL-terminated
 * `char *const *` of "NAME=VALUE" strings; the first entry of a name wins,
 * as with getenv. */
const char *ntsim_inspect_environ_lookup(const char *name, void *ctx);

/* Reads every variable of NTSIM_INSPECT_ENV_MAP through `lookup` into *out.
 * Each problem appends one line to *errors, each advisory one to *warnings
 * (both lists are the caller's, initialized; either may be NULL to drop
 * its lines). Returns NRT_SUCCESS; NRT_INVALID when any variable could not
 * be read, with *out then enabling nothing (no NC, no type, not enabled),
 * so a caller that ignores the status still captures nothing with a filter
 * it did not understand; NRT_RESOURCE when a line could not be kept (*out
 * enables nothing then too). NULL lookup or out: NRT_INVALID. */
NRT_STATUS ntsim_inspect_env_parse(ntsim_inspect_lookup_fn lookup, void *ctx,
                                   ntsim_inspect_config_t *out, ntsim_errors_t *errors,
                                   ntsim_errors_t *warnings);

/* The whole reading of an environ-style array: ntsim_inspect_env_parse over
 * it, then one warning per NEURON_RT_INSPECT_* name in it that ntsim does not
 * honour, in the array's order. Same returns. */
NRT_STATUS ntsim_inspect_env_read(char *const *env, ntsim_inspect_config_t *out,
                                  ntsim_errors_t *errors, ntsim_errors_t *warnings);

/* The event type an EVENT_FILTER_TYPE name means: an interned name
 * ("nc_exec_running") or a lowercase enum suffix ("device_exec"), both from
 * the one table. False for anything else, categories included. */
bool ntsim_inspect_type_by_name(const char *name, size_t len, nrt_sys_trace_event_type_t *out);

/* Applies an enabled config with its system profile on to a scenario: its
 * NC and type filters replace the scenario's nc_disabled and type_disabled
 * (D-INSPECT-ENV). Anything else leaves the scenario as it is. */
void ntsim_inspect_apply(const ntsim_inspect_config_t *cfg, ntsim_scenario_t *sc);

/* After ntsim_inspect_apply: when an enabled config with its system profile
 * on keeps none of the scenario's NCs (nc_idx 0 .. cores - 1), one warning
 * naming EVENT_FILTER_NC is added to warnings: the run captures nothing
 * (D-INSPECT-ENV). NRT_RESOURCE when it cannot be kept; else NRT_SUCCESS. */
NRT_STATUS ntsim_inspect_check_scenario(const ntsim_inspect_config_t *cfg,
                                       const ntsim_scenario_t *sc, ntsim_errors_t *warnings);

/* "off", "model" or "session": for summaries and reports. */
const char *ntsim_inspect_device_profile_name(ntsim_inspect_device_profile_t p);

#endif /* NTSIM_SIM_INSPECT_ENV_H */
