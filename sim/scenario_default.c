/*
 * sim/scenario_default.c: the built-in default scenario. Scenario files are
 * read by conformance/lib/scenario_load.c, over this default.
 */
#include "scenario.h"

#include <stdio.h>
#include <string.h>

void ntsim_scenario_default(ntsim_scenario_t *sc)
{
    memset(sc, 0, sizeof *sc);
    snprintf(sc->name, sizeof sc->name, "default");
    snprintf(sc->path, sizeof sc->path, "the built-in default");
    sc->seed = 42;
    ntsim_scenario_set_cores(sc, 2);
    sc->duration_ns = 1000000; /* 1 ms of simulated time */
    sc->host_start_ns = UINT64_C(1700000000000000000);
    sc->host_threads = 2;
    sc->request_interval_ns = 40000;
    sc->clock_offset_ns[0] = 1500;
    sc->clock_drift_ppm[0] = 25;
    sc->clock_offset_ns[1] = -2500;
    sc->clock_drift_ppm[1] = -40;
    sc->models[0] = (ntsim_model_t){1, "mlp", 30000, false, 2, 1, 1 << 20};
    sc->models[1] = (ntsim_model_t){2, "allreduce", 50000, true, 1, 1, 4 << 20};
    sc->model_count = 2;
    sc->max_events_per_nc = 4096;
    sc->fetch_interval_ns = 0;
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
