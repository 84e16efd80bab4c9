/*
 * conformance/ntsim/cmd_run.c: `ntsim run` — simulate a scenario through the
 * real engine, write the output files, print the summary; or, with
 * --stress, load the engine from real threads and check its counters.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char *const usage_run =
    "usage: ntsim run [SCENARIO] [-o DIR] [--quiet]\n"
    "       ntsim run --stress [--threads N] [--ncs N] [--seconds S]\n"
    "\n"
    "Runs SCENARIO (a YAML file; default: the built-in scenario, every one of the 46\n"
    "event types on 2 NCs) through the real capture engine and converters on a virtual\n"
    "clock, writes DIR/trace.json, DIR/trace.ntff and DIR/notifications.ntff (DIR\n"
    "defaults to out/), and prints a summary: events per type and per NC, captured,\n"
    "overwritten, notifications converted and dropped, and the clock skew recovered from\n"
    "sync_info. The same scenario and seed give byte-identical files.\n"
    "\n"
    "  -o, --output DIR   output directory (created if needed; default out)\n"
    "  -q, --quiet        no summary\n"
    "  --records FILE     also write the drained records as a raw 112-byte dump\n"
    "                     (what nrt_sys_trace_drain_events fills; ntsim decode reads it)\n"
    "  --stress           real threads and the real clock instead of a scenario\n"
    "  --threads N        stress: emitting threads (default 4)\n"
    "  --ncs N            stress: NeuronCores they spread over (default 2)\n"
    "  --seconds S        stress: how long (default 2)\n";

typedef struct progress {
    struct timespec start;
    bool shown;
} progress_t;

/* A progress line on stderr once a run has taken more than a second. */
static void show_progress(uint64_t done_ns, uint64_t total_ns, uint64_t events, void *ctx)
{
    progress_t *p = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double wall = (double)(now.tv_sec - p->start.tv_sec) +
                  (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
    if (wall < 1.0)
        return;
    fprintf(stderr, "\rntsim: simulated %.3f of %.3f ms, %llu events, %.1f s  ",
            (double)done_ns / 1e6, (double)total_ns / 1e6, (unsigned long long)events, wall);
    p->shown = true;
}

int ntsim_cmd_run(int argc, char **argv)
{
    const char *dir = "out";
    const char *records_path = NULL;
    bool quiet = false, stress = false;
    unsigned threads = 4, ncs = 2;
    double seconds = 2.0;
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"quiet", no_argument, NULL, 'q'},
        {"stress", no_argument, NULL, 's'},       {"threads", required_argument, NULL, 't'},
        {"ncs", required_argument, NULL, 'n'},    {"seconds", required_argument, NULL, 'S'},
        {"records", required_argument, NULL, 'r'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'o': dir = optarg; break;
        case 'q': quiet = true; break;
        case 'r': records_path = optarg; break;
        case 's': stress = true; break;
        case 't':
            threads = (unsigned)strtoul(optarg, &end, 10);
            if (*end || threads == 0 || threads > 64) {
                fprintf(stderr, "ntsim run: --threads must be 1..64\n");
                return NTSIM_EXIT_USAGE;
            }
            break;
        case 'n':
            ncs = (unsigned)strtoul(optarg, &end, 10);
            if (*end || ncs == 0 || ncs > 256) {
                fprintf(stderr, "ntsim run: --ncs must be 1..256\n");
                return NTSIM_EXIT_USAGE;
            }
            break;
        case 'S':
            seconds = strtod(optarg, &end);
            if (*end || !(seconds > 0) || seconds > 3600) {
                fprintf(stderr, "ntsim run: --seconds must be in (0, 3600]\n");
                return NTSIM_EXIT_USAGE;
            }
            break;
        case 'h': fputs(usage_run, stdout); return NTSIM_EXIT_OK;
        default: fputs(usage_run, stderr); return NTSIM_EXIT_USAGE;
        }
    }
    if (stress) {
        if (optind != argc) {
            fprintf(stderr, "ntsim run: --stress takes no scenario\n");
            return NTSIM_EXIT_USAGE;
        }
        return ntsim_stress(threads, ncs, seconds, stdout) == 0 ? NTSIM_EXIT_OK
                                                                : NTSIM_EXIT_FAIL;
    }
    if (argc - optind > 1) {
        fprintf(stderr, "ntsim run: one scenario at most\n%s", usage_run);
        return NTSIM_EXIT_USAGE;
    }
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    if (sc == NULL)
        return NTSIM_EXIT_FAIL;
    int rc = ntsim_cli_load_scenario(optind < argc ? argv[optind] : NULL, sc, stderr);
    if (rc != NTSIM_EXIT_OK) {
        free(sc);
        return rc;
    }
    progress_t prog;
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    prog.shown = false;
    ntsim_run_result_t *r = malloc(sizeof *r);
    NRT_STATUS st = r ? ntsim_sim_run(sc, show_progress, &prog, r) : NRT_RESOURCE;
    if (prog.shown)
        fprintf(stderr, "\n");
    if (st != NRT_SUCCESS) {
        fprintf(stderr, "ntsim run: the simulation failed (status %d)\n", st);
        free(r);
        free(sc);
        return NTSIM_EXIT_FAIL;
    }
    ntsim_outputs_t o;
    rc = NTSIM_EXIT_OK;
    if (ntsim_sim_outputs(sc, r, &o) != NRT_SUCCESS) {
        fprintf(stderr, "ntsim run: cannot serialize the trace\n");
        rc = NTSIM_EXIT_FAIL;
    } else {
        if (ntsim_cli_write_outputs(dir, &o, stderr) != 0)
            rc = NTSIM_EXIT_FAIL;
        else if (records_path != NULL) {
            FILE *f = fopen(records_path, "wb");
            size_t bytes = r->record_count * sizeof *r->records;
            if (f == NULL || fwrite(r->records, 1, bytes, f) != bytes || fclose(f) != 0) {
                fprintf(stderr, "ntsim run: %s: cannot write the record dump\n", records_path);
                rc = NTSIM_EXIT_FAIL;
            }
        }
        else if (!quiet)
            ntsim_cli_summary(stdout, sc, r, &o, dir);
        ntsim_sim_outputs_free(&o);
    }
    ntsim_run_result_free(r);
    free(r);
    free(sc);
    ntsim_capture_shutdown();
    return rc;
}

