/*
 * conformance/kinds/kind_notify.c: `notify` vectors — a device notification type
 * through the converter, or CC-status bytes through the EXPLICIT path.
 *
 *   - id: notify.dma                          # the converter
 *     notification_type: 4                    # any int32, negative included
 *     trace_type: 4                           # expected (valid vectors)
 *     block_type: 1
 *   - id: notify.topsp_cc_status.dropped
 *     expect: invalid
 *     error: "Invalid notification type: 9"   # the text the spec quotes, which
 *                                             # the one error logged must hold
 *     notification_type: 9
 *     dropped_reason: cc_status               # cc_status | max | out_of_range
 *   - id: notify.explicit.two_topsps           # the EXPLICIT path
 *     explicit:
 *       num_topsp: 2
 *       appends: [{topsp: 0, bytes: "0102"}, {topsp: 1, bytes: "03"}]
 *     infos:                                  # expected, one per TopSP
 *       - {trace_type: 3, block_type: 2, nc_idx: 0, payload: "0102"}
 *
 * The vector is one NotifyRequest to the testee (testee.proto; the built-in
 * testee converts in testee_convert.c): a converter request wraps the
 * payload 01 02 03 04 for NC 3, which must come back as it was. An invalid
 * vector also checks that the outputs were left untouched, that one message
 * was logged at error and holds `error` as a whole (log; log_expect.h) and
 * that exactly one drop was counted, under the right reason (stats). A
 * converted one logs nothing at error or warning.
 */
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "record_input.h"
#include "testee.h"

typedef struct append_in {
    uint32_t topsp;
    uint8_t *bytes;
    size_t len;
} append_in_t;

typedef struct info_want {
    int64_t trace_type, block_type;
    uint64_t nc_idx;
    uint8_t *payload;
    size_t len;
} info_want_t;

typedef struct notify_body {
    bool is_explicit;
    int64_t type;
    int64_t trace_type, block_type;
    bool has_expected;
    char *reason;
    uint64_t num_topsp;
    append_in_t *appends;
    size_t append_count;
    info_want_t *infos;
    size_t info_count;
} notify_body_t;

static const char *const notify_keys[] = {"notification_type", "trace_type", "block_type",
                                          "dropped_reason", "explicit", "infos", NULL};
static const char *const explicit_keys[] = {"num_topsp", "appends", NULL};
static const char *const append_keys[] = {"topsp", "bytes", NULL};
static const char *const info_keys[] = {"trace_type", "block_type", "nc_idx", "payload", NULL};
static const char *const reasons[] = {"cc_status", "max", "out_of_range", NULL};

static void notify_free(void *body)
{
    notify_body_t *b = body;
    for (size_t i = 0; i < b->append_count; i++)
        free(b->appends[i].bytes);
    for (size_t i = 0; i < b->info_count; i++)
        free(b->infos[i].payload);
    free(b->appends);
    free(b->infos);
    free(b->reason);
    free(b);
}

static NRT_STATUS hex_bytes(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                            const char *key, uint8_t **out, size_t *len)
{
    const char *text = "";
    NRT_STATUS st = ntsim_yp_str(p, map, path, key, false, &text);
    if (st != NRT_SUCCESS)
        return st;
    size_t digits = 0;
    for (const char *c = text; *c; c++)
        digits += (*c != ' ');
    *len = digits / 2;
    *out = malloc(*len ? *len : 1);
    if (*out == NULL)
        return NRT_RESOURCE;
    if (digits % 2 != 0 || (*len > 0 && !ntsim_vec_parse_hex(text, *out, *len))) {
        char field[512];
        ntsim_yp_path(field, sizeof field, "%s.%s", path, key);
        return ntsim_yp_error(p, ntsim_yp_get(p, map, key), field, "expected hex bytes");
    }
    return NRT_SUCCESS;
}

