/*
 * conformance/lib/record_input.c: reading records and payloads out of vectors.
 *
 * Shared by the record, json and ntff kinds. A payload is given by field
 * name (checked against the fields of the member that (type, phase) carries,
 * per the one table), or as 40 raw bytes; a record either field by field or
 * as 112 bytes of hex:
 *
 *   {type: HW_NOTIFY, phase: INSTANT, nc_idx: 1, id: 0, nc_local_id: 0,
 *    tracking_id: 0, thread_id: 4242, timestamp_ns: 1000, nrta_seq_id: 7,
 *    data_fill: 0xff, data: {hint: 0xbeef}}             # or data_raw: "..."
 *   {hex: "18000000 00000000 ..."}
 *
 * A record given by fields has zero padding; nrta_seq_id present sets
 * has_nrta_seq_id. Every field but type and phase defaults to 0.
 */
#include "record_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_fixture.h"
#include "event_table.h"
#include "input.h"

static const char *const phase_names[] = {"START", "STOP", "INSTANT"};

/* Parses hex digits, ignoring spaces and newlines, into exactly n bytes. */
bool ntsim_vec_parse_hex(const char *s, uint8_t *out, size_t n)
{
    size_t digits = 0;
    for (; *s; s++) {
        if (*s == ' ' || *s == '\n' || *s == '\t')
            continue;
        int v;
        if (*s >= '0' && *s <= '9') v = *s - '0';
        else if (*s >= 'a' && *s <= 'f') v = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'F') v = *s - 'A' + 10;
        else return false;
        if (digits / 2 >= n)
            return false;
        if (digits % 2 == 0)
            out[digits / 2] = (uint8_t)(v << 4);
        else
            out[digits / 2] |= (uint8_t)v;
        digits++;
    }
    return digits == 2 * n;
}

/* An enum suffix (e.g. HW_NOTIFY) or a plain integer. */
NRT_STATUS ntsim_vec_parse_type(ntsim_yparse_t *p, yaml_node_t *map, const char *path, uint32_t *out)
{
    const char *text;
    NRT_STATUS st = ntsim_yp_str(p, map, path, "type", true, &text);
    if (st != NRT_SUCCESS)
        return st;
    char name[128];
    ntsim_yp_path(name, sizeof name, "NRT_SYS_TRACE_EVENT_TYPE_%s", text);
    const ntsim_event_type_desc_t *d = ntsim__event_type_by_enum_name(name);
    if (d != NULL) {
        *out = (uint32_t)d->type;
        return NRT_SUCCESS;
    }
    /* COUNT: the sentinel, the first value that is not a type. Vectors that
     * pin the boundary say COUNT, so they follow the enum when a type is
     * added (vectors/README.md, "Adding an event type"); the enum vector pins
     * COUNT's value. */
    if (strcmp(text, "COUNT") == 0) {
        *out = (uint32_t)NRT_SYS_TRACE_EVENT_TYPE_COUNT;
        return NRT_SUCCESS;
    }
    uint64_t v;
    if (text[0] >= '0' && text[0] <= '9')
        return ntsim_yp_u64(p, map, path, "type", true, UINT32_MAX, &v) == NRT_SUCCESS
                   ? (*out = (uint32_t)v, NRT_SUCCESS)
                   : NRT_INVALID;
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.type", path);
    return ntsim_yp_error(p, ntsim_yp_get(p, map, "type"), field,
                          "'%s' is not an event type (an enum suffix such as HW_NOTIFY, COUNT, "
                          "or an integer)", text);
}

NRT_STATUS ntsim_vec_parse_phase(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                                 uint32_t *out)
{
    const char *text;
    NRT_STATUS st = ntsim_yp_str(p, map, path, "phase", true, &text);
    if (st != NRT_SUCCESS)
        return st;
    for (uint32_t ph = 0; ph < 3; ph++)
        if (strcmp(text, phase_names[ph]) == 0) {
            *out = ph;
            return NRT_SUCCESS;
        }
    uint64_t v;
    if (text[0] >= '0' && text[0] <= '9')
        return ntsim_yp_u64(p, map, path, "phase", true, UINT32_MAX, &v) == NRT_SUCCESS
                   ? (*out = (uint32_t)v, NRT_SUCCESS)
                   : NRT_INVALID;
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.phase", path);
    return ntsim_yp_error(p, ntsim_yp_get(p, map, "phase"), field,
                          "'%s' is not a phase (START, STOP, INSTANT or an integer)", text);
}

