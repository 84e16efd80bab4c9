/*
 * engine/analyze/stats.c: what a trace says at a glance (ntsim/analyze.h;
 * D-STATS), one record at a time.
 *
 *   per type   records; START/STOP paired as the timeline pairs them
 *              (pairs.h, D-TIMELINE: the key (trace_type, nc_idx,
 *              tracking_id), a STOP closing the innermost open START);
 *              unmatched STARTs (those no STOP closed: STARTs - spans) and
 *              STOPs; every span's duration kept, so that the percentiles
 *              are exact (nearest rank: the ceil(q n)-th smallest)
 *   slowest    a heap of the `top` slowest spans, its root the least slow:
 *              by duration, then start (earlier is slower: it comes first),
 *              then the START's place in the trace, so the order is total
 *   per NC     records; the nc_local_ids seen as ranges (in order they
 *              extend the last range: a range per gap), so that the lost
 *              ids are those missing below the highest (D-TIMELINE-ORDER:
 *              expected from 0, a repeated id once; NCs past 255 have no
 *              push sequence and lose nothing); nc_exec_running spans, whose
 *              union is the NC's busy time
 *
 * Memory: the open spans and, per span, 8 bytes (its duration), per
 * nc_exec_running span 16 more, per NC a range per gap: at most 12 bytes a
 * record beside the spans open at once. The read limits (max_events) bound
 * it for a file.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "data_view.h"
#include "event_table.h"
#include "ntsim/analyze.h"
#include "pairs.h"

#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x

/* Types past the table share one bucket, after the table's. */
enum { NTSIM__STATS_TYPES = NRT_SYS_TRACE_EVENT_TYPE_COUNT + 1 };

typedef struct ntsim__stats_type {
    uint64_t events, starts, spans, unmatched_stop;
    uint64_t total;                  /* saturating */
    uint64_t *durations;             /* one per span, in the order they closed */
    size_t duration_cap;
} ntsim__stats_type_t;

typedef struct ntsim__stats_slow {
    ntsim_stats_span_t span;
    uint64_t seq;                    /* its START's place in the trace */
} ntsim__stats_slow_t;

typedef struct ntsim__stats_range {
    uint64_t lo, hi;                 /* nc_local_ids lo..hi, all seen */
} ntsim__stats_range_t;

typedef struct ntsim__stats_interval {
    uint64_t begin, end;             /* ns */
} ntsim__stats_interval_t;

typedef struct ntsim__stats_nc {
    uint32_t nc;
    uint64_t events;
    ntsim__stats_range_t *ranges;    /* ascending, apart (NCs below 256 only) */
    size_t nranges, range_cap;
    ntsim__stats_interval_t *busy;   /* its nc_exec_running spans */
    size_t nbusy, busy_cap;
} ntsim__stats_nc_t;

struct ntsim_stats {
    uint64_t seen, events;
    ntsim__stats_type_t types[NTSIM__STATS_TYPES];
    ntsim__pairs_t pairs;
    ntsim__stats_slow_t *heap;       /* the slowest: a min-heap by slowness */
    size_t top, nheap;
    ntsim__stats_nc_t *ncs;          /* in order of first record */
    size_t nnc, nc_cap, last_nc;
    size_t *nc_slots;                /* nc -> its index + 1, open addressing */
    size_t nc_slot_cap;
};

static const char *type_name(uint32_t type)
{
    const ntsim_event_type_desc_t *d = ntsim__event_type_desc(type);
    return d != NULL ? d->json_name : "unknown";
}

/* --- what a START carries until its STOP ------------------------------------------ */

typedef struct open_span {
    uint64_t start_ns;
    uint64_t seq;             /* the START's place in the trace */
    uint64_t exec_id;
    bool has_exec_id;
} open_span_t;

/* Per (type, phase) of the table, its data key exec_id (NULL: none), found
 * once: what every format keeps (D-READ; a payload's exec_id no key names,
 * such as cc_exec_barrier START's, a fetch document does not write, and
 * reads back as 0). */
