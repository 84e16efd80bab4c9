/*
 * engine/timeline/chrome_trace.c: the timeline (timeline.h) as Chrome trace-event JSON
 * (D-CHROME-JSON), the format most tools read:
 *
 *   {"traceEvents":[
 *     {"ph":"M","name":"process_name"|"thread_name"|..._sort_index, ...}
 *     {"ph":"X","name":N,"cat":C,"pid":P,"tid":T,"ts":us,"dur":us,"args":{...}}
 *     {"ph":"I","s":"t",...}                          an instant on its thread
 *     {"ph":"C","name":N,"pid":P,"ts":us,"args":{"events":V}}   a counter
 *     {"ph":"s",...} {"ph":"f","bp":"e",...}          nrt_execute -> nc_exec_running
 *   ],"otherData":{"ts_origin_ns":"...", ...}}
 *
 * ts and dur are microseconds with exactly three decimals, counted from
 * ts_origin_ns = 1 us before the first item, so no digit of a nanosecond is
 * lost (an epoch time in us as a double is not exact) and no event sits at
 * ts 0, which DevTools leaves out of the trace bounds. Instants are "I": the
 * DevTools trace engine ignores "i". A flow's "s" and "f" each bind to the slice
 * with the same (ts, pid, tid, cat); so the nrt_execute and the nc_exec_running
 * spans that flows join have the category "exec" (every other span's is its
 * lane's: "host", "device", "dma"). Flows to the other device spans stay in the
 * .pftrace only: cc_exec_barrier and cc_running begin at the same instant on
 * one lane, where the binding cannot tell them apart.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_view.h"
#include "growbuf.h"
#include "timeline.h"

typedef struct out {
    ntsim_textout_t t;
    uint64_t origin;          /* ns, host timeline: ts 0 */
} out_t;

void ntsim__text_put(ntsim_textout_t *o, const char *fmt, ...)
{
    if (o->st != NRT_SUCCESS)
        return;
    for (int tries = 0; tries < 2; tries++) {
        size_t room = o->b.cap - o->b.len;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(room ? (char *)o->b.data + o->b.len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            o->st = NRT_FAILURE;
            return;
        }
        if ((size_t)n < room) {
            o->b.len += (size_t)n;
            return;
        }
        if (ntsim__growbuf_reserve(&o->b, (size_t)n + 1) != NRT_SUCCESS) {
            o->st = NRT_RESOURCE;
            return;
        }
    }
}

#define put(o, ...) ntsim__text_put(&(o)->t, __VA_ARGS__)

/* A string as a JSON literal. */
static void put_str(out_t *o, const char *s)
{
    char buf[256];
    size_t need = ntsim_json_escape(s, strlen(s), buf, sizeof buf);
    if (need < sizeof buf) {
        put(o, "%s", buf);
        return;
    }
    put(o, "\"?\"");
}

/* Microseconds from the origin, three decimals. */
static void put_us(out_t *o, const char *key, uint64_t ns)
{
    uint64_t d = ns - o->origin;
    put(o, ",\"%s\":%llu.%03llu", key, (unsigned long long)(d / 1000),
        (unsigned long long)(d % 1000));
}

static const char *lane_cat(const ntsim_tl_lane_t *l)
{
    static const char *const cats[] = {"host", "device", "dma"};
    return cats[l->kind];
}

static bool joins_flow(const ntsim_timeline_t *tl, const ntsim_tl_item_t *it)
{
    if (it->type == NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC)
        return it->flow_in != 0;
    for (uint32_t f = 0; f < it->flows_count; f++)
        if (tl->items[tl->flows[it->flows_first + f].to].type ==
            NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC)
            return true;
    return false;
}

