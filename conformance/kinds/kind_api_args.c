/*
 * conformance/kinds/kind_api_args.c: reading the keys of each call of an `api` vector
 * (the grammar heads kind_api.c): its arguments and what it must return.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "key_sort.h"
#include "kind_api.h"
#include "event_table.h"
#include "record_input.h"

/* facts §1: the category enum, by value. */
const char *const ntsim_api_category_names[3] = {"UNKNOWN", "HARDWARE", "SOFTWARE"};

NRT_STATUS ntsim_api_field_error(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 const char *key, const char *what)
{
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.%s", path, key);
    return ntsim_yp_error(p, node, field, "%s", what);
}

NRT_STATUS ntsim_api_copy_str(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                              const char *key, bool required, char **out)
{
    const char *text = NULL;
    NRT_STATUS st = ntsim_yp_str(p, node, path, key, required, &text);
    if (st != NRT_SUCCESS || text == NULL)
        return st;
    return (*out = ntsim_strdup(text)) != NULL ? NRT_SUCCESS : NRT_RESOURCE;
}

/* --- the calls' own keys ------------------------------------------------------ */

NRT_STATUS ntsim_api_parse_value(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 api_step_t *s)
{
    return ntsim_yp_u64(p, node, path, "value", true, UINT64_MAX, &s->value);
}

/* nc_idx: N, or {from: A, to: B}: the setter once per index, A to B. */
NRT_STATUS ntsim_api_parse_set_nc(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                  api_step_t *s)
{
    static const char *const range_keys[] = {"from", "to", NULL};
    uint64_t from, to;
    NRT_STATUS st;
    yaml_node_t *range = ntsim_yp_get(p, node, "nc_idx");
    if (range != NULL && range->type == YAML_MAPPING_NODE) {
        char rpath[512];
        ntsim_yp_path(rpath, sizeof rpath, "%s.nc_idx", path);
        if ((st = ntsim_yp_check_keys(p, range, rpath, range_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, range, rpath, "from", true, UINT32_MAX, &from)) !=
                NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, range, rpath, "to", true, UINT32_MAX, &to)) != NRT_SUCCESS)
            return st;
        if (to < from)
            return ntsim_api_field_error(p, range, path, "nc_idx", "to must not be below from");
    } else if ((st = ntsim_yp_u64(p, node, path, "nc_idx", true, UINT32_MAX, &from)) !=
               NRT_SUCCESS) {
        return st;
    } else {
        to = from;
    }
    s->nc_idx = (uint32_t)from;
    s->nc_to = (uint32_t)to;
    return ntsim_yp_bool(p, node, path, "enabled", true, &s->enabled);
}

NRT_STATUS ntsim_api_parse_set_type(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                    api_step_t *s)
{
    bool null_name = (s->nulls & API_NULL_EVENT_TYPE) != 0;
    if (null_name && ntsim_yp_get(p, node, "name") != NULL)
        return ntsim_api_field_error(p, ntsim_yp_get(p, node, "name"), path, "name",
                                     "the event_type argument is passed as NULL: no name");
    NRT_STATUS st = ntsim_api_copy_str(p, node, path, "name", !null_name, &s->name);
    if (st != NRT_SUCCESS)
        return st;
    return ntsim_yp_bool(p, node, path, "enabled", true, &s->enabled);
}

NRT_STATUS ntsim_api_parse_config_get(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                      api_step_t *s)
{
    NRT_STATUS st;
    s->has_max = ntsim_yp_get(p, node, "max_events_per_nc") != NULL;
    if ((st = ntsim_yp_u64(p, node, path, "max_events_per_nc", false, UINT64_MAX, &s->max)) !=
            NRT_SUCCESS ||
        (st = ntsim_vec_parse_set(p, node, path, "ncs_enabled", "ncs_disabled", false,
                                  &s->check_ncs, s->ncs)) != NRT_SUCCESS)
        return st;
    return ntsim_vec_parse_set(p, node, path, "types_enabled", "types_disabled", true,
                               &s->check_types, s->types);
}

