/*
 * engine/timeline/timeline_html.c: the timeline (timeline.h) as one self-contained
 * HTML page (D-TIMELINE-HTML): no network, no external script or style, so
 * it opens from a file anywhere.
 *
 * The page is an SVG with one <g class="lane"> per lane (data-lane = the name
 * the other writers give the thread, data-spans / data-instants its counts),
 * each span a <rect class="span"> at its nesting depth and each instant a
 * <circle class="instant"> (a drop or an unmatched edge is also "flagged"),
 * every mark carrying its times (data-b, data-e: ns after data-t0) and a
 * <title> with its details; flows are <line class="flow">. The layout is
 * drawn here, so the page shows without script; the inline script only
 * re-lays the marks for zoom (wheel, + / - / reset, drag to pan) and shows
 * the title of the mark under the pointer in a panel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_view.h"
#include "timeline.h"

enum { LABEL_W = 230, PLOT_W = 1100, ROW_H = 14, LANE_GAP = 8, AXIS_H = 28 };

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

typedef struct page {
    const ntsim_timeline_t *tl;
    uint32_t *depth;          /* per item: its row in its lane */
    uint32_t *lane_rows;      /* per lane: rows it needs */
    uint32_t *lane_y;         /* per lane: top, px */
    size_t *by_lane;          /* items by lane, each lane's in edge order */
    size_t *lane_first;       /* lane l's items: by_lane[lane_first[l] .. lane_first[l + 1]) */
    uint64_t span;            /* ns, t_max - t_min (at least 1) */
} page_t;

static double x_of(const page_t *p, uint64_t t)
{
    return LABEL_W + (double)(t - p->tl->t_min) * PLOT_W / (double)p->span;
}

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

/* A counting sort of the begin and instant edges by lane. */
static bool group_by_lane(page_t *p)
{
    const ntsim_timeline_t *tl = p->tl;
    size_t *fill = ntsim__calloc(tl->nlanes + 1, sizeof *fill);
    if (fill == NULL)
        return false;
    for (size_t i = 0; i < tl->nedges; i++)
        if (tl->edges[i].kind == NTSIM_TL_BEGIN || tl->edges[i].kind == NTSIM_TL_INSTANT)
            p->lane_first[tl->items[tl->edges[i].index].lane + 1]++;
    for (size_t l = 0; l < tl->nlanes; l++)
        p->lane_first[l + 1] += p->lane_first[l];
    for (size_t i = 0; i < tl->nedges; i++) {
        const ntsim_tl_edge_t *ed = &tl->edges[i];
        if (ed->kind != NTSIM_TL_BEGIN && ed->kind != NTSIM_TL_INSTANT)
            continue;
        uint32_t lane = tl->items[ed->index].lane;
        p->by_lane[p->lane_first[lane] + fill[lane]++] = ed->index;
    }
    ntsim__free(fill);
    return true;
}

static void put_title(ntsim_textout_t *o, const ntsim_timeline_t *tl, const ntsim_tl_item_t *it)
{
    const nrt_sys_trace_event_t *e = &tl->recs[it->rec];
    put(o, "<title>");
    if (it->flags & NTSIM_TL_DROP) {
        put(o, "events lost: %llu (nc_local_id before %llu missing on NC %u)</title>",
            (unsigned long long)it->lost, (unsigned long long)e->nc_local_id, e->nc_idx);
        return;
    }
    put(o, "%s", ntsim__timeline_name(it->type));
    if (it->flags & NTSIM_TL_UNMATCHED_START)
        put(o, " (unmatched start: no STOP with its tracking_id)");
    if (it->flags & NTSIM_TL_UNMATCHED_STOP)
        put(o, " (unmatched stop: no START with its tracking_id)");
    uint64_t b = it->begin - tl->t_min, d = it->end - it->begin;
    put(o, "&#10;at +%llu.%03llu us", (unsigned long long)(b / 1000),
        (unsigned long long)(b % 1000));
    if (it->flags & NTSIM_TL_SPAN)
        put(o, ", %llu.%03llu us", (unsigned long long)(d / 1000), (unsigned long long)(d % 1000));
    put(o, "&#10;nc %u, thread %llu, tracking_id %llu", e->nc_idx,
        (unsigned long long)e->thread_id, (unsigned long long)e->tracking_id);
    if (it->exec_id != 0)
        put(o, ", exec_id %llu", (unsigned long long)it->exec_id);
    if (it->flags & NTSIM_TL_DEVICE)
        put(o, "&#10;device clock %llu ns%s", (unsigned long long)it->dev_begin,
            it->flags & NTSIM_TL_UNALIGNED ? " (no sync pair: not aligned)" : ", aligned");
    const ntsim_data_view_t *v = ntsim__data_view((uint32_t)e->trace_type, (uint32_t)e->phase);
    for (size_t i = 0; i < v->count; i++) {
        char text[40];
        if (ntsim__data_format(&v->keys[i], ntsim__data_value(&v->keys[i], &e->data), text,
                               sizeof text))
            put(o, "&#10;%s: %s", v->keys[i].key_z, text);
    }
    put(o, "</title>");
}

