/*
 * sim/scenario_default.c: the built-in default scenario, and what a
 * scenario costs before it runs. Scenario files are read by
 * sim/scenario_load.c, over this default.
 */
#include "scenario.h"
#include "scenario_keys.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void ntsim_scenario_default(ntsim_scenario_t *sc)
{
    memset(sc, 0, sizeof *sc);
    /* Its scalars are the schema's defaults, which a file's absent keys
     * keep (scenario_keys.c: seed 42, 1 ms, 2 host threads every 40 us,
     * rings of 4096, one fetch at the end). */
    static const ntsim_scenario_section_t sections[] = {
        NTSIM_SEC_TOP, NTSIM_SEC_INSTANCE, NTSIM_SEC_HOST, NTSIM_SEC_CLOCK_SPREAD,
        NTSIM_SEC_CAPTURE};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        ntsim_scenario_key_defaults(sections[i], sc);
    snprintf(sc->name, sizeof sc->name, "default");
    snprintf(sc->path, sizeof sc->path, "the built-in default");
    ntsim_scenario_set_cores(sc, 2);
    sc->clock_offset_ns[0] = 1500;
    sc->clock_drift_ppm[0] = 25;
    sc->clock_offset_ns[1] = -2500;
    sc->clock_drift_ppm[1] = -40;
    sc->models[0] = (ntsim_model_t){1, "mlp", 30000, false, 2, 1, 1 << 20};
    sc->models[1] = (ntsim_model_t){2, "allreduce", 50000, true, 1, 1, 4 << 20};
    sc->model_count = 2;
    /* One fault of each runtime kind: three invalid notification types
     * (TOPSP_CC_STATUS, MAX, a garbage negative) and a numerical error. */
    sc->faults[0] = (ntsim_fault_t){NTSIM_FAULT_INVALID_NOTIFICATION, 100000, 0, 0, 9, 1};
    sc->faults[1] = (ntsim_fault_t){NTSIM_FAULT_INVALID_NOTIFICATION, 200000, 1, 0, 10, 1};
    sc->faults[2] = (ntsim_fault_t){NTSIM_FAULT_INVALID_NOTIFICATION, 300000, 0, 0, -7, 2};
    sc->faults[3] = (ntsim_fault_t){NTSIM_FAULT_NUMERICAL_ERROR, 500000, 1, 0, 0, 0};
    sc->fault_count = 4;
}

void ntsim_scenario_set_cores(ntsim_scenario_t *sc, uint32_t n)
{
    sc->devices = 1;
    sc->cores_per_device = n;
    sc->lnc = 1;
    sc->cores = n;
    for (uint32_t v = 0; v < NTSIM_NC_COUNT; v++)
        sc->vnc_gid[v] = v;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

void ntsim_scenario_estimate(const ntsim_scenario_t *sc, ntsim_scenario_estimate_t *e)
{
    memset(e, 0, sizeof *e);
    uint64_t min_exec = UINT64_MAX, tensors = 0;
    bool collectives = false;
    for (uint32_t m = 0; m < sc->model_count; m++) {
        const ntsim_model_t *md = &sc->models[m];
        /* The device time jitters down by up to 1/16 (workload.c). */
        uint64_t shortest = md->exec_ns - md->exec_ns / 16;
        if (shortest < min_exec)
            min_exec = shortest;
        if (md->inputs + md->outputs > tensors)
            tensors = md->inputs + md->outputs;
        collectives = collectives || md->collectives;
    }
    if (sc->model_count == 0)
        min_exec = 0;
    /* Host steps of one execute: 2 + 3 + 1 + 1 + 2 us (workload.c). */
    uint64_t cycle = sat_add(sat_add(9000, min_exec), sc->request_interval_ns);
    uint64_t per_thread = sc->duration_ns / cycle + 1;
    e->executes = sat_mul(per_thread, sc->host_threads);
    e->per_execute = 32 + 5 * tensors + (collectives ? 16 : 0) + 8 * (uint64_t)sc->lnc;
    /* Model loads and unloads on every NC, the session's markers, syncs. */
    uint64_t fixed = 1000 + 64 * (uint64_t)sc->cores * sc->model_count;
    e->host = sat_add(sat_mul(e->executes, e->per_execute), fixed);
    for (uint32_t f = 0; f < sc->fault_count; f++) {
        const ntsim_fault_t *ft = &sc->faults[f];
        if (ft->kind == NTSIM_FAULT_RING_BURST)
            e->faults = sat_add(e->faults, ft->events);
        else if (ft->kind == NTSIM_FAULT_INVALID_NOTIFICATION)
            e->faults = sat_add(e->faults, ft->count);
        else
            e->faults = sat_add(e->faults, 4); /* a numerical error's record */
    }
    e->total = sat_add(e->host, e->faults);
}
