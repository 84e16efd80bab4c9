/*
 * conformance/cmd/inspect.c: the inspect session of `ntsim run`
 * (D-INSPECT-ENV). The NEURON_RT_INSPECT_* variables are read from the
 * environment and checked before anything runs; an enabled session's NC
 * and type filters take the place of the scenario's; and its ntrace.pb is
 * written while the run drains, the way libnrt's nrt_inspect_stop harvests
 * (facts §3):
 *
 *   gid map            each visible NC's device, through its instance-wide
 *                      id: the events' nd_idx (ntsim_sim_ntff_options, the
 *                      same options as trace.ntff)
 *   drain              the simulator's fetches and its last drain before
 *                      stop, handed over a batch at a time (the run's sink)
 *   event_to_proto     per event (ntsim_ntff_writer_events)
 *   add_interned_data  the names the events used (ntsim_ntff_writer_finish)
 *   ntrace.pb          OUTPUT_DIR/ntrace.pb, written piece by piece
 *
 * A failure to write ntrace.pb does not stop the run (its own files go on);
 * it is reported at the end, the partial file removed, and the exit is 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "inspect_env.h"

extern char **environ;

#define NTRACE_NAME "ntrace.pb"

struct ntsim_cli_inspect {
    ntsim_inspect_config_t cfg;
    bool harvest;                      /* enabled, with the system profile on */
    char *path;                        /* OUTPUT_DIR/ntrace.pb */
    FILE *f;
    ntsim_ntff_writer_t *w;
    char arch[NTSIM_SIM_ARCH_CAP];     /* the writer's options point here */
    uint32_t nd_of_nc[NTSIM_NC_COUNT];
    uint64_t events;                   /* records written into ntrace.pb */
    int err;                           /* errno of the first failure; 0: none */
    bool oom;
};

/* Prints the lines of one list, each behind `lead`. */
static void print_lines(FILE *to, const char *lead, const ntsim_errors_t *lines)
{
    for (size_t i = 0; i < lines->count; i++)
        fprintf(to, "ntsim run: %s%s\n", lead, lines->items[i]);
}

/* Creates OUTPUT_DIR, opens ntrace.pb in it and its NTFF writer. */
static int open_ntrace(ntsim_cli_inspect_t *in, const ntsim_scenario_t *sc, FILE *err)
{
    const char *dir = in->cfg.output_dir;
    if (ntsim_cli_mkdir_p(dir) != 0) {
        fprintf(err, "ntsim run: NEURON_RT_INSPECT_OUTPUT_DIR: %s: cannot create the output "
                     "directory: %s\n", dir, strerror(errno));
        return NTSIM_EXIT_FAIL;
    }
    size_t len = strlen(dir) + sizeof "/" NTRACE_NAME;
    if ((in->path = malloc(len)) == NULL) {
        fprintf(err, "ntsim run: out of memory\n");
        return NTSIM_EXIT_FAIL;
    }
    snprintf(in->path, len, "%s/%s", dir, NTRACE_NAME);
    if ((in->f = fopen(in->path, "wb")) == NULL) {
        fprintf(err, "ntsim run: %s: cannot write: %s\n", in->path, strerror(errno));
        return NTSIM_EXIT_FAIL;
    }
    ntsim_ntff_options_t opt;
    ntsim_sim_ntff_options(sc, in->arch, in->nd_of_nc, &opt);
    if (ntsim_ntff_writer_create(&opt, &in->w) != NRT_SUCCESS) {
        fprintf(err, "ntsim run: out of memory\n");
        return NTSIM_EXIT_FAIL;
    }
    return NTSIM_EXIT_OK;
}

int ntsim_cli_inspect_begin(ntsim_scenario_t *sc, ntsim_cli_inspect_t **out, FILE *err)
{
    ntsim_cli_inspect_t *in = calloc(1, sizeof *in);
    *out = in;
    if (in == NULL) {
        fprintf(err, "ntsim run: out of memory\n");
        return NTSIM_EXIT_FAIL;
    }
    ntsim_errors_t errors, warnings;
    ntsim_errors_init(&errors);
    ntsim_errors_init(&warnings);
    NRT_STATUS st = ntsim_inspect_env_read(environ, &in->cfg, &errors, &warnings);
    print_lines(err, "warning: ", &warnings);
    print_lines(err, "", &errors);
    int rc = NTSIM_EXIT_OK;
    if (st == NRT_INVALID) {
        fprintf(err, "ntsim run: nothing was run: %zu NEURON_RT_INSPECT_* problem%s above "
                     "(D-INSPECT-ENV)\n", errors.count, errors.count == 1 ? "" : "s");
        rc = NTSIM_EXIT_USAGE;
    } else if (st != NRT_SUCCESS) {
        fprintf(err, "ntsim run: out of memory\n");
        rc = NTSIM_EXIT_FAIL;
    }
    ntsim_errors_free(&errors);
    ntsim_errors_free(&warnings);
    if (rc != NTSIM_EXIT_OK)
        return rc;
    in->harvest = in->cfg.enabled && in->cfg.system_profile;
    ntsim_inspect_apply(&in->cfg, sc);
    ntsim_errors_init(&warnings);
    st = ntsim_inspect_check_scenario(&in->cfg, sc, &warnings);
    print_lines(err, "warning: ", &warnings);
    ntsim_errors_free(&warnings);
    if (st != NRT_SUCCESS) {
        fprintf(err, "ntsim run: out of memory\n");
        return NTSIM_EXIT_FAIL;
    }
    return in->harvest ? open_ntrace(in, sc, err) : NTSIM_EXIT_OK;
}

