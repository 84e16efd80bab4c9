/*
 * conformance/bench/bench_convert.c: what the readers cost (`make bench`).
 *
 * 1 M DMEM_BUF_COPYIN records (4 data keys each, the "4 attributes
 * per event") are serialized:
 *   - to JSON by ntsim's writer, and by jansson building and dumping the
 *     same document (its objects, then json_dumps);
 *   - to NTFF by ntsim (protobuf-c), and by C++ libprotobuf with an arena
 *     encoding the same messages (conformance/bench/ntff_cpp_peer.cc).
 * Then `ntsim stats` beside reading the same trace (D-STATS: within 1.5x of
 * it): the timeline records written as a JSON fetch document, an NTFF file
 * and a record dump, each timed with ntsim_trace_read_file (the records
 * kept) and with ntsim_stats_file (the scan and the analysis).
 * Each figure is the median of 3 rounds; ratios are within the same run.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nrt/nrt_sys_trace.h"
#include "ntsim/analyze.h"
#include "ntsim/convert.h"
#include "ntsim/read.h"

double ntsim_bench_cpp_encode(const nrt_sys_trace_event_t *events, size_t n, const char *hint,
                              uint64_t name_id, size_t *bytes_out);

enum { ROUNDS = 3 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, ROUNDS, sizeof *v, cmp_double);
    return v[ROUNDS / 2];
}

/* jansson: the same document, object by object. */
static size_t jansson_dump(const nrt_sys_trace_event_t *e, size_t n)
{
    json_t *events = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "event_type", json_string("dmem_buf_copyin"));
        json_object_set_new(o, "phase", json_string("instant"));
        json_object_set_new(o, "id", json_integer((json_int_t)e[i].id));
        json_object_set_new(o, "nc_idx", json_integer(e[i].nc_idx));
        json_object_set_new(o, "nc_local_id", json_integer((json_int_t)e[i].nc_local_id));
        json_object_set_new(o, "tracking_id", json_integer((json_int_t)e[i].tracking_id));
        json_object_set_new(o, "thread_id", json_integer((json_int_t)e[i].thread_id));
        json_object_set_new(o, "worker_gid", json_integer(e[i].nc_idx));
        json_t *d = json_object();
        const struct nrt_sys_trace_event_data_dmem_buf_copyin *c = &e[i].data.dmem_buf_copyin;
        json_object_set_new(d, "mem_type", json_integer(c->mem_type));
        json_object_set_new(d, "mem_handle", json_integer((json_int_t)c->mem_handle));
        json_object_set_new(d, "offset", json_integer(c->offset));
        json_object_set_new(d, "size", json_integer(c->size));
        json_object_set_new(o, "data", d);
        json_object_set_new(o, "timestamp_ns", json_integer((json_int_t)e[i].timestamp_ns));
        json_array_append_new(events, o);
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "events", events);
    json_object_set_new(doc, "data_version", json_integer(2));
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    size_t len = text ? strlen(text) : 0;
    free(text);
    json_decref(doc);
    return len;
}

/* The timeline exports (D-TIMELINE) beside the NTFF writer, on one run's kind
 * of records: n/2 EXEC_PRE spans (START and STOP paired by tracking id) on 4
 * threads and 2 NCs, each NC's nc_local_id dense. All three are timed on the
 * same records, the timeline model (pairing, lanes, sorting) included. */
