/*
 * conformance/kinds/kind_inspect.c: `inspect` vectors — an environment through
 * the reader of the inspect session's variables (inspect_env.c,
 * D-INSPECT-ENV), and the config it must give, or the errors.
 *
 *   - id: inspect.nc.list_and_range
 *     ...common keys...
 *     env: {NEURON_RT_INSPECT_ENABLE: 1, NEURON_RT_INSPECT_EVENT_FILTER_NC: "0,2,4-7"}
 *     # the config; a key left out must hold its default (D-INSPECT-ENV)
 *     enabled: true                      # default false
 *     output_dir: ./output               # default ./output
 *     system_profile: true               # default true
 *     device_profile: off                # off | model | session; default off
 *     on_exec_fail: false                # default false
 *     ncs_enabled: [0, 2, 4, 5, 6, 7]    # all | none | [NC*], or ncs_disabled: [NC*];
 *                                        # default all
 *     types_enabled: [DEVICE_EXEC]       # all | none | [TYPE*], or types_disabled:
 *                                        # [TYPE*]; default all
 *     warnings: ["fragment", ...]        # one per warning, in order; default none
 *   - id: inspect.nc.reversed_range
 *     expect: invalid
 *     error: "NEURON_RT_INSPECT_EVENT_FILTER_NC: '4-2': range ends before it starts"
 *     more_errors: ["...", ...]          # the second and later errors; default none
 *     env: {NEURON_RT_INSPECT_EVENT_FILTER_NC: "4-2"}
 *
 * env is the whole environment: a mapping of names to scalars, each taken as
 * its text (1 and "1" are the same), no name twice; {} sets nothing. TYPE is
 * an enum suffix (DEVICE_EXEC) or 0..COUNT-1: the expected sets are written
 * in the C enum's spelling, not in the names the filter reads, so that the
 * vector and the reader are two witnesses. Every error and warning line
 * must contain its fragment, and there must be exactly as many lines as
 * fragments. An invalid vector gives no config keys; its run also checks
 * that the config the reader left enables nothing (no capture from a
 * filter that was not understood). Sub-ids: <id>.errors[i], <id>.warnings[i].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect_env.h"
#include "key_sort.h"
#include "kinds.h"
#include "record_input.h"

typedef struct inspect_body {
    char **env;               /* "NAME=VALUE", NULL-terminated */
    bool enabled, system_profile, on_exec_fail;
    char *output_dir;
    ntsim_inspect_device_profile_t device_profile;
    bool ncs[NTSIM_NC_COUNT];
    bool types[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    char **warnings;          /* fragments, in order */
    size_t warning_count;
    char **errors;            /* the error key, then more_errors */
    size_t error_count;
} inspect_body_t;

static const char *const inspect_keys[] = {
    "env",           "enabled",       "output_dir",     "system_profile", "device_profile",
    "on_exec_fail",  "ncs_enabled",   "ncs_disabled",   "types_enabled",  "types_disabled",
    "warnings",      "more_errors",   NULL};
/* The keys that say what the config must be: an invalid vector has none. */
static const char *const config_keys[] = {
    "enabled",     "output_dir",   "system_profile", "device_profile", "on_exec_fail",
    "ncs_enabled", "ncs_disabled", "types_enabled",  "types_disabled", NULL};

static void free_strings(char **items, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(items[i]);
    free(items);
}

static void inspect_free(void *body)
{
    inspect_body_t *b = body;
    if (b->env != NULL)
        for (char **e = b->env; *e != NULL; e++)
            free(*e);
    free(b->env);
    free(b->output_dir);
    free_strings(b->warnings, b->warning_count);
    free_strings(b->errors, b->error_count);
    free(b);
}

static NRT_STATUS field_error(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                              const char *key, const char *what)
{
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.%s", path, key);
    return ntsim_yp_error(p, node, field, "%s", what);
}

