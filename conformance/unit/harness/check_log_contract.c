/*
 * conformance/unit/harness/check_log_contract.c: what a log check may judge
 * (D-LOG-CONTRACT): parts found whole, counts that must show every message,
 * the catalogue of the engine's messages (the engine's own calls, both
 * ways) and the rewording that keeps only level and parts.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "log_catalog.h"
#include "log_expect.h"

static bool found(const char *text, bool plain, const char *message)
{
    ntsim_log_part_t part;
    ck_assert_int_eq(ntsim_log_part_set(&part, text, plain), NRT_SUCCESS);
    bool f = ntsim_log_part_found(&part, message);
    free(part.text);
    return f;
}

START_TEST(test_log_part_is_found_whole)
{
    ck_assert(found("256", true, "nc_idx 256 is out of range"));
    ck_assert(found("256", true, "256"));
    ck_assert(found("256", true, "(256)."));
    ck_assert(!found("256", true, "nc_idx 2560"));
    ck_assert(!found("256", true, "nc_idx -256"));
    ck_assert(!found("256", true, "nc256"));
    ck_assert(!found("256", true, "1.256"));
    ck_assert(!found("256", true, "256.5 GB"));
    ck_assert(found("0x100", true, "NC 256 clamped")); /* a hex value is its number */
    ck_assert(found("-1", true, "type -1: dropped"));
    ck_assert(!found("-1", true, "type -12"));
    /* A decimal: a number of the message that rounds to it at its places. */
    ck_assert(found("0.109", true, "0.109 GB of rings"));
    ck_assert(found("0.109", true, "rings: 0.109375 GB"));
    ck_assert(!found("0.109", true, "0.11 GB"));
    ck_assert(!found("0.109", true, "10.109 GB"));
    ck_assert(!found("0.109", true, "0.1095 GB"));
    /* Text: as a whole, not inside a longer word. */
    ck_assert(found("NumericalErr", true, "NumericalErr: no arm for start"));
    ck_assert(!found("NumericalErr", true, "NumericalErrs"));
    ck_assert(found("Invalid notification type: 9", false, "x: Invalid notification type: 9"));
    ck_assert(!found("Invalid notification type: 9", false, "Invalid notification type: 90"));
    /* Quoted, a number is text (found whole, as written). */
    ck_assert(!found("0x100", false, "NC 256"));
    ntsim_log_part_t part;
    ck_assert_int_eq(ntsim_log_part_set(&part, "", false), NRT_INVALID);
}
END_TEST

/* One entry {level: [parts]} of plain scalars. */
static void entry(ntsim_log_entry_t *e, ntsim_log_level_t level, const char *a, const char *b)
{
    memset(e, 0, sizeof *e);
    e->level = level;
    e->parts = calloc(2, sizeof *e->parts);
    ck_assert_ptr_nonnull(e->parts);
    const char *texts[2] = {a, b};
    for (size_t i = 0; i < 2 && texts[i] != NULL; i++, e->n_parts++)
        ck_assert_int_eq(ntsim_log_part_set(&e->parts[i], texts[i], true), NRT_SUCCESS);
}

START_TEST(test_log_check_judges_level_count_and_parts)
{
    ntsim_log_entry_t e;
    entry(&e, NTSIM_LOG_WARN, "256", NULL);
    ntsim_vec_log_t want = {true, &e, 1};
    char *good[] = {"info: anything", "warning: clamped 256 to NC 0"};
    char *error[] = {"error: clamped 256 to NC 0"};
    char *two[] = {"warning: 256", "warning: 256"};
    ntsim_report_t r;
    ntsim_report_init(&r);
    ntsim_vec_check_log(&want, good, 2, 2, "v", &r);
    ck_assert_uint_eq(r.mismatches, 0);
    ntsim_vec_check_log(&want, error, 1, 1, "v", &r); /* the level is judged */
    ck_assert_uint_eq(r.mismatches, 1);
    ntsim_vec_check_log(&want, two, 2, 2, "v", &r); /* and the count */
    ck_assert_uint_eq(r.mismatches, 2);
    ntsim_vec_check_log(&want, good, 1, 1, "v", &r); /* an unlisted info is no warning */
    ck_assert_uint_eq(r.mismatches, 3);
    ck_assert_ptr_nonnull(strstr(r.text, "v: log: expected {warning: [256]} to be logged"));
    ntsim_report_free(&r);
    ntsim_log_entry_free(&e);
}
END_TEST

