/*
 * conformance/cmd/cmd_diff.c: `ntsim diff A B` — two traces (any formats the
 * read stage reads) compared event by event, field by field (D-DIFF): the
 * first differences, each as `nc 0 event 17 (nc_exec_running start):
 * data.exec_id: 5 != 6`, then a count per field. Exit 0 when they are the
 * same, 1 when they differ, 2 bad usage, 3 a file that is not a trace. The
 * matching and comparing are the engine's (ntsim/analyze.h).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ntsim/analyze.h"

static const char *const usage_diff =
    "usage: ntsim diff A B [--ignore FIELD,...] [--time-tolerance NS] [--show K]\n"
    "                      [--max-events N] [--max-input-bytes N]\n"
    "\n"
    "Compares two traces, each any trace ntsim reads (a JSON fetch document, an NTFF file\n"
    "or a record dump, told apart by content; the two may differ), as a porter compares\n"
    "a port's fetch document with ntsim's, or CI gates a change. Per NC, events are\n"
    "matched in nc_local_id order (where the ids differ, by event type, phase and\n"
    "tracking_id) and every field is compared as the fetch document writes it:\n"
    "event_type, phase, id, nc_local_id, tracking_id, thread_id, data.KEY, timestamp_ns,\n"
    "nrta_seq_id. Between two formats, what one of them does not keep is not compared,\n"
    "and the summary says what. Prints the first K differences, e.g.\n"
    "  nc 0 event 17 (nc_exec_running start): data.exec_id: 5 != 6\n"
    "(event: the nc_local_id in A), then how many differ per field.\n"
    "\n"
    "  --ignore FIELD,...   fields not compared: the names above, data.KEY, or data\n"
    "                       (every data key); e.g. --ignore thread_id,timestamp_ns\n"
    "  --time-tolerance NS  timestamp_ns (and data keys ending in _ns) that differ by\n"
    "                       at most NS are equal (default 0)\n"
    "  --show K             how many differences to print (default 10; 0: only counts)\n"
    NTSIM_CLI_CONVERT_LIMITS_USAGE
    "\n"
    "Exit: 0 the same, 1 different (or stdout failed), 2 bad usage, 3 A or B is not a\n"
    "trace (FILE: where: what).\n";

typedef struct shown {
    uint64_t left;            /* differences still to print */
} shown_t;

static NRT_STATUS print_difference(const ntsim_diff_item_t *d, void *ctx)
{
    shown_t *s = ctx;
    if (s->left == 0)
        return NRT_SUCCESS;
    s->left--;
    if (d->field == NULL)
        printf("nc %u event %llu (%s %s): only in %s\n", d->nc_idx, (unsigned long long)d->event,
               d->type, d->phase, d->a != NULL ? "A" : "B");
    else
        printf("nc %u event %llu (%s %s): %s: %s != %s\n", d->nc_idx,
               (unsigned long long)d->event, d->type, d->phase, d->field,
               d->a != NULL ? d->a : "(none)", d->b != NULL ? d->b : "(none)");
    return NRT_SUCCESS;
}

/* --ignore's list, split in place into fields[] (each checked). */
static int parse_ignore(char *list, const char **fields, size_t cap, size_t *n)
{
    for (char *f = strtok(list, ","); f != NULL; f = strtok(NULL, ",")) {
        const char *near = NULL;
        if (!ntsim_diff_field_check(f, &near)) {
            if (near != NULL)
                return ntsim_cli_usage_error("diff", "--ignore: no field '%s' (did you mean %s?)",
                                             f, near);
            return ntsim_cli_usage_error("diff", "--ignore: no field '%s'", f);
        }
        if (*n == cap)
            return ntsim_cli_usage_error("diff", "--ignore: more than %zu fields", cap);
        fields[(*n)++] = f;
    }
    return -1;
}

static ntsim_trace_t *read_side(const char *path, const ntsim_read_limits_t *limits, int *rc)
{
    char err[1024] = "";
    ntsim_trace_t *t = NULL;
    NRT_STATUS st = ntsim_trace_read_file(path, limits, &t, err, sizeof err);
    if (st == NRT_SUCCESS)
        return t;
    fprintf(stderr, "%s\n", err);
    if (st == NRT_INVALID)
        ntsim_cli_timeline_hint("diff", path);
    *rc = st == NRT_INVALID ? NTSIM_EXIT_INPUT : NTSIM_EXIT_FAIL;
    return NULL;
}

