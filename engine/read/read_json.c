/*
 * engine/read/read_json.c: a JSON fetch document read back into records
 * (read_int.h; D-READ, D-TIMELINE-INPUT, D-TRACE-READER).
 *
 * The document is read value by value (json_reader.h): no tree, so memory
 * does not grow with what is not kept, and the events are counted against
 * max_events as they are read. Each event becomes the record the writers
 * were given: type, phase, ids, thread, NC, and its data keys back in the
 * payload fields they came from (read_values.c). model_id=@exec_id keys are
 * the runtime's lookup, not payload, and are passed over. A Chrome trace
 * JSON (an array, or an object with "traceEvents") is named and refused.
 */
#include <stdio.h>
#include <string.h>

#include "event_table.h"
#include "input.h"
#include "read_int.h"

/* --- JSON ------------------------------------------------------------------------ */

static const char *const phase_names[] = {"start", "stop", "instant", "unknown"};

/* The event keys read; any other key (worker_gid, a future one) is passed over. */
enum { K_TYPE, K_PHASE, K_ID, K_NC, K_LOCAL, K_TRACKING, K_THREAD, K_TIME, K_SEQ, K_DATA, K_COUNT };
static const char *const event_keys[K_COUNT] = {
    "event_type", "phase", "id", "nc_idx", "nc_local_id", "tracking_id", "thread_id",
    "timestamp_ns", "nrta_seq_id", "data"};

typedef struct jdoc {
    ntsim_json_reader_t r;
    ntsim__read_t *rd;
} jdoc_t;

/* The reader's problem as "line:column: message". */
static NRT_STATUS syntax(jdoc_t *j, const ntsim_json_reader_t *r)
{
    unsigned long line, col;
    ntsim__json_position(r, r->at, &line, &col);
    return ntsim__read_fail(j->rd, "%lu:%lu: %s", line, col, r->msg);
}

/* Reports the syntax problem of a value that cannot start here. */
static NRT_STATUS bad_value(jdoc_t *j, ntsim_json_reader_t *r)
{
    (void)ntsim__json_skip(r);
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
    ntsim__val_t vs = NTSIM__VAL_BAD;
    switch (ntsim__json_peek(r)) {
    case NTSIM_JSON_NUMBER:
        if (!ntsim__json_number(r, &n))
            return syntax(j, r);
        if (n.integer && key->fmt != NTSIM_FMT_BOOL)
            vs = ntsim__read_integer(ntsim__read_key_shape(key), &n, &val);
        token_text(r, &n, shown);
        break;
    case NTSIM_JSON_TRUE:
    case NTSIM_JSON_FALSE:
        if (!ntsim__json_literal(r, &b))
            return syntax(j, r);
        val = b;
        vs = key->fmt == NTSIM_FMT_BOOL ? NTSIM__VAL_OK : NTSIM__VAL_BAD;
        break;
    case NTSIM_JSON_STRING:
        if (!ntsim__json_string(r, text, sizeof text, &len))
            return syntax(j, r);
        /* No value of any key is 63 bytes long ("0x" and 16 digits at most). */
        vs = len < sizeof text ? ntsim__read_text(key, text, len, &val) : NTSIM__VAL_BAD;
        snprintf(shown, sizeof shown, "\"%s\"",
                 ntsim_text_escape(text, len < sizeof text ? len : sizeof text - 1, 36, escaped));
        break;
    case NTSIM_JSON_NONE:
        return bad_value(j, r);
    default:
        if (!ntsim__json_skip(r))
            return syntax(j, r);
        break;
    }
    if (vs == NTSIM__VAL_RANGE)
        return ntsim__read_fail(j->rd, "events[%zu].data.%s: %s is out of range (%s)", i,
                    key->key_z, shown, ntsim__read_range_text(ntsim__read_key_shape(key), range, sizeof range));
    if (vs == NTSIM__VAL_BAD)
        return ntsim__read_fail(j->rd, "events[%zu].data.%s: not a value of this key", i,
                    key->key_z);
    ntsim__read_store(rec, key, val);
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
    if (!ntsim__json_begin(r, '{'))
        return syntax(j, r);
    while (ntsim__json_more(r, '{', &first)) {
        if (!ntsim__json_key(r, name, sizeof name, &len))
            return syntax(j, r);
        size_t k = 0;
        while (k < v->count && (len >= sizeof name || strcmp(v->keys[k].key_z, name) != 0))
            k++;
        if (k == v->count || v->keys[k].exec_model) { /* not payload: passed over */
            if (!ntsim__json_skip(r))
                return syntax(j, r);
            continue;
        }
        if (seen[k])
            return ntsim__read_fail(j->rd, "events[%zu].data.%s: listed twice", i, name);
        seen[k] = true;
        NRT_STATUS st = json_value(j, r, &v->keys[k], rec, i);
        if (st != NRT_SUCCESS)
            return st;
    }
    if (r->failed)
        return syntax(j, r);
    for (size_t k = 0; k < v->count; k++)
        if (!seen[k] && !v->keys[k].exec_model && v->keys[k].fmt != NTSIM_FMT_ALGO)
            return ntsim__read_fail(j->rd, "events[%zu].data.%s: missing", i, v->keys[k].key_z);
    return NRT_SUCCESS;
}