/* A reply that counts messages it does not show passes no log check: the
 * unseen ones could be any error or warning (issue 35). */
START_TEST(test_log_check_fails_a_count_the_lines_cannot_account_for)
{
    ntsim_vec_log_t nothing = {true, NULL, 0};
    char *info[] = {"info: 0.109 GB"};
    ntsim_report_t r;
    ntsim_report_init(&r);
    ntsim_vec_check_log(&nothing, NULL, 0, 0, "v", &r);
    ntsim_vec_check_log(&nothing, info, 1, 1, "v", &r);
    ck_assert_uint_eq(r.mismatches, 0);
    ntsim_vec_check_log(&nothing, NULL, 0, 2, "v", &r);
    ck_assert_uint_eq(r.mismatches, 1);
    ck_assert_ptr_nonnull(strstr(r.text, "counts 2 messages and shows 0"));
    ntsim_vec_check_log(&nothing, info, 1, 0, "v", &r);
    ck_assert_uint_eq(r.mismatches, 2);
    ntsim_report_free(&r);
}
END_TEST

/* --- the catalogue and the engine ---------------------------------------------------- */

/* The engine's ntsim__log calls in one source text: level and format (the
 * adjacent literals joined, escapes as written), appended to out. */
static void calls_of(const char *text, char out[][512], ntsim_log_level_t *levels, size_t *n,
                     size_t max)
{
    static const char *const level_words[] = {"NTSIM_LOG_ERROR", "NTSIM_LOG_WARN",
                                              "NTSIM_LOG_INFO"};
    for (const char *p = strstr(text, "ntsim__log("); p != NULL;
         p = strstr(p + 1, "ntsim__log(")) {
        const char *a = p + strlen("ntsim__log(");
        int level = -1;
        for (int l = 0; l < 3; l++)
            if (strncmp(a, level_words[l], strlen(level_words[l])) == 0 &&
                a[strlen(level_words[l])] == ',')
                level = l;
        if (level < 0)
            continue; /* the declaration, or a call through a variable */
        ck_assert_uint_lt(*n, max);
        char *f = out[*n];
        size_t len = 0;
        const char *c = strchr(a, ',') + 1;
        for (;;) {
            while (*c == ' ' || *c == '\n')
                c++;
            if (*c != '"')
                break;
            for (c++; *c != '"'; c++) {
                if (*c == '\\' && (c[1] == '"' || c[1] == '\\'))
                    c++;
                ck_assert_uint_lt(len + 1, 512);
                f[len++] = *c;
            }
            c++;
        }
        f[len] = '\0';
        levels[(*n)++] = (ntsim_log_level_t)level;
    }
}

static void calls_under(const char *dir, char out[][512], ntsim_log_level_t *levels, size_t *n,
                        size_t max)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "%s: cannot read it (the unit suites read the source tree)", dir);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[512];
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strchr(e->d_name, '.') == NULL) {
            calls_under(path, out, levels, n, max);
            continue;
        }
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0 || strcmp(e->d_name, "log.c") == 0)
            continue;
        FILE *fp = fopen(path, "r");
        ck_assert_ptr_nonnull(fp);
        static char text[1 << 18];
        size_t got = fread(text, 1, sizeof text - 1, fp);
        fclose(fp);
        ck_assert_uint_lt(got, sizeof text - 1);
        text[got] = '\0';
        calls_of(text, out, levels, n, max);
    }
    closedir(d);
}

