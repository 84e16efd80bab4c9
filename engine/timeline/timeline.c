/*
 * engine/timeline/timeline.c: records -> the timeline model of timeline.h
 * (D-TIMELINE). One pass per stage:
 *
 *   1. pair     START/STOP by (type, nc_idx, tracking_id): a STOP closes the
 *               innermost START still open under its key; what is left open,
 *               and a STOP with nothing open, becomes a flagged instant
 *   2. clocks   device items get a clock (nc, core); their sync pairs are fitted
 *               (clock_align.c) and every device time is moved with the fit
 *   3. execs    a host nrt_execute takes the exec_id of the exec-stage spans
 *               (kbl_exec_pre, kmgr_exec_core, kbl_exec_wait, kbl_exec_post) its
 *               thread runs inside it; flows go to the device spans of that id
 *   4. losses   per NC, records in nc_local_id order: each gap is a drop
 *               instant, and the counters of events pushed and lost
 *   5. lanes    items grouped by lane key and laid out so that every lane
 *               nests strictly (an item that would cross one goes to the next
 *               overflow lane); the begin/end/instant edges come out of the
 *               same walk in nesting order, and are sorted by time with the
 *               counter samples
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_view.h"
#include "event_table.h"
#include "nrt/nrt_sys_trace.h"
#include "timeline.h"
#include "pairs.h"
#include "timeline_build.h"

#define TY(x) NRT_SYS_TRACE_EVENT_TYPE_##x

const char *ntsim__timeline_name(uint32_t type)
{
    const ntsim_event_type_desc_t *d = ntsim__event_type_desc(type);
    return d ? d->json_name : "unknown";
}

/* --- what a record's payload holds ------------------------------------------- */

/* The offset and size of a payload's field `name`; false when it has none. */
static bool payload_field(const nrt_sys_trace_event_t *e, const char *name, size_t *off,
                          size_t *size)
{
    ntsim_payload_id_t pid = ntsim__event_payload((uint32_t)e->trace_type, (uint32_t)e->phase);
    const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
    for (size_t i = 0; i < d->field_count; i++)
        if (strcmp(d->fields[i].name, name) == 0) {
            *off = d->fields[i].offset;
            *size = d->fields[i].size;
            return true;
        }
    return false;
}

static uint64_t payload_u64(const nrt_sys_trace_event_t *e, const char *name, uint64_t none)
{
    size_t off, size;
    if (!payload_field(e, name, &off, &size))
        return none;
    return ntsim__data_field(&e->data, off, size, false);
}

/* The device time a record carries and the host time read with it (cpu 0:
 * none, e.g. a record rebuilt from NTFF, whose attributes keep only the device
 * time). False when the record carries no device time. */
static bool record_sync(const nrt_sys_trace_event_t *e, uint64_t *dev, uint64_t *cpu)
{
    ntsim_payload_id_t pid = ntsim__event_payload((uint32_t)e->trace_type, (uint32_t)e->phase);
    if (pid == NTSIM_PAYLOAD_TIMESTAMP_SYNC) {
        *dev = e->data.timestamp_sync.nc_timestamp_ns;
        *cpu = e->data.timestamp_sync.cpu_timestamp_ns;
        return true;
    }
    const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
    for (size_t i = 0; i < d->field_count; i++)
        if (d->fields[i].kind == NTSIM_FIELD_SYNC_INFO) {
            *dev = ntsim__data_field(&e->data, d->fields[i].offset, 8, false);
            *cpu = ntsim__data_field(&e->data, d->fields[i].offset + 8, 8, false);
            return true;
        }
    return false;
}

static bool is_device_type(uint32_t type)
{
    return ntsim__event_category(type) == NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE;
}

bool ntsim__tl_is_dma_type(uint32_t type)
{
    return type >= TY(DMEM_BUF_COPYIN) && type <= TY(CONSUME_POOL_STDIO);
}