/* env: the mapping, as "NAME=VALUE" strings. */
static NRT_STATUS parse_env(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                            inspect_body_t *b)
{
    yaml_node_t *env = ntsim_yp_get(p, node, "env");
    if (env == NULL)
        return field_error(p, node, path, "env", "missing required field");
    if (env->type != YAML_MAPPING_NODE)
        return field_error(p, env, path, "env", "expected a mapping of variable names to values");
    yaml_node_pair_t *pairs = env->data.mapping.pairs.start;
    size_t n = (size_t)(env->data.mapping.pairs.top - pairs);
    if ((b->env = calloc(n + 1, sizeof *b->env)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *k = ntsim_yp_node(p, pairs[i].key);
        char field[512];
        ntsim_yp_path(field, sizeof field, "%s.env", path);
        const char *name, *value;
        NRT_STATUS st;
        if ((st = ntsim_yp_text(p, k, field, "a variable name", &name)) != NRT_SUCCESS)
            return st;
        ntsim_yp_path(field, sizeof field, "%s.env.%s", path, name);
        if (name[0] == '\0' || strchr(name, '=') != NULL)
            return ntsim_yp_error(p, k, field, "not a variable name");
        if ((st = ntsim_yp_text(p, ntsim_yp_node(p, pairs[i].value), field, "a scalar",
                                &value)) != NRT_SUCCESS)
            return st;
        size_t len = strlen(name) + strlen(value) + 2;
        if ((b->env[i] = malloc(len)) == NULL)
            return NRT_RESOURCE;
        snprintf(b->env[i], len, "%s=%s", name, value);
    }
    /* A variable named twice, at its second key: sorted, not pairwise. */
    ntsim_key_t *keys = malloc((n + 1) * sizeof *keys);
    if (keys == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++)
        keys[i] = (ntsim_key_t){ntsim_yp_scalar(ntsim_yp_node(p, pairs[i].key)), 0, i};
    ntsim_keys_sort(keys, n);
    size_t earlier, twice = ntsim_keys_first_repeat(keys, n, &earlier);
    free(keys);
    if (twice == SIZE_MAX)
        return NRT_SUCCESS;
    yaml_node_t *k = ntsim_yp_node(p, pairs[twice].key);
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.env.%s", path, ntsim_yp_scalar(k));
    return ntsim_yp_error(p, k, field, "duplicate key");
}

/* An optional sequence of fragments under key, appended to *items. */
static NRT_STATUS parse_fragments(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                  const char *key, char ***items, size_t *count)
{
    if (ntsim_yp_get(p, node, key) == NULL)
        return NRT_SUCCESS;
    yaml_node_item_t *seq;
    size_t n;
    NRT_STATUS st = ntsim_yp_seq(p, node, path, key, &seq, &n);
    if (st != NRT_SUCCESS)
        return st;
    char **grown = realloc(*items, (*count + n) * sizeof *grown);
    if (grown == NULL)
        return NRT_RESOURCE;
    *items = grown;
    for (size_t i = 0; i < n; i++) {
        char field[512];
        const char *text;
        ntsim_yp_path(field, sizeof field, "%s.%s[%zu]", path, key, i);
        if ((st = ntsim_yp_text(p, ntsim_yp_node(p, seq[i]), field, "a string", &text)) !=
            NRT_SUCCESS)
            return st;
        if (((*items)[*count] = ntsim_strdup(text)) == NULL)
            return NRT_RESOURCE;
        (*count)++;
    }
    return NRT_SUCCESS;
}

/* The config a valid vector expects; every key defaults. */
static NRT_STATUS parse_config(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               inspect_body_t *b)
{
    const char *dir = NTSIM_INSPECT_OUTPUT_DIR_DEFAULT, *profile = "off";
    bool given = false;
    b->system_profile = true;
    for (size_t i = 0; i < NTSIM_NC_COUNT; i++)
        b->ncs[i] = true;
    for (size_t i = 0; i < NRT_SYS_TRACE_EVENT_TYPE_COUNT; i++)
        b->types[i] = true;
    NRT_STATUS st;
    if ((st = ntsim_yp_bool(p, node, path, "enabled", false, &b->enabled)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "output_dir", false, &dir)) != NRT_SUCCESS ||
        (st = ntsim_yp_bool(p, node, path, "system_profile", false, &b->system_profile)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "device_profile", false, &profile)) != NRT_SUCCESS ||
        (st = ntsim_yp_bool(p, node, path, "on_exec_fail", false, &b->on_exec_fail)) !=
            NRT_SUCCESS ||
        (st = ntsim_vec_parse_set(p, node, path, "ncs_enabled", "ncs_disabled", false, &given,
                                  b->ncs)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_set(p, node, path, "types_enabled", "types_disabled", true,
                                  &given, b->types)) != NRT_SUCCESS)
        return st;
    bool known = false;
    for (int d = NTSIM_INSPECT_DEVICE_OFF; d <= NTSIM_INSPECT_DEVICE_SESSION; d++)
        if (strcmp(profile, ntsim_inspect_device_profile_name(d)) == 0) {
            b->device_profile = d;
            known = true;
        }
    if (!known)
        return field_error(p, ntsim_yp_get(p, node, "device_profile"), path, "device_profile",
                           "expected off, model or session");
    return (b->output_dir = ntsim_strdup(dir)) != NULL ? NRT_SUCCESS : NRT_RESOURCE;
}

