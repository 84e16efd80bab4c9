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
                                              "json_escape", NULL};

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
