/*
 * conformance/unit/engine/timeline/check_pftrace.c: the .pftrace (engine/timeline/
 * pftrace.c, D-PFTRACE): traces A and B printed packet by packet and
 * compared with the text worked out by hand; then files read back with
 * protobuf-c: the timeline they hold, the framing of every packet (D-PFTRACE
 * "Framing"), and an nrt_execute's exec_id and flow ids.
 */
#include <stdarg.h>
#include <stdio.h>

#include "check_timeline.h"
#include "perfetto_trace.pb-c.h"

/* --- .pftrace (D-PFTRACE) ---------------------------------------------------------- */

/* A decoded message as one line: its present fields in field-number order,
 * `name:value`, sub-messages as `name {...}`, enums by name, strings quoted
 * (\" and \\ escaped), fixed64 and the other integers in decimal. */
typedef struct text {
    char *s;
    size_t len, cap;
} text_t;

static void text_add(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(text_t *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        ck_assert_int_ge(n, 0);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap * 2 + (size_t)n + 64;
        t->s = realloc(t->s, t->cap);
        ck_assert_ptr_nonnull(t->s);
    }
}

static void print_msg(text_t *t, const ProtobufCMessage *m);

static void print_value(text_t *t, const ProtobufCFieldDescriptor *f, const void *p)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: text_add(t, "%d", *(const int32_t *)p); break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: text_add(t, "%u", *(const uint32_t *)p); break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64: text_add(t, "%lld", (long long)*(const int64_t *)p); break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        text_add(t, "%llu", (unsigned long long)*(const uint64_t *)p);
        break;
    case PROTOBUF_C_TYPE_BOOL:
        text_add(t, "%s", *(const protobuf_c_boolean *)p ? "true" : "false");
        break;
    case PROTOBUF_C_TYPE_FLOAT: text_add(t, "%g", (double)*(const float *)p); break;
    case PROTOBUF_C_TYPE_DOUBLE: text_add(t, "%g", *(const double *)p); break;
    case PROTOBUF_C_TYPE_ENUM: {
        int v = *(const int *)p;
        const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(f->descriptor, v);
        if (ev != NULL)
            text_add(t, "%s", ev->name);
        else
            text_add(t, "%d", v);
        break;
    }
    case PROTOBUF_C_TYPE_STRING: {
        text_add(t, "\"");
        for (const char *c = *(char *const *)p; *c; c++)
            text_add(t, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
        text_add(t, "\"");
        break;
    }
    case PROTOBUF_C_TYPE_BYTES: text_add(t, "<bytes>"); break;
    case PROTOBUF_C_TYPE_MESSAGE:
        text_add(t, "{");
        print_msg(t, *(ProtobufCMessage *const *)p);
        text_add(t, "}");
        break;
    }
}

static size_t elem_size(ProtobufCType type)
{
    switch (type) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return 8;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(void *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    default: return 4;
    }
}

static void print_msg(text_t *t, const ProtobufCMessage *m)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    bool first = true;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const void *member = base + f->offset;
        const char *sep = first ? "" : " ";
        const char *colon = f->type == PROTOBUF_C_TYPE_MESSAGE ? " " : ":";
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            const char *arr = *(const char *const *)member;
            for (size_t j = 0; j < n; j++) {
                text_add(t, "%s%s%s", first ? "" : " ", f->name, colon);
                print_value(t, f, arr + j * elem_size(f->type));
                first = false;
            }
            continue;
        }
        bool present;
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
            present = *(const uint32_t *)(base + f->quantifier_offset) == f->id;
        else if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_MESSAGE)
            present = *(const void *const *)member != NULL &&
                      *(const void *const *)member != f->default_value;
        else
            present = *(const protobuf_c_boolean *)(base + f->quantifier_offset) != 0;
        if (!present)
            continue;
        text_add(t, "%s%s%s", sep, f->name, colon);
        print_value(t, f, member);
        first = false;
    }
}

