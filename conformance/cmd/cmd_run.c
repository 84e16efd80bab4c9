/*
 * conformance/cmd/cmd_run.c: `ntsim run` — simulate a scenario through the
 * real engine, write the output files, print the summary; or, with
 * --stress, load the engine from real threads and check its counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "inspect_env.h"
#include "input.h"

static const char *const usage_run =
    "usage: ntsim run [SCENARIO] [-o DIR] [--quiet]\n"
    "       ntsim run --stress [--threads N] [--ncs N] [--seconds S]\n"
    "\n"
    "Runs SCENARIO (a YAML file, or the name of a shipped one such as trn2_48xl, found\n"
    "from any directory; default: the built-in scenario, every one of the 46 event\n"
    "types on 2 NCs) through the real capture engine and converters on a virtual\n"
    "clock, writes DIR/trace.json, DIR/trace.ntff and DIR/notifications.ntff (DIR\n"
    "defaults to out/) and the timelines (below), and prints a summary: events per\n"
    "type and per NC, captured,\n"
    "overwritten, notifications converted and dropped, and the clock skew recovered from\n"
    "sync_info. The same scenario and seed give byte-identical files.\n"
    "\n"
    "  -o, --output DIR   output directory (created if needed; default out)\n"
    "  -q, --quiet        no summary\n"
    "  --progress         report progress from the start, one line each (by default a\n"
    "                     line is kept up to date once a run takes more than a second)\n"
    "  --timeline-max-events N\n"
    "                     write the timelines only for a trace of at most N events\n"
    "                     (default 1000000; 0: never). They are built from the whole\n"
    "                     trace in memory, unlike the other files, which stream; for a\n"
    "                     longer run, ntsim export makes them from DIR/trace.json\n"
    "  --records FILE     also write the drained records as a raw 112-byte dump\n"
    "                     (what nrt_sys_trace_drain_events fills; ntsim decode reads it)\n"
    "  --stress           real threads and the real clock instead of a scenario\n"
    "  --threads N        stress: emitting threads (default 4)\n"
    "  --ncs N            stress: NeuronCores they spread over (default 2)\n"
    "  --seconds S        stress: how long (default 2)\n"
    "  --max-input-bytes N  the largest scenario file read (default 1M; K, M, G suffixes)\n"
    NTSIM_CLI_MAX_EVENTS_USAGE
    "\n"
    "The inspect session's environment variables are honoured as libnrt's inspect layer\n"
    "reads them (docs/decisions.md, D-INSPECT-ENV), so a filter can be tried here first:\n"
#define NTSIM_INSPECT_VAR_USAGE_(ID, name, values, help) "  " name "=" values "\n      " help "\n"
    NTSIM_INSPECT_ENV_MAP(NTSIM_INSPECT_VAR_USAGE_)
#undef NTSIM_INSPECT_VAR_USAGE_
    "The types are interned names (nc_exec_running) or lowercase enum suffixes\n"
    "(device_exec), hardware, software; ^ excludes.\n"
    "With ENABLE=1 the filters replace the scenario's and DIR/ntrace.pb holds what they\n"
    "captured. A malformed variable is named with the part not understood; nothing runs\n"
    "(exit 2). Not read with --stress.\n";

/* The usage, then the timelines a run writes (the engine's registry). */
static void print_usage_run(FILE *out)
{
    fputs(usage_run, out);
    fputs("\nThe timelines, in DIR:\n", out);
    size_t n;
    const ntsim_output_format_t *f = ntsim_output_formats(&n);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-19s%s\n", f[i].file, f[i].description);
}

typedef struct progress {
    struct timespec start;
    bool shown;
    bool always;       /* --progress: from the start, each line on its own */
} progress_t;