static void bench_timelines(nrt_sys_trace_event_t *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = i / 2;
        memset(&e[i], 0, sizeof e[i]);
        e[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_EXEC_PRE;
        e[i].phase = i % 2 ? NRT_SYS_TRACE_EVENT_PHASE_STOP : NRT_SYS_TRACE_EVENT_PHASE_START;
        e[i].nc_idx = (uint32_t)(k & 1);
        e[i].nc_local_id = i / 2 / 2 * 2 + i % 2;
        e[i].id = e[i].nc_local_id | ((uint64_t)e[i].nc_idx << 50);
        e[i].tracking_id = k + 1;
        e[i].thread_id = 4242 + (k & 3);
        e[i].timestamp_ns = UINT64_C(1700000000000000000) + i * 37;
        e[i].data.exec_pre.exec_id = k + 1;
        e[i].data.exec_pre.model_id = 7;
    }
    double nt[ROUNDS], pf[ROUNDS], cj[ROUNDS];
    size_t ntff_bytes = 0, pf_bytes = 0, cj_bytes = 0;
    for (int r = 0; r < ROUNDS; r++) {
        uint8_t *bytes;
        char *text;
        size_t len;
        double t0 = now_s();
        ntsim_ntff_serialize(e, n, NULL, 0, NULL, &bytes, &len);
        nt[r] = now_s() - t0;
        ntff_bytes = len;
        ntsim_buffer_free(bytes);
        t0 = now_s();
        ntsim_pftrace_serialize(e, n, NULL, &bytes, &len);
        pf[r] = now_s() - t0;
        pf_bytes = len;
        ntsim_buffer_free(bytes);
        t0 = now_s();
        ntsim_chrome_trace_serialize(e, n, NULL, &text, &len);
        cj[r] = now_s() - t0;
        cj_bytes = len;
        ntsim_buffer_free(text);
    }
    double t = median(nt), p = median(pf), c = median(cj);
    printf("\ntimeline exports: %zu records (%zu EXEC_PRE spans, 2 data keys), median of %d\n", n,
           n / 2, ROUNDS);
    printf("%-36s %12s %10s   %s\n", "", "events/s", "MB/s", "vs NTFF");
    printf("%-36s %12.0f %10.1f\n", "ntsim NTFF (protobuf-c)", (double)n / t,
           (double)ntff_bytes / t / 1e6);
    printf("%-36s %12.0f %10.1f   %.2fx\n", "ntsim .pftrace (protobuf-c)", (double)n / p,
           (double)pf_bytes / p / 1e6, t / p);
    printf("%-36s %12.0f %10.1f   %.2fx\n", "ntsim Chrome trace JSON", (double)n / c,
           (double)cj_bytes / c / 1e6, t / c);
    printf("%-36s %12zu / %zu / %zu bytes\n", "NTFF / .pftrace / JSON size", ntff_bytes, pf_bytes,
           cj_bytes);
}