static const ntsim_data_key_t *g_exec_key[NRT_SYS_TRACE_EVENT_TYPE_COUNT]
                                         [NRT_SYS_TRACE_EVENT_PHASE_COUNT];
static pthread_once_t g_exec_key_once = PTHREAD_ONCE_INIT;

static void exec_keys_find(void)
{
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (uint32_t p = 0; p < NRT_SYS_TRACE_EVENT_PHASE_COUNT; p++) {
            const ntsim_data_view_t *v = ntsim__data_view(t, p);
            for (size_t k = 0; k < v->count; k++)
                if (!v->keys[k].exec_model && strcmp(v->keys[k].key_z, "exec_id") == 0)
                    g_exec_key[t][p] = &v->keys[k];
        }
}

/* The exec_id of a record, when its data has that key. */
static bool exec_id_of(const nrt_sys_trace_event_t *e, uint64_t *out)
{
    uint32_t t = (uint32_t)e->trace_type, p = (uint32_t)e->phase;
    if (t >= NRT_SYS_TRACE_EVENT_TYPE_COUNT || p >= NRT_SYS_TRACE_EVENT_PHASE_COUNT ||
        g_exec_key[t][p] == NULL)
        return false;
    *out = ntsim__data_value(g_exec_key[t][p], &e->data);
    return true;
}

/* --- the slowest spans -------------------------------------------------------------- */

/* Whether a is slower than b: longer, then earlier, then first in the trace. */
static bool slower(const ntsim__stats_slow_t *a, const ntsim__stats_slow_t *b)
{
    if (a->span.duration_ns != b->span.duration_ns)
        return a->span.duration_ns > b->span.duration_ns;
    if (a->span.start_ns != b->span.start_ns)
        return a->span.start_ns < b->span.start_ns;
    return a->seq < b->seq;
}

static void heap_swap(ntsim__stats_slow_t *h, size_t i, size_t j)
{
    ntsim__stats_slow_t t = h[i];
    h[i] = h[j];
    h[j] = t;
}

/* Keeps the `top` slowest: a min-heap by slowness, its root the least slow. */
static void heap_offer(ntsim_stats_t *s, const ntsim__stats_slow_t *x)
{
    ntsim__stats_slow_t *h = s->heap;
    size_t i;
    if (s->top == 0)
        return;
    if (s->nheap < s->top) {
        i = s->nheap++;
        h[i] = *x;
        while (i > 0 && slower(&h[(i - 1) / 2], &h[i])) {
            heap_swap(h, i, (i - 1) / 2);
            i = (i - 1) / 2;
        }
        return;
    }
    if (!slower(x, &h[0]))
        return;
    h[0] = *x;
    for (i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->nheap && slower(&h[m], &h[l]))
            m = l;
        if (r < s->nheap && slower(&h[m], &h[r]))
            m = r;
        if (m == i)
            break;
        heap_swap(h, i, m);
        i = m;
    }
}

/* --- per NC ------------------------------------------------------------------------ */

static uint32_t hash_nc(uint32_t nc)
{
    return nc * UINT32_C(2654435761);
}

/* The NC's accumulator, made on first use; NULL when out of memory. */
static ntsim__stats_nc_t *nc_of(ntsim_stats_t *s, uint32_t nc)
{
    if (s->nnc > 0 && s->ncs[s->last_nc].nc == nc)
        return &s->ncs[s->last_nc];
    if ((s->nnc + 1) * 2 > s->nc_slot_cap) { /* the index, rebuilt at most half full */
        size_t cap = s->nc_slot_cap ? s->nc_slot_cap * 2 : 64;
        size_t *slots = cap <= SIZE_MAX / sizeof *slots ? ntsim__calloc(cap, sizeof *slots) : NULL;
        if (slots == NULL)
            return NULL;
        for (size_t i = 0; i < s->nnc; i++) {
            size_t h = hash_nc(s->ncs[i].nc) & (cap - 1);
            while (slots[h] != 0)
                h = (h + 1) & (cap - 1);
            slots[h] = i + 1;
        }
        ntsim__free(s->nc_slots);
        s->nc_slots = slots;
        s->nc_slot_cap = cap;
    }
    size_t h = hash_nc(nc) & (s->nc_slot_cap - 1);
    while (s->nc_slots[h] != 0 && s->ncs[s->nc_slots[h] - 1].nc != nc)
        h = (h + 1) & (s->nc_slot_cap - 1);
    if (s->nc_slots[h] == 0) {
        if (!ntsim__array_grow(&s->ncs, &s->nc_cap, s->nnc + 1, sizeof *s->ncs))
            return NULL;
        memset(&s->ncs[s->nnc], 0, sizeof *s->ncs);
        s->ncs[s->nnc].nc = nc;
        s->nc_slots[h] = ++s->nnc;
    }
    s->last_nc = s->nc_slots[h] - 1;
    return &s->ncs[s->last_nc];
}

