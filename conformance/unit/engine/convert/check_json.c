/*
 * conformance/unit/engine/convert/check_json.c: the JSON exporter's API (fetch, free, escaping,
 * the worker_gid map) and the one table's JSON key column. The documents
 * themselves are pinned by vectors/json_*.yaml.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "alloc_probe.h"
#include "capture_fixture.h"
#include "check_suites.h"
#include "data_view.h"
#include "ntsim/convert.h"
#include "time_sync.h"

static const uint32_t ncs_0_1[] = {0, 1};

static void setup(void)
{
    ntsim_fixture_begin(1000, 1, 7);
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, ncs_0_1, 2);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
}

static void teardown(void)
{
    ntsim_probe_end();
    ck_assert_int_eq(ntsim_json_set_gid_map(NULL, 0), NRT_SUCCESS);
    ntsim_fixture_end();
}

static void emit_generic(uint32_t nc, int n)
{
    for (int i = 0; i < n; i++)
        nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_GENERIC,
                                NRT_SYS_TRACE_EVENT_PHASE_INSTANT, nc, NULL, 100 + (uint64_t)i);
}

static size_t count_events(const char *doc)
{
    json_error_t err;
    json_t *root = json_loads(doc, 0, &err);
    ck_assert_msg(root != NULL, "not JSON: %s", err.text);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "data_version")), 2);
    size_t n = json_array_size(json_object_get(root, "events"));
    json_decref(root);
    return n;
}

START_TEST(test_fetch_rejects_null_out_pointers_and_leaves_the_rings)
{
    emit_generic(0, 3);
    char *buf = NULL;
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(NULL, &n, NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, NULL, NULL), NRT_INVALID);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.in_ring, 3);
    ck_assert_uint_eq(st.drained, 0);
}
END_TEST

/* facts §2: a non-NULL *buffer on entry is a warning and an error. */
START_TEST(test_fetch_rejects_a_buffer_already_set)
{
    emit_generic(0, 1);
    char not_null = 'x';
    char *buf = &not_null;
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_INVALID);
    ck_assert_ptr_eq(buf, &not_null);
    ck_assert_uint_eq(ntsim_fixture.warnings, 1);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.in_ring, 1);
}
END_TEST

START_TEST(test_fetch_returns_a_nul_terminated_document_and_consumes_the_events)
{
    emit_generic(0, 2);
    emit_generic(1, 3);
    char *buf = NULL;
    size_t n = 0;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_SUCCESS);
    ck_assert_uint_eq(strlen(buf), n);
    ck_assert_uint_eq(count_events(buf), 5);
    /* Ascending NC, ring order: NC 0's two first. */
    ck_assert_ptr_nonnull(strstr(buf, "\"tracking_id\":100,\"thread_id\":7,\"worker_gid\":0"));
    nrt_sys_trace_buffer_free(buf);
    buf = NULL;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_SUCCESS);
    ck_assert_str_eq(buf, "{\"events\":[],\"data_version\":2}");
    ck_assert_uint_eq(n, strlen("{\"events\":[],\"data_version\":2}"));
    nrt_sys_trace_buffer_free(buf);
}
END_TEST

START_TEST(test_fetch_honours_nc_idx_and_max_events_per_nc)
{
    emit_generic(0, 5);
    emit_generic(1, 4);
    nrt_sys_trace_fetch_options_t o;
    nrt_sys_trace_fetch_options_set_defaults(&o);
    nrt_sys_trace_fetch_options_set_nc_idx(&o, 1);
    nrt_sys_trace_fetch_options_set_max_events_per_nc(&o, 3);
    char *buf = NULL;
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, &o), NRT_SUCCESS);
    ck_assert_uint_eq(count_events(buf), 3);
    nrt_sys_trace_buffer_free(buf);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(1, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.in_ring, 1);
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.in_ring, 5);
    /* All NCs, at most 2 each. */
    nrt_sys_trace_fetch_options_set_nc_idx(&o, UINT64_MAX);
    nrt_sys_trace_fetch_options_set_max_events_per_nc(&o, 2);
    buf = NULL;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, &o), NRT_SUCCESS);
    ck_assert_uint_eq(count_events(buf), 3); /* 2 from NC 0, the last 1 of NC 1 */
    nrt_sys_trace_buffer_free(buf);
}
END_TEST

START_TEST(test_fetch_rejects_an_out_of_range_nc_idx)
{
    emit_generic(0, 1);
    nrt_sys_trace_fetch_options_t o;
    nrt_sys_trace_fetch_options_set_defaults(&o);
    nrt_sys_trace_fetch_options_set_nc_idx(&o, 256); /* D-FETCH-NC: kept as out of range */
    char *buf = NULL;
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, &o), NRT_INVALID);
    ck_assert_ptr_null(buf);
    o.nc_idx = -2;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, &o), NRT_INVALID);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.in_ring, 1);
}
END_TEST

/* D-FETCH: not capturing is an empty document, not an error. */
START_TEST(test_fetch_while_not_capturing_is_an_empty_document)
{
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    char *buf = NULL;
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_SUCCESS);
    ck_assert_str_eq(buf, "{\"events\":[],\"data_version\":2}");
    nrt_sys_trace_buffer_free(buf);
}
END_TEST

/* facts §2: worker_gid = gid_map[nc_idx], -1 beyond the map. */
START_TEST(test_worker_gid_comes_from_the_map)
{
    emit_generic(0, 1);
    emit_generic(1, 1);
    const int32_t map[] = {42};
    ck_assert_int_eq(ntsim_json_set_gid_map(map, 1), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_json_set_gid_map(map, 257), NRT_INVALID);
    char *buf = NULL;
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(buf, "\"nc_idx\":0,\"nc_local_id\":0,\"tracking_id\":100,"
                                      "\"thread_id\":7,\"worker_gid\":42"));
    ck_assert_ptr_nonnull(strstr(buf, "\"nc_idx\":1,\"nc_local_id\":0,\"tracking_id\":100,"
                                      "\"thread_id\":7,\"worker_gid\":-1"));
    nrt_sys_trace_buffer_free(buf);
}
END_TEST

