/*
 * sim/outputs.c: a run's output files, written while the run goes
 * (sim.h lists them), with their lengths and digests.
 *
 * Nothing is held whole: each drained batch becomes its JSON event objects
 * (ntsim_json_serialize_events) and its NTFF events (ntsim_ntff_writer_*),
 * written and digested at once; each converted notification is one more
 * collected_profile of notifications.ntff. The pieces are the whole
 * documents' bytes in order (the engine's tests pin that), so the files and
 * digests are the same as serializing every record at the end would give.
 * Memory: one batch's text and one NTFF piece at a time.
 */
#define _GNU_SOURCE /* mkdir's mode macros with _POSIX_C_SOURCE */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "intern.h"
#include "sim.h"

int ntsim_mkdir_p(const char *dir)
{
    /* A copy to cut at each '/': any length, never a truncated path. */
    char *tmp = ntsim_strdup(dir);
    if (tmp == NULL) {
        errno = ENOMEM;
        return -1;
    }
    int rc = 0;
    for (char *p = tmp + 1; *p && rc == 0; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            rc = -1;
        *p = '/';
    }
    if (rc == 0 && mkdir(tmp, 0755) != 0 && errno != EEXIST)
        rc = -1;
    int saved = errno;
    free(tmp);
    errno = saved;
    return rc;
}

/* The fixed SipHash key of ntsim_sim_digest (D-SCENARIO-DIGEST). */
#define DIGEST_K0 UINT64_C(0x6e7473696d2d7631)
#define DIGEST_K1 UINT64_C(0x646967657374)

enum { OUT_JSON, OUT_NTFF, OUT_NOTIF, OUT_RECORDS, OUT_COUNT };
_Static_assert((int)OUT_RECORDS == (int)NTSIM_SIM_TRACE_FILES, "the trace files come first, then the dump");

const char *const ntsim_sim_trace_files[NTSIM_SIM_TRACE_FILES] = {"trace.json", "trace.ntff",
                                                                 "notifications.ntff"};

typedef struct out_stream {
    FILE *f;                  /* NULL: digested and measured only */
    ntsim_siphash_t hash;
    uint64_t len;
} out_stream_t;

struct ntsim_sim_writer {
    out_stream_t out[OUT_COUNT];
    ntsim_ntff_writer_t *trace_ntff, *notif_ntff;
    bool digests;             /* hash what is written */
    bool json_opened;         /* NTSIM_JSON_DOC_OPEN written */
    bool json_first;          /* no event object written yet */
    bool finished;
    char arch[NTSIM_SIM_ARCH_CAP];
    uint32_t nd_of_nc[NTSIM_NC_COUNT]; /* each logical NC's device (trace.ntff's nd_idx) */
    int failed;               /* OUT_* of the first failed write, or -1 */
    int err;                  /* its errno */
};

/* Appends bytes to one output: written (if it has a file) and digested. */
static NRT_STATUS put(ntsim_sim_writer_t *w, int which, const void *data, size_t len)
{
    out_stream_t *o = &w->out[which];
    if (len == 0)
        return NRT_SUCCESS;
    if (o->f != NULL && fwrite(data, 1, len, o->f) != len) {
        if (w->failed < 0) {
            w->failed = which;
            w->err = errno != 0 ? errno : EIO;
        }
        return NRT_FAILURE;
    }
    if (w->digests)
        ntsim__siphash13_update(&o->hash, data, len);
    o->len += len;
    return NRT_SUCCESS;
}

void ntsim_sim_ntff_options(const ntsim_scenario_t *sc, char arch[NTSIM_SIM_ARCH_CAP],
                            uint32_t nd_of_nc[NTSIM_NC_COUNT], ntsim_ntff_options_t *opt)
{
    /* D-LNC: logical_nc_size is the physical cores per logical NC; each
     * visible NC's events carry its device, through its instance-wide id. */
    snprintf(arch, NTSIM_SIM_ARCH_CAP, "%s", sc->arch[0] != '\0' ? sc->arch : "ntsim-sim");
    for (uint32_t v = 0; v < NTSIM_NC_COUNT; v++)
        nd_of_nc[v] = v < sc->cores ? ntsim_phys_core(sc, v, 0) / sc->cores_per_device : 0;
    *opt = (ntsim_ntff_options_t){0, arch, 0, sc->seed, sc->lnc, nd_of_nc};
}

NRT_STATUS ntsim_sim_writer_create(const ntsim_scenario_t *sc, const ntsim_output_files_t *files,
                                   ntsim_sim_writer_t **out)
{
    if (sc == NULL || out == NULL)
        return NRT_INVALID;
    ntsim_sim_writer_t *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NRT_RESOURCE;
    FILE *f[OUT_COUNT] = {NULL, NULL, NULL, NULL};
    w->digests = files == NULL || !files->no_digests;
    if (files != NULL) {
        f[OUT_JSON] = files->json;
        f[OUT_NTFF] = files->ntff;
        f[OUT_NOTIF] = files->notif;
        f[OUT_RECORDS] = files->records;
    }
    for (int i = 0; i < OUT_COUNT; i++) {
        w->out[i].f = f[i];
        ntsim__siphash13_init(&w->out[i].hash, DIGEST_K0, DIGEST_K1);
    }
    w->json_first = true;
    w->failed = -1;
    /* The options are copied; arch points into the writer, the device map
     * too. */
    ntsim_ntff_options_t opt;
    ntsim_sim_ntff_options(sc, w->arch, w->nd_of_nc, &opt);
    NRT_STATUS st;
    if ((st = ntsim_ntff_writer_create(&opt, &w->trace_ntff)) != NRT_SUCCESS ||
        (st = ntsim_ntff_writer_create(&opt, &w->notif_ntff)) != NRT_SUCCESS) {
        ntsim_sim_writer_free(w);
        return st;
    }
    *out = w;
    return NRT_SUCCESS;
}

