/*
 * sim/scenario_keys.c: the one list of a scenario file's keys
 * (scenario_keys.h); sim/scenarios/README.md is its schema, checked against
 * it. A row: section, key, type, required, min, max, default, limit (where
 * min..max does not say it), where it is stored, what it is.
 */
#include "scenario_keys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a row's value goes: a field of the section's struct; NONE: the
 * loader's own code reads it. */
#define AT(type, member) offsetof(type, member), sizeof(((type *)0)->member)
#define NONE 0, 0
#define P2(n) (UINT64_C(1) << (n))

const ntsim_scenario_key_t ntsim_scenario_keys[] = {
    /* The document. */
    {NTSIM_SEC_TOP, "version", NTSIM_KEY_INT, true, 1, 1, "required", NULL, NONE,
     "the format's version"},
    {NTSIM_SEC_TOP, "name", NTSIM_KEY_NAME, true, 0, 0, "required", NULL,
     AT(ntsim_scenario_t, name), "the scenario's name (`ntsim record`'s vector id)"},
    {NTSIM_SEC_TOP, "comment", NTSIM_KEY_STRING, false, 0, 0, "none", NULL, NONE, "one line"},
    {NTSIM_SEC_TOP, "seed", NTSIM_KEY_UINT, false, 0, UINT64_MAX, "42", NULL,
     AT(ntsim_scenario_t, seed), "the run's only source of variation (D-SIM-RNG)"},
    {NTSIM_SEC_TOP, "cores", NTSIM_KEY_INT, false, 1, NTSIM_NC_COUNT, "2", NULL, NONE,
     "NeuronCores: one device of that many, LNC 1 (not with `instance`)"},
    {NTSIM_SEC_TOP, "instance", NTSIM_KEY_MAP, false, 0, 0, "cores", NULL, NONE,
     "the instance, in place of `cores` (D-LNC)"},
    {NTSIM_SEC_TOP, "duration_ns", NTSIM_KEY_UINT, false, 0, P2(50), "1000000", NULL,
     AT(ntsim_scenario_t, duration_ns), "simulated time; executes start before it"},
    {NTSIM_SEC_TOP, "host", NTSIM_KEY_MAP, false, 0, 0, "the defaults below", NULL, NONE,
     "the host threads that issue executes"},
    {NTSIM_SEC_TOP, "clocks", NTSIM_KEY_LIST, false, 0, 0, "none", NULL, NONE,
     "physical cores' device clocks (override clock_spread)"},
    {NTSIM_SEC_TOP, "clock_spread", NTSIM_KEY_MAP, false, 0, 0, "none", NULL, NONE,
     "every physical core's clock drawn from the seed"},
    {NTSIM_SEC_TOP, "models", NTSIM_KEY_LIST, false, 1, NTSIM_MAX_MODELS, "mlp, allreduce", NULL,
     NONE, "the models each NC loads; host thread k runs them in turn"},
    {NTSIM_SEC_TOP, "capture", NTSIM_KEY_MAP, false, 0, 0, "the defaults below", NULL, NONE,
     "the capture config"},
    {NTSIM_SEC_TOP, "faults", NTSIM_KEY_LIST, false, 0, NTSIM_MAX_FAULTS, "none", NULL, NONE,
     "what goes wrong, and when"},
    /* instance: (D-LNC) */
    {NTSIM_SEC_INSTANCE, "arch", NTSIM_KEY_NAME, false, 0, 0, "ntsim-sim", NULL,
     AT(ntsim_scenario_t, arch), "trace.ntff's arch"},
    {NTSIM_SEC_INSTANCE, "devices", NTSIM_KEY_UINT, true, 1, 64, "required", NULL,
     AT(ntsim_scenario_t, devices), "Neuron devices"},
    {NTSIM_SEC_INSTANCE, "cores_per_device", NTSIM_KEY_UINT, true, 1, 64, "required", NULL,
     AT(ntsim_scenario_t, cores_per_device), "physical NeuronCores per device (512 in all at most)"},
    {NTSIM_SEC_INSTANCE, "lnc", NTSIM_KEY_UINT, false, 1, NTSIM_MAX_LNC, "1", NULL,
     AT(ntsim_scenario_t, lnc), "physical cores per logical NC; divides cores_per_device"},
    {NTSIM_SEC_INSTANCE, "visible_cores", NTSIM_KEY_RANGES, false, 0, 0, "all",
     "the instance's logical NCs; at most 256 visible", NONE,
     "the logical NCs the process sees (\"0-3,8\"), nc_idx 0.. in order"},
    /* host: */
    {NTSIM_SEC_HOST, "start_ns", NTSIM_KEY_UINT, false, 0, UINT64_MAX / 2, "1700000000000000000",
     NULL, AT(ntsim_scenario_t, host_start_ns), "the host clock at t = 0"},
    {NTSIM_SEC_HOST, "threads", NTSIM_KEY_UINT, false, 0, NTSIM_MAX_HOST_THREADS, "2", NULL,
     AT(ntsim_scenario_t, host_threads), "host threads; thread k drives NC k mod cores"},
    {NTSIM_SEC_HOST, "request_interval_ns", NTSIM_KEY_UINT, false, 0, P2(40), "40000", NULL,
     AT(ntsim_scenario_t, request_interval_ns), "between one thread's executes"},
    /* clock_spread: */
    {NTSIM_SEC_CLOCK_SPREAD, "offset_ns", NTSIM_KEY_UINT, false, 0, P2(40), "0", NULL,
     AT(ntsim_scenario_t, spread_offset_ns), "each clock's offset within +-this"},
    {NTSIM_SEC_CLOCK_SPREAD, "drift_ppm", NTSIM_KEY_UINT, false, 0, 100000, "0", NULL,
     AT(ntsim_scenario_t, spread_drift_ppm), "each clock's drift within +-this"},
    /* clocks[]: */
    {NTSIM_SEC_CLOCKS, "core", NTSIM_KEY_UINT, true, 0, NTSIM_MAX_CORES - 1, "required", NULL,
     AT(ntsim_clock_entry_t, core), "instance-wide physical core, the first of its logical NC"},
    {NTSIM_SEC_CLOCKS, "offset_ns", NTSIM_KEY_INT, false, -(INT64_C(1) << 50), P2(50), "0", NULL,
     AT(ntsim_clock_entry_t, offset_ns), "device - host at t = 0"},
    {NTSIM_SEC_CLOCKS, "drift_ppm", NTSIM_KEY_INT, false, -100000, 100000, "0", NULL,
     AT(ntsim_clock_entry_t, drift_ppm), "the device clock's rate - 1"},
    /* models[]: */
    {NTSIM_SEC_MODELS, "id", NTSIM_KEY_UINT, true, 0, UINT32_MAX, "required", NULL,
     AT(ntsim_model_t, id), "the model id; each once"},
    {NTSIM_SEC_MODELS, "name", NTSIM_KEY_NAME, false, 0, 0, "model1, model2, ...", NULL,
     AT(ntsim_model_t, name), "its name"},
    {NTSIM_SEC_MODELS, "exec_ns", NTSIM_KEY_UINT, false, 2, P2(40), "20000", NULL,
     AT(ntsim_model_t, exec_ns), "device time of one execute (jittered by 1/8)"},
    {NTSIM_SEC_MODELS, "collectives", NTSIM_KEY_BOOL, false, 0, 0, "false", NULL,
     AT(ntsim_model_t, collectives), "CC_EXEC, barriers, hostcc, the EXPLICIT status"},
    {NTSIM_SEC_MODELS, "inputs", NTSIM_KEY_UINT, false, 1, 8, "1", NULL,
     AT(ntsim_model_t, inputs), "input tensors per execute"},
    {NTSIM_SEC_MODELS, "outputs", NTSIM_KEY_UINT, false, 1, 8, "1", NULL,
     AT(ntsim_model_t, outputs), "output tensors per execute"},
    {NTSIM_SEC_MODELS, "weight_bytes", NTSIM_KEY_UINT, false, 0, P2(40), "1048576", NULL,
     AT(ntsim_model_t, weight_bytes), "its weights' DMA allocation"},
    /* capture: */
    {NTSIM_SEC_CAPTURE, "max_events_per_nc", NTSIM_KEY_UINT, false, 0, UINT64_MAX, "4096", NULL,
     AT(ntsim_scenario_t, max_events_per_nc), "the ring size asked for, before start()'s clamp"},
    {NTSIM_SEC_CAPTURE, "enabled_types", NTSIM_KEY_TYPES, false, 0, 0, "all",
     "enum suffixes (HW_NOTIFY); not with disabled_types", NONE, "the only types captured"},
    {NTSIM_SEC_CAPTURE, "disabled_types", NTSIM_KEY_TYPES, false, 0, 0, "none",
     "enum suffixes (HW_NOTIFY); not with enabled_types", NONE, "types not captured"},
    {NTSIM_SEC_CAPTURE, "disabled_ncs", NTSIM_KEY_NCS, false, 0, NTSIM_NC_COUNT - 1, "none", NULL,
     NONE, "NCs not captured"},
    {NTSIM_SEC_CAPTURE, "fetch_interval_ns", NTSIM_KEY_UINT, false, 0, P2(50), "0", NULL,
     AT(ntsim_scenario_t, fetch_interval_ns), "between periodic fetches; 0: one, at the end"},
    /* faults[]: */
    {NTSIM_SEC_FAULTS, "kind", NTSIM_KEY_FAULT, true, 0, 0, "required", NULL, NONE,
     "what goes wrong (NTSIM_FAULT_KIND_MAP)"},
    {NTSIM_SEC_FAULTS, "at_ns", NTSIM_KEY_UINT, false, 0, P2(50), "0", NULL,
     AT(ntsim_fault_t, at_ns), "when, after t = 0"},
    {NTSIM_SEC_FAULTS, "nc", NTSIM_KEY_UINT, false, 0, NTSIM_NC_COUNT - 1, "0", NULL,
     AT(ntsim_fault_t, nc), "on which NC (one of the scenario's)"},
    {NTSIM_SEC_FAULTS, "events", NTSIM_KEY_UINT, false, 0, P2(24), "0", NULL,
     AT(ntsim_fault_t, events), "ring_burst: how many (at least 1)"},
    {NTSIM_SEC_FAULTS, "type", NTSIM_KEY_INT, false, INT32_MIN, INT32_MAX, "0", NULL,
     AT(ntsim_fault_t, type), "invalid_notification: the notification_type (required there)"},
    {NTSIM_SEC_FAULTS, "count", NTSIM_KEY_UINT, false, 0, P2(20), "1", NULL,
     AT(ntsim_fault_t, count), "invalid_notification: how many"},
};