/* nc_local_id seen on the NC: its ranges of ids, ascending and apart. */
static NRT_STATUS ids_add(ntsim__stats_nc_t *n, uint64_t id)
{
    ntsim__stats_range_t *r = n->ranges;
    size_t k = n->nranges;
    if (k > 0 && id >= r[k - 1].lo) { /* in order: the last range, or a gap after it */
        if (id <= r[k - 1].hi)
            return NRT_SUCCESS;
        if (id == r[k - 1].hi + 1) {
            r[k - 1].hi = id;
            return NRT_SUCCESS;
        }
    }
    size_t p = 0, hi = k; /* p: the first range beginning after id */
    while (p < hi) {
        size_t mid = p + (hi - p) / 2;
        if (r[mid].lo <= id)
            p = mid + 1;
        else
            hi = mid;
    }
    if (p > 0 && r[p - 1].hi >= id)
        return NRT_SUCCESS;
    bool join_prev = p > 0 && r[p - 1].hi + 1 == id, join_next = p < k && id + 1 == r[p].lo;
    if (join_prev && join_next) {
        r[p - 1].hi = r[p].hi;
        memmove(&r[p], &r[p + 1], (k - p - 1) * sizeof *r);
        n->nranges--;
    } else if (join_prev) {
        r[p - 1].hi = id;
    } else if (join_next) {
        r[p].lo = id;
    } else {
        if (!ntsim__array_grow(&n->ranges, &n->range_cap, k + 1, sizeof *n->ranges))
            return NRT_RESOURCE;
        r = n->ranges;
        memmove(&r[p + 1], &r[p], (k - p) * sizeof *r);
        r[p] = (ntsim__stats_range_t){id, id};
        n->nranges++;
    }
    return NRT_SUCCESS;
}

/* --- the records ------------------------------------------------------------------- */

NRT_STATUS ntsim_stats_create(size_t top, ntsim_stats_t **out)
{
    if (out == NULL || top > NTSIM_STATS_TOP_MAX)
        return NRT_INVALID;
    ntsim_stats_t *s = ntsim__calloc(1, sizeof *s);
    if (s == NULL)
        return NRT_RESOURCE;
    s->top = top;
    if (top > 0 && (s->heap = ntsim__malloc(top * sizeof *s->heap)) == NULL) {
        ntsim__free(s);
        return NRT_RESOURCE;
    }
    ntsim__pairs_init(&s->pairs, sizeof(open_span_t));
    pthread_once(&g_exec_key_once, exec_keys_find);
    *out = s;
    return NRT_SUCCESS;
}

void ntsim_stats_free(ntsim_stats_t *s)
{
    if (s == NULL)
        return;
    for (size_t t = 0; t < NTSIM__STATS_TYPES; t++)
        ntsim__free(s->types[t].durations);
    for (size_t i = 0; i < s->nnc; i++) {
        ntsim__free(s->ncs[i].ranges);
        ntsim__free(s->ncs[i].busy);
    }
    ntsim__free(s->ncs);
    ntsim__free(s->nc_slots);
    ntsim__free(s->heap);
    ntsim__pairs_free(&s->pairs);
    ntsim__free(s);
}

