/*
 * conformance/unit/sim/check_scenario_keys.c: the scenario format's one list
 * of keys (sim/scenario_keys.c) and what is derived from it: the schema of
 * sim/scenarios/README.md, every key's limit enforced and its value stored
 * where its row says, the built-in default's scalars; and the set of shipped
 * scenarios, each with its vector. Counted from the table and the files,
 * never from a list here.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "input.h"
#include "kinds.h"
#include "locate.h"
#include "scenario_keys.h"
#include "scenario_load.h"

/* --- the schema ----------------------------------------------------------------- */

/* The next cell of a table row: the text up to " |", trimmed; advances *s. */
static char *cell(char **s)
{
    char *start = *s, *bar = strstr(start, " |");
    if (bar == NULL)
        return NULL;
    *bar = '\0';
    *s = bar + 2;
    while (*start == ' ')
        start++;
    return start;
}

START_TEST(test_scenario_readme_lists_every_key)
{
    char why[256], err[256];
    char *dir = ntsim_data_path(NTSIM_DATA_SCENARIOS, why, sizeof why);
    ck_assert_msg(dir != NULL, "%s", why);
    char path[1024];
    snprintf(path, sizeof path, "%s/README.md", dir);
    free(dir);
    char *text;
    size_t len;
    ck_assert_msg(ntsim_read_input(path, NTSIM_INPUT_DOC, &text, &len, err, sizeof err) ==
                      NRT_SUCCESS, "%s: %s", path, err);
    size_t *seen = calloc(ntsim_scenario_key_count, sizeof *seen);
    size_t rows = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "| `", 3) != 0)
            continue;
        char *s = line + 2;
        char *key = cell(&s), *type = cell(&s), *def = cell(&s), *limit = cell(&s);
        ck_assert_msg(key != NULL && limit != NULL, "README row '%s' has not 5 cells", line);
        ck_assert_msg(key[0] == '`' && key[strlen(key) - 1] == '`', "README key '%s'", key);
        key[strlen(key) - 1] = '\0';
        key++;
        rows++;
        size_t i = 0;
        char kpath[128], klimit[256];
        while (i < ntsim_scenario_key_count &&
               strcmp(ntsim_scenario_key_path(&ntsim_scenario_keys[i], kpath, sizeof kpath),
                      key) != 0)
            i++;
        ck_assert_msg(i < ntsim_scenario_key_count,
                      "README lists '%s', which sim/scenario_keys.c does not", key);
        const ntsim_scenario_key_t *k = &ntsim_scenario_keys[i];
        ck_assert_msg(seen[i]++ == 0, "README lists '%s' twice", key);
        ck_assert_msg(strcmp(type, ntsim_scenario_key_type_name(k)) == 0,
                      "%s: README's type '%s', the table's '%s'", key, type,
                      ntsim_scenario_key_type_name(k));
        ck_assert_msg(strcmp(def, k->def) == 0, "%s: README's default '%s', the table's '%s'",
                      key, def, k->def);
        ntsim_scenario_key_limit(k, klimit, sizeof klimit);
        ck_assert_msg(strcmp(limit, klimit) == 0, "%s: README's limit '%s', the table's '%s'",
                      key, limit, klimit);
    }
    for (size_t i = 0; i < ntsim_scenario_key_count; i++) {
        char kpath[128];
        ck_assert_msg(seen[i] == 1, "README does not list '%s'",
                      ntsim_scenario_key_path(&ntsim_scenario_keys[i], kpath, sizeof kpath));
    }
    ck_assert_uint_eq(rows, ntsim_scenario_key_count);
    free(seen);
    free(text);
}
END_TEST

/* --- the rows ----------------------------------------------------------------------- */

/* Every stored row fits its field, and its default is a value it allows. */
START_TEST(test_scenario_key_limits_fit_their_fields)
{
    for (size_t i = 0; i < ntsim_scenario_key_count; i++) {
        const ntsim_scenario_key_t *k = &ntsim_scenario_keys[i];
        char p[128];
        ntsim_scenario_key_path(k, p, sizeof p);
        ck_assert_msg(ntsim_scenario_key_find(k->section, k->key) == k, "%s listed twice", p);
        ck_assert_msg(k->required == (strcmp(k->def, "required") == 0), "%s: required '%s'", p,
                      k->def);
        if (k->type == NTSIM_KEY_UINT || k->type == NTSIM_KEY_INT) {
            ck_assert_msg(k->type == NTSIM_KEY_INT || k->min >= 0, "%s: negative minimum", p);
            ck_assert_msg(k->type == NTSIM_KEY_UINT || k->max <= INT64_MAX, "%s: max", p);
            if (k->size == sizeof(uint32_t))
                ck_assert_msg(k->type == NTSIM_KEY_UINT
                                  ? k->max <= UINT32_MAX
                                  : k->min >= INT32_MIN && k->max <= INT32_MAX,
                              "%s: its limits do not fit its 4-byte field", p);
            else
                ck_assert_msg(k->size == 0 || k->size == sizeof(uint64_t), "%s: size %zu", p,
                              k->size);
            if (!k->required) {
                char *end = NULL;
                bool in;
                if (k->type == NTSIM_KEY_UINT) {
                    uint64_t v = strtoull(k->def, &end, 10);
                    in = v >= (uint64_t)k->min && v <= k->max;
                } else {
                    int64_t v = strtoll(k->def, &end, 10);
                    in = v >= k->min && v <= (int64_t)k->max;
                }
                ck_assert_msg(*end == '\0' && in, "%s: default '%s' is not in its limits", p,
                              k->def);
            }
        }
        if (k->type == NTSIM_KEY_BOOL)
            ck_assert_msg(k->size == sizeof(bool) && (strcmp(k->def, "true") == 0 ||
                                                      strcmp(k->def, "false") == 0),
                          "%s", p);
        if (k->type == NTSIM_KEY_NAME)
            ck_assert_msg(k->size > 1, "%s: a name needs a buffer", p);
    }
}
END_TEST

