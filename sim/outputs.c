/*
 * sim/outputs.c: a run's three output files as bytes, and their digests.
 *
 *   trace.json          the fetch document of every drained record, byte for
 *                       byte what nrt_sys_trace_fetch_events returns for them
 *   trace.ntff          an ntrace_info of the same records
 *   notifications.ntff  an ntrace_info whose collected_profiles are the
 *                       converted notifications, then the EXPLICIT ones
 */
#include <string.h>

#include "intern.h"
#include "sim.h"

/* The exporters' model lookup over the run's execution -> model table. */
static uint64_t model_of_exec(uint64_t exec_id, void *ctx)
{
    const ntsim_run_result_t *r = ctx;
    return exec_id >= 1 && exec_id <= r->exec_count ? r->exec_models[exec_id - 1] : 0;
}

NRT_STATUS ntsim_sim_outputs(const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                             ntsim_outputs_t *o)
{
    memset(o, 0, sizeof *o);
    /* Always NRT_SUCCESS; removed again below whatever happens. */
    (void)ntsim_json_set_model_lookup(model_of_exec, (void *)r);
    ntsim_ntff_options_t opt = {0, "ntsim-sim", 0, sc->seed, sc->cores};
    NRT_STATUS st;
    if ((st = ntsim_json_serialize(r->records, r->record_count, &o->json, &o->json_len)) !=
            NRT_SUCCESS ||
        (st = ntsim_ntff_serialize(r->records, r->record_count, NULL, 0, &opt, &o->ntff,
                                   &o->ntff_len)) != NRT_SUCCESS ||
        (st = ntsim_ntff_serialize(NULL, 0, r->infos, r->info_count, &opt, &o->notif,
                                   &o->notif_len)) != NRT_SUCCESS)
        ntsim_sim_outputs_free(o);
    (void)ntsim_json_set_model_lookup(NULL, NULL);
    return st;
}

void ntsim_sim_outputs_free(ntsim_outputs_t *o)
{
    nrt_sys_trace_buffer_free(o->json);
    ntsim_buffer_free(o->ntff);
    ntsim_buffer_free(o->notif);
    memset(o, 0, sizeof *o);
}

uint64_t ntsim_sim_digest(const void *data, size_t len)
{
    /* SipHash-1-3 under a fixed key: a regression pin, not a security
     * property (D-SCENARIO-DIGEST). */
    return ntsim__siphash13(UINT64_C(0x6e7473696d2d7631), UINT64_C(0x646967657374), data, len);
}