static void put_item(ntsim_textout_t *o, const page_t *p, size_t index)
{
    const ntsim_timeline_t *tl = p->tl;
    const ntsim_tl_item_t *it = &tl->items[index];
    double y = p->lane_y[it->lane] + (double)p->depth[index] * ROW_H;
    double x = x_of(p, it->begin);
    uint64_t b = it->begin - tl->t_min, e = it->end - tl->t_min;
    const char *flag =
        it->flags & (NTSIM_TL_DROP | NTSIM_TL_UNMATCHED_START | NTSIM_TL_UNMATCHED_STOP)
            ? " flagged"
            : "";
    const char *where = it->flags & NTSIM_TL_DEVICE ? " device" : "";
    if (it->flags & NTSIM_TL_SPAN) {
        double w = x_of(p, it->end) - x;
        put(o, "<rect class=\"span%s t%u\" x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
               "data-b=\"%llu\" data-e=\"%llu\">",
            where, it->type % 12, x, y + 1, w < 1 ? 1.0 : w, ROW_H - 2, (unsigned long long)b,
            (unsigned long long)e);
        put_title(o, tl, it);
        put(o, "</rect>\n");
    } else {
        put(o, "<circle class=\"instant%s%s\" cx=\"%.2f\" cy=\"%.0f\" r=\"4\" data-b=\"%llu\" "
               "data-e=\"%llu\">",
            where, flag, x, y + ROW_H / 2.0, (unsigned long long)b, (unsigned long long)e);
        put_title(o, tl, it);
        put(o, "</circle>\n");
    }
}

static void put_flows(ntsim_textout_t *o, const page_t *p)
{
    const ntsim_timeline_t *tl = p->tl;
    put(o, "<g class=\"flows\">\n");
    for (size_t f = 0; f < tl->nflows; f++) {
        const ntsim_tl_item_t *a = &tl->items[tl->flows[f].from], *z = &tl->items[tl->flows[f].to];
        put(o, "<line class=\"flow\" x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" "
               "data-b=\"%llu\" data-e=\"%llu\"/>\n",
            x_of(p, a->begin), p->lane_y[a->lane] + (double)p->depth[tl->flows[f].from] * ROW_H + 7,
            x_of(p, z->begin), p->lane_y[z->lane] + (double)p->depth[tl->flows[f].to] * ROW_H + 7,
            (unsigned long long)(a->begin - tl->t_min), (unsigned long long)(z->begin - tl->t_min));
    }
    put(o, "</g>\n");
}

static const char page_style[] =
    "body{font:13px system-ui,sans-serif;margin:12px;color:#222}h1{font-size:18px;margin:0 0 4px}"
    "#controls button{font:inherit;margin-right:4px}#detail{white-space:pre;font:12px monospace;"
    "background:#f4f4f4;border:1px solid #ccc;padding:6px;min-height:3em;margin:6px 0}"
    "svg{border:1px solid #ccc;background:#fff;user-select:none}.lane-bg{fill:#fafafa}"
    ".lane:nth-of-type(odd) .lane-bg{fill:#f0f3f7}.lane-name{font-size:12px;fill:#333}"
    ".span{stroke:#0003;stroke-width:.5}.span:hover,.instant:hover{stroke:#000;stroke-width:1.5}"
    ".t0{fill:#4e79a7}.t1{fill:#f28e2b}.t2{fill:#76b7b2}.t3{fill:#59a14f}.t4{fill:#edc948}"
    ".t5{fill:#b07aa1}.t6{fill:#ff9da7}.t7{fill:#9c755f}.t8{fill:#bab0ac}.t9{fill:#86bcb6}"
    ".t10{fill:#d37295}.t11{fill:#a0cbe8}.instant{fill:#555}.instant.flagged{fill:#d62728}"
    ".flow{stroke:#d62728;stroke-opacity:.45;stroke-width:1}.tick{stroke:#ddd}"
    ".tick-label{font-size:10px;fill:#666}";

