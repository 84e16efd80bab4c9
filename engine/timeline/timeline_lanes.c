/*
 * engine/timeline/timeline_lanes.c: stage 5 of the timeline build (timeline.c's
 * header lists the stages): items grouped by lane key and laid out so that
 * every lane nests strictly, an item that would cross one going to the next
 * overflow lane; the begin/end/instant edges come out of the same walk in
 * nesting order and are sorted by time at the end (D-TIMELINE-ORDER).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "timeline_build.h"

/* --- the processes ------------------------------------------------------------------ */

/* The device of NC nc: the caller's map, else nd_idx. */
static uint32_t device_of(const build_t *b, uint32_t nc)
{
    const uint32_t *map = b->opt->nd_idx_by_nc;
    return map != NULL && nc < 256 ? map[nc] : b->opt->nd_idx;
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

NRT_STATUS ntsim__tl_processes(build_t *b)
{
    ntsim_timeline_t *tl = b->tl;
    size_t n = 0;
    /* the devices: at most 256 mapped and nd_idx; one without a map */
    b->devices = ntsim__malloc(257 * sizeof *b->devices);
    if (b->devices == NULL)
        return NRT_RESOURCE;
    if (b->opt->nd_idx_by_nc == NULL) {
        b->devices[n++] = b->opt->nd_idx;
    } else {
        bool seen[256] = {false}, past = false;
        for (size_t i = 0; i < tl->nrec; i++) {
            uint32_t nc = tl->recs[i].nc_idx;
            if (nc < 256)
                seen[nc] = true;
            else
                past = true;
        }
        for (uint32_t nc = 0; nc < 256; nc++)
            if (seen[nc])
                b->devices[n++] = b->opt->nd_idx_by_nc[nc];
        if (past || n == 0)
            b->devices[n++] = b->opt->nd_idx;
        qsort(b->devices, n, sizeof *b->devices, cmp_u32);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (m == 0 || b->devices[m - 1] != b->devices[i])
                b->devices[m++] = b->devices[i];
        n = m;
        tl->by_device = true;
    }
    tl->processes = ntsim__calloc(n + 1, sizeof *tl->processes);
    if (tl->processes == NULL)
        return NRT_RESOURCE;
    tl->nprocesses = n + 1;
    tl->processes[0] = (ntsim_tl_process_t){b->opt->pid ? b->opt->pid : 1, 1, "", 0};
    snprintf(tl->processes[0].name, sizeof tl->processes[0].name, "%s",
             b->opt->host_name ? b->opt->host_name : "ntsim host");
    for (size_t d = 0; d < n; d++) {
        ntsim_tl_process_t *p = &tl->processes[d + 1];
        /* Synthetic ids at the top of the int32 range, away from real pids. */
        *p = (ntsim_tl_process_t){UINT32_C(0x7F000000) + (b->devices[d] & 0xffff), 2 + d, "",
                                  b->devices[d]};
        if (b->device_known)
            snprintf(p->name, sizeof p->name, "neuron device %u", b->devices[d]);
        else
            snprintf(p->name, sizeof p->name, "neuron device (unknown)");
    }
    return NRT_SUCCESS;
}

uint32_t ntsim__tl_process_of(const build_t *b, uint32_t nc)
{
    uint32_t d = device_of(b, nc);
    size_t lo = 0, hi = b->tl->nprocesses - 1; /* the devices: processes 1.. */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->devices[mid] < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)lo + 1;
}

/* --- 5. lanes and edges ---------------------------------------------------------- */

typedef struct lane_key {
    uint64_t g[4];            /* host 0 / its process; thread or nc; NC 0 / DMA 1; core */
    uint64_t begin, end;
    size_t item;
} lane_key_t;

static int cmp_lane_key(const void *pa, const void *pb)
{
    const lane_key_t *x = pa, *y = pb;
    for (int i = 0; i < 4; i++)
        if (x->g[i] != y->g[i])
            return x->g[i] < y->g[i] ? -1 : 1;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end) /* the longer one first: it is the outer */
        return x->end > y->end ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

