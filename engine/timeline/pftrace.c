/*
 * engine/timeline/pftrace.c: the timeline (timeline.h) as Perfetto's native trace
 * (D-PFTRACE), encoded with protobuf-c against engine/timeline/perfetto_trace.proto.
 *
 * A Trace is `repeated TracePacket packet = 1`, so the file is one packet after
 * another, each framed as 0x0A, varint(length), the packed TracePacket; nothing
 * is built whole in memory. The packets, in order:
 *
 *   1. sequence 1, first packet: ClockSnapshot {REALTIME = the first time},
 *      primary_trace_clock REALTIME: every later timestamp is on the host's
 *      clock (libnrt reads CLOCK_REALTIME), the trace's own clock
 *   2. TrackDescriptors: the host process and the device process, a thread
 *      track per lane (pid, tid, name), a counter track per counter
 *   3. per device clock k, on its own sequence 2 + k: one ClockSnapshot per
 *      sync pair {clock 64 = the device time, REALTIME = the host time}, so a
 *      reader can redo the alignment (sequence-scoped clock ids 64..127 are
 *      only valid on their sequence; device items say which in `clock_seq`)
 *   4. sequence 1: TrackEvents in the timeline's edge order: SLICE_BEGIN (name,
 *      category, the START record's data keys as debug annotations, flow_ids
 *      on an nrt_execute, terminating_flow_ids on the device span), SLICE_END
 *      (the STOP record's keys as `stop.<key>`), INSTANT, COUNTER
 *
 * Names are never interned (TrackEvent.name 23, DebugAnnotation.name 10), so
 * no packet needs incremental state.
 */
#include <stdio.h>
#include <string.h>

#include "data_view.h"
#include "growbuf.h"
#include "perfetto_trace.pb-c.h"
#include "timeline.h"

#define SEQ_MAIN 1u
#define CLOCK_DEVICE 64u
#define REALTIME PERFETTO__PROTOS__BUILTIN_CLOCK__BUILTIN_CLOCK_REALTIME

typedef Perfetto__Protos__TracePacket packet_t;
typedef Perfetto__Protos__DebugAnnotation annotation_t;

enum { MAX_ANNOTATIONS = 2 * NTSIM_DATA_KEYS_MAX + 12 };

/* Annotations of one event, with the storage their strings point into. */
typedef struct annotations {
    annotation_t a[MAX_ANNOTATIONS];
    annotation_t *p[MAX_ANNOTATIONS];
    char names[MAX_ANNOTATIONS][56];
    char strings[MAX_ANNOTATIONS][40];
    size_t n;
} annotations_t;

static annotation_t *annotate(annotations_t *as, const char *prefix, const char *name)
{
    if (as->n == MAX_ANNOTATIONS)
        return NULL;
    annotation_t *a = &as->a[as->n];
    *a = (annotation_t)PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
    a->name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
    if (*prefix == '\0') { /* a static name (a literal, or the table's key): no copy */
        a->name = (char *)name;
    } else {
        snprintf(as->names[as->n], sizeof as->names[0], "%s%s", prefix, name);
        a->name = as->names[as->n];
    }
    as->p[as->n] = a;
    as->n++;
    return a;
}

static void annotate_u64(annotations_t *as, const char *name, uint64_t v)
{
    annotation_t *a = annotate(as, "", name);
    if (a != NULL) {
        a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
        a->uint_value = v;
    }
}

static void annotate_str(annotations_t *as, const char *name, const char *v)
{
    annotation_t *a = annotate(as, "", name);
    if (a != NULL) {
        snprintf(as->strings[as->n - 1], sizeof as->strings[0], "%s", v);
        a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
        a->string_value = as->strings[as->n - 1];
    }
}

