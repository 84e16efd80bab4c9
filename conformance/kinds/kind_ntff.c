/*
 * conformance/kinds/kind_ntff.c: `ntff` vectors — records (and notifications) in,
 * the NTFF bytes out, checked by the real protobuf compiler.
 *
 *   - id: ntff.hw_notify.instant
 *     ...common keys...
 *     options: {nd_idx: 0, arch: trn1, pid: 42, session_id: 7, logical_nc_size: 2}
 *     records: [...]                      # record_input.c; may be []
 *     infos:                              # optional trace_info inputs
 *       - {trace_type: 3, block_type: 2, nc_idx: 1, payload: "616263"}
 *     decode: |                           # `protoc --decode=ntff.ntrace_info ntff.proto`
 *       events {
 *         ...
 *     bytes: "0a 2c 08 ..."               # optional: the exact encoding, hex
 *
 * The judge asks the testee for the bytes (an NtffRequest; the built-in
 * testee encodes with ntsim_ntff_serialize), writes them to a temporary
 * file, runs protoc (Debian's protobuf-compiler) on them with
 * engine/convert/ntff.proto, and compares its text with `decode`.
 *
 * A schema vector pins a message of engine/convert/ntff.proto that ntsim never
 * writes: `message` names it, `bytes` (required) are typed by hand from the
 * facts' field numbers, and protoc must decode them as `decode` says; it has
 * no records, infos or options. It asks the testee nothing: it checks the
 * schema, not an implementation, so with a testee process it is skipped (an
 * empty testee must not pass it).
 *
 *   - id: ntff.schema.notification_buffer_size
 *     message: notification_buffer_size
 *     bytes: "08 02"
 *     decode: |
 *       block_type: BLOCK_TYPE_TOPSP
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "ntsim/convert.h"
#include "record_input.h"
#include "testee.h"

typedef struct ntff_info_in {
    ntsim_trace_info_t info;
    uint8_t *payload;
} ntff_info_in_t;

typedef struct ntff_body {
    ntsim_ntff_options_t options;
    char *arch;
    nrt_sys_trace_event_t *records;
    size_t record_count;
    ntff_info_in_t *infos;
    size_t info_count;
    char *decode;
    uint8_t *bytes;
    size_t byte_count;
    bool has_bytes;
    char *message;              /* a schema vector's message, or NULL */
} ntff_body_t;

static const char *const ntff_keys[] = {"options", "records", "infos", "decode", "bytes",
                                        "message", NULL};
static const char *const option_keys[] = {"nd_idx", "arch", "pid", "session_id",
                                          "logical_nc_size", NULL};
static const char *const info_keys[] = {"trace_type", "block_type", "nc_idx", "payload", NULL};

static void ntff_free(void *body)
{
    ntff_body_t *b = body;
    for (size_t i = 0; i < b->info_count; i++)
        free(b->infos[i].payload);
    free(b->infos);
    free(b->records);
    free(b->arch);
    free(b->decode);
    free(b->bytes);
    free(b->message);
    free(b);
}

/* Hex of any length (spaces allowed) into a malloc'd array. */
static NRT_STATUS parse_hex_any(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                const char *text, uint8_t **out, size_t *len)
{
    size_t digits = 0;
    for (const char *c = text; *c; c++)
        if (*c != ' ' && *c != '\n' && *c != '\t')
            digits++;
    if (digits % 2 != 0)
        return ntsim_yp_error(p, node, path, "an odd number of hex digits");
    *len = digits / 2;
    *out = malloc(*len ? *len : 1);
    if (*out == NULL)
        return NRT_RESOURCE;
    if (*len > 0 && !ntsim_vec_parse_hex(text, *out, *len))
        return ntsim_yp_error(p, node, path, "expected hex digits");
    return NRT_SUCCESS;
}

/* The ntff kind's grammar, one key after another (~110 lines, flat: each key
 * read, checked and named in its error where vectors/README.md lists it). */