static NRT_STATUS inspect_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                void **out)
{
    inspect_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    const char *expect = "valid", *error = NULL;
    /* The common keys were read (and checked) by the loader before this. */
    (void)ntsim_yp_str(p, node, path, "expect", false, &expect);
    (void)ntsim_yp_str(p, node, path, "error", false, &error);
    NRT_STATUS st = parse_env(p, node, path, b);
    if (st != NRT_SUCCESS ||
        (st = parse_fragments(p, node, path, "warnings", &b->warnings, &b->warning_count)) !=
            NRT_SUCCESS)
        return st;
    if (strcmp(expect, "invalid") != 0) {
        if (ntsim_yp_get(p, node, "more_errors") != NULL)
            return field_error(p, ntsim_yp_get(p, node, "more_errors"), path, "more_errors",
                               "a valid vector has no errors");
        return parse_config(p, node, path, b);
    }
    for (const char *const *k = config_keys; *k != NULL; k++)
        if (ntsim_yp_get(p, node, *k) != NULL)
            return field_error(p, ntsim_yp_get(p, node, *k), path, *k,
                               "an invalid vector expects no config");
    if ((b->errors = malloc(sizeof *b->errors)) == NULL ||
        (b->errors[0] = ntsim_strdup(error != NULL ? error : "")) == NULL)
        return NRT_RESOURCE;
    b->error_count = 1;
    return parse_fragments(p, node, path, "more_errors", &b->errors, &b->error_count);
}

/* Each line of got must contain its fragment, and there are as many of each. */
static void check_lines(ntsim_report_t *r, const char *id, const char *what, char *const *want,
                        size_t want_count, const ntsim_errors_t *got)
{
    if (got->count != want_count) {
        char all[2048] = "";
        size_t n = 0;
        for (size_t i = 0; i < got->count && n < sizeof all; i++)
            n += (size_t)snprintf(all + n, sizeof all - n, "%s'%s'", i ? ", " : "",
                                  got->items[i]);
        ntsim_report_add(r, id, what, "expected %zu, got %zu%s%s", want_count, got->count,
                         got->count ? ": " : "", all);
        return;
    }
    char subid[512];
    for (size_t i = 0; i < want_count; i++) {
        if (strstr(got->items[i], want[i]) != NULL)
            continue;
        ntsim_yp_path(subid, sizeof subid, "%s.%s[%zu]", id, what, i);
        ntsim_report_add(r, subid, "text", "expected a line containing '%s', got '%s'", want[i],
                         got->items[i]);
    }
}