const size_t ntsim_scenario_key_count = sizeof ntsim_scenario_keys / sizeof ntsim_scenario_keys[0];

static const char *const section_paths[NTSIM_SEC_COUNT] = {
    "", "instance", "host", "clock_spread", "clocks[]", "models[]", "capture", "faults[]",
};

const char *ntsim_scenario_section_path(ntsim_scenario_section_t sec)
{
    return sec < NTSIM_SEC_COUNT ? section_paths[sec] : "?";
}

const ntsim_scenario_key_t *ntsim_scenario_key_find(ntsim_scenario_section_t sec,
                                                    const char *key)
{
    for (size_t i = 0; i < ntsim_scenario_key_count; i++)
        if (ntsim_scenario_keys[i].section == sec && strcmp(ntsim_scenario_keys[i].key, key) == 0)
            return &ntsim_scenario_keys[i];
    return NULL;
}

/* Each section's keys, NULL-terminated: filled on first use from the table
 * (every row has one slot, so any section fits). The table is constant, so
 * two threads filling them at once write the same values. */
static const char *section_lists[NTSIM_SEC_COUNT][sizeof ntsim_scenario_keys /
                                                   sizeof ntsim_scenario_keys[0] + 1];

const char *const *ntsim_scenario_section_keys(ntsim_scenario_section_t sec)
{
    const char **list = section_lists[sec];
    if (list[0] == NULL) {
        size_t n = 0;
        for (size_t i = 0; i < ntsim_scenario_key_count; i++)
            if (ntsim_scenario_keys[i].section == sec)
                list[n++] = ntsim_scenario_keys[i].key;
        list[n] = NULL;
    }
    return list;
}

