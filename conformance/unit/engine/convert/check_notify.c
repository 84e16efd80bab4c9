/*
 * conformance/unit/engine/convert/check_notify.c: the notification converter
 * (engine/convert/notify.c; D-NOTIFY): its edges, the EXPLICIT path, and the
 * conversions it counts by type. Per-type mappings are pinned by
 * vectors/notify.yaml.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc_probe.h"
#include "check_convert.h"
#include "nrt/nrt_profile_notification.h"
#include "ntsim/convert.h"

/* spec §5 GOTCHA: the converter's codomain is {0,1,2,4,5}; EXPLICIT never. */
START_TEST(test_converter_never_produces_explicit)
{
    for (int64_t t = -1000; t <= 1000; t++) {
        enum notification_trace_type tt = NOTIFICATION_TRACE_TYPE_INSTRUCTION;
        enum block_type bt = BLOCK_TYPE_NC;
        if (nrt_profile_convert_trace_type_from_ntff_params((enum notification_type)t, &tt,
                                                            &bt) == NRT_SUCCESS) {
            ck_assert(t >= 0 && t <= 8);
            ck_assert_int_ne(tt, NOTIFICATION_TRACE_TYPE_EXPLICIT);
        }
    }
    ntsim_notify_stats_t s;
    ck_assert_int_eq(ntsim_notify_stats(&s), NRT_SUCCESS);
    ck_assert_uint_eq(s.dropped, 2001 - 9);
    ck_assert_uint_eq(s.dropped_cc_status, 1);
    ck_assert_uint_eq(s.dropped_max, 1);
    ck_assert_uint_eq(s.dropped_out_of_range, 2001 - 9 - 2);
}
END_TEST

/* D-NOTIFY: NULL outputs are a programming error: no log, no drop. */
START_TEST(test_converter_rejects_null_outputs_without_counting_a_drop)
{
    enum block_type bt;
    enum notification_trace_type tt;
    ck_assert_int_eq(nrt_profile_convert_trace_type_from_ntff_params(NOTIFICATION_TYPE_TRACE,
                                                                     NULL, &bt),
                     NRT_INVALID);
    ck_assert_int_eq(nrt_profile_convert_trace_type_from_ntff_params(NOTIFICATION_TYPE_TRACE,
                                                                     &tt, NULL),
                     NRT_INVALID);
    ntsim_notify_stats_t s;
    ck_assert_int_eq(ntsim_notify_stats(&s), NRT_SUCCESS);
    ck_assert_uint_eq(s.dropped, 0);
    ck_assert_uint_eq(ntsim_fixture.warnings, 0);
    ck_assert_int_eq(ntsim_notify_wrap(0, 0, NULL, 1, &(ntsim_trace_info_t){0}), NRT_INVALID);
    ck_assert_int_eq(ntsim_notify_wrap(0, 0, NULL, 0, NULL), NRT_INVALID);
}
END_TEST

/* The proof: the collectives status comes out as EXPLICIT through
 * its own path, and routing it through the converter drops it. */
