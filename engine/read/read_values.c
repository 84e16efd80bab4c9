/*
 * engine/read/read_values.c: a value as the writers wrote it, back into the
 * field it came from (read_int.h, D-TRACE-READER).
 *
 * Both text formats carry a record's payload as its `data` keys (JSON) or
 * attributes (NTFF: the same keys, values as strings; facts §2). The one
 * table's data view says, per (type, phase), which payload field each key is
 * and how it is formatted, so reading is the writers' mapping run backwards:
 * a number, true/false, a dma_mem_usage_type_t name, "0x..." hex, or the
 * algorithm's decimal string.
 *
 * Every value is read exactly and must fit the field it goes to: the ids and
 * times are u64 over their whole range, nc_idx u32, a payload field its own
 * size and sign. A value that does not fit (negative for an unsigned field,
 * wider than the field) is refused at its place, never narrowed or wrapped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "event_table.h"
#include "read_int.h"

NRT_STATUS ntsim__read_fail(ntsim__read_t *rd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (rd->cap > 0)
        vsnprintf(rd->err, rd->cap, fmt, ap);
    va_end(ap);
    return NRT_INVALID;
}

NRT_STATUS ntsim__read_out_of_memory(ntsim__read_t *rd)
{
    if (rd->cap > 0)
        snprintf(rd->err, rd->cap, "out of memory");
    return NRT_RESOURCE;
}

NRT_STATUS ntsim__read_too_many(ntsim__read_t *rd)
{
    return ntsim__read_fail(rd, "events: more than %llu events (the --max-events limit)",
                            (unsigned long long)rd->max_events);
}

uint64_t ntsim__read_index(const ntsim__read_t *rd)
{
    return rd->passed + rd->trace->event_count;
}

NRT_STATUS ntsim__read_flush(ntsim__read_t *rd)
{
    ntsim_trace_t *t = rd->trace;
    if (rd->fn == NULL || t->event_count == 0)
        return NRT_SUCCESS;
    NRT_STATUS st = rd->fn(t->events, t->event_count, rd->ctx);
    rd->passed += t->event_count;
    t->event_count = 0;
    if (st == NRT_RESOURCE)
        return ntsim__read_out_of_memory(rd);
    if (st != NRT_SUCCESS && rd->cap > 0)
        snprintf(rd->err, rd->cap, "events[%llu]: the scan stopped (%s)",
                 (unsigned long long)(rd->passed - 1), nrt_get_status_as_str(st));
    return st;
}

NRT_STATUS ntsim__read_reserve(ntsim__read_t *rd, size_t have, uint64_t most)
{
    ntsim_trace_t *t = rd->trace;
    if (rd->fn != NULL && have >= NTSIM_READ_BATCH) {
        NRT_STATUS st = ntsim__read_flush(rd);
        if (st != NRT_SUCCESS)
            return st;
        have = 0;
    }
    if (have < rd->events_cap)
        return NRT_SUCCESS;
    if (rd->fn != NULL && most > NTSIM_READ_BATCH)
        most = NTSIM_READ_BATCH;
    const size_t one = sizeof *t->events;
    size_t limit = most < SIZE_MAX / one ? (size_t)most : SIZE_MAX / one;
    size_t cap = rd->events_cap;
    size_t want = cap ? (cap <= limit / 2 ? cap * 2 : limit) : (limit < 1024 ? limit : 1024);
    if (want <= have)
        return ntsim__read_out_of_memory(rd);
    nrt_sys_trace_event_t *grown = ntsim__realloc(t->events, want * one);
    if (grown == NULL)
        return ntsim__read_out_of_memory(rd);
    t->events = grown;
    rd->events_cap = want;
    return NRT_SUCCESS;
}

static void *pb_alloc(void *data, size_t size)
{
    void *p = ntsim__malloc(size ? size : 1);
    if (p == NULL)
        ((ntsim__pb_heap_t *)data)->failed = true;
    return p;
}

static void pb_free(void *data, void *p)
{
    (void)data;
    ntsim__free(p);
}

void ntsim__pb_heap_init(ntsim__pb_heap_t *h)
{
    h->allocator.alloc = pb_alloc;
    h->allocator.free = pb_free;
    h->allocator.allocator_data = h;
    h->failed = false;
}

/* --- values and the fields they go to ------------------------------------------- */

