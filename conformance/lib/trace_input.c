/*
 * conformance/lib/trace_input.c: a JSON fetch document, an .ntff file or a raw
 * record dump read back into records (trace_input.h, D-TIMELINE-INPUT).
 *
 * Both text formats carry a record's payload as its `data` keys (JSON) or
 * attributes (NTFF: the same keys, values as strings; facts §2). The one
 * table's data view says, per (type, phase), which payload field each key is
 * and how it is formatted, so reading is the writers' mapping run backwards:
 * a number, true/false, a dma_mem_usage_type_t name, "0x..." hex, or the
 * algorithm's decimal string. model_id=@exec_id keys are the runtime's
 * lookup, not payload, and are skipped.
 */
#include "trace_input.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_view.h"
#include "event_table.h"
#include "input.h"
#include "ntff.pb-c.h"

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

/* A key's text (an NTFF attribute, or a JSON string value) as its raw value. */
static bool parse_text(const ntsim_data_key_t *k, const char *s, uint64_t *v)
{
    char *end = NULL;
    errno = 0;
    switch (k->fmt) {
    case NTSIM_FMT_BOOL:
        if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
            *v = s[0] == 't';
            return true;
        }
        return false;
    case NTSIM_FMT_USAGE:
        for (uint64_t u = 0; u <= DMA_MEM_USAGE_TYPE_MAX; u++)
            if (ntsim__usage_type_name(u) != NULL && strcmp(ntsim__usage_type_name(u), s) == 0) {
                *v = u;
                return true;
            }
        break; /* an out-of-range value is written as its decimal */
    case NTSIM_FMT_HEX:
        if (strncmp(s, "0x", 2) != 0 || s[2] == '\0')
            return false;
        *v = strtoull(s + 2, &end, 16);
        return errno == 0 && *end == '\0';
    default:
        break;
    }
    if (*s == '\0')
        return false;
    if (k->is_signed)
        *v = (uint64_t)strtoll(s, &end, 10);
    else if (*s >= '0' && *s <= '9')
        *v = strtoull(s, &end, 10);
    else
        return false;
    return errno == 0 && *end == '\0';
}

static void store(nrt_sys_trace_event_t *r, const ntsim_data_key_t *k, uint64_t v)
{
    unsigned char *p = (unsigned char *)&r->data + k->offset;
    for (size_t i = 0; i < k->size; i++) /* little-endian, as the record is laid out */
        p[i] = (unsigned char)(v >> (8 * i));
}

/* --- JSON ------------------------------------------------------------------------ */

static const char *const phase_names[] = {"start", "stop", "instant", "unknown"};

static bool json_u64(json_t *o, const char *key, uint64_t *v)
{
    json_t *j = json_object_get(o, key);
    if (!json_is_integer(j))
        return false;
    *v = (uint64_t)json_integer_value(j);
    return true;
}

static NRT_STATUS json_data(json_t *data, nrt_sys_trace_event_t *r, size_t i, char *err,
                            size_t cap)
{
    const ntsim_data_view_t *v = ntsim__data_view((uint32_t)r->trace_type, (uint32_t)r->phase);
    for (size_t k = 0; k < v->count; k++) {
        const ntsim_data_key_t *key = &v->keys[k];
        json_t *j = json_object_get(data, key->key_z);
        uint64_t val;
        if (key->exec_model || (j == NULL && key->fmt == NTSIM_FMT_ALGO))
            continue;
        if (j == NULL)
            return fail(err, cap, "events[%zu].data.%s: missing", i, key->key_z);
        bool ok = json_is_integer(j)  ? (val = (uint64_t)json_integer_value(j), true)
                  : json_is_boolean(j) ? (val = json_is_true(j), key->fmt == NTSIM_FMT_BOOL)
                  : json_is_string(j)  ? parse_text(key, json_string_value(j), &val)
                                       : false;
        if (!ok)
            return fail(err, cap, "events[%zu].data.%s: not a value of this key", i,
                        key->key_z);
        store(r, key, val);
    }
    return NRT_SUCCESS;
}

static NRT_STATUS json_event(json_t *e, nrt_sys_trace_event_t *r, size_t i, char *err,
                             size_t cap)
{
    memset(r, 0, sizeof *r);
    json_t *type = json_object_get(e, "event_type"), *phase = json_object_get(e, "phase");
    if (!json_is_object(e) || !json_is_string(type) || !json_is_string(phase))
        return fail(err, cap, "events[%zu]: not an event (event_type and phase strings)", i);
    const ntsim_event_type_desc_t *d = ntsim__event_type_by_json_name(json_string_value(type));
    r->trace_type = d != NULL ? d->type : NRT_SYS_TRACE_EVENT_TYPE_COUNT;
    if (d == NULL && strcmp(json_string_value(type), "unknown") != 0)
        return fail(err, cap, "events[%zu].event_type: \"%s\" is no event type", i,
                    json_string_value(type));
    uint32_t p = 0;
    while (p < 4 && strcmp(phase_names[p], json_string_value(phase)) != 0)
        p++;
    if (p == 4)
        return fail(err, cap, "events[%zu].phase: not start, stop, instant or unknown", i);
    r->phase = (nrt_sys_trace_event_phase_t)p;
    uint64_t nc, seq;
    static const char *const keys[] = {"id", "nc_idx", "nc_local_id", "tracking_id", "thread_id",
                                       "timestamp_ns"};
    uint64_t *dst[] = {&r->id, &nc, &r->nc_local_id, &r->tracking_id, &r->thread_id,
                       &r->timestamp_ns};
    for (size_t k = 0; k < 6; k++)
        if (!json_u64(e, keys[k], dst[k]))
            return fail(err, cap, "events[%zu].%s: missing or not an integer", i, keys[k]);
    if (nc > UINT32_MAX)
        return fail(err, cap, "events[%zu].nc_idx: out of range", i);
    r->nc_idx = (uint32_t)nc;
    if (json_u64(e, "nrta_seq_id", &seq)) {
        r->nrta_seq_id = seq;
        r->has_nrta_seq_id = true;
    }
    json_t *data = json_object_get(e, "data");
    if (!json_is_object(data))
        return fail(err, cap, "events[%zu].data: not an object", i);
    /* A device event's timestamp_ns is its device time moved to the host's
     * with its execution's sync point, or its raw device time (D-JSON-TIME);
     * either way the record keeps it, and its sync_info keeps no host half:
     * the document has none (D-TIMELINE-INPUT). */
    return json_data(data, r, i, err, cap);
}