/* The .pftrace of the records, decoded, one packet per line. */
static char *pftrace_text(const nrt_sys_trace_event_t *r, size_t n,
                          const ntsim_timeline_options_t *opt)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, n, opt, &bytes, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack(NULL, len, bytes);
    ck_assert_ptr_nonnull(trace);
    text_t t = {NULL, 0, 0};
    text_add(&t, "%s", "");
    for (size_t i = 0; i < trace->n_packet; i++) {
        print_msg(&t, &trace->packet[i]->base);
        text_add(&t, "\n");
    }
    perfetto__protos__trace__free_unpacked(trace, NULL);
    ntsim_buffer_free(bytes);
    return t.s;
}

/* Each packet's fields in field-number order (TracePacket: clock_snapshot 6,
 * timestamp 8, trusted_packet_sequence_id 10, track_event 11,
 * sequence_flags 13, track_descriptor 60, first_packet_on_sequence 87;
 * TrackEvent: debug_annotations 4, type 9, track_uuid 11, categories 22,
 * name 23, counter_value 30, flow_ids 47, terminating_flow_ids 48;
 * DebugAnnotation: its value (bool 2, uint 3, int 4, string 6), then name
 * 10). The annotations of a begin or instant: the START's data keys typed as
 * the JSON writes them, exec_id (an nrt_execute's), tracking_id, thread_id,
 * nc_idx, id, then device_ns and clock_seq (2 + clock, aligned items only),
 * unmatched; of an end: the STOP's keys as stop.<key>; of a drop: lost_events,
 * next_nc_local_id, nc_idx. Uuids: lanes 0x1000 = 4096 on, then counters. */
#define SEQ1 "trusted_packet_sequence_id:1"
#define U(name, v) "debug_annotations {uint_value:" #v " name:\"" name "\"} "
#define IV(name, v) "debug_annotations {int_value:" #v " name:\"" name "\"} "
#define B(name, v) "debug_annotations {bool_value:" #v " name:\"" name "\"} "
#define STR(name, v) "debug_annotations {string_value:\"" v "\" name:\"" name "\"} "
#define COUNTER(ts, uuid, v) \
    "timestamp:" #ts " " SEQ1 " track_event {type:TYPE_COUNTER track_uuid:" #uuid " counter_value:" #v "}\n"
#define EV(ts) "timestamp:" #ts " " SEQ1 " track_event {"
#define REC(trk, thread, nc, id) U("tracking_id", trk) U("thread_id", thread) U("nc_idx", nc) U("id", id)

/* Trace A is drawn without options: its records name no device, so its one
 * device process (pid 0x7F000000 + 0) is "neuron device (unknown)"
 * (D-TIMELINE-ORDER), not the "neuron device 0" of before issue 38. */