/* facts §2: escape \" \\ \b \t \n \f \r, other bytes < 0x20 as \u00xx. */
START_TEST(test_json_escape_covers_quotes_backslash_and_control_bytes)
{
    char out[128];
    const char in[] = "a\"b\\c\b\t\n\f\r\x01\x1f\x7f";
    size_t n = ntsim_json_escape(in, sizeof in - 1, out, sizeof out);
    ck_assert_str_eq(out, "\"a\\\"b\\\\c\\b\\t\\n\\f\\r\\u0001\\u001f\x7f\"");
    ck_assert_uint_eq(n, strlen(out));
    /* Embedded NUL is escaped, not a terminator. */
    n = ntsim_json_escape("a\0b", 3, out, sizeof out);
    ck_assert_str_eq(out, "\"a\\u0000b\"");
    /* Too small: snprintf-like, returns the size it needs. */
    ck_assert_uint_eq(ntsim_json_escape("abc", 3, out, 3), 5);
    ck_assert_str_eq(out, "\"a");
}
END_TEST

/* Every key list of the table compiles against its payload (the table
 * cannot name a field that is not there). */
START_TEST(test_json_keys_name_real_fields)
{
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (uint32_t ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++) {
            ntsim_data_view_t v;
            const char *err = ntsim__data_view_compile(ntsim__event_types[t].json_keys[ph],
                                                      ntsim__event_payload(t, ph), &v);
            ck_assert_msg(err == NULL, "%s phase %u: %s", ntsim__event_types[t].enum_name, ph,
                          err);
        }
    ntsim_data_view_t v;
    ck_assert_ptr_nonnull(ntsim__data_view_compile("nope", NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_ptr_nonnull(ntsim__data_view_compile("x=sync_info.nope", NTSIM_PAYLOAD_HW_NOTIFY,
                                                  &v));
    ck_assert_ptr_nonnull(ntsim__data_view_compile("hint%bad", NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_ptr_nonnull(ntsim__data_view_compile("model_id", NTSIM_PAYLOAD_NONE, &v));
    /* The grammar's edges (event_table.h, data_view.c): an empty key; a key
     * that fits key_z[48] (47 bytes) or not; a dotted path whose head is not
     * a field; both sync_info members; each %format, and a near miss. */
    ck_assert_ptr_nonnull(ntsim__data_view_compile("=hint", NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_ptr_nonnull(ntsim__data_view_compile(",hint", NTSIM_PAYLOAD_HW_NOTIFY, &v));
    char key[64];
    memset(key, 'k', 47);
    strcpy(key + 47, "=hint");
    ck_assert_ptr_null(ntsim__data_view_compile(key, NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_uint_eq(strlen(v.keys[0].key_z), 47);
    memset(key, 'k', 48);
    strcpy(key + 48, "=hint");
    ck_assert_ptr_nonnull(ntsim__data_view_compile(key, NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_ptr_nonnull(ntsim__data_view_compile("x=nope.nc_timestamp_ns",
                                                  NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_ptr_nonnull(ntsim__data_view_compile("x=sync_info", NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_ptr_null(ntsim__data_view_compile("x=sync_info.cpu_timestamp_ns,"
                                               "y=sync_info.nc_timestamp_ns",
                                               NTSIM_PAYLOAD_HW_NOTIFY, &v));
    ck_assert_uint_eq(v.count, 2);
    ck_assert_uint_eq(v.keys[0].offset, 0x18 + 8); /* spec §3: hw_notify.sync_info at 0x18 */
    ck_assert_uint_eq(v.keys[1].offset, 0x18);
    static const struct {
        const char *keys;
        ntsim_value_format_t fmt;
    } formats[] = {{"hint%usage,custom_data", NTSIM_FMT_USAGE},
                   {"hint%hex,custom_data", NTSIM_FMT_HEX},
                   {"hint%algo,custom_data", NTSIM_FMT_ALGO}};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_ptr_null(ntsim__data_view_compile(formats[i].keys, NTSIM_PAYLOAD_HW_NOTIFY, &v));
        ck_assert_uint_eq(v.count, 2);
        ck_assert_int_eq(v.keys[0].fmt, formats[i].fmt);
        ck_assert_int_eq(v.keys[1].fmt, NTSIM_FMT_NUMBER);
    }
    static const char *const near_misses[] = {"hint%usagx", "hint%abcde", "hint%hez",
                                              "hint%algz", "hint%abcd", "hint%he"};
    for (size_t i = 0; i < sizeof near_misses / sizeof near_misses[0]; i++)
        ck_assert_msg(ntsim__data_view_compile(near_misses[i], NTSIM_PAYLOAD_HW_NOTIFY, &v) != NULL,
                      "%s compiled", near_misses[i]);
}
END_TEST

/* The exporter reserves a fixed bound per event before draining; no
 * (type, phase) with every field at its widest may exceed it. */
START_TEST(test_json_event_never_exceeds_its_bound)
{
    nrt_sys_trace_event_t e;
    size_t worst = 0;
    for (uint32_t t = 0; t <= NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (uint32_t ph = 0; ph <= NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++) {
            memset(&e, 0xff, sizeof e); /* every integer at its maximum */
            e.trace_type = (nrt_sys_trace_event_type_t)t;
            e.phase = (nrt_sys_trace_event_phase_t)ph;
            e.nc_idx = 255;
            e.has_nrta_seq_id = true;
            /* usage_type at its longest name (dma_ring_collectives = 21) */
            memset(&e.data, 0x11, sizeof e.data);
            e.data.dma_mem_alloc_start.usage_type = DMA_MEM_USAGE_TYPE_DMA_RING_COLLECTIVES;
            e.data.dma_mem_dealloc_start.usage_type = DMA_MEM_USAGE_TYPE_DMA_RING_COLLECTIVES;
            char *doc = NULL;
            size_t n;
            ck_assert_int_eq(ntsim_json_serialize(&e, 1, &doc, &n), NRT_SUCCESS);
            size_t event_len = n - strlen("{\"events\":[],\"data_version\":2}") + 1;
            if (event_len > worst)
                worst = event_len;
            nrt_sys_trace_buffer_free(doc);
        }
    ck_assert_uint_le(worst, 768); /* NTSIM_JSON_EVENT_MAX in engine/convert/json.c */
}
END_TEST

START_TEST(test_json_serialize_rejects_bad_arguments)
{
    char *doc = NULL;
    size_t n;
    ck_assert_int_eq(ntsim_json_serialize(NULL, 1, &doc, &n), NRT_INVALID);
    ck_assert_int_eq(ntsim_json_serialize(NULL, 0, NULL, &n), NRT_INVALID);
    ck_assert_int_eq(ntsim_json_serialize(NULL, 0, &doc, &n), NRT_SUCCESS);
    ck_assert_str_eq(doc, "{\"events\":[],\"data_version\":2}");
    nrt_sys_trace_buffer_free(doc);
}
END_TEST

/* The document in batches: open, each batch's events with a comma between
 * non-empty batches, close, is one serialization of every record. */
START_TEST(test_json_events_in_batches_equal_the_document)
{
    enum { N = 500 };
    nrt_sys_trace_event_t *r = calloc(N, sizeof *r);
    for (size_t i = 0; i < N; i++) {
        r[i].trace_type = (nrt_sys_trace_event_type_t)(i % NRT_SYS_TRACE_EVENT_TYPE_COUNT);
        r[i].phase = (nrt_sys_trace_event_phase_t)(i % 3);
        r[i].nc_idx = (uint32_t)(i % 3);
        r[i].id = i;
        r[i].timestamp_ns = 100 + i;
        memset(&r[i].data, (int)(i % 200), sizeof r[i].data);
    }
    char *whole;
    size_t whole_len;
    ck_assert_int_eq(ntsim_json_serialize(r, N, &whole, &whole_len), NRT_SUCCESS);
    char *cat = malloc(whole_len + 1);
    size_t at = 0;
    memcpy(cat, NTSIM_JSON_DOC_OPEN, strlen(NTSIM_JSON_DOC_OPEN));
    at += strlen(NTSIM_JSON_DOC_OPEN);
    bool any = false;
    static const size_t batch[] = {0, 3, 97, 0, 400};
    for (size_t k = 0, i = 0; k < sizeof batch / sizeof batch[0]; i += batch[k++]) {
        char *part;
        size_t n;
        ck_assert_int_eq(ntsim_json_serialize_events(r + i, batch[k], &part, &n), NRT_SUCCESS);
        ck_assert_uint_eq(n, strlen(part));
        if (n > 0 && any)
            cat[at++] = ',';
        memcpy(cat + at, part, n);
        at += n;
        any |= n > 0;
        nrt_sys_trace_buffer_free(part);
    }
    memcpy(cat + at, NTSIM_JSON_DOC_CLOSE, strlen(NTSIM_JSON_DOC_CLOSE) + 1);
    at += strlen(NTSIM_JSON_DOC_CLOSE);
    ck_assert_uint_eq(at, whole_len);
    ck_assert_str_eq(cat, whole);
    free(cat);
    nrt_sys_trace_buffer_free(whole);
    free(r);
}
END_TEST

/* D-JSON-DATA: a record whose phase has no arm is counted, in total and by
 * type, and warned once per type by its CamelCase name (a phase past
 * INSTANT by its number); an unknown type has no arm to miss: not counted.
 * Reset zeroes the counts and re-arms the warnings. Records: NUM_ERR START
 * twice, DEVICE_EXEC INSTANT, type 46, nrt_async_sema_wait (23) phase 3,
 * and GENERIC and hw_notify INSTANTs, which have their arms. */
START_TEST(test_phase_mismatches_are_counted_by_type_warned_once_and_reset)
{
    nrt_sys_trace_event_t r[7];
    memset(r, 0, sizeof r);
    r[5].trace_type = NRT_SYS_TRACE_EVENT_TYPE_GENERIC; /* arms: no count, no warning */
    r[5].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    r[6].trace_type = NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY;
    r[6].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    r[0].trace_type = r[1].trace_type = NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR;
    r[0].phase = r[1].phase = NRT_SYS_TRACE_EVENT_PHASE_START;
    r[2].trace_type = NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC;
    r[2].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    r[3].trace_type = NRT_SYS_TRACE_EVENT_TYPE_COUNT;
    r[3].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    r[4].trace_type = NRT_SYS_TRACE_EVENT_TYPE_ASYNC_SEMA_WAIT;
    r[4].phase = (nrt_sys_trace_event_phase_t)3;
    ntsim_json_reset_stats();
    ntsim_fixture_log_begin();
    for (int round = 0; round < 3; round++) {
        char *doc = NULL;
        size_t n;
        ck_assert_int_eq(ntsim_json_serialize(r, 7, &doc, &n), NRT_SUCCESS);
        nrt_sys_trace_buffer_free(doc);
        ntsim_json_stats_t st;
        ck_assert_int_eq(ntsim_json_stats(&st), NRT_SUCCESS);
        uint64_t k = round == 1 ? 2 : 1; /* round 2 follows a reset */
        ck_assert_uint_eq(st.phase_mismatch, 4 * k);
        for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
            uint64_t want = t == 13 ? 2 * k : t == 7 || t == 23 ? k : 0;
            ck_assert_uint_eq(st.phase_mismatch_by_type[t], want);
        }
        ck_assert_uint_eq(ntsim_fixture.warnings, round == 0 ? 3 : round == 1 ? 3 : 6);
        if (round == 1)
            ntsim_json_reset_stats();
    }
    ck_assert_uint_eq(ntsim_fixture.log_count, 6);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[0], "NumericalErr"));
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[0], "phase start"));
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[1], "NcExecRunning"));
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[1], "phase instant"));
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[2], "NrtAsyncSemaWait"));
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[2], "phase 3"));
    ck_assert_str_eq(ntsim_fixture.log[5], ntsim_fixture.log[2]);
    ntsim_json_reset_stats();
    ntsim_json_stats_t st;
    ck_assert_int_eq(ntsim_json_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.phase_mismatch, 0);
    ck_assert_uint_eq(st.phase_mismatch_by_type[13], 0);
}
END_TEST

/* The header's contract: out is NUL-terminated within cap (cap > 0), never
 * written past it; the return is the length needed. */
START_TEST(test_json_escape_writes_only_within_cap)
{
    char out[8];
    for (size_t cap = 1; cap <= 5; cap++) {
        memset(out, 'X', sizeof out);
        ck_assert_uint_eq(ntsim_json_escape("a", 1, out, cap), 3); /* "a" quoted */
        size_t end = cap - 1 < 3 ? cap - 1 : 3;
        ck_assert_msg(out[end] == '\0', "cap %zu: no NUL at %zu", cap, end);
        ck_assert_uint_eq(strlen(out), end);
        for (size_t i = cap; i < sizeof out; i++)
            ck_assert_msg(out[i] == 'X', "cap %zu: byte %zu written", cap, i);
    }
    memset(out, 'X', sizeof out);
    ck_assert_uint_eq(ntsim_json_escape("a", 1, out, 0), 3);
    ck_assert_int_eq(out[0], 'X');
}
END_TEST

/* facts §2 / D-WORKER-GID: a map may name all 256 NCs. */
START_TEST(test_gid_map_may_cover_all_256_ncs)
{
    int32_t map[256];
    for (int i = 0; i < 256; i++)
        map[i] = 1000 + i;
    ck_assert_int_eq(ntsim_json_set_gid_map(map, 256), NRT_SUCCESS);
    nrt_sys_trace_event_t e;
    memset(&e, 0, sizeof e);
    e.nc_idx = 255;
    char *doc = NULL;
    size_t n;
    ck_assert_int_eq(ntsim_json_serialize(&e, 1, &doc, &n), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(doc, "\"worker_gid\":1255,"));
    nrt_sys_trace_buffer_free(doc);
}
END_TEST

/* facts §2: fetch takes every event of the NCs asked for, however many:
 * 5000 on NC 0 (more than one drain of the rings at a time) all come out,
 * oldest first. */
START_TEST(test_fetch_takes_every_event_of_a_large_ring)
{
    ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 8192, ncs_0_1, 1);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    emit_generic(0, 5000);
    char *buf = NULL;
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_SUCCESS);
    ck_assert_uint_eq(count_events(buf), 5000);
    ck_assert_ptr_nonnull(strstr(buf, "\"nc_local_id\":4999,\"tracking_id\":5099,"));
    nrt_sys_trace_buffer_free(buf);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(0, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.in_ring, 0);
    ck_assert_uint_eq(st.drained, 5000);
}
END_TEST

