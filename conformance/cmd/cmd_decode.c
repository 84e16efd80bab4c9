/*
 * conformance/cmd/cmd_decode.c: `ntsim decode FILE` — print an NTFF file
 * or a raw record dump with the read stage's printers (ntsim/read.h), the
 * format told by FILE's content (D-READ) unless --ntff or --records says.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "ntsim/read.h"

static const char *const usage_decode =
    "usage: ntsim decode FILE [--ntff | --records] [--text] [--max-events N]\n"
    "                         [--max-input-bytes N]\n"
    "\n"
    "Prints FILE: an NTFF file (an ntrace_info: trace.ntff, ntrace.pb) in protobuf text\n"
    "format, or a raw dump of 112-byte records as the JSON fetch document (--text: one\n"
    "line per record). Which one FILE is, its content says (not its name), unless\n"
    "--ntff or --records forces it. A dump whose size is not a multiple of 112, a\n"
    "malformed NTFF, a JSON document or a timeline, a file that is not a regular file or\n"
    "is over its limit exits 3, with nothing printed.\n"
    "\n"
    "  --max-events N       an .ntff with more events is refused (default 4000000)\n"
    "  --max-input-bytes N  the largest .ntff read (default 256M; K, M, G suffixes);\n"
    "                       record dumps are streamed and have no limit\n";

/* What FILE's first bytes say it is (D-READ); 0 after printing why it
 * cannot be read. */
static ntsim_trace_format_t detect(const char *path)
{
    char err[512] = "";
    uint64_t size;
    FILE *f = ntsim_open_input(path, SIZE_MAX, &size, err, sizeof err);
    if (f == NULL) {
        fprintf(stderr, "%s: %s\n", path, err);
        return (ntsim_trace_format_t)0;
    }
    unsigned char head[NTSIM_READ_DETECT_BYTES];
    size_t got = fread(head, 1, sizeof head, f);
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: read error\n", path);
        return (ntsim_trace_format_t)0;
    }
    ntsim_trace_format_t format = ntsim_trace_format_detect(head, got, size);
    /* A dump told by elimination is only a dump when its records are whole. */
    const uint64_t rec = sizeof(nrt_sys_trace_event_t);
    if (format == NTSIM_TRACE_FORMAT_RECORDS && size % rec != 0) {
        fprintf(stderr, "%s: not %s, %s or %s: size %llu is not a multiple of %llu (%llu whole "
                        "records, %llu bytes left over)\n",
                path, ntsim_trace_format_title(NTSIM_TRACE_FORMAT_JSON),
                ntsim_trace_format_title(NTSIM_TRACE_FORMAT_NTFF),
                ntsim_trace_format_title(NTSIM_TRACE_FORMAT_RECORDS), (unsigned long long)size,
                (unsigned long long)rec, (unsigned long long)(size / rec),
                (unsigned long long)(size % rec));
        return (ntsim_trace_format_t)0;
    }
    if (format != NTSIM_TRACE_FORMAT_RECORDS && format != NTSIM_TRACE_FORMAT_NTFF) {
        fprintf(stderr, "%s: %s: ntsim decode prints NTFF or record dumps%s\n", path,
                ntsim_trace_format_title(format),
                format == NTSIM_TRACE_FORMAT_JSON ? " (ntsim export and ntsim view read it)" : "");
        return (ntsim_trace_format_t)0;
    }
    return format;
}

/* Decodes a record dump straight from the file, a chunk at a time. */
static int decode_records(const char *path, bool text)
{
    char err[512] = "";
    uint64_t size;
    FILE *f = ntsim_open_input(path, SIZE_MAX, &size, err, sizeof err);
    if (f == NULL) {
        fprintf(stderr, "%s: %s\n", path, err);
        return NTSIM_EXIT_INPUT;
    }
    NRT_STATUS st = ntsim_decode_record_stream(f, size, text, stdout, err, sizeof err);
    fclose(f);
    if (st == NRT_SUCCESS)
        return NTSIM_EXIT_OK;
    fprintf(stderr, "%s: %s\n", path, err);
    return st == NRT_INVALID ? NTSIM_EXIT_INPUT : NTSIM_EXIT_FAIL;
}

static int decode_ntff(const char *path, uint64_t max_events)
{
    char err[512] = "";
    char *buf;
    size_t len;
    NRT_STATUS st = ntsim_read_input(path, NTSIM_INPUT_NTFF, &buf, &len, err, sizeof err);
    if (st == NRT_SUCCESS) {
        st = ntsim_decode_ntff((const uint8_t *)buf, len, max_events, stdout, err, sizeof err);
        free(buf);
    }
    if (st == NRT_SUCCESS)
        return NTSIM_EXIT_OK;
    fprintf(stderr, "%s: %s\n", path, err);
    return st == NRT_INVALID ? NTSIM_EXIT_INPUT : NTSIM_EXIT_FAIL;
}

int ntsim_cmd_decode(int argc, char **argv)
{
    int force = 0; /* 1 ntff, 2 records */
    bool text = false;
    uint64_t max_events = NTSIM_READ_MAX_EVENTS, max_bytes;
    static const struct option opts[] = {{"ntff", no_argument, NULL, 'n'},
                                         {"records", no_argument, NULL, 'r'},
                                         {"text", no_argument, NULL, 't'},
                                         {"max-events", required_argument, NULL, 'e'},
                                         {"max-input-bytes", required_argument, NULL, 'b'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': force = 1; break;
        case 'r': force = 2; break;
        case 't': text = true; break;
        case 'e':
            if (!ntsim_cli_parse_size(optarg, &max_events))
                return ntsim_cli_usage_error("decode", "--max-events: '%s' is not a count",
                                             optarg);
            break;
        case 'b':
            if (!ntsim_cli_parse_size(optarg, &max_bytes) || max_bytes > SIZE_MAX)
                return ntsim_cli_usage_error("decode", "--max-input-bytes: '%s' is not a size",
                                             optarg);
            ntsim_input_set_limit_all((size_t)max_bytes);
            break;
        case 'h': fputs(usage_decode, stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option("decode", c, argv, opts);
        }
    }
    if (argc - optind != 1)
        return ntsim_cli_usage_error("decode", argc == optind ? "which FILE?"
                                                              : "one FILE at a time");
    const char *path = argv[optind];
    ntsim_trace_format_t format = force == 1   ? NTSIM_TRACE_FORMAT_NTFF
                                  : force == 2 ? NTSIM_TRACE_FORMAT_RECORDS
                                               : detect(path);
    if (format == 0)
        return NTSIM_EXIT_INPUT;
    return format == NTSIM_TRACE_FORMAT_NTFF ? decode_ntff(path, max_events)
                                             : decode_records(path, text);
}