static bool is_exec_stage(uint32_t type)
{
    return type >= TY(EXEC_PRE) && type <= TY(EXEC_POST);
}

/* Device spans an nrt_execute causes: the flows' destinations. */
static bool is_flow_target(uint32_t type)
{
    return type == TY(DEVICE_EXEC) || type == TY(CC_EXEC) || type == TY(CC_EXEC_BARRIER) ||
           type == TY(NC_MODEL_SWITCH);
}

/* --- 1. pairing --------------------------------------------------------------- */

static ntsim_tl_item_t *new_item(build_t *b, size_t rec, uint32_t flags)
{
    ntsim_timeline_t *tl = b->tl;
    if (!ntsim__array_grow(&tl->items, &b->item_cap, tl->nitems + 1, sizeof *tl->items))
        return NULL;
    ntsim_tl_item_t *it = &tl->items[tl->nitems++];
    memset(it, 0, sizeof *it);
    it->rec = rec;
    it->stop = NTSIM_TL_NONE;
    it->flags = flags;
    it->type = rec < tl->nrec ? (uint32_t)tl->recs[rec].trace_type : 0;
    return it;
}

/* Each START an item flagged unmatched until a STOP closes it (pairs.h: the
 * open span carries its item). */
static NRT_STATUS pair_records(build_t *b)
{
    ntsim_timeline_t *tl = b->tl;
    ntsim__pairs_t pairs;
    ntsim__pairs_init(&pairs, sizeof(size_t));
    for (size_t i = 0; i < tl->nrec; i++) {
        const nrt_sys_trace_event_t *e = &tl->recs[i];
        uint32_t type = (uint32_t)e->trace_type, phase = (uint32_t)e->phase;
        size_t idx = tl->nitems;
        if (phase == NRT_SYS_TRACE_EVENT_PHASE_START) {
            if (new_item(b, i, NTSIM_TL_UNMATCHED_START) == NULL ||
                ntsim__pairs_start(&pairs, type, e->nc_idx, e->tracking_id, &idx) != NRT_SUCCESS)
                goto oom;
        } else if (phase == NRT_SYS_TRACE_EVENT_PHASE_STOP &&
                   ntsim__pairs_stop(&pairs, type, e->nc_idx, e->tracking_id, &idx)) {
            tl->items[idx].stop = i;
            tl->items[idx].flags = NTSIM_TL_SPAN;
        } else if (new_item(b, i, phase == NRT_SYS_TRACE_EVENT_PHASE_STOP
                                      ? NTSIM_TL_UNMATCHED_STOP : 0) == NULL) {
            goto oom;
        }
    }
    ntsim__pairs_free(&pairs);
    return NRT_SUCCESS;
oom:
    ntsim__pairs_free(&pairs);
    return NRT_RESOURCE;
}

/* --- 2. clocks ---------------------------------------------------------------- */

static int cmp_pair(const void *pa, const void *pb)
{
    const ntsim_tl_pair_t *a = pa, *b = pb;
    if (a->clock != b->clock)
        return a->clock < b->clock ? -1 : 1;
    if (a->cpu != b->cpu)
        return a->cpu < b->cpu ? -1 : 1;
    return a->dev < b->dev ? -1 : a->dev > b->dev;
}

/* The clock of (nc, core), made on first use. */
static NRT_STATUS clock_of(build_t *b, uint32_t nc, uint32_t core, size_t *clock_cap,
                           uint32_t *out)
{
    ntsim_timeline_t *tl = b->tl;
    for (size_t c = 0; c < tl->nclocks; c++)
        if (tl->clocks[c].nc == nc && tl->clocks[c].core == core) {
            *out = (uint32_t)c;
            return NRT_SUCCESS;
        }
    if (!ntsim__array_grow(&tl->clocks, clock_cap, tl->nclocks + 1, sizeof *tl->clocks))
        return NRT_RESOURCE;
    memset(&tl->clocks[tl->nclocks], 0, sizeof *tl->clocks);
    tl->clocks[tl->nclocks].nc = nc;
    tl->clocks[tl->nclocks].core = core;
    *out = (uint32_t)tl->nclocks++;
    return NRT_SUCCESS;
}

