/*
 * sim/run.c: one simulated run around the runtime paths of workload.c.
 *
 * The order of a run:
 *   1. hooks: the engine's clock reads the scheduler's `now`, its thread id
 *      the simulated thread running; start() with the scenario's config
 *   2. the workload's first events, then the periodic fetch (if any), are
 *      scheduled; the scheduler runs until nothing is left
 *   3. models are unloaded; the rings are drained one last time, or, with the
 *      stop_before_fetch fault, capture stops first and what the rings held
 *      is lost (and counted)
 *   4. the EXPLICIT trace_infos after the converted ones; the result: every
 *      counter and the recovered clock skews
 * The trace itself is handed to the caller's sink as it is drained (every
 * fetch, batch by batch) and the device's notifications as they are posted;
 * the run keeps none of it, so its memory does not grow with its length.
 * Nothing reads a real clock, so a scenario and its seed give the same bytes
 * on any machine.
 */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/* --- draining the rings ---------------------------------------------------------- */

enum { DRAIN_BATCH = 1024 };

/* One drained batch: counted, folded into the clock fit, handed on. */
static void take_batch(ntsim__sim_t *s, const nrt_sys_trace_event_t *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t t = (uint32_t)recs[i].trace_type;
        if (t < NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            s->per_type[t]++;
        if (recs[i].nc_idx < NTSIM_NC_COUNT)
            s->per_nc[recs[i].nc_idx]++;
    }
    s->record_count += n;
    ntsim_skew_add(s->sc, recs, n, s->skew);
    if (s->sink != NULL && s->sink->records != NULL && s->sink_status == NRT_SUCCESS)
        s->sink_status = s->sink->records(s->sink->ctx, recs, n);
}

void ntsim__sim_infos(ntsim__sim_t *s, const ntsim_trace_info_t *infos, size_t n)
{
    s->info_count += n;
    if (s->sink != NULL && s->sink->infos != NULL && s->sink_status == NRT_SUCCESS)
        s->sink_status = s->sink->infos(s->sink->ctx, infos, n);
}

/* A fetch: every NC's ring, batch by batch, then the executions no later
 * fetch can see are forgotten. */
static void drain_all(ntsim__sim_t *s)
{
    s->fetches++;
    for (uint32_t nc = 0; nc < s->sc->cores && !ntsim__sim_failed(s); nc++) {
        for (;;) {
            size_t n = 0;
            /* nc < cores <= 256 and the batch has room: drain cannot refuse. */
            (void)nrt_sys_trace_drain_events(nc, s->batch, DRAIN_BATCH, &n);
            take_batch(s, s->batch, n);
            if (n < DRAIN_BATCH || ntsim__sim_failed(s))
                break;
        }
    }
    ntsim__exec_forget_drained(s);
}

static void fetch_tick(ntsim_sched_t *sched, void *arg, uint64_t unused)
{
    (void)sched;
    (void)unused;
    ntsim__sim_t *s = arg;
    drain_all(s);
    if (s->sched.now + s->sc->fetch_interval_ns <= s->end_ns)
        ntsim__sim_at(s, s->sc->fetch_interval_ns, fetch_tick, s, 0);
}

/* --- the engine, on the virtual clock ---------------------------------------------- */

static uint64_t hook_now(void *ctx)
{
    return ((ntsim__sim_t *)ctx)->sched.now;
}

static uint64_t hook_tid(void *ctx)
{
    return ((ntsim__sim_t *)ctx)->tid;
}

static NRT_STATUS start_capture(ntsim__sim_t *s)
{
    const ntsim_scenario_t *sc = s->sc;
    ntsim_capture_hooks_t hooks = {hook_now, hook_tid, s};
    NRT_STATUS st = ntsim_capture_set_hooks(&hooks);
    if (st != NRT_SUCCESS)
        return st;
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    nrt_sys_trace_config_set_max_events_per_nc(&cfg, sc->max_events_per_nc);
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        cfg.capture_enabled_for_nc[nc] = nc < sc->cores && !sc->nc_disabled[nc];
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        cfg.capture_enabled_for_event_type[t] = !sc->type_disabled[t];
    st = nrt_sys_trace_start(&cfg);
    if (st != NRT_SUCCESS)
        (void)ntsim_capture_set_hooks(NULL); /* not capturing: cannot fail */
    return st;
}

/* Runs the scheduler to the end, in slices so that long runs report progress. */
static void run_scheduler(ntsim__sim_t *s, ntsim_progress_fn progress, void *ctx)
{
    const uint64_t slice = 1u << 20;
    while (s->sched.count > 0 && !ntsim__sim_failed(s)) {
        uint64_t before = s->sched.fired;
        while (s->sched.count > 0 && s->sched.fired - before < slice && !ntsim__sim_failed(s))
            ntsim_sched_run(&s->sched, s->sched.heap[0].time);
        if (progress != NULL)
            progress(s->sched.now - s->sc->host_start_ns, s->sc->duration_ns, s->emitted, ctx);
    }
}

/* Ends capture: the last drain (or the stop_before_fetch fault), the
 * engine's counters before and after stop, the hooks removed. */