/* A record's data keys, typed as the JSON writes them (D-JSON-DATA). */
static void annotate_data(annotations_t *as, const char *prefix, const nrt_sys_trace_event_t *e)
{
    const ntsim_data_view_t *v = ntsim__data_view((uint32_t)e->trace_type, (uint32_t)e->phase);
    for (size_t i = 0; i < v->count; i++) {
        const ntsim_data_key_t *k = &v->keys[i];
        uint64_t val = ntsim__data_value(k, &e->data);
        char text[40];
        /* Only the string formats need their text (and %algo its omission). */
        if (k->fmt != NTSIM_FMT_NUMBER && k->fmt != NTSIM_FMT_BOOL &&
            !ntsim__data_format(k, val, text, sizeof text))
            continue;
        annotation_t *a = annotate(as, prefix, k->key_z);
        if (a == NULL)
            return;
        if (k->fmt == NTSIM_FMT_NUMBER && k->is_signed) {
            a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
            a->int_value = (int64_t)val;
        } else if (k->fmt == NTSIM_FMT_NUMBER) {
            a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
            a->uint_value = val;
        } else if (k->fmt == NTSIM_FMT_BOOL) {
            a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE;
            a->bool_value = val != 0;
        } else {
            snprintf(as->strings[as->n - 1], sizeof as->strings[0], "%s", text);
            a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
            a->string_value = as->strings[as->n - 1];
        }
    }
}

