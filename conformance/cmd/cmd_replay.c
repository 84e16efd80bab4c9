/*
 * conformance/cmd/cmd_replay.c: `ntsim replay` — load vector files of any
 * kind with the conformance loader and run each vector with its kind's
 * runner, printing one line per vector and, for each failure, the same
 * failure block as `make check` (report.h) with a command that reproduces it
 * alone.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "kinds.h"
#include "output.h"
#include "testee_engine.h"

static const char *const usage_replay =
    "usage: ntsim replay VECTOR... [--id ID] [--quiet]\n"
    "\n"
    "Replays every vector of the given YAML files (any kind: layout, enum, event_type,\n"
    "record, json, ntff, notify, scenario, decode, api) and reports each as PASS or\n"
    "FAIL; a failure shows what differs and a command that replays it alone. Last\n"
    "line: 'replay: N passed, N failed'. Exit 0 when all pass, 1 when any fails, 3\n"
    "when a file cannot be loaded (file:line:col: field: message).\n"
    "\n"
    "  --id ID               only the vector with this id\n"
    "  -q, --quiet           print failures and the summary only\n"
    "  --max-input-bytes N   the largest vector file read (default 16M; K, M, G suffixes)\n"
    "  --proto DIR           the directory of ntff.proto, for the ntff vectors (default: the\n"
    "                        NTFF schema ntsim ships, found from where ntsim is)\n"
    NTSIM_CLI_MAX_EVENTS_USAGE;

/* The ntff vectors read their bytes with protoc against ntsim's own NTFF
 * schema: when one is replayed and the schema cannot be read, that is
 * ntsim's error (exit 2, the file and --proto named), never the vector's
 * (D-DATA-LOCATE). */
static int need_schema(const ntsim_vector_set_t *set, const char *proto_dir)
{
    bool ntff = false;
    for (size_t i = 0; i < set->count && !ntff; i++)
        ntff = set->vectors[i].kind == &ntsim_kind_ntff;
    if (!ntff)
        return NTSIM_EXIT_OK;
    char *path = NULL, why[512];
    if (proto_dir != NULL) {
        size_t n = strlen(proto_dir) + sizeof "/ntff.proto";
        if ((path = malloc(n)) == NULL) {
            fprintf(stderr, "ntsim replay: out of memory\n");
            return NTSIM_EXIT_FAIL;
        }
        snprintf(path, n, "%s/ntff.proto", proto_dir);
        ntsim_check_ntff_proto = path;
    }
    NRT_STATUS st = ntsim_ntff_schema_freeze(why, sizeof why);
    ntsim_check_ntff_proto = NULL; /* frozen: the text is in memory */
    free(path);
    if (st == NRT_SUCCESS)
        return NTSIM_EXIT_OK;
    fprintf(stderr, "ntsim replay: %s (the NTFF schema, ntsim's own data; --proto DIR reads "
                    "DIR/ntff.proto): nothing was replayed\n", why);
    return NTSIM_EXIT_USAGE;
}

int ntsim_cmd_replay(int argc, char **argv)
{
    const char *only = NULL, *proto_dir = NULL;
    bool quiet = false;
    uint64_t max_bytes;
    static const struct option opts[] = {{"id", required_argument, NULL, 'i'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"max-input-bytes", required_argument, NULL, 'b'},
                                         {"max-events", required_argument, NULL, 'E'},
                                         {"proto", required_argument, NULL, 'p'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
        switch (c) {
        case 'i': only = optarg; break;
        case 'q': quiet = true; break;
        case 'b':
            if (!ntsim_cli_parse_size(optarg, &max_bytes) || max_bytes > SIZE_MAX)
                return ntsim_cli_usage_error("replay", "--max-input-bytes: '%s' is not a size",
                                             optarg);
            ntsim_input_set_limit_all((size_t)max_bytes);
            break;
        case 'E':
            if (!ntsim_cli_set_scenario_budget("replay", optarg))
                return NTSIM_EXIT_USAGE;
            break;
        case 'p': proto_dir = optarg; break;
        case 'h': fputs(usage_replay, stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option("replay", c, argv, opts);
        }
    }
    if (optind == argc)
        return ntsim_cli_usage_error("replay", "which VECTOR files?");
    ntsim_vector_set_t set;
    ntsim_vector_set_init(&set);
    for (int i = optind; i < argc; i++)
        if (ntsim_vector_set_load_file(&set, argv[i]) == NRT_RESOURCE) {
            /* counted as a load error below: the run cannot pass */
            (void)ntsim_errors_add(&set.errors, "%s: out of memory: files after it not read",
                                   argv[i]);
            break;
        }
    for (size_t e = 0; e < set.errors.count; e++)
        fprintf(stderr, "%s\n", set.errors.items[e]);
    int rc = need_schema(&set, proto_dir);
    if (rc != NTSIM_EXIT_OK) {
        ntsim_vector_set_free(&set);
        return rc;
    }
    unsigned long passed = 0, failed = 0;
    for (size_t i = 0; i < set.count; i++) {
        const ntsim_vector_t *v = &set.vectors[i];
        if (only != NULL && strcmp(v->id, only) != 0)
            continue;
        ntsim_report_t r;
        ntsim_report_init(&r);
        ntsim_vector_run(v, ntsim_testee_builtin(), &r);
        if (r.mismatches == 0) {
            passed++;
            if (!quiet)
                printf("PASS %s\n", v->id);
        } else {
            failed++;
            char block[8192];
            char *file = ntsim_output_shell_word(v->file, false);
            char *id = ntsim_output_shell_word(v->id, false);
            size_t n = (file ? strlen(file) : 0) + (id ? strlen(id) : 0) + 32;
            char *repro = file != NULL && id != NULL ? malloc(n) : NULL;
            if (repro != NULL) /* every word whole: a long path replays as it ran */
                snprintf(repro, n, "ntsim replay %s --id %s", file, id);
            printf("FAIL %s\n", ntsim_report_failure(block, sizeof block, v->id, v->file, v->line,
                                                      &r, repro ? repro : "(out of memory)"));
            free(repro);
            free(file);
            free(id);
        }
        ntsim_report_free(&r);
    }
    if (only != NULL && passed + failed == 0 && set.errors.count == 0) {
        fprintf(stderr, "ntsim replay: no vector has the id '%s'\n", only);
        ntsim_vector_set_free(&set);
        return NTSIM_EXIT_INPUT;
    }
    printf("replay: %lu passed, %lu failed\n", passed, failed);
    rc = set.errors.count > 0 ? NTSIM_EXIT_INPUT : failed > 0 ? NTSIM_EXIT_FAIL : NTSIM_EXIT_OK;
    ntsim_vector_set_free(&set);
    ntsim_capture_shutdown();
    return rc; /* main() closes stdout: a report that did not reach it fails (D-OUTPUT) */
}
