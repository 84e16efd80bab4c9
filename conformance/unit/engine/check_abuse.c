/*
 * conformance/unit/engine/check_abuse.c: the public API used as a hostile or careless
 * caller would: every exported function with NULL where it takes a pointer
 * (and calls back into the engine from inside its own hooks:
 * check_abuse_hooks.c, in the same case).
 *
 * The rule (D-STATUS, D-API-ARGS): a function that returns NRT_STATUS
 * returns NRT_INVALID for a NULL it cannot use; a void function ignores it;
 * nothing crashes and nothing already captured is lost.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_fixture.h"
#include "check_suites.h"
#include "nrt/nrt_profile_notification.h"
#include "ntsim/convert.h"
#include "ntsim/analyze.h"
#include "ntsim/read.h"

/* --- every exported function with NULL ------------------------------------------------ */

typedef struct null_case {
    const char *symbol;       /* as listed in conformance/cli/exported_symbols.txt */
    void (*call)(void);       /* calls it with NULL for every pointer, checks the result */
} null_case_t;

#define STATUS_IS_INVALID(expr) ck_assert_int_eq((expr), NRT_INVALID)

static void n_config_allocate(void) { STATUS_IS_INVALID(nrt_sys_trace_config_allocate(NULL)); }
static void n_config_set_defaults(void) { nrt_sys_trace_config_set_defaults(NULL); }
static void n_config_free(void) { nrt_sys_trace_config_free(NULL); }
static void n_config_set_max(void) { nrt_sys_trace_config_set_max_events_per_nc(NULL, 5); }
static void n_config_set_nc(void) { nrt_sys_trace_config_set_capture_enabled_for_nc(NULL, 1, 0); }
static void n_config_set_type(void)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    STATUS_IS_INVALID(nrt_sys_trace_config_set_capture_enabled_for_event_type(NULL, "generic", 0));
    STATUS_IS_INVALID(nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, NULL, 0));
}
static void n_config_get_types(void)
{
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    const char **names;
    size_t count;
    STATUS_IS_INVALID(nrt_sys_trace_config_get_enabled_event_types(NULL, &names, &count));
    STATUS_IS_INVALID(nrt_sys_trace_config_get_enabled_event_types(&cfg, NULL, &count));
    STATUS_IS_INVALID(nrt_sys_trace_config_get_enabled_event_types(&cfg, &names, NULL));
}
static void n_get_event_types(void)
{
    const char **names;
    size_t count;
    STATUS_IS_INVALID(nrt_sys_trace_get_event_types(NULL, &count));
    STATUS_IS_INVALID(nrt_sys_trace_get_event_types(&names, NULL));
}
static void n_free_event_types(void) { nrt_sys_trace_free_event_types(NULL, 5); }
static void n_start(void) { STATUS_IS_INVALID(nrt_sys_trace_start(NULL)); }
static void n_stop(void) { ck_assert_int_eq(nrt_sys_trace_stop(), NRT_FAILURE); }
static void n_fetch_options_allocate(void)
{
    STATUS_IS_INVALID(nrt_sys_trace_fetch_options_allocate(NULL));
}
static void n_fetch_options_defaults(void) { nrt_sys_trace_fetch_options_set_defaults(NULL); }
static void n_fetch_options_free(void) { nrt_sys_trace_fetch_options_free(NULL); }
static void n_fetch_options_max(void) { nrt_sys_trace_fetch_options_set_max_events_per_nc(NULL, 1); }
static void n_fetch_options_nc(void) { nrt_sys_trace_fetch_options_set_nc_idx(NULL, 1); }
static void n_fetch_events(void)
{
    char *buf = NULL;
    size_t len;
    STATUS_IS_INVALID(nrt_sys_trace_fetch_events(NULL, &len, NULL));
    STATUS_IS_INVALID(nrt_sys_trace_fetch_events(&buf, NULL, NULL));
}
static void n_buffer_free(void) { nrt_sys_trace_buffer_free(NULL); }
static void n_new_event(void)
{
    /* data NULL is an all-zero payload, not an error (ntsim/capture.h). */
    ck_assert_uint_eq(nrt_sys_trace_new_event(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                                              NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL, 5),
                      0); /* not capturing */
}
static void n_new_event_with_seq(void)
{
    ck_assert_uint_eq(nrt_sys_trace_new_event_with_seq(NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY,
                                                       NRT_SYS_TRACE_EVENT_PHASE_INSTANT, 0, NULL,
                                                       5, 7),
                      0);
}
static void n_drain(void)
{
    nrt_sys_trace_event_t rec;
    STATUS_IS_INVALID(nrt_sys_trace_drain_events(0, &rec, 1, NULL));
    STATUS_IS_INVALID(nrt_sys_trace_drain_events(0, NULL, 1, &(size_t){0}));
}
static void n_category(void)
{
    ck_assert_int_eq(nrt_sys_trace_get_event_type_category(NRT_SYS_TRACE_EVENT_TYPE_COUNT),
                     NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN);
}
static void n_convert(void)
{
    int32_t trace_type, block_type;
    STATUS_IS_INVALID(nrt_profile_convert_trace_type_from_ntff_params(0, NULL, &block_type));
    STATUS_IS_INVALID(nrt_profile_convert_trace_type_from_ntff_params(0, &trace_type, NULL));
}
static void n_status_str(void)
{
    /* No pointer to pass: a value that is no status is "UNKNOWN" (D-STATUS-STR). */
    ck_assert_str_eq(nrt_get_status_as_str((NRT_STATUS)8), "UNKNOWN");
}
static void n_set_hooks(void) { ck_assert_int_eq(ntsim_capture_set_hooks(NULL), NRT_SUCCESS); }
static void n_nc_stats(void) { STATUS_IS_INVALID(ntsim_capture_nc_stats(0, NULL)); }
static void n_global_stats(void) { STATUS_IS_INVALID(ntsim_capture_global_stats(NULL)); }
static void n_is_capturing(void) { ck_assert(!ntsim_capture_is_capturing()); }
static void n_shutdown(void) { ntsim_capture_shutdown(); }
static void n_replace_allocator(void)
{
    /* Some but not all NULL is refused; all NULL is libc's allocator. */
    STATUS_IS_INVALID(ntsim_replace_allocator(NULL, realloc, calloc, free));
    ck_assert_int_eq(ntsim_replace_allocator(NULL, NULL, NULL, NULL), NRT_SUCCESS);
}
static void n_log_sink(void) { ntsim_log_set_sink(NULL, NULL); /* the default sink */ }
static void n_gid_map(void) { ck_assert_int_eq(ntsim_json_set_gid_map(NULL, 3), NRT_SUCCESS); }
static void n_model_lookup(void)
{
    ck_assert_int_eq(ntsim_json_set_model_lookup(NULL, NULL), NRT_SUCCESS);
}
static void n_json_stats(void) { STATUS_IS_INVALID(ntsim_json_stats(NULL)); }
static void n_json_reset(void) { ntsim_json_reset_stats(); }
static void n_json_serialize(void)
{
    char *out;
    size_t len;
    nrt_sys_trace_event_t rec;
    memset(&rec, 0, sizeof rec);
    STATUS_IS_INVALID(ntsim_json_serialize(NULL, 1, &out, &len));
    STATUS_IS_INVALID(ntsim_json_serialize(&rec, 1, NULL, &len));
    STATUS_IS_INVALID(ntsim_json_serialize(&rec, 1, &out, NULL));
}
static void n_json_serialize_events(void)
{
    char *out;
    size_t len;
    STATUS_IS_INVALID(ntsim_json_serialize_events(NULL, 1, &out, &len));
    STATUS_IS_INVALID(ntsim_json_serialize_events(NULL, 0, NULL, &len));
    STATUS_IS_INVALID(ntsim_json_serialize_events(NULL, 0, &out, NULL));
}
static void n_json_escape(void)
{
    /* NULL with length 0 is the empty string; NULL out with cap 0 measures. */
    ck_assert_uint_eq(ntsim_json_escape(NULL, 0, NULL, 0), 2);
}
static void n_ntff_serialize(void)
{
    uint8_t *out;
    size_t len;
    STATUS_IS_INVALID(ntsim_ntff_serialize(NULL, 1, NULL, 0, NULL, &out, &len));
    STATUS_IS_INVALID(ntsim_ntff_serialize(NULL, 0, NULL, 1, NULL, &out, &len));
    STATUS_IS_INVALID(ntsim_ntff_serialize(NULL, 0, NULL, 0, NULL, NULL, &len));
    STATUS_IS_INVALID(ntsim_ntff_serialize(NULL, 0, NULL, 0, NULL, &out, NULL));
}
static void n_ntff_writer(void)
{
    ntsim_ntff_writer_t *w;
    const uint8_t *bytes;
    size_t len;
    STATUS_IS_INVALID(ntsim_ntff_writer_create(NULL, NULL));
    STATUS_IS_INVALID(ntsim_ntff_writer_events(NULL, NULL, 0, &bytes, &len));
    STATUS_IS_INVALID(ntsim_ntff_writer_infos(NULL, NULL, 0, &bytes, &len));
    STATUS_IS_INVALID(ntsim_ntff_writer_finish(NULL, &bytes, &len));
    ntsim_ntff_writer_free(NULL);
    /* NULL options write no scalars; the pieces still need their out pointers. */
    ck_assert_int_eq(ntsim_ntff_writer_create(NULL, &w), NRT_SUCCESS);
    STATUS_IS_INVALID(ntsim_ntff_writer_events(w, NULL, 1, &bytes, &len));
    STATUS_IS_INVALID(ntsim_ntff_writer_events(w, NULL, 0, NULL, &len));
    STATUS_IS_INVALID(ntsim_ntff_writer_infos(w, NULL, 1, &bytes, &len));
    STATUS_IS_INVALID(ntsim_ntff_writer_finish(w, &bytes, NULL));
    ntsim_ntff_writer_free(w);
}
static void n_ntff_write_file(void)
{
    STATUS_IS_INVALID(ntsim_ntff_write_file(NULL, NULL, 0, NULL, 0, NULL));
}
static void n_timeline_stats(void)
{
    ntsim_timeline_stats_t st;
    STATUS_IS_INVALID(ntsim_timeline_stats(NULL, 1, NULL, &st));
    STATUS_IS_INVALID(ntsim_timeline_stats(NULL, 0, NULL, NULL));
    /* No records and no options: an empty timeline, not an error. */
    ck_assert_int_eq(ntsim_timeline_stats(NULL, 0, NULL, &st), NRT_SUCCESS);
    ck_assert_uint_eq(st.spans + st.instants + st.lanes, 0);
}
static void n_pftrace(void)
{
    uint8_t *out;
    size_t len;
    STATUS_IS_INVALID(ntsim_pftrace_serialize(NULL, 1, NULL, &out, &len));
    STATUS_IS_INVALID(ntsim_pftrace_serialize(NULL, 0, NULL, NULL, &len));
    STATUS_IS_INVALID(ntsim_pftrace_serialize(NULL, 0, NULL, &out, NULL));
}
static void n_chrome_trace(void)
{
    char *out;
    size_t len;
    STATUS_IS_INVALID(ntsim_chrome_trace_serialize(NULL, 1, NULL, &out, &len));
    STATUS_IS_INVALID(ntsim_chrome_trace_serialize(NULL, 0, NULL, NULL, &len));
    STATUS_IS_INVALID(ntsim_chrome_trace_serialize(NULL, 0, NULL, &out, NULL));
}
static void n_timeline_html(void)
{
    char *out;
    size_t len;
    STATUS_IS_INVALID(ntsim_timeline_html_serialize(NULL, 1, NULL, &out, &len));
    STATUS_IS_INVALID(ntsim_timeline_html_serialize(NULL, 0, NULL, NULL, &len));
    STATUS_IS_INVALID(ntsim_timeline_html_serialize(NULL, 0, NULL, &out, NULL));
}
static void n_trace_read(void)
{
    ntsim_trace_t *t = (ntsim_trace_t *)&t;
    char err[64];
    STATUS_IS_INVALID(ntsim_trace_read(NULL, 1, NULL, &t, err, sizeof err));
    STATUS_IS_INVALID(ntsim_trace_read("", 0, NULL, NULL, err, sizeof err));
    /* No bytes, no limits, no room for a message: an empty record dump. */
    ck_assert_int_eq(ntsim_trace_read(NULL, 0, NULL, &t, NULL, 0), NRT_SUCCESS);
    ck_assert_uint_eq(t->event_count, 0);
    ntsim_trace_free(t);
}
static void n_trace_read_file(void)
{
    ntsim_trace_t *t;
    STATUS_IS_INVALID(ntsim_trace_read_file(NULL, NULL, &t, NULL, 0));
    STATUS_IS_INVALID(ntsim_trace_read_file("/dev/null", NULL, NULL, NULL, 0));
    /* A refusal with no room for its message is still a refusal. */
    STATUS_IS_INVALID(ntsim_trace_read_file("/dev/null", NULL, &t, NULL, 0));
    ck_assert_ptr_null(t);
}
static void n_trace_free(void) { ntsim_trace_free(NULL); }
static void n_trace_scan_file(void)
{
    ntsim_trace_t *t = NULL;
    STATUS_IS_INVALID(ntsim_trace_scan_file(NULL, NULL, NULL, NULL, &t, NULL, 0));
    STATUS_IS_INVALID(ntsim_trace_scan_file("/dev/null", NULL, NULL, NULL, NULL, NULL, 0));
    ck_assert_ptr_null(t);
}
static void n_stats(void)
{
    ntsim_stats_t *s = NULL;
    ntsim_stats_report_t *r = NULL;
    STATUS_IS_INVALID(ntsim_stats_create(1, NULL));
    STATUS_IS_INVALID(ntsim_stats_create(NTSIM_STATS_TOP_MAX + 1, &s));
    STATUS_IS_INVALID(ntsim_stats_add(NULL, NULL, 0));
    STATUS_IS_INVALID(ntsim_stats_report(NULL, &r));
    STATUS_IS_INVALID(ntsim_stats_file(NULL, NULL, 1, &r, NULL, 0));
    STATUS_IS_INVALID(ntsim_stats_write_json(NULL, stdout));
    STATUS_IS_INVALID(ntsim_stats_write_text(NULL, stdout));
    ck_assert_int_eq(ntsim_stats_create(1, &s), NRT_SUCCESS);
    STATUS_IS_INVALID(ntsim_stats_add(s, NULL, 1));
    STATUS_IS_INVALID(ntsim_stats_report(s, NULL));
    ck_assert_int_eq(ntsim_stats_report(s, &r), NRT_SUCCESS);
    STATUS_IS_INVALID(ntsim_stats_write_json(r, NULL));
    ntsim_stats_report_free(r);
    ntsim_stats_free(s);
    ntsim_stats_report_free(NULL);
    ntsim_stats_free(NULL);
}
static void n_diff(void)
{
    ntsim_diff_summary_t sum;
    ntsim_trace_t empty;
    memset(&empty, 0, sizeof empty);
    STATUS_IS_INVALID(ntsim_trace_diff(NULL, &empty, NULL, NULL, NULL, &sum));
    STATUS_IS_INVALID(ntsim_trace_diff(&empty, NULL, NULL, NULL, NULL, &sum));
    STATUS_IS_INVALID(ntsim_trace_diff(&empty, &empty, NULL, NULL, NULL, NULL));
    ck_assert(!ntsim_diff_field_check(NULL, NULL));
    ntsim_diff_summary_free(NULL);
    /* two empty traces are the same, whatever the formats */
    ck_assert_int_eq(ntsim_trace_diff(&empty, &empty, NULL, NULL, NULL, &sum), NRT_SUCCESS);
    ck_assert_uint_eq(sum.matched + sum.differences + sum.only_a + sum.only_b, 0);
    ntsim_diff_summary_free(&sum);
}
static void n_trace_format_detect(void)
{
    ck_assert_int_eq(ntsim_trace_format_detect(NULL, 5, 5), NTSIM_TRACE_FORMAT_RECORDS);
}
static void n_trace_format_title(void)
{
    ck_assert_str_eq(ntsim_trace_format_title((ntsim_trace_format_t)0), "an unknown format");
}
static void n_decode(void)
{
    char err[64];
    STATUS_IS_INVALID(ntsim_decode_ntff(NULL, 1, 1, stdout, err, sizeof err));
    STATUS_IS_INVALID(ntsim_decode_ntff((const uint8_t *)"", 0, 1, NULL, err, sizeof err));
    STATUS_IS_INVALID(ntsim_decode_records(NULL, 112, false, stdout, err, sizeof err));
    STATUS_IS_INVALID(ntsim_decode_records((const uint8_t *)"", 0, false, NULL, err, sizeof err));
    STATUS_IS_INVALID(ntsim_decode_record_stream(NULL, 0, false, stdout, err, sizeof err));
    STATUS_IS_INVALID(ntsim_decode_record_stream(stdin, 0, false, NULL, err, sizeof err));
    STATUS_IS_INVALID(ntsim_decode_records((const uint8_t *)"", 0, false, stdout, NULL, 8));
}
static void n_output_formats(void)
{
    /* NULL count: the table all the same; each writer refuses NULL too. */
    ck_assert_ptr_nonnull(ntsim_output_formats(NULL));
    size_t count;
    const ntsim_output_format_t *f = ntsim_output_formats(&count);
    for (size_t i = 0; i < count; i++) {
        STATUS_IS_INVALID(f[i].write(NULL, 0, NULL, NULL));
        STATUS_IS_INVALID(f[i].write(NULL, 1, NULL, stdout));
    }
}
static void n_output_format_for_path(void) { ck_assert_ptr_null(ntsim_output_format_for_path(NULL)); }
static void n_output_format_named(void) { ck_assert_ptr_null(ntsim_output_format_named(NULL)); }
static void n_intern(void) { ck_assert_uint_eq(ntsim_intern_name_id(NULL), 0); }
static void n_buffer_free_ntsim(void) { ntsim_buffer_free(NULL); }
static void n_notify_stats(void) { STATUS_IS_INVALID(ntsim_notify_stats(NULL)); }
static void n_notify_reset(void) { ntsim_notify_reset_stats(); }
static void n_notify_wrap(void)
{
    ntsim_trace_info_t info;
    STATUS_IS_INVALID(ntsim_notify_wrap(0, 0, NULL, 4, &info));
    STATUS_IS_INVALID(ntsim_notify_wrap(0, 0, NULL, 0, NULL));
}
static void n_explicit(void)
{
    ntsim_explicit_notifs_t *x;
    ntsim_trace_info_t info;
    size_t count;
    STATUS_IS_INVALID(ntsim_explicit_create(1, NULL));
    STATUS_IS_INVALID(ntsim_explicit_append(NULL, 0, (const uint8_t *)"a", 1));
    STATUS_IS_INVALID(ntsim_explicit_collect(NULL, &info, 1, &count));
    ntsim_explicit_free(NULL);
    ck_assert_int_eq(ntsim_explicit_create(1, &x), NRT_SUCCESS);
    STATUS_IS_INVALID(ntsim_explicit_append(x, 0, NULL, 1));
    STATUS_IS_INVALID(ntsim_explicit_collect(x, NULL, 1, &count));
    STATUS_IS_INVALID(ntsim_explicit_collect(x, &info, 1, NULL));
    ntsim_explicit_free(x);
}

