/*
 * conformance/generate/gen_json.c: generated `json` cases: records of every
 * (type, phase) (and past the enum) with random payloads, ids, times and
 * garbage padding, an nc -> worker_gid map, an exec -> model table, and the
 * serialization's log; or, a sixth of the time, bytes for the escaper alone
 * (control bytes, quotes, backslashes, UTF-8). Written in the json kind's
 * grammar (conformance/kinds/kind_json.c); the expected document is the
 * reference's, compared byte for byte by the kind's judge.
 *
 * Invariant on each side's document: one event per record, in a document
 * that says its data_version (facts §2).
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "data_view.h"
#include "event_table.h"
#include "gen_int.h"
#include "input.h"
#include "ntsim/capture.h"

enum { MAX_MODELS = 4, MAX_STRING = 32 };

typedef struct json_case {
    bool is_string;
    uint8_t string[MAX_STRING * 4];
    size_t string_len;
    nrt_sys_trace_event_t *records;
    size_t n_records;
    bool has_gid;
    int32_t gid[16];
    size_t n_gid;
    uint64_t exec_id[MAX_MODELS], model_id[MAX_MODELS];
    size_t n_models;
    bool log;
    /* expected, from the reference */
    bool expected;
    char *json;
    size_t json_len;
    char **lines;
    size_t n_lines;
} json_case_t;

static void drop_expected(json_case_t *c)
{
    free(c->json);
    c->json = NULL;
    for (size_t i = 0; i < c->n_lines; i++)
        free(c->lines[i]);
    free(c->lines);
    c->lines = NULL;
    c->n_lines = 0;
    c->expected = false;
}

static void gjson_free_case(void *p)
{
    json_case_t *c = p;
    if (c == NULL)
        return;
    drop_expected(c);
    free(c->records);
    free(c);
}

static void *gjson_copy(const void *p)
{
    const json_case_t *s = p;
    json_case_t *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    c->json = NULL;
    c->lines = NULL;
    c->n_lines = 0;
    c->expected = false;
    c->records = malloc((s->n_records ? s->n_records : 1) * sizeof *c->records);
    if (c->records == NULL) {
        free(c);
        return NULL;
    }
    memcpy(c->records, s->records, s->n_records * sizeof *c->records);
    return c;
}

/* One piece of an escaper string: a control byte, a character JSON
 * escapes, printable ASCII, or a UTF-8 sequence of 2, 3 or 4 bytes (the
 * bytes must read back as themselves, so they are valid UTF-8). */
static size_t string_piece(ntsim_gen_rng_t *r, uint8_t *out)
{
    static const uint8_t special[] = {'"', '\\', '/', 0x7f, '\'', ' '};
    static const uint8_t *const utf8[] = {(const uint8_t *)"\xc3\xa9",
                                          (const uint8_t *)"\xe2\x82\xac",
                                          (const uint8_t *)"\xf0\x9f\x98\x80",
                                          (const uint8_t *)"\xc2\x80",
                                          (const uint8_t *)"\xef\xbf\xbf"};
    uint64_t pick = ntsim_gen_below(r, 100);
    if (pick < 40) {
        out[0] = (uint8_t)ntsim_gen_below(r, 0x20);
        return 1;
    }
    if (pick < 55) {
        out[0] = special[ntsim_gen_below(r, sizeof special)];
        return 1;
    }
    if (pick < 80) {
        out[0] = (uint8_t)ntsim_gen_range(r, 0x20, 0x7e);
        return 1;
    }
    const uint8_t *u = utf8[ntsim_gen_below(r, sizeof utf8 / sizeof utf8[0])];
    size_t n = strlen((const char *)u);
    memcpy(out, u, n);
    return n;
}

/* The exec_id field of a record's payload, if it has one. */
static bool exec_id_of(const nrt_sys_trace_event_t *e, uint64_t *out)
{
    const ntsim_payload_desc_t *d =
        &ntsim__payloads[ntsim__event_payload((uint32_t)e->trace_type, (uint32_t)e->phase)];
    for (size_t i = 0; i < d->field_count; i++)
        if (strcmp(d->fields[i].name, "exec_id") == 0) {
            *out = 0;
            memcpy(out, (const uint8_t *)&e->data + d->fields[i].offset, d->fields[i].size);
            return true;
        }
    return false;
}