/* Zoom and pan re-lay every mark from its data-b/data-e; hover shows the
 * mark's title in #detail. */
static const char page_script[] =
    "(function(){var s=document.getElementById('timeline'),L=+s.dataset.label,W=+s.dataset.plot,"
    "T=+s.dataset.span,v0=0,v1=T,det=document.getElementById('detail');"
    "function X(t){return L+(t-v0)*W/(v1-v0);}"
    "function lay(){s.querySelectorAll('.span').forEach(function(r){var a=X(+r.dataset.b),"
    "b=X(+r.dataset.e);r.setAttribute('x',a.toFixed(2));r.setAttribute('width',"
    "Math.max(1,b-a).toFixed(2));});s.querySelectorAll('.instant').forEach(function(c){"
    "c.setAttribute('cx',X(+c.dataset.b).toFixed(2));});s.querySelectorAll('.flow').forEach("
    "function(l){l.setAttribute('x1',X(+l.dataset.b).toFixed(2));l.setAttribute('x2',"
    "X(+l.dataset.e).toFixed(2));});var g=document.getElementById('ticks');g.textContent='';"
    "for(var i=0;i<=10;i++){var t=v0+(v1-v0)*i/10,x=L+W*i/10,n=document.createElementNS("
    "'http://www.w3.org/2000/svg','line');n.setAttribute('class','tick');n.setAttribute('x1',x);"
    "n.setAttribute('x2',x);n.setAttribute('y1',0);n.setAttribute('y2',s.getAttribute('height'));"
    "g.appendChild(n);var k=document.createElementNS('http://www.w3.org/2000/svg','text');"
    "k.setAttribute('class','tick-label');k.setAttribute('x',x+2);k.setAttribute('y',12);"
    "k.textContent=(t/1000).toFixed(3)+' us';g.appendChild(k);}}"
    "function zoom(f,c){var t=v0+(c-L)*(v1-v0)/W,n=Math.max(10,(v1-v0)*f);v0=t-(t-v0)*n/(v1-v0);"
    "v1=v0+n;lay();}"
    "s.addEventListener('wheel',function(e){e.preventDefault();var r=s.getBoundingClientRect();"
    "zoom(e.deltaY<0?0.8:1.25,e.clientX-r.left);},{passive:false});"
    "var drag=null;s.addEventListener('mousedown',function(e){drag=[e.clientX,v0,v1];});"
    "window.addEventListener('mouseup',function(){drag=null;});"
    "s.addEventListener('mousemove',function(e){var m=e.target.querySelector&&e.target."
    "querySelector('title');if(m)det.textContent=m.textContent;if(!drag)return;var d=(e.clientX-"
    "drag[0])*(drag[2]-drag[1])/W;v0=drag[1]-d;v1=drag[2]-d;lay();});"
    "document.getElementById('zoom-in').onclick=function(){zoom(0.5,L+W/2);};"
    "document.getElementById('zoom-out').onclick=function(){zoom(2,L+W/2);};"
    "document.getElementById('zoom-reset').onclick=function(){v0=0;v1=T;lay();};lay();})();";

