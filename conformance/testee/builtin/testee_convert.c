/*
 * conformance/testee/builtin/testee_convert.c: the built-in testee's converter answers:
 *
 *   json    records -> ntsim_json_serialize, with the request's gid map and
 *           exec -> model table installed for the call (restored after);
 *           or bytes -> ntsim_json_escape (the json_escape capability)
 *   ntff    records and trace_infos -> ntsim_ntff_serialize
 *   notify  one notification type -> ntsim_notify_wrap, or appends per TopSP
 *           -> the EXPLICIT path (ntsim_explicit_*), with the converter's
 *           counters before and after
 */
#include <stdlib.h>
#include <string.h>

#include "capture_fixture.h"
#include "ntsim/convert.h"
#include "testee_engine_int.h"

/* --- json --------------------------------------------------------------------------- */

typedef struct model_table {
    const NtsimTestee__JsonRequest *q;
} model_table_t;

static uint64_t lookup_model(uint64_t exec_id, void *ctx)
{
    const NtsimTestee__JsonRequest *q = ((const model_table_t *)ctx)->q;
    for (size_t i = 0; i < q->n_models; i++)
        if (q->models[i]->exec_id == exec_id)
            return q->models[i]->model_id;
    return 0;
}

static NRT_STATUS json_escape(const NtsimTestee__JsonRequest *q, ntsim_arena_t *a,
                              NtsimTestee__JsonReply *m)
{
    const char *s = (const char *)q->string.data;
    size_t need = ntsim_json_escape(s, q->string.len, NULL, 0);
    char *lit = ntsim_arena_alloc(a, need + 1);
    if (lit == NULL)
        return NRT_RESOURCE;
    size_t n = ntsim_json_escape(s, q->string.len, lit, need + 1);
    m->has_document = 1;
    m->document.data = (uint8_t *)lit;
    m->document.len = n < need ? n : need;
    return NRT_SUCCESS;
}

static NRT_STATUS json_document(const NtsimTestee__JsonRequest *q, ntsim_arena_t *a,
                                NtsimTestee__JsonReply *m, char *err, size_t cap)
{
    nrt_sys_trace_event_t *recs = NULL;
    size_t bad = 0;
    if (!ntsim_testee_records_read(q->records, q->n_records, &recs, &bad)) {
        if (bad == SIZE_MAX)
            return NRT_RESOURCE;
        snprintf(err, cap, "records[%zu] has %zu bytes, not 112", bad, q->records[bad].len);
        return NRT_INVALID;
    }
    /* An empty map is a map of no NC (every worker_gid -1, D-WORKER-GID),
     * not NULL, which restores the identity: protobuf-c gives it no array. */
    static const int32_t no_nc[1];
    const int32_t *gids = q->n_gid_map > 0 ? q->gid_map : no_nc;
    if (q->has_gid_map && (q->n_gid_map > NTSIM_NC_COUNT ||
                           ntsim_json_set_gid_map(gids, q->n_gid_map) != NRT_SUCCESS)) {
        free(recs);
        snprintf(err, cap, "gid_map has %zu entries, above %d", q->n_gid_map, NTSIM_NC_COUNT);
        return NRT_INVALID;
    }
    model_table_t table = {q};
    (void)ntsim_json_set_model_lookup(lookup_model, &table); /* always NRT_SUCCESS */
    if (q->log) {
        ntsim_fixture_log_begin();
        ntsim_json_reset_stats(); /* re-arms the once-per-type warnings */
    }
    char *doc = NULL;
    size_t len = 0;
    m->status = ntsim_json_serialize(recs, q->n_records, &doc, &len);
    if (q->log)
        ntsim_fixture_log_end();
    (void)ntsim_json_set_gid_map(NULL, 0); /* restoring the default cannot fail */
    (void)ntsim_json_set_model_lookup(NULL, NULL);
    free(recs);
    bool ok = (!q->log || (m->log = ntsim__testee_log(a)) != NULL) &&
              (m->status != NRT_SUCCESS || ntsim_arena_bytes(a, doc, len, &m->document));
    m->has_document = m->status == NRT_SUCCESS;
    nrt_sys_trace_buffer_free(doc);
    return ok ? NRT_SUCCESS : NRT_RESOURCE;
}