START_TEST(test_explicit_trace_comes_out_and_the_converter_would_drop_it)
{
    ntsim_explicit_notifs_t *x;
    ck_assert_int_eq(ntsim_explicit_create(1, &x), NRT_SUCCESS);
    const uint8_t status[] = {0xcc, 0x01};
    ck_assert_int_eq(ntsim_explicit_append(x, 0, status, sizeof status), NRT_SUCCESS);
    ntsim_trace_info_t info;
    size_t n;
    ck_assert_int_eq(ntsim_explicit_collect(x, &info, 1, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(info.trace_type, NOTIFICATION_TRACE_TYPE_EXPLICIT);
    ck_assert_int_eq(info.block_type, BLOCK_TYPE_TOPSP);
    ck_assert_uint_eq(info.payload_len, 2);

    ntsim_trace_info_t routed;
    ck_assert_int_eq(ntsim_notify_wrap(NOTIFICATION_TYPE_TOPSP_CC_STATUS, 0, status,
                                       sizeof status, &routed),
                     NRT_INVALID);
    ck_assert_str_eq(ntsim_fixture.last_message, "Invalid notification type: 9");
    ntsim_notify_stats_t s;
    ck_assert_int_eq(ntsim_notify_stats(&s), NRT_SUCCESS);
    ck_assert_uint_eq(s.explicit_infos, 1);
    ck_assert_uint_eq(s.dropped_cc_status, 1);
    ck_assert_uint_eq(s.converted, 0);
    ntsim_explicit_free(x);
}
END_TEST

START_TEST(test_explicit_rejects_bad_arguments)
{
    ntsim_explicit_notifs_t *x = NULL;
    ck_assert_int_eq(ntsim_explicit_create(0, &x), NRT_INVALID);
    ck_assert_int_eq(ntsim_explicit_create(257, &x), NRT_INVALID);
    ck_assert_int_eq(ntsim_explicit_create(256, &x), NRT_SUCCESS); /* the bound is 1..256 */
    ntsim_explicit_free(x);
    ck_assert_int_eq(ntsim_explicit_create(2, NULL), NRT_INVALID);
    ck_assert_int_eq(ntsim_explicit_create(2, &x), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_explicit_append(x, 2, (const uint8_t *)"a", 1), NRT_INVALID);
    ck_assert_int_eq(ntsim_explicit_append(x, 0, NULL, 1), NRT_INVALID);
    /* A length past what can be addressed is refused before a byte is read,
     * and what was appended before it stays. */
    ck_assert_int_eq(ntsim_explicit_append(x, 0, (const uint8_t *)"ab", 2), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_explicit_append(x, 0, (const uint8_t *)"c", SIZE_MAX), NRT_RESOURCE);
    ntsim_trace_info_t out[2];
    size_t n;
    ck_assert_int_eq(ntsim_explicit_collect(x, out, 1, &n), NRT_INVALID); /* room for 2 */
    ck_assert_int_eq(ntsim_explicit_collect(x, out, 2, &n), NRT_SUCCESS);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(out[0].payload_len, 2);
    ck_assert_mem_eq(out[0].payload, "ab", 2);
    ck_assert_uint_eq(out[1].payload_len, 0);
    ntsim_explicit_free(x);
    ntsim_explicit_free(NULL);
}
END_TEST

/* D-NOTIFY: every conversion is counted, in total and by notification_type;
 * reset clears every counter. Type t is wrapped t + 1 times: 45 in all. */
START_TEST(test_conversions_are_counted_by_type_and_reset)
{
    ntsim_trace_info_t info;
    for (int32_t t = 0; t <= 8; t++)
        for (int32_t k = 0; k <= t; k++)
            ck_assert_int_eq(ntsim_notify_wrap(t, 0, NULL, 0, &info), NRT_SUCCESS);
    ck_assert_int_eq(ntsim_notify_wrap(10, 0, NULL, 0, &info), NRT_INVALID);
    ntsim_explicit_notifs_t *x;
    ck_assert_int_eq(ntsim_explicit_create(2, &x), NRT_SUCCESS);
    ntsim_trace_info_t two[2];
    size_t n;
    ck_assert_int_eq(ntsim_explicit_collect(x, two, 2, &n), NRT_SUCCESS);
    ntsim_explicit_free(x);
    ntsim_notify_stats_t s;
    ck_assert_int_eq(ntsim_notify_stats(&s), NRT_SUCCESS);
    ck_assert_uint_eq(s.converted, 45);
    for (unsigned t = 0; t <= 8; t++)
        ck_assert_uint_eq(s.converted_by_type[t], t + 1);
    ck_assert_uint_eq(s.dropped, 1);
    ck_assert_uint_eq(s.dropped_max, 1);
    ck_assert_uint_eq(s.explicit_infos, 2);
    ntsim_notify_reset_stats();
    memset(&s, 0xff, sizeof s);
    ck_assert_int_eq(ntsim_notify_stats(&s), NRT_SUCCESS);
    ck_assert_uint_eq(s.converted, 0);
    for (unsigned t = 0; t <= 8; t++)
        ck_assert_uint_eq(s.converted_by_type[t], 0);
    ck_assert_uint_eq(s.dropped, 0);
    ck_assert_uint_eq(s.dropped_cc_status, 0);
    ck_assert_uint_eq(s.dropped_max, 0);
    ck_assert_uint_eq(s.dropped_out_of_range, 0);
    ck_assert_uint_eq(s.explicit_infos, 0);
}
END_TEST

/* D-ALLOCATOR: the EXPLICIT path frees every block it took, after a normal
 * life and after running out of memory at each allocation of create. */
START_TEST(test_explicit_path_frees_everything)
{
    ntsim_explicit_notifs_t *x = NULL;
    ntsim_probe_begin(UINT64_MAX);
    ck_assert_int_eq(ntsim_explicit_create(3, &x), NRT_SUCCESS);
    for (uint32_t i = 0; i < 3; i++)
        ck_assert_int_eq(ntsim_explicit_append(x, i, (const uint8_t *)"abc", i + 1), NRT_SUCCESS);
    ntsim_trace_info_t out[3];
    size_t n;
    ck_assert_int_eq(ntsim_explicit_collect(x, out, 3, &n), NRT_SUCCESS);
    ck_assert_uint_eq(ntsim_probe.live, 2 + 3); /* the struct, the buffer array, 3 buffers */
    ntsim_explicit_free(x);
    ntsim_probe_end();
    ck_assert_uint_eq(ntsim_probe.live, 0);
    for (uint64_t allow = 0; allow < 2; allow++) {
        ntsim_probe_begin(allow);
        ck_assert_int_eq(ntsim_explicit_create(3, &x), NRT_RESOURCE);
        ntsim_probe_end();
        ck_assert_uint_eq(ntsim_probe.live, 0);
    }
}
END_TEST

Suite *make_notify_suite(void)
{
    Suite *s = suite_create("notify");
    TCase *tc = tcase_create("notify_api");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_converter_never_produces_explicit);
    tcase_add_test(tc, test_converter_rejects_null_outputs_without_counting_a_drop);
    tcase_add_test(tc, test_explicit_trace_comes_out_and_the_converter_would_drop_it);
    tcase_add_test(tc, test_explicit_rejects_bad_arguments);
    tcase_add_test(tc, test_conversions_are_counted_by_type_and_reset);
    tcase_add_test(tc, test_explicit_path_frees_everything);
    suite_add_tcase(s, tc);
    return s;
}