static void *gjson_make(ntsim_gen_rng_t *r, uint64_t j)
{
    json_case_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    /* Always: a serialization that warns without a log sink of the request's
     * own writes to the process's stderr. */
    c->log = true;
    if (j % 6 == 5) {
        c->is_string = true;
        for (uint64_t n = ntsim_gen_below(r, MAX_STRING); n > 0; n--)
            c->string_len += string_piece(r, c->string + c->string_len);
        return c;
    }
    c->n_records = ntsim_gen_chance(r, 10) ? 0 : 1 + ntsim_gen_below(r, 6);
    c->records = calloc(c->n_records ? c->n_records : 1, sizeof *c->records);
    if (c->records == NULL) {
        free(c);
        return NULL;
    }
    for (size_t i = 0; i < c->n_records; i++) {
        uint32_t type, phase;
        if (i == 0)
            ntsim_gen_anchor(r, j / 6 * 5 + j % 6, &type, &phase);
        else {
            type = ntsim_gen_type(r);
            phase = ntsim_gen_phase(r);
        }
        ntsim_gen_record(r, type, phase, &c->records[i]);
    }
    if ((c->has_gid = ntsim_gen_chance(r, 35))) {
        c->n_gid = ntsim_gen_below(r, 9);
        for (size_t i = 0; i < c->n_gid; i++)
            c->gid[i] = ntsim_gen_chance(r, 70) ? (int32_t)ntsim_gen_below(r, 128) : ntsim_gen_int(r);
    }
    if (ntsim_gen_chance(r, 35)) {
        c->n_models = 1 + ntsim_gen_below(r, MAX_MODELS - 1);
        for (size_t i = 0; i < c->n_models; i++) {
            uint64_t e = ntsim_gen_value(r, 8);
            const nrt_sys_trace_event_t *rec =
                c->n_records > 0 ? &c->records[ntsim_gen_below(r, c->n_records)] : NULL;
            if (rec != NULL && ntsim_gen_chance(r, 70))
                (void)exec_id_of(rec, &e); /* an execution a record names */
            c->exec_id[i] = e;
            c->model_id[i] = ntsim_gen_value(r, 8);
            for (size_t k = 0; k < i; k++)
                if (c->exec_id[k] == e) { /* one model per execution (D-JSON-MODEL-ID) */
                    i--;
                    c->n_models--;
                    break;
                }
        }
    }
    return c;
}

static void gjson_write(const void *p, ntsim_gen_text_t *t)
{
    const json_case_t *c = p;
    ntsim_gen_printf(t, "    expect: valid\n");
    if (c->is_string) {
        ntsim_gen_printf(t, "    string: \"");
        ntsim_gen_hex(t, c->string, c->string_len, 1);
        ntsim_gen_printf(t, "\"\n");
    } else {
        if (c->has_gid) {
            ntsim_gen_printf(t, "    gid_map: [");
            for (size_t i = 0; i < c->n_gid; i++)
                ntsim_gen_printf(t, "%s%d", i ? ", " : "", c->gid[i]);
            ntsim_gen_printf(t, "]\n");
        }
        if (c->n_models > 0) {
            ntsim_gen_printf(t, "    models:\n");
            for (size_t i = 0; i < c->n_models; i++)
                ntsim_gen_printf(t, "      - {exec_id: %" PRIu64 ", model_id: %" PRIu64 "}\n",
                           c->exec_id[i], c->model_id[i]);
        }
        ntsim_gen_printf(t, "    records:%s\n", c->n_records == 0 ? " []" : "");
        for (size_t i = 0; i < c->n_records; i++) {
            ntsim_gen_printf(t, "      - ");
            ntsim_gen_record_yaml(t, &c->records[i]);
            ntsim_gen_printf(t, "\n");
        }
    }
    ntsim_gen_printf(t, "    json: ");
    if (c->expected)
        ntsim_gen_quoted(t, c->json, c->json_len);
    else
        ntsim_gen_printf(t, "\"(the reference's)\"");
    ntsim_gen_printf(t, "\n");
    if (c->log && !c->is_string) {
        ntsim_gen_log_write(t, "    ", c->lines, c->n_lines);
        ntsim_gen_printf(t, "\n");
    }
}

