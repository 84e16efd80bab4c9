/*
 * conformance/unit/engine/read/check_read_roundtrip.c: what ntsim writes, read
 * back through the public API only (ntsim/convert.h writes, ntsim/read.h
 * reads; D-READ): every record set the vectors write down and a default
 * run's files come back as the same 112 bytes, except what a format does not
 * keep. That part is not masked: the bytes each format must give back are
 * derived record by record from D-READ's list (kept() below), and compared
 * whole. The engine's data view says which payload fields a data key names
 * (the json vectors pin those keys against the facts); D-JSON-TIME's rule,
 * written out again here, says what time a JSON device event carries.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc_probe.h"
#include "check_suites.h"
#include "data_view.h"
#include "event_table.h"
#include "ntsim/convert.h"
#include "ntsim/read.h"
#include "run_files.h"
#include "sim.h"

#define TYPE_COUNT NRT_SYS_TRACE_EVENT_TYPE_COUNT
#define PHASE_INSTANT NRT_SYS_TRACE_EVENT_PHASE_INSTANT

/* --- what each format keeps (D-READ) --------------------------------------------------- */

static const ntsim_data_view_t *view_of(const nrt_sys_trace_event_t *e)
{
    return ntsim__data_view((uint32_t)e->trace_type, (uint32_t)e->phase);
}

static uint64_t field(const nrt_sys_trace_event_t *e, size_t offset, size_t size)
{
    return ntsim__data_field(&e->data, offset, size, false);
}

/* The exec_id a device event is aligned by: its payload's, or a STOP's, the
 * last START's of the same type, NC and tracking id (D-JSON-TIME). */
static bool exec_of(const nrt_sys_trace_event_t *set, size_t n, size_t i, uint64_t *exec)
{
    const nrt_sys_trace_event_t *e = &set[i];
    const ntsim_data_view_t *v = view_of(e);
    if (v->has_exec_id) {
        *exec = field(e, v->exec_id_offset, v->exec_id_size);
        return true;
    }
    bool found = false;
    for (size_t j = 0; j < n; j++) {
        const ntsim_data_view_t *w = view_of(&set[j]);
        if (set[j].phase == NRT_SYS_TRACE_EVENT_PHASE_START && w->nc_timestamp &&
            w->has_exec_id && set[j].trace_type == e->trace_type && set[j].nc_idx == e->nc_idx &&
            set[j].tracking_id == e->tracking_id) {
            *exec = field(&set[j], w->exec_id_offset, w->exec_id_size);
            found = true;
        }
    }
    return found;
}

/* The timestamp_ns a fetch document of the whole set gives record i
 * (D-JSON-TIME): the emit time, or for a device event its execution's last
 * sync point's cpu + (device time - the sync point's device time), a
 * TIMESTAMP_SYNC's own cpu time, or the raw device time without one. */
static uint64_t json_time(const nrt_sys_trace_event_t *set, size_t n, size_t i)
{
    const nrt_sys_trace_event_t *e = &set[i];
    const ntsim_data_view_t *v = view_of(e);
    if (!v->nc_timestamp)
        return e->timestamp_ns;
    uint64_t dev = field(e, v->nc_timestamp_offset, 8);
    if (e->trace_type == NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC)
        return field(e, v->cpu_timestamp_offset, 8);
    uint64_t exec, t = dev;
    if (!exec_of(set, n, i, &exec))
        return dev;
    for (size_t j = 0; j < n; j++) {
        const ntsim_data_view_t *w = view_of(&set[j]);
        if (set[j].trace_type == NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC && w->nc_timestamp &&
            w->has_exec_id && set[j].nc_idx == e->nc_idx &&
            field(&set[j], w->exec_id_offset, w->exec_id_size) == exec)
            t = field(&set[j], w->cpu_timestamp_offset, 8) +
                (dev - field(&set[j], w->nc_timestamp_offset, 8));
    }
    return t;
}

typedef enum { FORMAT_JSON, FORMAT_NTFF, FORMAT_DUMP } format_t;
static const char *const format_names[] = {"JSON", "NTFF", "dump"};