/* The EXPLICIT form: appends per TopSP, then the trace_infos expected. */
static NRT_STATUS parse_explicit(ntsim_yparse_t *p, yaml_node_t *node, yaml_node_t *ex,
                                 const char *path, notify_body_t *b)
{
    NRT_STATUS st;
    char epath[512];
    ntsim_yp_path(epath, sizeof epath, "%s.explicit", path);
    yaml_node_item_t *items;
    size_t n;
    if ((st = ntsim_yp_check_keys(p, ex, epath, explicit_keys, NULL)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, ex, epath, "num_topsp", true, 1024, &b->num_topsp)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_seq(p, ex, epath, "appends", &items, &n)) != NRT_SUCCESS)
        return st;
    if ((b->appends = calloc(n, sizeof *b->appends)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *a = ntsim_yp_node(p, items[i]);
        char apath[520];
        ntsim_yp_path(apath, sizeof apath, "%s.appends[%zu]", epath, i);
        uint64_t topsp;
        if ((st = ntsim_yp_check_keys(p, a, apath, append_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, a, apath, "topsp", true, UINT32_MAX, &topsp)) !=
                NRT_SUCCESS)
            return st;
        b->append_count = i + 1;
        b->appends[i].topsp = (uint32_t)topsp;
        if ((st = hex_bytes(p, a, apath, "bytes", &b->appends[i].bytes,
                            &b->appends[i].len)) != NRT_SUCCESS)
            return st;
    }
    yaml_node_item_t *wants;
    size_t nw;
    if ((st = ntsim_yp_seq(p, node, path, "infos", &wants, &nw)) != NRT_SUCCESS)
        return st;
    if ((b->infos = calloc(nw, sizeof *b->infos)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < nw; i++) {
        yaml_node_t *w = ntsim_yp_node(p, wants[i]);
        char wpath[520];
        ntsim_yp_path(wpath, sizeof wpath, "%s.infos[%zu]", path, i);
        info_want_t *iw = &b->infos[i];
        if ((st = ntsim_yp_check_keys(p, w, wpath, info_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_int(p, w, wpath, "trace_type", true, INT32_MIN, INT32_MAX,
                               &iw->trace_type)) != NRT_SUCCESS ||
            (st = ntsim_yp_int(p, w, wpath, "block_type", true, INT32_MIN, INT32_MAX,
                               &iw->block_type)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, w, wpath, "nc_idx", true, UINT32_MAX, &iw->nc_idx)) !=
                NRT_SUCCESS)
            return st;
        b->info_count = i + 1;
        if ((st = hex_bytes(p, w, wpath, "payload", &iw->payload, &iw->len)) != NRT_SUCCESS)
            return st;
    }
    return NRT_SUCCESS;
}

static NRT_STATUS notify_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               void **out)
{
    notify_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    NRT_STATUS st;
    const char *expect = "valid";
    /* The common keys were read (and checked) by the loader before this. */
    (void)ntsim_yp_str(p, node, path, "expect", false, &expect);
    bool invalid = strcmp(expect, "invalid") == 0;
    yaml_node_t *ex = ntsim_yp_get(p, node, "explicit");
    if (ex != NULL) {
        b->is_explicit = true;
        return parse_explicit(p, node, ex, path, b);
    }
    if ((st = ntsim_yp_int(p, node, path, "notification_type", true, INT32_MIN, INT32_MAX,
                           &b->type)) != NRT_SUCCESS)
        return st;
    if (invalid) {
        const char *reason;
        if ((st = ntsim_yp_str(p, node, path, "dropped_reason", true, &reason)) != NRT_SUCCESS)
            return st;
        bool known = false;
        for (const char *const *r = reasons; *r; r++)
            known |= strcmp(*r, reason) == 0;
        if (!known) {
            char field[512];
            ntsim_yp_path(field, sizeof field, "%s.dropped_reason", path);
            return ntsim_yp_error(p, ntsim_yp_get(p, node, "dropped_reason"), field,
                                  "expected cc_status, max or out_of_range, got '%s'", reason);
        }
        if ((b->reason = ntsim_strdup(reason)) == NULL)
            return NRT_RESOURCE;
        return NRT_SUCCESS;
    }
    b->has_expected = true;
    if ((st = ntsim_yp_int(p, node, path, "trace_type", true, INT32_MIN, INT32_MAX,
                           &b->trace_type)) != NRT_SUCCESS ||
        (st = ntsim_yp_int(p, node, path, "block_type", true, INT32_MIN, INT32_MAX,
                           &b->block_type)) != NRT_SUCCESS)
        return st;
    return NRT_SUCCESS;
}

/* The reply's log against want (log_expect.h), when the testee has the
 * log capability. */
static void judge_log(const ntsim_vector_t *v, const NtsimTestee__NotifyReply *m, unsigned caps,
                      const ntsim_vec_log_t *want, ntsim_report_t *r)
{
    if (!(caps & NTSIM_TESTEE_CAP_LOG))
        return;
    if (m->log == NULL)
        ntsim_report_add(r, v->id, "log", "expected what was logged, the reply has no log");
    else
        ntsim_vec_check_log(want, m->log->lines, m->log->n_lines, m->log->count, v->id, r);
}