/* A STOP closed the span `o` opened: its duration, the slowest, busy time. */
static NRT_STATUS span_closed(ntsim_stats_t *s, const nrt_sys_trace_event_t *e, const open_span_t *o,
                              ntsim__stats_type_t *t, ntsim__stats_nc_t *n)
{
    uint64_t d = e->timestamp_ns >= o->start_ns ? e->timestamp_ns - o->start_ns : 0;
    if (!ntsim__array_grow(&t->durations, &t->duration_cap, t->spans + 1, sizeof *t->durations))
        return NRT_RESOURCE;
    t->durations[t->spans] = d;
    t->total = t->total > UINT64_MAX - d ? UINT64_MAX : t->total + d;
    t->spans++;
    if (e->trace_type == TY(DEVICE_EXEC)) {
        if (!ntsim__array_grow(&n->busy, &n->busy_cap, n->nbusy + 1, sizeof *n->busy))
            return NRT_RESOURCE;
        n->busy[n->nbusy++] = (ntsim__stats_interval_t){o->start_ns, o->start_ns + d};
    }
    uint32_t type = (uint32_t)e->trace_type;
    ntsim__stats_slow_t x = {{type, type_name(type), e->nc_idx, e->tracking_id,
                              o->has_exec_id, o->exec_id, o->start_ns, d},
                             o->seq};
    if (!x.span.has_exec_id)
        x.span.has_exec_id = exec_id_of(e, &x.span.exec_id);
    heap_offer(s, &x);
    return NRT_SUCCESS;
}