/* Writes len bytes to path; false when it cannot. */
static bool write_file(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return false;
    bool ok = fwrite(bytes, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* ntsim stats beside the read of the same file, per format: every fourth
 * EXEC_PRE span of the timeline records made an nc_exec_running span, so
 * that the busy time is computed too. */
static void bench_stats(nrt_sys_trace_event_t *e, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        if (i / 2 % 4 == 0) {
            e[i].trace_type = e[i + 1].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC;
            memset(&e[i].data, 0, sizeof e[i].data);
            memset(&e[i + 1].data, 0, sizeof e[i + 1].data);
            e[i].data.nc_exec_start.exec_id = (uint32_t)(i / 2 + 1);
        }
    char dir[] = "/tmp/ntsim_bench_XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("bench_convert: mkdtemp");
        return;
    }
    static const char *const names[3] = {"fetch JSON", "NTFF", "record dump"};
    char paths[3][64];
    char *json;
    uint8_t *ntff;
    size_t jlen, nlen;
    bool ok = ntsim_json_serialize(e, n, &json, &jlen) == NRT_SUCCESS &&
              ntsim_ntff_serialize(e, n, NULL, 0, NULL, &ntff, &nlen) == NRT_SUCCESS;
    for (int k = 0; k < 3; k++)
        snprintf(paths[k], sizeof paths[k], "%s/trace.%d", dir, k);
    ok = ok && write_file(paths[0], json, jlen) && write_file(paths[1], ntff, nlen) &&
         write_file(paths[2], e, n * sizeof *e);
    if (!ok) {
        fprintf(stderr, "bench_convert: cannot write the traces for ntsim stats\n");
        return;
    }
    nrt_sys_trace_buffer_free(json);
    ntsim_buffer_free(ntff);
    ntsim_read_limits_t limits = {(uint64_t)1 << 40, (uint64_t)n};
    printf("\nntsim stats beside reading the same trace: %zu records (%zu spans, a quarter "
           "nc_exec_running), median of %d\n", n, n / 2, ROUNDS);
    printf("%-36s %12s %12s   %s\n", "", "read, s", "stats, s", "stats / read (goal <= 1.5x)");
    for (int k = 0; k < 3; k++) {
        double rd[ROUNDS], st[ROUNDS], ratio[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            char err[256];
            ntsim_trace_t *t = NULL;
            ntsim_stats_report_t *rep = NULL;
            double t0 = now_s();
            NRT_STATUS a = ntsim_trace_read_file(paths[k], &limits, &t, err, sizeof err);
            rd[r] = now_s() - t0;
            ntsim_trace_free(t);
            t0 = now_s();
            NRT_STATUS b = ntsim_stats_file(paths[k], &limits, 10, &rep, err, sizeof err);
            st[r] = now_s() - t0;
            ntsim_stats_report_free(rep);
            if (a != NRT_SUCCESS || b != NRT_SUCCESS) {
                fprintf(stderr, "bench_convert: %s: %s\n", names[k], err);
                return;
            }
            ratio[r] = st[r] / rd[r];
        }
        double q = median(ratio);
        printf("%-36s %12.3f %12.3f   %.2fx%s\n", names[k], median(rd), median(st), q,
               q <= 1.5 ? "" : "  (goal missed)");
    }
    for (int k = 0; k < 3; k++)
        remove(paths[k]);
    remove(dir);
}

int main(int argc, char **argv)
{
    size_t n = 1000000;
    if (argc == 3 && strcmp(argv[1], "--events") == 0)
        n = strtoull(argv[2], NULL, 10);
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--events N]\n", argv[0]);
        return 2;
    }
    nrt_sys_trace_event_t *e = calloc(n, sizeof *e);
    if (e == NULL)
        return 1;
    for (size_t i = 0; i < n; i++) {
        e[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DMEM_BUF_COPYIN;
        e[i].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
        e[i].nc_idx = (uint32_t)(i & 1);
        e[i].id = i | ((uint64_t)(i & 1) << 50);
        e[i].nc_local_id = i;
        e[i].tracking_id = e[i].id;
        e[i].thread_id = 4242 + (i & 3);
        e[i].timestamp_ns = UINT64_C(1700000000000000000) + i * 37;
        e[i].data.dmem_buf_copyin.mem_type = 2;
        e[i].data.dmem_buf_copyin.mem_handle = UINT64_C(0x7f0000000000) + i * 4096;
        e[i].data.dmem_buf_copyin.offset = (uint32_t)(i * 64);
        e[i].data.dmem_buf_copyin.size = 4096;
    }
    double js[ROUNDS], jj[ROUNDS], nt[ROUNDS], cp[ROUNDS];
    size_t json_bytes = 0, jansson_bytes = 0, ntff_bytes = 0, cpp_bytes = 0;
    for (int k = 0; k < ROUNDS; k++) {
        double t0 = now_s();
        char *doc;
        size_t len;
        ntsim_json_serialize(e, n, &doc, &len);
        js[k] = now_s() - t0;
        json_bytes = len;
        nrt_sys_trace_buffer_free(doc);

        t0 = now_s();
        jansson_bytes = jansson_dump(e, n);
        jj[k] = now_s() - t0;

        t0 = now_s();
        uint8_t *bytes;
        ntsim_ntff_serialize(e, n, NULL, 0, NULL, &bytes, &len);
        nt[k] = now_s() - t0;
        ntff_bytes = len;
        ntsim_buffer_free(bytes);

        cp[k] = ntsim_bench_cpp_encode(e, n, "dmem_buf_copyin",
                                       ntsim_intern_name_id("dmem_buf_copyin"), &cpp_bytes);
    }
    double j = median(js), jn = median(jj), t = median(nt), c = median(cp);
    printf("\nconverters: %zu DMEM_BUF_COPYIN records, 4 data keys each, median of %d\n", n,
           ROUNDS);
    printf("%-36s %12s %10s   %s\n", "", "events/s", "MB/s", "vs peer");
    printf("%-36s %12.0f %10.1f   %.1fx jansson (target >= 30x, >= 2.5 M events/s)\n",
           "ntsim JSON writer", (double)n / j, (double)json_bytes / j / 1e6, jn / j);
    printf("%-36s %12.0f %10.1f\n", "jansson build + json_dumps", (double)n / jn,
           (double)jansson_bytes / jn / 1e6);
    printf("%-36s %12.0f %10.1f   %.2fx C++ libprotobuf (target >= 2x, >= 1 M events/s)\n",
           "ntsim NTFF (protobuf-c)", (double)n / t, (double)ntff_bytes / t / 1e6, c / t);
    printf("%-36s %12.0f %10.1f\n", "C++ libprotobuf, arena", (double)n / c,
           (double)cpp_bytes / c / 1e6);
    printf("%-36s %12zu bytes (C++: %zu)\n", "NTFF size", ntff_bytes, cpp_bytes);
    bench_timelines(e, n);
    bench_stats(e, n);
    free(e);
    return 0;
}
