/*
 * conformance/cmd/cmd_stats.c: `ntsim stats TRACE [--json] [--top N]` —
 * what a trace says at a glance (D-STATS): per event type its events, spans
 * and span durations, the slowest spans, per NC its events, lost events and
 * busy time. The analysis is the engine's (ntsim/analyze.h), over the read
 * stage's scan (any trace it reads, its records never held); this file
 * parses the options and writes the report to stdout.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ntsim/analyze.h"

static const char *const usage_stats =
    "usage: ntsim stats TRACE [--json] [--top N] [--max-events N] [--max-input-bytes N]\n"
    "\n"
    "What TRACE says at a glance. TRACE is any trace ntsim reads (a JSON fetch document,\n"
    "an NTFF file or a record dump, told apart by content). Per event type: its events,\n"
    "its spans (START and STOP paired as the timelines pair them: same type, NC and\n"
    "tracking_id, a STOP closing the innermost open START), the STARTs and STOPs left\n"
    "unpaired, and the spans' durations (STOP - START of timestamp_ns; min, p50, p90,\n"
    "p99, max, total; percentiles by nearest rank, exact). Then the slowest spans, and\n"
    "per NC its events, the events lost (nc_local_ids missing) and its busy time (the\n"
    "union of its nc_exec_running spans). The trace is read once, a batch at a time.\n"
    "\n"
    "  --json               one JSON document instead of tables (its schema:\n"
    "                       docs/stats.schema.json)\n"
    "  --top N              how many of the slowest spans (default 10; 0: none)\n"
    NTSIM_CLI_CONVERT_LIMITS_USAGE
    "\n"
    "Exit: 0, 1 when stdout cannot be written or memory runs out, 2 bad usage, 3 a\n"
    "TRACE that is not one (FILE: where: what).\n";

int ntsim_cmd_stats(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'},
                                         {"top", required_argument, NULL, 't'},
                                         {"max-events", required_argument, NULL, 'e'},
                                         {"max-input-bytes", required_argument, NULL, 'b'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    ntsim_read_limits_t limits = {NTSIM_READ_MAX_BYTES, NTSIM_READ_MAX_EVENTS};
    uint64_t top = 10;
    bool json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 't':
            if (!ntsim_cli_parse_size(optarg, &top) || top > NTSIM_STATS_TOP_MAX)
                return ntsim_cli_usage_error("stats", "--top: '%s' is not a count up to %d",
                                             optarg, NTSIM_STATS_TOP_MAX);
            break;
        case 'e':
            if (!ntsim_cli_parse_size(optarg, &limits.max_events))
                return ntsim_cli_usage_error("stats", "--max-events: '%s' is not a count",
                                             optarg);
            break;
        case 'b':
            if (!ntsim_cli_parse_size(optarg, &limits.max_bytes))
                return ntsim_cli_usage_error("stats", "--max-input-bytes: '%s' is not a size",
                                             optarg);
            break;
        case 'h': fputs(usage_stats, stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option("stats", c, argv, opts);
        }
    }
    if (argc - optind != 1)
        return ntsim_cli_usage_error("stats", argc == optind ? "which TRACE?"
                                                             : "one TRACE at a time");
    const char *path = argv[optind];
    char err[1024] = "";
    ntsim_stats_report_t *r = NULL;
    NRT_STATUS st = ntsim_stats_file(path, &limits, (size_t)top, &r, err, sizeof err);
    if (st != NRT_SUCCESS) {
        fprintf(stderr, "%s\n", err);
        if (st == NRT_INVALID)
            ntsim_cli_timeline_hint("stats", path);
        return st == NRT_INVALID ? NTSIM_EXIT_INPUT : NTSIM_EXIT_FAIL;
    }
    if (!json)
        printf("ntsim stats: %s: ", path);
    st = json ? ntsim_stats_write_json(r, stdout) : ntsim_stats_write_text(r, stdout);
    ntsim_stats_report_free(r);
    if (st != NRT_SUCCESS || fflush(stdout) != 0) {
        perror("ntsim stats: stdout");
        return NTSIM_EXIT_FAIL;
    }
    return NTSIM_EXIT_OK;
}