char *ntsim_scenario_key_path(const ntsim_scenario_key_t *k, char *out, size_t cap)
{
    const char *sec = ntsim_scenario_section_path(k->section);
    snprintf(out, cap, "%s%s%s", sec, sec[0] ? "." : "", k->key);
    return out;
}

const char *ntsim_scenario_key_type_name(const ntsim_scenario_key_t *k)
{
    switch (k->type) {
    case NTSIM_KEY_UINT:
    case NTSIM_KEY_INT: return "integer";
    case NTSIM_KEY_BOOL: return "true or false";
    case NTSIM_KEY_STRING:
    case NTSIM_KEY_NAME: return "string";
    case NTSIM_KEY_MAP: return "mapping";
    case NTSIM_KEY_LIST: return "list";
    case NTSIM_KEY_RANGES: return "index list";
    case NTSIM_KEY_TYPES: return "list of event types";
    case NTSIM_KEY_NCS: return "list of NCs";
    case NTSIM_KEY_FAULT: return "fault kind";
    }
    return "?";
}

/* A bound as the schema writes it: 2^N and 2^N-1 for the powers of two
 * past 2^15 (and their negatives), else decimal. */
static void bound(char *out, size_t cap, bool negative, uint64_t mag)
{
    const char *sign = negative ? "-" : "";
    for (unsigned n = 16; n < 64; n++) {
        if (mag == (UINT64_C(1) << n)) {
            snprintf(out, cap, "%s2^%u", sign, n);
            return;
        }
        if (!negative && mag == (UINT64_C(1) << n) - 1) {
            snprintf(out, cap, "2^%u-1", n);
            return;
        }
    }
    if (!negative && mag == UINT64_MAX)
        snprintf(out, cap, "2^64-1");
    else
        snprintf(out, cap, "%s%" PRIu64, sign, mag);
}