NRT_STATUS ntsim__testee_json(const NtsimTestee__Request *q, ntsim_arena_t *a,
                              NtsimTestee__Response *out, char *err, size_t cap)
{
    NtsimTestee__JsonReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__json_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_JSON;
    out->json = m;
    return q->json->has_string ? json_escape(q->json, a, m)
                               : json_document(q->json, a, m, err, cap);
}

/* --- ntff ----------------------------------------------------------------------------- */

static NRT_STATUS ntff_infos(const NtsimTestee__NtffRequest *r, ntsim_arena_t *a,
                             ntsim_trace_info_t **out)
{
    ntsim_trace_info_t *infos = ntsim_arena_array(a, r->n_infos, sizeof *infos);
    if (infos == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < r->n_infos; i++) {
        const NtsimTestee__TraceInfo *in = r->infos[i];
        infos[i] = (ntsim_trace_info_t){in->trace_type, in->block_type, in->nc_idx,
                                        in->has_payload ? in->payload.data : NULL,
                                        in->has_payload ? in->payload.len : 0};
    }
    *out = infos;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim__testee_ntff(const NtsimTestee__Request *q, ntsim_arena_t *a,
                              NtsimTestee__Response *out, char *err, size_t cap)
{
    const NtsimTestee__NtffRequest *r = q->ntff;
    NtsimTestee__NtffReply *m = ntsim_arena_alloc(a, sizeof *m);
    ntsim_trace_info_t *infos = NULL;
    if (m == NULL || ntff_infos(r, a, &infos) != NRT_SUCCESS)
        return NRT_RESOURCE;
    ntsim_testee__ntff_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_NTFF;
    out->ntff = m;
    nrt_sys_trace_event_t *recs = NULL;
    size_t bad = 0;
    if (!ntsim_testee_records_read(r->records, r->n_records, &recs, &bad)) {
        if (bad == SIZE_MAX)
            return NRT_RESOURCE;
        snprintf(err, cap, "records[%zu] has %zu bytes, not 112", bad, r->records[bad].len);
        return NRT_INVALID;
    }
    const NtsimTestee__NtffOptions *o = r->options;
    ntsim_ntff_options_t opt = {o->nd_idx, o->arch, o->pid, o->session_id,
                                o->logical_nc_size, NULL};
    uint8_t *bytes = NULL;
    size_t len = 0;
    m->status = ntsim_ntff_serialize(recs, r->n_records, infos, r->n_infos, &opt, &bytes, &len);
    free(recs);
    bool ok = m->status != NRT_SUCCESS || ntsim_arena_bytes(a, bytes, len, &m->ntff);
    m->has_ntff = m->status == NRT_SUCCESS;
    ntsim_buffer_free(bytes);
    return ok ? NRT_SUCCESS : NRT_RESOURCE;
}

/* --- notify ------------------------------------------------------------------------------ */

/* The most TopSPs an EXPLICIT request may name (a device has a handful). */
#define MAX_TOPSP 65536u

static NtsimTestee__TraceInfo *info_reply(ntsim_arena_t *a, const ntsim_trace_info_t *in)
{
    NtsimTestee__TraceInfo *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NULL;
    ntsim_testee__trace_info__init(m);
    m->trace_type = in->trace_type;
    m->block_type = in->block_type;
    m->has_nc_idx = 1;
    m->nc_idx = in->nc_idx;
    m->has_payload = 1;
    return ntsim_arena_bytes(a, in->payload, in->payload_len, &m->payload) ? m : NULL;
}

static NRT_STATUS counts_reply(ntsim_arena_t *a, const ntsim_notify_stats_t *before,
                               NtsimTestee__NotifyReply *m)
{
    ntsim_notify_stats_t after;
    (void)ntsim_notify_stats(&after); /* a stack struct: cannot fail */
    NtsimTestee__NotifyCounts *c = ntsim_arena_alloc(a, sizeof *c);
    if (c == NULL)
        return NRT_RESOURCE;
    ntsim_testee__notify_counts__init(c);
    c->converted = after.converted - before->converted;
    c->dropped = after.dropped - before->dropped;
    c->dropped_cc_status = after.dropped_cc_status - before->dropped_cc_status;
    c->dropped_max = after.dropped_max - before->dropped_max;
    c->dropped_out_of_range = after.dropped_out_of_range - before->dropped_out_of_range;
    m->counts = c;
    return NRT_SUCCESS;
}

static NRT_STATUS notify_convert(const NtsimTestee__NotifyRequest *r, ntsim_arena_t *a,
                                 NtsimTestee__NotifyReply *m)
{
    ntsim_trace_info_t info;
    memset(&info, 0x5a, sizeof info); /* must stay untouched on a drop */
    ntsim_trace_info_t sentinel = info;
    m->status = ntsim_notify_wrap(r->notification_type, r->nc_idx,
                                  r->has_payload ? r->payload.data : NULL,
                                  r->has_payload ? r->payload.len : 0, &info);
    if (m->status != NRT_SUCCESS) {
        m->has_outputs_untouched = 1;
        m->outputs_untouched = memcmp(&info, &sentinel, sizeof info) == 0;
        return NRT_SUCCESS;
    }
    return (m->info = info_reply(a, &info)) != NULL ? NRT_SUCCESS : NRT_RESOURCE;
}

static NRT_STATUS notify_explicit(const NtsimTestee__NotifyRequest *r, ntsim_arena_t *a,
                                  NtsimTestee__NotifyReply *m)
{
    ntsim_explicit_notifs_t *x = NULL;
    if ((m->status = ntsim_explicit_create(r->num_topsp, &x)) != NRT_SUCCESS)
        return NRT_SUCCESS;
    ntsim_trace_info_t *infos = ntsim_arena_array(a, r->num_topsp, sizeof *infos);
    m->append_status = ntsim_arena_array(a, r->n_appends, sizeof *m->append_status);
    m->infos = ntsim_arena_array(a, r->num_topsp, sizeof *m->infos);
    NRT_STATUS st = infos && m->append_status && m->infos ? NRT_SUCCESS : NRT_RESOURCE;
    for (size_t i = 0; st == NRT_SUCCESS && i < r->n_appends; i++)
        m->append_status[m->n_append_status++] = ntsim_explicit_append(
            x, r->appends[i]->topsp, r->appends[i]->bytes.data, r->appends[i]->bytes.len);
    size_t n = 0;
    if (st == NRT_SUCCESS) {
        m->has_collect_status = 1;
        m->collect_status = ntsim_explicit_collect(x, infos, r->num_topsp, &n);
    }
    for (size_t i = 0; st == NRT_SUCCESS && m->collect_status == NRT_SUCCESS && i < n; i++)
        if ((m->infos[m->n_infos++] = info_reply(a, &infos[i])) == NULL)
            st = NRT_RESOURCE;
    ntsim_explicit_free(x);
    return st;
}

NRT_STATUS ntsim__testee_notify(const NtsimTestee__Request *q, ntsim_arena_t *a,
                                NtsimTestee__Response *out, char *err, size_t cap)
{
    const NtsimTestee__NotifyRequest *r = q->notify;
    if (r->has_notification_type == r->has_num_topsp) {
        snprintf(err, cap, "give notification_type or num_topsp");
        return NRT_INVALID;
    }
    if (r->num_topsp > MAX_TOPSP) {
        snprintf(err, cap, "num_topsp %u is above %u", r->num_topsp, MAX_TOPSP);
        return NRT_INVALID;
    }
    NtsimTestee__NotifyReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__notify_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_NOTIFY;
    out->notify = m;
    ntsim_fixture_begin(0, 0, 0); /* keeps the log */
    ntsim_notify_stats_t before;
    (void)ntsim_notify_stats(&before); /* a stack struct: cannot fail */
    NRT_STATUS st = r->has_num_topsp ? notify_explicit(r, a, m) : notify_convert(r, a, m);
    if (st == NRT_SUCCESS && r->stats)
        st = counts_reply(a, &before, m);
    if (st == NRT_SUCCESS && r->log && (m->log = ntsim__testee_log(a)) == NULL)
        st = NRT_RESOURCE;
    ntsim_fixture_end();
    return st;
}
