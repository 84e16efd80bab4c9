/*
 * conformance/unit/harness/check_loader.c: the loader's errors and the runners' reports.
 *
 * The broken files live in <testdata>/bad/; each one's first line says where
 * it is broken, and the expected error below is that position in our format
 * "file:line:col: field: message". The well-formed but wrong vectors live in
 * <testdata>/wrong/; their expected reports are worked out from the spec
 * value each one gets wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_suites.h"
#include "key_sort.h"
#include "kinds.h"
#include "ntsim/capture.h"
#include "testee_engine.h"

/* <testdata>/<sub>/<file>, in a static buffer (one at a time). */
static const char *data_path(const char *sub, const char *file)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s/%s", ntsim_check_testdata_dir, sub, file);
    return buf;
}

/* Loads bad/<file>; asserts the status, the error count, and that errors[0]
 * is "<path><suffix>". Returns the set for further checks; caller frees. */
static void expect_load_error(ntsim_vector_set_t *set, const char *file, NRT_STATUS want_status,
                              size_t want_errors, const char *suffix)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", data_path("bad", file));
    ntsim_vector_set_init(set);
    NRT_STATUS st = ntsim_vector_set_load_file(set, path);
    ck_assert_int_eq(st, want_status);
    ck_assert_uint_eq(set->errors.count, want_errors);
    char want[2048];
    snprintf(want, sizeof want, "%s%s", path, suffix);
    ck_assert_str_eq(set->errors.items[0], want);
}

/* One test per broken file: the whole error line is pinned. */
#define LOAD_ERROR_TEST(name, file, suffix)                                         \
    START_TEST(name)                                                                \
    {                                                                               \
        ntsim_vector_set_t set;                                                     \
        expect_load_error(&set, file, NRT_INVALID, 1, suffix);                      \
        ck_assert_uint_eq(set.count, 0);                                            \
        ntsim_vector_set_free(&set);                                                \
    }                                                                               \
    END_TEST

LOAD_ERROR_TEST(test_loader_rejects_unknown_key, "unknown_key.yaml",
                ":10:5: vectors[0].sizee: unknown key (did you mean size?)")
LOAD_ERROR_TEST(test_loader_rejects_missing_field, "missing_field.yaml",
                ":5:5: vectors[0].source: missing required field")
LOAD_ERROR_TEST(test_loader_rejects_word_for_integer, "wrong_type.yaml",
                ":9:11: vectors[0].size: expected an integer, got 'sixteen'")
LOAD_ERROR_TEST(test_loader_rejects_quoted_integer, "quoted_integer.yaml",
                ":9:11: vectors[0].size: expected an integer, got the quoted string '16' (a "
                "quoted scalar is a string: write it without quotes)")
LOAD_ERROR_TEST(test_loader_rejects_leading_zero, "leading_zero.yaml",
                ":9:11: vectors[0].size: '016' has a leading zero, which is not read as octal "
                "here: write 16")
LOAD_ERROR_TEST(test_loader_rejects_out_of_range_integer, "out_of_range.yaml",
                ":12:38: vectors[0].members[0].value: 2147483648 is out of range "
                "[-2147483648, 2147483647]")
LOAD_ERROR_TEST(test_loader_rejects_unknown_kind, "unknown_kind.yaml",
                ":3:7: kind: unknown kind 'layuot' (did you mean layout?)")
LOAD_ERROR_TEST(test_loader_rejects_id_without_kind_prefix, "id_prefix.yaml",
                ":5:9: vectors[0].id: 'sync_info' must be 'layout.' followed by [a-z0-9_.-]")
LOAD_ERROR_TEST(test_loader_rejects_value_without_provenance, "no_provenance.yaml",
                ":7:13: vectors[0].source: 'the program's output' must list fact and decision "
                "ids (S3.hw_notify, F2.json.key_order, D-PHASE)")
LOAD_ERROR_TEST(test_loader_rejects_unknown_flag, "unknown_flag.yaml",
                ":8:21: vectors[0].flags[1]: unknown flag 'holes'")
LOAD_ERROR_TEST(test_loader_rejects_invalid_for_a_kind_without_one, "invalid_not_allowed.yaml",
                ":8:13: vectors[0].expect: kind 'layout' has no invalid vectors")
