/*
 * conformance/lib/trace_input.c: a JSON fetch document, an .ntff file or a raw
 * record dump read back into records (trace_input.h, D-TIMELINE-INPUT,
 * D-TRACE-READER).
 *
 * Both text formats carry a record's payload as its `data` keys (JSON) or
 * attributes (NTFF: the same keys, values as strings; facts §2). The one
 * table's data view says, per (type, phase), which payload field each key is
 * and how it is formatted, so reading is the writers' mapping run backwards:
 * a number, true/false, a dma_mem_usage_type_t name, "0x..." hex, or the
 * algorithm's decimal string. model_id=@exec_id keys are the runtime's
 * lookup, not payload, and are skipped.
 *
 * Every value is read exactly and must fit the field it goes to: the ids and
 * times are u64 over their whole range, nc_idx u32, a payload field its own
 * size and sign. A value that does not fit (negative for an unsigned field,
 * wider than the field) is refused at its place, never narrowed or wrapped.
 *
 * Memory does not grow with what is not kept: the JSON is read value by value
 * (json_reader.h), NTFF event by event (ntff_wire.h), and the events are
 * counted against max_events before the records they need are kept.
 */
#include "trace_input.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_view.h"
#include "event_table.h"
#include "input.h"
#include "json_reader.h"
#include "ntff.pb-c.h"
#include "ntff_wire.h"

static NRT_STATUS fail(char *err, size_t cap, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static NRT_STATUS fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return NRT_INVALID;
}

static NRT_STATUS out_of_memory(char *err, size_t cap)
{
    snprintf(err, cap, "out of memory");
    return NRT_RESOURCE;
}

/* --- values and the fields they go to ------------------------------------------- */

/* A destination: `size` bytes (1, 2, 4 or 8), C int or unsigned. */
typedef struct field_shape {
    size_t size;
    bool is_signed;
} field_shape_t;

static const field_shape_t U64 = {8, false}, U32 = {4, false};

typedef enum { VAL_OK, VAL_BAD, VAL_RANGE } val_status_t;

/* Whether the 64-bit pattern v (a signed field's value sign-extended, as
 * the writers widen it) is a value of the field. */
static bool pattern_fits(field_shape_t f, uint64_t v)
{
    if (f.size >= 8)
        return true;
    unsigned bits = (unsigned)f.size * 8;
    if (!f.is_signed)
        return v >> bits == 0;
    uint64_t half = UINT64_C(1) << (bits - 1); /* -half .. half - 1 */
    return v < half || v >= (uint64_t)0 - half;
}

/* An integer as written (JSON number, decimal string) into the field's
 * 64-bit pattern. */
static val_status_t integer_pattern(field_shape_t f, const ntsim_json_number_t *n, uint64_t *v)
{
    const uint64_t int64_max = UINT64_MAX >> 1;
    if (n->too_wide)
        return VAL_RANGE;
    if (n->negative && n->magnitude != 0) {
        if (!f.is_signed || n->magnitude > int64_max + 1)
            return VAL_RANGE;
        *v = (uint64_t)0 - n->magnitude;
    } else {
        if (f.is_signed && n->magnitude > int64_max)
            return VAL_RANGE;
        *v = n->magnitude;
    }
    return pattern_fits(f, *v) ? VAL_OK : VAL_RANGE;
}

/* "a 4-byte unsigned field: 0..4294967295", for a refused value. */
static const char *range_text(field_shape_t f, char *out, size_t cap)
{
    unsigned bits = (unsigned)f.size * 8;
    const char *a = f.size == 8 ? "an" : "a";
    if (f.is_signed) {
        unsigned long long half = 1ULL << (bits - 1);
        snprintf(out, cap, "%s %zu-byte signed field: -%llu..%llu", a, f.size, half, half - 1);
    } else {
        unsigned long long max = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
        snprintf(out, cap, "%s %zu-byte unsigned field: 0..%llu", a, f.size, max);
    }
    return out;
}

static field_shape_t key_shape(const ntsim_data_key_t *k)
{
    field_shape_t f = {k->size, k->is_signed};
    return f;
}

