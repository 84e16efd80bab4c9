/*
 * conformance/unit/sim/check_inspect.c: the reader of the inspect session's
 * variables (inspect_env.c, D-INSPECT-ENV) where a vector cannot reach: the
 * name sets it derives from the one table, the limits of a value, what a
 * message does with bytes a terminal should not see, the lookup, and a
 * filter applied to a whole simulated run. The grammar itself is pinned by
 * vectors/inspect.yaml.
 */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "event_table.h"
#include "inspect_env.h"
#include "sim.h"

/* The run below logs its faults' "Invalid notification type" lines; the
 * test counts events instead of reading stderr. */
static void setup(void)
{
    ntsim_log_set_sink(ntsim_check_quiet_log, NULL);
}

static void teardown(void)
{
    ntsim_capture_shutdown();
    ntsim_log_set_sink(NULL, NULL);
}

/* Reads env (NULL-terminated "NAME=VALUE") and returns the status; the
 * lines are left in *errors (initialized here; the caller frees). */
static NRT_STATUS read_env(char **env, ntsim_inspect_config_t *c, ntsim_errors_t *errors)
{
    ntsim_errors_init(errors);
    return ntsim_inspect_env_read(env, c, errors, NULL);
}

/* A few names typed from the facts and D-JSON-NAMES, both spellings. */
START_TEST(test_inspect_names_by_hand)
{
    static const struct {
        const char *name;
        nrt_sys_trace_event_type_t type;
    } names[] = {
        {"generic", NRT_SYS_TRACE_EVENT_TYPE_GENERIC},
        {"model_load", NRT_SYS_TRACE_EVENT_TYPE_MODEL_LOAD},
        {"nrt_load", NRT_SYS_TRACE_EVENT_TYPE_MODEL_LOAD},
        {"device_exec", NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC},
        {"nc_exec_running", NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC},
        {"cc_exec", NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC},
        {"cc_running", NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC},
        {"timestamp_sync", NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC},
        {"timestamp_sync_point", NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC},
        {"hostcc_wait", NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_WAIT},
        /* 21's interned name is its suffix; the guide's hardware group
         * names 26 nrt_model_switch (D-JSON-NAMES). */
        {"model_switch", NRT_SYS_TRACE_EVENT_TYPE_MODEL_SWITCH},
        {"nc_model_switch", NRT_SYS_TRACE_EVENT_TYPE_NC_MODEL_SWITCH},
        {"nrt_model_switch", NRT_SYS_TRACE_EVENT_TYPE_NC_MODEL_SWITCH},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        nrt_sys_trace_event_type_t t = NRT_SYS_TRACE_EVENT_TYPE_COUNT;
        ck_assert_msg(ntsim_inspect_type_by_name(names[i].name, strlen(names[i].name), &t),
                      "%s names no type", names[i].name);
        ck_assert_int_eq(t, names[i].type);
    }
}
END_TEST

/* Each row's lowercase enum suffix, as a test derives it. */
static void suffix_of(uint32_t t, char *out, size_t cap)
{
    const char *s = ntsim__event_types[t].enum_name + strlen("NRT_SYS_TRACE_EVENT_TYPE_");
    size_t i = 0;
    for (; s[i] != '\0' && i + 1 < cap; i++)
        out[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
    out[i] = '\0';
}

/* Both names of every type resolve to it, and no name is shared by two
 * types (a new type whose suffix is another's interned name fails here). */
START_TEST(test_inspect_every_type_has_its_two_names_and_no_other)
{
    char names[NRT_SYS_TRACE_EVENT_TYPE_COUNT * 2][64];
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        snprintf(names[2 * t], sizeof names[0], "%s", ntsim__event_types[t].json_name);
        suffix_of(t, names[2 * t + 1], sizeof names[0]);
        for (int k = 0; k < 2; k++) {
            nrt_sys_trace_event_type_t got = NRT_SYS_TRACE_EVENT_TYPE_COUNT;
            const char *n = names[2 * t + (uint32_t)k];
            ck_assert_msg(ntsim_inspect_type_by_name(n, strlen(n), &got), "%s: unknown", n);
            ck_assert_msg(got == t, "%s names type %d, not %u", n, got, t);
        }
    }
    for (size_t a = 0; a < NRT_SYS_TRACE_EVENT_TYPE_COUNT * 2; a++)
        for (size_t b = a + 1; b < NRT_SYS_TRACE_EVENT_TYPE_COUNT * 2; b++)
            ck_assert_msg(a / 2 == b / 2 || strcmp(names[a], names[b]) != 0,
                          "'%s' names types %zu and %zu", names[a], a / 2, b / 2);
}
END_TEST