static void gjson_source(const void *p, ntsim_gen_text_t *t)
{
    const json_case_t *c = p;
    if (c->is_string) {
        ntsim_gen_printf(t, ", F2.json.escaping, F2.json.escape_hex_case, D-JSON-ESCAPE");
        return;
    }
    ntsim_gen_printf(t, ", F2.json.document, F2.json.data_version, F2.json.key_order, "
                  "F2.json.phase_strings, F2.json.integers_decimal, F2.json.data_always, "
                  "F2.json.nrta_seq_id_omitted, F2.event_type.snake_case, F2.json.worker_gid, "
                  "D-JSON-NAMES, D-JSON-DATA, D-WORKER-GID, D-JSON-TIME, D-LOG-CONTRACT");
    for (size_t i = 0; i < c->n_records; i++) {
        uint32_t type = (uint32_t)c->records[i].trace_type, phase = (uint32_t)c->records[i].phase;
        ntsim_gen_source_payload(t, type, phase);
        if (ntsim__data_view(type, phase)->nc_timestamp)
            ntsim_gen_printf(t, ", F2.json.timestamp_override");
        if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            ntsim_gen_printf(t, ", S1.enum.serde_sentinels, D-JSON-UNKNOWN");
        if (!ntsim__record_has_seq(&c->records[i]) && c->records[i].nrta_seq_id != 0)
            ntsim_gen_printf(t, ", D-FOREIGN-BOOL");
    }
    if (c->has_gid)
        ntsim_gen_printf(t, ", F2.fetch.gid_map");
    if (c->n_models > 0)
        ntsim_gen_printf(t, ", F6.json.model_id_7_13, D-JSON-MODEL-ID");
}

static const NtsimTestee__JsonReply *gjson_reply(const ntsim_gen_replies_t *g)
{
    for (size_t i = 0; i < g->count; i++)
        if (g->items[i]->body_case == NTSIM_TESTEE__RESPONSE__BODY_JSON)
            return g->items[i]->json;
    return NULL;
}

static ntsim_gen_expect_status_t gjson_expect(void *p, const ntsim_gen_replies_t *ref, char *why, size_t cap)
{
    json_case_t *c = p;
    const NtsimTestee__JsonReply *m = gjson_reply(ref);
    drop_expected(c);
    if (m == NULL || m->status != 0 || !m->has_document) {
        snprintf(why, cap, "the reference did not serialize (status %d)", m ? m->status : -1);
        return NTSIM_GEN_EXPECT_NONE;
    }
    if ((c->json = ntsim_testee_text(&m->document)) == NULL)
        return NTSIM_GEN_EXPECT_NONE;
    c->json_len = m->document.len;
    if (c->log && m->log != NULL &&
        !ntsim_gen_log_entries(m->log, &c->lines, &c->n_lines, why, cap))
        return NTSIM_GEN_EXPECT_NONE;
    c->expected = true;
    return NTSIM_GEN_EXPECT_DONE;
}

static void gjson_check(const void *p, const ntsim_gen_replies_t *got, const char *who, const char *id,
                       ntsim_report_t *r)
{
    const json_case_t *c = p;
    const NtsimTestee__JsonReply *m = gjson_reply(got);
    if (c->is_string || m == NULL || m->status != 0 || !m->has_document)
        return;
    json_error_t err;
    json_t *doc = json_loadb((const char *)m->document.data, m->document.len,
                             JSON_DECODE_INT_AS_REAL, &err);
    if (doc == NULL)
        return; /* the judge says it is not JSON */
    json_t *events = json_object_get(doc, "events");
    if (!json_is_array(events) || json_array_size(events) != c->n_records)
        ntsim_report_add(r, id, "invariant", "%s: expected one event per record (%zu), got %zu "
                         "(F2.json.document)", who, c->n_records,
                         json_is_array(events) ? json_array_size(events) : 0);
    if (!json_is_number(json_object_get(doc, "data_version")))
        ntsim_report_add(r, id, "invariant", "%s: the document has no data_version "
                         "(F2.json.data_version)", who);
    json_decref(doc);
}