static void put_data(out_t *o, const char *prefix, const nrt_sys_trace_event_t *e, bool *first)
{
    const ntsim_data_view_t *v = ntsim__data_view((uint32_t)e->trace_type, (uint32_t)e->phase);
    for (size_t i = 0; i < v->count; i++) {
        const ntsim_data_key_t *k = &v->keys[i];
        uint64_t val = ntsim__data_value(k, &e->data);
        char text[40];
        if (!ntsim__data_format(k, val, text, sizeof text))
            continue;
        bool quoted = k->fmt == NTSIM_FMT_USAGE || k->fmt == NTSIM_FMT_HEX ||
                      k->fmt == NTSIM_FMT_ALGO;
        put(o, "%s\"%s%s\":%s%s%s", *first ? "" : ",", prefix, k->key_z, quoted ? "\"" : "",
            text, quoted ? "\"" : "");
        *first = false;
    }
}

static void put_args(out_t *o, const ntsim_timeline_t *tl, const ntsim_tl_item_t *it)
{
    const nrt_sys_trace_event_t *e = &tl->recs[it->rec];
    put(o, ",\"args\":{");
    if (it->flags & NTSIM_TL_DROP) {
        put(o, "\"lost_events\":%llu,\"next_nc_local_id\":%llu,\"nc_idx\":%u}",
            (unsigned long long)it->lost, (unsigned long long)e->nc_local_id, e->nc_idx);
        return;
    }
    bool first = true;
    put_data(o, "", e, &first);
    if (it->stop != NTSIM_TL_NONE)
        put_data(o, "stop.", &tl->recs[it->stop], &first);
    put(o, "%s\"tracking_id\":%llu,\"thread_id\":%llu,\"nc_idx\":%u,\"id\":%llu",
        first ? "" : ",", (unsigned long long)e->tracking_id, (unsigned long long)e->thread_id,
        e->nc_idx, (unsigned long long)e->id);
    if (it->type == NRT_SYS_TRACE_EVENT_TYPE_EXECUTE_API && it->exec_id != 0)
        put(o, ",\"exec_id\":%llu", (unsigned long long)it->exec_id);
    if (it->flags & NTSIM_TL_DEVICE)
        put(o, ",\"device_ns\":%llu,\"aligned\":%s", (unsigned long long)it->dev_begin,
            it->flags & NTSIM_TL_UNALIGNED ? "false" : "true");
    if (it->flags & NTSIM_TL_UNMATCHED_START)
        put(o, ",\"unmatched\":\"start: no STOP with this tracking_id\"");
    if (it->flags & NTSIM_TL_UNMATCHED_STOP)
        put(o, ",\"unmatched\":\"stop: no START with this tracking_id\"");
    put(o, "}");
}

static void put_item(out_t *o, const ntsim_timeline_t *tl, size_t index)
{
    const ntsim_tl_item_t *it = &tl->items[index];
    const ntsim_tl_lane_t *l = &tl->lanes[it->lane];
    bool span = (it->flags & NTSIM_TL_SPAN) != 0;
    bool flow = span && joins_flow(tl, it);
    const char *cat = flow ? "exec" : lane_cat(l);
    const char *name = ntsim__timeline_name(it->type);
    put(o, ",\n{\"ph\":\"%s\",\"name\":\"", span ? "X" : "I");
    if (it->flags & NTSIM_TL_DROP)
        put(o, "events lost");
    else if (it->flags & NTSIM_TL_UNMATCHED_START)
        put(o, "%s (unmatched start)", name);
    else if (it->flags & NTSIM_TL_UNMATCHED_STOP)
        put(o, "%s (unmatched stop)", name);
    else
        put(o, "%s", name);
    put(o, "\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u", cat, l->pid, l->tid);
    put_us(o, "ts", it->begin);
    if (span)
        put(o, ",\"dur\":%llu.%03llu", (unsigned long long)((it->end - it->begin) / 1000),
            (unsigned long long)((it->end - it->begin) % 1000));
    else
        put(o, ",\"s\":\"t\"");
    put_args(o, tl, it);
    put(o, "}");
    if (!flow)
        return;
    /* The flow phases, bound to this slice by (ts, pid, tid, cat). */
    if (it->type == NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC) {
        put(o, ",\n{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":%llu,"
               "\"pid\":%u,\"tid\":%u",
            (unsigned long long)it->flow_in, l->pid, l->tid);
        put_us(o, "ts", it->begin);
        put(o, "}");
        return;
    }
    for (uint32_t f = 0; f < it->flows_count; f++) {
        const ntsim_tl_flow_t *fl = &tl->flows[it->flows_first + f];
        if (tl->items[fl->to].type != NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC)
            continue;
        put(o, ",\n{\"ph\":\"s\",\"name\":\"execute\",\"cat\":\"exec\",\"id\":%llu,\"pid\":%u,"
               "\"tid\":%u",
            (unsigned long long)fl->id, l->pid, l->tid);
        put_us(o, "ts", it->begin);
        put(o, "}");
    }
}