static NRT_STATUS add_one(ntsim_stats_t *s, const nrt_sys_trace_event_t *e)
{
    uint32_t type = (uint32_t)e->trace_type;
    ntsim__stats_type_t *t = &s->types[type < NRT_SYS_TRACE_EVENT_TYPE_COUNT ? type
                                                                             : NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    ntsim__stats_nc_t *n = nc_of(s, e->nc_idx);
    if (n == NULL)
        return NRT_RESOURCE;
    if (e->nc_idx < 256 && ids_add(n, e->nc_local_id) != NRT_SUCCESS)
        return NRT_RESOURCE;
    n->events++;
    t->events++;
    open_span_t o;
    if (e->phase == NRT_SYS_TRACE_EVENT_PHASE_START) {
        o = (open_span_t){e->timestamp_ns, s->seen, 0, false};
        o.has_exec_id = exec_id_of(e, &o.exec_id);
        if (ntsim__pairs_start(&s->pairs, type, e->nc_idx, e->tracking_id, &o) != NRT_SUCCESS)
            return NRT_RESOURCE;
        t->starts++;
    } else if (e->phase == NRT_SYS_TRACE_EVENT_PHASE_STOP) {
        if (!ntsim__pairs_stop(&s->pairs, type, e->nc_idx, e->tracking_id, &o))
            t->unmatched_stop++;
        else if (span_closed(s, e, &o, t, n) != NRT_SUCCESS)
            return NRT_RESOURCE;
    }
    s->events++;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_stats_add(ntsim_stats_t *s, const nrt_sys_trace_event_t *events, size_t count)
{
    if (s == NULL || (events == NULL && count > 0))
        return NRT_INVALID;
    for (size_t i = 0; i < count; i++, s->seen++)
        if (add_one(s, &events[i]) != NRT_SUCCESS)
            return NRT_RESOURCE;
    return NRT_SUCCESS;
}

static NRT_STATUS add_batch(const nrt_sys_trace_event_t *events, size_t count, void *ctx)
{
    return ntsim_stats_add(ctx, events, count);
}

NRT_STATUS ntsim_stats_file(const char *path, const ntsim_read_limits_t *limits, size_t top,
                            ntsim_stats_report_t **out, char *err, size_t err_cap)
{
    if (path == NULL || out == NULL)
        return NRT_INVALID;
    *out = NULL;
    ntsim_stats_t *s;
    NRT_STATUS st = ntsim_stats_create(top, &s);
    if (st != NRT_SUCCESS) {
        if (err_cap > 0)
            snprintf(err, err_cap, "%s: %s", path,
                     st == NRT_RESOURCE ? "out of memory" : "--top is past its maximum");
        return st;
    }
    st = ntsim_trace_scan_file(path, limits, add_batch, s, NULL, err, err_cap);
    if (st == NRT_SUCCESS && (st = ntsim_stats_report(s, out)) == NRT_RESOURCE && err_cap > 0)
        snprintf(err, err_cap, "%s: out of memory", path);
    ntsim_stats_free(s);
    return st;
}

/* --- the report -------------------------------------------------------------------- */

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

static int cmp_slow(const void *pa, const void *pb)
{
    const ntsim__stats_slow_t *a = pa, *b = pb;
    return slower(a, b) ? -1 : slower(b, a);
}

static int cmp_nc(const void *pa, const void *pb)
{
    const ntsim_stats_nc_t *a = pa, *b = pb;
    return (a->nc_idx > b->nc_idx) - (a->nc_idx < b->nc_idx);
}

static int cmp_interval(const void *pa, const void *pb)
{
    const ntsim__stats_interval_t *a = pa, *b = pb;
    return (a->begin > b->begin) - (a->begin < b->begin);
}

/* The nearest rank of q% of n > 0 values: ceil(q/100 n), without overflow. */
static uint64_t rank(uint64_t n, uint64_t q)
{
    return n / 100 * q + (n % 100 * q + 99) / 100;
}

static void swap_u64(uint64_t *v, size_t i, size_t j)
{
    uint64_t t = v[i];
    v[i] = v[j];
    v[j] = t;
}

/* Moves the k-th smallest of v[lo..hi] (0-based k in [lo, hi]) to v[k], the
 * smaller ones before it and the others after (quickselect, the median of
 * three as pivot, three-way partitions so that equal values cost nothing).
 * A selection that has not converged after 2 log2(n) + 16 rounds sorts what
 * is left instead, so that no input costs more than n log n. */
static void select_kth(uint64_t *v, size_t lo, size_t hi, size_t k)
{
    size_t rounds = 16;
    for (size_t m = hi - lo + 1; m > 1; m >>= 1)
        rounds += 2;
    while (hi > lo) {
        if (rounds-- == 0) {
            qsort(v + lo, hi - lo + 1, sizeof *v, cmp_u64);
            return;
        }
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo])
            swap_u64(v, mid, lo);
        if (v[hi] < v[lo])
            swap_u64(v, hi, lo);
        if (v[hi] < v[mid])
            swap_u64(v, hi, mid);
        uint64_t pivot = v[mid];
        size_t lt = lo, i = lo, gt = hi; /* v[lo..lt) < pivot, v(gt..hi] > pivot */
        while (i <= gt) {
            if (v[i] < pivot)
                swap_u64(v, lt++, i++);
            else if (v[i] > pivot)
                swap_u64(v, i, gt--); /* a value equals the pivot: gt stays >= lo */
            else
                i++;
        }
        if (k < lt)
            hi = lt - 1;
        else if (k > gt)
            lo = gt + 1;
        else
            return;
    }
}

static void type_report(ntsim__stats_type_t *t, uint32_t type, ntsim_stats_type_t *out)
{
    *out = (ntsim_stats_type_t){type, type_name(type), t->events, t->spans, t->starts - t->spans,
                                t->unmatched_stop, {0, 0, 0, 0, 0, 0}};
    if (t->spans == 0)
        return;
    /* Each selection leaves the larger values after its rank, so the next
     * (a higher rank) looks only there; the minimum is before the first. */
    uint64_t *v = t->durations;
    size_t n = (size_t)t->spans, k50 = (size_t)rank(n, 50) - 1, k90 = (size_t)rank(n, 90) - 1,
           k99 = (size_t)rank(n, 99) - 1;
    select_kth(v, 0, n - 1, k50);
    select_kth(v, k50, n - 1, k90);
    select_kth(v, k90, n - 1, k99);
    select_kth(v, k99, n - 1, n - 1);
    uint64_t min = v[k50];
    for (size_t i = 0; i < k50; i++)
        min = v[i] < min ? v[i] : min;
    out->duration_ns = (ntsim_stats_durations_t){min, v[k50], v[k90], v[k99], v[n - 1], t->total};
}

