/*
 * engine/read/decode.c: the printers behind `ntsim decode` and the `decode`
 * vector kind (ntsim/read.h, D-DECODE): an NTFF file or a raw record dump.
 *
 * NTFF is unpacked with protobuf-c and printed in protobuf's text format
 * (fields in number order, maps as entries, strings and bytes escaped the
 * way protoc escapes them), so the output can be compared with
 * `protoc --decode=ntff.ntrace_info`. A record dump (a file of 112-byte
 * nrt_sys_trace_event records, as nrt_sys_trace_drain_events writes them)
 * is printed as the JSON fetch document, or one line per record with --text.
 */
#define _GNU_SOURCE /* fmemopen with _POSIX_C_SOURCE */
#include <inttypes.h>
#include <string.h>

#include "alloc.h"
#include "event_table.h"
#include "nrt/nrt_sys_trace.h"
#include "ntff.pb-c.h"
#include "ntff_wire.h"
#include "ntsim/convert.h"
#include "read_int.h"

/* protoc's escaping: \\n \\r \\t \\" \\' \\\\, other non-printables as octal. */
static void print_escaped(FILE *out, const uint8_t *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        switch (c) {
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        case '"': fputs("\\\"", out); break;
        case '\'': fputs("\\'", out); break;
        case '\\': fputs("\\\\", out); break;
        default:
            if (c < 0x20 || c >= 0x7f)
                fprintf(out, "\\%03o", c);
            else
                fputc(c, out);
        }
    }
    fputc('"', out);
}

static void print_message(FILE *out, const ProtobufCMessage *m, int indent);

static void print_value(FILE *out, const ProtobufCFieldDescriptor *fd, const void *v, int indent)
{
    switch (fd->type) {
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
        fprintf(out, "%" PRIu32, *(const uint32_t *)v);
        break;
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
        fprintf(out, "%" PRId32, *(const int32_t *)v);
        break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        fprintf(out, "%" PRIu64, *(const uint64_t *)v);
        break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        fprintf(out, "%" PRId64, *(const int64_t *)v);
        break;
    case PROTOBUF_C_TYPE_BOOL:
        fputs(*(const protobuf_c_boolean *)v ? "true" : "false", out);
        break;
    case PROTOBUF_C_TYPE_FLOAT:
        fprintf(out, "%g", (double)*(const float *)v);
        break;
    case PROTOBUF_C_TYPE_DOUBLE:
        fprintf(out, "%g", *(const double *)v);
        break;
    case PROTOBUF_C_TYPE_ENUM: {
        int value = *(const int *)v;
        const ProtobufCEnumValue *ev =
            protobuf_c_enum_descriptor_get_value(fd->descriptor, value);
        if (ev != NULL)
            fputs(ev->name, out);
        else
            fprintf(out, "%d", value);
        break;
    }
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)v;
        print_escaped(out, (const uint8_t *)s, strlen(s));
        break;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = v;
        print_escaped(out, b->data, b->len);
        break;
    }
    case PROTOBUF_C_TYPE_MESSAGE:
        fputs("{\n", out);
        print_message(out, *(ProtobufCMessage *const *)v, indent + 2);
        fprintf(out, "%*s}", indent, "");
        break;
    }
}

static size_t element_size(const ProtobufCFieldDescriptor *fd)
{
    switch (fd->type) {
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE:
        return 8;
    case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(ProtobufCMessage *);
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    default: return 4;
    }
}

static void print_message(FILE *out, const ProtobufCMessage *m, int indent)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *fd = &d->fields[i];
        const char *member = (const char *)m + fd->offset;
        size_t count = 1;
        if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
            count = *(const size_t *)((const char *)m + fd->quantifier_offset);
            member = *(char *const *)member;
        } else if (fd->type == PROTOBUF_C_TYPE_STRING || fd->type == PROTOBUF_C_TYPE_MESSAGE) {
            if (*(char *const *)member == NULL)
                continue;
        } else if (fd->label == PROTOBUF_C_LABEL_OPTIONAL && fd->quantifier_offset != 0) {
            if (!*(const protobuf_c_boolean *)((const char *)m + fd->quantifier_offset))
                continue;
        }
        for (size_t k = 0; k < count; k++) {
            fprintf(out, "%*s%s", indent, "", fd->name);
            fputs(fd->type == PROTOBUF_C_TYPE_MESSAGE ? " " : ": ", out);
            print_value(out, fd, member + k * element_size(fd), indent);
            fputc('\n', out);
        }
    }
}

