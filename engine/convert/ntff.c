/*
 * engine/convert/ntff.c: event_to_proto and the NTFF writer (protobuf-c).
 *
 * event_to_proto (facts §3 leaves the per-variant assignment open; these
 * are D-NTFF-EVENT's choices), for every record:
 *   timestamp   = timestamp_ns                  (host clock, as recorded)
 *   data        = interned id of the event name (D-NTFF-INTERN)
 *   nd_idx      = the options' device index, or nd_idx_by_nc[nc_idx]
 *   nc_idx      = nc_idx
 *   event_type  = trace_type, the C enum value  (spec §1; D-NTFF-EVENT-TYPE)
 *   hint        = the JSON event_type name
 *   thread_id   = thread_id, low 32 bits
 *   id, tracking_id
 *   phase       = phase + 1                     (facts §3; INVALID beyond 2)
 *   nrta_seq_id present exactly when has_nrta_seq_id
 *   attributes  = the JSON data keys and values, as strings, sorted by key
 *                 (facts §2: "Keys equal the NTFF attribute keys"); none for
 *                 GENERIC and CONSUME_* (spec §2 QUIRK: scalars only), nor
 *                 where the JSON exporter has no arm for the phase
 * duration, parent_id and status are not written. A scalar is written only
 * when nonzero, as proto3 would (D-NTFF-SYNTAX).
 *
 * The ntrace_info is written as a stream of fields, not built in memory:
 * each event is packed on its own and framed as field 1 (a repeated
 * message's wire form is just its elements one after another), then the
 * collected profiles (field 2), the interned names (field 3) and the
 * scalars. Memory stays one output buffer however many events there are.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "data_view.h"
#include "event_table.h"
#include "growbuf.h"
#include "intern.h"
#include "ntff.pb-c.h"
#include "ntsim/capture.h"
#include "ntsim/convert.h"
#include "output.h"

/* --- per-type constants, computed once ----------------------------------------- */

