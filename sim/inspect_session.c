/*
 * sim/inspect_session.c: the inspect session around one run
 * (inspect_session.h, D-INSPECT-ENV).
 */
#include "inspect_session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

struct ntsim_inspect_session {
    ntsim_inspect_config_t cfg;
    bool harvest;                      /* enabled, with the system profile on */
    char *path;                        /* OUTPUT_DIR/ntrace.pb; NULL: no harvest */
    ntsim_output_t *out;               /* written beside path, until taken (D-OUTPUT) */
    FILE *f;                           /* out's stream */
    ntsim_ntff_writer_t *w;
    char arch[NTSIM_SIM_ARCH_CAP];     /* the writer's options point here */
    uint32_t nd_of_nc[NTSIM_NC_COUNT];
    uint64_t events;                   /* records written into ntrace.pb */
    int err;                           /* errno of the first failure; 0: none */
    bool oom;
};

/* One line into errors for a file the session could not make; `st`, or
 * NRT_RESOURCE when the line cannot be kept. */
static NRT_STATUS file_error(ntsim_errors_t *errors, NRT_STATUS st, const char *var,
                             const char *path, const char *what, int err)
{
    if (ntsim_errors_add(errors, "%s%s: %s: %s", var, path, what, strerror(err)) != NRT_SUCCESS)
        return NRT_RESOURCE;
    return st;
}

NRT_STATUS ntsim_inspect_session_open(ntsim_inspect_session_t *s, const ntsim_scenario_t *sc,
                                      ntsim_errors_t *errors)
{
    if (s == NULL || s->path == NULL || s->out != NULL)
        return NRT_SUCCESS;
    const char *dir = s->cfg.output_dir;
    if (ntsim_mkdir_p(dir) != 0)
        return errno == ENOMEM ? NRT_RESOURCE
                               : file_error(errors, NRT_FAILURE, "NEURON_RT_INSPECT_OUTPUT_DIR: ",
                                            dir, "cannot create the output directory", errno);
    char why[1024];
    NRT_STATUS st = ntsim_output_open(&s->out, s->path, why, sizeof why);
    if (st != NRT_SUCCESS)
        return st == NRT_RESOURCE ? NRT_RESOURCE
               : ntsim_errors_add(errors, "%s", why) == NRT_SUCCESS ? NRT_FAILURE
                                                                    : NRT_RESOURCE;
    s->f = ntsim_output_file(s->out);
    ntsim_ntff_options_t opt;
    ntsim_sim_ntff_options(sc, s->arch, s->nd_of_nc, &opt);
    return ntsim_ntff_writer_create(&opt, &s->w) == NRT_SUCCESS ? NRT_SUCCESS : NRT_RESOURCE;
}

const char *ntsim_inspect_session_path(const ntsim_inspect_session_t *s)
{
    return s != NULL ? s->path : NULL;
}

NRT_STATUS ntsim_inspect_session_begin(char *const *env, ntsim_scenario_t *sc,
                                       ntsim_inspect_session_t **out, ntsim_errors_t *errors,
                                       ntsim_errors_t *warnings)
{
    ntsim_inspect_session_t *s = calloc(1, sizeof *s);
    *out = s;
    if (s == NULL)
        return NRT_RESOURCE;
    NRT_STATUS st = ntsim_inspect_env_read(env, &s->cfg, errors, warnings);
    if (st != NRT_SUCCESS)
        return st;
    s->harvest = s->cfg.enabled && s->cfg.system_profile;
    ntsim_inspect_apply(&s->cfg, sc);
    if ((st = ntsim_inspect_check_scenario(&s->cfg, sc, warnings)) != NRT_SUCCESS)
        return st;
    if (!s->harvest)
        return NRT_SUCCESS;
    size_t len = strlen(s->cfg.output_dir) + sizeof "/" NTSIM_INSPECT_NTRACE_NAME;
    if ((s->path = malloc(len)) == NULL)
        return NRT_RESOURCE;
    snprintf(s->path, len, "%s/%s", s->cfg.output_dir, NTSIM_INSPECT_NTRACE_NAME);
    return NRT_SUCCESS;
}