LOAD_ERROR_TEST(test_loader_rejects_duplicate_key, "duplicate_key.yaml",
                ":11:5: vectors[0].size: duplicate key")
LOAD_ERROR_TEST(test_loader_rejects_unknown_schema_version, "wrong_version.yaml",
                ":2:10: version: 2 is out of range [1, 1]")
LOAD_ERROR_TEST(test_loader_rejects_scalar_vector, "not_a_mapping.yaml",
                ":5:5: vectors[0]: expected a mapping, got a scalar")
LOAD_ERROR_TEST(test_loader_rejects_empty_vector_list, "empty_vectors.yaml",
                ":4:10: vectors: must not be empty")
LOAD_ERROR_TEST(test_loader_rejects_empty_document, "empty.yaml",
                ":1:1: (file): empty document")
LOAD_ERROR_TEST(test_json_vector_needs_its_document, "json_missing_document.yaml",
                ":5:5: vectors[0].json: missing required field")
LOAD_ERROR_TEST(test_ntff_vector_rejects_a_payload_that_is_not_hex, "ntff_bad_payload.yaml",
                ":11:49: vectors[0].infos[0].payload: expected hex digits")
LOAD_ERROR_TEST(test_notify_vector_rejects_an_unknown_drop_reason, "notify_bad_reason.yaml",
                ":10:21: vectors[0].dropped_reason: expected cc_status, max or out_of_range, "
                "got 'cc_stat'")
LOAD_ERROR_TEST(test_record_vector_rejects_a_field_its_payload_lacks,
                "record_unknown_payload_field.yaml",
                ":13:16: vectors[0].emits[0].data.hnit: unknown key (did you mean hint?)")
LOAD_ERROR_TEST(test_loader_rejects_a_prose_source, "legacy_source.yaml",
                ":7:13: vectors[0].source: 'spec §3' must list fact and decision ids "
                "(S3.hw_notify, F2.json.key_order, D-PHASE)")
LOAD_ERROR_TEST(test_json_string_vector_has_no_records, "json_string_and_records.yaml",
                ":8:13: vectors[0].string: a string vector has no records")
LOAD_ERROR_TEST(test_log_line_names_its_level, "record_log_level.yaml",
                ":14:9: vectors[0].log[0]: expected a level (error, warning, info), or {level: "
                "[part, ...]}, got 'nc_idx 256'")
LOAD_ERROR_TEST(test_log_part_must_demand_something, "record_log_part_empty.yaml",
                ":14:20: vectors[0].log[0].warning[0]: an empty text is in every message: leave "
                "it out")
LOAD_ERROR_TEST(test_json_models_give_an_execution_one_model, "json_models_twice.yaml",
                ":11:19: vectors[0].models[1]: exec_id '0x7' listed twice")
LOAD_ERROR_TEST(test_api_counts_allocations_only_where_a_decision_pins_them,
                "api_unpinned_allocation_count.yaml",
                ":12:47: vectors[0].calls[2].fail_allocations_after: only where a source pins "
                "the call's allocations (get_event_types: facts §4, D-ALLOCATOR); judge the "
                "others by their outcome with fail_allocations: sweep")
LOAD_ERROR_TEST(test_api_count_off_count_takes_decimal_digits, "api_types_count_offset.yaml",
                ":10:40: vectors[0].calls[0].count: expected N, COUNT, COUNT+K or COUNT-K (K up "
                "to COUNT)")
LOAD_ERROR_TEST(test_ntff_schema_vector_has_no_records, "ntff_schema_with_records.yaml",
                ":9:14: vectors[0].message: a schema vector has no records")

LOAD_ERROR_TEST(test_api_vector_rejects_an_unknown_call, "api_unknown_call.yaml",
                ":10:16: vectors[0].calls[0].call: unknown call 'config_alocate'")
LOAD_ERROR_TEST(test_api_vector_rejects_an_unknown_status_name, "api_status_name.yaml",
                ":12:17: vectors[0].calls[0].status: expected NRT_SUCCESS, NRT_FAILURE, "
                "NRT_INVALID or NRT_RESOURCE, got 'NRT_INVALD'")
LOAD_ERROR_TEST(test_api_vector_rejects_a_key_of_another_call, "api_key_of_another_call.yaml",
                ":10:22: vectors[0].calls[0].json: unknown key")