/* Record i of `set` as `format` gives it back (D-READ's list). */
static nrt_sys_trace_event_t kept(const nrt_sys_trace_event_t *set, size_t n, size_t i,
                                  format_t format)
{
    const nrt_sys_trace_event_t *e = &set[i];
    nrt_sys_trace_event_t k;
    if (format == FORMAT_DUMP)
        return *e;
    memset(&k, 0, sizeof k); /* padding, and every byte no key names */
    bool json = format == FORMAT_JSON;
    uint32_t type = (uint32_t)e->trace_type, phase = (uint32_t)e->phase;
    k.trace_type = json && type >= TYPE_COUNT ? (nrt_sys_trace_event_type_t)TYPE_COUNT
                                              : e->trace_type;
    k.phase = json && phase > 3 ? (nrt_sys_trace_event_phase_t)3 : e->phase;
    k.thread_id = json ? e->thread_id : (uint32_t)e->thread_id;
    k.id = e->id;
    k.nc_local_id = json ? e->nc_local_id : e->id & ((UINT64_C(1) << 50) - 1);
    k.tracking_id = e->tracking_id;
    k.timestamp_ns = json ? json_time(set, n, i) : e->timestamp_ns;
    k.nc_idx = e->nc_idx;
    bool has_seq = ((const unsigned char *)e)[offsetof(nrt_sys_trace_event_t, has_nrta_seq_id)];
    k.has_nrta_seq_id = has_seq;
    k.nrta_seq_id = has_seq ? e->nrta_seq_id : 0;
    /* The payload fields the (type, phase)'s data keys name; a
     * model_id=@exec_id key names the runtime's model, not a field. */
    const ntsim_data_view_t *v = view_of(e);
    for (size_t j = 0; j < v->count; j++) {
        const ntsim_data_key_t *key = &v->keys[j];
        if (key->exec_model)
            continue;
        unsigned char *to = (unsigned char *)&k.data + key->offset;
        memcpy(to, (const unsigned char *)&e->data + key->offset, key->size);
        if (key->fmt == NTSIM_FMT_BOOL)
            to[0] = to[0] != 0; /* written true or false */
    }
    return k;
}

/* Compares what `format` read back with kept(); describes the first
 * difference by field offset. */
static void check_kept(const char *what, format_t format, const nrt_sys_trace_event_t *set,
                       size_t n, const ntsim_trace_t *t)
{
    ck_assert_msg(t->event_count == n, "%s as %s: %zu records back, %zu written", what,
                  format_names[format], t->event_count, n);
    for (size_t i = 0; i < n; i++) {
        nrt_sys_trace_event_t want = kept(set, n, i, format);
        const unsigned char *a = (const unsigned char *)&want, *b = (const unsigned char *)&t->events[i];
        size_t at = 0;
        while (at < sizeof want && a[at] == b[at])
            at++;
        ck_assert_msg(at == sizeof want,
                      "%s as %s: record %zu (type %u, phase %u): byte 0x%02zx is 0x%02x, want "
                      "0x%02x",
                      what, format_names[format], i, (unsigned)set[i].trace_type,
                      (unsigned)set[i].phase, at, b[at], a[at]);
    }
}

/* --- the three formats, written and read back -------------------------------------------- */

static ntsim_trace_t *read_back(const char *what, const void *bytes, size_t len)
{
    ntsim_trace_t *t = NULL;
    char err[512] = "";
    ck_assert_msg(ntsim_trace_read(bytes, len, NULL, &t, err, sizeof err) == NRT_SUCCESS, "%s: %s",
                  what, err);
    return t;
}

/* The set written as a dump, a fetch document and NTFF (with `infos`), and
 * read back: each gives kept()'s records, NTFF the infos and the interned
 * names of the types it holds. A record NTFF cannot hold (a phase past
 * INSTANT, written INVALID) is left out of its round trip; the set with it is
 * refused where it is. Returns the records NTFF left out. */
