/*
 * conformance/unit/engine/capture/check_config.c: the configuration API
 * (engine/capture/config.c): the config and the fetch options, their defaults
 * and setters, the event types' names and categories, and the status names
 * (engine/status.c), each value from facts §4 or the ABI registry.
 */
#include <stdio.h>
#include <stdlib.h>

#include "abi_registry.h"
#include "check_capture.h"
#include "ring.h"

/* facts §4 defaults: all NCs and types on, max 0x100000. */
START_TEST(test_config_defaults_and_setters)
{
    nrt_sys_trace_config_t *cfg = NULL;
    ck_assert_int_eq(nrt_sys_trace_config_allocate(NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_config_allocate(&cfg), NRT_SUCCESS);
    ck_assert_uint_eq(cfg->max_events_per_nc, 0x100000);
    for (int i = 0; i < NTSIM_NC_COUNT; i++)
        ck_assert(cfg->capture_enabled_for_nc[i]);
    for (int t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        ck_assert(cfg->capture_enabled_for_event_type[t]);
    nrt_sys_trace_config_set_max_events_per_nc(cfg, 7);
    ck_assert_uint_eq(cfg->max_events_per_nc, 7); /* clamped only by start */
    nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, 255, false);
    ck_assert(!cfg->capture_enabled_for_nc[255]);
    nrt_sys_trace_config_set_capture_enabled_for_nc(cfg, 256, false);
    ck_assert_str_eq(ntsim_fixture.last_message, "nc_idx 256 is out of range [0, 255]: ignored");
    /* By the interned names the getter returns (facts §4, D-NAMES); the
     * enum suffix of the inspect layer's doc examples is not one of them. */
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, "device_exec",
                                                                             false),
                     NRT_INVALID);
    ck_assert(cfg->capture_enabled_for_event_type[7]);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg,
                                                                             "nc_exec_running",
                                                                             false),
                     NRT_SUCCESS);
    ck_assert(!cfg->capture_enabled_for_event_type[7]);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, "cc_running",
                                                                             false),
                     NRT_SUCCESS);
    ck_assert(!cfg->capture_enabled_for_event_type[8]);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, "nope", false),
                     NRT_INVALID);
    ck_assert_str_eq(ntsim_fixture.last_message, "unknown event type name 'nope'");
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(cfg, NULL, false),
                     NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_config_set_capture_enabled_for_event_type(NULL, "generic",
                                                                             false),
                     NRT_INVALID);
    const char **names;
    size_t count;
    ck_assert_int_eq(nrt_sys_trace_config_get_enabled_event_types(cfg, &names, &count),
                     NRT_SUCCESS);
    ck_assert_uint_eq(count, NRT_SYS_TRACE_EVENT_TYPE_COUNT - 2);
    ck_assert_str_eq(names[6], "cc_exec_barrier");
    ck_assert_str_eq(names[7], "nrt_tensor_read"); /* 7 and 8 are off */
    nrt_sys_trace_free_event_types(names, count);
    for (int t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        cfg->capture_enabled_for_event_type[t] = false;
    ck_assert_int_eq(nrt_sys_trace_config_get_enabled_event_types(cfg, &names, &count),
                     NRT_SUCCESS);
    ck_assert_ptr_null(names);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(nrt_sys_trace_config_get_enabled_event_types(cfg, NULL, &count),
                     NRT_INVALID);
    nrt_sys_trace_config_free(cfg);
}
END_TEST