static void range(char *out, size_t cap, int64_t min, uint64_t max)
{
    char lo[32], hi[32];
    bound(lo, sizeof lo, min < 0, min < 0 ? (uint64_t)0 - (uint64_t)min : (uint64_t)min);
    bound(hi, sizeof hi, false, max);
    snprintf(out, cap, "%s..%s", lo, hi);
}

char *ntsim_scenario_key_limit(const ntsim_scenario_key_t *k, char *out, size_t cap)
{
    char r[80];
    if (k->limit != NULL) {
        snprintf(out, cap, "%s", k->limit);
        return out;
    }
    switch (k->type) {
    case NTSIM_KEY_UINT:
    case NTSIM_KEY_INT:
        range(out, cap, k->min, k->max);
        break;
    case NTSIM_KEY_NAME:
        snprintf(out, cap, "at most %zu bytes", k->size - 1);
        break;
    case NTSIM_KEY_LIST:
        if (k->max == 0) {
            snprintf(out, cap, "-");
            break;
        }
        range(r, sizeof r, k->min, k->max);
        snprintf(out, cap, "%s entries", r);
        break;
    case NTSIM_KEY_NCS:
        range(r, sizeof r, k->min, k->max);
        snprintf(out, cap, "each %s", r);
        break;
    case NTSIM_KEY_FAULT: {
        size_t used = 0;
        out[0] = '\0';
#define NTSIM_FAULT_NAME_(id, name, what)                                                   \
    used += (size_t)snprintf(out + used, used < cap ? cap - used : 0, "%s%s",              \
                             used ? ", " : "", name);
        NTSIM_FAULT_KIND_MAP(NTSIM_FAULT_NAME_)
#undef NTSIM_FAULT_NAME_
        break;
    }
    default:
        snprintf(out, cap, "-");
        break;
    }
    return out;
}

void ntsim_scenario_key_defaults(ntsim_scenario_section_t sec, void *base)
{
    for (size_t i = 0; i < ntsim_scenario_key_count; i++) {
        const ntsim_scenario_key_t *k = &ntsim_scenario_keys[i];
        if (k->section != sec || k->size == 0 || k->required)
            continue;
        unsigned char *at = (unsigned char *)base + k->offset;
        if (k->type == NTSIM_KEY_BOOL) {
            bool v = strcmp(k->def, "true") == 0;
            memcpy(at, &v, sizeof v);
        } else if (k->type == NTSIM_KEY_UINT || k->type == NTSIM_KEY_INT) {
            /* The defaults are decimal literals of the field's type (the
             * unit suite parses and range-checks every one). */
            uint64_t u = k->type == NTSIM_KEY_UINT ? strtoull(k->def, NULL, 10)
                                                   : (uint64_t)strtoll(k->def, NULL, 10);
            if (k->size == sizeof(uint32_t)) {
                uint32_t v = (uint32_t)u;
                memcpy(at, &v, sizeof v);
            } else {
                memcpy(at, &u, sizeof u);
            }
        }
    }
}