/* Writes one field's value into the union bytes. */
static NRT_STATUS set_field(ntsim_yparse_t *p, yaml_node_t *data, const char *path,
                            const ntsim_field_desc_t *f, uint8_t *bytes)
{
    NRT_STATUS st;
    if (f->kind == NTSIM_FIELD_SYNC_INFO) {
        yaml_node_t *sub = ntsim_yp_get(p, data, f->name);
        char spath[512];
        ntsim_yp_path(spath, sizeof spath, "%s.%s", path, f->name);
        static const char *const sync_keys[] = {"nc_timestamp_ns", "cpu_timestamp_ns", NULL};
        if ((st = ntsim_yp_check_keys(p, sub, spath, sync_keys, NULL)) != NRT_SUCCESS)
            return st;
        for (size_t i = 0; i < 2; i++) {
            uint64_t v = 0;
            if ((st = ntsim_yp_u64(p, sub, spath, ntsim__sync_info_fields[i].name, false,
                                   UINT64_MAX, &v)) != NRT_SUCCESS)
                return st;
            memcpy(bytes + f->offset + ntsim__sync_info_fields[i].offset, &v, sizeof v);
        }
        return NRT_SUCCESS;
    }
    if (f->kind == NTSIM_FIELD_BOOL) {
        bool v = false;
        if ((st = ntsim_yp_bool(p, data, path, f->name, true, &v)) != NRT_SUCCESS)
            return st;
        bytes[f->offset] = v ? 1 : 0;
        return NRT_SUCCESS;
    }
    if (f->kind == NTSIM_FIELD_INT) {
        int64_t v;
        if ((st = ntsim_yp_int(p, data, path, f->name, true, INT32_MIN, INT32_MAX, &v)) !=
            NRT_SUCCESS)
            return st;
        int32_t i32 = (int32_t)v;
        memcpy(bytes + f->offset, &i32, sizeof i32);
        return NRT_SUCCESS;
    }
    uint64_t max = f->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * f->size)) - 1;
    if (f->kind == NTSIM_FIELD_USAGE_TYPE)
        max = UINT32_MAX; /* any value the enum's storage holds */
    uint64_t v;
    if ((st = ntsim_yp_u64(p, data, path, f->name, true, max, &v)) != NRT_SUCCESS)
        return st;
    /* Little-endian: the low f->size bytes of v are the field. */
    memcpy(bytes + f->offset, &v, f->size);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vec_parse_data(ntsim_yparse_t *p, yaml_node_t *emit, const char *path,
                                uint32_t type, uint32_t phase, bool *has_data,
                                nrt_sys_trace_event_data_t *out)
{
    NRT_STATUS st;
    uint8_t bytes[sizeof(nrt_sys_trace_event_data_t)];
    uint64_t fill = 0;
    if ((st = ntsim_yp_u64(p, emit, path, "data_fill", false, 0xff, &fill)) != NRT_SUCCESS)
        return st;
    memset(bytes, (int)fill, sizeof bytes);
    yaml_node_t *data = ntsim_yp_get(p, emit, "data");
    const char *raw = NULL;
    if ((st = ntsim_yp_str(p, emit, path, "data_raw", false, &raw)) != NRT_SUCCESS)
        return st;
    char dpath[512];
    ntsim_yp_path(dpath, sizeof dpath, "%s.data", path);
    if (data != NULL && raw != NULL)
        return ntsim_yp_error(p, data, dpath, "give data or data_raw, not both");
    *has_data = data != NULL || raw != NULL || ntsim_yp_get(p, emit, "data_fill") != NULL;
    if (raw != NULL && !ntsim_vec_parse_hex(raw, bytes, sizeof bytes))
        return ntsim_yp_error(p, ntsim_yp_get(p, emit, "data_raw"), dpath,
                              "data_raw must be exactly 40 bytes of hex");
    if (data != NULL) {
        ntsim_payload_id_t pid = ntsim__event_payload(type, phase);
        const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
        if (pid == NTSIM_PAYLOAD_NONE)
            return ntsim_yp_error(p, data, dpath,
                                  "(type %u, phase %u) carries no payload: use data_raw",
                                  type, phase);
        const char *names[8] = {0};
        for (size_t i = 0; i < d->field_count && i < 7; i++)
            names[i] = d->fields[i].name;
        if ((st = ntsim_yp_check_keys(p, data, dpath, names, NULL)) != NRT_SUCCESS)
            return st;
        for (size_t i = 0; i < d->field_count; i++) {
            if (ntsim_yp_get(p, data, d->fields[i].name) == NULL)
                continue; /* unset fields keep the fill */
            if ((st = set_field(p, data, dpath, &d->fields[i], bytes)) != NRT_SUCCESS)
                return st;
        }
    }
    memcpy(out, bytes, sizeof bytes);
    return NRT_SUCCESS;
}