static size_t round_trip(const char *what, const nrt_sys_trace_event_t *set, size_t n,
                         const ntsim_trace_info_t *infos, size_t info_count)
{
    ntsim_trace_t *t = read_back(what, set, n * sizeof *set);
    ck_assert_int_eq(t->format, NTSIM_TRACE_FORMAT_RECORDS);
    check_kept(what, FORMAT_DUMP, set, n, t);
    ntsim_trace_free(t);

    char *doc;
    size_t len;
    ck_assert_int_eq(ntsim_json_serialize(set, n, &doc, &len), NRT_SUCCESS);
    t = read_back(what, doc, len);
    nrt_sys_trace_buffer_free(doc);
    ck_assert_int_eq(t->format, NTSIM_TRACE_FORMAT_JSON);
    check_kept(what, FORMAT_JSON, set, n, t);
    ntsim_trace_free(t);

    nrt_sys_trace_event_t *held = malloc((n ? n : 1) * sizeof *held);
    ck_assert_ptr_nonnull(held);
    size_t m = 0, first_out = n;
    for (size_t i = 0; i < n; i++) {
        if ((uint32_t)set[i].phase <= PHASE_INSTANT)
            held[m++] = set[i];
        else if (first_out == n)
            first_out = i;
    }
    uint8_t *ntff;
    char err[256] = "";
    if (first_out < n) {
        ck_assert_int_eq(ntsim_ntff_serialize(set, n, NULL, 0, NULL, &ntff, &len), NRT_SUCCESS);
        ck_assert_int_eq(ntsim_trace_read(ntff, len, NULL, &t, err, sizeof err), NRT_INVALID);
        char want[64];
        snprintf(want, sizeof want, "events[%zu].phase: missing or INVALID", first_out);
        ck_assert_str_eq(err, want);
        ntsim_buffer_free(ntff);
    }
    ntsim_ntff_options_t opt = {3, "trn2", 77, 88, 2, NULL};
    ck_assert_int_eq(ntsim_ntff_serialize(held, m, infos, info_count, &opt, &ntff, &len),
                     NRT_SUCCESS);
    t = read_back(what, ntff, len);
    ntsim_buffer_free(ntff);
    ck_assert_int_eq(t->format, NTSIM_TRACE_FORMAT_NTFF);
    check_kept(what, FORMAT_NTFF, held, m, t);
    ck_assert_uint_eq(t->info_count, info_count);
    for (size_t i = 0; i < info_count; i++) {
        ck_assert_int_eq(t->infos[i].trace_type, infos[i].trace_type);
        ck_assert_int_eq(t->infos[i].block_type, infos[i].block_type);
        ck_assert_uint_eq(t->infos[i].nc_idx, infos[i].nc_idx);
        ck_assert_uint_eq(t->infos[i].payload_len, infos[i].payload_len);
        if (infos[i].payload_len > 0)
            ck_assert_mem_eq(t->infos[i].payload, infos[i].payload, infos[i].payload_len);
    }
    /* The names: one per type the events hold (of the table), each its
     * interned id (facts §5). */
    bool named[TYPE_COUNT] = {false}, held_type[TYPE_COUNT] = {false};
    for (size_t i = 0; i < m; i++)
        if ((uint32_t)held[i].trace_type < TYPE_COUNT)
            held_type[held[i].trace_type] = true;
    for (size_t i = 0; i < t->name_count; i++) {
        ck_assert_uint_eq(t->names[i].id, ntsim_intern_name_id(t->names[i].name));
        size_t type = 0;
        while (type < TYPE_COUNT &&
               t->names[i].id != ntsim_intern_name_id(ntsim__event_type_desc((uint32_t)type)->json_name))
            type++;
        ck_assert_msg(type < TYPE_COUNT && held_type[type] && !named[type], "%s: name %s", what,
                      t->names[i].name);
        named[type] = true;
    }
    for (size_t type = 0; type < TYPE_COUNT; type++)
        ck_assert_msg(named[type] == held_type[type], "%s: type %zu named %d", what, type,
                      named[type]);
    ck_assert_str_eq(t->arch, "trn2");
    ck_assert_uint_eq(t->pid, 77);
    ck_assert_uint_eq(t->session_id, 88);
    ck_assert_uint_eq(t->logical_nc_size, 2);
    ck_assert_uint_eq(t->data_version, NTSIM_NTFF_DATA_VERSION);
    ntsim_trace_free(t);
    free(held);
    return n - m;
}

/* Every record set the vectors write down (json and ntff vectors' records,
 * record vectors' drained records; an ntff vector's trace infos with them),
 * as every format. */