static void put_page(ntsim_textout_t *o, page_t *p, uint32_t height)
{
    const ntsim_timeline_t *tl = p->tl;
    const ntsim_timeline_stats_t *st = &tl->stats;
    put(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<title>ntsim timeline</title>\n<style>%s</style></head>\n<body>\n"
           "<h1>ntsim timeline: ",
        page_style);
    put_esc(o, tl->processes[0].name);
    put(o, ", ");
    put_esc(o, tl->processes[1].name);
    put(o, "</h1>\n<p id=\"summary\">%llu spans, %llu instants, %llu unmatched, %llu drops "
           "(%llu events lost), %llu flows, %zu lanes, %llu device clocks (worst sync residual "
           "%.1f ns); time is the host clock from %llu ns, device times aligned.</p>\n"
           "<div id=\"controls\"><button id=\"zoom-in\">+</button><button id=\"zoom-out\">"
           "&#8722;</button><button id=\"zoom-reset\">reset</button> wheel to zoom, drag to "
           "pan, point at a mark for its details</div>\n<div id=\"detail\"></div>\n",
        (unsigned long long)st->spans, (unsigned long long)st->instants,
        (unsigned long long)(st->unmatched_start + st->unmatched_stop),
        (unsigned long long)st->drops, (unsigned long long)st->lost_events,
        (unsigned long long)st->flows, tl->nlanes, (unsigned long long)st->clocks,
        st->max_residual_ns, (unsigned long long)tl->t_min);
    put(o, "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%u\" "
           "data-label=\"%d\" data-plot=\"%d\" data-span=\"%llu\" data-t0=\"%llu\" "
           "data-spans=\"%llu\" data-lanes=\"%zu\">\n<g id=\"ticks\"></g>\n",
        LABEL_W + PLOT_W + 10, height, LABEL_W, PLOT_W, (unsigned long long)p->span,
        (unsigned long long)tl->t_min, (unsigned long long)st->spans, tl->nlanes);
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
    p.tl = &tl;
    p.depth = ntsim__calloc(tl.nitems + 1, sizeof *p.depth);
    p.lane_rows = ntsim__calloc(tl.nlanes + 1, sizeof *p.lane_rows);
    p.lane_y = ntsim__calloc(tl.nlanes + 1, sizeof *p.lane_y);
    p.by_lane = ntsim__malloc((tl.nitems + 1) * sizeof *p.by_lane);
    p.lane_first = ntsim__calloc(tl.nlanes + 2, sizeof *p.lane_first);
    p.span = tl.t_max > tl.t_min ? tl.t_max - tl.t_min : 1;
    ntsim_textout_t o = {{NULL, 0, 0}, NRT_SUCCESS};
    if (p.depth == NULL || p.lane_rows == NULL || p.lane_y == NULL || p.by_lane == NULL ||
        p.lane_first == NULL)
        o.st = NRT_RESOURCE;
    else /* a first capacity, a hint: text_put grows the buffer as it needs */
        (void)ntsim__growbuf_reserve(&o.b, 8192 + tl.nitems * 400);
    if (o.st == NRT_SUCCESS && (!group_by_lane(&p) || !lay_rows(&p)))
        o.st = NRT_RESOURCE;
    if (o.st == NRT_SUCCESS) {
        uint32_t y = AXIS_H;
        for (size_t l = 0; l < tl.nlanes; l++) {
            p.lane_y[l] = y + 4;
            y += (p.lane_rows[l] ? p.lane_rows[l] : 1) * ROW_H + LANE_GAP;
        }
        put_page(&o, &p, y);
    }
    /* Items lane by lane: one <g> each, marks in the order they begin. */
    for (size_t l = 0; l < tl.nlanes && o.st == NRT_SUCCESS; l++) {
        const ntsim_tl_lane_t *lane = &tl.lanes[l];
        uint32_t rows = p.lane_rows[l] ? p.lane_rows[l] : 1;
        put(&o, "<g class=\"lane\" data-lane=\"");
        put_esc(&o, lane->name);
        put(&o, "\" data-pid=\"%u\" data-tid=\"%u\" data-spans=\"%llu\" data-instants=\"%llu\">\n"
                "<rect class=\"lane-bg\" x=\"0\" y=\"%u\" width=\"%d\" height=\"%u\"/>"
                "<text class=\"lane-name\" x=\"4\" y=\"%u\">",
            lane->pid, lane->tid, (unsigned long long)lane->spans,
            (unsigned long long)lane->instants, p.lane_y[l] - 2, LABEL_W + PLOT_W + 10,
            rows * ROW_H + 4, p.lane_y[l] + 11);
        put_esc(&o, lane->name);
        put(&o, "</text>\n");
        for (size_t i = p.lane_first[l]; i < p.lane_first[l + 1]; i++)
            put_item(&o, &p, p.by_lane[i]);
        put(&o, "</g>\n");
    }
    if (o.st == NRT_SUCCESS) {
        put_flows(&o, &p);
        put(&o, "</svg>\n<script>%s</script>\n</body></html>\n", page_script);
    }
    ntsim__free(p.depth);
    ntsim__free(p.lane_rows);
    ntsim__free(p.lane_y);
    ntsim__free(p.by_lane);
    ntsim__free(p.lane_first);
    ntsim__timeline_free(&tl);
    if (o.st != NRT_SUCCESS) {
        ntsim__free(o.b.data);
        return o.st;
    }
    *out = (char *)o.b.data;
    *len = o.b.len;
    return NRT_SUCCESS;
}