/* The categories, the sentinel and other spellings are no type's name. */
START_TEST(test_inspect_words_that_name_no_type)
{
    static const char *const words[] = {"hardware", "software", "count", "unknown", "",
                                        "DEVICE_EXEC", "NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC",
                                        "device_exec ", "Generic"};
    nrt_sys_trace_event_type_t t = NRT_SYS_TRACE_EVENT_TYPE_GENERIC;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        ck_assert_msg(!ntsim_inspect_type_by_name(words[i], strlen(words[i]), &t),
                      "'%s' names a type", words[i]);
    ck_assert(!ntsim_inspect_type_by_name(NULL, 0, &t));
    ck_assert(!ntsim_inspect_type_by_name("generic", 7, NULL));
    /* A length shorter than the text: "generic" read as "gene". */
    ck_assert(!ntsim_inspect_type_by_name("generic", 4, &t));
}
END_TEST

/* OUTPUT_DIR holds a path of up to 4095 bytes; one byte more is refused
 * with its length, and the message quotes only its first 64 bytes. */
START_TEST(test_inspect_output_dir_limit)
{
    size_t prefix = strlen("NEURON_RT_INSPECT_OUTPUT_DIR=");
    char *var = malloc(prefix + NTSIM_INSPECT_DIR_MAX + 1);
    ntsim_inspect_config_t *c = malloc(sizeof *c);
    ck_assert_ptr_nonnull(var);
    ck_assert_ptr_nonnull(c);
    memcpy(var, "NEURON_RT_INSPECT_OUTPUT_DIR=", prefix);
    memset(var + prefix, 'd', NTSIM_INSPECT_DIR_MAX - 1);
    var[prefix + NTSIM_INSPECT_DIR_MAX - 1] = '\0';
    char *env[] = {var, NULL};
    ntsim_errors_t e;
    ck_assert_int_eq(read_env(env, c, &e), NRT_SUCCESS);
    ck_assert_uint_eq(strlen(c->output_dir), NTSIM_INSPECT_DIR_MAX - 1);
    ntsim_errors_free(&e);

    strcat(var, "d"); /* 4096 bytes */
    ck_assert_int_eq(read_env(env, c, &e), NRT_INVALID);
    ck_assert_uint_eq(e.count, 1);
    char want[256];
    snprintf(want, sizeof want, "NEURON_RT_INSPECT_OUTPUT_DIR: '%.64s...': 4096 bytes, longer "
                                "than a path may be (4095)", var + prefix);
    ck_assert_str_eq(e.items[0], want);
    ntsim_errors_free(&e);
    free(var);
    free(c);
}
END_TEST

/* A byte a terminal would act on is shown as \xNN: one line per problem. */
START_TEST(test_inspect_message_escapes_control_bytes)
{
    char *env[] = {"NEURON_RT_INSPECT_ENABLE=1\n\x1b[2J", NULL};
    ntsim_inspect_config_t c;
    ntsim_errors_t e;
    ck_assert_int_eq(read_env(env, &c, &e), NRT_INVALID);
    ck_assert_uint_eq(e.count, 1);
    ck_assert_str_eq(e.items[0], "NEURON_RT_INSPECT_ENABLE: '1\\x0a\\x1b[2J': expected 0 or 1");
    ntsim_errors_free(&e);
}
END_TEST

/* The first entry of a name wins, as with getenv; a longer name that starts
 * with it is another variable (and, being unknown, a warning). */
