/*
 * conformance/cmd/cmd_export.c: `ntsim export FILE -o OUT` — a fetched JSON
 * document, an NTFF file or a record dump (read by the engine's read stage,
 * D-READ) converted into a timeline file of the output format OUT's
 * extension picks (the engine's registry, D-TIMELINE).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ntsim/read.h"

static const char *const usage_export =
    "usage: ntsim export FILE -o OUT [--max-events N] [--max-input-bytes N]\n"
    "\n"
    "Converts FILE into a timeline, by OUT's extension. FILE is a JSON fetch document\n"
    "(such as a run's trace.json), an NTFF file (trace.ntff, an inspect session's\n"
    "ntrace.pb) or a raw dump of 112-byte records (ntsim run --records), told apart by\n"
    "its content, not its name. OUT's extension picks the timeline:\n";
/* ...then a line per format (cli.h's list), then the rest. */
static const char *const usage_export_tail =
    "Device times are moved onto the host timeline with the sync points in FILE.\n"
    "Bad input exits 3 with FILE: where: what.\n"
    "\n"
    "  -o, --output OUT     the file to write\n"
    NTSIM_CLI_CONVERT_LIMITS_USAGE;

/* Shared with cmd_view.c: reads FILE and writes OUT in `format`. */
int ntsim_cli_convert(const char *cmd, const char *in, const char *out,
                      const ntsim_output_format_t *format, const ntsim_read_limits_t *limits)
{
    /* OUT is never IN, by any name (D-OUTPUT): refused before either is
     * opened. */
    char err[2048] = "";
    NRT_STATUS st = ntsim_output_input(in, "the input");
    if (st == NRT_SUCCESS)
        st = ntsim_output_check(&out, 1, err, sizeof err);
    if (st != NRT_SUCCESS) {
        fprintf(stderr, "ntsim %s: %s\n", cmd, st == NRT_RESOURCE ? "out of memory" : err);
        return st == NRT_INVALID ? NTSIM_EXIT_USAGE : NTSIM_EXIT_FAIL;
    }
    ntsim_trace_t *trace = NULL;
    st = ntsim_trace_read_file(in, limits, &trace, err, sizeof err);
    if (st != NRT_SUCCESS) {
        if (st == NRT_RESOURCE)
            fprintf(stderr, "ntsim %s: %s: out of memory\n", cmd, in);
        else
            fprintf(stderr, "%s\n", err);
        if (st == NRT_INVALID)
            ntsim_cli_timeline_hint(cmd, in);
        return st == NRT_INVALID ? NTSIM_EXIT_INPUT : NTSIM_EXIT_FAIL;
    }
    size_t bytes = 0, n = trace->event_count;
    /* An NTFF file names each NC's device: a process per device, lanes
     * grouped by device; the other formats name none (D-TIMELINE-ORDER). */
    ntsim_timeline_options_t opt = {0, 0, NULL, trace->nd_idx_by_nc};
    if (opt.nd_idx_by_nc != NULL)
        opt.nd_idx = opt.nd_idx_by_nc[0];
    int rc = ntsim_cli_write_timeline(out, format, trace->events, n,
                                      opt.nd_idx_by_nc != NULL ? &opt : NULL, &bytes, stderr);
    ntsim_trace_free(trace);
    if (rc != 0)
        return NTSIM_EXIT_FAIL;
    printf("ntsim %s: %s (%zu events) -> %s (%zu bytes)\n", cmd, in, n, out, bytes);
    return NTSIM_EXIT_OK;
}

/* Options both converters take; -1 to go on, else the exit status. */
int ntsim_cli_convert_options(const char *cmd, int argc, char **argv, void (*usage)(FILE *),
                              const char **out, ntsim_read_limits_t *limits)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"max-events", required_argument, NULL, 'e'},
                                         {"max-input-bytes", required_argument, NULL, 'b'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    limits->max_bytes = NTSIM_READ_MAX_BYTES;
    limits->max_events = NTSIM_READ_MAX_EVENTS;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': *out = optarg; break;
        case 'e':
            if (!ntsim_cli_parse_size(optarg, &limits->max_events))
                return ntsim_cli_usage_error(cmd, "--max-events: '%s' is not a count", optarg);
            break;
        case 'b':
            if (!ntsim_cli_parse_size(optarg, &limits->max_bytes))
                return ntsim_cli_usage_error(cmd, "--max-input-bytes: '%s' is not a size",
                                             optarg);
            break;
        case 'h': usage(stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option(cmd, c, argv, opts);
        }
    }
    if (argc - optind != 1)
        return ntsim_cli_usage_error(cmd, argc == optind ? "which FILE?" : "one FILE at a time");
    return -1;
}

static void print_usage_export(FILE *out)
{
    fputs(usage_export, out);
    ntsim_cli_timeline_usage(out);
    fputs(usage_export_tail, out);
}

int ntsim_cmd_export(int argc, char **argv)
{
    const char *out = NULL;
    ntsim_read_limits_t limits;
    int rc = ntsim_cli_convert_options("export", argc, argv, print_usage_export, &out, &limits);
    if (rc >= 0)
        return rc;
    /* The problem first: no OUT at all is not a wrong extension (issue 38). */
    const ntsim_output_format_t *format = ntsim_output_format_for_path(out);
    if (format == NULL) {
        fprintf(stderr, "ntsim export: %s", out == NULL ? "-o OUT is missing: the timeline to "
                                                          "write, ending in "
                                                        : "-o OUT must end in ");
        ntsim_cli_timeline_suffixes(stderr);
        if (out != NULL)
            fprintf(stderr, " (got '%s')", out);
        fputs("\n(ntsim export --help says more)\n", stderr);
        return NTSIM_EXIT_USAGE;
    }
    return ntsim_cli_convert("export", argv[optind], out, format, &limits);
}