static const null_case_t null_cases[] = {
    {"nrt_get_status_as_str", n_status_str},
    {"nrt_profile_convert_trace_type_from_ntff_params", n_convert},
    {"nrt_sys_trace_buffer_free", n_buffer_free},
    {"nrt_sys_trace_config_allocate", n_config_allocate},
    {"nrt_sys_trace_config_free", n_config_free},
    {"nrt_sys_trace_config_get_enabled_event_types", n_config_get_types},
    {"nrt_sys_trace_config_set_capture_enabled_for_event_type", n_config_set_type},
    {"nrt_sys_trace_config_set_capture_enabled_for_nc", n_config_set_nc},
    {"nrt_sys_trace_config_set_defaults", n_config_set_defaults},
    {"nrt_sys_trace_config_set_max_events_per_nc", n_config_set_max},
    {"nrt_sys_trace_drain_events", n_drain},
    {"nrt_sys_trace_fetch_events", n_fetch_events},
    {"nrt_sys_trace_fetch_options_allocate", n_fetch_options_allocate},
    {"nrt_sys_trace_fetch_options_free", n_fetch_options_free},
    {"nrt_sys_trace_fetch_options_set_defaults", n_fetch_options_defaults},
    {"nrt_sys_trace_fetch_options_set_max_events_per_nc", n_fetch_options_max},
    {"nrt_sys_trace_fetch_options_set_nc_idx", n_fetch_options_nc},
    {"nrt_sys_trace_free_event_types", n_free_event_types},
    {"nrt_sys_trace_get_event_type_category", n_category},
    {"nrt_sys_trace_get_event_types", n_get_event_types},
    {"nrt_sys_trace_new_event", n_new_event},
    {"nrt_sys_trace_new_event_with_seq", n_new_event_with_seq},
    {"nrt_sys_trace_start", n_start},
    {"nrt_sys_trace_stop", n_stop},
    {"ntsim_buffer_free", n_buffer_free_ntsim},
    {"ntsim_capture_global_stats", n_global_stats},
    {"ntsim_capture_is_capturing", n_is_capturing},
    {"ntsim_capture_nc_stats", n_nc_stats},
    {"ntsim_capture_set_hooks", n_set_hooks},
    {"ntsim_capture_shutdown", n_shutdown},
    {"ntsim_chrome_trace_serialize", n_chrome_trace},
    {"ntsim_decode_ntff", n_decode},
    {"ntsim_decode_record_stream", n_decode},
    {"ntsim_decode_records", n_decode},
    {"ntsim_explicit_append", n_explicit},
    {"ntsim_explicit_collect", n_explicit},
    {"ntsim_explicit_create", n_explicit},
    {"ntsim_explicit_free", n_explicit},
    {"ntsim_intern_name_id", n_intern},
    {"ntsim_json_escape", n_json_escape},
    {"ntsim_json_reset_stats", n_json_reset},
    {"ntsim_json_serialize", n_json_serialize},
    {"ntsim_json_serialize_events", n_json_serialize_events},
    {"ntsim_json_set_gid_map", n_gid_map},
    {"ntsim_json_set_model_lookup", n_model_lookup},
    {"ntsim_json_stats", n_json_stats},
    {"ntsim_log_set_sink", n_log_sink},
    {"ntsim_notify_reset_stats", n_notify_reset},
    {"ntsim_notify_stats", n_notify_stats},
    {"ntsim_notify_wrap", n_notify_wrap},
    {"ntsim_replace_allocator", n_replace_allocator},
    {"ntsim_ntff_serialize", n_ntff_serialize},
    {"ntsim_ntff_write_file", n_ntff_write_file},
    {"ntsim_ntff_writer_create", n_ntff_writer},
    {"ntsim_ntff_writer_events", n_ntff_writer},
    {"ntsim_ntff_writer_finish", n_ntff_writer},
    {"ntsim_ntff_writer_free", n_ntff_writer},
    {"ntsim_ntff_writer_infos", n_ntff_writer},
    {"ntsim_output_format_for_path", n_output_format_for_path},
    {"ntsim_output_format_named", n_output_format_named},
    {"ntsim_output_formats", n_output_formats},
    {"ntsim_pftrace_serialize", n_pftrace},
    {"ntsim_timeline_html_serialize", n_timeline_html},
    {"ntsim_timeline_stats", n_timeline_stats},
    {"ntsim_trace_format_detect", n_trace_format_detect},
    {"ntsim_trace_format_title", n_trace_format_title},
    {"ntsim_trace_free", n_trace_free},
    {"ntsim_trace_read", n_trace_read},
    {"ntsim_trace_read_file", n_trace_read_file},
    {"ntsim_trace_scan_file", n_trace_scan_file},
    {"ntsim_stats_add", n_stats},
    {"ntsim_stats_create", n_stats},
    {"ntsim_stats_file", n_stats},
    {"ntsim_stats_free", n_stats},
    {"ntsim_stats_report", n_stats},
    {"ntsim_stats_report_free", n_stats},
    {"ntsim_stats_write_json", n_stats},
    {"ntsim_stats_write_text", n_stats},
    {"ntsim_trace_diff", n_diff},
    {"ntsim_diff_summary_free", n_diff},
    {"ntsim_diff_field_check", n_diff},
};