static const char *const record_keys[] = {"type", "phase", "nc_idx", "id", "nc_local_id",
                                          "tracking_id", "thread_id", "timestamp_ns",
                                          "nrta_seq_id", "data_fill", "data", "data_raw", NULL};
static const char *const hex_keys[] = {"hex", NULL};

NRT_STATUS ntsim_vec_parse_record(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                  nrt_sys_trace_event_t *out)
{
    memset(out, 0, sizeof *out);
    NRT_STATUS st;
    if (ntsim_yp_get(p, node, "hex") != NULL) {
        const char *text;
        if ((st = ntsim_yp_check_keys(p, node, path, hex_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_str(p, node, path, "hex", true, &text)) != NRT_SUCCESS)
            return st;
        if (!ntsim_vec_parse_hex(text, (uint8_t *)out, sizeof *out)) {
            char field[512];
            ntsim_yp_path(field, sizeof field, "%s.hex", path);
            return ntsim_yp_error(p, ntsim_yp_get(p, node, "hex"), field,
                                  "expected exactly 112 bytes of hex");
        }
        return NRT_SUCCESS;
    }
    uint32_t type, phase;
    uint64_t nc = 0, seq = 0;
    bool has_data = false;
    if ((st = ntsim_yp_check_keys(p, node, path, record_keys, NULL)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_type(p, node, path, &type)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_phase(p, node, path, &phase)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "nc_idx", false, UINT32_MAX, &nc)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "id", false, UINT64_MAX, &out->id)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "nc_local_id", false, UINT64_MAX,
                           &out->nc_local_id)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "tracking_id", false, UINT64_MAX,
                           &out->tracking_id)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "thread_id", false, UINT64_MAX, &out->thread_id)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "timestamp_ns", false, UINT64_MAX,
                           &out->timestamp_ns)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "nrta_seq_id", false, UINT64_MAX, &seq)) !=
            NRT_SUCCESS ||
        (st = ntsim_vec_parse_data(p, node, path, type, phase, &has_data, &out->data)) !=
            NRT_SUCCESS)
        return st;
    out->trace_type = (nrt_sys_trace_event_type_t)type;
    out->phase = (nrt_sys_trace_event_phase_t)phase;
    out->nc_idx = (uint32_t)nc;
    out->has_nrta_seq_id = ntsim_yp_get(p, node, "nrta_seq_id") != NULL;
    out->nrta_seq_id = seq;
    if (!has_data)
        memset(&out->data, 0, sizeof out->data);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vec_parse_records(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                   const char *key, nrt_sys_trace_event_t **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    yaml_node_t *seq = ntsim_yp_get(p, node, key);
    char spath[512];
    ntsim_yp_path(spath, sizeof spath, "%s.%s", path, key);
    if (seq == NULL)
        return ntsim_yp_error(p, node, spath, "missing required field");
    if (seq->type != YAML_SEQUENCE_NODE)
        return ntsim_yp_error(p, seq, spath, "expected a sequence of records");
    size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    if (n > 0 && (*out = calloc(n, sizeof **out)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        char ipath[520];
        ntsim_yp_path(ipath, sizeof ipath, "%s[%zu]", spath, i);
        NRT_STATUS st = ntsim_vec_parse_record(p, ntsim_yp_node(p, seq->data.sequence.items.start[i]),
                                               ipath, &(*out)[i]);
        if (st != NRT_SUCCESS)
            return st;
        *count = i + 1;
    }
    return NRT_SUCCESS;
}

static const char *const model_keys[] = {"exec_id", "model_id", NULL};

NRT_STATUS ntsim_vec_parse_models(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                                  ntsim_vec_models_t *out)
{
    out->items = NULL;
    out->count = 0;
    if (ntsim_yp_get(p, map, "models") == NULL)
        return NRT_SUCCESS;
    yaml_node_item_t *items;
    size_t n;
    NRT_STATUS st = ntsim_yp_seq(p, map, path, "models", &items, &n);
    if (st != NRT_SUCCESS)
        return st;
    if ((out->items = calloc(n, sizeof *out->items)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *m = ntsim_yp_node(p, items[i]);
        char mpath[512];
        ntsim_yp_path(mpath, sizeof mpath, "%s.models[%zu]", path, i);
        if ((st = ntsim_yp_check_keys(p, m, mpath, model_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, m, mpath, "exec_id", true, UINT64_MAX,
                               &out->items[i].exec_id)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, m, mpath, "model_id", true, UINT64_MAX,
                               &out->items[i].model_id)) != NRT_SUCCESS)
            return st;
        out->count = i + 1;
    }
    /* The runtime's table gives each execution one model (D-JSON-MODEL-ID):
     * a second entry for an exec_id would make the vector say which one a
     * lookup must pick, which is nobody's contract. */
    ntsim_key_t *keys = calloc(n ? n : 1, sizeof *keys);
    if (keys == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++)
        keys[i] = (ntsim_key_t){NULL, out->items[i].exec_id, i};
    st = ntsim_yp_repeats(p, items, keys, n, path, "models", "exec_id", "exec_id");
    free(keys);
    return st;
}

/* --- sets of NCs and event types ------------------------------------------------ */

static NRT_STATUS set_error(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                            const char *key, const char *what)
{
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.%s", path, key);
    return ntsim_yp_error(p, node, field, "%s", what);
}

/* One member of a set: an NC index (< 256) or an event type (< COUNT). */
static bool set_member(const char *text, bool types, size_t *out)
{
    if (text == NULL || *text == '\0')
        return false;
    if (types) {
        char name[128];
        ntsim_yp_path(name, sizeof name, "NRT_SYS_TRACE_EVENT_TYPE_%s", text);
        const ntsim_event_type_desc_t *d = ntsim__event_type_by_enum_name(name);
        if (d != NULL) {
            *out = (size_t)d->type;
            return true;
        }
    }
    char *end = NULL;
    unsigned long v = (text[0] >= '0' && text[0] <= '9') ? strtoul(text, &end, 10) : 0;
    size_t limit = types ? NRT_SYS_TRACE_EVENT_TYPE_COUNT : NTSIM_NC_COUNT;
    if (end == NULL || *end != '\0' || (text[0] == '0' && text[1] != '\0') || v >= limit)
        return false;
    *out = (size_t)v;
    return true;
}

NRT_STATUS ntsim_vec_parse_set(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               const char *enabled_key, const char *disabled_key, bool types,
                               bool *given, bool *member)
{
    size_t n = types ? NRT_SYS_TRACE_EVENT_TYPE_COUNT : NTSIM_NC_COUNT;
    yaml_node_t *en = ntsim_yp_get(p, node, enabled_key);
    yaml_node_t *dis = ntsim_yp_get(p, node, disabled_key);
    if (en != NULL && dis != NULL)
        return set_error(p, dis, path, disabled_key, "give the enabled or the disabled set");
    if (en == NULL && dis == NULL)
        return NRT_SUCCESS;
    yaml_node_t *set = en != NULL ? en : dis;
    const char *key = en != NULL ? enabled_key : disabled_key;
    const char *word = ntsim_yp_scalar(set);
    *given = true;
    if (en != NULL && word != NULL && (strcmp(word, "all") == 0 || strcmp(word, "none") == 0)) {
        for (size_t i = 0; i < n; i++)
            member[i] = strcmp(word, "all") == 0;
        return NRT_SUCCESS;
    }
    if (set->type != YAML_SEQUENCE_NODE)
        return set_error(p, set, path, key,
                         en != NULL ? "expected all, none or a sequence" : "expected a sequence");
    for (size_t i = 0; i < n; i++)
        member[i] = dis != NULL;
    for (yaml_node_item_t *it = set->data.sequence.items.start;
         it < set->data.sequence.items.top; it++) {
        size_t m;
        const char *t = ntsim_yp_scalar(ntsim_yp_node(p, *it));
        if (!set_member(t, types, &m)) {
            char what[256];
            snprintf(what, sizeof what, "'%s' is not %s", t ? t : "(not a scalar)",
                     types ? "an event type (an enum suffix or 0..COUNT-1)"
                           : "an NC index in [0, 255]");
            return set_error(p, ntsim_yp_node(p, *it), path, key, what);
        }
        member[m] = en != NULL;
    }
    return NRT_SUCCESS;
}

/* A set of flags against the expected one: how many are on, and the first
 * that differs ("expected 255 NCs enabled (NC 3 off), got 256 (NC 3 on)"). */
void ntsim_vec_compare_set(ntsim_report_t *r, const char *subid, const char *field,
                           const char *one, const bool *want, const bool *got, size_t n)
{
    size_t want_on = 0, got_on = 0, first = n;
    for (size_t i = 0; i < n; i++) {
        want_on += want[i];
        got_on += got[i];
        if (want[i] != got[i] && first == n)
            first = i;
    }
    if (first < n)
        ntsim_report_add(r, subid, field,
                         "expected %zu %ss enabled (%s %zu %s), got %zu (%s %zu %s)", want_on,
                         one, one, first, want[first] ? "on" : "off", got_on, one, first,
                         got[first] ? "on" : "off");
}