static int cmp_edge(const void *pa, const void *pb)
{
    const ntsim_tl_edge_t *x = pa, *y = pb;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

typedef struct sublane {
    size_t *stack;
    size_t depth, cap;
    uint32_t lane;
} sublane_t;

typedef struct sublanes {
    sublane_t *v;
    size_t cap, inited;       /* v[0..inited) have a stack (maybe NULL) */
} sublanes_t;

static lane_key_t lane_key_of(const build_t *b, size_t i)
{
    const ntsim_tl_item_t *it = &b->tl->items[i];
    const nrt_sys_trace_event_t *e = &b->tl->recs[it->rec];
    lane_key_t k = {{0, e->thread_id, 0, 0}, it->begin, it->end, i};
    if (it->flags & (NTSIM_TL_DEVICE | NTSIM_TL_DROP)) {
        uint32_t core = ntsim__tl_item_core(b, i);
        k.g[0] = ntsim__tl_process_of(b, e->nc_idx);
        k.g[1] = e->nc_idx;
        k.g[3] = core;
    } else if (ntsim__tl_is_dma_type(it->type)) {
        k.g[0] = ntsim__tl_process_of(b, e->nc_idx);
        k.g[1] = e->nc_idx;
        k.g[2] = 1;
    }
    return k;
}

static NRT_STATUS new_lane(build_t *b, const lane_key_t *k, uint32_t overlap, uint32_t *out)
{
    ntsim_timeline_t *tl = b->tl;
    if (!ntsim__array_grow(&tl->lanes, &b->lane_cap, tl->nlanes + 1, sizeof *tl->lanes))
        return NRT_RESOURCE;
    ntsim_tl_lane_t *l = &tl->lanes[tl->nlanes];
    memset(l, 0, sizeof *l);
    l->overlap = overlap;
    l->process = (uint32_t)k->g[0];
    l->pid = tl->processes[l->process].pid;
    char base[40];
    if (k->g[0] == 0) {
        l->kind = NTSIM_TL_LANE_THREAD;
        l->tid = overlap == 0 ? (uint32_t)k->g[1] : 0;
        snprintf(base, sizeof base, "thread %llu", (unsigned long long)k->g[1]);
    } else {
        uint32_t nc = (uint32_t)k->g[1], core = (uint32_t)k->g[3];
        const ntsim_tl_nc_core_t *c = ntsim__tl_nc_core(b, nc);
        l->kind = k->g[2] ? NTSIM_TL_LANE_DMA : NTSIM_TL_LANE_NC;
        if (l->kind == NTSIM_TL_LANE_DMA)
            snprintf(base, sizeof base, "NC %u notifications & DMA", nc);
        else if (c != NULL && c->several && core != NTSIM_TL_NO_CORE)
            snprintf(base, sizeof base, "NC %u core %u", nc, core);
        else if (c != NULL && c->several)
            snprintf(base, sizeof base, "NC %u (no core)", nc);
        else
            snprintf(base, sizeof base, "NC %u", nc);
    }
    if (overlap == 0)
        snprintf(l->name, sizeof l->name, "%s", base);
    else
        snprintf(l->name, sizeof l->name, "%s (overlap %u)", base, overlap);
    *out = (uint32_t)tl->nlanes++;
    return NRT_SUCCESS;
}

static NRT_STATUS add_edge(build_t *b, uint64_t ts, size_t item, ntsim_tl_edge_kind_t kind)
{
    ntsim_timeline_t *tl = b->tl;
    if (!ntsim__array_grow(&tl->edges, &b->edge_cap, tl->nedges + 1, sizeof *tl->edges))
        return NRT_RESOURCE;
    tl->edges[tl->nedges++] = (ntsim_tl_edge_t){ts, b->edge_order++, item, 0, kind};
    return NRT_SUCCESS;
}

/* Ends the spans of sublane s that end by ts (all of them: ts UINT64_MAX). */
static NRT_STATUS pop_until(build_t *b, sublane_t *s, uint64_t ts)
{
    while (s->depth > 0) {
        const ntsim_tl_item_t *top = &b->tl->items[s->stack[s->depth - 1]];
        if (top->end > ts)
            break;
        if (add_edge(b, top->end, s->stack[s->depth - 1], NTSIM_TL_END) != NRT_SUCCESS)
            return NRT_RESOURCE;
        s->depth--;
    }
    return NRT_SUCCESS;
}

/* Places the items of one lane key (sorted) on sublanes that nest strictly. */
static NRT_STATUS lay_out_group(build_t *b, const lane_key_t *k, size_t n, sublanes_t *sub)
{
    sublane_t **subs = &sub->v;
    ntsim_timeline_t *tl = b->tl;
    size_t nsub = 0;
    for (size_t i = 0; i < n; i++) {
        ntsim_tl_item_t *it = &tl->items[k[i].item];
        size_t s = 0;
        for (; s < nsub; s++) {
            if (pop_until(b, &(*subs)[s], it->begin) != NRT_SUCCESS)
                return NRT_RESOURCE;
            sublane_t *sl = &(*subs)[s];
            if (sl->depth == 0 || it->end <= tl->items[sl->stack[sl->depth - 1]].end)
                break;
        }
        if (s == nsub) {
            if (!ntsim__array_grow(subs, &sub->cap, nsub + 1, sizeof **subs))
                return NRT_RESOURCE;
            if (nsub == sub->inited) {
                (*subs)[nsub] = (sublane_t){NULL, 0, 0, 0};
                sub->inited++;
            }
            sublane_t *sl = &(*subs)[nsub++];
            sl->depth = 0;
            if (new_lane(b, &k[i], (uint32_t)s, &sl->lane) != NRT_SUCCESS)
                return NRT_RESOURCE;
        }
        sublane_t *sl = &(*subs)[s];
        it->lane = sl->lane;
        ntsim_tl_lane_t *lane = &tl->lanes[sl->lane];
        if (!(it->flags & NTSIM_TL_SPAN)) {
            lane->instants++;
            if (add_edge(b, it->begin, k[i].item, NTSIM_TL_INSTANT) != NRT_SUCCESS)
                return NRT_RESOURCE;
            continue;
        }
        lane->spans++;
        if (!ntsim__array_grow(&sl->stack, &sl->cap, sl->depth + 1, sizeof *sl->stack) ||
            add_edge(b, it->begin, k[i].item, NTSIM_TL_BEGIN) != NRT_SUCCESS)
            return NRT_RESOURCE;
        sl->stack[sl->depth++] = k[i].item;
    }
    for (size_t s = 0; s < nsub; s++)
        if (pop_until(b, &(*subs)[s], UINT64_MAX) != NRT_SUCCESS)
            return NRT_RESOURCE;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim__tl_lay_out(build_t *b)
{
    ntsim_timeline_t *tl = b->tl;
    lane_key_t *k = ntsim__malloc((tl->nitems + 1) * sizeof *k);
    sublanes_t subs = {NULL, 0, 0};
    NRT_STATUS st = k == NULL ? NRT_RESOURCE : NRT_SUCCESS;
    for (size_t i = 0; i < tl->nitems && st == NRT_SUCCESS; i++)
        k[i] = lane_key_of(b, i);
    if (st == NRT_SUCCESS && tl->nitems > 0)
        qsort(k, tl->nitems, sizeof *k, cmp_lane_key);
    for (size_t i = 0; i < tl->nitems && st == NRT_SUCCESS;) {
        size_t j = i;
        while (j < tl->nitems && memcmp(k[j].g, k[i].g, sizeof k[i].g) == 0)
            j++;
        st = lay_out_group(b, &k[i], j - i, &subs);
        i = j;
    }
    for (size_t s = 0; s < subs.inited; s++)
        ntsim__free(subs.v[s].stack);
    ntsim__free(subs.v);
    ntsim__free(k);
    return st;
}

/* Thread ids of the lanes that are not a host thread's own, the uuids, and
 * the edges in time order. */
void ntsim__tl_finish_lanes(ntsim_timeline_t *tl)
{
    uint32_t host_extra = 0, device = 0;
    for (size_t l = 0; l < tl->nlanes; l++) {
        ntsim_tl_lane_t *lane = &tl->lanes[l];
        if (lane->kind != NTSIM_TL_LANE_THREAD)
            lane->tid = UINT32_C(0x7E000000) + device++;
        else if (lane->overlap > 0)
            lane->tid = UINT32_C(0x7D000000) + host_extra++;
        lane->uuid = UINT64_C(0x1000) + l;
    }
    for (size_t c = 0; c < tl->ncounters; c++)
        tl->counters[c].uuid = UINT64_C(0x1000) + tl->nlanes + c;
    if (tl->nedges > 0)
        qsort(tl->edges, tl->nedges, sizeof *tl->edges, cmp_edge);
}