/* Frames and appends one packet. */
static NRT_STATUS put_packet(ntsim_growbuf_t *b, const packet_t *p)
{
    size_t len = perfetto__protos__trace_packet__get_packed_size(p);
    if (ntsim__growbuf_reserve(b, len + 11) != NRT_SUCCESS)
        return NRT_RESOURCE;
    b->data[b->len++] = 0x0A; /* Trace.packet: field 1, length-delimited */
    uint64_t v = len;
    while (v >= 0x80) {
        b->data[b->len++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (unsigned char)v;
    b->len += perfetto__protos__trace_packet__pack(p, b->data + b->len);
    return NRT_SUCCESS;
}

static packet_t packet_on(uint32_t seq)
{
    packet_t p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    p.has_trusted_packet_sequence_id = 1;
    p.trusted_packet_sequence_id = seq;
    return p;
}

static void first_on_sequence(packet_t *p)
{
    p->has_sequence_flags = 1;
    p->sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
    p->has_first_packet_on_sequence = 1;
    p->first_packet_on_sequence = 1;
}

/* A ClockSnapshot packet: clock `id` read `ts` while REALTIME read `cpu`. */
static NRT_STATUS put_snapshot(ntsim_growbuf_t *b, uint32_t seq, bool first, uint32_t id,
                               uint64_t ts, uint64_t cpu)
{
    Perfetto__Protos__ClockSnapshot__Clock c[2] = {
        PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT,
        PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT};
    Perfetto__Protos__ClockSnapshot__Clock *cp[2] = {&c[0], &c[1]};
    Perfetto__Protos__ClockSnapshot cs = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
    c[0].has_clock_id = c[1].has_clock_id = 1;
    c[0].has_timestamp = c[1].has_timestamp = 1;
    c[0].clock_id = REALTIME;
    c[0].timestamp = cpu;
    c[1].clock_id = id;
    c[1].timestamp = ts;
    cs.clocks = cp;
    cs.n_clocks = id == REALTIME ? 1 : 2;
    packet_t p = packet_on(seq);
    if (id == REALTIME) {
        cs.has_primary_trace_clock = 1;
        cs.primary_trace_clock = REALTIME;
    }
    if (first)
        first_on_sequence(&p);
    p.has_timestamp = 1;
    p.timestamp = cpu;
    p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
    p.clock_snapshot = &cs;
    return put_packet(b, &p);
}

static NRT_STATUS put_descriptor(ntsim_growbuf_t *b, Perfetto__Protos__TrackDescriptor *td)
{
    packet_t p = packet_on(SEQ_MAIN);
    p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
    p.track_descriptor = td;
    return put_packet(b, &p);
}

static NRT_STATUS put_tracks(ntsim_growbuf_t *b, const ntsim_timeline_t *tl)
{
    for (size_t i = 0; i < tl->nprocesses; i++) {
        const ntsim_tl_process_t *pr = &tl->processes[i];
        Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
        Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
        pd.has_pid = 1;
        pd.pid = (int32_t)pr->pid;
        pd.process_name = (char *)pr->name;
        td.has_uuid = 1;
        td.uuid = pr->uuid;
        td.process = &pd;
        if (put_descriptor(b, &td) != NRT_SUCCESS)
            return NRT_RESOURCE;
    }
    for (size_t l = 0; l < tl->nlanes; l++) {
        const ntsim_tl_lane_t *lane = &tl->lanes[l];
        Perfetto__Protos__ThreadDescriptor thd = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
        Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
        thd.has_pid = thd.has_tid = 1;
        thd.pid = (int32_t)lane->pid;
        thd.tid = (int32_t)lane->tid;
        thd.thread_name = (char *)lane->name;
        td.has_uuid = td.has_parent_uuid = 1;
        td.uuid = lane->uuid;
        td.parent_uuid = tl->processes[lane->process].uuid;
        td.thread = &thd;
        if (put_descriptor(b, &td) != NRT_SUCCESS)
            return NRT_RESOURCE;
    }
    for (size_t c = 0; c < tl->ncounters; c++) {
        const ntsim_tl_counter_t *ct = &tl->counters[c];
        Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
        Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
        cd.unit_name = (char *)"events";
        td.has_uuid = td.has_parent_uuid = 1;
        td.uuid = ct->uuid;
        td.parent_uuid = tl->processes[ct->process].uuid;
        td.static_or_dynamic_name_case = PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
        td.name = (char *)ct->name;
        td.counter = &cd;
        if (put_descriptor(b, &td) != NRT_SUCCESS)
            return NRT_RESOURCE;
    }
    return NRT_SUCCESS;
}

static NRT_STATUS put_clocks(ntsim_growbuf_t *b, const ntsim_timeline_t *tl)
{
    for (size_t c = 0; c < tl->nclocks; c++) {
        const ntsim_tl_clock_t *ck = &tl->clocks[c];
        for (size_t i = 0; i < ck->pairs; i++) {
            const ntsim_tl_pair_t *p = &tl->pairs[ck->pair_first + i];
            if (put_snapshot(b, SEQ_MAIN + 1 + (uint32_t)c, i == 0, CLOCK_DEVICE, p->dev,
                             p->cpu) != NRT_SUCCESS)
                return NRT_RESOURCE;
        }
    }
    return NRT_SUCCESS;
}

/* The annotations an item's first event carries. */
static void item_annotations(annotations_t *as, const ntsim_timeline_t *tl,
                             const ntsim_tl_item_t *it)
{
    const nrt_sys_trace_event_t *e = &tl->recs[it->rec];
    if (it->flags & NTSIM_TL_DROP) {
        annotate_u64(as, "lost_events", it->lost);
        annotate_u64(as, "next_nc_local_id", e->nc_local_id);
        annotate_u64(as, "nc_idx", e->nc_idx);
        return;
    }
    annotate_data(as, "", e);
    if (it->type == NRT_SYS_TRACE_EVENT_TYPE_EXECUTE_API && it->exec_id != 0)
        annotate_u64(as, "exec_id", it->exec_id);
    annotate_u64(as, "tracking_id", e->tracking_id);
    annotate_u64(as, "thread_id", e->thread_id);
    annotate_u64(as, "nc_idx", e->nc_idx);
    annotate_u64(as, "id", e->id);
    if (it->flags & NTSIM_TL_DEVICE) {
        annotate_u64(as, "device_ns", it->dev_begin);
        if (!(it->flags & NTSIM_TL_UNALIGNED))
            annotate_u64(as, "clock_seq", SEQ_MAIN + 1 + it->clock);
    }
    if (it->flags & NTSIM_TL_UNMATCHED_START)
        annotate_str(as, "unmatched", "start: no STOP with this tracking_id");
    if (it->flags & NTSIM_TL_UNMATCHED_STOP)
        annotate_str(as, "unmatched", "stop: no START with this tracking_id");
}

/* The name an item is drawn with (shared with the other writers). */
static const char *item_name(const ntsim_tl_item_t *it, char *buf, size_t cap)
{
    if (it->flags & NTSIM_TL_DROP)
        return "events lost";
    const char *name = ntsim__timeline_name(it->type);
    if (it->flags & (NTSIM_TL_UNMATCHED_START | NTSIM_TL_UNMATCHED_STOP)) {
        snprintf(buf, cap, "%s (unmatched %s)", name,
                 it->flags & NTSIM_TL_UNMATCHED_START ? "start" : "stop");
        return buf;
    }
    return name;
}

static NRT_STATUS put_edge(ntsim_growbuf_t *b, const ntsim_timeline_t *tl,
                           const ntsim_tl_edge_t *ed)
{
    Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
    packet_t p = packet_on(SEQ_MAIN);
    p.has_timestamp = 1;
    p.timestamp = ed->ts;
    p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
    p.track_event = &te;
    te.has_type = te.has_track_uuid = 1;
    if (ed->kind == NTSIM_TL_SAMPLE) {
        te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
        te.track_uuid = tl->counters[ed->index].uuid;
        te.counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
        te.counter_value = ed->value;
        return put_packet(b, &p);
    }
    const ntsim_tl_item_t *it = &tl->items[ed->index];
    const ntsim_tl_lane_t *lane = &tl->lanes[it->lane];
    te.track_uuid = lane->uuid;
    annotations_t as;
    as.n = 0;
    uint64_t flow_in = it->flow_in;
    if (ed->kind == NTSIM_TL_END) {
        te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
        annotate_data(&as, "stop.", &tl->recs[it->stop]);
    } else {
        char buf[96];
        static const char *const cats[] = {"host", "device", "dma"};
        char *cat[2] = {(char *)cats[lane->kind], (char *)"unmatched"};
        te.type = ed->kind == NTSIM_TL_BEGIN ? PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN
                                             : PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
        te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
        te.name = (char *)item_name(it, buf, sizeof buf);
        te.categories = cat;
        te.n_categories =
            it->flags & (NTSIM_TL_UNMATCHED_START | NTSIM_TL_UNMATCHED_STOP | NTSIM_TL_DROP) ? 2
                                                                                              : 1;
        if (it->flags & NTSIM_TL_DROP)
            cat[1] = (char *)"drop";
        item_annotations(&as, tl, it);
        /* Every flow's id, however many (D-PFTRACE): an nrt_execute can
         * start hundreds (a collective per op). */
        uint64_t *ids = NULL;
        if (it->flows_count > 0) {
            ids = ntsim__malloc(it->flows_count * sizeof *ids);
            if (ids == NULL)
                return NRT_RESOURCE;
            for (size_t f = 0; f < it->flows_count; f++)
                ids[f] = tl->flows[it->flows_first + f].id;
        }
        te.flow_ids = ids;
        te.n_flow_ids = it->flows_count;
        if (flow_in != 0) {
            te.terminating_flow_ids = &flow_in;
            te.n_terminating_flow_ids = 1;
        }
        te.debug_annotations = as.p;
        te.n_debug_annotations = as.n;
        NRT_STATUS st = put_packet(b, &p);
        ntsim__free(ids);
        return st;
    }
    te.debug_annotations = as.p;
    te.n_debug_annotations = as.n;
    return put_packet(b, &p);
}

NRT_STATUS ntsim_pftrace_serialize(const nrt_sys_trace_event_t *events, size_t count,
                                   const ntsim_timeline_options_t *options, uint8_t **out,
                                   size_t *len)
{
    ntsim_timeline_t tl;
    NRT_STATUS st = ntsim__timeline_begin(out, len != NULL, events, count, options, &tl);
    if (st != NRT_SUCCESS)
        return st;
    ntsim_growbuf_t b = {NULL, 0, 0};
    st = put_snapshot(&b, SEQ_MAIN, true, REALTIME, tl.t_min, tl.t_min);
    if (st == NRT_SUCCESS)
        st = put_tracks(&b, &tl);
    if (st == NRT_SUCCESS)
        st = put_clocks(&b, &tl);
    for (size_t i = 0; i < tl.nedges && st == NRT_SUCCESS; i++)
        st = put_edge(&b, &tl, &tl.edges[i]);
    ntsim__timeline_free(&tl);
    if (st != NRT_SUCCESS) {
        ntsim__free(b.data);
        return st;
    }
    *out = b.data;
    *len = b.len;
    return NRT_SUCCESS;
}
