/*
 * sim/cmd_vectors.c: `ntsim record` and `ntsim replay`.
 *
 * record runs a scenario and writes a `scenario` vector: every count the
 * summary shows, digests of the three output files, and the first and last
 * records in full. Counts are what a reviewer checks by hand against the
 * scenario before committing the vector; digests pin the bytes.
 *
 * replay loads vector files of any kind with the conformance loader and runs
 * each vector with its kind's runner, printing one line per vector and, for
 * each failure, its report and a command that reproduces it alone.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "event_table.h"
#include "kinds.h"

static const char *const usage_record =
    "usage: ntsim record SCENARIO -o FILE.yaml [--id ID]\n"
    "\n"
    "Runs SCENARIO and writes a scenario vector to FILE.yaml: the run's counts (per type,\n"
    "per NC, notifications), digests of trace.json, trace.ntff and notifications.ntff, and\n"
    "the first and last records. Check the counts against the scenario before committing.\n"
    "\n"
    "  -o, --output FILE   the vector file to write (required)\n"
    "  --id ID             the vector id (default: scenario.<scenario name>)\n";

static const char *const usage_replay =
    "usage: ntsim replay VECTOR... [--id ID] [--quiet]\n"
    "\n"
    "Replays every vector of the given YAML files (any kind: layout, enum, event_type,\n"
    "record, json, ntff, notify, scenario) and reports each as PASS or FAIL; a failure\n"
    "shows what differs and a command that replays it alone. Last line:\n"
    "'replay: N passed, N failed'. Exit 0 when all pass, 1 when any fails, 3 when a\n"
    "file cannot be loaded (file:line:col: field: message).\n"
    "\n"
    "  --id ID      only the vector with this id\n"
    "  -q, --quiet  print failures and the summary only\n";

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
    if (ntsim_cli_outputs(sc, r, &o) != NRT_SUCCESS || (f = fopen(out_path, "w")) == NULL) {
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
            ntsim_digest(o.json, o.json_len), ntsim_digest(o.ntff, o.ntff_len),
            ntsim_digest(o.notif, o.notif_len));
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
    ntsim_cli_outputs_free(&o);
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

int ntsim_cmd_replay(int argc, char **argv)
{
    const char *only = NULL;
    bool quiet = false;
    static const struct option opts[] = {{"id", required_argument, NULL, 'i'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case 'i': only = optarg; break;
        case 'q': quiet = true; break;
        case 'h': fputs(usage_replay, stdout); return NTSIM_EXIT_OK;
        default: fputs(usage_replay, stderr); return NTSIM_EXIT_USAGE;
        }
    }
    if (optind == argc) {
        fputs(usage_replay, stderr);
        return NTSIM_EXIT_USAGE;
    }
    ntsim_vector_set_t set;
    ntsim_vector_set_init(&set);
    for (int i = optind; i < argc; i++)
        if (ntsim_vector_set_load_file(&set, argv[i]) == NRT_RESOURCE)
            break;
    for (size_t e = 0; e < set.error_count; e++)
        fprintf(stderr, "%s\n", set.errors[e]);
    unsigned long passed = 0, failed = 0;
    for (size_t i = 0; i < set.count; i++) {
        const ntsim_vector_t *v = &set.vectors[i];
        if (only != NULL && strcmp(v->id, only) != 0)
            continue;
        ntsim_report_t r;
        ntsim_report_init(&r);
        v->kind->run(v, &r);
        if (r.mismatches == 0) {
            passed++;
            if (!quiet)
                printf("PASS %s\n", v->id);
        } else {
            failed++;
            printf("FAIL %s (%s:%u): %u mismatch%s\n%s  repro: ntsim replay %s --id %s\n", v->id,
                   v->file, v->line, r.mismatches, r.mismatches == 1 ? "" : "es",
                   r.text ? r.text : "", v->file, v->id);
        }
        ntsim_report_free(&r);
    }
    if (only != NULL && passed + failed == 0 && set.error_count == 0) {
        fprintf(stderr, "ntsim replay: no vector has the id '%s'\n", only);
        ntsim_vector_set_free(&set);
        return NTSIM_EXIT_INPUT;
    }
    printf("replay: %lu passed, %lu failed\n", passed, failed);
    int rc = set.error_count > 0 ? NTSIM_EXIT_INPUT : failed > 0 ? NTSIM_EXIT_FAIL : NTSIM_EXIT_OK;
    ntsim_vector_set_free(&set);
    ntsim_capture_shutdown();
    return rc;
}