static const char *const pftrace_a[] = {
    "clock_snapshot {clocks {clock_id:1 timestamp:5000} primary_trace_clock:BUILTIN_CLOCK_REALTIME} "
    "timestamp:5000 " SEQ1 " sequence_flags:1 first_packet_on_sequence:true\n",
    SEQ1 " track_descriptor {uuid:1 process {pid:1 process_name:\"ntsim host\"}}\n",
    SEQ1 " track_descriptor {uuid:2 process {pid:2130706432 process_name:\"neuron device (unknown)\"}}\n",
    SEQ1 " track_descriptor {uuid:4096 thread {pid:1 tid:7 thread_name:\"thread 7\"} parent_uuid:1}\n",
    SEQ1 " track_descriptor {uuid:4097 thread {pid:1 tid:2097152000 thread_name:\"thread 7 (overlap 1)\"} parent_uuid:1}\n",
    SEQ1 " track_descriptor {uuid:4098 thread {pid:1 tid:9 thread_name:\"thread 9\"} parent_uuid:1}\n",
    SEQ1 " track_descriptor {uuid:4099 thread {pid:2130706432 tid:2113929216 thread_name:\"NC 0\"} parent_uuid:2}\n",
    SEQ1 " track_descriptor {uuid:4100 name:\"NC 0 events pushed\" parent_uuid:2 counter {unit_name:\"events\"}}\n",
    SEQ1 " track_descriptor {uuid:4101 name:\"NC 0 events lost\" parent_uuid:2 counter {unit_name:\"events\"}}\n",
    COUNTER(5000, 4101, 0),
    COUNTER(5000, 4100, 1),
    EV(5000) U("model_id", 11) U("exec_id", 42) REC(100, 7, 0, 1000)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"nrt_execute\"}\n",
    COUNTER(5050, 4101, 2),
    COUNTER(5050, 4100, 10),
    EV(5050) U("exec_id", 5) U("model_id", 11) REC(77, 7, 0, 1009)
    STR("unmatched", "stop: no START with this tracking_id")
    "type:TYPE_INSTANT track_uuid:4096 categories:\"host\" categories:\"unmatched\" "
    "name:\"kmgr_exec_core (unmatched stop)\"}\n",
    EV(5050) U("lost_events", 2) U("next_nc_local_id", 9) U("nc_idx", 0)
    "type:TYPE_INSTANT track_uuid:4099 categories:\"device\" categories:\"drop\" name:\"events lost\"}\n",
    COUNTER(5100, 4100, 2),
    EV(5100) U("exec_id", 42) U("model_id", 11) REC(42, 7, 0, 1001)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"kbl_exec_pre\"}\n",
    COUNTER(5200, 4100, 3),
    EV(5200) U("model_id", 11) REC(0, 7, 0, 1002)
    "type:TYPE_INSTANT track_uuid:4096 categories:\"host\" name:\"nrt_model_submit\"}\n",
    COUNTER(5300, 4100, 4),
    EV(5300) U("stop.exec_id", 42) U("stop.model_id", 11) "type:TYPE_SLICE_END track_uuid:4096}\n",
    COUNTER(5500, 4100, 5),
    EV(5500) U("tensor_id", 3) U("size", 64) REC(7, 7, 0, 1004)
    "type:TYPE_SLICE_BEGIN track_uuid:4097 categories:\"host\" name:\"nrt_tensor_read\"}\n",
    COUNTER(5600, 4100, 6),
    EV(5600) U("stop.model_id", 11) "type:TYPE_SLICE_END track_uuid:4096}\n",
    COUNTER(5700, 4100, 7),
    EV(5700) U("stop.tensor_id", 3) U("stop.size", 64) "type:TYPE_SLICE_END track_uuid:4097}\n",
    COUNTER(5800, 4100, 11),
    EV(5800) IV("peer_id", -3) U("exec_id", 42) IV("nec_dev_id", 1) REC(55, 9, 0, 1010)
    STR("unmatched", "start: no STOP with this tracking_id")
    "type:TYPE_INSTANT track_uuid:4098 categories:\"host\" categories:\"unmatched\" "
    "name:\"enc_barrier (unmatched start)\"}\n",
    NULL};

/* Device clock k's pairs are ClockSnapshots {REALTIME: cpu, 64: dev} on
 * sequence 2 + k, after the descriptors; c3 has none. The nrt_execute
 * carries the flow ids 1..3, each device span its terminating id. */
#define SNAP(seq, cpu, dev, first)                                                              \
    "clock_snapshot {clocks {clock_id:1 timestamp:" #cpu "} clocks {clock_id:64 timestamp:" #dev \
    "}} timestamp:" #cpu " trusted_packet_sequence_id:" #seq first "\n"
#define FIRST " sequence_flags:1 first_packet_on_sequence:true"
#define DESC(uuid, pid, tid, name, parent)                                                      \
    SEQ1 " track_descriptor {uuid:" #uuid " thread {pid:" #pid " tid:" #tid " thread_name:\"" name \
    "\"} parent_uuid:" #parent "}\n"
#define CDESC(uuid, name)                                                                       \
    SEQ1 " track_descriptor {uuid:" #uuid " name:\"" name "\" parent_uuid:2 counter {unit_name:\"events\"}}\n"