/* facts §4: COUNT (46) names, index = enum value. */
START_TEST(test_get_event_types_lists_every_name_by_value)
{
    const char **names;
    size_t count;
    ck_assert_int_eq(nrt_sys_trace_get_event_types(NULL, &count), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_get_event_types(&names, NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_get_event_types(&names, &count), NRT_SUCCESS);
    ck_assert_uint_eq(count, NRT_SYS_TRACE_EVENT_TYPE_COUNT);
    ck_assert_str_eq(names[0], "generic");
    ck_assert_str_eq(names[24], "hw_notify");
    ck_assert_str_eq(names[7], "nc_exec_running");
    ck_assert_str_eq(names[36], "exec_consume_tpb_status_notifications");
    ck_assert_str_eq(names[45], "hostcc_wait");
    /* The setter accepts every name the getter returns. */
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    for (size_t i = 0; i < count; i++)
        ck_assert_int_eq(
            nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, names[i], false),
            NRT_SUCCESS);
    for (int t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        ck_assert(!cfg.capture_enabled_for_event_type[t]);
    /* Freed either way: with the helper, or with libc (facts §4). */
    for (size_t i = 0; i < count; i++)
        free((void *)names[i]);
    free((void *)names);
}
END_TEST

START_TEST(test_fetch_options_defaults_and_setters)
{
    nrt_sys_trace_fetch_options_t *o = NULL;
    ck_assert_int_eq(nrt_sys_trace_fetch_options_allocate(NULL), NRT_INVALID);
    ck_assert_int_eq(nrt_sys_trace_fetch_options_allocate(&o), NRT_SUCCESS);
    ck_assert_uint_eq(o->max_events_per_nc, 0);
    ck_assert_int_eq(o->nc_idx, -1);
    nrt_sys_trace_fetch_options_set_nc_idx(o, 7);
    ck_assert_int_eq(o->nc_idx, 7);
    nrt_sys_trace_fetch_options_set_nc_idx(o, UINT64_MAX);
    ck_assert_int_eq(o->nc_idx, -1);
    nrt_sys_trace_fetch_options_set_nc_idx(o, (UINT64_C(1) << 32) + 1);
    ck_assert_int_eq(o->nc_idx, INT32_MAX); /* D-FETCH-NC: kept as out of range */
    nrt_sys_trace_fetch_options_set_max_events_per_nc(o, 12);
    ck_assert_uint_eq(o->max_events_per_nc, 12);
    nrt_sys_trace_fetch_options_set_defaults(o);
    ck_assert_int_eq(o->nc_idx, -1);
    ck_assert_uint_eq(o->max_events_per_nc, 0);
    nrt_sys_trace_fetch_options_free(o);
}
END_TEST

/* facts §1: HARDWARE = {6,7,8,13,24,25,26}; t > 45 logs and is UNKNOWN. */
START_TEST(test_event_type_category_api)
{
    ck_assert_int_eq(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY),
                     NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE);
    ck_assert_int_eq(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_GENERIC),
                     NRT_SYS_TRACE_EVENT_CATEGORY_SOFTWARE);
    ck_assert_uint_eq(ntsim_fixture.warnings, 0);
    ck_assert_int_eq(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_COUNT),
                     NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN);
    char want[64];
    snprintf(want, sizeof want, "unknown event type %d: category UNKNOWN",
             (int)NRT_SYS_TRACE_EVENT_TYPE_COUNT);
    ck_assert_str_eq(ntsim_fixture.last_message, want);
}
END_TEST

/* D-STATUS-STR: every enumerator the compiled NRT_STATUS has is named by
 * its own spelling; the gaps of the enum are "UNKNOWN". The vectors
 * api.status_str.* pin the same by hand. */
START_TEST(test_status_string_is_the_enumerator_name)
{
    const ntsim_abi_enum_t *e = ntsim_abi_enum_find("NRT_STATUS");
    ck_assert_ptr_nonnull(e);
    for (size_t i = 0; i < e->member_count; i++)
        ck_assert_str_eq(nrt_get_status_as_str((NRT_STATUS)e->members[i].value),
                         e->members[i].name);
    ck_assert_str_eq(nrt_get_status_as_str((NRT_STATUS)8), "UNKNOWN");
    ck_assert_str_eq(nrt_get_status_as_str((NRT_STATUS)1207), "UNKNOWN");
}
END_TEST

Suite *make_config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_config_defaults_and_setters);
    tcase_add_test(tc, test_get_event_types_lists_every_name_by_value);
    tcase_add_test(tc, test_fetch_options_defaults_and_setters);
    tcase_add_test(tc, test_event_type_category_api);
    tcase_add_test(tc, test_status_string_is_the_enumerator_name);
    suite_add_tcase(s, tc);
    return s;
}