static int cmp_nc_core(const void *pa, const void *pb)
{
    const ntsim_tl_nc_core_t *x = pa, *y = pb;
    if (x->nc != y->nc)
        return x->nc < y->nc ? -1 : 1;
    return x->core < y->core ? -1 : x->core > y->core;
}

/* b->ncs: per NC whose device items name a core, that core, or `several`.
 * The core of an NC's items that name none is the NC's only core. */
static NRT_STATUS find_nc_cores(build_t *b)
{
    const ntsim_timeline_t *tl = b->tl;
    size_t n = 0;
    for (size_t i = 0; i < b->ncore; i++)
        n += (tl->items[i].flags & NTSIM_TL_DEVICE) && b->core[i] != NTSIM_TL_NO_CORE;
    if (n == 0)
        return NRT_SUCCESS;
    b->ncs = ntsim__malloc(n * sizeof *b->ncs);
    if (b->ncs == NULL)
        return NRT_RESOURCE;
    n = 0;
    for (size_t i = 0; i < b->ncore; i++)
        if ((tl->items[i].flags & NTSIM_TL_DEVICE) && b->core[i] != NTSIM_TL_NO_CORE)
            b->ncs[n++] = (ntsim_tl_nc_core_t){tl->recs[tl->items[i].rec].nc_idx, b->core[i],
                                               false};
    qsort(b->ncs, n, sizeof *b->ncs, cmp_nc_core);
    /* One entry per NC: its first (lowest) core, `several` if another follows. */
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (w > 0 && b->ncs[w - 1].nc == b->ncs[i].nc) {
            if (b->ncs[i].core != b->ncs[w - 1].core) {
                b->ncs[w - 1].several = true;
                b->ncs[w - 1].core = NTSIM_TL_NO_CORE;
            }
            continue;
        }
        b->ncs[w++] = b->ncs[i];
    }
    b->nncs = w;
    return NRT_SUCCESS;
}

const ntsim_tl_nc_core_t *ntsim__tl_nc_core(const build_t *b, uint32_t nc)
{
    size_t lo = 0, hi = b->nncs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->ncs[mid].nc < nc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->nncs && b->ncs[lo].nc == nc ? &b->ncs[lo] : NULL;
}

/* An item's core: its own, or its NC's only one. */
uint32_t ntsim__tl_item_core(const build_t *b, size_t i)
{
    if (i < b->ncore && b->core[i] != NTSIM_TL_NO_CORE)
        return b->core[i];
    const ntsim_tl_nc_core_t *c = ntsim__tl_nc_core(b, b->tl->recs[b->tl->items[i].rec].nc_idx);
    return c != NULL ? c->core : NTSIM_TL_NO_CORE;
}

static NRT_STATUS add_pair(build_t *b, size_t rec, uint32_t clock)
{
    uint64_t dev, cpu;
    if (rec == NTSIM_TL_NONE || !record_sync(&b->tl->recs[rec], &dev, &cpu) || cpu == 0)
        return NRT_SUCCESS;
    ntsim_timeline_t *tl = b->tl;
    if (!ntsim__array_grow(&tl->pairs, &b->pair_cap, tl->npairs + 1, sizeof *tl->pairs))
        return NRT_RESOURCE;
    tl->pairs[tl->npairs++] = (ntsim_tl_pair_t){cpu, dev, clock};
    return NRT_SUCCESS;
}