static const char *const pftrace_b[] = {
    "clock_snapshot {clocks {clock_id:1 timestamp:9000} primary_trace_clock:BUILTIN_CLOCK_REALTIME} "
    "timestamp:9000 " SEQ1 " sequence_flags:1 first_packet_on_sequence:true\n",
    SEQ1 " track_descriptor {uuid:1 process {pid:77 process_name:\"h\\\"<&>'\"}}\n",
    SEQ1 " track_descriptor {uuid:2 process {pid:2130706435 process_name:\"neuron device 3\"}}\n",
    DESC(4096, 77, 7, "thread 7", 1),
    DESC(4097, 2130706435, 2113929216, "NC 1 core 0", 2),
    DESC(4098, 2130706435, 2113929217, "NC 1 core 1", 2),
    DESC(4099, 2130706435, 2113929218, "NC 1 (no core)", 2),
    DESC(4100, 2130706435, 2113929219, "NC 1 notifications & DMA", 2),
    DESC(4101, 2130706435, 2113929220, "NC 2", 2),
    CDESC(4102, "NC 1 events pushed"),
    CDESC(4103, "NC 1 events lost"),
    CDESC(4104, "NC 2 events pushed"),
    CDESC(4105, "NC 2 events lost"),
    SNAP(2, 10000, 11000, FIRST),
    SNAP(2, 12048, 13050, ""),
    SNAP(3, 10500, 12500, FIRST),
    SNAP(4, 11150, 12300, FIRST),
    COUNTER(9000, 4103, 0),
    COUNTER(9000, 4102, 1),
    EV(9000) U("model_id", 12) U("exec_id", 43) REC(200, 7, 1, 2000)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"nrt_execute\" "
    "flow_ids:1 flow_ids:2 flow_ids:3}\n",
    COUNTER(9050, 4105, 0),
    COUNTER(9050, 4104, 1),
    EV(9050) U("device_core_idx", 0) U("hint", 1) U("custom_data", 0) U("nc_timestamp_ns", 777)
    U("exec_id", 0) REC(0, 7, 2, 2013) U("device_ns", 777)
    "type:TYPE_INSTANT track_uuid:4101 categories:\"device\" name:\"hw_notify\"}\n",
    COUNTER(9100, 4102, 2),
    EV(9100) U("exec_id", 43) U("model_id", 12) REC(43, 7, 1, 2001)
    "type:TYPE_SLICE_BEGIN track_uuid:4096 categories:\"host\" name:\"kbl_exec_pre\"}\n",
    COUNTER(9200, 4102, 3),
    EV(9200) U("stop.exec_id", 43) U("stop.model_id", 12) "type:TYPE_SLICE_END track_uuid:4096}\n",
    COUNTER(9300, 4102, 4),
    COUNTER(9400, 4102, 5),
    COUNTER(9500, 4102, 6),
    COUNTER(9600, 4102, 7),
    COUNTER(9700, 4102, 8),
    COUNTER(9800, 4102, 9),
    COUNTER(9900, 4102, 10),
    EV(10000) U("device_core_idx", 0) U("exec_id", 43) U("nc_timestamp_ns", 11000) U("model_id", 0)
    REC(300, 7, 1, 2003) U("device_ns", 11000) U("clock_seq", 2)
    "type:TYPE_SLICE_BEGIN track_uuid:4097 categories:\"device\" name:\"nc_exec_running\" "
    "terminating_flow_ids:1}\n",
    COUNTER(10100, 4102, 11),
    EV(10100) U("hbm_idx", 1) B("is_nc_hbm", true) B("is_aligned", false) U("mla_idx", 2)
    STR("usage_type", "weight") REC(303, 7, 1, 2010)
    "type:TYPE_SLICE_BEGIN track_uuid:4100 categories:\"dma\" name:\"nrt_dma_mem_alloc\"}\n",
    COUNTER(10200, 4102, 12),
    EV(10200) U("stop.allocated_bytes", 4096) U("stop.total_bytes", 16384)
    U("stop.usage_type_total_bytes", 8192) U("stop.return_code", 0)
    STR("stop.physical_address", "0xabc0") "type:TYPE_SLICE_END track_uuid:4100}\n",
    EV(10500) U("device_core_idx", 1) U("model_id", 12) U("exec_id", 43) U("nc_timestamp_ns", 12500)
    REC(301, 7, 1, 2004) U("device_ns", 12500) U("clock_seq", 3)
    "type:TYPE_SLICE_BEGIN track_uuid:4098 categories:\"device\" name:\"nc_model_switch\" "
    "terminating_flow_ids:2}\n",
    EV(10700) U("stop.nc_timestamp_ns", 12700) "type:TYPE_SLICE_END track_uuid:4098}\n",
    EV(11000) U("device_core_idx", 0) U("hint", 7) U("custom_data", 9) U("nc_timestamp_ns", 12001)
    U("exec_id", 43) REC(5, 7, 1, 2006) U("device_ns", 12001) U("clock_seq", 2)
    "type:TYPE_INSTANT track_uuid:4097 categories:\"device\" name:\"hw_notify\"}\n",
    EV(11150) U("gid", 2) U("op_id", 5) U("nc_timestamp_ns", 12300) U("exec_id", 43)
    STR("algorithm", "3") REC(302, 7, 1, 2008) U("device_ns", 12300) U("clock_seq", 4)
    "type:TYPE_SLICE_BEGIN track_uuid:4099 categories:\"device\" name:\"cc_running\" "
    "terminating_flow_ids:3}\n",
    EV(11250) U("stop.nc_timestamp_ns", 12400) "type:TYPE_SLICE_END track_uuid:4099}\n",
    EV(12048) U("stop.nc_timestamp_ns", 13050) "type:TYPE_SLICE_END track_uuid:4097}\n",
    COUNTER(13000, 4102, 13),
    EV(13000) U("stop.model_id", 12) "type:TYPE_SLICE_END track_uuid:4096}\n",
    NULL};

