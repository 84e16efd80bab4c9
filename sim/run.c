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
 *   4. the result: the drained records, the converted notifications followed
 *      by the EXPLICIT ones, every counter, the recovered clock skews
 * Nothing reads a real clock, so a scenario and its seed give the same bytes
 * on any machine.
 */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/* --- draining the rings ---------------------------------------------------------- */

enum { DRAIN_BATCH = 1024 };

static void drain_all(ntsim__sim_t *s)
{
    s->fetches++;
    for (uint32_t nc = 0; nc < s->sc->cores; nc++) {
        for (;;) {
            if (s->record_count + DRAIN_BATCH > s->record_cap) {
                size_t cap = s->record_cap ? s->record_cap * 2 : 8192;
                nrt_sys_trace_event_t *r = realloc(s->records, cap * sizeof *r);
                if (r == NULL) {
                    s->oom = true;
                    return;
                }
                s->records = r;
                s->record_cap = cap;
            }
            size_t n = 0;
            /* nc < cores <= 256 and the buffer has room: drain cannot refuse. */
            if (nrt_sys_trace_drain_events(nc, s->records + s->record_count, DRAIN_BATCH, &n) !=
                NRT_SUCCESS) {
                s->oom = true;
                return;
            }
            s->record_count += n;
            if (n < DRAIN_BATCH)
                break;
        }
    }
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
    while (s->sched.count > 0 && !s->oom) {
        uint64_t before = s->sched.fired;
        while (s->sched.count > 0 && s->sched.fired - before < slice && !s->oom)
            ntsim_sched_run(&s->sched, s->sched.heap[0].time);
        if (progress != NULL)
            progress(s->sched.now - s->sc->host_start_ns, s->sc->duration_ns, s->emitted, ctx);
    }
}

/* Ends capture: the last drain (or the stop_before_fetch fault), the
 * engine's counters before and after stop, the hooks removed. */
static void finish_capture(ntsim__sim_t *s, ntsim_run_result_t *out)
{
    if (!s->oom) {
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

/* The converted notifications, then one EXPLICIT trace_info per TopSP, all
 * with payloads in one buffer the result owns. */
static NRT_STATUS collect_infos(ntsim__sim_t *s, ntsim_run_result_t *out)
{
    uint32_t cores = s->sc->cores;
    size_t explicit_count = 0;
    ntsim_trace_info_t *explicit_infos = calloc(cores, sizeof *explicit_infos);
    NRT_STATUS st = NRT_RESOURCE;
    if (explicit_infos == NULL)
        return st;
    if ((st = ntsim_explicit_collect(s->explicit_notifs, explicit_infos, cores,
                                     &explicit_count)) != NRT_SUCCESS)
        goto free_explicit;
    size_t total = s->info_count + explicit_count;
    size_t explicit_bytes = 0;
    for (size_t i = 0; i < explicit_count; i++)
        explicit_bytes += explicit_infos[i].payload_len;
    st = NRT_RESOURCE;
    if ((out->infos = calloc(total ? total : 1, sizeof *out->infos)) == NULL ||
        (out->info_bytes = malloc(s->payload_len + explicit_bytes + 1)) == NULL)
        goto free_explicit;
    if (s->payload_len > 0)
        memcpy(out->info_bytes, s->payload, s->payload_len);
    for (size_t i = 0; i < s->info_count; i++) {
        out->infos[i] = s->infos[i];
        out->infos[i].payload = out->info_bytes + s->info_offsets[i];
    }
    size_t off = s->payload_len;
    for (size_t i = 0; i < explicit_count; i++) {
        out->infos[s->info_count + i] = explicit_infos[i];
        if (explicit_infos[i].payload_len > 0)
            memcpy(out->info_bytes + off, explicit_infos[i].payload,
                   explicit_infos[i].payload_len);
        out->infos[s->info_count + i].payload = out->info_bytes + off;
        off += explicit_infos[i].payload_len;
    }
    out->info_count = total;
    st = NRT_SUCCESS;
free_explicit:
    free(explicit_infos);
    return st;
}

/* Moves the trace into the result and counts it. */
static void collect_records(ntsim__sim_t *s, ntsim_run_result_t *out)
{
    out->records = s->records;
    out->record_count = s->record_count;
    s->records = NULL;
    for (size_t i = 0; i < out->record_count; i++) {
        uint32_t t = (uint32_t)out->records[i].trace_type;
        if (t < NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            out->per_type[t]++;
        if (out->records[i].nc_idx < NTSIM_NC_COUNT)
            out->per_nc[out->records[i].nc_idx]++;
    }
    out->exec_models = s->exec_models;
    out->exec_count = s->next_exec;
    s->exec_models = NULL;
    out->events_emitted = s->emitted;
    out->notifications_posted = s->posted;
    out->executes = s->executes;
    out->fetches = s->fetches;
    out->simulated_ns = s->sched.now - s->sc->host_start_ns;
    (void)ntsim_notify_stats(&out->notify); /* non-NULL: cannot fail */
    ntsim_skew_fit(s->sc, out->records, out->record_count, out->skew);
}

void ntsim_run_result_free(ntsim_run_result_t *r)
{
    free(r->records);
    free(r->exec_models);
    free(r->infos);
    free(r->info_bytes);
    memset(r, 0, sizeof *r);
}

NRT_STATUS ntsim_sim_run(const ntsim_scenario_t *sc, ntsim_progress_fn progress, void *ctx,
                         ntsim_run_result_t *out)
{
    memset(out, 0, sizeof *out);
    if (ntsim_capture_is_capturing())
        return NRT_FAILURE;
    NRT_STATUS st = NRT_RESOURCE;
    ntsim__sim_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return st;
    s->sc = sc;
    s->rng = sc->seed ? sc->seed : UINT64_C(0x9E3779B97F4A7C15);
    s->end_ns = sc->host_start_ns + sc->duration_ns;
    ntsim_sched_init(&s->sched, sc->host_start_ns);
    if ((st = ntsim_explicit_create(sc->cores, &s->explicit_notifs)) != NRT_SUCCESS)
        goto free_sim;
    ntsim_notify_reset_stats();
    if ((st = start_capture(s)) != NRT_SUCCESS)
        goto free_sim;

    ntsim__workload_start(s);
    for (uint32_t f = 0; f < sc->fault_count; f++)
        if (sc->faults[f].kind == NTSIM_FAULT_STOP_BEFORE_FETCH)
            s->stop_before_fetch = true;
    if (sc->fetch_interval_ns > 0)
        ntsim__sim_at(s, sc->fetch_interval_ns, fetch_tick, s, 0);
    run_scheduler(s, progress, ctx);
    finish_capture(s, out);

    if (s->oom)
        st = NRT_RESOURCE;
    else if ((st = collect_infos(s, out)) == NRT_SUCCESS)
        collect_records(s, out);
    if (st != NRT_SUCCESS)
        ntsim_run_result_free(out); /* nothing half-built is returned */
free_sim:
    ntsim_sched_free(&s->sched);
    ntsim_explicit_free(s->explicit_notifs);
    free(s->records);
    free(s->exec_models);
    free(s->infos);
    free(s->info_offsets);
    free(s->payload);
    free(s);
    return st;
}