/* The document's head, before its first event or its tail. */
static NRT_STATUS json_open(ntsim_sim_writer_t *w)
{
    if (w->json_opened)
        return NRT_SUCCESS;
    w->json_opened = true;
    return put(w, OUT_JSON, NTSIM_JSON_DOC_OPEN, strlen(NTSIM_JSON_DOC_OPEN));
}

static NRT_STATUS sink_records(void *ctx, const nrt_sys_trace_event_t *records, size_t n)
{
    ntsim_sim_writer_t *w = ctx;
    if (n == 0)
        return NRT_SUCCESS;
    if (json_open(w) != NRT_SUCCESS)
        return NRT_FAILURE;
    char *text = NULL;
    size_t text_len = 0;
    const uint8_t *piece;
    size_t piece_len;
    NRT_STATUS st = ntsim_json_serialize_events(records, n, &text, &text_len);
    if (st == NRT_SUCCESS && !w->json_first)
        st = put(w, OUT_JSON, ",", 1);
    if (st == NRT_SUCCESS)
        st = put(w, OUT_JSON, text, text_len);
    nrt_sys_trace_buffer_free(text);
    w->json_first = false;
    if (st == NRT_SUCCESS &&
        (st = ntsim_ntff_writer_events(w->trace_ntff, records, n, &piece, &piece_len)) ==
            NRT_SUCCESS)
        st = put(w, OUT_NTFF, piece, piece_len);
    if (st == NRT_SUCCESS)
        st = put(w, OUT_RECORDS, records, n * sizeof *records);
    return st;
}

static NRT_STATUS sink_infos(void *ctx, const ntsim_trace_info_t *infos, size_t n)
{
    ntsim_sim_writer_t *w = ctx;
    const uint8_t *piece;
    size_t piece_len;
    NRT_STATUS st = ntsim_ntff_writer_infos(w->notif_ntff, infos, n, &piece, &piece_len);
    return st == NRT_SUCCESS ? put(w, OUT_NOTIF, piece, piece_len) : st;
}

ntsim_sim_sink_t ntsim_sim_writer_sink(ntsim_sim_writer_t *w)
{
    return (ntsim_sim_sink_t){sink_records, sink_infos, w};
}

NRT_STATUS ntsim_sim_writer_finish(ntsim_sim_writer_t *w, ntsim_outputs_t *o)
{
    if (w == NULL || o == NULL || w->finished)
        return NRT_INVALID;
    w->finished = true;
    const uint8_t *piece;
    size_t piece_len;
    NRT_STATUS st = json_open(w);
    if (st == NRT_SUCCESS)
        st = put(w, OUT_JSON, NTSIM_JSON_DOC_CLOSE, strlen(NTSIM_JSON_DOC_CLOSE));
    if (st == NRT_SUCCESS &&
        (st = ntsim_ntff_writer_finish(w->trace_ntff, &piece, &piece_len)) == NRT_SUCCESS)
        st = put(w, OUT_NTFF, piece, piece_len);
    if (st == NRT_SUCCESS &&
        (st = ntsim_ntff_writer_finish(w->notif_ntff, &piece, &piece_len)) == NRT_SUCCESS)
        st = put(w, OUT_NOTIF, piece, piece_len);
    for (int i = 0; i < OUT_COUNT && st == NRT_SUCCESS; i++) {
        if (w->out[i].f != NULL && fflush(w->out[i].f) != 0) {
            w->failed = i;
            w->err = errno;
            st = NRT_FAILURE;
        }
    }
    if (st == NRT_SUCCESS && w->failed >= 0)
        st = NRT_FAILURE; /* a write failed during the run */
    *o = (ntsim_outputs_t){
        w->out[OUT_JSON].len,
        w->out[OUT_NTFF].len,
        w->out[OUT_NOTIF].len,
        w->out[OUT_RECORDS].len,
        w->digests ? ntsim__siphash13_final(&w->out[OUT_JSON].hash) : 0,
        w->digests ? ntsim__siphash13_final(&w->out[OUT_NTFF].hash) : 0,
        w->digests ? ntsim__siphash13_final(&w->out[OUT_NOTIF].hash) : 0,
    };
    return st;
}

const char *ntsim_sim_writer_failed_file(const ntsim_sim_writer_t *w, int *err)
{
    if (w == NULL || w->failed < 0)
        return NULL;
    if (err != NULL)
        *err = w->err;
    return w->failed < NTSIM_SIM_TRACE_FILES ? ntsim_sim_trace_files[w->failed] : "records";
}

void ntsim_sim_writer_free(ntsim_sim_writer_t *w)
{
    if (w == NULL)
        return;
    ntsim_ntff_writer_free(w->trace_ntff);
    ntsim_ntff_writer_free(w->notif_ntff);
    free(w);
}

uint64_t ntsim_sim_digest(const void *data, size_t len)
{
    /* SipHash-1-3 under a fixed key: a regression pin, not a security
     * property (D-SCENARIO-DIGEST). */
    return ntsim__siphash13(DIGEST_K0, DIGEST_K1, data, len);
}