static NRT_STATUS ntff_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path, void **out)
{
    ntff_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    NRT_STATUS st;
    const char *message = NULL;
    if ((st = ntsim_yp_str(p, node, path, "message", false, &message)) != NRT_SUCCESS)
        return st;
    if (message != NULL) {
        char mpath[512];
        ntsim_yp_path(mpath, sizeof mpath, "%s.message", path);
        yaml_node_t *mnode = ntsim_yp_get(p, node, "message");
        bool word = message[0] != '\0';
        for (const char *c = message; *c; c++)
            word &= (*c >= 'a' && *c <= 'z') || *c == '_';
        if (!word)
            return ntsim_yp_error(p, mnode, mpath, "expected a message name of ntff.proto, got "
                                                   "'%s'", message);
        static const char *const body_keys[] = {"options", "records", "infos"};
        for (size_t i = 0; i < 3; i++)
            if (ntsim_yp_get(p, node, body_keys[i]) != NULL)
                return ntsim_yp_error(p, mnode, mpath, "a schema vector has no %s",
                                      body_keys[i]);
        if (ntsim_yp_get(p, node, "bytes") == NULL)
            return ntsim_yp_error(p, mnode, mpath, "a schema vector needs its bytes");
        if ((b->message = ntsim_strdup(message)) == NULL)
            return NRT_RESOURCE;
    }
    yaml_node_t *opt = ntsim_yp_get(p, node, "options");
    if (opt != NULL) {
        char opath[512];
        ntsim_yp_path(opath, sizeof opath, "%s.options", path);
        uint64_t nd = 0, pid = 0, lnc = 0;
        const char *arch = NULL;
        if ((st = ntsim_yp_check_keys(p, opt, opath, option_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, opt, opath, "nd_idx", false, UINT32_MAX, &nd)) !=
                NRT_SUCCESS ||
            (st = ntsim_yp_str(p, opt, opath, "arch", false, &arch)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, opt, opath, "pid", false, UINT32_MAX, &pid)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, opt, opath, "session_id", false, UINT64_MAX,
                               &b->options.session_id)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, opt, opath, "logical_nc_size", false, UINT32_MAX, &lnc)) !=
                NRT_SUCCESS)
            return st;
        b->options.nd_idx = (uint32_t)nd;
        b->options.pid = (uint32_t)pid;
        b->options.logical_nc_size = (uint32_t)lnc;
        if (arch != NULL && (b->arch = ntsim_strdup(arch)) == NULL)
            return NRT_RESOURCE;
        b->options.arch = b->arch;
    }
    if (b->message == NULL && (st = ntsim_vec_parse_records(p, node, path, "records", &b->records,
                                                            &b->record_count)) != NRT_SUCCESS)
        return st;
    yaml_node_t *infos = ntsim_yp_get(p, node, "infos");
    if (infos != NULL) {
        char ipath[512];
        ntsim_yp_path(ipath, sizeof ipath, "%s.infos", path);
        if (infos->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, infos, ipath, "expected a sequence of trace_info inputs");
        size_t n = (size_t)(infos->data.sequence.items.top - infos->data.sequence.items.start);
        if (n > 0 && (b->infos = calloc(n, sizeof *b->infos)) == NULL)
            return NRT_RESOURCE;
        for (size_t i = 0; i < n; i++) {
            yaml_node_t *in = ntsim_yp_node(p, infos->data.sequence.items.start[i]);
            char epath[520];
            ntsim_yp_path(epath, sizeof epath, "%s[%zu]", ipath, i);
            int64_t tt, bt;
            uint64_t nc = 0;
            const char *payload = "";
            if ((st = ntsim_yp_check_keys(p, in, epath, info_keys, NULL)) != NRT_SUCCESS ||
                (st = ntsim_yp_int(p, in, epath, "trace_type", true, INT32_MIN, INT32_MAX,
                                   &tt)) != NRT_SUCCESS ||
                (st = ntsim_yp_int(p, in, epath, "block_type", true, INT32_MIN, INT32_MAX,
                                   &bt)) != NRT_SUCCESS ||
                (st = ntsim_yp_u64(p, in, epath, "nc_idx", false, UINT32_MAX, &nc)) !=
                    NRT_SUCCESS ||
                (st = ntsim_yp_str(p, in, epath, "payload", false, &payload)) != NRT_SUCCESS)
                return st;
            b->info_count = i + 1;
            ntff_info_in_t *x = &b->infos[i];
            char ppath[540];
            ntsim_yp_path(ppath, sizeof ppath, "%s.payload", epath);
            yaml_node_t *pnode = ntsim_yp_get(p, in, "payload");
            if ((st = parse_hex_any(p, pnode ? pnode : in, ppath, payload, &x->payload,
                                    &x->info.payload_len)) != NRT_SUCCESS)
                return st;
            x->info.trace_type = (int32_t)tt;
            x->info.block_type = (int32_t)bt;
            x->info.nc_idx = (uint32_t)nc;
            x->info.payload = x->payload;
        }
    }
    const char *decode, *bytes = NULL;
    if ((st = ntsim_yp_str(p, node, path, "decode", true, &decode)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "bytes", false, &bytes)) != NRT_SUCCESS)
        return st;
    if ((b->decode = ntsim_strdup(decode)) == NULL)
        return NRT_RESOURCE;
    if (bytes != NULL) {
        char bpath[512];
        ntsim_yp_path(bpath, sizeof bpath, "%s.bytes", path);
        if ((st = parse_hex_any(p, ntsim_yp_get(p, node, "bytes"), bpath, bytes, &b->bytes,
                                &b->byte_count)) != NRT_SUCCESS)
            return st;
        b->has_bytes = true;
    }
    return NRT_SUCCESS;
}