START_TEST(test_read_roundtrip_every_vector_record_set)
{
    size_t sets[3] = {0}, records = 0, left_out = 0;
    static const char *const kinds[3] = {"json", "ntff", "record"};
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL); /* phase mismatches warn on purpose */
    for (size_t i = 0; i < ntsim_check_vectors.count; i++) {
        const ntsim_vector_t *v = &ntsim_check_vectors.vectors[i];
        if (v->kind->records == NULL)
            continue;
        const nrt_sys_trace_event_t *set;
        size_t n = v->kind->records(v->body, &set);
        ntsim_trace_info_t infos[64];
        size_t info_count = v->kind->infos ? v->kind->infos(v->body, infos, 64) : 0;
        ck_assert_uint_le(info_count, 64);
        left_out += round_trip(v->id, set, n, infos, info_count);
        records += n;
        for (size_t k = 0; k < 3; k++)
            sets[k] += strcmp(v->kind->name, kinds[k]) == 0;
    }
    ntsim_log_set_sink(NULL, NULL);
    ntsim_json_reset_stats();
    for (size_t k = 0; k < 3; k++)
        ck_assert_msg(sets[k] > 0, "no %s vector wrote records down", kinds[k]);
    /* Some sets hold a phase past INSTANT (json.phase.*), so NTFF's refusal
     * was seen too. */
    ck_assert_uint_gt(left_out, 0);
    printf("read_roundtrip: %zu vector record sets (%zu json, %zu ntff, %zu record), %zu records; "
           "%zu past INSTANT left out of NTFF\n",
           sets[0] + sets[1] + sets[2], sets[0], sets[1], sets[2], records, left_out);
}
END_TEST

/* A default run's own files, as ntsim run writes them (trace.json in
 * batches, trace.ntff, notifications.ntff, the --records dump), read back
 * against the records the run drained. */
START_TEST(test_read_roundtrip_a_default_run)
{
    ntsim_scenario_t sc;
    ntsim_scenario_default(&sc);
    char *bytes[RUN_FILES];
    size_t lens[RUN_FILES];
    ntsim_run_keep_t keep = {SIZE_MAX, NULL, 0, 0, false};
    ntsim_run_result_t res;
    ntsim_outputs_t o;
    run_default_files(bytes, lens, &keep, &res, &o);
    ck_assert_uint_eq(keep.count, res.record_count);
    ck_assert_uint_gt(keep.count, 1000);
    static const format_t formats[3] = {FORMAT_JSON, FORMAT_NTFF, FORMAT_DUMP};
    static const char *const files[3] = {"trace.json", "trace.ntff", "the record dump"};
    const size_t file_of[3] = {RUN_JSON, RUN_NTFF, RUN_RECORDS};
    for (size_t k = 0; k < 3; k++) {
        ntsim_trace_t *t = read_back(files[k], bytes[file_of[k]], lens[file_of[k]]);
        check_kept(files[k], formats[k], keep.records, keep.count, t);
        if (formats[k] == FORMAT_NTFF) {
            char arch[NTSIM_SIM_ARCH_CAP];
            uint32_t nd[NTSIM_NC_COUNT];
            ntsim_ntff_options_t opt;
            ntsim_sim_ntff_options(&sc, arch, nd, &opt);
            ck_assert_str_eq(t->arch, opt.arch);
            ck_assert_uint_eq(t->session_id, opt.session_id);
            ck_assert_uint_eq(t->logical_nc_size, opt.logical_nc_size);
        }
        ntsim_trace_free(t);
    }
    ntsim_trace_t *t = read_back("notifications.ntff", bytes[RUN_NOTIF], lens[RUN_NOTIF]);
    ck_assert_uint_eq(t->event_count, 0);
    ck_assert_uint_eq(t->info_count, res.info_count);
    ck_assert_uint_gt(t->info_count, 0);
    ntsim_trace_free(t);
    for (size_t k = 0; k < RUN_FILES; k++)
        free(bytes[k]);
    free(keep.records);
}
END_TEST

/* --- the format, by content ---------------------------------------------------------------- */

/* A dump whose first record is of any type (every other field all ones)
 * is a dump (D-READ: its bytes 1 and 2 are 0), and so is an empty file. */
START_TEST(test_read_tells_a_dump_of_any_first_type)
{
    for (uint32_t type = 0; type < TYPE_COUNT; type++) {
        nrt_sys_trace_event_t r[2];
        memset(r, 0xff, sizeof r);
        memset(&r[0], 0, 8); /* trace_type and the padding after it */
        r[0].trace_type = (nrt_sys_trace_event_type_t)type;
        ck_assert_msg(ntsim_trace_format_detect(r, sizeof r, sizeof r) ==
                          NTSIM_TRACE_FORMAT_RECORDS,
                      "type %u", type);
    }
    ck_assert_int_eq(ntsim_trace_format_detect("", 0, 0), NTSIM_TRACE_FORMAT_RECORDS);
}
END_TEST