START_TEST(test_every_public_function_takes_null_without_crashing)
{
    null_cases[_i].call();
}
END_TEST

/* The table above covers every symbol libntsim.so exports, so a new public
 * function cannot skip this test. */
START_TEST(test_null_cases_cover_every_exported_symbol)
{
    FILE *f = fopen(ntsim_check_exported_symbols_path, "r");
    ck_assert_msg(f != NULL, "%s: cannot open", ntsim_check_exported_symbols_path);
    char line[256];
    unsigned symbols = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        symbols++;
        bool found = false;
        for (size_t i = 0; i < sizeof null_cases / sizeof null_cases[0] && !found; i++)
            found = strcmp(null_cases[i].symbol, line) == 0;
        ck_assert_msg(found, "%s is exported but check_abuse.c never calls it with NULL", line);
    }
    fclose(f);
    ck_assert_uint_gt(symbols, 40);
}
END_TEST

Suite *make_abuse_suite(void)
{
    Suite *s = suite_create("abuse");
    TCase *tc = tcase_create("abuse");
    tcase_add_loop_test(tc, test_every_public_function_takes_null_without_crashing, 0,
                        (int)(sizeof null_cases / sizeof null_cases[0]));
    tcase_add_test(tc, test_null_cases_cover_every_exported_symbol);
    ntsim_check_add_abuse_hooks(tc);
    suite_add_tcase(s, tc);
    return s;
}