START_TEST(test_pftrace_of_trace_a)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_a(r);
    char *got = pftrace_text(r, n, NULL);
    check_lines("pftrace.a", pftrace_a, got, strlen(got));
    free(got);
}
END_TEST

START_TEST(test_pftrace_of_trace_b)
{
    nrt_sys_trace_event_t r[16];
    size_t n = trace_b(r);
    char *got = pftrace_text(r, n, &options_b);
    check_lines("pftrace.b", pftrace_b, got, strlen(got));
    free(got);
}
END_TEST

/* --- the .pftrace, read back with protobuf-c ------------------------------------- */

START_TEST(test_pftrace_reads_back_as_the_timeline)
{
    nrt_sys_trace_event_t r[16];
    size_t n = pairing_records(r);
    uint8_t *buf;
    size_t len;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, n, NULL, &buf, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    size_t begins = 0, ends = 0, instants = 0, tracks = 0, unmatched = 0;
    const Perfetto__Protos__TracePacket *p0 = tr->packet[0];
    ck_assert_int_eq(p0->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT);
    ck_assert_int_eq(p0->clock_snapshot->primary_trace_clock,
                     PERFETTO__PROTOS__BUILTIN_CLOCK__BUILTIN_CLOCK_REALTIME);
    ck_assert(p0->first_packet_on_sequence);
    uint64_t last = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        const Perfetto__Protos__TracePacket *p = tr->packet[i];
        ck_assert_uint_eq(p->trusted_packet_sequence_id, 1);
        tracks += p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
        if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
            continue;
        const Perfetto__Protos__TrackEvent *te = p->track_event;
        ck_assert_uint_ge(p->timestamp, last); /* written in time order */
        last = p->timestamp;
        begins += te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
        ends += te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
        instants += te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
        if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME &&
            strstr(te->name, "(unmatched") != NULL)
            unmatched++;
        for (size_t a = 0; a < te->n_debug_annotations; a++) /* names, never interned */
            ck_assert_int_eq(te->debug_annotations[a]->name_field_case,
                             PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME);
    }
    /* By hand (test_pairing): 4 spans; the instant, two unmatched edges. */
    ck_assert_uint_eq(begins, 4);
    ck_assert_uint_eq(ends, 4);
    ck_assert_uint_eq(instants, 3);
    ck_assert_uint_eq(unmatched, 2);
    ck_assert_uint_eq(tracks, 2 + 1 + 2); /* 2 processes, thread 7, NC 0's two counters */
    perfetto__protos__trace__free_unpacked(tr, NULL);
    ntsim_buffer_free(buf);
}
END_TEST

