/*
 * conformance/cmd/summary.c: the summary `ntsim run` prints: counts per
 * type and per NC, what was lost and why, notifications, clock skew.
 */
#include <stdio.h>

#include "cli.h"
#include "event_table.h"

/* Each physical core's clock, configured and recovered from the trace's
 * sync pairs; past 16 cores, the worst errors instead of a line each. */
static void print_skew(FILE *out, const ntsim_scenario_t *sc, const ntsim_run_result_t *r)
{
    uint32_t lines = sc->cores * sc->lnc;
    double worst_off = 0, worst_ppm = 0;
    uint64_t fewest = UINT64_MAX;
    fprintf(out, "\nhost/device clock skew recovered from sync_info, per physical core "
                 "(configured -> recovered)\n");
    for (uint32_t v = 0; v < sc->cores; v++) {
        for (uint32_t j = 0; j < sc->lnc; j++) {
            uint32_t core = ntsim_phys_core(sc, v, j);
            /* Its clock: the logical NC's first core's (D-LNC). */
            uint32_t clk = sc->lnc > 1 ? core - core % sc->lnc : core;
            const ntsim_skew_t *k = &r->skew[core];
            double eo = k->offset_ns - (double)sc->clock_offset_ns[clk];
            double ep = k->drift_ppm - (double)sc->clock_drift_ppm[clk];
            fewest = k->samples < fewest ? k->samples : fewest;
            if (k->samples > 0 && (eo < 0 ? -eo : eo) > worst_off)
                worst_off = eo < 0 ? -eo : eo;
            if (k->samples > 0 && (ep < 0 ? -ep : ep) > worst_ppm)
                worst_ppm = ep < 0 ? -ep : ep;
            if (lines > 16)
                continue;
            if (k->samples == 0) {
                fprintf(out, "  core %-4u (nc %u) no sync_info in the trace\n", core, v);
                continue;
            }
            fprintf(out, "  core %-4u (nc %u) offset %lld ns -> %.1f ns, drift %lld ppm -> "
                         "%.3f ppm (%llu samples)\n",
                    core, v, (long long)sc->clock_offset_ns[clk], k->offset_ns,
                    (long long)sc->clock_drift_ppm[clk], k->drift_ppm,
                    (unsigned long long)k->samples);
        }
    }
    if (lines > 16)
        fprintf(out, "  %u physical cores: recovered within %.1f ns and %.3f ppm of the configured "
                     "clocks; at least %llu samples each\n",
                lines, worst_off, worst_ppm, (unsigned long long)fewest);
}

void ntsim_cli_summary(FILE *out, const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                       const ntsim_outputs_t *o, const char *dir, const ntsim_cli_run_log_t *log)
{
    fprintf(out, "ntsim run: scenario %s from %s, seed %llu, %u NCs, %.3f ms simulated\n",
            sc->name, sc->path, (unsigned long long)sc->seed, sc->cores,
            (double)r->simulated_ns / 1e6);
    fprintf(out, "  instance: %s, %u device%s x %u physical cores, LNC %u: %u of %u logical NCs "
                 "visible\n",
            sc->arch[0] ? sc->arch : "ntsim-sim", sc->devices, sc->devices == 1 ? "" : "s",
            sc->cores_per_device, sc->lnc, sc->cores,
            sc->devices * sc->cores_per_device / sc->lnc);
    uint64_t captured = 0, overwritten = 0, lost = 0, busy = 0;
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++) {
        captured += r->nc_stats[nc].pushed;
        overwritten += r->nc_stats[nc].overwritten;
        lost += r->nc_stats[nc].lost_at_stop;
        busy += r->nc_stats[nc].busy;
    }
    fprintf(out, "  executes %llu, events emitted %llu, captured %llu, in the trace %llu, "
                 "overwritten %llu, lost at stop %llu, refused busy %llu, fetches %llu\n",
            (unsigned long long)r->executes, (unsigned long long)r->events_emitted,
            (unsigned long long)captured, (unsigned long long)r->record_count,
            (unsigned long long)overwritten,
            (unsigned long long)lost, (unsigned long long)busy, (unsigned long long)r->fetches);

    fprintf(out, "\nevents per type (in the trace)\n");
    unsigned types_seen = 0;
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        if (r->per_type[t] == 0)
            continue;
        types_seen++;
        fprintf(out, "  %2u %-34s %-40s %8llu\n", t, ntsim__event_types[t].enum_name + 25,
                ntsim__event_types[t].json_name, (unsigned long long)r->per_type[t]);
    }
    fprintf(out, "  %u of %d event types present\n", types_seen, NRT_SYS_TRACE_EVENT_TYPE_COUNT);

    fprintf(out, "\nper NC      capacity   created    pushed  overwritten   drained  lost_at_stop"
                 "  busy  overwrites (first .. last, host ns)\n");
    for (uint32_t nc = 0; nc < sc->cores; nc++) {
        const ntsim_nc_stats_t *s = &r->nc_stats[nc];
        fprintf(out, "  nc %-4u %10llu %9llu %9llu %12llu %9llu %13llu %5llu", nc,
                (unsigned long long)s->capacity, (unsigned long long)s->created,
                (unsigned long long)s->pushed, (unsigned long long)s->overwritten,
                (unsigned long long)s->drained, (unsigned long long)s->lost_at_stop,
                (unsigned long long)s->busy);
        if (s->overwritten > 0)
            fprintf(out, "  %llu .. %llu", (unsigned long long)s->first_overwrite_ns,
                    (unsigned long long)s->last_overwrite_ns);
        fprintf(out, "\n");
    }

    const ntsim_notify_stats_t *n = &r->notify;
    fprintf(out, "\nnotifications: posted %llu, converted %llu, dropped %llu "
                 "(TOPSP_CC_STATUS %llu, MAX %llu, out of range %llu), EXPLICIT trace_infos %llu\n",
            (unsigned long long)r->notifications_posted, (unsigned long long)n->converted,
            (unsigned long long)n->dropped, (unsigned long long)n->dropped_cc_status,
            (unsigned long long)n->dropped_max, (unsigned long long)n->dropped_out_of_range,
            (unsigned long long)n->explicit_infos);
    if (n->dropped > 0)
        fprintf(out, "  Unexpected notification type! Dropping: %llu notifications dropped, each "
                     "logged as \"Invalid notification type: N\"\n",
                (unsigned long long)n->dropped);
    if (log != NULL)
        ntsim_cli_run_log_summary(out, log);

    print_skew(out, sc, r);
    if (o != NULL && dir != NULL)
        fprintf(out, "\nwrote %s/trace.json (%llu bytes), %s/trace.ntff (%llu bytes), "
                     "%s/notifications.ntff (%llu bytes)\n",
                dir, (unsigned long long)o->json_len, dir, (unsigned long long)o->ntff_len, dir,
                (unsigned long long)o->notif_len);
}
