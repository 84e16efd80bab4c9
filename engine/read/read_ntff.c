/*
 * engine/read/read_ntff.c: an NTFF ntrace_info read back (read_int.h; D-READ,
 * D-TIMELINE-INPUT, D-TRACE-READER): its events into records, its collected
 * profiles into trace infos, its interned names and its scalars.
 *
 * event_to_proto run backwards (D-NTFF-EVENT): timestamp, nc_idx, thread_id,
 * id, tracking_id and nrta_seq_id as written, phase - 1, event_type the C
 * enum value, the attributes back into their payload fields (the same keys
 * and values as JSON's data, as strings). nc_local_id is id's sequence bits
 * (D-IDS: id = seq | nc_idx << 50); what NTFF does not keep stays 0 (D-READ).
 *
 * The file is walked on the wire (ntff_wire.h) and unpacked one event at a
 * time (protobuf-c would unpack the whole file at once: 10M empty events, 20
 * MB, took 2.5 GB); the events are counted against max_events before the
 * records they need are kept.
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "event_table.h"
#include "input.h"
#include "ntff.pb-c.h"
#include "ntff_wire.h"
#include "read_int.h"

static NRT_STATUS ntff_event(ntsim__read_t *rd, const Ntff__NtraceEvent *e, nrt_sys_trace_event_t *r,
                             size_t i)
{
    memset(r, 0, sizeof *r);
    if (!e->has_phase || e->phase < NTFF__NTRACE_EVENT_PHASE_TYPE__START)
        return ntsim__read_fail(rd, "events[%zu].phase: missing or INVALID", i);
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
            return ntsim__read_fail(rd, "events[%zu].attributes[%zu]: an entry without its %s", i, a,
                        at->key == NULL ? "key" : "value");
        for (size_t k = 0; k < v->count && key == NULL; k++)
            if (strcmp(v->keys[k].key_z, at->key) == 0)
                key = &v->keys[k];
        uint64_t val = 0;
        char shown[4 * 40 + 4], range[96];
        if (key == NULL)
            return ntsim__read_fail(rd, "events[%zu].attributes.%s: not a key of %s", i,
                        ntsim_text_escape(at->key, strlen(at->key), 40, shown),
                        ntsim__event_type_desc((uint32_t)r->trace_type)
                            ? ntsim__event_type_desc((uint32_t)r->trace_type)->json_name
                            : "unknown");
        if (key->exec_model)
            continue;
        size_t len = strlen(at->value);
        ntsim__val_t vs = ntsim__read_text(key, at->value, len, &val);
        ntsim_text_escape(at->value, len, 40, shown);
        if (vs == NTSIM__VAL_RANGE)
            return ntsim__read_fail(rd, "events[%zu].attributes.%s: \"%s\" is out of range (%s)", i,
                        key->key_z, shown, ntsim__read_range_text(ntsim__read_key_shape(key), range, sizeof range));
        if (vs == NTSIM__VAL_BAD)
            return ntsim__read_fail(rd, "events[%zu].attributes.%s: \"%s\" is not its value", i,
                        key->key_z, shown);
        ntsim__read_store(r, key, val);
    }
    return NRT_SUCCESS;
}

/* A copy of s (NULL stays NULL) into *out. */
static NRT_STATUS copy_string(ntsim__read_t *rd, const char *s, const char **out)
{
    if (s == NULL)
        return NRT_SUCCESS;
    size_t n = strlen(s) + 1;
    char *c = ntsim__malloc(n);
    if (c == NULL)
        return ntsim__read_out_of_memory(rd);
    memcpy(c, s, n);
    *out = c;
    return NRT_SUCCESS;
}

/* The fields that are not events: the collected profiles (trace infos),
 * the interned names and the scalars, copied into the trace. */
static NRT_STATUS ntff_rest(ntsim__read_t *rd, const Ntff__NtraceInfo *info)
{
    ntsim_trace_t *t = rd->trace;
    NRT_STATUS st;
    if (info->n_collected_profiles > 0) {
        t->infos = ntsim__calloc(info->n_collected_profiles, sizeof *t->infos);
        if (t->infos == NULL)
            return ntsim__read_out_of_memory(rd);
        for (size_t i = 0; i < info->n_collected_profiles; i++) {
            const Ntff__TraceInfo *p = info->collected_profiles[i];
            ntsim_trace_info_t *o = &t->infos[t->info_count++];
            o->trace_type = p->trace_type;
            o->block_type = p->block_type;
            o->nc_idx = p->nc_idx;
            if (p->payload.len > 0) {
                uint8_t *b = ntsim__malloc(p->payload.len);
                if (b == NULL)
                    return ntsim__read_out_of_memory(rd);
                memcpy(b, p->payload.data, p->payload.len);
                o->payload = b;
                o->payload_len = p->payload.len;
            }
        }
    }
    size_t names = 0;
    for (size_t d = 0; d < info->n_interned_data; d++)
        names += info->interned_data[d]->n_id_map;
    if (names > 0) {
        t->names = ntsim__calloc(names, sizeof *t->names);
        if (t->names == NULL)
            return ntsim__read_out_of_memory(rd);
        for (size_t d = 0; d < info->n_interned_data; d++) {
            const Ntff__InternedDataDb *db = info->interned_data[d];
            for (size_t k = 0; k < db->n_id_map; k++) {
                const Ntff__InternedDataDb__IdMapEntry *e = db->id_map[k];
                if (e->value == NULL) /* a map entry may leave its value out on the wire */
                    return ntsim__read_fail(rd, "interned_data[%zu].id_map[%zu]: an entry "
                                                "without its value", d, k);
                ntsim_trace_name_t *o = &t->names[t->name_count++];
                o->kind = db->kind;
                o->id = e->key;
                if ((st = copy_string(rd, e->value, &o->name)) != NRT_SUCCESS)
                    return st;
            }
        }
    }
    t->pid = info->pid;
    t->session_id = info->session_id;
    t->data_version = info->data_version;
    t->logical_nc_size = info->logical_nc_size;
    return copy_string(rd, info->arch, &t->arch);
}