/* --- the .pftrace framing (D-PFTRACE "Framing") ---------------------------------- */

/* Walks a .pftrace as D-PFTRACE frames it: packet i is 0x0A, the protobuf
 * varint of its packed length (base 128, least significant group first,
 * 0x80 on every byte but the last: the shortest form, as protobuf encodes a
 * length), then the packed TracePacket. The packets come from protobuf-c's
 * own reading of the file and are packed again here, so every byte is
 * derived independently of the writer's framing. Counts the packets whose
 * packed length is 127 and 128 (the one- and two-byte varint sides). */
static void check_framing(const uint8_t *buf, size_t len, size_t *len127, size_t *len128)
{
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    ck_assert_uint_gt(tr->n_packet, 0);
    size_t off = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        size_t body = perfetto__protos__trace_packet__get_packed_size(tr->packet[i]);
        *len127 += body == 127;
        *len128 += body == 128;
        uint8_t want[16];
        size_t h = 0;
        want[h++] = 0x0A;
        for (uint64_t v = body;; v >>= 7) {
            if (v < 128) {
                want[h++] = (uint8_t)v;
                break;
            }
            want[h++] = (uint8_t)(0x80 | (v & 0x7f));
        }
        ck_assert_uint_le(off + h + body, len);
        ck_assert_msg(memcmp(buf + off, want, h) == 0, "packet %zu: frame header", i);
        uint8_t *packed = malloc(body);
        ck_assert_ptr_nonnull(packed);
        ck_assert_uint_eq(perfetto__protos__trace_packet__pack(tr->packet[i], packed), body);
        ck_assert_msg(memcmp(buf + off + h, packed, body) == 0, "packet %zu: body", i);
        free(packed);
        off += h + body;
    }
    ck_assert_uint_eq(off, len); /* nothing after the last packet */
    perfetto__protos__trace__free_unpacked(tr, NULL);
}

/* A varint holds 7 bits a byte: a packet of 127 bytes is framed 0x0A 0x7F, one
 * of 128 bytes 0x0A 0x80 0x01. The sweep moves a tensor_read instant's packet
 * across that edge a byte at a time: tracking_id and id are unsigned
 * annotations (D-PFTRACE), whose varints grow a byte every 7 bits. */
START_TEST(test_pftrace_frames_packets_of_127_and_128_bytes_with_shortest_varints)
{
    size_t n127 = 0, n128 = 0;
    for (unsigned a = 0; a < 64; a += 7) {
        for (unsigned c = 0; c < 64; c += 7) {
            g_seq = 0;
            nrt_sys_trace_event_t r = host_rec(TY(TENSOR_READ), I, (uint64_t)1 << a, T0 + 100);
            r.id = (uint64_t)1 << c;
            uint8_t *buf;
            size_t len;
            ck_assert_int_eq(ntsim_pftrace_serialize(&r, 1, NULL, &buf, &len), NRT_SUCCESS);
            check_framing(buf, len, &n127, &n128);
            ntsim_buffer_free(buf);
        }
    }
    /* The sweep did reach both sides of the edge (else it proves nothing). */
    ck_assert_uint_gt(n127, 0);
    ck_assert_uint_gt(n128, 0);
}
END_TEST

/* The file is written one packet at a time into a buffer that grows as it
 * goes (D-PFTRACE "Framing"): traces of 50 instants, several KiB, whose
 * packets end at every offset modulo a packet (the first j carry a 10-byte
 * tracking_id varint, 9 bytes more each), so a packet straddles each of the
 * buffer's growth points somewhere in the sweep. Each must still be exactly
 * its packets framed one after another; a frame written past the room made
 * for it fails here or under make asan. */