/* A schema vector: the hand-typed bytes through protoc as their message. */
static void ntff_run_schema(const ntsim_vector_t *v, ntsim_report_t *r)
{
    const ntff_body_t *b = v->body;
    char why[512] = "";
    char *text = ntsim_ntff_decode(b->message, b->bytes, b->byte_count, why, sizeof why);
    if (text == NULL)
        ntsim_report_add(r, v->id, "decode", "expected protoc to decode the bytes as ntff.%s: %s",
                         b->message, why);
    else if (strcmp(text, b->decode) != 0)
        ntsim_report_diff(r, v->id, "decode", b->decode, text);
    free(text);
}

/* The vector as one NtffRequest (from the arena); false when out of memory. */
static bool ntff_request(const ntff_body_t *b, ntsim_arena_t *a, NtsimTestee__NtffRequest *q)
{
    ntsim_testee__ntff_request__init(q);
    NtsimTestee__NtffOptions *o = ntsim_arena_alloc(a, sizeof *o);
    q->infos = ntsim_arena_array(a, b->info_count, sizeof *q->infos);
    if (o == NULL || q->infos == NULL ||
        !ntsim_arena_records(a, b->records, b->record_count, &q->records, &q->n_records))
        return false;
    ntsim_testee__ntff_options__init(o);
    o->has_nd_idx = o->has_pid = o->has_session_id = o->has_logical_nc_size = 1;
    o->nd_idx = b->options.nd_idx;
    o->pid = b->options.pid;
    o->session_id = b->options.session_id;
    o->logical_nc_size = b->options.logical_nc_size;
    if (b->arch != NULL && (o->arch = ntsim_arena_strdup(a, b->arch)) == NULL)
        return false;
    q->options = o;
    for (size_t i = 0; i < b->info_count; i++) {
        const ntsim_trace_info_t *in = &b->infos[i].info;
        NtsimTestee__TraceInfo *m = ntsim_arena_alloc(a, sizeof *m);
        if (m == NULL)
            return false;
        ntsim_testee__trace_info__init(m);
        m->trace_type = in->trace_type;
        m->block_type = in->block_type;
        m->has_nc_idx = m->has_payload = 1;
        m->nc_idx = in->nc_idx;
        if (!ntsim_arena_bytes(a, in->payload, in->payload_len, &m->payload))
            return false;
        q->infos[q->n_infos++] = m;
    }
    return true;
}