/* A device record's time on the host timeline. */
static uint64_t device_time(build_t *b, size_t rec, uint32_t clock, ntsim_tl_item_t *it)
{
    const nrt_sys_trace_event_t *e = &b->tl->recs[rec];
    const ntsim_tl_clock_t *c = &b->tl->clocks[clock];
    uint64_t dev, cpu;
    if (!record_sync(e, &dev, &cpu) || c->pairs == 0) {
        it->flags |= NTSIM_TL_UNALIGNED;
        return e->timestamp_ns;
    }
    return ntsim__clock_align(c, dev);
}

static NRT_STATUS align_clocks(build_t *b)
{
    ntsim_timeline_t *tl = b->tl;
    size_t n = tl->nitems, clock_cap = 0;
    b->core = ntsim__malloc((n + 1) * sizeof *b->core);
    b->clock = ntsim__malloc((n + 1) * sizeof *b->clock);
    if (b->core == NULL || b->clock == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        ntsim_tl_item_t *it = &tl->items[i];
        if (is_device_type(it->type))
            it->flags |= NTSIM_TL_DEVICE;
        uint64_t core = payload_u64(&tl->recs[it->rec], "device_core_idx", NTSIM_TL_NO_CORE);
        b->core[i] = core > UINT32_MAX ? NTSIM_TL_NO_CORE : (uint32_t)core;
    }
    b->ncore = n;
    if (find_nc_cores(b) != NRT_SUCCESS)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        ntsim_tl_item_t *it = &tl->items[i];
        b->clock[i] = UINT32_MAX;
        if (!(it->flags & NTSIM_TL_DEVICE))
            continue;
        b->core[i] = ntsim__tl_item_core(b, i);
        it->clock = 0;
        if (clock_of(b, tl->recs[it->rec].nc_idx, b->core[i], &clock_cap, &b->clock[i]) !=
                NRT_SUCCESS ||
            add_pair(b, it->rec, b->clock[i]) != NRT_SUCCESS ||
            add_pair(b, it->stop, b->clock[i]) != NRT_SUCCESS)
            return NRT_RESOURCE;
        it->clock = b->clock[i];
    }
    if (tl->npairs > 0)
        qsort(tl->pairs, tl->npairs, sizeof *tl->pairs, cmp_pair);
    size_t w = 0;
    for (size_t i = 0; i < tl->npairs; i++)
        if (w == 0 || cmp_pair(&tl->pairs[w - 1], &tl->pairs[i]) != 0)
            tl->pairs[w++] = tl->pairs[i];
    tl->npairs = w;
    ntsim__clock_fit(tl);
    for (size_t i = 0; i < n; i++) {
        ntsim_tl_item_t *it = &tl->items[i];
        const nrt_sys_trace_event_t *e = &tl->recs[it->rec];
        if (!(it->flags & NTSIM_TL_DEVICE)) {
            it->begin = e->timestamp_ns;
            it->end = it->stop != NTSIM_TL_NONE ? tl->recs[it->stop].timestamp_ns : it->begin;
        } else {
            uint64_t cpu;
            if (!record_sync(e, &it->dev_begin, &cpu))
                it->dev_begin = 0;
            it->begin = device_time(b, it->rec, b->clock[i], it);
            it->end = it->stop != NTSIM_TL_NONE ? device_time(b, it->stop, b->clock[i], it)
                                                : it->begin;
        }
        if (it->end < it->begin) /* a STOP read before its START: drawn as zero-length */
            it->end = it->begin;
        it->exec_id = payload_u64(e, "exec_id", 0);
        tl->stats.unaligned += (it->flags & NTSIM_TL_UNALIGNED) != 0;
    }
    tl->stats.clocks = tl->nclocks;
    tl->stats.sync_pairs = tl->npairs;
    return NRT_SUCCESS;
}

/* --- 3. executions and flows -------------------------------------------------- */

typedef struct exec_key {
    uint64_t a, b, c;         /* sort key */
    size_t item;
} exec_key_t;