LOAD_ERROR_TEST(test_api_vector_rejects_a_config_used_before_allocate, "api_needs_config.yaml",
                ":10:9: vectors[0].calls[0]: start needs a config: call config_allocate first")
LOAD_ERROR_TEST(test_api_vector_rejects_a_null_argument_the_call_lacks, "api_null_arg.yaml",
                ":10:34: vectors[0].calls[0].null_args: 'config' is not a pointer argument of "
                "stop")
LOAD_ERROR_TEST(test_api_vector_rejects_a_document_for_a_failing_fetch,
                "api_failing_fetch_document.yaml",
                ":14:15: vectors[0].calls[0].json: a failing fetch returns no document")

LOAD_ERROR_TEST(test_inspect_vector_rejects_a_config_for_an_error,
                "inspect_config_when_invalid.yaml",
                ":11:18: vectors[0].ncs_enabled: an invalid vector expects no config")
LOAD_ERROR_TEST(test_inspect_vector_rejects_a_variable_set_twice, "inspect_env_twice.yaml",
                ":9:40: vectors[0].env.NEURON_RT_INSPECT_ENABLE: duplicate key")

START_TEST(test_loader_rejects_malformed_yaml)
{
    ntsim_vector_set_t set;
    const char *path = data_path("bad", "malformed_yaml.yaml");
    char prefix[1100];
    snprintf(prefix, sizeof prefix, "%s:", path);
    ntsim_vector_set_init(&set);
    ck_assert_int_eq(ntsim_vector_set_load_file(&set, path), NRT_INVALID);
    ck_assert_uint_eq(set.errors.count, 1);
    ck_assert_uint_eq(set.count, 0);
    /* The problem text is libyaml's; the position and the field are ours.
     * The unclosed sequence opens at line 6, so libyaml stops after it. */
    ck_assert_msg(strncmp(set.errors.items[0], prefix, strlen(prefix)) == 0, "got %s", set.errors.items[0]);
    unsigned line = 0, col = 0;
    ck_assert_int_eq(sscanf(set.errors.items[0] + strlen(prefix), "%u:%u:", &line, &col), 2);
    ck_assert_uint_ge(line, 6);
    ck_assert_ptr_nonnull(strstr(set.errors.items[0], ": yaml: "));
    ntsim_vector_set_free(&set);
}
END_TEST

START_TEST(test_loader_rejects_a_second_document)
{
    ntsim_vector_set_t set;
    /* The first document is good and stays loaded; the second is an error. */
    expect_load_error(&set, "two_documents.yaml", NRT_INVALID, 1,
                      ":14:1: (file): more than one YAML document; a file holds one");
    ck_assert_uint_eq(set.count, 1);
    ntsim_vector_set_free(&set);
}
END_TEST

START_TEST(test_loader_rejects_duplicate_id)
{
    ntsim_vector_set_t set;
    char suffix[2048];
    snprintf(suffix, sizeof suffix,
             ":13:9: vectors[1].id: duplicate id 'layout.sync_info' (first at %s:5)",
             data_path("bad", "duplicate_id.yaml"));
    expect_load_error(&set, "duplicate_id.yaml", NRT_INVALID, 1, suffix);
    ck_assert_uint_eq(set.count, 1);
    ntsim_vector_set_free(&set);
}
END_TEST

/* Nothing already loaded is lost: the good vectors of a bad file stay, and
 * every bad vector of the file is reported, not only the first. */
START_TEST(test_loader_keeps_good_vectors_and_reports_every_bad_one)
{
    ntsim_vector_set_t set;
    expect_load_error(&set, "mixed.yaml", NRT_INVALID, 2,
                      ":20:38: vectors[1].members[0].value: expected an integer, got 'zero'");
    char want[2048];
    snprintf(want, sizeof want, "%s:37:16: vectors[3].members[1]: member 'BLOCK_TYPE_NC' listed twice",
             data_path("bad", "mixed.yaml"));
    ck_assert_str_eq(set.errors.items[1], want);
    ck_assert_uint_eq(set.count, 2);
    ck_assert_str_eq(set.vectors[0].id, "enum.good_one");
    ck_assert_uint_eq(set.vectors[0].line, 5);
    ck_assert_str_eq(set.vectors[1].id, "enum.good_two");
    ck_assert_uint_eq(set.vectors[1].line, 21);
    ntsim_vector_set_free(&set);
}
END_TEST