/* Lost ids (the gaps below the highest, from 0) and busy time (the union). */
static void nc_report(ntsim__stats_nc_t *n, ntsim_stats_nc_t *out)
{
    *out = (ntsim_stats_nc_t){n->nc, n->events, 0, 0};
    for (size_t i = 0; i < n->nranges; i++)
        out->lost += n->ranges[i].lo - (i == 0 ? 0 : n->ranges[i - 1].hi + 1);
    size_t sorted = 1;
    while (sorted < n->nbusy && n->busy[sorted - 1].begin <= n->busy[sorted].begin)
        sorted++;
    if (sorted < n->nbusy) /* spans closed out of their starts' order */
        qsort(n->busy, n->nbusy, sizeof *n->busy, cmp_interval);
    uint64_t reach = 0; /* the end of the union so far */
    for (size_t i = 0; i < n->nbusy; i++) {
        const ntsim__stats_interval_t *b = &n->busy[i];
        uint64_t from = i == 0 || b->begin > reach ? b->begin : reach;
        if (b->end > from)
            out->busy_ns += b->end - from;
        if (i == 0 || b->end > reach)
            reach = b->end;
    }
}

NRT_STATUS ntsim_stats_report(ntsim_stats_t *s, ntsim_stats_report_t **out)
{
    if (s == NULL || out == NULL)
        return NRT_INVALID;
    *out = NULL;
    ntsim_stats_report_t *r = ntsim__calloc(1, sizeof *r);
    size_t ntypes = 0;
    for (size_t t = 0; t < NTSIM__STATS_TYPES; t++)
        ntypes += s->types[t].events > 0;
    if (r == NULL ||
        (ntypes > 0 && (r->types = ntsim__malloc(ntypes * sizeof *r->types)) == NULL) ||
        (s->nheap > 0 && (r->slowest = ntsim__malloc(s->nheap * sizeof *r->slowest)) == NULL) ||
        (s->nnc > 0 && (r->ncs = ntsim__malloc(s->nnc * sizeof *r->ncs)) == NULL)) {
        ntsim_stats_report_free(r);
        return NRT_RESOURCE;
    }
    r->events = s->events;
    for (uint32_t t = 0; t < NTSIM__STATS_TYPES; t++)
        if (s->types[t].events > 0)
            type_report(&s->types[t], t, &r->types[r->type_count++]);
    /* A copy of the heap, slowest first: the heap stays one, for more records. */
    ntsim__stats_slow_t *sorted = s->nheap > 0 ? ntsim__malloc(s->nheap * sizeof *sorted) : NULL;
    if (s->nheap > 0 && sorted == NULL) {
        ntsim_stats_report_free(r);
        return NRT_RESOURCE;
    }
    if (s->nheap > 0) { /* (qsort and memcpy take no NULL, even for 0 elements) */
        memcpy(sorted, s->heap, s->nheap * sizeof *sorted);
        qsort(sorted, s->nheap, sizeof *sorted, cmp_slow);
    }
    for (size_t i = 0; i < s->nheap; i++)
        r->slowest[i] = sorted[i].span;
    r->slowest_count = s->nheap;
    ntsim__free(sorted);
    for (size_t i = 0; i < s->nnc; i++)
        nc_report(&s->ncs[i], &r->ncs[i]);
    r->nc_count = s->nnc;
    if (r->nc_count > 1)
        qsort(r->ncs, r->nc_count, sizeof *r->ncs, cmp_nc);
    *out = r;
    return NRT_SUCCESS;
}

void ntsim_stats_report_free(ntsim_stats_report_t *r)
{
    if (r == NULL)
        return;
    ntsim__free(r->types);
    ntsim__free(r->slowest);
    ntsim__free(r->ncs);
    ntsim__free(r);
}