static void put_metadata(out_t *o, const ntsim_timeline_t *tl)
{
    for (size_t p = 0; p < tl->nprocesses; p++) {
        put(o, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":",
            p == 0 ? "\n" : ",\n", tl->processes[p].pid);
        put_str(o, tl->processes[p].name);
        put(o, "}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"tid\":0,"
               "\"args\":{\"sort_index\":%zu}}",
            tl->processes[p].pid, p);
    }
    for (size_t l = 0; l < tl->nlanes; l++) {
        const ntsim_tl_lane_t *lane = &tl->lanes[l];
        put(o, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
            lane->pid, lane->tid);
        put_str(o, lane->name);
        put(o, "}},\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%u,"
               "\"args\":{\"sort_index\":%zu}}",
            lane->pid, lane->tid, l);
    }
}

NRT_STATUS ntsim_chrome_trace_serialize(const nrt_sys_trace_event_t *events, size_t count,
                                        const ntsim_timeline_options_t *options, char **out,
                                        size_t *len)
{
    ntsim_timeline_t tl;
    NRT_STATUS st = ntsim__timeline_begin(out, len != NULL, events, count, options, &tl);
    if (st != NRT_SUCCESS)
        return st;
    out_t o = {{{NULL, 0, 0}, NRT_SUCCESS}, tl.t_min >= 1000 ? tl.t_min - 1000 : 0};
    /* A first capacity, a hint: text_put grows the buffer as it needs (and
     * fails there when memory is short). */
    (void)ntsim__growbuf_reserve(&o.t.b, 256 + tl.nedges * 200);
    put(&o, "{\"traceEvents\":[");
    put_metadata(&o, &tl);
    for (size_t i = 0; i < tl.nedges && o.t.st == NRT_SUCCESS; i++) {
        const ntsim_tl_edge_t *ed = &tl.edges[i];
        if (ed->kind == NTSIM_TL_BEGIN || ed->kind == NTSIM_TL_INSTANT) {
            put_item(&o, &tl, ed->index);
        } else if (ed->kind == NTSIM_TL_SAMPLE) {
            const ntsim_tl_counter_t *c = &tl.counters[ed->index];
            put(&o, ",\n{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%u,\"tid\":0", c->name,
                tl.processes[c->process].pid);
            put_us(&o, "ts", ed->ts);
            put(&o, ",\"args\":{\"events\":%lld}}", (long long)ed->value);
        }
    }
    put(&o, "\n],\"otherData\":{\"ts_origin_ns\":\"%llu\",\"clock\":\"host CLOCK_REALTIME\","
            "\"spans\":%llu,\"instants\":%llu,\"unmatched\":%llu,\"drops\":%llu}}\n",
        (unsigned long long)o.origin, (unsigned long long)tl.stats.spans,
        (unsigned long long)tl.stats.instants,
        (unsigned long long)(tl.stats.unmatched_start + tl.stats.unmatched_stop),
        (unsigned long long)tl.stats.drops);
    ntsim__timeline_free(&tl);
    if (o.t.st != NRT_SUCCESS) {
        ntsim__free(o.t.b.data);
        return o.t.st;
    }
    *out = (char *)o.t.b.data;
    *len = o.t.b.len;
    return NRT_SUCCESS;
}
