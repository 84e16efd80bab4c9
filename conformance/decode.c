/*
 * conformance/decode.c: the decoders behind `ntsim decode` and the `decode`
 * vector kind (decode.h): print an .ntff file or a raw record dump.
 *
 * NTFF is unpacked with protobuf-c and printed in protobuf's text format
 * (fields in number order, maps as entries, strings and bytes escaped the
 * way protoc escapes them), so the output can be compared with
 * `protoc --decode=ntff.ntrace_info`. A record dump (a file of 112-byte
 * nrt_sys_trace_event records, as nrt_sys_trace_drain_events writes them)
 * is printed as the JSON fetch document, or one line per record with --text.
 */
#include "decode.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "ntff.pb-c.h"
#include "nrt/nrt_sys_trace.h"
#include "ntsim/convert.h"

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

NRT_STATUS ntsim_decode_records(const uint8_t *data, size_t len, bool text, FILE *out, char *err,
                                size_t cap)
{
    if (len % sizeof(nrt_sys_trace_event_t) != 0) {
        snprintf(err, cap, "size %zu is not a multiple of %zu: a truncated record dump "
                           "(%zu whole records, %zu bytes left over)",
                 len, sizeof(nrt_sys_trace_event_t), len / sizeof(nrt_sys_trace_event_t),
                 len % sizeof(nrt_sys_trace_event_t));
        return NRT_INVALID;
    }
    size_t n = len / sizeof(nrt_sys_trace_event_t);
    nrt_sys_trace_event_t *recs = malloc(n ? len : 1);
    if (recs == NULL) {
        snprintf(err, cap, "out of memory");
        return NRT_RESOURCE;
    }
    if (len > 0)
        memcpy(recs, data, len);
    NRT_STATUS st = NRT_SUCCESS;
    if (text) {
        for (size_t i = 0; i < n; i++) {
            const nrt_sys_trace_event_t *e = &recs[i];
            const ntsim_event_type_desc_t *d = ntsim__event_type_desc((uint32_t)e->trace_type);
            fprintf(out, "%zu %s phase=%u nc=%u id=%" PRIu64 " tracking=%" PRIu64 " tid=%" PRIu64
                         " ts=%" PRIu64 "\n",
                    i, d ? d->json_name : "unknown", (unsigned)e->phase, e->nc_idx, e->id,
                    e->tracking_id, e->thread_id, e->timestamp_ns);
        }
    } else {
        char *doc;
        size_t dlen;
        st = ntsim_json_serialize(recs, n, &doc, &dlen);
        if (st == NRT_SUCCESS) {
            fwrite(doc, 1, dlen, out);
            fputc('\n', out);
            nrt_sys_trace_buffer_free(doc);
        } else {
            snprintf(err, cap, "cannot serialize the records");
        }
    }
    free(recs);
    return st;
}

NRT_STATUS ntsim_decode_ntff(const uint8_t *data, size_t len, FILE *out, char *err, size_t cap)
{
    Ntff__NtraceInfo *info = ntff__ntrace_info__unpack(NULL, len, data);
    if (info == NULL) {
        snprintf(err, cap, "not a valid NTFF ntrace_info (%zu bytes; protobuf-c could not "
                           "unpack it: a bad tag, a truncated field or a wrong file)",
                 len);
        return NRT_INVALID;
    }
    print_message(out, &info->base, 0);
    ntff__ntrace_info__free_unpacked(info, NULL);
    return NRT_SUCCESS;
}