/* The value of one key, in a document that is valid but for it: the
 * section's required keys beside it, in its section. */
static void document(char *out, size_t cap, const ntsim_scenario_key_t *k, const char *value)
{
    static const char *const required[][2] = {
        {"version", "1"}, {"name", "t"}, {"devices", "1"}, {"cores_per_device", "2"},
        {"core", "0"}, {"id", "1"}, {"kind", "numerical_error"}};
    char inner[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < ntsim_scenario_key_count; i++) {
        const ntsim_scenario_key_t *r = &ntsim_scenario_keys[i];
        if (r->section != k->section || !r->required || r == k || k->section == NTSIM_SEC_TOP)
            continue;
        for (size_t j = 0; j < sizeof required / sizeof required[0]; j++)
            if (strcmp(required[j][0], r->key) == 0)
                used += (size_t)snprintf(inner + used, sizeof inner - used, "%s: %s, ",
                                         r->key, required[j][1]);
    }
    const char *sec = ntsim_scenario_section_path(k->section);
    bool list = k->section == NTSIM_SEC_CLOCKS || k->section == NTSIM_SEC_MODELS ||
                k->section == NTSIM_SEC_FAULTS;
    const char *top = strcmp(k->key, "name") == 0 || strcmp(k->key, "version") == 0
                          ? (strcmp(k->key, "name") == 0 ? "version: 1\n" : "name: t\n")
                          : "version: 1\nname: t\n";
    if (k->section == NTSIM_SEC_TOP)
        snprintf(out, cap, "%s%s: %s\n", top, k->key, value);
    else
        snprintf(out, cap, "version: 1\nname: t\n%.*s: %s{%s%s: %s}%s\n",
                 (int)strcspn(sec, "["), sec, list ? "[" : "", inner, k->key, value,
                 list ? "]" : "");
}

/* Every integer row's limits are enforced at its path, derived from the row:
 * one past each end is refused, naming the key and its range. */
START_TEST(test_scenario_key_past_its_limit_is_refused)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    char doc[1024], errors[2048], value[32], p[128], want[160];
    size_t tried = 0;
    for (size_t i = 0; i < ntsim_scenario_key_count; i++) {
        const ntsim_scenario_key_t *k = &ntsim_scenario_keys[i];
        if (k->type != NTSIM_KEY_UINT && k->type != NTSIM_KEY_INT)
            continue;
        ntsim_scenario_key_path(k, p, sizeof p);
        for (int end = 0; end < 2; end++) {
            if (end == 0 && k->max >= (k->type == NTSIM_KEY_UINT ? UINT64_MAX : INT64_MAX))
                continue;
            if (end == 1 && (k->min == 0 || k->min == INT64_MIN) && k->type == NTSIM_KEY_UINT)
                continue;
            if (end == 0)
                snprintf(value, sizeof value, "%" PRIu64, k->max + 1);
            else
                snprintf(value, sizeof value, "%" PRId64, k->min - 1);
            document(doc, sizeof doc, k, value);
            ck_assert_msg(ntsim_scenario_load_string("limit", doc, strlen(doc), sc, errors,
                                                     sizeof errors) == NRT_INVALID,
                          "%s: %s was accepted:\n%s", p, value, doc);
            snprintf(want, sizeof want, ": %s is out of range [", value);
            ck_assert_msg(strstr(errors, want) != NULL, "%s = %s: %s", p, value, errors);
            tried++;
        }
    }
    ck_assert_uint_gt(tried, 20);
    free(sc);
}
END_TEST

/* A value in a row's limits, other than its default. */
static bool other_value(const ntsim_scenario_key_t *k, char *out, size_t cap, uint64_t *bits)
{
    if (k->type == NTSIM_KEY_BOOL) {
        bool v = strcmp(k->def, "true") != 0;
        snprintf(out, cap, "%s", v ? "true" : "false");
        *bits = v;
        return true;
    }
    if (k->type == NTSIM_KEY_NAME) {
        snprintf(out, cap, "n");
        return true;
    }
    if (k->type != NTSIM_KEY_UINT && k->type != NTSIM_KEY_INT)
        return false;
    int64_t candidates[2] = {k->min + 1, k->min};
    for (size_t c = 0; c < 2; c++) {
        snprintf(out, cap, "%" PRId64, candidates[c]);
        if (strcmp(out, k->def) != 0 && (uint64_t)candidates[c] <= k->max) {
            *bits = (uint64_t)candidates[c];
            return true;
        }
    }
    return false;
}

