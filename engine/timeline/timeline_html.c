/*
 * engine/timeline/timeline_html.c: the timeline (timeline.h) as one self-contained
 * HTML page (D-TIMELINE-HTML): no network, no external script or style, so
 * it opens from a file anywhere.
 *
 * The page is a head (the title, a summary of the stats, the controls, a
 * colour legend of the types it shows) and the timeline as data: one JSON
 * document in a <script type="application/json" id="timeline-data">, which
 * the page's script (timeline_page.c) draws on a canvas the size of the
 * window, only the time window and the lanes in view. The layout that needs
 * the whole trace is done here: each mark's lane and depth (the spans open on
 * its lane when it begins), each lane's rows, the lanes' groups (the host's
 * threads; each NC's lanes), the marks in each lane in the order they begin
 * (so that each row of a lane is sorted and the script finds the marks in
 * view by binary search), and the flows as pairs of marks. The data:
 *
 *   {"t0":"<ns>","span":<ns>,"marks":<n>,"shown":<n>,"cut":<ns>,
 *    "types":[[type,"name","colour",marks],...]          types shown, ascending
 *    "keys":[["key",...],...]                             data key lists
 *    "groups":[["name",first lane,lanes],...]
 *    "lanes":[["name",rows],...]
 *    "items":[[lane,depth,b,d,type,flags,nc,thread,tracking_id,exec_id,dev,keys,"values"],
 *             [lane,depth,b,0,-1,flags,nc,lost,nc_local_id],...]   (a drop)
 *    "flows":[[from,to],...]}                             marks by their place in items
 *
 * b and d are ns after t0 and the span's length; dev a device mark's device
 * clock minus its begin (mod 2^64, signed); keys the index of its data key
 * list (-1: none) and values their formatted values, comma-separated (an
 * omitted key empty; the values are numbers, true/false, 0x-hex or a usage
 * type name, none with a comma). An integer past 2^53 is a string, so that
 * JavaScript keeps it exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_view.h"
#include "timeline.h"
#include "timeline_page.h"

/* Past this many marks the page draws the first ones only, and says to open
 * the .pftrace in Perfetto (D-TIMELINE-HTML). */
#define MAX_MARKS NTSIM_TIMELINE_PAGE_MAX_MARKS

#define put(o, ...) ntsim__text_put((o), __VA_ARGS__)

/* Text for an HTML text node or a quoted attribute. */
static void put_esc(ntsim_textout_t *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': put(o, "&amp;"); break;
        case '<': put(o, "&lt;"); break;
        case '>': put(o, "&gt;"); break;
        case '"': put(o, "&quot;"); break;
        case '\'': put(o, "&#39;"); break;
        default: put(o, "%c", *s);
        }
    }
}

/* A JSON string inside a <script> element: besides JSON's own escapes, < > &
 * as \u003c ..., so that no "</script" or "<!--" can close or bend it. */