START_TEST(test_pftrace_traces_of_several_kib_frame_every_packet_whole)
{
    size_t n127 = 0, n128 = 0;
    for (int j = 0; j <= 20; j++) {
        nrt_sys_trace_event_t r[50];
        g_seq = 0;
        for (int i = 0; i < 50; i++)
            r[i] = host_rec(TY(GENERIC), I, i < j ? UINT64_MAX : 1, T0 + (uint64_t)i);
        uint8_t *buf;
        size_t len;
        ck_assert_int_eq(ntsim_pftrace_serialize(r, 50, NULL, &buf, &len), NRT_SUCCESS);
        ck_assert_uint_gt(len, 4096);
        check_framing(buf, len, &n127, &n128);
        ntsim_buffer_free(buf);
    }
}
END_TEST

/* --- the .pftrace, field by field (mutants of pftrace.c) --------------------------- */

/* The nrt_execute SLICE_BEGINs of a .pftrace, in time order: each one's
 * annotations named `exec_id` (count, and the last one's uint_value). */
static size_t execute_exec_ids(const Perfetto__Protos__Trace *tr, size_t *count, uint64_t *value,
                               size_t cap)
{
    size_t m = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        const Perfetto__Protos__TracePacket *p = tr->packet[i];
        if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
            continue;
        const Perfetto__Protos__TrackEvent *te = p->track_event;
        if (te->type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN ||
            strcmp(te->name, "nrt_execute") != 0)
            continue;
        ck_assert_uint_lt(m, cap);
        count[m] = 0;
        value[m] = UINT64_MAX;
        for (size_t a = 0; a < te->n_debug_annotations; a++) {
            const Perfetto__Protos__DebugAnnotation *d = te->debug_annotations[a];
            if (strcmp(d->name, "exec_id") != 0)
                continue;
            count[m]++;
            ck_assert_int_eq(d->value_case, PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE);
            value[m] = d->uint_value;
        }
        m++;
    }
    return m;
}

/* D-PFTRACE: a begin's annotations carry `exec_id` (an nrt_execute's): the exec id
 * it takes from an exec-stage span with a non-zero exec_id inside it
 * (D-TIMELINE-ORDER, Flows), here 1; an nrt_execute that takes none has no
 * exec id (timeline.h: 0 is "none known"), so no `exec_id`, as in the Chrome
 * JSON (D-CHROME-JSON). By hand: nrt_execute A [0, 30] holds kbl_exec_pre
 * [10, 20] with exec_id 1, B [100, 130] holds nothing. */
START_TEST(test_pftrace_execute_carries_exec_id_one_and_none_without_one)
{
    nrt_sys_trace_event_t r[6];
    r[0] = host_rec(TY(EXECUTE_API), S, 100, T0);
    r[1] = host_rec(TY(EXEC_PRE), S, 1, T0 + 10);
    r[1].data.exec_pre.exec_id = 1;
    r[2] = host_rec(TY(EXEC_PRE), T, 1, T0 + 20);
    r[2].data = r[1].data;
    r[3] = host_rec(TY(EXECUTE_API), T, 100, T0 + 30);
    r[4] = host_rec(TY(EXECUTE_API), S, 101, T0 + 100);
    r[5] = host_rec(TY(EXECUTE_API), T, 101, T0 + 130);
    uint8_t *buf;
    size_t len;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, 6, NULL, &buf, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    size_t count[4];
    uint64_t value[4];
    ck_assert_uint_eq(execute_exec_ids(tr, count, value, 4), 2);
    ck_assert_uint_eq(count[0], 1); /* A: exec_id 1 */
    ck_assert_uint_eq(value[0], 1);
    ck_assert_uint_eq(count[1], 0); /* B: none */
    perfetto__protos__trace__free_unpacked(tr, NULL);
    ntsim_buffer_free(buf);
}
END_TEST

/* D-PFTRACE: an nrt_execute lists its flows' ids in flow_ids, a device span
 * its flow in terminating_flow_ids: all of them, however many. By hand
 * (D-TIMELINE-ORDER, Flows): the nrt_execute [0, 10000] on thread 7, NC 0
 * takes exec_id 7 from kbl_exec_pre [10, 20]; each of the `spans`
 * nc_exec_running spans k of NC 0 with exec_id 7 (items 2 + k, in record
 * order) gets a flow from it, numbered 1 + k in order of (source,
 * destination): flow_ids 1..spans in that order, and span k terminates flow
 * 1 + k. */