/* A row alone makes a key read and stored: each scalar with a field, given
 * another value than its default, lands where the row says. */
START_TEST(test_scenario_key_is_read_and_stored_by_its_row)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    char doc[1024], errors[2048], value[64], p[128];
    size_t stored = 0;
    for (size_t i = 0; i < ntsim_scenario_key_count; i++) {
        const ntsim_scenario_key_t *k = &ntsim_scenario_keys[i];
        uint64_t bits = 0;
        if (k->size == 0 || k->section == NTSIM_SEC_CLOCKS || !other_value(k, value, sizeof value,
                                                                              &bits))
            continue;
        ntsim_scenario_key_path(k, p, sizeof p);
        document(doc, sizeof doc, k, value);
        ck_assert_msg(ntsim_scenario_load_string("store", doc, strlen(doc), sc, errors,
                                                 sizeof errors) == NRT_SUCCESS,
                      "%s = %s:\n%s%s", p, value, doc, errors);
        const unsigned char *base = k->section == NTSIM_SEC_MODELS   ? (void *)&sc->models[0]
                                    : k->section == NTSIM_SEC_FAULTS ? (void *)&sc->faults[0]
                                                                     : (void *)sc;
        const unsigned char *at = base + k->offset;
        if (k->type == NTSIM_KEY_NAME) {
            ck_assert_msg(strcmp((const char *)at, value) == 0, "%s: '%s'", p, (const char *)at);
        } else if (k->type == NTSIM_KEY_BOOL) {
            bool got;
            memcpy(&got, at, sizeof got);
            ck_assert_msg(got == (bits != 0), "%s", p);
        } else {
            uint64_t got = 0;
            uint32_t got32;
            if (k->size == sizeof got32) {
                memcpy(&got32, at, sizeof got32);
                got = k->type == NTSIM_KEY_INT ? (uint64_t)(int64_t)(int32_t)got32 : got32;
            } else {
                memcpy(&got, at, sizeof got);
            }
            ck_assert_msg(got == bits, "%s: stored %" PRIu64 ", want %" PRIu64, p, got, bits);
        }
        stored++;
    }
    ck_assert_uint_gt(stored, 20);
    free(sc);
}
END_TEST

/* The built-in default's scalars are the schema's defaults. */
START_TEST(test_scenario_default_scalars_are_the_schema_defaults)
{
    ntsim_scenario_t *sc = malloc(sizeof *sc);
    ntsim_scenario_default(sc);
    ck_assert_uint_eq(sc->seed, 42);
    ck_assert_uint_eq(sc->duration_ns, 1000000);
    ck_assert_uint_eq(sc->host_start_ns, UINT64_C(1700000000000000000));
    ck_assert_uint_eq(sc->host_threads, 2);
    ck_assert_uint_eq(sc->request_interval_ns, 40000);
    ck_assert_uint_eq(sc->max_events_per_nc, 4096);
    ck_assert_uint_eq(sc->fetch_interval_ns, 0);
    ck_assert_uint_eq(sc->cores, 2);
    free(sc);
}
END_TEST

/* --- the shipped scenarios -------------------------------------------------------- */

/* Every shipped scenario has a scenario vector naming it (a scenario
 * without one has counts nobody checked). */
START_TEST(test_every_shipped_scenario_has_a_vector)
{
    char why[256], *dir = NULL;
    char *names = ntsim_scenario_shipped(&dir, why, sizeof why);
    ck_assert_msg(names != NULL, "%s", why);
    size_t count = 0;
    for (char *name = strtok(names, ", "); name != NULL; name = strtok(NULL, ", ")) {
        bool found = false;
        for (size_t i = 0; i < ntsim_check_vectors.count && !found; i++) {
            const ntsim_vector_t *v = &ntsim_check_vectors.vectors[i];
            found = v->kind == &ntsim_kind_scenario && v->body != NULL &&
                    strcmp(ntsim_kind_scenario.subject(v->body), name) == 0;
        }
        ck_assert_msg(found, "%s/%s.yaml has no scenario vector (vectors/scenario_%s.yaml: "
                             "ntsim record %s, then check its counts by hand)",
                      dir, name, name, name);
        count++;
    }
    ck_assert_uint_gt(count, 0);
    free(names);
    free(dir);
}
END_TEST

Suite *make_scenario_keys_suite(void)
{
    Suite *s = suite_create("scenario_keys");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, test_scenario_readme_lists_every_key);
    tcase_add_test(tc, test_scenario_key_limits_fit_their_fields);
    tcase_add_test(tc, test_scenario_key_past_its_limit_is_refused);
    tcase_add_test(tc, test_scenario_key_is_read_and_stored_by_its_row);
    tcase_add_test(tc, test_scenario_default_scalars_are_the_schema_defaults);
    tcase_add_test(tc, test_every_shipped_scenario_has_a_vector);
    suite_add_tcase(s, tc);
    return s;
}