/* Appends one piece of the writer's output; the first failure is kept. */
static void put(ntsim_inspect_session_t *s, NRT_STATUS st, const uint8_t *piece, size_t len)
{
    if (s->err != 0 || s->oom)
        return;
    if (st != NRT_SUCCESS)
        s->oom = true; /* the writer's only failure with valid arguments */
    else if (len > 0 && fwrite(piece, 1, len, s->f) != len)
        s->err = errno != 0 ? errno : EIO;
}

static NRT_STATUS sink_records(void *ctx, const nrt_sys_trace_event_t *records, size_t n)
{
    ntsim_inspect_session_t *s = ctx;
    const uint8_t *piece = NULL;
    size_t len = 0;
    if (s->err == 0 && !s->oom) {
        NRT_STATUS st = ntsim_ntff_writer_events(s->w, records, n, &piece, &len);
        put(s, st, piece, len);
        s->events += n;
    }
    return NRT_SUCCESS; /* the run's own files go on; end() reports */
}

ntsim_sim_sink_t ntsim_inspect_session_sink(ntsim_inspect_session_t *s)
{
    /* ntrace.pb is dump_trace_info's: the sys_trace events only (the device
     * profile's notifications are not in it). */
    return (ntsim_sim_sink_t){s != NULL && s->harvest ? sink_records : NULL, NULL, s};
}

NRT_STATUS ntsim_inspect_session_end(ntsim_inspect_session_t *s, ntsim_errors_t *errors)
{
    if (s == NULL || !s->harvest || s->out == NULL)
        return NRT_SUCCESS;
    const uint8_t *piece = NULL;
    size_t len = 0;
    if (s->err == 0 && !s->oom) {
        NRT_STATUS st = ntsim_ntff_writer_finish(s->w, &piece, &len);
        put(s, st, piece, len);
    }
    if (s->err == 0 && !s->oom)
        return NRT_SUCCESS; /* whole in its temporary file: the caller commits it */
    ntsim_output_abort(s->out); /* no partial ntrace.pb; an earlier one stays */
    s->out = NULL;
    s->f = NULL;
    if (s->oom)
        return ntsim_errors_add(errors, "%s: cannot write: out of memory", s->path) == NRT_SUCCESS
                   ? NRT_FAILURE
                   : NRT_RESOURCE;
    return file_error(errors, NRT_FAILURE, "", s->path, "cannot write", s->err);
}

ntsim_output_t *ntsim_inspect_session_take(ntsim_inspect_session_t *s)
{
    if (s == NULL)
        return NULL;
    ntsim_output_t *o = s->out;
    s->out = NULL;
    s->f = NULL;
    return o;
}

void ntsim_inspect_session_report(const ntsim_inspect_session_t *s, FILE *out)
{
    if (s == NULL || !s->cfg.enabled)
        return;
    const ntsim_inspect_config_t *c = &s->cfg;
    const char *device = ntsim_inspect_device_profile_name(c->device_profile);
    if (!s->harvest) {
        fprintf(out, "\ninspect session: system profile off, no %s; device profile %s\n",
                NTSIM_INSPECT_NTRACE_NAME, device);
        return;
    }
    unsigned types = 0, ncs = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        types += c->type_enabled[t];
    for (size_t n = 0; n < NTSIM_NC_COUNT; n++)
        ncs += c->nc_enabled[n];
    fprintf(out, "\ninspect session: %s: %llu events; capturing %u of %d event types on %u of "
                 "%d NCs; device profile %s\n",
            s->path, (unsigned long long)s->events, types, NRT_SYS_TRACE_EVENT_TYPE_COUNT, ncs,
            NTSIM_NC_COUNT, device);
}

void ntsim_inspect_session_free(ntsim_inspect_session_t *s)
{
    if (s == NULL)
        return;
    /* Not taken: the run failed before it was committed; an earlier
     * ntrace.pb stays as it was. */
    ntsim_output_abort(s->out);
    ntsim_ntff_writer_free(s->w);
    free(s->path);
    free(s);
}