/* names: {INDEX: NAME, ...}, indices plain decimal and each given once. */
static NRT_STATUS parse_name_map(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                                 api_step_t *s)
{
    if (map->type != YAML_MAPPING_NODE)
        return ntsim_api_field_error(p, map, path, "names", "expected a mapping of index: name");
    size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
    if (n > 0 && (s->names = calloc(n, sizeof *s->names)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++) {
        yaml_node_pair_t *pair = &map->data.mapping.pairs.start[i];
        yaml_node_t *k = ntsim_yp_node(p, pair->key);
        const char *t = ntsim_yp_scalar(k);
        char *end = NULL;
        unsigned long idx = (t && t[0] >= '0' && t[0] <= '9') ? strtoul(t, &end, 10) : 0;
        char field[512];
        ntsim_yp_path(field, sizeof field, "%s.names.%s", path, t ? t : "?");
        if (end == NULL || *end != '\0' || (t[0] == '0' && t[1] != '\0') || idx > 1000000)
            return ntsim_yp_error(p, k, field, "expected an index (a decimal integer)");
        const char *name;
        NRT_STATUS st = ntsim_yp_text(p, ntsim_yp_node(p, pair->value), field, "a name", &name);
        if (st != NRT_SUCCESS)
            return st;
        s->names[i].index = (size_t)idx;
        if ((s->names[i].name = ntsim_strdup(name)) == NULL)
            return NRT_RESOURCE;
        s->name_count = i + 1;
    }
    /* An index named twice, at its second key: sorted, not pairwise. */
    ntsim_key_t *keys = malloc((n + 1) * sizeof *keys);
    if (keys == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < n; i++)
        keys[i] = (ntsim_key_t){NULL, s->names[i].index, i};
    ntsim_keys_sort(keys, n);
    size_t earlier, twice = ntsim_keys_first_repeat(keys, n, &earlier);
    free(keys);
    if (twice == SIZE_MAX)
        return NRT_SUCCESS;
    yaml_node_t *k = ntsim_yp_node(p, map->data.mapping.pairs.start[twice].key);
    char field[512];
    ntsim_yp_path(field, sizeof field, "%s.names.%s", path, ntsim_yp_scalar(k));
    return ntsim_yp_error(p, k, field, "index %zu listed twice", s->names[twice].index);
}

NRT_STATUS ntsim_api_parse_types_count(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                       const char *key, uint64_t max, uint64_t *out)
{
    yaml_node_t *v = ntsim_yp_get(p, node, key);
    const char *t = v != NULL ? ntsim_yp_scalar(v) : NULL;
    if (t == NULL || strncmp(t, "COUNT", 5) != 0)
        return ntsim_yp_u64(p, node, path, key, true, max, out);
    const char *r = t + 5;
    uint64_t k = 0;
    if (*r != '\0') {
        /* K: up to COUNT in decimal digits, no sign or space of its own. */
        bool digits = (*r == '+' || *r == '-') && r[1] != '\0';
        for (const char *d = r + 1; digits && *d != '\0'; d++) {
            digits = *d >= '0' && *d <= '9' && k <= NRT_SYS_TRACE_EVENT_TYPE_COUNT;
            k = k * 10 + (uint64_t)(*d - '0');
        }
        if (!digits || k > NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            return ntsim_api_field_error(p, v, path, key,
                                         "expected N, COUNT, COUNT+K or COUNT-K (K up to COUNT)");
    }
    *out = *r == '-' ? NRT_SYS_TRACE_EVENT_TYPE_COUNT - k : NRT_SYS_TRACE_EVENT_TYPE_COUNT + k;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_api_parse_names(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 api_step_t *s)
{
    yaml_node_t *c = ntsim_yp_get(p, node, "count");
    if (c != NULL) {
        s->has_count = true;
        const char *t = ntsim_yp_scalar(c);
        s->count_is_types = t != NULL && strcmp(t, "COUNT") == 0;
        NRT_STATUS st = NRT_SUCCESS;
        if (!s->count_is_types &&
            (st = ntsim_api_parse_types_count(p, node, path, "count", UINT64_MAX, &s->count)) !=
                NRT_SUCCESS)
            return st;
    }
    yaml_node_t *names = ntsim_yp_get(p, node, "names");
    return names != NULL ? parse_name_map(p, names, path, s) : NRT_SUCCESS;
}

NRT_STATUS ntsim_api_parse_emit(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                api_step_t *s)
{
    NRT_STATUS st;
    uint64_t nc = 0;
    if ((st = ntsim_vec_parse_type(p, node, path, &s->type)) != NRT_SUCCESS ||
        (st = ntsim_vec_parse_phase(p, node, path, &s->phase)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "nc_idx", true, UINT32_MAX, &nc)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "tracking_id", false, UINT64_MAX, &s->tracking_id)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "nrta_seq_id", false, UINT64_MAX, &s->nrta_seq_id)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "returns", false, UINT64_MAX, &s->returns)) !=
            NRT_SUCCESS)
        return st;
    s->nc_idx = (uint32_t)nc;
    s->has_seq = ntsim_yp_get(p, node, "nrta_seq_id") != NULL;
    s->has_returns = ntsim_yp_get(p, node, "returns") != NULL;
    s->repeat = 1;
    if ((st = ntsim_yp_u64(p, node, path, "repeat", false, 1000000, &s->repeat)) != NRT_SUCCESS)
        return st;
    if (s->repeat == 0)
        return ntsim_api_field_error(p, ntsim_yp_get(p, node, "repeat"), path, "repeat",
                                     "must be at least 1");
    return ntsim_vec_parse_data(p, node, path, s->type, s->phase, &s->has_data, &s->data);
}