/* A progress line on stderr once a run has taken more than a second. */
static void show_progress(uint64_t done_ns, uint64_t total_ns, uint64_t events, void *ctx)
{
    progress_t *p = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double wall = (double)(now.tv_sec - p->start.tv_sec) +
                  (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
    if (wall < 1.0 && !p->always)
        return;
    /* Executes that started before the scenario's end run to completion, so
     * the simulated time can pass the duration: say so rather than print
     * "0.171 of 0.100 ms". --progress prints one line per report, at its
     * end; otherwise the line is rewritten in place. */
    const char *lead = p->always ? "" : "\r";
    const char *tail = p->always ? "\n" : "  ";
    if (done_ns <= total_ns)
        fprintf(stderr, "%sntsim: simulated %.3f of %.3f ms, %llu events, %.1f s%s", lead,
                (double)done_ns / 1e6, (double)total_ns / 1e6, (unsigned long long)events, wall,
                tail);
    else
        fprintf(stderr, "%sntsim: simulated %.3f ms (%.3f ms, then the executes in flight), "
                        "%llu events, %.1f s%s",
                lead, (double)done_ns / 1e6, (double)total_ns / 1e6, (unsigned long long)events,
                wall, tail);
    p->shown = true;
}

typedef struct run_options {
    const char *dir;
    const char *records_path;
    const char *scenario;     /* NULL: the built-in default */
    bool quiet, stress, progress;
    unsigned threads, ncs;
    double seconds;
    uint64_t timeline_max;
    const char *stress_only;  /* the first of --threads, --ncs, --seconds given, or NULL */
} run_options_t;

/* An option's whole text as an integer in [min, max]; digits only, so "-1",
 * " 4" or "4294967297" (which strtoul would wrap into a 32-bit 1) are refused. */
static bool parse_count(const char *text, unsigned long long min, unsigned long long max,
                        unsigned *out)
{
    if (*text < '0' || *text > '9')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return false;
    *out = (unsigned)v;
    return true;
}

/* Parses argv into *o. Returns -1 to go on, or the exit status (help, bad usage). */
static int parse_run_options(int argc, char **argv, run_options_t *o)
{
    *o = (run_options_t){"out", NULL, NULL, false, false, false, 4, 2, 2.0, 1000000, NULL};
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"quiet", no_argument, NULL, 'q'},
        {"stress", no_argument, NULL, 's'},       {"threads", required_argument, NULL, 't'},
        {"ncs", required_argument, NULL, 'n'},    {"seconds", required_argument, NULL, 'S'},
        {"records", required_argument, NULL, 'r'}, {"help", no_argument, NULL, 'h'},
        {"max-input-bytes", required_argument, NULL, 'b'},
        {"progress", no_argument, NULL, 'P'},
        {"timeline-max-events", required_argument, NULL, 'T'},
        {"max-events", required_argument, NULL, 'E'},
        {NULL, 0, NULL, 0},
    };
    int c, at;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", opts, &at)) != -1) {
        char *end = NULL;
        if ((c == 't' || c == 'n' || c == 'S') && o->stress_only == NULL)
            o->stress_only = opts[at].name;
        switch (c) {
        case 'o': o->dir = optarg; break;
        case 'q': o->quiet = true; break;
        case 'P': o->progress = true; break;
        case 'r': o->records_path = optarg; break;
        case 's': o->stress = true; break;
        case 't':
            if (!parse_count(optarg, 1, 64, &o->threads))
                return ntsim_cli_usage_error("run", "--threads must be 1..64, got '%s'", optarg);
            break;
        case 'n':
            if (!parse_count(optarg, 1, NTSIM_NC_COUNT, &o->ncs))
                return ntsim_cli_usage_error("run", "--ncs must be 1..256, got '%s'", optarg);
            break;
        case 'S':
            o->seconds = strtod(optarg, &end);
            if (*end || !(o->seconds > 0) || o->seconds > 3600)
                return ntsim_cli_usage_error("run", "--seconds must be in (0, 3600], got '%s'",
                                             optarg);
            break;
        case 'b': {
            uint64_t bytes;
            if (!ntsim_cli_parse_size(optarg, &bytes) || bytes > SIZE_MAX)
                return ntsim_cli_usage_error("run", "--max-input-bytes: '%s' is not a size",
                                             optarg);
            ntsim_input_set_limit_all((size_t)bytes);
            break;
        }
        case 'T':
            if (!ntsim_cli_parse_size(optarg, &o->timeline_max) || o->timeline_max > SIZE_MAX / 112)
                return ntsim_cli_usage_error("run", "--timeline-max-events: '%s' is not a count",
                                             optarg);
            break;
        case 'E':
            if (!ntsim_cli_set_scenario_budget("run", optarg))
                return NTSIM_EXIT_USAGE;
            break;
        case 'h': print_usage_run(stdout); return NTSIM_EXIT_OK;
        default: return ntsim_cli_bad_option("run", c, argv, opts);
        }
    }
    /* A stress option without --stress did nothing, silently (issue 38): a
     * scenario's run takes its threads, NCs and length from the scenario. */
    if (!o->stress && o->stress_only != NULL)
        return ntsim_cli_usage_error("run", "--%s is for --stress (a scenario's run takes its "
                                            "threads, NCs and length from the scenario)",
                                     o->stress_only);
    if (o->stress && optind != argc)
        return ntsim_cli_usage_error("run", "--stress takes no scenario");
    if (argc - optind > 1)
        return ntsim_cli_usage_error("run", "one scenario at most (got '%s' and '%s')",
                                     argv[optind], argv[optind + 1]);
    o->scenario = optind < argc ? argv[optind] : NULL;
    return -1;
}