START_TEST(test_log_catalog_is_the_engines_messages)
{
    enum { MAX = 128 };
    static char formats[MAX][512];
    ntsim_log_level_t levels[MAX];
    size_t n = 0;
    char engine[1024];
    calls_under(ntsim_check_tree(engine, sizeof engine, "engine"), formats, levels, &n, MAX);
    ck_assert_uint_ge(n, 20);
    bool used[64] = {false};
    ck_assert_uint_le(ntsim_log_catalog_count, 64);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < ntsim_log_catalog_count && strcmp(ntsim_log_catalog[k].format, formats[i]) != 0)
            k++;
        ck_assert_msg(k < ntsim_log_catalog_count,
                      "the engine logs \"%s\", which conformance/lib/log_catalog.c lacks: add it "
                      "with its contract (D-LOG-CONTRACT)", formats[i]);
        ck_assert_msg(ntsim_log_catalog[k].level == levels[i],
                      "\"%s\": the engine logs it at %s, the catalogue says %s", formats[i],
                      ntsim_log_level_name(levels[i]),
                      ntsim_log_level_name(ntsim_log_catalog[k].level));
        used[k] = true;
    }
    for (size_t k = 0; k < ntsim_log_catalog_count; k++)
        ck_assert_msg(used[k], "the catalogue's \"%s\" is logged nowhere in engine/",
                      ntsim_log_catalog[k].format);
}
END_TEST

/* A line as its entry, and reworded: the entry holds in both. */
static void read_back(const char *line, const char *want_entry, const char *ntsim_word)
{
    ntsim_log_entry_t e;
    ck_assert_int_eq(ntsim_log_catalog_entry(line, &e), NRT_SUCCESS);
    char text[256];
    ntsim_log_entry_text(&e, text, sizeof text);
    ck_assert_str_eq(text, want_entry);
    char other[512];
    ck_assert(ntsim_log_catalog_reword(line, other, sizeof other));
    ck_assert_msg(ntsim_log_entry_matches(&e, line) && ntsim_log_entry_matches(&e, other),
                  "%s: %s holds in \"%s\" and \"%s\"", line, text, line, other);
    ck_assert_msg(ntsim_word == NULL || strstr(other, ntsim_word) == NULL,
                  "\"%s\" still says \"%s\"", other, ntsim_word);
    ntsim_log_entry_free(&e);
}

START_TEST(test_log_catalog_reads_level_and_parts_only)
{
    read_back("warning: nc_idx 256 is out of range [0, 255]: using NC 0", "{warning: [256]}",
              "range");
    read_back("warning: nc_idx 300 is out of range [0, 255]: ignored", "{warning: [300]}",
              "ignored");
    read_back("error: Invalid notification type: -1",
              "{error: [\"Invalid notification type: -1\"]}", NULL); /* all quoted */
    read_back("info: sys trace: 1 NCs x 1048576 events: 0.109 GB of rings",
              "{info: [0.109, \"GB\"]}", "rings");
    read_back("warning: phase mismatch: NumericalErr has no data for phase start: writing {} "
              "(warned once per type; counted in ntsim_json_stats)",
              "{warning: [\"NumericalErr\", \"start\"]}", "mismatch");
    read_back("error: unknown event type name 'device exec'", "{error: [\"device exec\"]}",
              "unknown");
    read_back("warning: sys trace capture is not running: stop ignored", "warning", "stop");
    read_back("error: nrt_sys_trace_fetch_events: nc_idx -2 is not -1 or 0..255",
              "{error: [-2]}", "0..255");
    ntsim_log_entry_t e;
    ck_assert_int_eq(ntsim_log_catalog_entry("warning: a message ntsim never logs", &e),
                     NRT_INVALID);
    ntsim_log_entry_free(&e);
    char other[128];
    ck_assert(!ntsim_log_catalog_reword("warning: a message ntsim never logs", other,
                                        sizeof other));
    ck_assert_str_eq(other, "warning: reworded: no catalogued message");
}
END_TEST

Suite *make_log_contract_suite(void)
{
    Suite *s = suite_create("log_contract");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_log_part_is_found_whole);
    tcase_add_test(tc, test_log_check_judges_level_count_and_parts);
    tcase_add_test(tc, test_log_check_fails_a_count_the_lines_cannot_account_for);
    tcase_add_test(tc, test_log_catalog_is_the_engines_messages);
    tcase_add_test(tc, test_log_catalog_reads_level_and_parts_only);
    suite_add_tcase(s, tc);
    return s;
}