static void judge_reply(const ntsim_vector_t *v, const NtsimTestee__NtffReply *m,
                        ntsim_report_t *r)
{
    const ntff_body_t *b = v->body;
    if (m->status != NRT_SUCCESS || !m->has_ntff) {
        ntsim_report_add(r, v->id, "serialize", "expected NRT_SUCCESS, got %d", m->status);
        return;
    }
    const uint8_t *bytes = m->ntff.data;
    size_t len = m->ntff.len;
    if (b->has_bytes && (len != b->byte_count || memcmp(bytes, b->bytes, len) != 0)) {
        size_t i = 0;
        while (i < len && i < b->byte_count && bytes[i] == b->bytes[i])
            i++;
        ntsim_report_add(r, v->id, "bytes", "expected %zu bytes, got %zu; first difference at "
                                            "byte %zu: expected %02x, got %02x",
                         b->byte_count, len, i, i < b->byte_count ? b->bytes[i] : 0,
                         i < len ? bytes[i] : 0);
    }
    /* protoc's text of a message is never shorter than its bytes (a tag and
     * a value are at least "a: 0" and a newline): bytes past twice the
     * expected text are reported by their size, not decoded (60 MB of empty
     * events would cost protoc gigabytes). */
    size_t dl = strlen(b->decode);
    if (ntsim_report_too_long(2 * dl, len)) {
        ntsim_report_add(r, v->id, "decode", "expected the bytes of a %zu-byte decode, got %zu "
                                             "bytes: more than twice that and %zu KiB, not decoded",
                         dl, len, NTSIM_REPORT_DIFF_SLACK >> 10);
        return;
    }
    char why[512] = "";
    char *text = ntsim_ntff_decode("ntrace_info", bytes, len, why, sizeof why);
    if (text == NULL)
        ntsim_report_add(r, v->id, "decode", "expected protoc to decode the bytes: %s", why);
    else if (strcmp(text, b->decode) != 0)
        ntsim_report_diff(r, v->id, "decode", b->decode, text);
    free(text);
}

/* A schema vector is the harness's own check (protoc on bytes typed by
 * hand): no request. Any other is one NtffRequest. */
static void ntff_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const ntff_body_t *b = v->body;
    if (b->message != NULL) {
        ntff_run_schema(v, r);
        return;
    }
    ntsim_arena_t a;
    ntsim_arena_init(&a);
    NtsimTestee__NtffRequest q;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_NTFF;
    req.ntff = &q;
    NtsimTestee__Response *resp = NULL;
    if (!ntff_request(b, &a, &q))
        ntsim_report_add(r, v->id, "request", "out of memory");
    else
        resp = ntsim_testee_ask(t, &req, v->id, r);
    ntsim_arena_free(&a);
    if (resp != NULL)
        judge_reply(v, resp->ntff, r);
    ntsim_testee_reply_free(resp);
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const ntff_judged[] = {"decode", "bytes", "message", NULL};

/* A schema vector checks ntff.proto, not an implementation. */
static bool ntff_own_check(const ntsim_vector_t *v)
{
    return ((const ntff_body_t *)v->body)->message != NULL;
}

static size_t ntff_records(const void *body, const nrt_sys_trace_event_t **out)
{
    const ntff_body_t *b = body;
    *out = b->records;
    return b->record_count;
}

static size_t ntff_infos(const void *body, ntsim_trace_info_t *out, size_t cap)
{
    const ntff_body_t *b = body;
    for (size_t i = 0; i < b->info_count && i < cap; i++)
        out[i] = b->infos[i].info;
    return b->info_count;
}

const ntsim_vector_kind_t ntsim_kind_ntff = {
    .name = "ntff",
    .keys = ntff_keys,
    .judged = ntff_judged,
    .allows_invalid = false,
    .parse = ntff_parse,
    .free_body = ntff_free,
    .judge = ntff_judge,
    .own_check = ntff_own_check,
    .records = ntff_records,
    .infos = ntff_infos,
};
