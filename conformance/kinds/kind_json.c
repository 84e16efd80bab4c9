/*
 * conformance/kinds/kind_json.c: `json` vectors — records in, the exact JSON
 * document out.
 *
 *   - id: json.hw_notify.instant
 *     ...common keys...
 *     gid_map: [0, 7]                # optional: nc_idx -> worker_gid (D-WORKER-GID)
 *     models: [{exec_id: 9, model_id: 3}]   # optional: the runtime's execution ->
 *                                    #   model table (D-JSON-MODEL-ID)
 *     records:                       # record_input.c: by fields or {hex: ...}
 *       - {type: HW_NOTIFY, phase: INSTANT, nc_idx: 1, data: {hint: 7}}
 *     json: '{"events":[...],"data_version":2}'
 *     log: ["warning: NumericalErr"] # optional: every message the serialization
 *                                    #   logs, by level and a fragment (record_input.h),
 *                                    #   the once-per-type warnings re-armed first
 *
 * The vector is one JsonRequest to the testee (testee.proto; the built-in
 * testee serializes in testee_convert.c). The document must match byte for
 * byte and must parse as JSON (jansson).
 * A mismatch names the first differing byte with the text around it.
 *
 * A string vector gives `string` (bytes in hex) instead of records: they go
 * through the escaper of every string the exporter writes (D-JSON-ESCAPE;
 * ntsim_json_escape, a testee's json_escape capability), and `json` is the
 * exact string literal, which jansson must read back as the same bytes:
 *
 *     string: "22 5c 01"
 *     json: '"\"\\\u0001"'
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "ntsim/capture.h"
#include "record_input.h"
#include "testee.h"

typedef struct json_body {
    nrt_sys_trace_event_t *records;
    size_t record_count;
    bool has_gid_map;
    int32_t gid_map[NTSIM_NC_COUNT];
    size_t gid_count;
    ntsim_vec_models_t models;
    char *json;
    ntsim_vec_log_t log;
    bool has_string;
    uint8_t *string;
    size_t string_len;
} json_body_t;

static const char *const json_keys[] = {"gid_map", "models", "records", "string", "json", "log",
                                        NULL};

static void json_free(void *body)
{
    json_body_t *b = body;
    free(b->records);
    free(b->models.items);
    free(b->json);
    ntsim_vec_log_free(&b->log);
    free(b->string);
    free(b);
}

static NRT_STATUS json_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path, void **out)
{
    json_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    NRT_STATUS st;
    yaml_node_t *str = ntsim_yp_get(p, node, "string");
    if (str != NULL) {
        char spath[512];
        ntsim_yp_path(spath, sizeof spath, "%s.string", path);
        const char *hex;
        if (ntsim_yp_get(p, node, "records") != NULL)
            return ntsim_yp_error(p, str, spath, "a string vector has no records");
        if ((st = ntsim_yp_text(p, str, spath, "hex bytes", &hex)) != NRT_SUCCESS)
            return st;
        size_t digits = 0;
        for (const char *c = hex; *c; c++)
            digits += *c != ' ' && *c != '\n' && *c != '\t';
        b->string_len = digits / 2;
        if ((b->string = malloc(b->string_len + 1)) == NULL)
            return NRT_RESOURCE;
        if (digits % 2 != 0 || !ntsim_vec_parse_hex(hex, b->string, b->string_len))
            return ntsim_yp_error(p, str, spath, "expected hex digits");
        b->has_string = true;
    } else if ((st = ntsim_vec_parse_records(p, node, path, "records", &b->records,
                                               &b->record_count)) != NRT_SUCCESS) {
        return st;
    }
    if ((st = ntsim_vec_parse_log(p, node, path, &b->log)) != NRT_SUCCESS)
        return st;
    const char *text;
    if ((st = ntsim_yp_str(p, node, path, "json", true, &text)) != NRT_SUCCESS)
        return st;
    if ((b->json = ntsim_strdup(text)) == NULL)
        return NRT_RESOURCE;
    if ((st = ntsim_vec_parse_models(p, node, path, &b->models)) != NRT_SUCCESS)
        return st;
    yaml_node_t *gid = ntsim_yp_get(p, node, "gid_map");
    if (gid != NULL) {
        char gpath[512];
        ntsim_yp_path(gpath, sizeof gpath, "%s.gid_map", path);
        if (gid->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, gid, gpath, "expected a sequence of worker gids");
        size_t n = (size_t)(gid->data.sequence.items.top - gid->data.sequence.items.start);
        if (n > NTSIM_NC_COUNT)
            return ntsim_yp_error(p, gid, gpath, "at most 256 entries");
        for (size_t i = 0; i < n; i++) {
            yaml_node_t *item = ntsim_yp_node(p, gid->data.sequence.items.start[i]);
            const char *t = ntsim_yp_scalar(item);
            char *end = NULL;
            long v = t ? strtol(t, &end, 10) : 0;
            if (t == NULL || *t == '\0' || *end != '\0' || v < INT32_MIN || v > INT32_MAX)
                return ntsim_yp_error(p, item, gpath, "expected a 32-bit integer, got '%s'",
                                      t ? t : "(not a scalar)");
            b->gid_map[i] = (int32_t)v;
        }
        b->gid_count = n;
        b->has_gid_map = true;
    }
    return NRT_SUCCESS;
}

/* A string vector: the escaper's literal, and jansson reads it back. */
static void judge_string(const ntsim_vector_t *v, const NtsimTestee__JsonReply *m,
                         ntsim_report_t *r)
{
    const json_body_t *b = v->body;
    char *lit = m->has_document ? ntsim_testee_text(&m->document) : NULL;
    if (lit == NULL || strlen(lit) != m->document.len || strcmp(lit, b->json) != 0)
        ntsim_report_add(r, v->id, "json", "expected %s, got %s", b->json,
                         lit != NULL ? lit : "no literal");
    json_error_t err;
    json_t *parsed = json_loads(b->json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (parsed == NULL || !json_is_string(parsed))
        ntsim_report_add(r, v->id, "json", "expected a JSON string literal, got %s",
                         parsed == NULL ? err.text : "another JSON value");
    else if (json_string_length(parsed) != b->string_len ||
             memcmp(json_string_value(parsed), b->string, b->string_len) != 0)
        ntsim_report_add(r, v->id, "json", "expected the literal to read back as the %zu input "
                                           "bytes, got %zu other bytes",
                         b->string_len, json_string_length(parsed));
    json_decref(parsed);
    free(lit);
}

static void judge_document(const ntsim_vector_t *v, const NtsimTestee__JsonReply *m,
                           unsigned caps, ntsim_report_t *r)
{
    const json_body_t *b = v->body;
    if ((caps & NTSIM_TESTEE_CAP_LOG) && b->log.given && m->log == NULL)
        ntsim_report_add(r, v->id, "log", "expected what was logged, the reply has no log");
    else if ((caps & NTSIM_TESTEE_CAP_LOG) && b->log.given)
        ntsim_vec_check_log(&b->log, m->log->lines, m->log->n_lines, m->log->count, v->id, r);
    if (m->status != NRT_SUCCESS || !m->has_document) {
        ntsim_report_add(r, v->id, "serialize", "expected NRT_SUCCESS, got %d", m->status);
        return;
    }
    char *doc = ntsim_testee_text(&m->document);
    if (doc == NULL) {
        ntsim_report_add(r, v->id, "json", "out of memory");
        return;
    }
    size_t len = m->document.len;
    if (strlen(doc) != len)
        ntsim_report_add(r, v->id, "length", "expected written size %zu to exclude the NUL, "
                                              "got %zu", strlen(doc), len);
    if (len != strlen(b->json) || memcmp(doc, b->json, len) != 0)
        ntsim_report_json_diff(r, v->id, "json", b->json, doc);
    if (ntsim_report_too_long(strlen(b->json), len)) {
        free(doc); /* reported by its size: parsing it would cost as much as diffing it */
        return;
    }
    json_error_t err;
    /* INT_AS_REAL: jansson holds integers as int64; valid JSON may exceed it. */
    json_t *parsed = json_loadb(doc, len, JSON_DECODE_INT_AS_REAL, &err);
    if (parsed == NULL)
        ntsim_report_add(r, v->id, "json", "expected valid JSON, got a parse error at %d:%d: %s",
                         err.line, err.column, err.text);
    json_decref(parsed);
    free(doc);
}

/* The vector as one JsonRequest (from the arena); false when out of memory. */
static bool json_request(const json_body_t *b, bool log, ntsim_arena_t *a,
                         NtsimTestee__JsonRequest *q)
{
    ntsim_testee__json_request__init(q);
    if (b->has_string) {
        q->has_string = 1;
        return ntsim_arena_bytes(a, b->string, b->string_len, &q->string);
    }
    q->has_log = q->log = log && b->log.given;
    q->has_has_gid_map = q->has_gid_map = b->has_gid_map;
    q->gid_map = ntsim_arena_array(a, b->gid_count, sizeof *q->gid_map);
    q->models = ntsim_arena_array(a, b->models.count, sizeof *q->models);
    if (q->gid_map == NULL || q->models == NULL ||
        !ntsim_arena_records(a, b->records, b->record_count, &q->records, &q->n_records))
        return false;
    q->n_gid_map = b->gid_count;
    for (size_t i = 0; i < b->gid_count; i++)
        q->gid_map[i] = b->gid_map[i];
    for (size_t i = 0; i < b->models.count; i++) {
        NtsimTestee__Model *m = ntsim_arena_alloc(a, sizeof *m);
        if (m == NULL)
            return false;
        ntsim_testee__model__init(m);
        m->exec_id = b->models.items[i].exec_id;
        m->model_id = b->models.items[i].model_id;
        q->models[q->n_models++] = m;
    }
    return true;
}

static void json_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const json_body_t *b = v->body;
    unsigned caps = ntsim_testee_caps(t);
    if (b->log.given && !(caps & NTSIM_TESTEE_CAP_LOG))
        ntsim_testee_note_unjudged(t, NTSIM_TESTEE_CAP_LOG);
    ntsim_arena_t a;
    ntsim_arena_init(&a);
    NtsimTestee__JsonRequest q;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_JSON;
    req.json = &q;
    NtsimTestee__Response *resp = NULL;
    if (!json_request(b, (caps & NTSIM_TESTEE_CAP_LOG) != 0, &a, &q))
        ntsim_report_add(r, v->id, "request", "out of memory");
    else
        resp = ntsim_testee_ask(t, &req, v->id, r);
    ntsim_arena_free(&a);
    if (resp != NULL && b->has_string)
        judge_string(v, resp->json, r);
    else if (resp != NULL)
        judge_document(v, resp->json, caps, r);
    ntsim_testee_reply_free(resp);
}

static unsigned json_needs(const ntsim_vector_t *v)
{
    return ((const json_body_t *)v->body)->has_string ? NTSIM_TESTEE_CAP_JSON_ESCAPE : 0;
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const json_judged[] = {"json", "log", NULL};

static size_t json_records(const void *body, const nrt_sys_trace_event_t **out)
{
    const json_body_t *b = body;
    *out = b->records;
    return b->record_count;
}

const ntsim_vector_kind_t ntsim_kind_json = {
    .name = "json",
    .keys = json_keys,
    .judged = json_judged,
    .allows_invalid = false,
    .parse = json_parse,
    .free_body = json_free,
    .judge = json_judge,
    .needs = json_needs,
    .records = json_records,
};