/* A key's text (an NTFF attribute, or a JSON string value) as its raw value. */
static val_status_t parse_text(const ntsim_data_key_t *k, const char *s, size_t len, uint64_t *v)
{
    switch (k->fmt) {
    case NTSIM_FMT_BOOL:
        if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
            *v = s[0] == 't';
            return VAL_OK;
        }
        return VAL_BAD;
    case NTSIM_FMT_USAGE:
        for (uint64_t u = 0; u <= DMA_MEM_USAGE_TYPE_MAX; u++)
            if (ntsim__usage_type_name(u) != NULL && strcmp(ntsim__usage_type_name(u), s) == 0) {
                *v = u;
                return VAL_OK;
            }
        break; /* an out-of-range value is written as its decimal */
    case NTSIM_FMT_HEX: {
        if (len < 3 || s[0] != '0' || s[1] != 'x')
            return VAL_BAD;
        bool wide = false;
        *v = 0;
        for (size_t i = 2; i < len; i++) {
            char c = s[i];
            unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                         : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                         : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                                : 16;
            if (d == 16)
                return VAL_BAD;
            wide = wide || *v >> 60 != 0;
            *v = *v << 4 | d;
        }
        return !wide && pattern_fits(key_shape(k), *v) ? VAL_OK : VAL_RANGE;
    }
    default:
        break;
    }
    ntsim_json_number_t n;
    if (!ntsim_json_parse_integer(s, len, &n))
        return VAL_BAD;
    return integer_pattern(key_shape(k), &n, v);
}

