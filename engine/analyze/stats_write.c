/*
 * engine/analyze/stats_write.c: a stats report written (ntsim/analyze.h;
 * D-STATS): one JSON document, its schema docs/stats.schema.json, or tables
 * for a reader. The writers write to a stream the caller opened and check
 * it once at the end (a stream that failed stays failed: ferror).
 *
 * The document, its keys in this order (one array element a line):
 *   {"events":N,
 *    "types":[{"type":NAME,"events":N,"spans":N,"unmatched_start":N,
 *              "unmatched_stop":N,"duration_ns":{"min":N,"p50":N,"p90":N,
 *              "p99":N,"max":N,"total":N} or null when spans is 0}, ...],
 *    "slowest":[{"type":NAME,"nc_idx":N,"tracking_id":N,["exec_id":N,]
 *                "start_ns":N,"duration_ns":N}, ...],
 *    "ncs":[{"nc_idx":N,"events":N,"lost":N,"busy_ns":N}, ...]}
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "ntsim/analyze.h"

static NRT_STATUS stream_status(FILE *out)
{
    if (ferror(out)) {
        if (errno == 0)
            errno = EIO;
        return NRT_FAILURE;
    }
    return NRT_SUCCESS;
}

/* Each array's elements, a line each; "[]" when none. */
static void open_array(FILE *out, const char *key, size_t i)
{
    fprintf(out, i == 0 ? ",\"%s\":[\n" : ",\n", key);
}

static void close_array(FILE *out, const char *key, size_t n)
{
    fputs(n == 0 ? "" : "\n]", out);
    if (n == 0)
        fprintf(out, ",\"%s\":[]", key);
}

NRT_STATUS ntsim_stats_write_json(const ntsim_stats_report_t *r, FILE *out)
{
    if (r == NULL || out == NULL)
        return NRT_INVALID;
    fprintf(out, "{\"events\":%" PRIu64, r->events);
    for (size_t i = 0; i < r->type_count; i++) {
        const ntsim_stats_type_t *t = &r->types[i];
        const ntsim_stats_durations_t *d = &t->duration_ns;
        open_array(out, "types", i);
        fprintf(out, "{\"type\":\"%s\",\"events\":%" PRIu64 ",\"spans\":%" PRIu64
                     ",\"unmatched_start\":%" PRIu64 ",\"unmatched_stop\":%" PRIu64
                     ",\"duration_ns\":",
                t->name, t->events, t->spans, t->unmatched_start, t->unmatched_stop);
        if (t->spans == 0)
            fputs("null}", out);
        else
            fprintf(out, "{\"min\":%" PRIu64 ",\"p50\":%" PRIu64 ",\"p90\":%" PRIu64
                         ",\"p99\":%" PRIu64 ",\"max\":%" PRIu64 ",\"total\":%" PRIu64 "}}",
                    d->min, d->p50, d->p90, d->p99, d->max, d->total);
    }
    close_array(out, "types", r->type_count);
    for (size_t i = 0; i < r->slowest_count; i++) {
        const ntsim_stats_span_t *s = &r->slowest[i];
        open_array(out, "slowest", i);
        fprintf(out, "{\"type\":\"%s\",\"nc_idx\":%" PRIu32 ",\"tracking_id\":%" PRIu64, s->name,
                s->nc_idx, s->tracking_id);
        if (s->has_exec_id)
            fprintf(out, ",\"exec_id\":%" PRIu64, s->exec_id);
        fprintf(out, ",\"start_ns\":%" PRIu64 ",\"duration_ns\":%" PRIu64 "}", s->start_ns,
                s->duration_ns);
    }
    close_array(out, "slowest", r->slowest_count);
    for (size_t i = 0; i < r->nc_count; i++) {
        const ntsim_stats_nc_t *n = &r->ncs[i];
        open_array(out, "ncs", i);
        fprintf(out, "{\"nc_idx\":%" PRIu32 ",\"events\":%" PRIu64 ",\"lost\":%" PRIu64
                     ",\"busy_ns\":%" PRIu64 "}",
                n->nc_idx, n->events, n->lost, n->busy_ns);
    }
    close_array(out, "ncs", r->nc_count);
    fputs("}\n", out);
    return stream_status(out);
}

NRT_STATUS ntsim_stats_write_text(const ntsim_stats_report_t *r, FILE *out)
{
    if (r == NULL || out == NULL)
        return NRT_INVALID;
    fprintf(out, "%" PRIu64 " events, %zu event types, %zu NCs\n", r->events, r->type_count,
            r->nc_count);
    if (r->type_count > 0)
        fprintf(out, "\n%-38s %9s %8s %9s  %12s %12s %12s %12s %12s %14s\n", "span durations (ns)",
                "events", "spans", "unmatched", "min", "p50", "p90", "p99", "max", "total");
    for (size_t i = 0; i < r->type_count; i++) {
        const ntsim_stats_type_t *t = &r->types[i];
        const ntsim_stats_durations_t *d = &t->duration_ns;
        char unmatched[48];
        snprintf(unmatched, sizeof unmatched, "%" PRIu64 "/%" PRIu64, t->unmatched_start,
                 t->unmatched_stop);
        fprintf(out, "%-38s %9" PRIu64 " %8" PRIu64 " %9s", t->name, t->events, t->spans,
                unmatched);
        if (t->spans > 0)
            fprintf(out, "  %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
                         " %14" PRIu64,
                    d->min, d->p50, d->p90, d->p99, d->max, d->total);
        fputc('\n', out);
    }
    if (r->type_count > 0)
        fputs("  (unmatched: STARTs without their STOP / STOPs without a START)\n", out);
    if (r->slowest_count > 0)
        fprintf(out, "\nthe %zu slowest spans\n  %14s %22s  %-30s %6s %20s %12s\n",
                r->slowest_count, "duration_ns", "start_ns", "type", "nc", "tracking_id",
                "exec_id");
    for (size_t i = 0; i < r->slowest_count; i++) {
        const ntsim_stats_span_t *s = &r->slowest[i];
        char exec[24] = "-";
        if (s->has_exec_id)
            snprintf(exec, sizeof exec, "%" PRIu64, s->exec_id);
        fprintf(out, "  %14" PRIu64 " %22" PRIu64 "  %-30s %6" PRIu32 " %20" PRIu64 " %12s\n",
                s->duration_ns, s->start_ns, s->name, s->nc_idx, s->tracking_id, exec);
    }
    if (r->nc_count > 0)
        fprintf(out, "\nper NC %12s %12s %16s\n", "events", "lost", "busy_ns");
    for (size_t i = 0; i < r->nc_count; i++) {
        const ntsim_stats_nc_t *n = &r->ncs[i];
        fprintf(out, "  nc %-4" PRIu32 "%11" PRIu64 " %12" PRIu64 " %16" PRIu64 "\n", n->nc_idx,
                n->events, n->lost, n->busy_ns);
    }
    if (r->nc_count > 0)
        fputs("  (lost: nc_local_ids missing below the highest; busy: the union of its "
              "nc_exec_running spans)\n", out);
    return stream_status(out);
}