/* Each NC's device as its events say (ntrace_event.nd_idx; absent, as
 * proto3's bytes leave a 0 out: 0). */
typedef struct devices {
    uint32_t nd[256];
    bool seen[256];
    bool any, disagree;
} devices_t;

static void device_seen(devices_t *d, const Ntff__NtraceEvent *e)
{
    uint32_t nd = e->has_nd_idx ? e->nd_idx : 0, nc = e->has_nc_idx ? e->nc_idx : 0;
    if (nc >= 256)
        return;
    if (d->seen[nc] && d->nd[nc] != nd)
        d->disagree = true;
    d->nd[nc] = nd;
    d->seen[nc] = d->any = true;
}

/* The trace's nd_idx_by_nc, when the events name one device per NC. */
static NRT_STATUS devices_keep(ntsim__read_t *rd, const devices_t *d)
{
    if (!d->any || d->disagree)
        return NRT_SUCCESS;
    uint32_t *map = ntsim__malloc(sizeof d->nd);
    if (map == NULL)
        return ntsim__read_out_of_memory(rd);
    for (size_t nc = 0; nc < 256; nc++)
        map[nc] = d->seen[nc] ? d->nd[nc] : 0;
    rd->trace->nd_idx_by_nc = map;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim__read_ntff(ntsim__read_t *rd, const uint8_t *b, size_t len)
{
    ntsim_trace_t *t = rd->trace;
    ntsim_wire_field_t f;
    size_t i = 0, rest_len = 0;
    uint64_t events = 0;
    /* Pass 1: count the events against the limit before a record is kept,
     * and the bytes of the other fields; then unpack those as an
     * ntrace_info (copied out: only they are held twice, not the events). */
    while (i < len) {
        if (!ntsim__ntff_wire_next(b, len, &i, &f))
            return ntsim__read_fail(rd, "offset %zu: not an ntrace_info (a bad field key or a "
                                        "truncated field)", f.start);
        if (!ntsim__ntff_wire_is_event(&f))
            rest_len += f.end - f.start;
        else if (++events > rd->max_events)
            return ntsim__read_too_many(rd);
    }
    uint8_t *rest = ntsim__malloc(rest_len ? rest_len : 1);
    if (rest == NULL)
        return ntsim__read_out_of_memory(rd);
    rest_len = 0;
    for (i = 0; i < len && ntsim__ntff_wire_next(b, len, &i, &f);)
        if (!ntsim__ntff_wire_is_event(&f)) {
            memcpy(rest + rest_len, b + f.start, f.end - f.start);
            rest_len += f.end - f.start;
        }
    ntsim__pb_heap_t heap;
    ntsim__pb_heap_init(&heap);
    Ntff__NtraceInfo *info = ntff__ntrace_info__unpack(&heap.allocator, rest_len, rest);
    ntsim__free(rest);
    if (info == NULL)
        return heap.failed ? ntsim__read_out_of_memory(rd)
                           : ntsim__read_fail(rd, "offset 0: not an ntrace_info (%zu bytes "
                                                  "protobuf-c cannot unpack)", len);
    NRT_STATUS st = ntff_rest(rd, info);
    ntff__ntrace_info__free_unpacked(info, &heap.allocator);
    /* Pass 2: one event unpacked at a time, the records grown as they are
     * read (a file bad at its first event costs nothing more). */
    devices_t dev;
    memset(&dev, 0, sizeof dev);
    for (i = 0; i < len && st == NRT_SUCCESS && ntsim__ntff_wire_next(b, len, &i, &f);) {
        if (!ntsim__ntff_wire_is_event(&f))
            continue;
        if ((st = ntsim__read_reserve(rd, t->event_count, events)) != NRT_SUCCESS)
            return st;
        size_t at = (size_t)ntsim__read_index(rd);
        Ntff__NtraceEvent *e = ntff__ntrace_event__unpack(&heap.allocator, f.value_len, b + f.value);
        if (e == NULL)
            return heap.failed ? ntsim__read_out_of_memory(rd)
                               : ntsim__read_fail(rd, "events[%zu] (offset %zu): not an "
                                                      "ntrace_event (protobuf-c cannot unpack "
                                                      "it)", at, f.start);
        st = ntff_event(rd, e, &t->events[t->event_count], at);
        device_seen(&dev, e);
        ntff__ntrace_event__free_unpacked(e, &heap.allocator);
        t->event_count++;
    }
    return st == NRT_SUCCESS ? devices_keep(rd, &dev) : st;
}