/* One of the integer keys of an event. */
static NRT_STATUS json_integer(jdoc_t *j, size_t i, size_t k, uint64_t *out)
{
    ntsim_json_reader_t *r = &j->r;
    ntsim_json_number_t n;
    char shown[4 * 40 + 4], range[96];
    ntsim_json_kind_t kind = ntsim__json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(j, r);
    if (kind != NTSIM_JSON_NUMBER)
        return ntsim__read_fail(j->rd, "events[%zu].%s: missing or not an integer", i,
                    event_keys[k]);
    if (!ntsim__json_number(r, &n))
        return syntax(j, r);
    if (!n.integer)
        return ntsim__read_fail(j->rd, "events[%zu].%s: %s is not an integer", i, event_keys[k],
                    token_text(r, &n, shown));
    ntsim__field_shape_t shape = {k == K_NC ? 4 : 8, false}; /* nc_idx u32, the rest u64 */
    if (ntsim__read_integer(shape, &n, out) != NTSIM__VAL_OK)
        return ntsim__read_fail(j->rd, "events[%zu].%s: %s is out of range (%s)", i, event_keys[k],
                    token_text(r, &n, shown), ntsim__read_range_text(shape, range, sizeof range));
    return NRT_SUCCESS;
}

static NRT_STATUS json_event(jdoc_t *j, nrt_sys_trace_event_t *rec, size_t i)
{
    static const char not_event[] = "events[%zu]: not an event (event_type and phase strings)";
    ntsim_json_reader_t *r = &j->r;
    memset(rec, 0, sizeof *rec);
    ntsim_json_kind_t kind = ntsim__json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(j, r);
    if (kind != NTSIM_JSON_OBJECT)
        return ntsim__read_fail(j->rd, not_event, i);
    bool seen[K_COUNT] = {false}, first = true;
    uint64_t val[K_COUNT] = {0};
    char key[16], type[48], phase[16];
    size_t len, type_len = 0, phase_len = 0;
    ntsim_json_reader_t data_at = *r; /* at data's '{': read once type and phase are known */
    NRT_STATUS st;
    if (!ntsim__json_begin(r, '{'))
        return syntax(j, r);
    while (ntsim__json_more(r, '{', &first)) {
        if (!ntsim__json_key(r, key, sizeof key, &len))
            return syntax(j, r);
        size_t k = 0;
        while (k < K_COUNT && (len >= sizeof key || strcmp(event_keys[k], key) != 0))
            k++;
        if (k == K_COUNT) {
            if (!ntsim__json_skip(r))
                return syntax(j, r);
            continue;
        }
        if (seen[k])
            return ntsim__read_fail(j->rd, "events[%zu].%s: listed twice", i, key);
        seen[k] = true;
        kind = ntsim__json_peek(r);
        if (kind == NTSIM_JSON_NONE)
            return bad_value(j, r);
        if (k == K_TYPE || k == K_PHASE) {
            if (kind != NTSIM_JSON_STRING)
                return ntsim__read_fail(j->rd, not_event, i);
            bool ok = k == K_TYPE ? ntsim__json_string(r, type, sizeof type, &type_len)
                                  : ntsim__json_string(r, phase, sizeof phase, &phase_len);
            if (!ok)
                return syntax(j, r);
        } else if (k == K_DATA) {
            if (kind != NTSIM_JSON_OBJECT)
                return ntsim__read_fail(j->rd, "events[%zu].data: not an object", i);
            data_at = *r;
            if (!ntsim__json_skip(r))
                return syntax(j, r);
        } else if ((st = json_integer(j, i, k, &val[k])) != NRT_SUCCESS) {
            return st;
        }
    }
    if (r->failed)
        return syntax(j, r);
    if (!seen[K_TYPE] || !seen[K_PHASE])
        return ntsim__read_fail(j->rd, not_event, i);
    const ntsim_event_type_desc_t *d =
        type_len < sizeof type ? ntsim__event_type_by_json_name(type) : NULL;
    rec->trace_type = d != NULL ? d->type : NRT_SYS_TRACE_EVENT_TYPE_COUNT;
    if (d == NULL && strcmp(type, "unknown") != 0) {
        char shown[4 * 40 + 4];
        return ntsim__read_fail(j->rd, "events[%zu].event_type: \"%s\" is no event type", i,
                    ntsim_text_escape(type, type_len < sizeof type ? type_len : sizeof type - 1,
                                      40, shown));
    }
    uint32_t p = 0;
    while (p < 4 && (phase_len >= sizeof phase || strcmp(phase_names[p], phase) != 0))
        p++;
    if (p == 4)
        return ntsim__read_fail(j->rd, "events[%zu].phase: not start, stop, instant or unknown", i);
    rec->phase = (nrt_sys_trace_event_phase_t)p;
    for (size_t k = K_ID; k <= K_TIME; k++)
        if (!seen[k])
            return ntsim__read_fail(j->rd, "events[%zu].%s: missing or not an integer", i,
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
        return ntsim__read_fail(j->rd, "events[%zu].data: not an object", i);
    /* A device event's timestamp_ns is its device time moved to the host's
     * with its execution's sync point, or its raw device time (D-JSON-TIME);
     * either way the record keeps it, and its sync_info keeps no host half:
     * the document has none (D-TIMELINE-INPUT). */
    return json_data(j, &data_at, rec, i);
}

/* The events array (the reader at its first byte), counted against max_events. */
static NRT_STATUS json_events(jdoc_t *j)
{
    ntsim_json_reader_t *r = &j->r;
    ntsim_trace_t *t = j->rd->trace;
    ntsim_json_kind_t kind = ntsim__json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(j, r);
    if (kind != NTSIM_JSON_ARRAY)
        return ntsim__read_fail(j->rd, "events: not an array (not a fetch document)");
    bool first = true;
    NRT_STATUS st;
    if (!ntsim__json_begin(r, '['))
        return syntax(j, r);
    while (ntsim__json_more(r, '[', &first)) {
        uint64_t i = ntsim__read_index(j->rd);
        if (i >= j->rd->max_events)
            return ntsim__read_too_many(j->rd);
        if ((st = ntsim__read_reserve(j->rd, t->event_count, j->rd->max_events)) != NRT_SUCCESS ||
            (st = json_event(j, &t->events[t->event_count], (size_t)i)) != NRT_SUCCESS)
            return st;
        t->event_count++;
    }
    return r->failed ? syntax(j, r) : NRT_SUCCESS;
}

/* A Chrome trace JSON given as input: named, and refused. */
static NRT_STATUS chrome_json(jdoc_t *j)
{
    return ntsim__read_fail(j->rd, "%s: ntsim reads %s",
                            ntsim_trace_format_title(NTSIM_TRACE_FORMAT_CHROME_JSON),
                            ntsim__read_formats_read());
}

NRT_STATUS ntsim__read_json(ntsim__read_t *rd, const char *data, size_t len)
{
    jdoc_t j = {.rd = rd};
    ntsim_json_reader_t *r = &j.r;
    ntsim__json_reader_init(r, data, len);
    ntsim_json_kind_t kind = ntsim__json_peek(r);
    if (kind == NTSIM_JSON_NONE)
        return bad_value(&j, r);
    if (kind == NTSIM_JSON_ARRAY) /* the Trace Event Format's array form */
        return chrome_json(&j);
    if (kind != NTSIM_JSON_OBJECT)
        return ntsim__read_fail(rd, "events: not an array (not a fetch document)");
    bool first = true, seen = false;
    char key[16];
    size_t klen;
    NRT_STATUS st;
    if (!ntsim__json_begin(r, '{'))
        return syntax(&j, r);
    while (ntsim__json_more(r, '{', &first)) {
        if (!ntsim__json_key(r, key, sizeof key, &klen))
            return syntax(&j, r);
        if (klen == 11 && strcmp(key, "traceEvents") == 0)
            return chrome_json(&j);
        if (klen != 6 || strcmp(key, "events") != 0) { /* data_version, or anything else */
            if (!ntsim__json_skip(r))
                return syntax(&j, r);
            continue;
        }
        if (seen)
            return ntsim__read_fail(rd, "events: listed twice");
        seen = true;
        if ((st = json_events(&j)) != NRT_SUCCESS)
            return st;
    }
    if (r->failed || !ntsim__json_end(r))
        return syntax(&j, r);
    return seen ? NRT_SUCCESS : ntsim__read_fail(rd, "events: not an array (not a fetch document)");
}