static void judge_explicit(const ntsim_vector_t *v, const NtsimTestee__NotifyReply *m,
                           unsigned caps, ntsim_report_t *r)
{
    const notify_body_t *b = v->body;
    if (m->status != NRT_SUCCESS) {
        ntsim_report_add(r, v->id, "explicit", "expected ntsim_explicit_create to succeed");
        return;
    }
    if (m->n_append_status != b->append_count)
        ntsim_report_add(r, v->id, "explicit", "expected %zu append statuses, got %zu",
                         b->append_count, m->n_append_status);
    for (size_t i = 0; i < m->n_append_status; i++)
        if (m->append_status[i] != NRT_SUCCESS)
            ntsim_report_add(r, v->id, "explicit", "expected append %zu to succeed", i);
    if (!m->has_collect_status || m->collect_status != NRT_SUCCESS)
        ntsim_report_add(r, v->id, "explicit", "expected collect to succeed");
    if ((caps & NTSIM_TESTEE_CAP_STATS) && (m->counts == NULL || m->counts->dropped != 0))
        ntsim_report_add(r, v->id, "dropped", "expected the EXPLICIT path to bypass the "
                                              "converter, got %llu drops",
                         m->counts ? (unsigned long long)m->counts->dropped : 0ull);
    if (m->n_infos != b->info_count)
        ntsim_report_add(r, v->id, "infos", "expected %zu trace_infos, got %zu", b->info_count,
                         m->n_infos);
    char subid[256];
    for (size_t i = 0; i < m->n_infos && i < b->info_count; i++) {
        const info_want_t *w = &b->infos[i];
        const NtsimTestee__TraceInfo *got = m->infos[i];
        ntsim_yp_path(subid, sizeof subid, "%s.infos[%zu]", v->id, i);
        if (got->trace_type != w->trace_type)
            ntsim_report_add(r, subid, "trace_type", "expected %lld, got %d",
                             (long long)w->trace_type, got->trace_type);
        if (got->block_type != w->block_type)
            ntsim_report_add(r, subid, "block_type", "expected %lld, got %d",
                             (long long)w->block_type, got->block_type);
        if (got->nc_idx != w->nc_idx)
            ntsim_report_add(r, subid, "nc_idx", "expected %llu, got %u",
                             (unsigned long long)w->nc_idx, got->nc_idx);
        if (got->payload.len != w->len ||
            (w->len > 0 && memcmp(got->payload.data, w->payload, w->len) != 0))
            ntsim_report_add(r, subid, "payload", "expected %zu bytes, got %zu differing", w->len,
                             got->payload.len);
    }
}

/* The payload every converter request wraps, for NC 3: it must come back. */
static const uint8_t wrap_payload[4] = {1, 2, 3, 4};
#define WRAP_NC 3

static void judge_converted(const ntsim_vector_t *v, const NtsimTestee__NotifyReply *m,
                            unsigned caps, ntsim_report_t *r)
{
    const notify_body_t *b = v->body;
    const NtsimTestee__TraceInfo *out = m->info;
    if (m->status != NRT_SUCCESS || out == NULL)
        ntsim_report_add(r, v->id, "status", "expected NRT_SUCCESS, got %d", m->status);
    else {
        if (out->trace_type != b->trace_type)
            ntsim_report_add(r, v->id, "trace_type", "expected %lld, got %d",
                             (long long)b->trace_type, out->trace_type);
        if (out->block_type != b->block_type)
            ntsim_report_add(r, v->id, "block_type", "expected %lld, got %d",
                             (long long)b->block_type, out->block_type);
        if (out->nc_idx != WRAP_NC || out->payload.len != sizeof wrap_payload ||
            memcmp(out->payload.data, wrap_payload, sizeof wrap_payload) != 0)
            ntsim_report_add(r, v->id, "wrap", "expected nc_idx 3 and the payload kept");
    }
    if ((caps & NTSIM_TESTEE_CAP_STATS) && (m->counts == NULL || m->counts->converted != 1))
        ntsim_report_add(r, v->id, "converted", "expected one conversion counted");
    /* Nothing at error or warning (D-NOTIFY). */
    const ntsim_vec_log_t nothing = {true, NULL, 0};
    judge_log(v, m, caps, &nothing, r);
}

static uint64_t drops_by_reason(const NtsimTestee__NotifyCounts *c, const char *reason)
{
    return strcmp(reason, "cc_status") == 0 ? c->dropped_cc_status
           : strcmp(reason, "max") == 0     ? c->dropped_max
                                            : c->dropped_out_of_range;
}