/* facts §2: nc_idx selects that NC alone; 0 is an NC, not "all". */
START_TEST(test_fetch_of_nc_0_leaves_nc_1)
{
    emit_generic(0, 2);
    emit_generic(1, 3);
    nrt_sys_trace_fetch_options_t o;
    nrt_sys_trace_fetch_options_set_defaults(&o);
    nrt_sys_trace_fetch_options_set_nc_idx(&o, 0);
    char *buf = NULL;
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, &o), NRT_SUCCESS);
    ck_assert_uint_eq(count_events(buf), 2);
    nrt_sys_trace_buffer_free(buf);
    ntsim_nc_stats_t st;
    ck_assert_int_eq(ntsim_capture_nc_stats(1, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.in_ring, 3);
}
END_TEST

/* D-ALLOCATOR: the session's first fetch makes the sync-point table
 * (D-JSON-TIME); when it then runs out of memory, it gives the table back
 * with the rest, so an attempt that returned NRT_RESOURCE holds no block
 * (the api kind judges the same through the testee's blocks_kept). The one
 * that gets through keeps two: the document and the table. */
START_TEST(test_first_fetch_out_of_memory_keeps_no_sync_table)
{
    emit_generic(0, 2);
    for (uint64_t allow = 0;; allow++) {
        ck_assert_uint_lt(allow, 100);
        char *buf = NULL;
        size_t n = 0;
        ntsim_probe_begin(allow);
        NRT_STATUS st = nrt_sys_trace_fetch_events(&buf, &n, NULL);
        ntsim_probe_end();
        if (st != NRT_SUCCESS) {
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_msg(ntsim_probe.live == 0, "allow %u: %zu blocks held after NRT_RESOURCE",
                          (unsigned)allow, ntsim_probe.live);
            continue;
        }
        ck_assert_uint_eq(ntsim_probe.live, 2);
        ck_assert_uint_eq(count_events(buf), 2);
        nrt_sys_trace_buffer_free(buf);
        break;
    }
}
END_TEST