/* The runtime's execution -> model table, rebuilt from the trace itself
 * (the exec-stage payloads carry both ids), so that the timelines show the
 * model_id trace.json shows (D-JSON-MODEL-ID). */
typedef struct exec_models {
    uint64_t *model; /* by exec id */
    size_t count;
} exec_models_t;

static uint64_t model_of(uint64_t exec_id, void *ctx)
{
    const exec_models_t *m = ctx;
    return exec_id < m->count ? m->model[exec_id] : 0;
}

static bool exec_models_build(exec_models_t *m, const nrt_sys_trace_event_t *recs, size_t n)
{
    uint64_t top = 0;
    for (size_t i = 0; i < n; i++)
        if (recs[i].trace_type == NRT_SYS_TRACE_EVENT_TYPE_EXEC_CORE &&
            recs[i].data.exec_core.exec_id < n + 1 && recs[i].data.exec_core.exec_id > top)
            top = recs[i].data.exec_core.exec_id;
    m->count = (size_t)top + 1;
    if ((m->model = calloc(m->count, sizeof *m->model)) == NULL)
        return false;
    for (size_t i = 0; i < n; i++)
        if (recs[i].trace_type == NRT_SYS_TRACE_EVENT_TYPE_EXEC_CORE &&
            recs[i].data.exec_core.exec_id < m->count)
            m->model[recs[i].data.exec_core.exec_id] = recs[i].data.exec_core.model_id;
    return true;
}

/* The timelines (D-TIMELINE): every output format's file, from the
 * records kept during the run, written beside their names for the commit;
 * skipped for a trace longer than --timeline-max-events (the earlier run's
 * are then removed at the commit). 0, or -1 after an error. */
static int write_run_timelines(const run_options_t *o, const ntsim_run_keep_t *keep,
                               const ntsim_scenario_t *sc, ntsim_cli_run_files_t *files)
{
    if (o->timeline_max == 0 || keep->overflowed)
        return 0;
    exec_models_t m = {NULL, 0};
    if (!exec_models_build(&m, keep->records, keep->count)) {
        fprintf(stderr, "ntsim run: out of memory for the timelines\n");
        return -1;
    }
    (void)ntsim_json_set_model_lookup(model_of, &m); /* always NRT_SUCCESS */
    /* The instance's devices, as trace.ntff's events name them (D-LNC): a
     * process per device, lanes grouped by device (D-TIMELINE-ORDER). */
    char arch[NTSIM_SIM_ARCH_CAP];
    uint32_t nd[NTSIM_NC_COUNT];
    ntsim_ntff_options_t ntff;
    ntsim_sim_ntff_options(sc, arch, nd, &ntff);
    ntsim_timeline_options_t opt = {0, nd[0], NULL, nd};
    int rc = ntsim_cli_run_files_timelines(files, keep->records, keep->count, &opt, stderr);
    (void)ntsim_json_set_model_lookup(NULL, NULL);
    free(m.model);
    return rc;
}

/* What became of the timelines, after the commit: each file written, or
 * why there are none and which earlier ones were removed. */
static void report_timelines(const run_options_t *o, const ntsim_run_keep_t *keep,
                             const ntsim_run_result_t *r, const ntsim_cli_run_files_t *files)
{
    if (keep->overflowed)
        printf("timelines: not written: the trace has %llu events, more than "
               "--timeline-max-events %llu (ntsim export %s/trace.json -o OUT makes each "
               "from the file)",
               (unsigned long long)r->record_count, (unsigned long long)o->timeline_max, o->dir);
    else if (o->timeline_max == 0)
        printf("timelines: not written (--timeline-max-events 0)");
    const char *sep = "; removed the earlier run's ";
    for (size_t i = 0; i < files->timelines; i++) {
        if (files->removed[i]) {
            printf("%s%s", sep, files->timeline[i]);
            sep = ", ";
        }
    }
    if (keep->overflowed || o->timeline_max == 0)
        printf("\n");
    ntsim_cli_run_files_report(files, stdout);
}

