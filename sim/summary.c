/*
 * sim/summary.c: what `ntsim run` writes and prints.
 *
 * Files: DIR/trace.json (the fetch document of every drained record, byte
 * for byte what nrt_sys_trace_fetch_events returns for them),
 * DIR/trace.ntff (an ntrace_info of the same records) and
 * DIR/notifications.ntff (an ntrace_info whose collected_profiles are the
 * converted notifications, then the EXPLICIT ones).
 */
#define _GNU_SOURCE /* mkdir's mode macros with _POSIX_C_SOURCE */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "event_table.h"
#include "intern.h"

/* Creates dir and its parents; 0 or -1 with errno. */
static int mkdir_p(const char *dir)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

static int write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    size_t n = fwrite(data, 1, len, f);
    int saved = errno;
    int rc = fclose(f);
    if (n != len) {
        errno = saved;
        return -1;
    }
    return rc;
}

int ntsim_cli_load_scenario(const char *path, ntsim_scenario_t *sc, FILE *err)
{
    if (path == NULL) {
        ntsim_scenario_default(sc);
        return NTSIM_EXIT_OK;
    }
    char errors[8192];
    NRT_STATUS st = ntsim_scenario_load(path, sc, errors, sizeof errors);
    if (st != NRT_SUCCESS) {
        fprintf(err, "%s", errors);
        fprintf(err, "ntsim: %s: not a valid scenario\n", path);
        return NTSIM_EXIT_INPUT;
    }
    return NTSIM_EXIT_OK;
}

uint64_t ntsim_digest(const void *data, size_t len)
{
    /* SipHash-1-3 under a fixed key: a regression pin, not a security
     * property (D-SCENARIO-DIGEST). */
    return ntsim__siphash13(UINT64_C(0x6e7473696d2d7631), UINT64_C(0x646967657374), data, len);
}

NRT_STATUS ntsim_cli_outputs(const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                             ntsim_outputs_t *o)
{
    memset(o, 0, sizeof *o);
    NRT_STATUS st = ntsim_json_serialize(r->records, r->record_count, &o->json, &o->json_len);
    if (st != NRT_SUCCESS)
        return st;
    ntsim_ntff_options_t opt = {0, "ntsim-sim", 0, sc->seed, sc->cores};
    if ((st = ntsim_ntff_serialize(r->records, r->record_count, NULL, 0, &opt, &o->ntff,
                                   &o->ntff_len)) != NRT_SUCCESS ||
        (st = ntsim_ntff_serialize(NULL, 0, r->infos, r->info_count, &opt, &o->notif,
                                   &o->notif_len)) != NRT_SUCCESS) {
        ntsim_cli_outputs_free(o);
        return st;
    }
    return NRT_SUCCESS;
}

void ntsim_cli_outputs_free(ntsim_outputs_t *o)
{
    nrt_sys_trace_buffer_free(o->json);
    ntsim_buffer_free(o->ntff);
    ntsim_buffer_free(o->notif);
    memset(o, 0, sizeof *o);
}

int ntsim_cli_write_outputs(const char *dir, const ntsim_outputs_t *o, FILE *err)
{
    if (mkdir_p(dir) != 0) {
        fprintf(err, "ntsim: %s: cannot create the output directory: %s\n", dir,
                strerror(errno));
        return -1;
    }
    const struct {
        const char *name;
        const void *data;
        size_t len;
    } files[] = {
        {"trace.json", o->json, o->json_len},
        {"trace.ntff", o->ntff, o->ntff_len},
        {"notifications.ntff", o->notif, o->notif_len},
    };
    for (size_t i = 0; i < 3; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        if (write_bytes(path, files[i].data, files[i].len) != 0) {
            fprintf(err, "ntsim: %s: cannot write: %s\n", path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

void ntsim_cli_summary(FILE *out, const ntsim_scenario_t *sc, const ntsim_run_result_t *r,
                       const ntsim_outputs_t *o, const char *dir)
{
    fprintf(out, "ntsim run: scenario %s from %s, seed %llu, %u NCs, %.3f ms simulated\n",
            sc->name, sc->path, (unsigned long long)sc->seed, sc->cores,
            (double)r->simulated_ns / 1e6);
    uint64_t captured = 0, overwritten = 0, lost = 0, busy = 0;
    for (uint32_t nc = 0; nc < NTSIM_NC_COUNT; nc++) {
        captured += r->nc_stats[nc].pushed;
        overwritten += r->nc_stats[nc].overwritten;
        lost += r->nc_stats[nc].lost_at_stop;
        busy += r->nc_stats[nc].busy;
    }
    fprintf(out, "  executes %llu, events emitted %llu, captured %llu, in the trace %zu, "
                 "overwritten %llu, lost at stop %llu, refused busy %llu, fetches %llu\n",
            (unsigned long long)r->executes, (unsigned long long)r->events_emitted,
            (unsigned long long)captured, r->record_count, (unsigned long long)overwritten,
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

    fprintf(out, "\nhost/device clock skew recovered from sync_info (configured -> recovered)\n");
    for (uint32_t nc = 0; nc < sc->cores; nc++) {
        const ntsim_skew_t *k = &r->skew[nc];
        if (k->samples == 0) {
            fprintf(out, "  nc %-4u no sync_info in the trace\n", nc);
            continue;
        }
        fprintf(out, "  nc %-4u offset %lld ns -> %.1f ns, drift %lld ppm -> %.3f ppm "
                     "(%llu samples)\n",
                nc, (long long)sc->clock_offset_ns[nc], k->offset_ns,
                (long long)sc->clock_drift_ppm[nc], k->drift_ppm,
                (unsigned long long)k->samples);
    }
    if (o != NULL && dir != NULL)
        fprintf(out, "\nwrote %s/trace.json (%zu bytes), %s/trace.ntff (%zu bytes), "
                     "%s/notifications.ntff (%zu bytes)\n",
                dir, o->json_len, dir, o->ntff_len, dir, o->notif_len);
}