static void judge_dropped(const ntsim_vector_t *v, const NtsimTestee__NotifyReply *m,
                          unsigned caps, ntsim_report_t *r)
{
    const notify_body_t *b = v->body;
    if (m->status != NRT_INVALID)
        ntsim_report_add(r, v->id, "status", "expected NRT_INVALID (2), got %d", m->status);
    if (!m->has_outputs_untouched || !m->outputs_untouched)
        ntsim_report_add(r, v->id, "outputs", "expected the outputs untouched");
    /* One error holding the text the spec quotes (`error`), nothing else
     * at error or warning (S5.convert.default: nlog; D-NOTIFY). */
    ntsim_log_part_t quoted = {NTSIM_LOG_PART_TEXT, v->error, 0, 0};
    ntsim_log_entry_t one = {NTSIM_LOG_ERROR, &quoted, 1};
    const ntsim_vec_log_t want = {true, &one, 1};
    judge_log(v, m, caps, &want, r);
    if (!(caps & NTSIM_TESTEE_CAP_STATS))
        return;
    const NtsimTestee__NotifyCounts *c = m->counts;
    if (c == NULL || c->dropped != 1)
        ntsim_report_add(r, v->id, "dropped", "expected one drop counted, got %llu",
                         c ? (unsigned long long)c->dropped : 0ull);
    if (c == NULL || drops_by_reason(c, b->reason) != 1)
        ntsim_report_add(r, v->id, "dropped_reason", "expected the drop counted as %s",
                         b->reason);
    if (c == NULL || c->converted != 0)
        ntsim_report_add(r, v->id, "converted", "expected no conversion counted");
}

/* The vector as one NotifyRequest (from the arena); false when out of memory. */
static bool notify_request(const notify_body_t *b, unsigned caps, ntsim_arena_t *a,
                           NtsimTestee__NotifyRequest *q)
{
    ntsim_testee__notify_request__init(q);
    q->has_log = q->log = (caps & NTSIM_TESTEE_CAP_LOG) != 0 && !b->is_explicit;
    q->has_stats = q->stats = (caps & NTSIM_TESTEE_CAP_STATS) != 0;
    if (!b->is_explicit) {
        q->has_notification_type = q->has_nc_idx = q->has_payload = 1;
        q->notification_type = (int32_t)b->type;
        q->nc_idx = WRAP_NC;
        return ntsim_arena_bytes(a, wrap_payload, sizeof wrap_payload, &q->payload);
    }
    q->has_num_topsp = 1;
    q->num_topsp = (uint32_t)b->num_topsp;
    q->appends = ntsim_arena_array(a, b->append_count, sizeof *q->appends);
    if (q->appends == NULL)
        return false;
    for (size_t i = 0; i < b->append_count; i++) {
        NtsimTestee__Append *m = ntsim_arena_alloc(a, sizeof *m);
        if (m == NULL)
            return false;
        ntsim_testee__append__init(m);
        m->topsp = b->appends[i].topsp;
        if (!ntsim_arena_bytes(a, b->appends[i].bytes, b->appends[i].len, &m->bytes))
            return false;
        q->appends[q->n_appends++] = m;
    }
    return true;
}

static void notify_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const notify_body_t *b = v->body;
    unsigned caps = ntsim_testee_caps(t);
    unsigned used = NTSIM_TESTEE_CAP_STATS | (b->is_explicit ? 0 : NTSIM_TESTEE_CAP_LOG);
    ntsim_testee_note_unjudged(t, used & ~caps);
    ntsim_arena_t a;
    ntsim_arena_init(&a);
    NtsimTestee__NotifyRequest q;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_NOTIFY;
    req.notify = &q;
    NtsimTestee__Response *resp = NULL;
    if (!notify_request(b, caps, &a, &q))
        ntsim_report_add(r, v->id, "request", "out of memory");
    else
        resp = ntsim_testee_ask(t, &req, v->id, r);
    ntsim_arena_free(&a);
    if (resp != NULL && b->is_explicit)
        judge_explicit(v, resp->notify, caps, r);
    else if (resp != NULL && v->expect == NTSIM_EXPECT_VALID)
        judge_converted(v, resp->notify, caps, r);
    else if (resp != NULL)
        judge_dropped(v, resp->notify, caps, r);
    ntsim_testee_reply_free(resp);
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const notify_judged[] = {
    "trace_type", "block_type", "dropped_reason", "infos", NULL};

const ntsim_vector_kind_t ntsim_kind_notify = {
    .name = "notify",
    .keys = notify_keys,
    .judged = notify_judged,
    .allows_invalid = true,
    .parse = notify_parse,
    .free_body = notify_free,
    .judge = notify_judge,
};