static int cmp_exec_key(const void *pa, const void *pb)
{
    const exec_key_t *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

static int cmp_flow(const void *pa, const void *pb)
{
    const ntsim_tl_flow_t *x = pa, *y = pb;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->to < y->to ? -1 : x->to > y->to;
}

/* The last key <= (a, b) in keys[0..n), or NULL. */
static const exec_key_t *floor_key(const exec_key_t *keys, size_t n, uint64_t a, uint64_t b)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].a < a || (keys[mid].a == a && keys[mid].b <= b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 ? &keys[lo - 1] : NULL;
}

static NRT_STATUS link_executions(build_t *b)
{
    ntsim_timeline_t *tl = b->tl;
    size_t n = 0;
    exec_key_t *keys = ntsim__malloc((tl->nitems + 1) * sizeof *keys);
    if (keys == NULL)
        return NRT_RESOURCE;
    /* nrt_execute spans by (thread, begin): which one an exec-stage span is in. */
    for (size_t i = 0; i < tl->nitems; i++)
        if (tl->items[i].type == TY(EXECUTE_API))
            keys[n++] = (exec_key_t){tl->recs[tl->items[i].rec].thread_id, tl->items[i].begin, 0, i};
    qsort(keys, n, sizeof *keys, cmp_exec_key);
    for (size_t i = 0; i < tl->nitems; i++) {
        const ntsim_tl_item_t *it = &tl->items[i];
        if (!is_exec_stage(it->type) || it->exec_id == 0)
            continue;
        const nrt_sys_trace_event_t *e = &tl->recs[it->rec];
        const exec_key_t *k = floor_key(keys, n, e->thread_id, it->begin);
        if (k == NULL || k->a != e->thread_id)
            continue;
        ntsim_tl_item_t *x = &tl->items[k->item];
        if (it->begin <= x->end && x->exec_id == 0 && tl->recs[x->rec].nc_idx == e->nc_idx)
            x->exec_id = it->exec_id;
    }
    /* nrt_execute spans by (nc, exec_id, begin): a device span's flow starts at the last. */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const ntsim_tl_item_t *x = &tl->items[keys[i].item];
        if (x->exec_id != 0)
            keys[m++] = (exec_key_t){tl->recs[x->rec].nc_idx, x->exec_id & UINT32_MAX, x->begin,
                                     keys[i].item};
    }
    qsort(keys, m, sizeof *keys, cmp_exec_key);
    for (size_t i = 0; i < tl->nitems; i++) {
        const ntsim_tl_item_t *it = &tl->items[i];
        if (!(it->flags & NTSIM_TL_SPAN) || !is_flow_target(it->type) || it->exec_id == 0)
            continue;
        uint64_t nc = tl->recs[it->rec].nc_idx, ex = it->exec_id & UINT32_MAX;
        const exec_key_t *k = floor_key(keys, m, nc, ex);
        if (k == NULL || k->a != nc || k->b != ex)
            continue;
        if (!ntsim__array_grow(&tl->flows, &b->flow_cap, tl->nflows + 1, sizeof *tl->flows)) {
            ntsim__free(keys);
            return NRT_RESOURCE;
        }
        tl->flows[tl->nflows++] = (ntsim_tl_flow_t){0, k->item, i};
    }
    ntsim__free(keys);
    if (tl->nflows > 0)
        qsort(tl->flows, tl->nflows, sizeof *tl->flows, cmp_flow);
    for (size_t f = 0; f < tl->nflows; f++) {
        ntsim_tl_flow_t *fl = &tl->flows[f];
        fl->id = f + 1; /* small ids: Chrome JSON's readers hold them as doubles */
        ntsim_tl_item_t *from = &tl->items[fl->from];
        if (from->flows_count++ == 0)
            from->flows_first = f;
        tl->items[fl->to].flow_in = fl->id;
    }
    tl->stats.flows = tl->nflows;
    return NRT_SUCCESS;
}

/* --- 4. losses and counters ---------------------------------------------------- */