static NRT_STATUS parse_json(const char *data, size_t len, nrt_sys_trace_event_t **recs,
                             size_t *n, char *err, size_t cap)
{
    json_error_t je;
    json_t *doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (doc == NULL)
        return fail(err, cap, "%d:%d: %s", je.line, je.column, je.text);
    json_t *events = json_object_get(doc, "events");
    NRT_STATUS st = NRT_SUCCESS;
    if (!json_is_array(events)) {
        st = fail(err, cap, "events: not an array (not a fetch document)");
    } else if ((*n = json_array_size(events)) > 0) {
        *recs = malloc(*n * sizeof **recs);
        if (*recs == NULL)
            st = NRT_RESOURCE;
        for (size_t i = 0; i < *n && st == NRT_SUCCESS; i++)
            st = json_event(json_array_get(events, i), &(*recs)[i], i, err, cap);
    }
    json_decref(doc);
    return st;
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
        uint64_t val;
        if (key == NULL)
            return fail(err, cap, "events[%zu].attributes.%s: not a key of %s", i, at->key,
                        ntsim__event_type_desc((uint32_t)r->trace_type)
                            ? ntsim__event_type_desc((uint32_t)r->trace_type)->json_name
                            : "unknown");
        if (key->exec_model)
            continue;
        if (!parse_text(key, at->value, &val))
            return fail(err, cap, "events[%zu].attributes.%s: \"%s\" is not its value", i,
                        at->key, at->value);
        store(r, key, val);
    }
    return NRT_SUCCESS;
}

static NRT_STATUS parse_ntff(const char *data, size_t len, nrt_sys_trace_event_t **recs,
                             size_t *n, char *err, size_t cap)
{
    Ntff__NtraceInfo *info = ntff__ntrace_info__unpack(NULL, len, (const uint8_t *)data);
    if (info == NULL)
        return fail(err, cap, "offset 0: not an ntrace_info (%zu bytes protobuf-c cannot unpack)",
                    len);
    NRT_STATUS st = NRT_SUCCESS;
    if ((*n = info->n_events) > 0) {
        *recs = malloc(*n * sizeof **recs);
        if (*recs == NULL)
            st = NRT_RESOURCE;
        for (size_t i = 0; i < *n && st == NRT_SUCCESS; i++)
            st = ntff_event(info->events[i], &(*recs)[i], i, err, cap);
    }
    ntff__ntrace_info__free_unpacked(info, NULL);
    return st;
}

/* --- the entry points ---------------------------------------------------------------- */

NRT_STATUS ntsim_trace_input_parse(const char *kind, const char *data, size_t len,
                                   nrt_sys_trace_event_t **recs, size_t *n, char *err,
                                   size_t cap)
{
    *recs = NULL;
    *n = 0;
    NRT_STATUS st;
    if (ntsim_ends_with(kind, ".json")) {
        st = parse_json(data, len, recs, n, err, cap);
    } else if (ntsim_ends_with(kind, ".ntff")) {
        st = parse_ntff(data, len, recs, n, err, cap);
    } else if (len % sizeof **recs != 0) {
        st = fail(err, cap, "offset %zu: a record dump must be whole 112-byte records (%zu "
                            "records and %zu bytes over)",
                  len - len % sizeof **recs, len / sizeof **recs, len % sizeof **recs);
    } else {
        *n = len / sizeof **recs;
        *recs = *n ? malloc(len) : NULL;
        st = *n && *recs == NULL ? NRT_RESOURCE : NRT_SUCCESS;
        if (*recs != NULL)
            memcpy(*recs, data, len);
    }
    if (st != NRT_SUCCESS) {
        free(*recs);
        *recs = NULL;
        *n = 0;
    }
    return st;
}

NRT_STATUS ntsim_trace_input_read(const char *path, nrt_sys_trace_event_t **recs, size_t *n,
                                  char *err, size_t cap)
{
    char *buf;
    size_t len;
    *recs = NULL;
    *n = 0;
    NRT_STATUS st = ntsim_read_input(path, NTSIM_INPUT_TRACE, &buf, &len, err, cap);
    if (st != NRT_SUCCESS)
        return st;
    st = ntsim_trace_input_parse(path, buf, len, recs, n, err, cap);
    free(buf);
    return st;
}