static void finish_capture(ntsim__sim_t *s, ntsim_run_result_t *out)
{
    if (!ntsim__sim_failed(s)) {
        ntsim__workload_unload(s);
        if (s->stop_before_fetch) {
            /* The fault: capture stops before the final fetch; what the rings
             * still hold is dropped, and counted as lost_at_stop. */
            (void)nrt_sys_trace_stop(); /* capturing: cannot fail */
            s->stopped = true;
        } else {
            drain_all(s);
        }
    }
    if (!s->stopped)
        (void)nrt_sys_trace_stop(); /* capturing since start_capture */
    /* The stopped session's counters, lost_at_stop included (D-LIFECYCLE);
     * nc < 256 and a non-NULL out cannot be refused. */
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        (void)ntsim_capture_nc_stats(nc, &out->nc_stats[nc]);
    (void)ntsim_capture_set_hooks(NULL); /* stopped: cannot fail */
}

/* --- the result ------------------------------------------------------------------- */

/* The EXPLICIT trace_infos, one per TopSP, after every converted one. */
static NRT_STATUS emit_explicit(ntsim__sim_t *s)
{
    uint32_t cores = s->sc->cores;
    size_t count = 0;
    ntsim_trace_info_t *infos = calloc(cores, sizeof *infos);
    if (infos == NULL)
        return NRT_RESOURCE;
    NRT_STATUS st = ntsim_explicit_collect(s->explicit_notifs, infos, cores, &count);
    if (st == NRT_SUCCESS && count > 0)
        ntsim__sim_infos(s, infos, count);
    free(infos);
    return st;
}

/* The run's counters into the result. */
static void collect_counts(ntsim__sim_t *s, ntsim_run_result_t *out)
{
    out->record_count = s->record_count;
    out->info_count = s->info_count;
    memcpy(out->per_type, s->per_type, sizeof out->per_type);
    memcpy(out->per_nc, s->per_nc, sizeof out->per_nc);
    out->events_emitted = s->emitted;
    out->notifications_posted = s->posted;
    memcpy(out->posted_tpb, s->posted_tpb, sizeof out->posted_tpb);
    memcpy(out->posted_topsp, s->posted_topsp, sizeof out->posted_topsp);
    out->executes = s->executes;
    out->fetches = s->fetches;
    out->simulated_ns = s->sched.now - s->sc->host_start_ns;
    out->model_lookup_misses = s->exec_lookup_misses;
    out->exec_table_peak = s->exec_table_peak;
    (void)ntsim_notify_stats(&out->notify); /* non-NULL: cannot fail */
    ntsim_skew_solve(s->skew, out->skew);
}

NRT_STATUS ntsim_sim_run(const ntsim_scenario_t *sc, const ntsim_sim_sink_t *sink,
                         ntsim_progress_fn progress, void *ctx, ntsim_run_result_t *out)
{
    memset(out, 0, sizeof *out);
    if (ntsim_capture_is_capturing())
        return NRT_FAILURE;
    NRT_STATUS st = NRT_RESOURCE;
    ntsim__sim_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return st;
    s->sc = sc;
    s->sink = sink;
    s->end_ns = sc->host_start_ns + sc->duration_ns;
    ntsim_sched_init(&s->sched, sc->host_start_ns);
    if ((s->batch = malloc(DRAIN_BATCH * sizeof *s->batch)) == NULL ||
        (st = ntsim_explicit_create(sc->cores, &s->explicit_notifs)) != NRT_SUCCESS)
        goto free_sim;
    ntsim_notify_reset_stats();
    /* The exporters ask the run for models while the sink serializes, and
     * map its NCs to worker ids (F2.fetch.gid_map: the visible logical NCs'
     * instance-wide ids, -1 past them). Both always NRT_SUCCESS: cores <= 256. */
    (void)ntsim_json_set_model_lookup(ntsim__exec_model, s);
    int32_t gid[NTSIM_NC_COUNT];
    for (uint32_t v = 0; v < sc->cores; v++)
        gid[v] = (int32_t)sc->vnc_gid[v];
    (void)ntsim_json_set_gid_map(gid, sc->cores);
    if ((st = start_capture(s)) != NRT_SUCCESS)
        goto free_lookup;

    ntsim__workload_start(s);
    for (uint32_t f = 0; f < sc->fault_count; f++)
        if (sc->faults[f].kind == NTSIM_FAULT_STOP_BEFORE_FETCH)
            s->stop_before_fetch = true;
    if (sc->fetch_interval_ns > 0)
        ntsim__sim_at(s, sc->fetch_interval_ns, fetch_tick, s, 0);
    run_scheduler(s, progress, ctx);
    finish_capture(s, out);

    if (!ntsim__sim_failed(s) && (st = emit_explicit(s)) != NRT_SUCCESS)
        s->oom = true;
    st = s->oom ? NRT_RESOURCE : s->sink_status;
    collect_counts(s, out);
free_lookup:
    (void)ntsim_json_set_model_lookup(NULL, NULL);
    (void)ntsim_json_set_gid_map(NULL, 0); /* the default again */
free_sim:
    ntsim_sched_free(&s->sched);
    ntsim_explicit_free(s->explicit_notifs);
    free(s->batch);
    free(s->exec_models);
    free(s);
    return st;
}