static NRT_STATUS add_sample(build_t *b, size_t counter, uint64_t ts, int64_t value)
{
    ntsim_timeline_t *tl = b->tl;
    if (!ntsim__array_grow(&tl->edges, &b->edge_cap, tl->nedges + 1, sizeof *tl->edges))
        return NRT_RESOURCE;
    tl->edges[tl->nedges++] =
        (ntsim_tl_edge_t){ts, b->edge_order++, counter, value, NTSIM_TL_SAMPLE};
    return NRT_SUCCESS;
}

static NRT_STATUS add_counter(build_t *b, uint32_t nc, const char *what, size_t *out)
{
    ntsim_timeline_t *tl = b->tl;
    if (!ntsim__array_grow(&tl->counters, &b->counter_cap, tl->ncounters + 1, sizeof *tl->counters))
        return NRT_RESOURCE;
    ntsim_tl_counter_t *c = &tl->counters[tl->ncounters];
    memset(c, 0, sizeof *c);
    c->process = ntsim__tl_process_of(b, nc);
    c->nc = nc;
    snprintf(c->name, sizeof c->name, "NC %u events %s", nc, what);
    *out = tl->ncounters++;
    return NRT_SUCCESS;
}

/* One NC's records (indices sorted by nc_local_id): its drops and counters. */
static NRT_STATUS nc_losses(build_t *b, const exec_key_t *k, size_t n)
{
    ntsim_timeline_t *tl = b->tl;
    uint32_t nc = (uint32_t)k[0].a;
    size_t pushed, lost_counter;
    if (add_counter(b, nc, "pushed", &pushed) != NRT_SUCCESS ||
        add_counter(b, nc, "lost", &lost_counter) != NRT_SUCCESS ||
        add_sample(b, lost_counter, tl->recs[k[0].item].timestamp_ns, 0) != NRT_SUCCESS)
        return NRT_RESOURCE;
    size_t step = n / 256 + 1;
    uint64_t lost = 0, expect = 0;
    for (size_t i = 0; i < n; i++) {
        const nrt_sys_trace_event_t *e = &tl->recs[k[i].item];
        if (i > 0 && k[i].b == k[i - 1].b)
            continue; /* the same nc_local_id twice: not a loss */
        if (k[i].b > expect) {
            ntsim_tl_item_t *d = new_item(b, k[i].item, NTSIM_TL_DROP);
            if (d == NULL)
                return NRT_RESOURCE;
            d->type = UINT32_MAX;
            d->lost = k[i].b - expect;
            d->begin = d->end = e->timestamp_ns;
            lost += d->lost;
            tl->stats.drops++;
            tl->stats.lost_events += d->lost;
            if (add_sample(b, lost_counter, e->timestamp_ns, (int64_t)lost) != NRT_SUCCESS)
                return NRT_RESOURCE;
        }
        expect = k[i].b + 1;
        if ((i % step == 0 || i + 1 == n) &&
            add_sample(b, pushed, e->timestamp_ns, (int64_t)(k[i].b + 1)) != NRT_SUCCESS)
            return NRT_RESOURCE;
    }
    return NRT_SUCCESS;
}

static NRT_STATUS find_losses(build_t *b)
{
    ntsim_timeline_t *tl = b->tl;
    exec_key_t *k = ntsim__malloc((tl->nrec + 1) * sizeof *k);
    if (k == NULL)
        return NRT_RESOURCE;
    size_t n = 0;
    for (size_t i = 0; i < tl->nrec; i++)
        if (tl->recs[i].nc_idx < NTSIM_NC_COUNT)
            k[n++] = (exec_key_t){tl->recs[i].nc_idx, tl->recs[i].nc_local_id, 0, i};
    qsort(k, n, sizeof *k, cmp_exec_key);
    NRT_STATUS st = NRT_SUCCESS;
    for (size_t i = 0; i < n && st == NRT_SUCCESS;) {
        size_t j = i;
        while (j < n && k[j].a == k[i].a)
            j++;
        st = nc_losses(b, &k[i], j - i);
        i = j;
    }
    ntsim__free(k);
    return st;
}