static void check_config(const ntsim_vector_t *v, const inspect_body_t *b,
                         const ntsim_inspect_config_t *c, ntsim_report_t *r)
{
    static const char *const yes_no[2] = {"false", "true"};
    if (c->enabled != b->enabled)
        ntsim_report_add(r, v->id, "enabled", "expected %s, got %s", yes_no[b->enabled],
                         yes_no[c->enabled]);
    if (strcmp(c->output_dir, b->output_dir) != 0)
        ntsim_report_add(r, v->id, "output_dir", "expected '%s', got '%s'", b->output_dir,
                         c->output_dir);
    if (c->system_profile != b->system_profile)
        ntsim_report_add(r, v->id, "system_profile", "expected %s, got %s",
                         yes_no[b->system_profile], yes_no[c->system_profile]);
    if (c->device_profile != b->device_profile)
        ntsim_report_add(r, v->id, "device_profile", "expected %s, got %s",
                         ntsim_inspect_device_profile_name(b->device_profile),
                         ntsim_inspect_device_profile_name(c->device_profile));
    if (c->on_exec_fail != b->on_exec_fail)
        ntsim_report_add(r, v->id, "on_exec_fail", "expected %s, got %s",
                         yes_no[b->on_exec_fail], yes_no[c->on_exec_fail]);
    ntsim_vec_compare_set(r, v->id, "ncs", "NC", b->ncs, c->nc_enabled, NTSIM_NC_COUNT);
    ntsim_vec_compare_set(r, v->id, "types", "type", b->types, c->type_enabled,
                          NRT_SYS_TRACE_EVENT_TYPE_COUNT);
}

/* A config that could not be read must not capture anything. */
static void check_nothing_enabled(const ntsim_vector_t *v, const ntsim_inspect_config_t *c,
                                  ntsim_report_t *r)
{
    static const bool none[NTSIM_NC_COUNT] = {false};
    if (c->enabled || c->system_profile)
        ntsim_report_add(r, v->id, "config", "expected a failed read to leave nothing enabled");
    ntsim_vec_compare_set(r, v->id, "ncs", "NC", none, c->nc_enabled, NTSIM_NC_COUNT);
    ntsim_vec_compare_set(r, v->id, "types", "type", none, c->type_enabled,
                          NRT_SYS_TRACE_EVENT_TYPE_COUNT);
}

static void inspect_run(const ntsim_vector_t *v, ntsim_report_t *r)
{
    const inspect_body_t *b = v->body;
    ntsim_inspect_config_t *c = malloc(sizeof *c);
    if (c == NULL) {
        ntsim_report_add(r, v->id, "run", "out of memory");
        return;
    }
    ntsim_errors_t errors, warnings;
    ntsim_errors_init(&errors);
    ntsim_errors_init(&warnings);
    NRT_STATUS st = ntsim_inspect_env_read(b->env, c, &errors, &warnings);
    NRT_STATUS want = v->expect == NTSIM_EXPECT_VALID ? NRT_SUCCESS : NRT_INVALID;
    if (st != want)
        ntsim_report_add(r, v->id, "status", "expected %s (%d), got %s (%d)%s%s",
                         nrt_get_status_as_str(want), want, nrt_get_status_as_str(st), st,
                         errors.count ? ", first error: " : "",
                         errors.count ? errors.items[0] : "");
    else if (v->expect == NTSIM_EXPECT_VALID)
        check_config(v, b, c, r);
    else
        check_nothing_enabled(v, c, r);
    check_lines(r, v->id, "errors", b->errors, b->error_count, &errors);
    check_lines(r, v->id, "warnings", b->warnings, b->warning_count, &warnings);
    ntsim_errors_free(&errors);
    ntsim_errors_free(&warnings);
    free(c);
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const inspect_judged[] = {
    "enabled", "output_dir", "system_profile", "device_profile", "on_exec_fail", "ncs_enabled",
    "ncs_disabled", "types_enabled", "types_disabled", "warnings", "more_errors", NULL};

const ntsim_vector_kind_t ntsim_kind_inspect = {
    .name = "inspect",
    .keys = inspect_keys,
    .judged = inspect_judged,
    .allows_invalid = true,
    .parse = inspect_parse,
    .free_body = inspect_free,
    .run = inspect_run,
};