/* Shrinking: halves and single records or bytes first, then each record
 * made plainer, then the options dropped. */
static void *gjson_shrink(const void *p, size_t k)
{
    const json_case_t *s = p;
    json_case_t *c = gjson_copy(s);
    if (c == NULL)
        return NULL;
    if (c->is_string) {
        /* By characters: a UTF-8 sequence goes whole (a part of one would
         * not read back, and the case would be another). */
        size_t at[MAX_STRING * 4 + 1], n = 0;
        for (size_t i = 0; i < c->string_len; n++) {
            at[n] = i;
            uint8_t b = c->string[i];
            i += b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
        }
        at[n] = c->string_len;
        size_t from, to;
        if (k < 2 && n >= 2) {
            from = k == 0 ? at[n / 2] : 0;
            to = k == 0 ? at[n] : at[n / 2];
        } else if (k >= 2 && k - 2 < n) {
            from = at[k - 2];
            to = at[k - 1];
        } else if (k < 2) {
            return c; /* one character: nothing to halve */
        } else {
            gjson_free_case(c);
            return NULL;
        }
        memmove(c->string + from, c->string + to, c->string_len - to);
        c->string_len -= to - from;
        return c;
    }
    size_t n = c->n_records;
    if (k < 2) {
        if (n >= 2) {
            size_t from = k == 0 ? n / 2 : 0, cut = k == 0 ? n - n / 2 : n / 2;
            memmove(&c->records[from], &c->records[from + cut],
                    (n - from - cut) * sizeof *c->records);
            c->n_records -= cut;
        }
        return c;
    }
    k -= 2;
    if (k < n) {
        memmove(&c->records[k], &c->records[k + 1], (n - k - 1) * sizeof *c->records);
        c->n_records--;
        return c;
    }
    k -= n;
    enum { PER_RECORD = 20 };
    if (k < n * PER_RECORD) {
        nrt_sys_trace_event_t *e = &c->records[k / PER_RECORD];
        size_t step = k % PER_RECORD;
        uint8_t *b = (uint8_t *)e;
        size_t flag = offsetof(nrt_sys_trace_event_t, has_nrta_seq_id);
        switch (step) {
        case 0: memset(b + 4, 0, 4); memset(b + flag + 1, 0, sizeof *e - flag - 1); break;
        case 1: if (b[flag] > 1) b[flag] = 1; break;
        case 2: e->has_nrta_seq_id = false; e->nrta_seq_id = 0; break;
        case 3: e->id = e->nc_local_id = e->tracking_id = 0; break;
        case 4: e->thread_id = 0; break;
        case 5: e->timestamp_ns = 0; break;
        case 6: e->nc_idx = 0; break;
        default: {
            nrt_sys_trace_event_data_t d;
            if (ntsim_gen_payload_simpler(&e->data, (uint32_t)e->trace_type, (uint32_t)e->phase,
                                    step - 7, &d))
                e->data = d;
            break;
        }
        }
        return c;
    }
    k -= n * PER_RECORD;
    switch (k) {
    case 0: c->has_gid = false; c->n_gid = 0; return c;
    case 1: c->n_models = 0; return c;
    default: gjson_free_case(c); return NULL;
    }
}

static size_t gjson_size(const void *p)
{
    const json_case_t *c = p;
    return c->is_string ? c->string_len : c->n_records;
}

static void gjson_cover(const void *p, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref)
{
    (void)ref;
    const json_case_t *c = p;
    cov->strings += c->is_string;
    for (size_t i = 0; i < c->n_records; i++)
        ntsim_gen_cov_type_phase(cov, (uint32_t)c->records[i].trace_type,
                           (uint32_t)c->records[i].phase);
}

const ntsim_gen_kind_t ntsim_gen_kind_json = {
    .name = "json",
    .weight = 3,
    .make = gjson_make,
    .free = gjson_free_case,
    .copy = gjson_copy,
    .write = gjson_write,
    .source = gjson_source,
    .expect = gjson_expect,
    .check = gjson_check,
    .shrink = gjson_shrink,
    .size = gjson_size,
    .size_unit = "records (or string bytes)",
    .cover = gjson_cover,
};