static void store(nrt_sys_trace_event_t *r, const ntsim_data_key_t *k, uint64_t v)
{
    unsigned char *p = (unsigned char *)&r->data + k->offset;
    for (size_t i = 0; i < k->size; i++) /* little-endian, as the record is laid out */
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Grows *recs to hold one more than `have` records, at most `max` in all. */
static NRT_STATUS reserve(nrt_sys_trace_event_t **recs, size_t *cap, size_t have, uint64_t max,
                          char *err, size_t errcap)
{
    if (have < *cap)
        return NRT_SUCCESS;
    size_t limit = max < SIZE_MAX / sizeof **recs ? (size_t)max : SIZE_MAX / sizeof **recs;
    size_t want = *cap ? (*cap <= limit / 2 ? *cap * 2 : limit) : (limit < 1024 ? limit : 1024);
    if (want <= have)
        return out_of_memory(err, errcap);
    nrt_sys_trace_event_t *grown = realloc(*recs, want * sizeof **recs);
    if (grown == NULL)
        return out_of_memory(err, errcap);
    *recs = grown;
    *cap = want;
    return NRT_SUCCESS;
}

/* --- JSON ------------------------------------------------------------------------ */

static const char *const phase_names[] = {"start", "stop", "instant", "unknown"};

/* The event keys read; any other key (worker_gid, a future one) is passed over. */
enum { K_TYPE, K_PHASE, K_ID, K_NC, K_LOCAL, K_TRACKING, K_THREAD, K_TIME, K_SEQ, K_DATA, K_COUNT };
static const char *const event_keys[K_COUNT] = {
    "event_type", "phase", "id", "nc_idx", "nc_local_id", "tracking_id", "thread_id",
    "timestamp_ns", "nrta_seq_id", "data"};

typedef struct jdoc {
    ntsim_json_reader_t r;
    uint64_t max_events;
    char *err;
    size_t cap;
} jdoc_t;

/* The reader's problem as "line:column: message". */
static NRT_STATUS syntax(jdoc_t *j, const ntsim_json_reader_t *r)
{
    unsigned long line, col;
    ntsim_json_position(r, r->at, &line, &col);
    return fail(j->err, j->cap, "%lu:%lu: %s", line, col, r->msg);
}

/* Reports the syntax problem of a value that cannot start here. */
static NRT_STATUS bad_value(jdoc_t *j, ntsim_json_reader_t *r)
{
    (void)ntsim_json_skip(r);
    return syntax(j, r);
}

/* A number token as a message shows it. */
static const char *token_text(const ntsim_json_reader_t *r, const ntsim_json_number_t *n,
                              char *out)
{
    return ntsim_text_escape(r->text + n->start, n->len, 40, out);
}

/* One data value (reader at its first byte) into the key's payload field. */
static NRT_STATUS json_value(jdoc_t *j, ntsim_json_reader_t *r, const ntsim_data_key_t *key,
                             nrt_sys_trace_event_t *rec, size_t i)
{
    char text[64], shown[4 * 40 + 4], range[96], escaped[4 * 36 + 4];
    size_t len = 0;
    ntsim_json_number_t n;
    bool b;
    uint64_t val = 0;
    val_status_t vs = VAL_BAD;
    switch (ntsim_json_peek(r)) {
    case NTSIM_JSON_NUMBER:
        if (!ntsim_json_number(r, &n))
            return syntax(j, r);
        if (n.integer && key->fmt != NTSIM_FMT_BOOL)
            vs = integer_pattern(key_shape(key), &n, &val);
        token_text(r, &n, shown);
        break;
    case NTSIM_JSON_TRUE:
    case NTSIM_JSON_FALSE:
        if (!ntsim_json_literal(r, &b))
            return syntax(j, r);
        val = b;
        vs = key->fmt == NTSIM_FMT_BOOL ? VAL_OK : VAL_BAD;
        break;
    case NTSIM_JSON_STRING:
        if (!ntsim_json_string(r, text, sizeof text, &len))
            return syntax(j, r);
        /* No value of any key is 63 bytes long ("0x" and 16 digits at most). */
        vs = len < sizeof text ? parse_text(key, text, len, &val) : VAL_BAD;
        snprintf(shown, sizeof shown, "\"%s\"",
                 ntsim_text_escape(text, len < sizeof text ? len : sizeof text - 1, 36, escaped));
        break;
    case NTSIM_JSON_NONE:
        return bad_value(j, r);
    default:
        if (!ntsim_json_skip(r))
            return syntax(j, r);
        break;
    }
    if (vs == VAL_RANGE)
        return fail(j->err, j->cap, "events[%zu].data.%s: %s is out of range (%s)", i,
                    key->key_z, shown, range_text(key_shape(key), range, sizeof range));
    if (vs == VAL_BAD)
        return fail(j->err, j->cap, "events[%zu].data.%s: not a value of this key", i,
                    key->key_z);
    store(rec, key, val);
    return NRT_SUCCESS;
}

/* The data object of event i (r at its '{'), once its type and phase are known. */
static NRT_STATUS json_data(jdoc_t *j, ntsim_json_reader_t *r, nrt_sys_trace_event_t *rec,
                            size_t i)
{
    const ntsim_data_view_t *v = ntsim__data_view((uint32_t)rec->trace_type, (uint32_t)rec->phase);
    bool seen[NTSIM_DATA_KEYS_MAX] = {false}, first = true;
    char name[48];
    size_t len;
    if (!ntsim_json_begin(r, '{'))
        return syntax(j, r);
    while (ntsim_json_more(r, '{', &first)) {
        if (!ntsim_json_key(r, name, sizeof name, &len))
            return syntax(j, r);
        size_t k = 0;
        while (k < v->count && (len >= sizeof name || strcmp(v->keys[k].key_z, name) != 0))
            k++;
        if (k == v->count || v->keys[k].exec_model) { /* not payload: passed over */
            if (!ntsim_json_skip(r))
                return syntax(j, r);
            continue;
        }
        if (seen[k])
            return fail(j->err, j->cap, "events[%zu].data.%s: listed twice", i, name);
        seen[k] = true;
        NRT_STATUS st = json_value(j, r, &v->keys[k], rec, i);
        if (st != NRT_SUCCESS)
            return st;
    }
    if (r->failed)
        return syntax(j, r);
    for (size_t k = 0; k < v->count; k++)
        if (!seen[k] && !v->keys[k].exec_model && v->keys[k].fmt != NTSIM_FMT_ALGO)
            return fail(j->err, j->cap, "events[%zu].data.%s: missing", i, v->keys[k].key_z);
    return NRT_SUCCESS;
}

/* One of the integer keys of an event. */
static NRT_STATUS json_integer(jdoc_t *j, size_t i, size_t k, uint64_t *out)
{
    ntsim_json_reader_t *r = &j->r;
    ntsim_json_number_t n;
    char shown[4 * 40 + 4], range[96];
    ntsim_json_kind_t kind = ntsim_json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(j, r);
    if (kind != NTSIM_JSON_NUMBER)
        return fail(j->err, j->cap, "events[%zu].%s: missing or not an integer", i,
                    event_keys[k]);
    if (!ntsim_json_number(r, &n))
        return syntax(j, r);
    if (!n.integer)
        return fail(j->err, j->cap, "events[%zu].%s: %s is not an integer", i, event_keys[k],
                    token_text(r, &n, shown));
    field_shape_t shape = k == K_NC ? U32 : U64;
    if (integer_pattern(shape, &n, out) != VAL_OK)
        return fail(j->err, j->cap, "events[%zu].%s: %s is out of range (%s)", i, event_keys[k],
                    token_text(r, &n, shown), range_text(shape, range, sizeof range));
    return NRT_SUCCESS;
}

static NRT_STATUS json_event(jdoc_t *j, nrt_sys_trace_event_t *rec, size_t i)
{
    static const char not_event[] = "events[%zu]: not an event (event_type and phase strings)";
    ntsim_json_reader_t *r = &j->r;
    memset(rec, 0, sizeof *rec);
    ntsim_json_kind_t kind = ntsim_json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(j, r);
    if (kind != NTSIM_JSON_OBJECT)
        return fail(j->err, j->cap, not_event, i);
    bool seen[K_COUNT] = {false}, first = true;
    uint64_t val[K_COUNT] = {0};
    char key[16], type[48], phase[16];
    size_t len, type_len = 0, phase_len = 0;
    ntsim_json_reader_t data_at = *r; /* at data's '{': read once type and phase are known */
    NRT_STATUS st;
    if (!ntsim_json_begin(r, '{'))
        return syntax(j, r);
    while (ntsim_json_more(r, '{', &first)) {
        if (!ntsim_json_key(r, key, sizeof key, &len))
            return syntax(j, r);
        size_t k = 0;
        while (k < K_COUNT && (len >= sizeof key || strcmp(event_keys[k], key) != 0))
            k++;
        if (k == K_COUNT) {
            if (!ntsim_json_skip(r))
                return syntax(j, r);
            continue;
        }
        if (seen[k])
            return fail(j->err, j->cap, "events[%zu].%s: listed twice", i, key);
        seen[k] = true;
        kind = ntsim_json_peek(r);
        if (kind == NTSIM_JSON_NONE)
            return bad_value(j, r);
        if (k == K_TYPE || k == K_PHASE) {
            if (kind != NTSIM_JSON_STRING)
                return fail(j->err, j->cap, not_event, i);
            bool ok = k == K_TYPE ? ntsim_json_string(r, type, sizeof type, &type_len)
                                  : ntsim_json_string(r, phase, sizeof phase, &phase_len);
            if (!ok)
                return syntax(j, r);
        } else if (k == K_DATA) {
            if (kind != NTSIM_JSON_OBJECT)
                return fail(j->err, j->cap, "events[%zu].data: not an object", i);
            data_at = *r;
            if (!ntsim_json_skip(r))
                return syntax(j, r);
        } else if ((st = json_integer(j, i, k, &val[k])) != NRT_SUCCESS) {
            return st;
        }
    }
    if (r->failed)
        return syntax(j, r);
    if (!seen[K_TYPE] || !seen[K_PHASE])
        return fail(j->err, j->cap, not_event, i);
    const ntsim_event_type_desc_t *d =
        type_len < sizeof type ? ntsim__event_type_by_json_name(type) : NULL;
    rec->trace_type = d != NULL ? d->type : NRT_SYS_TRACE_EVENT_TYPE_COUNT;
    if (d == NULL && strcmp(type, "unknown") != 0) {
        char shown[4 * 40 + 4];
        return fail(j->err, j->cap, "events[%zu].event_type: \"%s\" is no event type", i,
                    ntsim_text_escape(type, type_len < sizeof type ? type_len : sizeof type - 1,
                                      40, shown));
    }
    uint32_t p = 0;
    while (p < 4 && (phase_len >= sizeof phase || strcmp(phase_names[p], phase) != 0))
        p++;
    if (p == 4)
        return fail(j->err, j->cap, "events[%zu].phase: not start, stop, instant or unknown", i);
    rec->phase = (nrt_sys_trace_event_phase_t)p;
    for (size_t k = K_ID; k <= K_TIME; k++)
        if (!seen[k])
            return fail(j->err, j->cap, "events[%zu].%s: missing or not an integer", i,
                        event_keys[k]);
    rec->id = val[K_ID];
    rec->nc_idx = (uint32_t)val[K_NC]; /* checked against U32 as it was read */
    rec->nc_local_id = val[K_LOCAL];
    rec->tracking_id = val[K_TRACKING];
    rec->thread_id = val[K_THREAD];
    rec->timestamp_ns = val[K_TIME];
    rec->nrta_seq_id = val[K_SEQ];
    rec->has_nrta_seq_id = seen[K_SEQ];
    if (!seen[K_DATA])
        return fail(j->err, j->cap, "events[%zu].data: not an object", i);
    /* A device event's timestamp_ns is its device time moved to the host's
     * with its execution's sync point, or its raw device time (D-JSON-TIME);
     * either way the record keeps it, and its sync_info keeps no host half:
     * the document has none (D-TIMELINE-INPUT). */
    return json_data(j, &data_at, rec, i);
}

/* The events array (the reader at its first byte), counted against max_events. */
static NRT_STATUS json_events(jdoc_t *j, nrt_sys_trace_event_t **recs, size_t *n)
{
    ntsim_json_reader_t *r = &j->r;
    ntsim_json_kind_t kind = ntsim_json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(j, r);
    if (kind != NTSIM_JSON_ARRAY)
        return fail(j->err, j->cap, "events: not an array (not a fetch document)");
    bool first = true;
    size_t cap = 0;
    NRT_STATUS st;
    if (!ntsim_json_begin(r, '['))
        return syntax(j, r);
    while (ntsim_json_more(r, '[', &first)) {
        if (*n >= j->max_events)
            return fail(j->err, j->cap,
                        "events: more than %llu events (the --max-events limit)",
                        (unsigned long long)j->max_events);
        if ((st = reserve(recs, &cap, *n, j->max_events, j->err, j->cap)) != NRT_SUCCESS ||
            (st = json_event(j, &(*recs)[*n], *n)) != NRT_SUCCESS)
            return st;
        ++*n;
    }
    return r->failed ? syntax(j, r) : NRT_SUCCESS;
}

static NRT_STATUS parse_json(const char *data, size_t len, uint64_t max_events,
                             nrt_sys_trace_event_t **recs, size_t *n, char *err, size_t cap)
{
    jdoc_t j = {.max_events = max_events, .err = err, .cap = cap};
    ntsim_json_reader_t *r = &j.r;
    ntsim_json_reader_init(r, data, len);
    ntsim_json_kind_t kind = ntsim_json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(&j, r);
    if (kind != NTSIM_JSON_OBJECT)
        return fail(err, cap, "events: not an array (not a fetch document)");
    bool first = true, seen = false;
    char key[16];
    size_t klen;
    NRT_STATUS st;
    if (!ntsim_json_begin(r, '{'))
        return syntax(&j, r);
    while (ntsim_json_more(r, '{', &first)) {
        if (!ntsim_json_key(r, key, sizeof key, &klen))
            return syntax(&j, r);
        if (klen != 6 || strcmp(key, "events") != 0) { /* data_version, or anything else */
            if (!ntsim_json_skip(r))
                return syntax(&j, r);
            continue;
        }
        if (seen)
            return fail(err, cap, "events: listed twice");
        seen = true;
        if ((st = json_events(&j, recs, n)) != NRT_SUCCESS)
            return st;
    }
    if (r->failed || !ntsim_json_end(r))
        return syntax(&j, r);
    return seen ? NRT_SUCCESS : fail(err, cap, "events: not an array (not a fetch document)");
}

/* --- NTFF -------------------------------------------------------------------------- */

static NRT_STATUS ntff_event(const Ntff__NtraceEvent *e, nrt_sys_trace_event_t *r, size_t i,
                             char *err, size_t cap)
{
    memset(r, 0, sizeof *r);
    if (!e->has_phase || e->phase < NTFF__NTRACE_EVENT_PHASE_TYPE__START)
        return fail(err, cap, "events[%zu].phase: missing or INVALID", i);
    r->trace_type = (nrt_sys_trace_event_type_t)(e->has_event_type ? e->event_type : 0);
    r->phase = (nrt_sys_trace_event_phase_t)(e->phase - 1);
    r->timestamp_ns = e->timestamp;
    r->nc_idx = e->nc_idx;
    r->thread_id = e->thread_id;
    r->id = e->id;
    r->nc_local_id = e->id & ((UINT64_C(1) << 50) - 1); /* D-IDS: id = seq | nc << 50 */
    r->tracking_id = e->tracking_id;
    if (e->has_nrta_seq_id) {
        r->nrta_seq_id = e->nrta_seq_id;
        r->has_nrta_seq_id = true;
    }
    const ntsim_data_view_t *v = ntsim__data_view((uint32_t)r->trace_type, (uint32_t)r->phase);
    for (size_t a = 0; a < e->n_attributes; a++) {
        const Ntff__NtraceEvent__AttributesEntry *at = e->attributes[a];
        const ntsim_data_key_t *key = NULL;
        /* A map entry on the wire may leave out its key or value (found by
         * make fuzz): protobuf-c then gives NULL, which is no key and no value. */
        if (at->key == NULL || at->value == NULL)
            return fail(err, cap, "events[%zu].attributes[%zu]: an entry without its %s", i, a,
                        at->key == NULL ? "key" : "value");
        for (size_t k = 0; k < v->count && key == NULL; k++)
            if (strcmp(v->keys[k].key_z, at->key) == 0)
                key = &v->keys[k];
        uint64_t val = 0;
        char shown[4 * 40 + 4], range[96];
        if (key == NULL)
            return fail(err, cap, "events[%zu].attributes.%s: not a key of %s", i,
                        ntsim_text_escape(at->key, strlen(at->key), 40, shown),
                        ntsim__event_type_desc((uint32_t)r->trace_type)
                            ? ntsim__event_type_desc((uint32_t)r->trace_type)->json_name
                            : "unknown");
        if (key->exec_model)
            continue;
        size_t len = strlen(at->value);
        val_status_t vs = parse_text(key, at->value, len, &val);
        ntsim_text_escape(at->value, len, 40, shown);
        if (vs == VAL_RANGE)
            return fail(err, cap, "events[%zu].attributes.%s: \"%s\" is out of range (%s)", i,
                        key->key_z, shown, range_text(key_shape(key), range, sizeof range));
        if (vs == VAL_BAD)
            return fail(err, cap, "events[%zu].attributes.%s: \"%s\" is not its value", i,
                        key->key_z, shown);
        store(r, key, val);
    }
    return NRT_SUCCESS;
}

static NRT_STATUS parse_ntff(const char *data, size_t len, uint64_t max_events,
                             nrt_sys_trace_event_t **recs, size_t *n, char *err, size_t cap)
{
    const uint8_t *b = (const uint8_t *)data;
    ntsim_wire_field_t f;
    size_t i = 0, events = 0, rest_len = 0;
    /* Pass 1: count the events against the limit before a record is kept,
     * and the bytes of the other fields; then check that those unpack as an
     * ntrace_info (copied out: only they are held twice, not the events). */
    while (i < len) {
        if (!ntsim_ntff_wire_next(b, len, &i, &f))
            return fail(err, cap, "offset %zu: not an ntrace_info (a bad field key or a "
                                  "truncated field)", f.start);
        if (!ntsim_ntff_wire_is_event(&f))
            rest_len += f.end - f.start;
        else if (++events > max_events)
            return fail(err, cap, "events: more than %llu events (the --max-events limit)",
                        (unsigned long long)max_events);
    }
    uint8_t *rest = malloc(rest_len ? rest_len : 1);
    if (rest == NULL)
        return out_of_memory(err, cap);
    rest_len = 0;
    for (i = 0; i < len && ntsim_ntff_wire_next(b, len, &i, &f);)
        if (!ntsim_ntff_wire_is_event(&f)) {
            memcpy(rest + rest_len, b + f.start, f.end - f.start);
            rest_len += f.end - f.start;
        }
    Ntff__NtraceInfo *info = ntff__ntrace_info__unpack(NULL, rest_len, rest);
    free(rest);
    if (info == NULL)
        return fail(err, cap, "offset 0: not an ntrace_info (%zu bytes protobuf-c cannot unpack)",
                    len);
    ntff__ntrace_info__free_unpacked(info, NULL);
    /* Pass 2: one event unpacked at a time, the records grown as they are
     * read (a file bad at its first event costs nothing more). */
    NRT_STATUS st = NRT_SUCCESS;
    size_t kept = 0;
    for (i = 0; i < len && st == NRT_SUCCESS && ntsim_ntff_wire_next(b, len, &i, &f);) {
        if (!ntsim_ntff_wire_is_event(&f))
            continue;
        if ((st = reserve(recs, &kept, *n, events, err, cap)) != NRT_SUCCESS)
            return st;
        Ntff__NtraceEvent *e = ntff__ntrace_event__unpack(NULL, f.value_len, b + f.value);
        if (e == NULL)
            return fail(err, cap, "events[%zu] (offset %zu): not an ntrace_event (protobuf-c "
                                  "cannot unpack it)", *n, f.start);
        st = ntff_event(e, &(*recs)[*n], *n, err, cap);
        ntff__ntrace_event__free_unpacked(e, NULL);
        ++*n;
    }
    return st;
}

/* --- the entry points ---------------------------------------------------------------- */

/* A record dump's size against the limits; its record count into *n. */
static NRT_STATUS check_dump(size_t len, uint64_t max_events, size_t *n, char *err, size_t cap)
{
    const size_t rec = sizeof(nrt_sys_trace_event_t);
    if (len % rec != 0)
        return fail(err, cap, "offset %zu: a record dump must be whole 112-byte records (%zu "
                              "records and %zu bytes over)",
                    len - len % rec, len / rec, len % rec);
    if (len / rec > max_events)
        return fail(err, cap, "events: more than %llu events (the --max-events limit; the dump "
                              "holds %zu records)",
                    (unsigned long long)max_events, len / rec);
    *n = len / rec;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_trace_input_parse(const char *kind, const char *data, size_t len,
                                   uint64_t max_events, nrt_sys_trace_event_t **recs, size_t *n,
                                   char *err, size_t cap)
{
    *recs = NULL;
    *n = 0;
    NRT_STATUS st;
    if (ntsim_ends_with(kind, ".json")) {
        st = parse_json(data, len, max_events, recs, n, err, cap);
    } else if (ntsim_ends_with(kind, ".ntff")) {
        st = parse_ntff(data, len, max_events, recs, n, err, cap);
    } else if ((st = check_dump(len, max_events, n, err, cap)) == NRT_SUCCESS && *n > 0) {
        if ((*recs = malloc(len)) == NULL)
            st = out_of_memory(err, cap);
        else
            memcpy(*recs, data, len);
    }
    if (st != NRT_SUCCESS) {
        free(*recs);
        *recs = NULL;
        *n = 0;
    }
    return st;
}

NRT_STATUS ntsim_trace_input_read(const char *path, uint64_t max_events,
                                  nrt_sys_trace_event_t **recs, size_t *n, char *err, size_t cap)
{
    char *buf;
    size_t len;
    *recs = NULL;
    *n = 0;
    NRT_STATUS st = ntsim_read_input(path, NTSIM_INPUT_TRACE, &buf, &len, err, cap);
    if (st != NRT_SUCCESS)
        return st;
    if (!ntsim_ends_with(path, ".json") && !ntsim_ends_with(path, ".ntff")) {
        /* A record dump is its own records: the buffer is kept, not copied
         * (malloc's alignment suits the records). */
        st = check_dump(len, max_events, n, err, cap);
        if (st == NRT_SUCCESS && *n > 0)
            *recs = (nrt_sys_trace_event_t *)(void *)buf;
        else
            free(buf);
        return st;
    }
    st = ntsim_trace_input_parse(path, buf, len, max_events, recs, n, err, cap);
    free(buf);
    return st;
}
