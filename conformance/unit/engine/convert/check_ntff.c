/*
 * conformance/unit/engine/convert/check_ntff.c: NTFF (engine/convert/ntff.c;
 * D-NTFF-EVENT, D-NTFF-FIELDS): bad arguments, a file written from a live capture and read back by
 * protoc, an event's bound, the writer's pieces, nd_idx, and the
 * out-of-memory paths. The encodings are pinned by vectors/ntff_*.yaml.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc_probe.h"
#include "check_convert.h"
#include "input.h"
#include "kinds.h"
#include "ntff.pb-c.h"
#include "ntsim/convert.h"

START_TEST(test_ntff_serialize_rejects_bad_arguments)
{
    uint8_t *out;
    size_t len;
    ck_assert_int_eq(ntsim_ntff_serialize(NULL, 1, NULL, 0, NULL, &out, &len), NRT_INVALID);
    ck_assert_int_eq(ntsim_ntff_serialize(NULL, 0, NULL, 1, NULL, &out, &len), NRT_INVALID);
    ck_assert_int_eq(ntsim_ntff_serialize(NULL, 0, NULL, 0, NULL, NULL, &len), NRT_INVALID);
    ck_assert_int_eq(ntsim_ntff_write_file(NULL, NULL, 0, NULL, 0, NULL), NRT_INVALID);
    ck_assert_int_eq(ntsim_ntff_write_file("/nonexistent-dir/x.ntff", NULL, 0, NULL, 0, NULL),
                     NRT_FAILURE);
}
END_TEST

/* End to end: capture, drain, write an .ntff file, decode it with protoc. */
START_TEST(test_ntff_file_from_a_live_capture_decodes_with_protoc)
{
    const uint32_t nc = 2;
    nrt_sys_trace_config_t cfg;
    ntsim_fixture_config(&cfg, 1024, &nc, 1);
    ck_assert_int_eq(nrt_sys_trace_start(&cfg), NRT_SUCCESS);
    nrt_sys_trace_event_data_t d;
    memset(&d, 0, sizeof d);
    d.exec_pre.exec_id = 11;
    d.exec_pre.model_id = 22;
    uint64_t id = nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_EXEC_PRE,
                                          NRT_SYS_TRACE_EVENT_PHASE_START, 2, &d, 0);
    nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_EXEC_PRE, NRT_SYS_TRACE_EVENT_PHASE_STOP, 2,
                            &d, id);
    nrt_sys_trace_event_t recs[2];
    size_t n;
    ck_assert_int_eq(nrt_sys_trace_drain_events(2, recs, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    char path[] = "/tmp/ntsim-live-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(ntsim_ntff_write_file(path, recs, n, NULL, 0, NULL), NRT_SUCCESS);
    /* Read back as ntsim_ntff_decode does: protoc, started without a shell. */
    char *bytes = NULL, err[256] = "", why[512] = "";
    size_t blen = 0;
    ck_assert_int_eq(ntsim_read_input(path, NTSIM_INPUT_NTFF, &bytes, &blen, err, sizeof err),
                     NRT_SUCCESS);
    char *text = ntsim_ntff_decode("ntrace_info", (const uint8_t *)bytes, blen, why, sizeof why);
    free(bytes);
    ck_assert_msg(text != NULL, "protoc: %s", why);
    unlink(path);
    /* Both edges of the span, sharing the derived tracking id 2 << 50. */
    ck_assert_ptr_nonnull(strstr(text, "phase: START\n  tracking_id: 2251799813685248\n"));
    ck_assert_ptr_nonnull(strstr(text, "phase: STOP\n  tracking_id: 2251799813685248\n"));
    ck_assert_ptr_nonnull(strstr(text, "key: \"exec_id\"\n    value: \"11\"\n"));
    ck_assert_ptr_nonnull(strstr(text, "timestamp: 5010\n"));
    ck_assert_ptr_nonnull(strstr(text, "value: \"kbl_exec_pre\"\n"));
    free(text);
}
END_TEST

/* The writer packs each event into a fixed reservation; no (type, phase)
 * with every field at its widest may come near it. */
START_TEST(test_ntff_event_fits_its_bound)
{
    size_t worst = 0;
    for (uint32_t t = 0; t <= NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (uint32_t ph = 0; ph <= NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++) {
            nrt_sys_trace_event_t e;
            memset(&e, 0xff, sizeof e);
            e.trace_type = (nrt_sys_trace_event_type_t)t;
            e.phase = (nrt_sys_trace_event_phase_t)ph;
            e.has_nrta_seq_id = true;
            uint8_t *out;
            size_t len;
            ck_assert_int_eq(ntsim_ntff_serialize(&e, 1, NULL, 0, NULL, &out, &len),
                             NRT_SUCCESS);
            if (len > worst)
                worst = len;
            ntsim_buffer_free(out);
        }
    ck_assert_uint_lt(worst, 1024 / 2); /* NTSIM_NTFF_EVENT_MAX in engine/convert/ntff.c, with margin */
}
END_TEST

/* A few hundred varied records: every type and phase, nonzero payload bytes. */
static nrt_sys_trace_event_t *varied_records(size_t n)
{
    nrt_sys_trace_event_t *r = calloc(n, sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++) {
        r[i].trace_type = (nrt_sys_trace_event_type_t)(i % NRT_SYS_TRACE_EVENT_TYPE_COUNT);
        r[i].phase = (nrt_sys_trace_event_phase_t)(i % 3);
        r[i].nc_idx = (uint32_t)(i % 5);
        r[i].id = i * 1000003u;
        r[i].tracking_id = i;
        r[i].thread_id = 4000 + i % 7;
        r[i].timestamp_ns = 1000000 + i * 17;
        memset(&r[i].data, (int)(i * 37 % 251), sizeof r[i].data);
        r[i].has_nrta_seq_id = i % 4 == 0;
        r[i].nrta_seq_id = i % 4 == 0 ? i : 0;
    }
    return r;
}

/* The NTFF writer's pieces, in any batching of the events, are exactly the
 * one-buffer serialization (so a streamed trace.ntff is the same file). */
START_TEST(test_ntff_writer_pieces_equal_the_whole)
{
    enum { N = 700 };
    nrt_sys_trace_event_t *recs = varied_records(N);
    uint8_t payload[3] = {1, 2, 3};
    ntsim_trace_info_t infos[2] = {{3, 2, 1, payload, 3}, {0, 0, 0, NULL, 0}};
    ntsim_ntff_options_t opt = {2, "trn2", 99, 7, 2, NULL};
    uint8_t *whole;
    size_t whole_len;
    ck_assert_int_eq(ntsim_ntff_serialize(recs, N, infos, 2, &opt, &whole, &whole_len),
                     NRT_SUCCESS);
    static const size_t batches[] = {1, 7, 64, 333, N};
    for (size_t k = 0; k < sizeof batches / sizeof batches[0]; k++) {
        ntsim_ntff_writer_t *w;
        ck_assert_int_eq(ntsim_ntff_writer_create(&opt, &w), NRT_SUCCESS);
        uint8_t *cat = malloc(whole_len);
        size_t at = 0;
        const uint8_t *bytes;
        size_t n;
        for (size_t i = 0; i < N; i += batches[k]) {
            size_t take = N - i < batches[k] ? N - i : batches[k];
            ck_assert_int_eq(ntsim_ntff_writer_events(w, recs + i, take, &bytes, &n),
                             NRT_SUCCESS);
            ck_assert_uint_le(at + n, whole_len);
            memcpy(cat + at, bytes, n);
            at += n;
        }
        ck_assert_int_eq(ntsim_ntff_writer_infos(w, infos, 2, &bytes, &n), NRT_SUCCESS);
        memcpy(cat + at, bytes, n);
        at += n;
        ck_assert_int_eq(ntsim_ntff_writer_finish(w, &bytes, &n), NRT_SUCCESS);
        ck_assert_uint_eq(at + n, whole_len);
        memcpy(cat + at, bytes, n);
        ck_assert_int_eq(memcmp(cat, whole, whole_len), 0);
        ck_assert_int_eq(ntsim_ntff_writer_finish(w, &bytes, &n), NRT_INVALID); /* once */
        free(cat);
        ntsim_ntff_writer_free(w);
    }
    ntsim_buffer_free(whole);
    free(recs);
}
END_TEST

/* SipHash-1-3 over pieces equals the one-shot hash, whatever the cuts. */
/* On a multi-device instance each event's nd_idx is its NC's device
 * (nd_idx_by_nc); without the map every event has the options' nd_idx. */
START_TEST(test_ntff_nd_idx_follows_the_nc_device_map)
{
    nrt_sys_trace_event_t recs[3];
    memset(recs, 0, sizeof recs);
    const uint32_t ncs[3] = {0, 1, 5};
    for (int i = 0; i < 3; i++) {
        recs[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_GENERIC;
        recs[i].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
        recs[i].nc_idx = ncs[i];
    }
    uint32_t map[NTSIM_NC_COUNT] = {0};
    map[1] = 3;
    map[5] = 15;
    const uint32_t want_mapped[3] = {0, 3, 15}, want_plain[3] = {7, 7, 7};
    for (int pass = 0; pass < 2; pass++) {
        ntsim_ntff_options_t opt = {7, NULL, 0, 0, 0, pass == 0 ? map : NULL};
        uint8_t *bytes;
        size_t len;
        ck_assert_int_eq(ntsim_ntff_serialize(recs, 3, NULL, 0, &opt, &bytes, &len), NRT_SUCCESS);
        Ntff__NtraceInfo *info = ntff__ntrace_info__unpack(NULL, len, bytes);
        ck_assert_ptr_nonnull(info);
        ck_assert_uint_eq(info->n_events, 3);
        for (int i = 0; i < 3; i++)
            ck_assert_uint_eq(info->events[i]->nd_idx, (pass == 0 ? want_mapped : want_plain)[i]);
        ntff__ntrace_info__free_unpacked(info, NULL);
        ntsim_buffer_free(bytes);
    }
}
END_TEST

/* The writer's pieces are always a buffer (the header: *bytes owned by the
 * writer), even an empty one. */
START_TEST(test_ntff_writer_pieces_are_never_null)
{
    ntsim_ntff_writer_t *w;
    ck_assert_int_eq(ntsim_ntff_writer_create(NULL, &w), NRT_SUCCESS);
    const uint8_t *bytes = NULL;
    size_t len = 7;
    ck_assert_int_eq(ntsim_ntff_writer_infos(w, NULL, 0, &bytes, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_uint_eq(len, 0);
    bytes = NULL;
    ck_assert_int_eq(ntsim_ntff_writer_events(w, NULL, 0, &bytes, &len), NRT_SUCCESS);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_uint_eq(len, 0);
    ntsim_ntff_writer_free(w);
}
END_TEST

/* The options: nd_idx_by_nc has 256 entries; an event whose nc_idx is past
 * them (a record from outside) gets the options' nd_idx. */
START_TEST(test_ntff_nd_idx_past_the_map_is_the_default)
{
    struct {
        uint32_t map[NTSIM_NC_COUNT];
        uint32_t after; /* what a read past the map would find */
    } m;
    memset(&m, 0, sizeof m);
    m.after = 999;
    nrt_sys_trace_event_t e;
    memset(&e, 0, sizeof e);
    e.nc_idx = NTSIM_NC_COUNT;
    ntsim_ntff_options_t opt = {7, NULL, 0, 0, 0, m.map};
    uint8_t *bytes;
    size_t len;
    ck_assert_int_eq(ntsim_ntff_serialize(&e, 1, NULL, 0, &opt, &bytes, &len), NRT_SUCCESS);
    Ntff__NtraceInfo *info = ntff__ntrace_info__unpack(NULL, len, bytes);
    ck_assert_ptr_nonnull(info);
    ck_assert_uint_eq(info->events[0]->nd_idx, 7);
    ntff__ntrace_info__free_unpacked(info, NULL);
    ntsim_buffer_free(bytes);
}
END_TEST

/* D-ALLOCATOR: NTFF out of memory at any allocation, serialize and the
 * writer return NRT_RESOURCE and free what they took; then the same bytes. */
START_TEST(test_ntff_runs_out_of_memory_cleanly)
{
    nrt_sys_trace_event_t r[40];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 40; i++) {
        r[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY;
        r[i].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
        r[i].data.hw_notify.exec_id = (uint64_t)i;
    }
    const ntsim_trace_info_t info = {1, 0, 0, (const uint8_t *)"ab", 2};
    uint8_t *whole;
    size_t whole_len;
    ck_assert_int_eq(ntsim_ntff_serialize(r, 40, &info, 1, NULL, &whole, &whole_len), NRT_SUCCESS);
    for (uint64_t allow = 0;; allow++) {
        ck_assert_uint_lt(allow, 100);
        uint8_t *out = NULL;
        size_t len;
        ntsim_probe_begin(allow);
        NRT_STATUS st = ntsim_ntff_serialize(r, 40, &info, 1, NULL, &out, &len);
        ntsim_probe_end();
        if (st != NRT_SUCCESS) {
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_uint_eq(ntsim_probe.live, 0);
            continue;
        }
        ck_assert_uint_eq(ntsim_probe.live, 1);
        ck_assert_uint_eq(len, whole_len);
        ck_assert(memcmp(out, whole, len) == 0);
        ntsim_buffer_free(out);
        break;
    }
    ntsim_buffer_free(whole);
    /* The writer: created, fed, freed: nothing left. */
    ntsim_probe_begin(UINT64_MAX);
    ntsim_ntff_writer_t *w;
    ck_assert_int_eq(ntsim_ntff_writer_create(NULL, &w), NRT_SUCCESS);
    const uint8_t *bytes;
    ck_assert_int_eq(ntsim_ntff_writer_events(w, r, 40, &bytes, &whole_len), NRT_SUCCESS);
    ntsim_ntff_writer_free(w);
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim_probe.live, 0);
}
END_TEST

/* The header: NRT_FAILURE, errno kept, when the file cannot be written; the
 * bytes made for it are freed either way. /dev/full takes the write into the
 * stream's buffer and fails it at close with ENOSPC. */
START_TEST(test_ntff_write_file_fails_with_errno_and_frees)
{
    ntsim_probe_begin(UINT64_MAX);
    errno = 0;
    ck_assert_int_eq(ntsim_ntff_write_file("/nonexistent-dir/x.ntff", NULL, 0, NULL, 0, NULL),
                     NRT_FAILURE);
    ck_assert_int_eq(errno, ENOENT);
    errno = 0;
    ck_assert_int_eq(ntsim_ntff_write_file("/dev/full", NULL, 0, NULL, 0, NULL), NRT_FAILURE);
    ck_assert_int_eq(errno, ENOSPC);
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim_probe.live, 0);
}
END_TEST

/* convert.h: NRT_INVALID for a NULL array with a nonzero count. That is bad
 * input whatever the allocator does: with every allocation failing, the
 * answer is still NRT_INVALID (D-STATUS), never NRT_RESOURCE, and nothing is
 * held (D-ALLOCATOR). A count of 1 is the smallest nonzero one. */
START_TEST(test_ntff_serialize_rejects_a_null_array_even_out_of_memory)
{
    uint8_t *out = NULL;
    size_t len = 0;
    ntsim_probe_begin(0);
    ck_assert_int_eq(ntsim_ntff_serialize(NULL, 1, NULL, 0, NULL, &out, &len), NRT_INVALID);
    ck_assert_int_eq(ntsim_ntff_serialize(NULL, 0, NULL, 1, NULL, &out, &len), NRT_INVALID);
    ntsim_probe_end();
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(len, 0);
    ck_assert_uint_eq(ntsim_probe.live, 0);
}
END_TEST

/* D-ALLOCATOR: serialize runs out of memory after the output buffer already
 * holds the events piece (a 5000-byte payload makes the profiles piece
 * outgrow both the writer's 4 KiB block and the output's): NRT_RESOURCE and
 * every block freed, the output buffer included, at each failing allocation;
 * then the same bytes as a run with memory. */
START_TEST(test_ntff_serialize_frees_its_output_when_a_later_piece_runs_out)
{
    nrt_sys_trace_event_t r[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r[i].trace_type = NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY;
        r[i].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
        r[i].data.hw_notify.exec_id = (uint64_t)i + 1;
    }
    static uint8_t payload[5000];
    memset(payload, 0x5a, sizeof payload);
    const ntsim_trace_info_t info = {1, 0, 3, payload, sizeof payload};
    uint8_t *whole;
    size_t whole_len;
    ck_assert_int_eq(ntsim_ntff_serialize(r, 3, &info, 1, NULL, &whole, &whole_len), NRT_SUCCESS);
    ck_assert_uint_gt(whole_len, sizeof payload);
    for (uint64_t allow = 0;; allow++) {
        ck_assert_uint_lt(allow, 100);
        uint8_t *out = NULL;
        size_t len = 0;
        ntsim_probe_begin(allow);
        NRT_STATUS st = ntsim_ntff_serialize(r, 3, &info, 1, NULL, &out, &len);
        ntsim_probe_end();
        if (st != NRT_SUCCESS) {
            ck_assert_int_eq(st, NRT_RESOURCE);
            ck_assert_ptr_null(out);
            ck_assert_uint_eq(ntsim_probe.live, 0);
            continue;
        }
        ck_assert_uint_eq(ntsim_probe.live, 1);
        ck_assert_uint_eq(len, whole_len);
        ck_assert(memcmp(out, whole, len) == 0);
        ntsim_buffer_free(out);
        break;
    }
    ntsim_buffer_free(whole);
}
END_TEST

Suite *make_ntff_suite(void)
{
    Suite *s = suite_create("ntff");
    TCase *tc = tcase_create("ntff_api");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_ntff_serialize_rejects_bad_arguments);
    tcase_add_test(tc, test_ntff_file_from_a_live_capture_decodes_with_protoc);
    tcase_add_test(tc, test_ntff_event_fits_its_bound);
    tcase_add_test(tc, test_ntff_writer_pieces_equal_the_whole);
    tcase_add_test(tc, test_ntff_nd_idx_follows_the_nc_device_map);
    tcase_add_test(tc, test_ntff_writer_pieces_are_never_null);
    tcase_add_test(tc, test_ntff_nd_idx_past_the_map_is_the_default);
    tcase_add_test(tc, test_ntff_runs_out_of_memory_cleanly);
    tcase_add_test(tc, test_ntff_write_file_fails_with_errno_and_frees);
    tcase_add_test(tc, test_ntff_serialize_rejects_a_null_array_even_out_of_memory);
    tcase_add_test(tc, test_ntff_serialize_frees_its_output_when_a_later_piece_runs_out);
    suite_add_tcase(s, tc);
    return s;
}