NRT_STATUS ntsim_api_parse_options_get(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                       api_step_t *s)
{
    s->has_max = ntsim_yp_get(p, node, "max_events_per_nc") != NULL;
    s->has_opt_nc = ntsim_yp_get(p, node, "nc_idx") != NULL;
    NRT_STATUS st = ntsim_yp_u64(p, node, path, "max_events_per_nc", false, UINT64_MAX, &s->max);
    if (st != NRT_SUCCESS)
        return st;
    return ntsim_yp_int(p, node, path, "nc_idx", false, INT32_MIN, INT32_MAX, &s->opt_nc);
}

/* options: null | allocated | {nc_idx: I, max_events_per_nc: N} */
static NRT_STATUS parse_fetch_options(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                      api_step_t *s)
{
    static const char *const inline_keys[] = {"nc_idx", "max_events_per_nc", NULL};
    yaml_node_t *o = ntsim_yp_get(p, node, "options");
    const char *word = o != NULL ? ntsim_yp_scalar(o) : "null";
    if (word != NULL && strcmp(word, "null") == 0)
        return NRT_SUCCESS; /* API_OPTIONS_NULL */
    if (word != NULL && strcmp(word, "allocated") == 0) {
        s->options = API_OPTIONS_ALLOCATED;
        return NRT_SUCCESS;
    }
    if (o->type != YAML_MAPPING_NODE)
        return ntsim_api_field_error(p, o, path, "options",
                                     "expected null, allocated or {nc_idx, max_events_per_nc}");
    char opath[512];
    ntsim_yp_path(opath, sizeof opath, "%s.options", path);
    int64_t nc;
    NRT_STATUS st;
    if ((st = ntsim_yp_check_keys(p, o, opath, inline_keys, NULL)) != NRT_SUCCESS ||
        (st = ntsim_yp_int(p, o, opath, "nc_idx", true, INT32_MIN, INT32_MAX, &nc)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, o, opath, "max_events_per_nc", true, UINT64_MAX,
                           &s->inline_options.max_events_per_nc)) != NRT_SUCCESS)
        return st;
    s->inline_options.nc_idx = (int32_t)nc;
    s->options = API_OPTIONS_INLINE;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_api_parse_fetch(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                 api_step_t *s)
{
    NRT_STATUS st = parse_fetch_options(p, node, path, s);
    if (st != NRT_SUCCESS)
        return st;
    yaml_node_t *buf = ntsim_yp_get(p, node, "buffer");
    const char *word = buf != NULL ? ntsim_yp_scalar(buf) : "null";
    if (word == NULL || (strcmp(word, "null") != 0 && strcmp(word, "preset") != 0))
        return ntsim_api_field_error(p, buf, path, "buffer", "expected null or preset");
    s->preset_buffer = strcmp(word, "preset") == 0;
    yaml_node_t *doc = ntsim_yp_get(p, node, "json");
    if (doc == NULL)
        doc = ntsim_yp_get(p, node, "written_size");
    if (s->status != NRT_SUCCESS && doc != NULL)
        return ntsim_api_field_error(
            p, doc, path, doc == ntsim_yp_get(p, node, "json") ? "json" : "written_size",
            "a failing fetch returns no document");
    s->has_written_size = ntsim_yp_get(p, node, "written_size") != NULL;
    if ((st = ntsim_yp_u64(p, node, path, "written_size", false, UINT64_MAX,
                           &s->written_size)) != NRT_SUCCESS)
        return st;
    return ntsim_api_copy_str(p, node, path, "json", false, &s->json);
}

NRT_STATUS ntsim_api_parse_nc_stats(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                    api_step_t *s)
{
    uint64_t nc;
    NRT_STATUS st = ntsim_yp_u64(p, node, path, "nc_idx", true, UINT32_MAX, &nc);
    if (st != NRT_SUCCESS)
        return st;
    s->nc_idx = (uint32_t)nc;
    for (size_t i = 0; i < API_STATS; i++) {
        s->stat_has[i] = ntsim_yp_get(p, node, ntsim_api_stat_names[i]) != NULL;
        if ((st = ntsim_yp_u64(p, node, path, ntsim_api_stat_names[i], false, UINT64_MAX,
                               &s->stat_want[i])) != NRT_SUCCESS)
            return st;
    }
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_api_parse_category(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                    api_step_t *s)
{
    const char *word;
    NRT_STATUS st;
    if ((st = ntsim_vec_parse_type(p, node, path, &s->type)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "category", true, &word)) != NRT_SUCCESS)
        return st;
    for (int64_t c = 0; c < 3; c++)
        if (strcmp(word, ntsim_api_category_names[c]) == 0) {
            s->category = c;
            return NRT_SUCCESS;
        }
    return ntsim_api_field_error(p, ntsim_yp_get(p, node, "category"), path, "category",
                                 "expected UNKNOWN, HARDWARE or SOFTWARE");
}

NRT_STATUS ntsim_api_parse_status_str(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                      api_step_t *s)
{
    NRT_STATUS st = ntsim_yp_u64(p, node, path, "status_value", true, UINT32_MAX, &s->value);
    if (st != NRT_SUCCESS)
        return st;
    return ntsim_api_copy_str(p, node, path, "text", true, &s->text);
}