/* NRT_SUCCESS when everything printed reached out; else NRT_FAILURE, said. */
static NRT_STATUS written(FILE *out, char *err, size_t cap)
{
    if (fflush(out) == 0 && !ferror(out))
        return NRT_SUCCESS;
    snprintf(err, cap, "cannot write the output");
    return NRT_FAILURE;
}

/* --- record dumps, streamed -------------------------------------------------------- */

enum { RECORD_CHUNK = 4096 };  /* records read, converted and printed at a time */

static void print_record_lines(FILE *out, const nrt_sys_trace_event_t *recs, size_t n,
                               uint64_t first)
{
    for (size_t i = 0; i < n; i++) {
        const nrt_sys_trace_event_t *e = &recs[i];
        const ntsim_event_type_desc_t *d = ntsim__event_type_desc((uint32_t)e->trace_type);
        fprintf(out, "%" PRIu64 " %s phase=%u nc=%u id=%" PRIu64 " tracking=%" PRIu64
                     " tid=%" PRIu64 " ts=%" PRIu64 "\n",
                first + i, d ? d->json_name : "unknown", (unsigned)e->phase, e->nc_idx, e->id,
                e->tracking_id, e->thread_id, e->timestamp_ns);
    }
}

/* The events of one chunk as the converter writes them, without the
 * document's wrapper, so that chunks join into one fetch document. */