/* D-FETCH and D-ALLOCATOR: out of memory at any allocation, fetch returns
 * NRT_RESOURCE, logs it, drains nothing and frees what it took; once
 * enough are allowed, the document is the one fetch makes without a limit,
 * and it is the only block left. serialize likewise. */
START_TEST(test_fetch_and_serialize_run_out_of_memory_cleanly)
{
    /* The session's sync-point table (D-JSON-TIME) is made by the first
     * fetch and lives until shutdown: made here, it is not one of the
     * blocks a failed fetch must give back. */
    char *first = NULL;
    size_t first_len = 0;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&first, &first_len, NULL), NRT_SUCCESS);
    nrt_sys_trace_buffer_free(first);
    emit_generic(0, 3);
    for (uint64_t allow = 0;; allow++) {
        ck_assert_uint_lt(allow, 100);
        char *buf = NULL;
        size_t n = 0;
        unsigned warned = ntsim_fixture.warnings;
        ntsim_probe_begin(allow);
        NRT_STATUS st = nrt_sys_trace_fetch_events(&buf, &n, NULL);
        ntsim_probe_end();
        ntsim_nc_stats_t ns;
        ck_assert_int_eq(ntsim_capture_nc_stats(0, &ns), NRT_SUCCESS);
        if (st != NRT_SUCCESS) {
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_ptr_null(buf);
            ck_assert_uint_eq(ntsim_probe.live, 0);
            ck_assert_uint_eq(ns.in_ring, 3);
            ck_assert_uint_eq(ntsim_fixture.warnings, warned + 1);
            continue;
        }
        ck_assert_uint_eq(ntsim_probe.live, 1);
        ck_assert_uint_eq(ns.in_ring, 0);
        ck_assert_uint_eq(count_events(buf), 3);
        nrt_sys_trace_buffer_free(buf);
        break;
    }
    nrt_sys_trace_event_t r[3];
    memset(r, 0, sizeof r);
    char *whole = NULL;
    size_t whole_len;
    ck_assert_int_eq(ntsim_json_serialize(r, 3, &whole, &whole_len), NRT_SUCCESS);
    for (uint64_t allow = 0;; allow++) {
        ck_assert_uint_lt(allow, 100);
        char *doc = NULL;
        size_t n = 0;
        ntsim_probe_begin(allow);
        NRT_STATUS st = ntsim_json_serialize(r, 3, &doc, &n);
        ntsim_probe_end();
        if (st != NRT_SUCCESS) {
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_uint_eq(ntsim_probe.live, 0);
            continue;
        }
        ck_assert_uint_eq(ntsim_probe.live, 1);
        ck_assert_str_eq(doc, whole);
        nrt_sys_trace_buffer_free(doc);
        break;
    }
    nrt_sys_trace_buffer_free(whole);
}
END_TEST