static void check_execute_flows(size_t spans_want)
{
    nrt_sys_trace_event_t r[4 + 2 * 65];
    ck_assert_uint_le(spans_want, 65);
    size_t n = 0;
    r[n++] = host_rec(TY(EXECUTE_API), S, 100, T0);
    r[n] = host_rec(TY(EXEC_PRE), S, 1, T0 + 10);
    r[n++].data.exec_pre.exec_id = 7;
    r[n] = host_rec(TY(EXEC_PRE), T, 1, T0 + 20);
    r[n].data = r[n - 1].data;
    n++;
    for (uint64_t k = 0; k < spans_want; k++) {
        r[n] = host_rec(TY(DEVICE_EXEC), S, 1000 + k, T0 + 100 + 100 * k);
        r[n++].data.nc_exec_start.exec_id = 7;
        r[n] = host_rec(TY(DEVICE_EXEC), T, 1000 + k, T0 + 150 + 100 * k);
        r[n].data = r[n - 1].data;
        n++;
    }
    r[n++] = host_rec(TY(EXECUTE_API), T, 100, T0 + 10000);
    uint8_t *buf;
    size_t len;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, n, NULL, &buf, &len), NRT_SUCCESS);
    Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, len, buf);
    ck_assert_ptr_nonnull(tr);
    size_t executes = 0, spans = 0;
    for (size_t i = 0; i < tr->n_packet; i++) {
        const Perfetto__Protos__TracePacket *p = tr->packet[i];
        if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
            continue;
        const Perfetto__Protos__TrackEvent *te = p->track_event;
        if (te->type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN)
            continue;
        if (strcmp(te->name, "nrt_execute") == 0) {
            executes++;
            ck_assert_uint_eq(te->n_flow_ids, spans_want);
            for (size_t f = 0; f < spans_want; f++)
                ck_assert_uint_eq(te->flow_ids[f], f + 1);
            ck_assert_uint_eq(te->n_terminating_flow_ids, 0);
        } else if (strcmp(te->name, "nc_exec_running") == 0) {
            /* in time order: span k begins at 100 + 100 k */
            ck_assert_uint_eq(p->timestamp, T0 + 100 + 100 * spans);
            ck_assert_uint_eq(te->n_terminating_flow_ids, 1);
            ck_assert_uint_eq(te->terminating_flow_ids[0], spans + 1);
            ck_assert_uint_eq(te->n_flow_ids, 0);
            spans++;
        }
    }
    ck_assert_uint_eq(executes, 1);
    ck_assert_uint_eq(spans, spans_want);
    perfetto__protos__trace__free_unpacked(tr, NULL);
    ntsim_buffer_free(buf);
}

START_TEST(test_pftrace_execute_lists_every_flow_id_past_sixty_four)
{
    check_execute_flows(65);
}
END_TEST

START_TEST(test_pftrace_execute_with_one_flow_lists_its_id)
{
    check_execute_flows(1);
}
END_TEST

Suite *make_pftrace_suite(void)
{
    Suite *s = suite_create("pftrace");
    TCase *tc = tcase_create("pftrace");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_pftrace_of_trace_a);
    tcase_add_test(tc, test_pftrace_of_trace_b);
    suite_add_tcase(s, tc);
    tc = tcase_create("pftrace_read_back");
    tcase_add_checked_fixture(tc, host_setup, host_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_pftrace_reads_back_as_the_timeline);
    tcase_add_test(tc, test_pftrace_frames_packets_of_127_and_128_bytes_with_shortest_varints);
    tcase_add_test(tc, test_pftrace_traces_of_several_kib_frame_every_packet_whole);
    tcase_add_test(tc, test_pftrace_execute_carries_exec_id_one_and_none_without_one);
    tcase_add_test(tc, test_pftrace_execute_lists_every_flow_id_past_sixty_four);
    tcase_add_test(tc, test_pftrace_execute_with_one_flow_lists_its_id);
    suite_add_tcase(s, tc);
    return s;
}