START_TEST(test_inspect_environ_lookup)
{
    char *env[] = {"NEURON_RT_INSPECT_ENABLE_X=0", "NEURON_RT_INSPECT_ENABLE=1",
                   "NEURON_RT_INSPECT_ENABLE=0", NULL};
    ck_assert_str_eq(ntsim_inspect_environ_lookup("NEURON_RT_INSPECT_ENABLE", env), "1");
    ck_assert_ptr_null(ntsim_inspect_environ_lookup("NEURON_RT_INSPECT", env));
    ck_assert_ptr_null(ntsim_inspect_environ_lookup("NEURON_RT_INSPECT_ENABLE", NULL));
    ntsim_inspect_config_t c;
    ntsim_errors_t e, w;
    ntsim_errors_init(&e);
    ntsim_errors_init(&w);
    ck_assert_int_eq(ntsim_inspect_env_read(env, &c, &e, &w), NRT_SUCCESS);
    ck_assert(c.enabled);
    ck_assert_uint_eq(e.count, 0);
    ck_assert_uint_eq(w.count, 1);
    ck_assert_str_eq(w.items[0],
                     "NEURON_RT_INSPECT_ENABLE_X: not a variable ntsim honours (did you mean "
                     "NEURON_RT_INSPECT_ENABLE?); ignored");
    ntsim_errors_free(&e);
    ntsim_errors_free(&w);
}
END_TEST

/* NULL inputs are refused; NULL line lists only drop the lines. */
START_TEST(test_inspect_null_arguments)
{
    ntsim_inspect_config_t c;
    char *env[] = {"NEURON_RT_INSPECT_EVENT_FILTER_NC=4-2", NULL};
    ck_assert_int_eq(ntsim_inspect_env_read(NULL, &c, NULL, NULL), NRT_INVALID);
    ck_assert_int_eq(ntsim_inspect_env_read(env, NULL, NULL, NULL), NRT_INVALID);
    ck_assert_int_eq(ntsim_inspect_env_parse(NULL, NULL, &c, NULL, NULL), NRT_INVALID);
    ck_assert_int_eq(ntsim_inspect_env_read(env, &c, NULL, NULL), NRT_INVALID);
    ck_assert(!c.enabled && !c.nc_enabled[0] && !c.type_enabled[0]);
    ntsim_inspect_apply(NULL, NULL); /* nothing to do, nothing to crash on */
    ck_assert_str_eq(ntsim_inspect_device_profile_name((ntsim_inspect_device_profile_t)7),
                     "unknown");
}
END_TEST

/* The filters replace the scenario's choices only in an enabled session
 * with its system profile on. */
START_TEST(test_inspect_apply_to_a_scenario)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_inspect_config_t c;
    ntsim_errors_t e;
    ck_assert_ptr_nonnull(sc);
    char *on[] = {"NEURON_RT_INSPECT_ENABLE=1", "NEURON_RT_INSPECT_EVENT_FILTER_NC=1",
                  "NEURON_RT_INSPECT_EVENT_FILTER_TYPE=^generic", NULL};
    char *off[] = {"NEURON_RT_INSPECT_EVENT_FILTER_NC=1", NULL};
    char *no_system[] = {"NEURON_RT_INSPECT_ENABLE=1", "NEURON_RT_INSPECT_SYSTEM_PROFILE=0",
                         "NEURON_RT_INSPECT_EVENT_FILTER_NC=1", NULL};
    char **unchanged[] = {off, no_system};
    for (size_t i = 0; i < 2; i++) {
        ntsim_scenario_default(sc);
        sc->type_disabled[5] = true;
        ck_assert_int_eq(read_env(unchanged[i], &c, &e), NRT_SUCCESS);
        ntsim_errors_free(&e);
        ntsim_inspect_apply(&c, sc);
        ck_assert(!sc->nc_disabled[0] && sc->type_disabled[5] && !sc->type_disabled[0]);
    }
    ck_assert_int_eq(read_env(on, &c, &e), NRT_SUCCESS);
    ntsim_errors_free(&e);
    ntsim_inspect_apply(&c, sc);
    ck_assert(sc->nc_disabled[0] && !sc->nc_disabled[1] && sc->nc_disabled[2]);
    ck_assert(sc->type_disabled[NRT_SYS_TRACE_EVENT_TYPE_GENERIC]);
    ck_assert(!sc->type_disabled[5]); /* the scenario's own choice is replaced */
    free(sc);
}
END_TEST

/* A filter that keeps none of the run's NCs (the default scenario has 2)
 * warns, naming the variable and the run's NCs; one that keeps any does not,
 * nor one that is not applied (ENABLE 0, the system profile off). */