/* A count whose document could not fit in memory is refused before a record
 * is read (the header: NRT_RESOURCE when memory runs out). */
START_TEST(test_serialize_refuses_a_count_past_memory)
{
    nrt_sys_trace_event_t e;
    memset(&e, 0, sizeof e);
    char *doc = NULL;
    size_t n;
    ck_assert_int_eq(ntsim_json_serialize(&e, SIZE_MAX / 2, &doc, &n), NRT_RESOURCE);
    ck_assert_ptr_null(doc);
    ck_assert_int_eq(ntsim_json_serialize_events(&e, SIZE_MAX / 64, &doc, &n), NRT_RESOURCE);
    ck_assert_ptr_null(doc);
}
END_TEST

/* Fills this much of the stack below the caller with 'A', so that a buffer
 * the next call forgets to terminate shows it. */
static void __attribute__((noinline)) scribble_stack(void)
{
    volatile char junk[2048];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = 'A';
}

/* D-JSON-DATA formats as the NTFF attributes and the timelines write them
 * (ntsim__data_format): whatever the stack held before. */
START_TEST(test_data_format_text_is_exact_on_a_dirty_stack)
{
    ntsim_data_key_t k;
    memset(&k, 0, sizeof k);
    static const struct {
        ntsim_value_format_t fmt;
        bool is_signed;
        uint64_t value;
        const char *text;
    } cases[] = {
        {NTSIM_FMT_NUMBER, false, 12345, "12345"},
        {NTSIM_FMT_NUMBER, false, UINT64_MAX, "18446744073709551615"},
        {NTSIM_FMT_NUMBER, true, (uint64_t)-3, "-3"},
        {NTSIM_FMT_NUMBER, true, UINT64_C(1) << 63, "-9223372036854775808"},
        {NTSIM_FMT_ALGO, false, 7, "7"},
        {NTSIM_FMT_USAGE, false, 6, "weight"},
        {NTSIM_FMT_USAGE, false, 23, "23"},
        {NTSIM_FMT_HEX, false, 0xabc, "0xabc"},
        {NTSIM_FMT_BOOL, false, 2, "true"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        k.fmt = cases[i].fmt;
        k.is_signed = cases[i].is_signed;
        char out[40];
        memset(out, 'B', sizeof out);
        scribble_stack();
        ck_assert(ntsim__data_format(&k, cases[i].value, out, sizeof out));
        ck_assert_str_eq(out, cases[i].text);
    }
    k.fmt = NTSIM_FMT_ALGO;
    char out[40];
    ck_assert(!ntsim__data_format(&k, 0, out, sizeof out)); /* algorithm 0: omitted */
}
END_TEST

/* D-FETCH: the error fetch logs when it cannot reserve memory names how
 * many events it would have taken, all of which stay in the rings: 3 on
 * NC 0 and 2 on NC 1 without a limit, min(3, 2) + min(2, 2) = 4 with
 * max_events_per_nc 2. */
START_TEST(test_fetch_out_of_memory_error_counts_the_events_it_keeps)
{
    emit_generic(0, 3);
    emit_generic(1, 2);
    nrt_sys_trace_fetch_options_t opt = {.max_events_per_nc = 0, .nc_idx = -1};
    static const struct {
        uint64_t max;
        const char *count;
    } cases[] = {{0, " 5 events"}, {2, " 4 events"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        opt.max_events_per_nc = cases[i].max;
        char *buf = NULL;
        size_t n = 0;
        unsigned warned = ntsim_fixture.warnings;
        ntsim_probe_begin(0);
        NRT_STATUS st = nrt_sys_trace_fetch_events(&buf, &n, &opt);
        ntsim_probe_end();
        ck_assert_int_eq(st, NRT_RESOURCE);
        ck_assert_ptr_null(buf);
        ck_assert_uint_eq(ntsim_fixture.warnings, warned + 1);
        ck_assert_msg(strstr(ntsim_fixture.last_message, cases[i].count) != NULL,
                      "the error does not say%s: %s", cases[i].count,
                      ntsim_fixture.last_message);
        ntsim_nc_stats_t ns;
        ck_assert_int_eq(ntsim_capture_nc_stats(0, &ns), NRT_SUCCESS);
        ck_assert_uint_eq(ns.in_ring, 3);
        ck_assert_int_eq(ntsim_capture_nc_stats(1, &ns), NRT_SUCCESS);
        ck_assert_uint_eq(ns.in_ring, 2);
    }
}
END_TEST

/* An allocator that refuses only its allocation number g_one_fail_at
 * (counted from 0 in g_one_fail_calls) and wraps libc's otherwise. */
static uint64_t g_one_fail_at;
static uint64_t g_one_fail_calls;

static bool one_fail_refuses(void)
{
    return g_one_fail_calls++ == g_one_fail_at;
}

static void *one_fail_malloc(size_t size)
{
    return one_fail_refuses() ? NULL : malloc(size);
}

static void *one_fail_realloc(void *ptr, size_t size)
{
    return one_fail_refuses() ? NULL : realloc(ptr, size);
}

static void *one_fail_calloc(size_t count, size_t size)
{
    return one_fail_refuses() ? NULL : calloc(count, size);
}

/* D-FETCH and D-ALLOCATOR: whichever single allocation fails (not only the
 * last ones, as a probe that fails all after the first k tests), fetch
 * returns NRT_RESOURCE with nothing drained; a ring of one event takes one
 * record per pop, the smallest scratch there is. */
START_TEST(test_fetch_of_one_event_fails_whole_at_any_one_allocation)
{
    emit_generic(0, 1);
    for (uint64_t k = 0;; k++) {
        ck_assert_uint_lt(k, 100);
        char *buf = NULL;
        size_t n = 0;
        g_one_fail_at = k;
        g_one_fail_calls = 0;
        ck_assert_int_eq(ntsim_replace_allocator(one_fail_malloc, one_fail_realloc,
                                                 one_fail_calloc, free),
                         NRT_SUCCESS);
        NRT_STATUS st = nrt_sys_trace_fetch_events(&buf, &n, NULL);
        ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
        ntsim_nc_stats_t ns;
        ck_assert_int_eq(ntsim_capture_nc_stats(0, &ns), NRT_SUCCESS);
        if (g_one_fail_calls > k) { /* allocation k was refused */
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_ptr_null(buf);
            ck_assert_uint_eq(ns.in_ring, 1);
            continue;
        }
        ck_assert_int_eq(st, NRT_SUCCESS);
        ck_assert_uint_eq(ns.in_ring, 0);
        ck_assert_uint_eq(count_events(buf), 1);
        ck_assert_uint_eq(n, strlen(buf));
        nrt_sys_trace_buffer_free(buf);
        break;
    }
}
END_TEST

/* The header: NRT_RESOURCE when memory runs out, the count refused before a
 * record is read, also when count * 768 (the per-event bound) wraps around
 * to a small size: 0x0055555555555556 * 768 = 2^64 + 512. The one record
 * sits at the end of a page followed by an inaccessible one, so reading
 * past it faults. */
START_TEST(test_serialize_refuses_a_count_whose_size_wraps)
{
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, (long)sizeof(nrt_sys_trace_event_t));
    unsigned char *map = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(map, MAP_FAILED);
    ck_assert_int_eq(mprotect(map + page, (size_t)page, PROT_NONE), 0);
    nrt_sys_trace_event_t *e = (nrt_sys_trace_event_t *)(map + page - sizeof *e);
    const size_t count = UINT64_C(0x0055555555555556);
    ck_assert_uint_eq((size_t)(count * 768), 512); /* the wrap this test is about */
    char *doc = NULL;
    size_t n = 0;
    ck_assert_int_eq(ntsim_json_serialize(e, count, &doc, &n), NRT_RESOURCE);
    ck_assert_ptr_null(doc);
    ck_assert_int_eq(ntsim_json_serialize_events(e, count, &doc, &n), NRT_RESOURCE);
    ck_assert_ptr_null(doc);
    ck_assert_int_eq(munmap(map, 2 * (size_t)page), 0);
}
END_TEST

/* D-JSON-DATA: a phase past INSTANT has no arm, for GENERIC (type 0) too:
 * the record is counted in phase_mismatch and in phase_mismatch_by_type[0],
 * and warned once as "Generic ... phase 3". ntsim_json_stats writes every
 * slot of the caller's struct, the first included: no 0xff byte survives. */
START_TEST(test_phase_mismatch_of_type_0_is_counted_in_slot_0)
{
    nrt_sys_trace_event_t r;
    memset(&r, 0, sizeof r);
    r.trace_type = NRT_SYS_TRACE_EVENT_TYPE_GENERIC;
    r.phase = (nrt_sys_trace_event_phase_t)3;
    ntsim_json_reset_stats();
    ntsim_fixture_log_begin();
    char *doc = NULL;
    size_t n;
    ck_assert_int_eq(ntsim_json_serialize(&r, 1, &doc, &n), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(doc, "\"event_type\":\"generic\",\"phase\":\"unknown\","));
    ck_assert_ptr_nonnull(strstr(doc, "\"data\":{}"));
    nrt_sys_trace_buffer_free(doc);
    ntsim_json_stats_t st;
    memset(&st, 0xff, sizeof st);
    ck_assert_int_eq(ntsim_json_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.phase_mismatch, 1);
    ck_assert_uint_eq(st.phase_mismatch_by_type[0], 1);
    for (uint32_t t = 1; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        ck_assert_uint_eq(st.phase_mismatch_by_type[t], 0);
    ck_assert_uint_eq(ntsim_fixture.warnings, 1);
    ck_assert_uint_eq(ntsim_fixture.log_count, 1);
    ck_assert_ptr_nonnull(strstr(ntsim_fixture.log[0], "phase mismatch: Generic has no data for phase 3"));
    ntsim_json_reset_stats();
    memset(&st, 0xff, sizeof st);
    ck_assert_int_eq(ntsim_json_stats(&st), NRT_SUCCESS);
    ck_assert_uint_eq(st.phase_mismatch, 0);
    ck_assert_uint_eq(st.phase_mismatch_by_type[0], 0);
}
END_TEST

/* A log sink that, at the first phase-mismatch warning, drains up to 4
 * records of NC g_sink_nc (D-LOG allows it: only the lifecycle calls are
 * refused from a sink) and keeps how many it got. */
static size_t g_sink_drained;
static bool g_sink_done;
static NRT_STATUS g_sink_status;
static uint32_t g_sink_nc;

static void drain_at_mismatch(ntsim_log_level_t level, const char *message, void *ctx)
{
    (void)ctx;
    if (level != NTSIM_LOG_WARN || g_sink_done || strstr(message, "phase mismatch") == NULL)
        return;
    g_sink_done = true;
    nrt_sys_trace_event_t out[4];
    /* no assertion here: it would jump out of the engine's fetch */
    g_sink_status = nrt_sys_trace_drain_events(g_sink_nc, out, 4, &g_sink_drained);
}

/* D-FETCH: fetch pops each NC's events whole, then writes them (facts §2:
 * pop up to max_events_per_nc, then serialize; D-JSON-TIME needs an NC's
 * sync points before its events are written), one NC after the other. NC
 * 0's record 0 is NUM_ERR START (no arm: writing it warns), then GENERIC
 * INSTANTs; NC 1 holds `nc1` GENERICs. The sink drains up to 4 of NC
 * `sink_nc` at that warning, which comes while NC 0 is written: NC 0 is
 * popped already, so a drain of NC 0 gets nothing however many it holds
 * (4097: more than one pop of the old 4096-record fetch), while NC 1 is
 * not popped yet, so a drain of NC 1 takes its first 4 and the document
 * the rest. Every record goes to exactly one of them. */
START_TEST(test_fetch_pops_each_nc_whole_before_writing_it)
{
    static const struct {
        int records, nc1;
        uint32_t sink_nc;
        size_t sink, doc;
    } cases[] = {{4096, 0, 0, 0, 4096}, {4097, 0, 0, 0, 4097}, {10, 6, 1, 4, 12}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
        nrt_sys_trace_config_t cfg;
        ntsim_fixture_config(&cfg, 8192, ncs_0_1, 2);
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
        ck_assert_uint_ne(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR,
                                                  NRT_SYS_TRACE_EVENT_PHASE_START, 0, NULL, 1),
                          0);
        emit_generic(0, cases[i].records - 1);
        emit_generic(1, cases[i].nc1);
        g_sink_drained = 99;
        g_sink_done = false;
        g_sink_status = NRT_FAILURE;
        g_sink_nc = cases[i].sink_nc;
        ntsim_log_set_sink(drain_at_mismatch, NULL);
        char *buf = NULL;
        size_t n = 0;
        NRT_STATUS st = nrt_sys_trace_fetch_events(&buf, &n, NULL);
        ntsim_fixture_log_begin(); /* the fixture's sink again */
        ck_assert_int_eq(st, NRT_SUCCESS);
        ck_assert(g_sink_done);
        ck_assert_int_eq(g_sink_status, NRT_SUCCESS);
        ck_assert_uint_eq(g_sink_drained, cases[i].sink);
        ck_assert_uint_eq(count_events(buf), cases[i].doc);
        nrt_sys_trace_buffer_free(buf);
        for (uint32_t nc = 0; nc < 2; nc++) {
            ntsim_nc_stats_t ns;
            ck_assert_int_eq(ntsim_capture_nc_stats(nc, &ns), NRT_SUCCESS);
            ck_assert_uint_eq(ns.in_ring, 0);
            ck_assert_uint_eq(ns.drained, (uint64_t)(nc == 0 ? cases[i].records : cases[i].nc1));
        }
    }
}
END_TEST

/* --- the sync points of D-JSON-TIME (engine/convert/time_sync.c) --------------------- */

static nrt_sys_trace_event_t sync_point(uint32_t nc, uint64_t exec, uint64_t dev, uint64_t cpu)
{
    nrt_sys_trace_event_t e;
    memset(&e, 0, sizeof e);
    e.trace_type = NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC;
    e.phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    e.nc_idx = nc;
    e.data.timestamp_sync.exec_id = exec;
    e.data.timestamp_sync.nc_timestamp_ns = dev;
    e.data.timestamp_sync.cpu_timestamp_ns = cpu;
    return e;
}

static uint64_t hw_notify_time(const ntsim__sync_table_t *t, uint32_t nc, uint64_t exec,
                               uint64_t dev)
{
    nrt_sys_trace_event_t e;
    memset(&e, 0, sizeof e);
    e.trace_type = NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY;
    e.phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    e.nc_idx = nc;
    e.timestamp_ns = 1;
    e.data.hw_notify.exec_id = exec;
    e.data.hw_notify.sync_info.nc_timestamp_ns = dev;
    return ntsim__sync_event_time(t, &e, ntsim__data_view((uint32_t)e.trace_type,
                                                          (uint32_t)e.phase));
}

/* The table is bounded: past NTSIM_SYNC_TABLE_ENTRIES the oldest sync
 * points are forgotten first (their events keep the raw device time), and
 * every one still held is found, however the deletions moved the others
 * (backward-shift deletion must not cut a probe chain). Sync point k of NC
 * k % 3 has cpu 10^9 + k and dev 1000 k; an event at dev 1000 k + 7 is at
 * cpu 10^9 + k + 7. A later sync point of the same NC and execution
 * replaces the earlier one, and clear forgets everything. */
START_TEST(test_sync_table_forgets_the_oldest_and_finds_every_other)
{
    enum { EXTRA = 1500, N = NTSIM_SYNC_TABLE_ENTRIES + EXTRA };
    ntsim__sync_table_t *t = ntsim__sync_table_new();
    ck_assert_ptr_nonnull(t);
    nrt_sys_trace_event_t *e = malloc(N * sizeof *e);
    for (uint64_t k = 0; k < N; k++)
        e[k] = sync_point((uint32_t)(k % 3), k, 1000 * k, 1000000000 + k);
    ntsim__sync_table_learn(t, e, N);
    for (uint64_t k = 0; k < N; k++) {
        uint64_t got = hw_notify_time(t, (uint32_t)(k % 3), k, 1000 * k + 7);
        uint64_t want = k < EXTRA ? 1000 * k + 7 : 1000000000 + k + 7;
        ck_assert_msg(got == want, "exec %llu: %llu, want %llu", (unsigned long long)k,
                      (unsigned long long)got, (unsigned long long)want);
    }
    /* Another NC's sync point of the same execution does not apply. */
    uint32_t last_nc = (uint32_t)((N - 1) % 3);
    ck_assert_uint_eq(hw_notify_time(t, (last_nc + 1) % 3, N - 1, 5), 5);
    e[0] = sync_point(last_nc, N - 1, 0, 42);
    ntsim__sync_table_learn(t, e, 1);
    ck_assert_uint_eq(hw_notify_time(t, last_nc, N - 1, 8), 50);
    ntsim__sync_table_clear(t);
    ck_assert_uint_eq(hw_notify_time(t, last_nc, N - 1, 8), 8);
    /* No table at all: the raw device time. */
    ck_assert_uint_eq(hw_notify_time(NULL, 0, 0, 9), 9);
    free(e);
    ntsim__sync_table_free(t);
}
END_TEST

/* A span fetched in two parts is aligned in both: the START and the sync
 * point in the first fetch, the STOP in the second (the session keeps the
 * sync points of earlier fetches); after start() a new session knows none. */
START_TEST(test_fetch_aligns_a_stop_fetched_after_its_start_and_sync_point)
{
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.nc_exec_start.exec_id = 7;
    d.nc_exec_start.sync_info.nc_timestamp_ns = 500;
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC,
                                              NRT_SYS_TRACE_EVENT_PHASE_START, 0, &d, 77),
                      77);
    memset(&d, 0, sizeof d);
    d.timestamp_sync.exec_id = 7;
    d.timestamp_sync.nc_timestamp_ns = 400;
    d.timestamp_sync.cpu_timestamp_ns = 9000;
    ck_assert_uint_ne(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, &d, 0),
                      0);
    char *buf = NULL;
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(buf, "\"nc_timestamp_ns\":500,\"model_id\":0},\"timestamp_ns\":9100}"));
    nrt_sys_trace_buffer_free(buf);
    memset(&d, 0, sizeof d);
    d.nc_exec_stop.sync_info.nc_timestamp_ns = 650;
    for (int session = 0; session < 2; session++) {
        ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC,
                                                  NRT_SYS_TRACE_EVENT_PHASE_STOP, 0, &d, 77),
                          77);
        buf = NULL;
        ck_assert_int_eq(nrt_sys_trace_fetch_events(&buf, &n, NULL), NRT_SUCCESS);
        /* 9000 + (650 - 400) in the session that saw the sync point, the raw
         * device time in a new one. */
        const char *want = session == 0 ? "\"data\":{\"nc_timestamp_ns\":650},\"timestamp_ns\":9250}"
                                        : "\"data\":{\"nc_timestamp_ns\":650},\"timestamp_ns\":650}";
        ck_assert_msg(strstr(buf, want) != NULL, "session %d: %s", session, buf);
        nrt_sys_trace_buffer_free(buf);
        ck_assert_int_eq(nrt_sys_trace_stop(), NRT_SUCCESS);
        nrt_sys_trace_config_t cfg;
        ntsim_fixture_config(&cfg, 1024, ncs_0_1, 2);
        ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    }
}
END_TEST