/* Appends one piece of the writer's output; the first failure is kept. */
static void put(ntsim_cli_inspect_t *in, NRT_STATUS st, const uint8_t *piece, size_t len)
{
    if (in->err != 0 || in->oom)
        return;
    if (st != NRT_SUCCESS)
        in->oom = true; /* the writer's only failure with valid arguments */
    else if (len > 0 && fwrite(piece, 1, len, in->f) != len)
        in->err = errno != 0 ? errno : EIO;
}

static NRT_STATUS sink_records(void *ctx, const nrt_sys_trace_event_t *records, size_t n)
{
    ntsim_cli_inspect_t *in = ctx;
    const uint8_t *piece = NULL;
    size_t len = 0;
    if (in->err == 0 && !in->oom) {
        NRT_STATUS st = ntsim_ntff_writer_events(in->w, records, n, &piece, &len);
        put(in, st, piece, len);
        in->events += n;
    }
    return NRT_SUCCESS; /* the run's own files go on; end() reports */
}

ntsim_sim_sink_t ntsim_cli_inspect_sink(ntsim_cli_inspect_t *in)
{
    /* ntrace.pb is dump_trace_info's: the sys_trace events only (the device
     * profile's notifications are not in it). */
    return (ntsim_sim_sink_t){in != NULL && in->harvest ? sink_records : NULL, NULL, in};
}

/* What the session did, one line (nothing when there was none). */
static void report(const ntsim_cli_inspect_t *in, FILE *out)
{
    const ntsim_inspect_config_t *c = &in->cfg;
    const char *device = ntsim_inspect_device_profile_name(c->device_profile);
    if (!c->enabled)
        return;
    if (!in->harvest) {
        fprintf(out, "\ninspect session: system profile off, no %s; device profile %s\n",
                NTRACE_NAME, device);
        return;
    }
    unsigned types = 0, ncs = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        types += c->type_enabled[t];
    for (size_t n = 0; n < NTSIM_NC_COUNT; n++)
        ncs += c->nc_enabled[n];
    fprintf(out, "\ninspect session: %s: %llu events; capturing %u of %d event types on %u of "
                 "%d NCs; device profile %s\n",
            in->path, (unsigned long long)in->events, types, NRT_SYS_TRACE_EVENT_TYPE_COUNT,
            ncs, NTSIM_NC_COUNT, device);
}

int ntsim_cli_inspect_end(ntsim_cli_inspect_t *in, FILE *out, FILE *err)
{
    if (in == NULL)
        return 0;
    if (in->harvest) {
        const uint8_t *piece = NULL;
        size_t len = 0;
        if (in->err == 0 && !in->oom) {
            NRT_STATUS st = ntsim_ntff_writer_finish(in->w, &piece, &len);
            put(in, st, piece, len);
        }
        FILE *f = in->f;
        in->f = NULL;
        if (fclose(f) != 0 && in->err == 0)
            in->err = errno;
        if (in->err != 0 || in->oom) {
            fprintf(err, "ntsim run: %s: cannot write: %s\n", in->path,
                    in->oom ? "out of memory" : strerror(in->err));
            (void)unlink(in->path); /* no partial ntrace.pb left behind */
            return -1;
        }
    }
    if (out != NULL)
        report(in, out);
    return 0;
}

void ntsim_cli_inspect_free(ntsim_cli_inspect_t *in)
{
    if (in == NULL)
        return;
    /* Still open: the run failed before end(); its partial ntrace.pb goes. */
    if (in->f != NULL) {
        (void)fclose(in->f); /* its errors no longer matter: the file goes */
        (void)unlink(in->path);
    }
    ntsim_ntff_writer_free(in->w);
    free(in->path);
    free(in);
}