int ntsim_cmd_run(int argc, char **argv)
{
    run_options_t o;
    int rc = parse_run_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (o.stress)
        return ntsim_stress(o.threads, o.ncs, o.seconds, stdout) == 0 ? NTSIM_EXIT_OK
                                                                      : NTSIM_EXIT_FAIL;
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = calloc(1, sizeof *r);
    ntsim_outputs_t out = {0};
    ntsim_cli_inspect_t *inspect = NULL;
    ntsim_output_t *ntrace = NULL;
    /* Before the first goto: free_all frees them. */
    ntsim_run_keep_t keep = {(size_t)o.timeline_max, NULL, 0, 0, false};
    ntsim_cli_run_files_t files = {.lock_fd = -1};
    rc = NTSIM_EXIT_FAIL;
    if (sc == NULL || r == NULL) {
        fprintf(stderr, "ntsim run: out of memory\n");
        goto free_all;
    }
    if ((rc = ntsim_cli_load_scenario(o.scenario, sc, stderr)) != NTSIM_EXIT_OK)
        goto free_all;
    /* NEURON_RT_INSPECT_*: checked before anything runs; an enabled session's
     * filters replace the scenario's and its ntrace.pb follows the run. */
    if ((rc = ntsim_cli_inspect_begin(sc, &inspect, stderr)) != NTSIM_EXIT_OK)
        goto free_all;
    /* Every output against the scenario and each other, before any is
     * opened (D-OUTPUT). */
    if ((rc = ntsim_cli_run_files_check(&files, o.dir, o.records_path,
                                        ntsim_cli_inspect_path(inspect), stderr)) != NTSIM_EXIT_OK)
        goto free_all;
    rc = NTSIM_EXIT_FAIL;
    if (ntsim_cli_inspect_open(inspect, sc, stderr) != 0)
        goto free_all;
    ntsim_sim_sink_t inspect_sink = ntsim_cli_inspect_sink(inspect);
    /* The files are written while the run goes (at each fetch), never held
     * whole, each beside its name until the run has succeeded. */
    progress_t prog = {{0, 0}, false, o.progress};
    ntsim_run_io_t io = {{NULL, NULL, NULL, NULL, false}, NULL, &keep, show_progress, &prog,
                         NULL, 0};
    if (ntsim_cli_run_files_open(&files, &io.files, stderr) != 0)
        goto free_all;
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    ntsim_cli_run_log_t log;
    ntsim_cli_run_log_begin(&log, sc); /* the scenario's deliberate errors, counted */
    NRT_STATUS st = ntsim_run_scenario_also(sc, &io, &inspect_sink, r, &out);
    ntsim_cli_run_log_end(&log);
    if (prog.shown && !prog.always)
        fprintf(stderr, "\n");
    if (st == NRT_FAILURE && io.failed_file != NULL) {
        if (strcmp(io.failed_file, "records") == 0)
            fprintf(stderr, "ntsim run: %s: cannot write the record dump: %s\n",
                    o.records_path, strerror(io.failed_errno));
        else
            fprintf(stderr, "ntsim run: %s/%s: cannot write: %s\n", o.dir, io.failed_file,
                    strerror(io.failed_errno));
        goto free_all;
    }
    if (st != NRT_SUCCESS) {
        fprintf(stderr, "ntsim run: the simulation failed: %s\n",
                st == NRT_RESOURCE ? "out of memory" : nrt_get_status_as_str(st));
        goto free_all;
    }
    if (write_run_timelines(&o, &keep, sc, &files) != 0 ||
        ntsim_cli_inspect_end(inspect, &ntrace, stderr) != 0)
        goto free_all;
    /* Everything whole: renamed into place as one (D-OUTPUT). */
    int committed = ntsim_cli_run_files_commit(&files, ntrace, stderr);
    ntrace = NULL; /* committed or aborted */
    if (committed != 0)
        goto free_all;
    if (!o.quiet) {
        ntsim_cli_summary(stdout, sc, r, &out, o.dir, &log);
        report_timelines(&o, &keep, r, &files);
        ntsim_cli_inspect_report(inspect, stdout);
    }
    rc = NTSIM_EXIT_OK;
free_all:
    ntsim_output_abort(ntrace);
    ntsim_cli_run_files_free(&files);
    ntsim_cli_inspect_free(inspect);
    free(keep.records);
    free(r);
    free(sc);
    ntsim_capture_shutdown();
    return rc;
}
