/*
 * sim/sim_run.c: a scenario run through the streaming writer, with
 * records picked out on the way (sim_run.h).
 */
#include "sim_run.h"

#include <stdlib.h>
#include <string.h>

typedef struct tee {
    ntsim_sim_sink_t next;
    const ntsim_sim_sink_t *also; /* may be NULL */
    ntsim_run_picks_t *picks;
    ntsim_run_keep_t *keep;
    uint64_t seen;
} tee_t;

/* Appends to the kept records, or lets them all go past the limit. */
static NRT_STATUS keep_records(ntsim_run_keep_t *k, const nrt_sys_trace_event_t *recs, size_t n)
{
    if (k == NULL || k->overflowed || n == 0)
        return NRT_SUCCESS;
    if (n > k->max - k->count) {
        free(k->records);
        *k = (ntsim_run_keep_t){k->max, NULL, 0, 0, true};
        return NRT_SUCCESS;
    }
    if (k->count + n > k->cap) {
        size_t cap = k->cap ? k->cap : 4096;
        while (cap < k->count + n)
            cap *= 2;
        nrt_sys_trace_event_t *grown = realloc(k->records, cap * sizeof *grown);
        if (grown == NULL)
            return NRT_RESOURCE;
        k->records = grown;
        k->cap = cap;
    }
    memcpy(k->records + k->count, recs, n * sizeof *recs);
    k->count += n;
    return NRT_SUCCESS;
}

static NRT_STATUS tee_records(void *ctx, const nrt_sys_trace_event_t *recs, size_t n)
{
    tee_t *t = ctx;
    ntsim_run_picks_t *p = t->picks;
    if (p != NULL && n > 0) {
        if (t->seen == 0)
            p->first = recs[0];
        p->last = recs[n - 1];
        for (size_t i = 0; i < p->count; i++) {
            if (p->indices[i] >= t->seen && p->indices[i] - t->seen < n) {
                p->kept[i] = recs[p->indices[i] - t->seen];
                p->found[i] = true;
            }
        }
    }
    t->seen += n;
    NRT_STATUS st = keep_records(t->keep, recs, n);
    if (st == NRT_SUCCESS)
        st = t->next.records(t->next.ctx, recs, n);
    if (st == NRT_SUCCESS && t->also != NULL && t->also->records != NULL)
        st = t->also->records(t->also->ctx, recs, n);
    return st;
}

static NRT_STATUS tee_infos(void *ctx, const ntsim_trace_info_t *infos, size_t n)
{
    tee_t *t = ctx;
    NRT_STATUS st = t->next.infos(t->next.ctx, infos, n);
    if (st == NRT_SUCCESS && t->also != NULL && t->also->infos != NULL)
        st = t->also->infos(t->also->ctx, infos, n);
    return st;
}

NRT_STATUS ntsim_run_scenario(const ntsim_scenario_t *sc, ntsim_run_io_t *io,
                              ntsim_run_result_t *r, ntsim_outputs_t *o)
{
    return ntsim_run_scenario_also(sc, io, NULL, r, o);
}

NRT_STATUS ntsim_run_scenario_also(const ntsim_scenario_t *sc, ntsim_run_io_t *io,
                                   const ntsim_sim_sink_t *also, ntsim_run_result_t *r,
                                   ntsim_outputs_t *o)
{
    io->failed_file = NULL;
    io->failed_errno = 0;
    memset(o, 0, sizeof *o);
    if (io->picks != NULL)
        for (size_t i = 0; i < io->picks->count; i++)
            io->picks->found[i] = false;
    ntsim_sim_writer_t *w = NULL;
    NRT_STATUS st = ntsim_sim_writer_create(sc, &io->files, &w);
    if (st != NRT_SUCCESS) {
        memset(r, 0, sizeof *r);
        io->failed_file = ntsim_sim_writer_failed_file(w, &io->failed_errno);
        return st;
    }
    tee_t tee = {ntsim_sim_writer_sink(w), also, io->picks, io->keep, 0};
    ntsim_sim_sink_t sink = {tee_records, tee_infos, &tee};
    st = ntsim_sim_run(sc, &sink, io->progress, io->progress_ctx, r);
    /* The tails are written even after a failed run: the files then end as
     * valid documents of what was captured. The run's status comes first. */
    NRT_STATUS fin = ntsim_sim_writer_finish(w, o);
    if (st == NRT_SUCCESS)
        st = fin;
    io->failed_file = ntsim_sim_writer_failed_file(w, &io->failed_errno);
    ntsim_sim_writer_free(w);
    return st;
}