static uint64_t g_name_id[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
static pthread_once_t g_ids_once = PTHREAD_ONCE_INIT;

static void ids_build(void)
{
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        g_name_id[t] = ntsim_intern_name_id(ntsim__event_types[t].json_name);
}

uint64_t ntsim_intern_name_id(const char *name)
{
    return name ? ntsim__intern_id(name, strlen(name)) : 0;
}

void ntsim_buffer_free(void *buffer)
{
    ntsim__free(buffer);
}

/* --- event_to_proto ----------------------------------------------------------------- */

typedef struct proto_scratch {
    Ntff__NtraceEvent__AttributesEntry entries[NTSIM_DATA_KEYS_MAX];
    Ntff__NtraceEvent__AttributesEntry *ptrs[NTSIM_DATA_KEYS_MAX];
    char values[NTSIM_DATA_KEYS_MAX][32];
} proto_scratch_t;

/* Fills *out from e; strings point into the table or into s. */
static void event_to_proto(const nrt_sys_trace_event_t *e, uint32_t nd_idx, proto_scratch_t *s,
                           Ntff__NtraceEvent *out)
{
    ntff__ntrace_event__init(out);
    uint32_t type = (uint32_t)e->trace_type;
    uint32_t phase = (uint32_t)e->phase;
    bool known = type < NRT_SYS_TRACE_EVENT_TYPE_COUNT;
#define SET(field, value)                                                      \
    do {                                                                       \
        out->field = (value);                                                  \
        out->has_##field = out->field != 0;                                    \
    } while (0)
    SET(timestamp, e->timestamp_ns);
    SET(data, known ? g_name_id[type] : 0);
    SET(nd_idx, nd_idx);
    SET(nc_idx, e->nc_idx);
    /* spec §1: "the wire/bitmap index is always the C enum value 0..45";
     * a value past COUNT (a foreign record) is written as it is. */
    SET(event_type, type);
    out->hint = (char *)(known ? ntsim__event_types[type].json_name : "unknown");
    SET(thread_id, (uint32_t)e->thread_id);
    SET(id, e->id);
    SET(tracking_id, e->tracking_id);
    out->phase = phase < 3 ? (Ntff__NtraceEventPhaseType)(phase + 1) : NTFF__NTRACE_EVENT_PHASE_TYPE__INVALID;
    out->has_phase = out->phase != NTFF__NTRACE_EVENT_PHASE_TYPE__INVALID;
#undef SET
    if (ntsim__record_has_seq(e)) {
        out->has_nrta_seq_id = 1;
        out->nrta_seq_id = e->nrta_seq_id;
    }
    const ntsim_data_view_t *v = ntsim__data_view(type, phase);
    size_t n = 0;
    for (size_t i = 0; i < v->count; i++) {
        const ntsim_data_key_t *k = &v->keys[i];
        if (!ntsim__data_format(k, ntsim__data_value(k, &e->data), s->values[n],
                               sizeof s->values[n]))
            continue;
        Ntff__NtraceEvent__AttributesEntry *a = &s->entries[n];
        ntff__ntrace_event__attributes_entry__init(a);
        a->key = (char *)k->key_z;
        a->value = s->values[n];
        /* Insertion by key: map entries are written sorted (facts §3). */
        size_t j = n;
        while (j > 0 && strcmp(s->ptrs[j - 1]->key, a->key) > 0) {
            s->ptrs[j] = s->ptrs[j - 1];
            j--;
        }
        s->ptrs[j] = a;
        n++;
    }
    out->n_attributes = n;
    out->attributes = n ? s->ptrs : NULL;
}

/* --- the byte stream ---------------------------------------------------------------- */

static void put_varint(ntsim_growbuf_t *b, uint64_t v)
{
    while (v >= 0x80) {
        b->data[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (uint8_t)v;
}

/* Appends `msg` as field `field` (wire type 2, length-delimited). */
static NRT_STATUS put_message(ntsim_growbuf_t *b, uint32_t field, const ProtobufCMessage *msg)
{
    size_t size = protobuf_c_message_get_packed_size(msg);
    if (ntsim__growbuf_reserve(b, size + 16) != NRT_SUCCESS)
        return NRT_RESOURCE;
    put_varint(b, ((uint64_t)field << 3) | 2);
    put_varint(b, size);
    b->len += protobuf_c_message_pack(msg, b->data + b->len);
    return NRT_SUCCESS;
}

/* An event's encoding never reaches this: at most 8 attributes, each an
 * entry of a key under 48 bytes and a value under 32 (data_view.h, the
 * scratch above) with 6 bytes of framing, so < 8 x 86 = 688; 14 scalars of
 * at most 11 bytes = 154; a hint under 64. Pinned over every (type, phase)
 * by test_ntff_event_fits_its_bound. */
#define NTSIM_NTFF_EVENT_MAX 1024

/* Appends an event as field 1, packing it once: straight after room for a
 * 2-byte length, then moving it down if its length needs only 1 byte. This
 * skips protobuf-c's separate sizing pass over the whole event. */
static NRT_STATUS put_event(ntsim_growbuf_t *b, const Ntff__NtraceEvent *ev)
{
    if (ntsim__growbuf_reserve(b, NTSIM_NTFF_EVENT_MAX + 3) != NRT_SUCCESS)
        return NRT_RESOURCE;
    uint8_t *at = b->data + b->len;
    at[0] = (1 << 3) | 2; /* field 1, length-delimited */
    size_t size = protobuf_c_message_pack(&ev->base, at + 3);
    if (size < 0x80) {
        at[1] = (uint8_t)size;
        memmove(at + 2, at + 3, size);
        b->len += 2 + size;
    } else {
        /* size < NTSIM_NTFF_EVENT_MAX < 2^14: two varint bytes */
        at[1] = (uint8_t)(size | 0x80);
        at[2] = (uint8_t)(size >> 7);
        b->len += 3 + size;
    }
    return NRT_SUCCESS;
}

/* Field 2: one trace_info per collected profile. */
static NRT_STATUS put_infos(ntsim_growbuf_t *b, const ntsim_trace_info_t *infos, size_t count)
{
    NRT_STATUS st = NRT_SUCCESS;
    for (size_t i = 0; i < count && st == NRT_SUCCESS; i++) {
        Ntff__TraceInfo ti;
        ntff__trace_info__init(&ti);
        /* As proto3 writes them (D-NTFF-SYNTAX): a zero enum (INSTRUCTION,
         * BLOCK_TYPE_NC) is left out, and a reader takes it as 0 all the
         * same; any other value goes on the wire as given, in range or not. */
        ti.has_trace_type = infos[i].trace_type != 0;
        ti.trace_type = (Ntff__NotificationTraceType)infos[i].trace_type;
        ti.has_block_type = infos[i].block_type != 0;
        ti.block_type = (Ntff__BlockType)infos[i].block_type;
        ti.has_nc_idx = infos[i].nc_idx != 0;
        ti.nc_idx = infos[i].nc_idx;
        ti.has_payload = infos[i].payload_len > 0;
        ti.payload.len = infos[i].payload_len;
        ti.payload.data = (uint8_t *)infos[i].payload;
        st = put_message(b, 2, &ti.base);
    }
    return st;
}

/* Field 3: the names of the types in `used`, one interned_data_db, by id.
 * `used` is passed as a pointer to the whole array, not to its first
 * element, so that its bound stays in the type (UBSan checks the index;
 * not const: C11 does not convert bool (*)[N] to const bool (*)[N]). */
static NRT_STATUS put_names(ntsim_growbuf_t *b,
                            bool (*used)[NRT_SYS_TRACE_EVENT_TYPE_COUNT])
{
    Ntff__InternedDataDb__IdMapEntry entries[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    Ntff__InternedDataDb__IdMapEntry *ptrs[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    size_t n = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        if (!(*used)[t])
            continue;
        Ntff__InternedDataDb__IdMapEntry *en = &entries[n];
        ntff__interned_data_db__id_map_entry__init(en);
        en->has_key = 1;
        en->key = g_name_id[t];
        en->value = (char *)ntsim__event_types[t].json_name;
        size_t j = n; /* sorted by id (facts §3: map entries written sorted) */
        while (j > 0 && ptrs[j - 1]->key > en->key) {
            ptrs[j] = ptrs[j - 1];
            j--;
        }
        ptrs[j] = en;
        n++;
    }
    if (n == 0)
        return NRT_SUCCESS;
    Ntff__InternedDataDb db;
    ntff__interned_data_db__init(&db);
    db.n_id_map = n;
    db.id_map = ptrs;
    return put_message(b, 3, &db.base);
}

/* Fields 4..8: the scalars, packed as a message with nothing repeated. */
static NRT_STATUS put_scalars(ntsim_growbuf_t *b, const ntsim_ntff_options_t *opt)
{
    Ntff__NtraceInfo info;
    ntff__ntrace_info__init(&info);
    info.arch = (char *)opt->arch;
    info.has_pid = opt->pid != 0;
    info.pid = opt->pid;
    info.has_session_id = opt->session_id != 0;
    info.session_id = opt->session_id;
    info.has_data_version = 1;
    info.data_version = NTSIM_NTFF_DATA_VERSION;
    info.has_logical_nc_size = opt->logical_nc_size != 0;
    info.logical_nc_size = opt->logical_nc_size;
    size_t size = ntff__ntrace_info__get_packed_size(&info);
    NRT_STATUS st = ntsim__growbuf_reserve(b, size);
    if (st == NRT_SUCCESS)
        b->len += ntff__ntrace_info__pack(&info, b->data + b->len);
    return st;
}

/* --- the writer: an ntrace_info in pieces ------------------------------------------- */

struct ntsim_ntff_writer {
    ntsim_ntff_options_t opt;
    ntsim_growbuf_t b;        /* the piece being returned; reused by each call */
    bool used[NRT_SYS_TRACE_EVENT_TYPE_COUNT]; /* the names field 3 will list */
    proto_scratch_t scratch;
    bool finished;
};

NRT_STATUS ntsim_ntff_writer_create(const ntsim_ntff_options_t *options, ntsim_ntff_writer_t **out)
{
    if (out == NULL)
        return NRT_INVALID;
    pthread_once(&g_ids_once, ids_build);
    ntsim_ntff_writer_t *w = ntsim__calloc(1, sizeof *w);
    if (w == NULL)
        return NRT_RESOURCE;
    if (options != NULL)
        w->opt = *options;
    *out = w;
    return NRT_SUCCESS;
}

static NRT_STATUS piece(ntsim_ntff_writer_t *w, NRT_STATUS st, const uint8_t **bytes, size_t *len)
{
    if (st != NRT_SUCCESS)
        return st;
    if (w->b.data == NULL && ntsim__growbuf_reserve(&w->b, 1) != NRT_SUCCESS)
        return NRT_RESOURCE;
    *bytes = w->b.data;
    *len = w->b.len;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_ntff_writer_events(ntsim_ntff_writer_t *w, const nrt_sys_trace_event_t *events,
                                    size_t count, const uint8_t **bytes, size_t *len)
{
    if (w == NULL || bytes == NULL || len == NULL || (events == NULL && count > 0) ||
        w->finished)
        return NRT_INVALID;
    w->b.len = 0;
    NRT_STATUS st = NRT_SUCCESS;
    for (size_t i = 0; i < count && st == NRT_SUCCESS; i++) {
        Ntff__NtraceEvent ev;
        uint32_t nc = events[i].nc_idx;
        uint32_t nd = w->opt.nd_idx_by_nc != NULL && nc < NTSIM_NC_COUNT
                          ? w->opt.nd_idx_by_nc[nc]
                          : w->opt.nd_idx;
        event_to_proto(&events[i], nd, &w->scratch, &ev);
        if ((uint32_t)events[i].trace_type < NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            w->used[events[i].trace_type] = true;
        st = put_event(&w->b, &ev);
    }
    return piece(w, st, bytes, len);
}

NRT_STATUS ntsim_ntff_writer_infos(ntsim_ntff_writer_t *w, const ntsim_trace_info_t *infos,
                                   size_t count, const uint8_t **bytes, size_t *len)
{
    if (w == NULL || bytes == NULL || len == NULL || (infos == NULL && count > 0) || w->finished)
        return NRT_INVALID;
    w->b.len = 0;
    return piece(w, put_infos(&w->b, infos, count), bytes, len);
}

NRT_STATUS ntsim_ntff_writer_finish(ntsim_ntff_writer_t *w, const uint8_t **bytes, size_t *len)
{
    if (w == NULL || bytes == NULL || len == NULL || w->finished)
        return NRT_INVALID;
    w->b.len = 0;
    NRT_STATUS st = put_names(&w->b, &w->used);
    if (st == NRT_SUCCESS)
        st = put_scalars(&w->b, &w->opt);
    w->finished = st == NRT_SUCCESS;
    return piece(w, st, bytes, len);
}

void ntsim_ntff_writer_free(ntsim_ntff_writer_t *w)
{
    if (w == NULL)
        return;
    ntsim__free(w->b.data);
    ntsim__free(w);
}

/* One buffer: the writer's pieces in order (field 1, 2, then 3..8). */
NRT_STATUS ntsim_ntff_serialize(const nrt_sys_trace_event_t *events, size_t event_count,
                                const ntsim_trace_info_t *infos, size_t info_count,
                                const ntsim_ntff_options_t *options, uint8_t **out, size_t *len)
{
    if (out == NULL || len == NULL || (events == NULL && event_count > 0) ||
        (infos == NULL && info_count > 0))
        return NRT_INVALID;
    ntsim_ntff_writer_t *w;
    NRT_STATUS st = ntsim_ntff_writer_create(options, &w);
    if (st != NRT_SUCCESS)
        return st;
    ntsim_growbuf_t all = {NULL, 0, 0};
    const uint8_t *bytes;
    size_t n;
    for (int stage = 0; stage < 3 && st == NRT_SUCCESS; stage++) {
        st = stage == 0   ? ntsim_ntff_writer_events(w, events, event_count, &bytes, &n)
             : stage == 1 ? ntsim_ntff_writer_infos(w, infos, info_count, &bytes, &n)
                          : ntsim_ntff_writer_finish(w, &bytes, &n);
        if (st == NRT_SUCCESS && (st = ntsim__growbuf_reserve(&all, n + 1)) == NRT_SUCCESS) {
            memcpy(all.data + all.len, bytes, n);
            all.len += n;
        }
    }
    ntsim_ntff_writer_free(w);
    if (st != NRT_SUCCESS) {
        ntsim__free(all.data);
        return st;
    }
    *out = all.data;
    *len = all.len;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_ntff_write_file(const char *path, const nrt_sys_trace_event_t *events,
                                 size_t event_count, const ntsim_trace_info_t *infos,
                                 size_t info_count, const ntsim_ntff_options_t *options)
{
    if (path == NULL)
        return NRT_INVALID;
    uint8_t *bytes;
    size_t len;
    NRT_STATUS st = ntsim_ntff_serialize(events, event_count, infos, info_count, options, &bytes,
                                         &len);
    if (st != NRT_SUCCESS)
        return st;
    /* Beside path, renamed onto it once whole: a failure keeps the file
     * that was there (D-OUTPUT). */
    ntsim_output_t *o;
    st = ntsim_output_open(&o, path, NULL, 0);
    if (st != NRT_SUCCESS) {
        int saved = errno;
        ntsim__free(bytes);
        errno = saved;
        return st == NRT_RESOURCE ? NRT_RESOURCE : NRT_FAILURE;
    }
    bool wrote = fwrite(bytes, 1, len, ntsim_output_file(o)) == len;
    int saved = errno;
    ntsim__free(bytes);
    if (!wrote) {
        ntsim_output_abort(o);
        errno = saved; /* the write's error */
        return NRT_FAILURE;
    }
    st = ntsim_output_commit(o, NULL, 0); /* errno kept */
    return st == NRT_RESOURCE ? NRT_RESOURCE : st == NRT_SUCCESS ? NRT_SUCCESS : NRT_FAILURE;
}