Suite *make_json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("json_api");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_fetch_rejects_null_out_pointers_and_leaves_the_rings);
    tcase_add_test(tc, test_fetch_rejects_a_buffer_already_set);
    tcase_add_test(tc, test_fetch_returns_a_nul_terminated_document_and_consumes_the_events);
    tcase_add_test(tc, test_fetch_honours_nc_idx_and_max_events_per_nc);
    tcase_add_test(tc, test_fetch_rejects_an_out_of_range_nc_idx);
    tcase_add_test(tc, test_fetch_while_not_capturing_is_an_empty_document);
    tcase_add_test(tc, test_worker_gid_comes_from_the_map);
    tcase_add_test(tc, test_json_escape_covers_quotes_backslash_and_control_bytes);
    tcase_add_test(tc, test_json_keys_name_real_fields);
    tcase_add_test(tc, test_json_event_never_exceeds_its_bound);
    tcase_add_test(tc, test_json_serialize_rejects_bad_arguments);
    tcase_add_test(tc, test_json_events_in_batches_equal_the_document);
    tcase_add_test(tc, test_phase_mismatches_are_counted_by_type_warned_once_and_reset);
    tcase_add_test(tc, test_json_escape_writes_only_within_cap);
    tcase_add_test(tc, test_gid_map_may_cover_all_256_ncs);
    tcase_add_test(tc, test_fetch_takes_every_event_of_a_large_ring);
    tcase_add_test(tc, test_fetch_of_nc_0_leaves_nc_1);
    tcase_add_test(tc, test_fetch_and_serialize_run_out_of_memory_cleanly);
    tcase_add_test(tc, test_first_fetch_out_of_memory_keeps_no_sync_table);
    tcase_add_test(tc, test_serialize_refuses_a_count_past_memory);
    tcase_add_test(tc, test_data_format_text_is_exact_on_a_dirty_stack);
    tcase_add_test(tc, test_fetch_out_of_memory_error_counts_the_events_it_keeps);
    tcase_add_test(tc, test_fetch_of_one_event_fails_whole_at_any_one_allocation);
    tcase_add_test(tc, test_serialize_refuses_a_count_whose_size_wraps);
    tcase_add_test(tc, test_phase_mismatch_of_type_0_is_counted_in_slot_0);
    tcase_add_test(tc, test_fetch_pops_each_nc_whole_before_writing_it);
    tcase_add_test(tc, test_sync_table_forgets_the_oldest_and_finds_every_other);
    tcase_add_test(tc, test_fetch_aligns_a_stop_fetched_after_its_start_and_sync_point);
    suite_add_tcase(s, tc);
    return s;
}