/* --- the whole build -------------------------------------------------------------- */

NRT_STATUS ntsim__timeline_build(const nrt_sys_trace_event_t *recs, size_t n,
                                 const ntsim_timeline_options_t *opt, ntsim_timeline_t *tl)
{
    static const ntsim_timeline_options_t defaults = {0, 0, NULL, NULL};
    memset(tl, 0, sizeof *tl);
    tl->recs = recs;
    tl->nrec = n;
    build_t b;
    memset(&b, 0, sizeof b);
    b.tl = tl;
    b.opt = opt != NULL ? opt : &defaults;
    b.device_known = opt != NULL;
    NRT_STATUS st = ntsim__tl_processes(&b);
    if (st == NRT_SUCCESS)
        st = pair_records(&b);
    if (st == NRT_SUCCESS)
        st = align_clocks(&b);
    if (st == NRT_SUCCESS)
        st = link_executions(&b);
    if (st == NRT_SUCCESS)
        st = find_losses(&b);
    if (st == NRT_SUCCESS)
        st = ntsim__tl_lay_out(&b);
    ntsim__free(b.core);
    ntsim__free(b.clock);
    ntsim__free(b.ncs);
    ntsim__free(b.devices);
    if (st != NRT_SUCCESS) {
        ntsim__timeline_free(tl);
        return st;
    }
    ntsim__tl_finish_lanes(tl);
    for (size_t i = 0; i < tl->nitems; i++) {
        const ntsim_tl_item_t *it = &tl->items[i];
        tl->stats.spans += (it->flags & NTSIM_TL_SPAN) != 0;
        tl->stats.unmatched_start += (it->flags & NTSIM_TL_UNMATCHED_START) != 0;
        tl->stats.unmatched_stop += (it->flags & NTSIM_TL_UNMATCHED_STOP) != 0;
        tl->stats.instants += (it->flags & (NTSIM_TL_SPAN | NTSIM_TL_UNMATCHED_START |
                                            NTSIM_TL_UNMATCHED_STOP | NTSIM_TL_DROP)) == 0;
        if (i == 0 || it->begin < tl->t_min)
            tl->t_min = it->begin;
        if (i == 0 || it->end > tl->t_max)
            tl->t_max = it->end;
    }
    tl->stats.lanes = tl->nlanes;
    return NRT_SUCCESS;
}

void ntsim__timeline_free(ntsim_timeline_t *tl)
{
    ntsim__free(tl->items);
    ntsim__free(tl->lanes);
    ntsim__free(tl->clocks);
    ntsim__free(tl->pairs);
    ntsim__free(tl->flows);
    ntsim__free(tl->counters);
    ntsim__free(tl->edges);
    ntsim__free(tl->processes);
    memset(tl, 0, sizeof *tl);
}

NRT_STATUS ntsim__timeline_begin(const void *out, bool has_len, const nrt_sys_trace_event_t *events,
                                 size_t count, const ntsim_timeline_options_t *options,
                                 ntsim_timeline_t *tl)
{
    if (out == NULL || !has_len || (events == NULL && count > 0))
        return NRT_INVALID;
    return ntsim__timeline_build(events, count, options, tl);
}

NRT_STATUS ntsim_timeline_stats(const nrt_sys_trace_event_t *events, size_t count,
                                const ntsim_timeline_options_t *options,
                                ntsim_timeline_stats_t *stats)
{
    ntsim_timeline_t tl;
    NRT_STATUS st = ntsim__timeline_begin(stats, true, events, count, options, &tl);
    if (st != NRT_SUCCESS)
        return st;
    *stats = tl.stats;
    ntsim__timeline_free(&tl);
    return NRT_SUCCESS;
}
