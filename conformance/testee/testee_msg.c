/* conformance/testee/testee_msg.c: see testee_msg.h. */
#include "testee_msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind_map.h"

/* The judged kinds of NTSIM_KIND_MAP, in its order. */
const char *const ntsim_testee_kind_names[] = {
#define NTSIM_KIND_JUDGED_NAME(name, how, body) NTSIM_KIND_IF_JUDGED(how, #name, )
    NTSIM_KIND_MAP(NTSIM_KIND_JUDGED_NAME)
#undef NTSIM_KIND_JUDGED_NAME
        NULL};
const char *const ntsim_testee_cap_names[] = {"log", "stats", "fail_allocations",
                                              "json_escape", "blocks", NULL};

void ntsim_arena_init(ntsim_arena_t *a)
{
    memset(a, 0, sizeof *a);
}

void ntsim_arena_free(ntsim_arena_t *a)
{
    for (size_t i = 0; i < a->count; i++)
        free(a->blocks[i]);
    free(a->blocks);
    memset(a, 0, sizeof *a);
}

void *ntsim_arena_alloc(ntsim_arena_t *a, size_t n)
{
    if (a->count == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 16;
        void **blocks = realloc(a->blocks, cap * sizeof *blocks);
        if (blocks == NULL)
            return NULL;
        a->blocks = blocks;
        a->cap = cap;
    }
    void *p = calloc(1, n ? n : 1);
    if (p != NULL)
        a->blocks[a->count++] = p;
    return p;
}

void *ntsim_arena_array(ntsim_arena_t *a, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    return ntsim_arena_alloc(a, count * size);
}

char *ntsim_arena_strdup(ntsim_arena_t *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = ntsim_arena_alloc(a, n);
    if (p != NULL)
        memcpy(p, s, n);
    return p;
}

bool ntsim_arena_bytes(ntsim_arena_t *a, const void *data, size_t n, ProtobufCBinaryData *out)
{
    uint8_t *p = ntsim_arena_alloc(a, n);
    if (p == NULL)
        return false;
    if (n > 0)
        memcpy(p, data, n);
    out->data = p;
    out->len = n;
    return true;
}

bool ntsim_arena_records(ntsim_arena_t *a, const nrt_sys_trace_event_t *recs, size_t count,
                         ProtobufCBinaryData **out, size_t *n_out)
{
    ProtobufCBinaryData *b = ntsim_arena_array(a, count, sizeof *b);
    if (b == NULL)
        return false;
    for (size_t i = 0; i < count; i++)
        if (!ntsim_arena_bytes(a, &recs[i], sizeof recs[i], &b[i]))
            return false;
    *out = b;
    *n_out = count;
    return true;
}

bool ntsim_testee_records_read(ProtobufCBinaryData *in, size_t n, nrt_sys_trace_event_t **out,
                               size_t *bad)
{
    nrt_sys_trace_event_t *recs = calloc(n ? n : 1, sizeof *recs);
    if (recs == NULL) {
        *bad = SIZE_MAX;
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (in[i].len != sizeof *recs) {
            free(recs);
            *bad = i;
            return false;
        }
        memcpy(&recs[i], in[i].data, sizeof *recs);
    }
    *out = recs;
    return true;
}

char *ntsim_testee_text(const ProtobufCBinaryData *b)
{
    char *s = malloc(b->len + 1);
    if (s == NULL)
        return NULL;
    if (b->len > 0)
        memcpy(s, b->data, b->len);
    s[b->len] = '\0';
    return s;
}

uint8_t *ntsim_testee_pack(const ProtobufCMessage *m, size_t *len)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    if (buf == NULL)
        return NULL;
    *len = protobuf_c_message_pack(m, buf);
    return buf;
}

const char *ntsim_testee_caps_text(unsigned caps, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; ntsim_testee_cap_names[i] != NULL; i++)
        if ((caps & (1u << i)) && used < cap) {
            int n = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "",
                             ntsim_testee_cap_names[i]);
            used += n > 0 ? (size_t)n : 0;
        }
    if (used == 0)
        snprintf(buf, cap, "none");
    return buf;
}

/* --- strings with a NUL byte ------------------------------------------------------ */

/* A varint at *p, before end; false when it runs past end or 10 bytes. */
static bool wire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; shift < 70 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0)
            return true;
    }
    return false;
}

/* Appends "name" or "name[i]" (and a '.' when more follows) to where[at..]. */
static size_t path_add(char *where, size_t cap, size_t at, const char *name, size_t index,
                       bool repeated)
{
    int n = repeated ? snprintf(where + at, at < cap ? cap - at : 0, "%s%s[%zu]",
                                at > 0 ? "." : "", name, index)
                     : snprintf(where + at, at < cap ? cap - at : 0, "%s%s", at > 0 ? "." : "",
                                name);
    return n > 0 && at + (size_t)n < cap ? at + (size_t)n : cap - 1;
}

/* The wire bytes [p, end) of a message of descriptor d: whether one of its
 * string fields, at any depth, holds a NUL; where it is, into where[at..]. */
static bool nul_in(const ProtobufCMessageDescriptor *d, const uint8_t *p, const uint8_t *end,
                   unsigned depth, char *where, size_t cap, size_t at)
{
    enum { COUNTED = 64 };
    size_t seen[COUNTED] = {0}; /* elements of each field number so far */
    while (p < end) {
        uint64_t tag, len;
        if (!wire_varint(&p, end, &tag))
            return false; /* unpack took it: cannot happen */
        unsigned number = (unsigned)(tag >> 3);
        switch (tag & 7) {
        case 0: if (!wire_varint(&p, end, &len)) return false; continue;
        case 1: if (end - p < 8) return false; p += 8; continue;
        case 5: if (end - p < 4) return false; p += 4; continue;
        case 2: break;
        default: return false; /* groups: protobuf-c refuses them */
        }
        if (!wire_varint(&p, end, &len) || len > (uint64_t)(end - p))
            return false;
        const uint8_t *body = p;
        p += len;
        const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, number);
        if (f == NULL || (f->type != PROTOBUF_C_TYPE_STRING && f->type != PROTOBUF_C_TYPE_MESSAGE))
            continue; /* bytes, packed numbers, unknown fields: no text */
        size_t index = number < COUNTED ? seen[number]++ : 0;
        bool repeated = f->label == PROTOBUF_C_LABEL_REPEATED;
        if (f->type == PROTOBUF_C_TYPE_STRING) {
            const uint8_t *nul = memchr(body, 0, (size_t)len);
            if (nul == NULL)
                continue;
            size_t w = path_add(where, cap, at, f->name, index, repeated);
            snprintf(where + w, cap - w, " (byte %zu of %llu)", (size_t)(nul - body),
                     (unsigned long long)len);
            return true;
        }
        if (depth < 32 &&
            nul_in(f->descriptor, body, body + len, depth + 1, where, cap,
                   path_add(where, cap, at, f->name, index, repeated)))
            return true;
    }
    return false;
}

bool ntsim_testee_nul_string(const ProtobufCMessageDescriptor *d, const uint8_t *bytes,
                             size_t len, char *where, size_t cap)
{
    if (cap == 0)
        return false;
    where[0] = '\0';
    bool found = nul_in(d, bytes, bytes + len, 0, where, cap, 0);
    if (!found)
        where[0] = '\0';
    return found;
}