static void put_jstr(ntsim_textout_t *o, const char *s)
{
    put(o, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            put(o, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            put(o, "\\u%04x", c);
        else
            put(o, "%c", c);
    }
    put(o, "\"");
}

/* An integer JavaScript holds exactly as a number (up to 2^53), else a string. */
static void put_u64(ntsim_textout_t *o, uint64_t v)
{
    put(o, v <= (UINT64_C(1) << 53) ? "%llu" : "\"%llu\"", (unsigned long long)v);
}

static void put_i64(ntsim_textout_t *o, uint64_t bits)
{
    uint64_t mag = bits >> 63 ? ~bits + 1 : bits;
    put(o, mag <= (UINT64_C(1) << 53) ? "%s%llu" : "\"%s%llu\"", bits >> 63 ? "-" : "",
        (unsigned long long)mag);
}

static void put_lines(ntsim_textout_t *o, const char *const *lines)
{
    for (; *lines != NULL; lines++)
        put(o, "%s", *lines);
}

typedef struct page {
    const ntsim_timeline_t *tl;
    uint32_t *depth;          /* per item: its row in its lane */
    uint32_t *lane_rows;      /* per lane: rows it needs */
    uint32_t *lane_nc;        /* per lane: its NC (device lanes) */
    size_t *by_lane;          /* marks shown by lane, each lane's in edge order */
    size_t *lane_first;       /* lane l's: by_lane[lane_first[l] .. lane_first[l + 1]) */
    size_t *place;            /* per item: its place in by_lane, SIZE_MAX when not shown */
    uint32_t *ncs;            /* the records' NCs, sorted, distinct: nncs */
    size_t nncs;
    size_t shown;             /* marks shown: at most MAX_MARKS */
    uint64_t cut;             /* ns after t_min: the first mark left out begins here */
    uint64_t span;            /* ns, t_max - t_min (at least 1) */
    uint64_t type_marks[NRT_SYS_TRACE_EVENT_TYPE_COUNT + 1]; /* shown, per type; last: unknown */
    int key_list[NRT_SYS_TRACE_EVENT_TYPE_COUNT][NRT_SYS_TRACE_EVENT_PHASE_COUNT];
} page_t;

/* Rows: the nesting depth of each item, from the edges' lane order. False
 * when memory runs out. */
static bool lay_rows(page_t *p)
{
    const ntsim_timeline_t *tl = p->tl;
    uint32_t *open = ntsim__calloc(tl->nlanes + 1, sizeof *open);
    if (open == NULL)
        return false;
    for (size_t i = 0; i < tl->nedges; i++) {
        const ntsim_tl_edge_t *ed = &tl->edges[i];
        if (ed->kind == NTSIM_TL_SAMPLE)
            continue;
        uint32_t lane = tl->items[ed->index].lane;
        if (ed->kind == NTSIM_TL_END) {
            open[lane]--;
            continue;
        }
        p->depth[ed->index] = open[lane];
        if (open[lane] + 1 > p->lane_rows[lane])
            p->lane_rows[lane] = open[lane] + 1;
        if (ed->kind == NTSIM_TL_BEGIN)
            open[lane]++;
    }
    ntsim__free(open);
    return true;
}

/* The marks shown (the first MAX_MARKS begins and instants in edge order),
 * counting-sorted by lane; each item's place among them. */
static bool group_by_lane(page_t *p)
{
    const ntsim_timeline_t *tl = p->tl;
    size_t *fill = ntsim__calloc(tl->nlanes + 1, sizeof *fill);
    if (fill == NULL)
        return false;
    for (size_t i = 0; i < tl->nitems; i++)
        p->place[i] = SIZE_MAX;
    for (size_t i = 0; i < tl->nedges; i++) {
        const ntsim_tl_edge_t *ed = &tl->edges[i];
        if (ed->kind != NTSIM_TL_BEGIN && ed->kind != NTSIM_TL_INSTANT)
            continue;
        if (p->shown == MAX_MARKS) {
            p->cut = ed->ts - tl->t_min;
            break;
        }
        p->place[ed->index] = p->shown++;
        p->lane_first[tl->items[ed->index].lane + 1]++;
    }
    for (size_t l = 0; l < tl->nlanes; l++)
        p->lane_first[l + 1] += p->lane_first[l];
    for (size_t i = 0; i < tl->nedges; i++) {
        const ntsim_tl_edge_t *ed = &tl->edges[i];
        if ((ed->kind != NTSIM_TL_BEGIN && ed->kind != NTSIM_TL_INSTANT) ||
            p->place[ed->index] == SIZE_MAX)
            continue;
        uint32_t lane = tl->items[ed->index].lane;
        p->by_lane[p->lane_first[lane] + fill[lane]++] = ed->index;
    }
    for (size_t k = 0; k < p->shown; k++)
        p->place[p->by_lane[k]] = k;
    ntsim__free(fill);
    return true;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The NCs the records name, for the title; each lane's NC, for the groups. */
static void find_ncs(page_t *p)
{
    const ntsim_timeline_t *tl = p->tl;
    for (size_t i = 0; i < tl->nrec; i++)
        p->ncs[i] = tl->recs[i].nc_idx;
    qsort(p->ncs, tl->nrec, sizeof *p->ncs, cmp_u32);
    for (size_t i = 0; i < tl->nrec; i++)
        if (p->nncs == 0 || p->ncs[p->nncs - 1] != p->ncs[i])
            p->ncs[p->nncs++] = p->ncs[i];
    for (size_t i = 0; i < tl->nitems; i++)
        p->lane_nc[tl->items[i].lane] = tl->recs[tl->items[i].rec].nc_idx;
}

/* The lanes from `first` that make one group: the host's threads, or one
 * device's lanes when the caller mapped NCs to devices, else one NC's
 * (lanes of one key, and of one process, are consecutive,
 * D-TIMELINE-ORDER). Returns the lane after the group. */
static size_t group_end(const page_t *p, size_t first)
{
    const ntsim_timeline_t *tl = p->tl;
    const ntsim_tl_lane_t *f = &tl->lanes[first];
    bool host = f->kind == NTSIM_TL_LANE_THREAD;
    size_t m = first + 1;
    while (m < tl->nlanes &&
           (host ? tl->lanes[m].kind == NTSIM_TL_LANE_THREAD
                 : tl->lanes[m].kind != NTSIM_TL_LANE_THREAD &&
                       (tl->by_device ? tl->lanes[m].process == f->process
                                      : p->lane_nc[m] == p->lane_nc[first])))
        m++;
    return m;
}

/* Ascending values as ranges: "0-3, 5, 7-8", past eight ranges ", ...". */
static void put_ranges(ntsim_textout_t *o, const uint32_t *v, size_t n)
{
    size_t ranges = 0;
    for (size_t i = 0; i < n; ranges++) {
        size_t j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        if (ranges == 8) {
            put(o, ", ...");
            break;
        }
        put(o, ranges ? ", %u" : "%u", v[i]);
        if (j > i)
            put(o, "-%u", v[j]);
        i = j + 1;
    }
}

/* "ntsim host, 64 NCs (0-63)": the records say which NCs, never which
 * device (D-TIMELINE-HTML); a caller's options name one. */
static void put_title(ntsim_textout_t *o, const page_t *p, bool named_device)
{
    put_esc(o, p->tl->processes[0].name);
    const ntsim_timeline_t *tl = p->tl;
    if (p->nncs == 0)
        put(o, ", no NC");
    else
        put(o, ", %zu NC%s (", p->nncs, p->nncs == 1 ? "" : "s");
    put_ranges(o, p->ncs, p->nncs);
    if (p->nncs > 0)
        put(o, ")");
    if (named_device && tl->nprocesses > 2) { /* the devices are ascending */
        uint32_t dev[257];
        size_t n = 0;
        for (size_t i = 1; i < tl->nprocesses && n < 257; i++)
            dev[n++] = tl->processes[i].nd_idx;
        put(o, " on %zu neuron devices (", n);
        put_ranges(o, dev, n);
        put(o, ")");
    } else if (named_device) {
        put(o, " on ");
        put_esc(o, tl->processes[1].name);
    }
}

/* hsl(h, 60%, 55%), h = 137 type mod 360: 137 and 360 share no factor, so the
 * 46 types get 46 hues, consecutive types 137 degrees apart. */
static void put_colour(ntsim_textout_t *o, uint32_t type)
{
    if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT)
        put(o, "hsl(0,0%%,60%%)");
    else
        put(o, "hsl(%u,60%%,55%%)", type * 137 % 360);
}

static void put_head(ntsim_textout_t *o, const page_t *p, bool named_device)
{
    const ntsim_timeline_t *tl = p->tl;
    const ntsim_timeline_stats_t *st = &tl->stats;
    size_t groups = 0;
    for (size_t l = 0; l < tl->nlanes; l = group_end(p, l))
        groups++;
    put(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ntsim timeline: ");
    put_title(o, p, named_device);
    put(o, "</title>\n<style>");
    put_lines(o, ntsim__timeline_page_style);
    put(o, "</style></head>\n<body>\n<h1>ntsim timeline: ");
    put_title(o, p, named_device);
    put(o, "</h1>\n<p id=\"summary\">%llu spans, %llu instants, %llu unmatched, %llu drops "
           "(%llu events lost), %llu flows, %zu lanes in %zu groups, %llu device clocks (worst sync "
           "residual %.1f ns); time is the host clock from %llu ns, device times aligned.</p>\n",
        (unsigned long long)st->spans, (unsigned long long)st->instants,
        (unsigned long long)(st->unmatched_start + st->unmatched_stop),
        (unsigned long long)st->drops, (unsigned long long)st->lost_events,
        (unsigned long long)st->flows, tl->nlanes, groups, (unsigned long long)st->clocks,
        st->max_residual_ns, (unsigned long long)tl->t_min);
    /* The Perfetto trace the page points to, named as the registry names it. */
    const ntsim_output_format_t *pf = ntsim_output_format_named("pftrace");
    int ext = (int)strcspn(pf->extensions, " ");
    if (p->shown < tl->nitems)
        put(o, "<p id=\"too-large\">This trace has %zu marks, more than the %d this page draws: "
               "it shows the first %zu, up to +%llu.%03llu us. Open the trace's %.*s "
               "(%s beside this page, or ntsim export TRACE -o FILE%.*s) in "
               "Perfetto (ui.perfetto.dev) for all of it.</p>\n",
            tl->nitems, MAX_MARKS, p->shown, (unsigned long long)(p->cut / 1000),
            (unsigned long long)(p->cut % 1000), ext, pf->extensions, pf->file, ext,
            pf->extensions);
    put(o, "<noscript><p>This page draws the timeline with its script: allow JavaScript, or "
           "open the trace's %.*s in Perfetto.</p></noscript>\n"
           "<div id=\"controls\"><button id=\"zoom-in\">+</button><button id=\"zoom-out\">"
           "&#8722;</button><button id=\"zoom-reset\">reset</button><button id=\"flows\" "
           "aria-pressed=\"false\">all flows</button><button id=\"expand\">expand all</button>"
           "<button id=\"collapse\">collapse all</button> wheel over the plot to zoom, drag to "
           "pan, shift+wheel to scroll; point at a mark for its details and flows, click to keep "
           "them</div>\n<details id=\"legend\" open><summary>colours</summary>",
        ext, pf->extensions);
    for (uint32_t t = 0; t <= NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        if (p->type_marks[t] == 0)
            continue;
        put(o, "<span class=\"key\"><i style=\"background:");
        put_colour(o, t);
        put(o, "\"></i>%s %llu</span>", ntsim__timeline_name(t),
            (unsigned long long)p->type_marks[t]);
    }
    put(o, "<span class=\"key\"><i class=\"flagged\"></i>events lost, unmatched edge</span>"
           "<span class=\"key\"><i class=\"flow\"></i>flow: nrt_execute to its device spans"
           "</span></details>\n<div id=\"detail\"></div>\n<div id=\"view\"><div id=\"scroller\">"
           "<div id=\"rows\"></div></div><div id=\"origin\"></div><canvas id=\"plot\"></canvas>"
           "<canvas id=\"over\"></canvas></div>\n");
}

/* The data key lists the shown marks use, numbered in order of first use
 * (key_list[type][phase], -1: none), and their count. */
static int number_key_lists(page_t *p, uint32_t order[][2])
{
    int n = 0;
    for (size_t k = 0; k < p->shown; k++) {
        const ntsim_tl_item_t *it = &p->tl->items[p->by_lane[k]];
        const nrt_sys_trace_event_t *e = &p->tl->recs[it->rec];
        uint32_t type = (uint32_t)e->trace_type, phase = (uint32_t)e->phase;
        if ((it->flags & NTSIM_TL_DROP) || type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT ||
            phase >= NRT_SYS_TRACE_EVENT_PHASE_COUNT || p->key_list[type][phase] != -2)
            continue;
        if (ntsim__data_view(type, phase)->count == 0) {
            p->key_list[type][phase] = -1;
            continue;
        }
        order[n][0] = type;
        order[n][1] = phase;
        p->key_list[type][phase] = n++;
    }
    return n;
}

static void put_item(ntsim_textout_t *o, const page_t *p, size_t index)
{
    const ntsim_timeline_t *tl = p->tl;
    const ntsim_tl_item_t *it = &tl->items[index];
    const nrt_sys_trace_event_t *e = &tl->recs[it->rec];
    put(o, "[%u,%u,", it->lane, p->depth[index]);
    put_u64(o, it->begin - tl->t_min);
    put(o, ",");
    put_u64(o, it->end - it->begin);
    if (it->flags & NTSIM_TL_DROP) {
        put(o, ",-1,%u,%u,", it->flags, e->nc_idx);
        put_u64(o, it->lost);
        put(o, ",");
        put_u64(o, e->nc_local_id);
        put(o, "]");
        return;
    }
    put(o, ",%u,%u,%u,", it->type, it->flags, e->nc_idx);
    put_u64(o, e->thread_id);
    put(o, ",");
    put_u64(o, e->tracking_id);
    put(o, ",");
    put_u64(o, it->exec_id);
    put(o, ",");
    put_i64(o, it->flags & NTSIM_TL_DEVICE ? it->dev_begin - it->begin : 0);
    uint32_t type = (uint32_t)e->trace_type, phase = (uint32_t)e->phase;
    int k = type < NRT_SYS_TRACE_EVENT_TYPE_COUNT && phase < NRT_SYS_TRACE_EVENT_PHASE_COUNT
                ? p->key_list[type][phase]
                : -1;
    put(o, ",%d,\"", k);
    const ntsim_data_view_t *v = ntsim__data_view(type, phase);
    for (size_t i = 0; k >= 0 && i < v->count; i++) {
        char text[40];
        if (!ntsim__data_format(&v->keys[i], ntsim__data_value(&v->keys[i], &e->data), text,
                                sizeof text))
            text[0] = '\0'; /* an omitted key (%algo 0): its place left empty */
        put(o, i ? ",%s" : "%s", text);
    }
    put(o, "\"]");
}

/* The data document (see the top of the file). */
static void put_data(ntsim_textout_t *o, page_t *p)
{
    const ntsim_timeline_t *tl = p->tl;
    uint32_t order[NRT_SYS_TRACE_EVENT_TYPE_COUNT * NRT_SYS_TRACE_EVENT_PHASE_COUNT][2];
    int nkeys = number_key_lists(p, order);
    put(o, "<script type=\"application/json\" id=\"timeline-data\">{\"t0\":\"%llu\",\"span\":",
        (unsigned long long)tl->t_min);
    put_u64(o, p->span);
    put(o, ",\"marks\":%zu,\"shown\":%zu,\"cut\":", tl->nitems, p->shown);
    put_u64(o, p->shown < tl->nitems ? p->cut : p->span);
    put(o, ",\n\"types\":[");
    const char *sep = "";
    for (uint32_t t = 0; t <= NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        if (p->type_marks[t] == 0)
            continue;
        /* The last row is every type past the table's ("unknown"): -2. */
        put(o, "%s[%d,\"%s\",\"", sep, t < NRT_SYS_TRACE_EVENT_TYPE_COUNT ? (int)t : -2,
            ntsim__timeline_name(t));
        put_colour(o, t);
        put(o, "\",%llu]", (unsigned long long)p->type_marks[t]);
        sep = ",";
    }
    put(o, "],\n\"keys\":[");
    for (int k = 0; k < nkeys; k++) {
        const ntsim_data_view_t *v = ntsim__data_view(order[k][0], order[k][1]);
        put(o, k ? ",[" : "[");
        for (size_t i = 0; i < v->count; i++) {
            put(o, i ? "," : "");
            put_jstr(o, v->keys[i].key_z);
        }
        put(o, "]");
    }
    put(o, "],\n\"groups\":[");
    for (size_t l = 0, m; l < tl->nlanes; l = m) {
        m = group_end(p, l);
        put(o, l ? ",[" : "[");
        if (tl->lanes[l].kind == NTSIM_TL_LANE_THREAD || tl->by_device)
            put_jstr(o, tl->processes[tl->lanes[l].process].name);
        else
            put(o, "\"NC %u\"", p->lane_nc[l]);
        put(o, ",%zu,%zu]", l, m - l);
    }
    put(o, "],\n\"lanes\":[");
    for (size_t l = 0; l < tl->nlanes; l++) {
        put(o, l ? ",\n[" : "\n[");
        put_jstr(o, tl->lanes[l].name);
        put(o, ",%u]", p->lane_rows[l] ? p->lane_rows[l] : 1);
    }
    put(o, "],\n\"items\":[");
    for (size_t k = 0; k < p->shown; k++) {
        put(o, k ? ",\n" : "\n");
        put_item(o, p, p->by_lane[k]);
    }
    put(o, "],\n\"flows\":[");
    sep = "\n";
    for (size_t f = 0; f < tl->nflows; f++) {
        size_t a = p->place[tl->flows[f].from], z = p->place[tl->flows[f].to];
        if (a == SIZE_MAX || z == SIZE_MAX)
            continue; /* an end past the cut */
        put(o, "%s[%zu,%zu]", sep, a, z);
        sep = ",\n";
    }
    put(o, "]}</script>\n");
}

NRT_STATUS ntsim_timeline_html_serialize(const nrt_sys_trace_event_t *events, size_t count,
                                         const ntsim_timeline_options_t *options, char **out,
                                         size_t *len)
{
    ntsim_timeline_t tl;
    NRT_STATUS st = ntsim__timeline_begin(out, len != NULL, events, count, options, &tl);
    if (st != NRT_SUCCESS)
        return st;
    page_t p;
    memset(&p, 0, sizeof p);
    p.tl = &tl;
    p.depth = ntsim__calloc(tl.nitems + 1, sizeof *p.depth);
    p.lane_rows = ntsim__calloc(tl.nlanes + 1, sizeof *p.lane_rows);
    p.lane_nc = ntsim__calloc(tl.nlanes + 1, sizeof *p.lane_nc);
    p.by_lane = ntsim__malloc((tl.nitems + 1) * sizeof *p.by_lane);
    p.lane_first = ntsim__calloc(tl.nlanes + 2, sizeof *p.lane_first);
    p.place = ntsim__malloc((tl.nitems + 1) * sizeof *p.place);
    p.ncs = ntsim__malloc((tl.nrec + 1) * sizeof *p.ncs);
    p.span = tl.t_max > tl.t_min ? tl.t_max - tl.t_min : 1;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (size_t ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
            p.key_list[t][ph] = -2; /* not seen yet */
    ntsim_textout_t o = {{NULL, 0, 0}, NRT_SUCCESS};
    if (p.depth == NULL || p.lane_rows == NULL || p.lane_nc == NULL || p.by_lane == NULL ||
        p.lane_first == NULL || p.place == NULL || p.ncs == NULL)
        o.st = NRT_RESOURCE;
    else /* a first capacity, a hint: text_put grows the buffer as it needs */
        (void)ntsim__growbuf_reserve(&o.b, 16384 + tl.nitems * 100);
    if (o.st == NRT_SUCCESS && (!group_by_lane(&p) || !lay_rows(&p)))
        o.st = NRT_RESOURCE;
    if (o.st == NRT_SUCCESS) {
        find_ncs(&p);
        for (size_t k = 0; k < p.shown; k++) {
            uint32_t type = tl.items[p.by_lane[k]].type;
            if (!(tl.items[p.by_lane[k]].flags & NTSIM_TL_DROP))
                p.type_marks[type < NRT_SYS_TRACE_EVENT_TYPE_COUNT
                                 ? type
                                 : NRT_SYS_TRACE_EVENT_TYPE_COUNT]++;
        }
        put_head(&o, &p, options != NULL);
        put_data(&o, &p);
        put(&o, "<script>\n");
        put_lines(&o, ntsim__timeline_page_script);
        put(&o, "</script>\n</body></html>\n");
    }
    ntsim__free(p.depth);
    ntsim__free(p.lane_rows);
    ntsim__free(p.lane_nc);
    ntsim__free(p.by_lane);
    ntsim__free(p.lane_first);
    ntsim__free(p.place);
    ntsim__free(p.ncs);
    ntsim__timeline_free(&tl);
    if (o.st != NRT_SUCCESS) {
        ntsim__free(o.b.data);
        return o.st;
    }
    *out = (char *)o.b.data;
    *len = o.b.len;
    return NRT_SUCCESS;
}