/* D-READ rule 1 takes a key's number to be at least 1: an events field of
 * length 0 then a key of number 0 and wire type 5 (0x05) with its four
 * bytes are no protobuf fields, and the first byte that is not JSON
 * whitespace is 0x00: a record dump (rule 4). */
START_TEST(test_detect_takes_no_field_numbered_0_for_protobuf)
{
    static const uint8_t b[] = {0x0a, 0x00, 0x05, 1, 2, 3, 4};
    ck_assert_int_eq(ntsim_trace_format_detect(b, sizeof b, sizeof b), NTSIM_TRACE_FORMAT_RECORDS);
}
END_TEST

/* ntsim's own timelines given as input are named and refused; the same
 * bytes under any name. */
START_TEST(test_read_names_the_timelines_it_does_not_read)
{
    nrt_sys_trace_event_t r[1] = {{0}};
    r[0].trace_type = NRT_SYS_TRACE_EVENT_TYPE_EXECUTE_API;
    r[0].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    uint8_t *pf;
    char *chrome, *html;
    size_t pf_len, chrome_len, html_len;
    ck_assert_int_eq(ntsim_pftrace_serialize(r, 1, NULL, &pf, &pf_len), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_chrome_trace_serialize(r, 1, NULL, &chrome, &chrome_len), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_timeline_html_serialize(r, 1, NULL, &html, &html_len), NRT_SUCCESS);
    const struct {
        const void *bytes;
        size_t len;
        ntsim_trace_format_t format;
        const char *err;
    } cases[] = {
        {pf, pf_len, NTSIM_TRACE_FORMAT_PERFETTO,
         "a Perfetto trace: ntsim reads fetch JSON, NTFF or record dumps"},
        {chrome, chrome_len, NTSIM_TRACE_FORMAT_CHROME_JSON,
         "a Chrome trace JSON: ntsim reads fetch JSON, NTFF or record dumps"},
        {"  [{\"ph\":\"X\"}]", 14, NTSIM_TRACE_FORMAT_CHROME_JSON,
         "a Chrome trace JSON: ntsim reads fetch JSON, NTFF or record dumps"},
        {html, html_len, NTSIM_TRACE_FORMAT_HTML,
         "an HTML timeline page: ntsim reads fetch JSON, NTFF or record dumps"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_int_eq(ntsim_trace_format_detect(cases[i].bytes, cases[i].len, cases[i].len),
                         cases[i].format);
        ntsim_trace_t *t = (ntsim_trace_t *)&t;
        char err[256] = "";
        ck_assert_int_eq(ntsim_trace_read(cases[i].bytes, cases[i].len, NULL, &t, err, sizeof err),
                         NRT_INVALID);
        ck_assert_str_eq(err, cases[i].err);
        ck_assert_ptr_null(t);
    }
    /* "traceEvents" after other keys is still a Chrome trace; "events" first
     * is a fetch document. */
    static const char late[] = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[]}";
    ck_assert_int_eq(ntsim_trace_format_detect(late, sizeof late - 1, sizeof late - 1),
                     NTSIM_TRACE_FORMAT_CHROME_JSON);
    static const char fetch[] = "{\"events\":[],\"data_version\":2}";
    ck_assert_int_eq(ntsim_trace_format_detect(fetch, sizeof fetch - 1, sizeof fetch - 1),
                     NTSIM_TRACE_FORMAT_JSON);
    ntsim_buffer_free(pf);
    ntsim_buffer_free(chrome);
    ntsim_buffer_free(html);
}
END_TEST

/* An NTFF named ntrace.pb (an inspect session's file) is read as NTFF: the
 * name says nothing, the bytes do. */