START_TEST(test_inspect_nc_filter_past_the_scenario_warns)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ck_assert_ptr_nonnull(sc);
    static const struct {
        const char *enable, *system, *ncs;
        bool warns;
    } cases[] = {
        {"1", "1", "100", true},   {"1", "1", "2-255", true}, {"1", "1", "1,100", false},
        {"1", "1", "0", false},    {"0", "1", "100", false},  {"1", "0", "100", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char enable[64], system[64], ncs[64];
        snprintf(enable, sizeof enable, "NEURON_RT_INSPECT_ENABLE=%s", cases[i].enable);
        snprintf(system, sizeof system, "NEURON_RT_INSPECT_SYSTEM_PROFILE=%s", cases[i].system);
        snprintf(ncs, sizeof ncs, "NEURON_RT_INSPECT_EVENT_FILTER_NC=%s", cases[i].ncs);
        char *env[] = {enable, system, ncs, NULL};
        ntsim_inspect_config_t c;
        ntsim_errors_t e, w;
        ck_assert_int_eq(read_env(env, &c, &e), NRT_SUCCESS);
        ntsim_errors_free(&e);
        ntsim_scenario_default(sc);
        ntsim_inspect_apply(&c, sc);
        ntsim_errors_init(&w);
        ck_assert_int_eq(ntsim_inspect_check_scenario(&c, sc, &w), NRT_SUCCESS);
        ck_assert_uint_eq(w.count, cases[i].warns ? 1 : 0);
        if (cases[i].warns)
            ck_assert_str_eq(w.items[0], "NEURON_RT_INSPECT_EVENT_FILTER_NC: no NC of this run "
                                         "is in the filter (its NCs are 0..1): nothing will be "
                                         "captured");
        ntsim_errors_free(&w);
    }
    free(sc);
}
END_TEST

/* A filter applied to the default run (every type on 2 NCs): the trace holds
 * the hardware types on NC 1 and nothing else. */
START_TEST(test_inspect_filter_shapes_a_run)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_run_result_t *r = calloc(1, sizeof *r);
    ntsim_inspect_config_t c;
    ntsim_errors_t e;
    ck_assert_ptr_nonnull(sc);
    ck_assert_ptr_nonnull(r);
    char *env[] = {"NEURON_RT_INSPECT_ENABLE=1", "NEURON_RT_INSPECT_EVENT_FILTER_NC=1",
                   "NEURON_RT_INSPECT_EVENT_FILTER_TYPE=hardware", NULL};
    ck_assert_int_eq(read_env(env, &c, &e), NRT_SUCCESS);
    ntsim_errors_free(&e);
    ntsim_scenario_default(sc);
    ntsim_inspect_apply(&c, sc);
    ck_assert_int_eq(ntsim_sim_run(sc, NULL, NULL, NULL, r), NRT_SUCCESS);
    ck_assert_uint_gt(r->record_count, 0);
    ck_assert_uint_eq(r->per_nc[0], 0);
    ck_assert_uint_eq(r->per_nc[1], r->record_count);
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        bool hardware = ntsim__event_category(t) == NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE;
        ck_assert_msg(hardware ? r->per_type[t] > 0 : r->per_type[t] == 0,
                      "type %u: %llu events in the trace", t,
                      (unsigned long long)r->per_type[t]);
    }
    free(r);
    free(sc);
}
END_TEST

Suite *make_inspect_suite(void)
{
    Suite *s = suite_create("inspect_env");
    TCase *tc = tcase_create("inspect_env");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_inspect_names_by_hand);
    tcase_add_test(tc, test_inspect_every_type_has_its_two_names_and_no_other);
    tcase_add_test(tc, test_inspect_words_that_name_no_type);
    tcase_add_test(tc, test_inspect_output_dir_limit);
    tcase_add_test(tc, test_inspect_message_escapes_control_bytes);
    tcase_add_test(tc, test_inspect_environ_lookup);
    tcase_add_test(tc, test_inspect_null_arguments);
    tcase_add_test(tc, test_inspect_apply_to_a_scenario);
    tcase_add_test(tc, test_inspect_nc_filter_past_the_scenario_warns);
    tcase_add_test(tc, test_inspect_filter_shapes_a_run);
    suite_add_tcase(s, tc);
    return s;
}