START_TEST(test_loader_reports_a_missing_file)
{
    ntsim_vector_set_t set;
    ntsim_vector_set_init(&set);
    const char *path = data_path("bad", "no_such_file.yaml");
    ck_assert_int_eq(ntsim_vector_set_load_file(&set, path), NRT_FAILURE);
    ck_assert_uint_eq(set.errors.count, 1);
    char want[2048];
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    ck_assert_str_eq(set.errors.items[0], want);
    ntsim_vector_set_free(&set);
}
END_TEST

/* In a directory, a file whose bytes cannot be had (a link to nothing, a
 * FIFO) is named in `unreadable`, apart from a file whose content is bad:
 * the runner stops on the former as its own input failing (exit 2), and
 * counts the latter as a load failure (D-DATA-LOCATE). */
START_TEST(test_loader_names_files_it_cannot_read_apart_from_bad_content)
{
    char dir[] = "/tmp/ntsim_loader_XXXXXX", fifo[64], lost[64], broken[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo.yaml", dir);
    snprintf(lost, sizeof lost, "%s/lost.yaml", dir);
    snprintf(broken, sizeof broken, "%s/broken.yaml", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(symlink("nowhere.yaml", lost), 0);
    FILE *f = fopen(broken, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs("version: 1\nvectors: [\n", f), 0);
    ck_assert_int_eq(fclose(f), 0);

    ntsim_vector_set_t set;
    ntsim_vector_set_init(&set);
    ck_assert_int_ne(ntsim_vector_set_load_dir(&set, dir), NRT_SUCCESS);
    ck_assert_uint_eq(set.unreadable.count, 2);
    char want[160];
    snprintf(want, sizeof want, "%s: not a regular file (a FIFO)", fifo);
    ck_assert_str_eq(set.unreadable.items[0], want);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", lost);
    ck_assert_str_eq(set.unreadable.items[1], want);
    ck_assert_uint_eq(set.errors.count, 1);
    ck_assert_msg(strncmp(set.errors.items[0], broken, strlen(broken)) == 0, "got %s",
                  set.errors.items[0]);
    ck_assert_uint_eq(set.errors.files, 1); /* the two were never loaded */
    ntsim_vector_set_free(&set);
    ck_assert_int_eq(unlink(fifo) | unlink(lost) | unlink(broken) | rmdir(dir), 0);
}
END_TEST

START_TEST(test_loader_reads_a_directory_in_path_order)
{
    ntsim_vector_set_t set;
    ntsim_vector_set_init(&set);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/bad", ntsim_check_testdata_dir);
    ck_assert_int_eq(ntsim_vector_set_load_dir(&set, dir), NRT_INVALID);
    /* Every file is read even though most fail; the first error is the first
     * file in byte order (api_failing_fetch_document.yaml). */
    ck_assert_uint_ge(set.errors.files, 25);
    ck_assert_uint_ge(set.errors.count, set.errors.files - 1);
    char want[1100];
    snprintf(want, sizeof want, "%s/api_failing_fetch_document.yaml:", dir);
    ck_assert_msg(strncmp(set.errors.items[0], want, strlen(want)) == 0, "got %s", set.errors.items[0]);
    ntsim_vector_set_free(&set);

    ntsim_vector_set_init(&set);
    snprintf(dir, sizeof dir, "%s/no_such_dir", ntsim_check_testdata_dir);
    ck_assert_int_eq(ntsim_vector_set_load_dir(&set, dir), NRT_FAILURE);
    ck_assert_uint_eq(set.errors.count, 0);
    ck_assert_uint_eq(set.unreadable.count, 1);
    char missing[1100];
    snprintf(missing, sizeof missing, "%s: cannot read vector directory: No such file or directory",
             dir);
    ck_assert_str_eq(set.unreadable.items[0], missing);
    ntsim_vector_set_free(&set);
}
END_TEST

START_TEST(test_loader_rejects_non_text_input)
{
    ntsim_vector_set_t set;
    ntsim_vector_set_init(&set);
    static const char text[] = "version: 1\nkind: enum\nvectors: [\x01]\n";
    ck_assert_int_eq(ntsim_vector_set_load_string(&set, "control.yaml", text, sizeof text - 1),
                     NRT_INVALID);
    ck_assert_uint_eq(set.errors.count, 1);
    ck_assert_int_eq(strncmp(set.errors.items[0], "control.yaml:", strlen("control.yaml:")), 0);
    ntsim_vector_set_free(&set);
}
END_TEST

/* --- runners report every mismatch, with sub-id, field, expected and got --- */

/* Loads wrong/<file> (which must load cleanly), runs vector `index`. */
static void run_wrong(const char *file, size_t index, ntsim_vector_set_t *set, ntsim_report_t *r)
{
    ntsim_vector_set_init(set);
    ck_assert_int_eq(ntsim_vector_set_load_file(set, data_path("wrong", file)), NRT_SUCCESS);
    ck_assert_uint_gt(set->count, index);
    ntsim_report_init(r);
    ntsim_vector_run(&set->vectors[index], ntsim_testee_builtin(), r);
}

static void assert_reported(const ntsim_report_t *r, const char *line)
{
    ck_assert_msg(r->text != NULL && strstr(r->text, line) != NULL, "missing '%s' in report:\n%s",
                  line, r->text ? r->text : "(empty)");
}

START_TEST(test_layout_runner_reports_each_wrong_offset_size_and_type)
{
    ntsim_vector_set_t set;
    ntsim_report_t r;
    run_wrong("layout_hw_notify.yaml", 0, &set, &r);
    ck_assert_uint_eq(r.mismatches, 3);
    assert_reported(&r, "layout.hw_notify.hint: offset: expected 0x06, got 0x04\n");
    assert_reported(&r, "layout.hw_notify.hint: type: expected uint32, got uint16\n");
    assert_reported(&r, "layout.hw_notify.exec_id: size: expected 4, got 8\n");
    ntsim_report_free(&r);
    ntsim_vector_set_free(&set);
}
END_TEST

START_TEST(test_layout_runner_reports_fields_missing_either_way)
{
    ntsim_vector_set_t set;
    ntsim_report_t r;
    run_wrong("layout_uncovered.yaml", 0, &set, &r);
    ck_assert_uint_eq(r.mismatches, 2);
    assert_reported(&r, "layout.sync_info.phantom: name: expected a field 'phantom', got none in "
                        "struct nrt_sys_trace_event_data_sync_info\n");
    assert_reported(&r, "layout.sync_info.cpu_timestamp_ns: coverage: expected no such field, "
                        "got 'cpu_timestamp_ns' at 0x08");
    ntsim_report_free(&r);
    ntsim_vector_set_free(&set);

    run_wrong("layout_uncovered.yaml", 1, &set, &r);
    ck_assert_uint_eq(r.mismatches, 1);
    assert_reported(&r, "layout.nowhere: c_type: no type 'struct nrt_sys_trace_event_data_nowhere' "
                        "in the headers\n");
    ntsim_report_free(&r);
    ntsim_vector_set_free(&set);
}
END_TEST

START_TEST(test_enum_runner_reports_wrong_value_size_and_missing_member)
{
    ntsim_vector_set_t set;
    ntsim_report_t r;
    run_wrong("enum_notification.yaml", 0, &set, &r);
    ck_assert_uint_eq(r.mismatches, 3);
    assert_reported(&r, "enum.notification_type: size: expected 8, got 4\n");
    assert_reported(&r, "enum.notification_type.NOTIFICATION_TYPE_TOPSP_CC_STATUS: value: "
                        "expected 8, got 9\n");
    assert_reported(&r, "enum.notification_type.NOTIFICATION_TYPE_MAX: coverage: expected no "
                        "such member, got NOTIFICATION_TYPE_MAX = 10");
    ntsim_report_free(&r);
    ntsim_vector_set_free(&set);
}
END_TEST

START_TEST(test_event_type_runner_reports_wrong_phase_member_and_category)
{
    ntsim_vector_set_t set;
    ntsim_report_t r;
    run_wrong("event_type_cc_exec.yaml", 0, &set, &r);
    ck_assert_uint_eq(r.mismatches, 2);
    assert_reported(&r, "event_type.cc_exec.category: category: expected SOFTWARE, got HARDWARE\n");
    assert_reported(&r, "event_type.cc_exec.stop: stop: expected cc_exec_start, got cc_exec_stop\n");
    ntsim_report_free(&r);
    ntsim_vector_set_free(&set);
}
END_TEST

/* Every wrong call is one line; the status that differs ends the sequence,
 * so the wrong text of the call after it is never compared. */
START_TEST(test_api_runner_reports_each_call_and_stops_at_a_wrong_status)
{
    ntsim_vector_set_t set;
    ntsim_report_t r;
    run_wrong("api_fetch_and_stop.yaml", 0, &set, &r);
    ck_assert_uint_eq(r.mismatches, 4);
    assert_reported(&r, "api.wrong.fetch_and_stop.calls[0]: written_size: expected 31, got 30\n");
    assert_reported(&r, "api.wrong.fetch_and_stop.calls[0]: json: expected and got differ:\n");
    assert_reported(&r, "-],\"data_version\":3}\n+],\"data_version\":2}\n");
    assert_reported(&r, "api.wrong.fetch_and_stop.calls[1]: category: expected SOFTWARE, got "
                        "HARDWARE (1)\n");
    assert_reported(&r, "api.wrong.fetch_and_stop.calls[2]: status: expected NRT_SUCCESS (0), "
                        "got NRT_FAILURE (1) (the calls after it were not run)\n");
    ck_assert_ptr_null(strstr(r.text, "calls[3]"));
    ck_assert(!ntsim_capture_is_capturing());
    ntsim_report_free(&r);
    ntsim_vector_set_free(&set);
}
END_TEST

/* Every field of the config that differs is one line; a filter accepted
 * where an error was expected says so, and that no error came. */
START_TEST(test_inspect_runner_reports_each_field_and_a_missing_error)
{
    ntsim_vector_set_t set;
    ntsim_report_t r;
    run_wrong("inspect_filters.yaml", 0, &set, &r);
    assert_reported(&r, "inspect.wrong.filters: device_profile: expected off, got model\n");
    assert_reported(&r, "inspect.wrong.filters: ncs: expected 5 NCs enabled (NC 7 off), got 6 "
                        "(NC 7 on)\n");
    assert_reported(&r, "inspect.wrong.filters: types: expected 1 types enabled (type 6 off), "
                        "got 7 (type 6 on)\n");
    assert_reported(&r, "inspect.wrong.filters: warnings: expected 0, got 1: "
                        "'NEURON_RT_INSPECT_EVENT_FILTER_TYPES: not a variable ntsim honours "
                        "(did you mean NEURON_RT_INSPECT_EVENT_FILTER_TYPE?); ignored'\n");
    ck_assert_uint_eq(r.mismatches, 4);
    ntsim_report_free(&r);
    ntsim_report_init(&r);
    set.vectors[1].kind->run(&set.vectors[1], &r);
    assert_reported(&r, "inspect.wrong.accepted: status: expected NRT_INVALID (2), got "
                        "NRT_SUCCESS (0)\n");
    assert_reported(&r, "inspect.wrong.accepted: errors: expected 1, got 0\n");
    ck_assert_uint_eq(r.mismatches, 2);
    ntsim_report_free(&r);
    ntsim_vector_set_free(&set);
}
END_TEST

/* The sorted key lists behind every "listed twice" check and every lookup of
 * a reply's member or field by name (key_sort.h). */
START_TEST(test_keys_name_the_earliest_repeat_and_find_the_first_listed)
{
    /* b a c a b: b repeats at 4, a at 3; the earliest repeat is 3 (of 1). */
    ntsim_key_t k[] = {{"b", 0, 0}, {"a", 0, 1}, {"c", 0, 2}, {"a", 0, 3}, {"b", 0, 4}};
    ntsim_keys_sort(k, 5);
    size_t earlier = 99;
    ck_assert_uint_eq(ntsim_keys_first_repeat(k, 5, &earlier), 3);
    ck_assert_uint_eq(earlier, 1);
    ck_assert_uint_eq(ntsim_keys_find(k, 5, "a"), 1);
    ck_assert_uint_eq(ntsim_keys_find(k, 5, "b"), 0);
    ck_assert_uint_eq(ntsim_keys_find(k, 5, "c"), 2);
    ck_assert_uint_eq(ntsim_keys_find(k, 5, "d"), SIZE_MAX);
    ck_assert_uint_eq(ntsim_keys_find(k, 5, ""), SIZE_MAX);
    /* Numbers: 7 5 7 7; the repeat is at 2 (of 0), not 3. */
    ntsim_key_t n[] = {{NULL, 7, 0}, {NULL, 5, 1}, {NULL, 7, 2}, {NULL, 7, 3}};
    ntsim_keys_sort(n, 4);
    ck_assert_uint_eq(ntsim_keys_first_repeat(n, 4, &earlier), 2);
    ck_assert_uint_eq(earlier, 0);
    /* None repeats; an empty list has no repeat and finds nothing. */
    ck_assert_uint_eq(ntsim_keys_first_repeat(n, 2, &earlier), SIZE_MAX);
    ck_assert_uint_eq(ntsim_keys_first_repeat(n, 0, &earlier), SIZE_MAX);
    ck_assert_uint_eq(ntsim_keys_find(k, 0, "a"), SIZE_MAX);
}
END_TEST

/* A text of n copies of `line`, NUL-terminated (malloc'd). */
static char *repeated(const char *line, size_t n)
{
    size_t len = strlen(line);
    char *t = malloc(len * n + 1);
    ck_assert_ptr_nonnull(t);
    for (size_t i = 0; i < n; i++)
        memcpy(t + i * len, line, len);
    t[len * n] = '\0';
    return t;
}

/* What one reply can make the runner keep (issue 27, item 7): a diff stops
 * at an eighth of the report's bound and counts the lines it left out; a
 * text more than NTSIM_REPORT_DIFF_SLACK past the expected one is not
 * diffed at all; a full report counts the mismatches past it. */
START_TEST(test_report_bounds_a_diff_and_what_it_keeps)
{
    ntsim_report_t r;
    ntsim_report_init(&r);
    /* 300000 lines of "bb" (1.2 MB with the '+' and newline each) against
     * one line: the hunk is cut at 128 KiB. */
    char *got = repeated("bb\n", 300000);
    ntsim_report_diff(&r, "v", "json", "a\n", got);
    free(got);
    ck_assert_uint_eq(r.mismatches, 1);
    ck_assert_uint_eq(r.hidden, 0);
    ck_assert_ptr_nonnull(strstr(r.text, "v: json: expected and got differ:\n--- expected\n"));
    ck_assert_ptr_nonnull(strstr(r.text, "-a\n+bb\n+bb\n"));
    ck_assert_ptr_nonnull(strstr(r.text, " more lines of the diff not shown)\n"));
    ck_assert_uint_le(r.len, NTSIM_REPORT_TEXT_MAX / 8 + 64);
    ntsim_report_free(&r);
    /* One byte past the slack: sizes and the first difference only. */
    ntsim_report_init(&r);
    got = repeated("b", 2 + NTSIM_REPORT_DIFF_SLACK + 1);
    ck_assert(ntsim_report_too_long(2, strlen(got)));
    ck_assert(!ntsim_report_too_long(2, 2 + NTSIM_REPORT_DIFF_SLACK));
    ntsim_report_json_diff(&r, "v", "json", "a\n", got);
    free(got);
    ck_assert_str_eq(r.text, "v: json: expected 2 bytes, got 1048579: more than 1024 KiB past "
                             "the expected text, not diffed; the first difference is at byte 0 "
                             "(expected 'a\\x0a', got 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')\n");
    ntsim_report_free(&r);
    /* 100000 lines of 26 bytes: 2.6 MB, past the 1 MiB bound; every
     * mismatch counted, the lines past the bound only counted. */
    ntsim_report_init(&r);
    for (int i = 0; i < 100000; i++)
        ntsim_report_add(&r, "v.fields[x]", "offset", "expected 0, got %d", i % 10);
    ck_assert_uint_eq(r.mismatches, 100000);
    ck_assert_uint_le(r.len, NTSIM_REPORT_TEXT_MAX);
    ck_assert_uint_eq(r.hidden, 100000 - r.len / strlen("v.fields[x]: offset: expected 0, got 0\n"));
    ntsim_report_free(&r);
}
END_TEST

Suite *make_loader_suite(void)
{
    Suite *s = suite_create("loader");
    TCase *tc = tcase_create("loader");
    tcase_add_test(tc, test_loader_rejects_unknown_key);
    tcase_add_test(tc, test_loader_rejects_missing_field);
    tcase_add_test(tc, test_loader_rejects_word_for_integer);
    tcase_add_test(tc, test_loader_rejects_quoted_integer);
    tcase_add_test(tc, test_loader_rejects_leading_zero);
    tcase_add_test(tc, test_loader_rejects_out_of_range_integer);
    tcase_add_test(tc, test_loader_rejects_unknown_kind);
    tcase_add_test(tc, test_loader_rejects_id_without_kind_prefix);
    tcase_add_test(tc, test_loader_rejects_value_without_provenance);
    tcase_add_test(tc, test_loader_rejects_unknown_flag);
    tcase_add_test(tc, test_loader_rejects_invalid_for_a_kind_without_one);
    tcase_add_test(tc, test_loader_rejects_duplicate_key);
    tcase_add_test(tc, test_loader_rejects_unknown_schema_version);
    tcase_add_test(tc, test_loader_rejects_scalar_vector);
    tcase_add_test(tc, test_loader_rejects_empty_vector_list);
    tcase_add_test(tc, test_loader_rejects_empty_document);
    tcase_add_test(tc, test_json_vector_needs_its_document);
    tcase_add_test(tc, test_ntff_vector_rejects_a_payload_that_is_not_hex);
    tcase_add_test(tc, test_notify_vector_rejects_an_unknown_drop_reason);
    tcase_add_test(tc, test_record_vector_rejects_a_field_its_payload_lacks);
    tcase_add_test(tc, test_api_vector_rejects_an_unknown_call);
    tcase_add_test(tc, test_api_vector_rejects_an_unknown_status_name);
    tcase_add_test(tc, test_api_vector_rejects_a_key_of_another_call);
    tcase_add_test(tc, test_api_vector_rejects_a_config_used_before_allocate);
    tcase_add_test(tc, test_api_vector_rejects_a_null_argument_the_call_lacks);
    tcase_add_test(tc, test_api_vector_rejects_a_document_for_a_failing_fetch);
    tcase_add_test(tc, test_inspect_vector_rejects_a_config_for_an_error);
    tcase_add_test(tc, test_inspect_vector_rejects_a_variable_set_twice);
    tcase_add_test(tc, test_loader_rejects_a_prose_source);
    tcase_add_test(tc, test_json_string_vector_has_no_records);
    tcase_add_test(tc, test_log_line_names_its_level);
    tcase_add_test(tc, test_log_part_must_demand_something);
    tcase_add_test(tc, test_json_models_give_an_execution_one_model);
    tcase_add_test(tc, test_api_counts_allocations_only_where_a_decision_pins_them);
    tcase_add_test(tc, test_api_count_off_count_takes_decimal_digits);
    tcase_add_test(tc, test_ntff_schema_vector_has_no_records);
    tcase_add_test(tc, test_loader_rejects_malformed_yaml);
    tcase_add_test(tc, test_loader_rejects_a_second_document);
    tcase_add_test(tc, test_loader_rejects_duplicate_id);
    tcase_add_test(tc, test_loader_keeps_good_vectors_and_reports_every_bad_one);
    tcase_add_test(tc, test_loader_reports_a_missing_file);
    tcase_add_test(tc, test_loader_names_files_it_cannot_read_apart_from_bad_content);
    tcase_add_test(tc, test_loader_reads_a_directory_in_path_order);
    tcase_add_test(tc, test_loader_rejects_non_text_input);
    tcase_add_test(tc, test_keys_name_the_earliest_repeat_and_find_the_first_listed);
    suite_add_tcase(s, tc);

    TCase *rep = tcase_create("runner_reports");
    tcase_add_test(rep, test_layout_runner_reports_each_wrong_offset_size_and_type);
    tcase_add_test(rep, test_layout_runner_reports_fields_missing_either_way);
    tcase_add_test(rep, test_enum_runner_reports_wrong_value_size_and_missing_member);
    tcase_add_test(rep, test_event_type_runner_reports_wrong_phase_member_and_category);
    tcase_add_test(rep, test_api_runner_reports_each_call_and_stops_at_a_wrong_status);
    tcase_add_test(rep, test_inspect_runner_reports_each_field_and_a_missing_error);
    tcase_add_test(rep, test_report_bounds_a_diff_and_what_it_keeps);
    suite_add_tcase(s, rep);
    return s;
}