START_TEST(test_read_file_named_ntrace_pb_is_ntff)
{
    nrt_sys_trace_event_t r[2] = {{0}};
    r[0].trace_type = r[1].trace_type = NRT_SYS_TRACE_EVENT_TYPE_EXECUTE_API;
    r[1].phase = NRT_SYS_TRACE_EVENT_PHASE_STOP;
    r[0].timestamp_ns = 5;
    r[1].timestamp_ns = 9;
    char dir[] = "/tmp/ntsim_read_XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/ntrace.pb", dir);
    ck_assert_int_eq(ntsim_ntff_write_file(path, r, 2, NULL, 0, NULL), NRT_SUCCESS);
    ntsim_trace_t *t;
    char err[512];
    ck_assert_msg(ntsim_trace_read_file(path, NULL, &t, err, sizeof err) == NRT_SUCCESS, "%s", err);
    ck_assert_int_eq(t->format, NTSIM_TRACE_FORMAT_NTFF);
    check_kept("ntrace.pb", FORMAT_NTFF, r, 2, t);
    ntsim_trace_free(t);
    /* Its limit: a file one byte over max_bytes is refused before it is read. */
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    fclose(f);
    ntsim_read_limits_t limits = {(uint64_t)size - 1, NTSIM_READ_MAX_EVENTS};
    ck_assert_int_eq(ntsim_trace_read_file(path, &limits, &t, err, sizeof err), NRT_INVALID);
    char want[256];
    snprintf(want, sizeof want, "%s: file too large (%ld bytes, limit %ld)", path, size, size - 1);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* D-ALLOCATOR: each block the reader takes failing in turn gives
 * NRT_RESOURCE ("out of memory") with nothing left allocated, for every
 * format, protobuf-c's blocks included; then the trace comes back whole. */
START_TEST(test_read_runs_out_of_memory_cleanly)
{
    nrt_sys_trace_event_t r[3] = {{0}};
    for (size_t i = 0; i < 3; i++) {
        r[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_ALLOC;
        r[i].id = 10 + i;
        r[i].nc_local_id = 10 + i;
    }
    r[1].phase = NRT_SYS_TRACE_EVENT_PHASE_STOP;
    ntsim_trace_info_t info = {1, 0, 3, (const uint8_t *)"abcd", 4};
    char *doc;
    uint8_t *ntff;
    size_t jlen, nlen;
    ck_assert_int_eq(ntsim_json_serialize(r, 3, &doc, &jlen), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_ntff_serialize(r, 3, &info, 1, NULL, &ntff, &nlen), NRT_SUCCESS);
    const struct {
        const void *bytes;
        size_t len;
    } files[] = {{doc, jlen}, {ntff, nlen}, {r, sizeof r}};
    for (size_t f = 0; f < 3; f++) {
        for (uint64_t allow = 0;; allow++) {
            ck_assert_uint_lt(allow, 1000);
            ntsim_trace_t *t = NULL;
            char err[64] = "";
            ntsim_probe_begin(allow);
            NRT_STATUS st = ntsim_trace_read(files[f].bytes, files[f].len, NULL, &t, err,
                                             sizeof err);
            ntsim_probe_end();
            if (st != NRT_SUCCESS) {
                ck_assert_int_eq(st, NRT_RESOURCE);
                ck_assert_str_eq(err, "out of memory");
                ck_assert_ptr_null(t);
                ck_assert_msg(ntsim_probe.live == 0, "file %zu, allow %u: %zu blocks left", f,
                              (unsigned)allow, ntsim_probe.live);
                continue;
            }
            ck_assert_uint_eq(t->event_count, 3);
            ck_assert_uint_eq(t->info_count, f == 1 ? 1 : 0);
            ck_assert_uint_eq(ntsim_probe.refused, 0);
            ntsim_trace_free(t);
            break;
        }
    }
    nrt_sys_trace_buffer_free(doc);
    ntsim_buffer_free(ntff);
}
END_TEST

Suite *make_read_roundtrip_suite(void)
{
    Suite *s = suite_create("read_roundtrip");
    TCase *tc = tcase_create("read_roundtrip");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_read_roundtrip_every_vector_record_set);
    tcase_add_test(tc, test_read_roundtrip_a_default_run);
    tcase_add_test(tc, test_read_tells_a_dump_of_any_first_type);
    tcase_add_test(tc, test_detect_takes_no_field_numbered_0_for_protobuf);
    tcase_add_test(tc, test_read_names_the_timelines_it_does_not_read);
    tcase_add_test(tc, test_read_file_named_ntrace_pb_is_ntff);
    tcase_add_test(tc, test_read_runs_out_of_memory_cleanly);
    suite_add_tcase(s, tc);
    return s;
}