static NRT_STATUS print_record_json(FILE *out, const nrt_sys_trace_event_t *recs, size_t n,
                                    bool first_chunk)
{
    static const char open[] = "{\"events\":[", close[] = "],\"data_version\":2}";
    char *doc;
    size_t dlen;
    NRT_STATUS st = ntsim_json_serialize(recs, n, &doc, &dlen);
    if (st != NRT_SUCCESS)
        return st;
    size_t body = dlen - (sizeof open - 1) - (sizeof close - 1);
    if (body > 0 && !first_chunk)
        fputc(',', out);
    fwrite(doc + sizeof open - 1, 1, body, out);
    nrt_sys_trace_buffer_free(doc);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_decode_record_stream(FILE *in, uint64_t size, bool text, FILE *out, char *err,
                                      size_t cap)
{
    if (in == NULL || out == NULL || (err == NULL && cap > 0))
        return NRT_INVALID;
    const size_t rec = sizeof(nrt_sys_trace_event_t);
    if (size % rec != 0) {
        snprintf(err, cap, "size %" PRIu64 " is not a multiple of %zu: a truncated record dump "
                           "(%" PRIu64 " whole records, %" PRIu64 " bytes left over)",
                 size, rec, size / rec, size % rec);
        return NRT_INVALID;
    }
    nrt_sys_trace_event_t *recs = ntsim__malloc(RECORD_CHUNK * rec);
    if (recs == NULL) {
        snprintf(err, cap, "out of memory");
        return NRT_RESOURCE;
    }
    if (!text)
        fputs("{\"events\":[", out);
    NRT_STATUS st = NRT_SUCCESS;
    uint64_t done = 0, total = size / rec;
    while (done < total && st == NRT_SUCCESS) {
        size_t want = total - done < RECORD_CHUNK ? (size_t)(total - done) : RECORD_CHUNK;
        size_t got = fread(recs, rec, want, in);
        if (got != want) {
            snprintf(err, cap, "read error after %" PRIu64 " records", done + got);
            st = NRT_INVALID;
        } else if (text) {
            print_record_lines(out, recs, got, done);
        } else if ((st = print_record_json(out, recs, got, done == 0)) != NRT_SUCCESS) {
            snprintf(err, cap, "out of memory"); /* the converter's only failure here */
        }
        done += got;
    }
    if (!text && st == NRT_SUCCESS)
        fputs("],\"data_version\":2}\n", out);
    ntsim__free(recs);
    return st == NRT_SUCCESS ? written(out, err, cap) : st;
}

NRT_STATUS ntsim_decode_records(const uint8_t *data, size_t len, bool text, FILE *out, char *err,
                                size_t cap)
{
    if (out == NULL || (data == NULL && len > 0) || (err == NULL && cap > 0))
        return NRT_INVALID;
    /* The same streaming decoder, over the bytes in memory. */
    FILE *in = len > 0 ? fmemopen((void *)(uintptr_t)data, len, "rb") : NULL;
    if (len > 0 && in == NULL) {
        snprintf(err, cap, "out of memory");
        return NRT_RESOURCE;
    }
    FILE *empty = NULL;
    if (in == NULL) { /* fmemopen refuses a zero size: an empty stream */
        static char nothing[1];
        in = empty = fmemopen(nothing, 1, "rb");
        if (in == NULL) {
            snprintf(err, cap, "out of memory");
            return NRT_RESOURCE;
        }
    }
    NRT_STATUS st = ntsim_decode_record_stream(in, len, text, out, err, cap);
    fclose(in);
    return st;
}

/* --- NTFF, one event at a time ---------------------------------------------------- */

static void refuse_ntff(char *err, size_t cap, size_t len)
{
    snprintf(err, cap, "not a valid NTFF ntrace_info (%zu bytes; protobuf-c could not unpack it: "
                       "a bad tag, a truncated field or a wrong file)",
             len);
}

NRT_STATUS ntsim_decode_ntff(const uint8_t *data, size_t len, uint64_t max_events, FILE *out,
                             char *err, size_t cap)
{
    if (out == NULL || (data == NULL && len > 0) || (err == NULL && cap > 0))
        return NRT_INVALID;
    /* Pass 1: walk the fields, count the events, unpack each event alone (and
     * free it) and everything else as one smaller ntrace_info. Nothing is
     * printed unless the whole file unpacks (D-DECODE), and memory holds one
     * event at a time whatever the file. */
    uint8_t *rest = ntsim__malloc(len ? len : 1);
    if (rest == NULL) {
        snprintf(err, cap, "out of memory");
        return NRT_RESOURCE;
    }
    ntsim__pb_heap_t heap;
    ntsim__pb_heap_init(&heap);
    size_t rest_len = 0, i = 0;
    uint64_t events = 0;
    ntsim_wire_field_t f;
    NRT_STATUS st = NRT_SUCCESS;
    while (i < len && st == NRT_SUCCESS) {
        if (!ntsim__ntff_wire_next(data, len, &i, &f)) {
            st = NRT_INVALID;
        } else if (ntsim__ntff_wire_is_event(&f)) {
            if (++events > max_events) {
                snprintf(err, cap, "more than %" PRIu64 " events (the --max-events limit)",
                         max_events);
                ntsim__free(rest);
                return NRT_INVALID;
            }
            Ntff__NtraceEvent *ev =
                ntff__ntrace_event__unpack(&heap.allocator, f.value_len, data + f.value);
            if (ev == NULL)
                st = NRT_INVALID;
            else
                ntff__ntrace_event__free_unpacked(ev, &heap.allocator);
        } else {
            memcpy(rest + rest_len, data + f.start, f.end - f.start);
            rest_len += f.end - f.start;
        }
    }
    Ntff__NtraceInfo *info =
        st == NRT_SUCCESS ? ntff__ntrace_info__unpack(&heap.allocator, rest_len, rest) : NULL;
    ntsim__free(rest);
    if (info == NULL) {
        if (heap.failed) {
            snprintf(err, cap, "out of memory");
            return NRT_RESOURCE;
        }
        refuse_ntff(err, cap, len);
        return NRT_INVALID;
    }
    /* Pass 2: print in field-number order, as protoc does: the events (field
     * 1) in file order, then the rest. Each unpacked in pass 1, so only
     * running out of memory stops one here. */
    for (i = 0; i < len && st == NRT_SUCCESS && ntsim__ntff_wire_next(data, len, &i, &f);) {
        if (!ntsim__ntff_wire_is_event(&f))
            continue;
        Ntff__NtraceEvent *ev =
            ntff__ntrace_event__unpack(&heap.allocator, f.value_len, data + f.value);
        if (ev == NULL) {
            snprintf(err, cap, "out of memory");
            st = NRT_RESOURCE;
            break;
        }
        fputs("events {\n", out);
        print_message(out, &ev->base, 2);
        fputs("}\n", out);
        ntff__ntrace_event__free_unpacked(ev, &heap.allocator);
    }
    if (st == NRT_SUCCESS)
        print_message(out, &info->base, 0);
    ntff__ntrace_info__free_unpacked(info, &heap.allocator);
    return st == NRT_SUCCESS ? written(out, err, cap) : st;
}