/* The summary after the differences. */
static void print_summary(const char *pa, const ntsim_trace_t *a, const char *pb,
                          const ntsim_trace_t *b, const ntsim_diff_summary_t *s, uint64_t hidden)
{
    if (hidden > 0)
        printf("(%llu more differences not shown; --show K shows more)\n",
               (unsigned long long)hidden);
    bool same = s->differences == 0 && s->only_a == 0 && s->only_b == 0;
    printf("ntsim diff: A %s (%s, %zu events), B %s (%s, %zu events): %s\n", pa,
           ntsim_trace_format_title(a->format), a->event_count, pb,
           ntsim_trace_format_title(b->format), b->event_count, same ? "the same" : "different");
    printf("  %llu events matched, %llu of them differ; %llu only in A, %llu only in B\n",
           (unsigned long long)s->matched, (unsigned long long)s->differing,
           (unsigned long long)s->only_a, (unsigned long long)s->only_b);
    for (size_t i = 0; i < s->field_count; i++)
        printf("  %-28s %llu\n", s->fields[i].field, (unsigned long long)s->fields[i].count);
    if (s->not_compared != NULL)
        printf("  not compared, as one of the formats does not keep it (D-READ): %s\n",
               s->not_compared);
}

int ntsim_cmd_diff(int argc, char **argv)
{
    static const struct option opts[] = {{"ignore", required_argument, NULL, 'i'},
                                         {"time-tolerance", required_argument, NULL, 'T'},
                                         {"show", required_argument, NULL, 'k'},
                                         {"max-events", required_argument, NULL, 'e'},
                                         {"max-input-bytes", required_argument, NULL, 'b'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    enum { IGNORE_MAX = 64 };
    const char *ignore[IGNORE_MAX];
    ntsim_diff_options_t opt = {ignore, 0, 0};
    ntsim_read_limits_t limits = {NTSIM_READ_MAX_BYTES, NTSIM_READ_MAX_EVENTS};
    uint64_t show = 10;
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'i':
            if ((rc = parse_ignore(optarg, ignore, IGNORE_MAX, &opt.ignore_count)) >= 0)
                return rc;
            break;
        case 'T':
            if (!ntsim_cli_parse_size(optarg, &opt.time_tolerance_ns))
                return ntsim_cli_usage_error("diff", "--time-tolerance: '%s' is not a count of ns",
                                             optarg);
            break;
        case 'k':
            if (!ntsim_cli_parse_size(optarg, &show))
                return ntsim_cli_usage_error("diff", "--show: '%s' is not a count", optarg);
            break;
        case 'e':
            if (!ntsim_cli_parse_size(optarg, &limits.max_events))
                return ntsim_cli_usage_error("diff", "--max-events: '%s' is not a count", optarg);
            break;
        case 'b':
            if (!ntsim_cli_parse_size(optarg, &limits.max_bytes))
                return ntsim_cli_usage_error("diff", "--max-input-bytes: '%s' is not a size",
                                             optarg);
            break;
        case 'h': fputs(usage_diff, stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option("diff", c, argv, opts);
        }
    }
    if (argc - optind != 2)
        return ntsim_cli_usage_error("diff", "two traces, A and B (got %d)", argc - optind);
    const char *pa = argv[optind], *pb = argv[optind + 1];
    rc = NTSIM_EXIT_FAIL;
    ntsim_trace_t *a = read_side(pa, &limits, &rc), *b = a ? read_side(pb, &limits, &rc) : NULL;
    if (a == NULL || b == NULL) {
        ntsim_trace_free(a);
        return rc;
    }
    shown_t shown = {show};
    ntsim_diff_summary_t sum;
    NRT_STATUS st = ntsim_trace_diff(a, b, &opt, print_difference, &shown, &sum);
    if (st == NRT_SUCCESS) {
        uint64_t all = sum.differences + sum.only_a + sum.only_b;
        print_summary(pa, a, pb, b, &sum, all > show ? all - show : 0);
        rc = all == 0 ? NTSIM_EXIT_OK : NTSIM_EXIT_FAIL; /* 1: different */
    } else {
        fprintf(stderr, "ntsim diff: %s\n", st == NRT_RESOURCE ? "out of memory"
                                                               : nrt_get_status_as_str(st));
        rc = NTSIM_EXIT_FAIL;
    }
    ntsim_diff_summary_free(&sum);
    ntsim_trace_free(a);
    ntsim_trace_free(b);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("ntsim diff: stdout");
        return NTSIM_EXIT_FAIL;
    }
    return rc;
}