/* Whether the 64-bit pattern v (a signed field's value sign-extended, as
 * the writers widen it) is a value of the field. */
static bool pattern_fits(ntsim__field_shape_t f, uint64_t v)
{
    if (f.size >= 8)
        return true;
    unsigned bits = (unsigned)f.size * 8;
    if (!f.is_signed)
        return v >> bits == 0;
    uint64_t half = UINT64_C(1) << (bits - 1); /* -half .. half - 1 */
    return v < half || v >= (uint64_t)0 - half;
}

ntsim__val_t ntsim__read_integer(ntsim__field_shape_t f, const ntsim_json_number_t *n,
                                 uint64_t *v)
{
    const uint64_t int64_max = UINT64_MAX >> 1;
    if (n->too_wide)
        return NTSIM__VAL_RANGE;
    if (n->negative && n->magnitude != 0) {
        if (!f.is_signed || n->magnitude > int64_max + 1)
            return NTSIM__VAL_RANGE;
        *v = (uint64_t)0 - n->magnitude;
    } else {
        if (f.is_signed && n->magnitude > int64_max)
            return NTSIM__VAL_RANGE;
        *v = n->magnitude;
    }
    return pattern_fits(f, *v) ? NTSIM__VAL_OK : NTSIM__VAL_RANGE;
}

const char *ntsim__read_range_text(ntsim__field_shape_t f, char *out, size_t cap)
{
    unsigned bits = (unsigned)f.size * 8;
    const char *a = f.size == 8 ? "an" : "a";
    if (f.is_signed) {
        unsigned long long half = 1ULL << (bits - 1);
        snprintf(out, cap, "%s %zu-byte signed field: -%llu..%llu", a, f.size, half, half - 1);
    } else {
        unsigned long long max = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
        snprintf(out, cap, "%s %zu-byte unsigned field: 0..%llu", a, f.size, max);
    }
    return out;
}

ntsim__field_shape_t ntsim__read_key_shape(const ntsim_data_key_t *k)
{
    ntsim__field_shape_t f = {k->size, k->is_signed};
    return f;
}

ntsim__val_t ntsim__read_text(const ntsim_data_key_t *k, const char *s, size_t len, uint64_t *v)
{
    switch (k->fmt) {
    case NTSIM_FMT_BOOL:
        if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
            *v = s[0] == 't';
            return NTSIM__VAL_OK;
        }
        return NTSIM__VAL_BAD;
    case NTSIM_FMT_USAGE:
        for (uint64_t u = 0; u <= DMA_MEM_USAGE_TYPE_MAX; u++)
            if (ntsim__usage_type_name(u) != NULL && strcmp(ntsim__usage_type_name(u), s) == 0) {
                *v = u;
                return NTSIM__VAL_OK;
            }
        break; /* an out-of-range value is written as its decimal */
    case NTSIM_FMT_HEX: {
        if (len < 3 || s[0] != '0' || s[1] != 'x')
            return NTSIM__VAL_BAD;
        bool wide = false;
        *v = 0;
        for (size_t i = 2; i < len; i++) {
            char c = s[i];
            unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                         : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                         : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                                : 16;
            if (d == 16)
                return NTSIM__VAL_BAD;
            wide = wide || *v >> 60 != 0;
            *v = *v << 4 | d;
        }
        return !wide && pattern_fits(ntsim__read_key_shape(k), *v) ? NTSIM__VAL_OK
                                                                   : NTSIM__VAL_RANGE;
    }
    default:
        break;
    }
    ntsim_json_number_t n;
    if (!ntsim__json_parse_integer(s, len, &n))
        return NTSIM__VAL_BAD;
    return ntsim__read_integer(ntsim__read_key_shape(k), &n, v);
}

void ntsim__read_store(nrt_sys_trace_event_t *r, const ntsim_data_key_t *k, uint64_t v)
{
    unsigned char *p = (unsigned char *)&r->data + k->offset;
    for (size_t i = 0; i < k->size; i++) /* little-endian, as the record is laid out */
        p[i] = (unsigned char)(v >> (8 * i));
}
