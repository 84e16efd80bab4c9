/*
 * engine/capture/config.c: the public config, event-type name and fetch-option API
 * (facts §4). Names come from the one table (engine/event_table.c): the API
 * name of a type is its lowercase enum suffix (D-NAMES); the setter also
 * accepts the JSON name (D-JSON-NAMES), so either spelling a user has seen
 * works.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "event_table.h"
#include "log.h"
#include "ntsim/capture.h"

#define NTSIM_DEFAULT_MAX_EVENTS UINT64_C(0x100000) /* facts §4 */

static char *copy_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = ntsim__malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

NRT_STATUS nrt_sys_trace_config_allocate(nrt_sys_trace_config_t **config)
{
    if (config == NULL)
        return NRT_INVALID;
    *config = ntsim__malloc(sizeof **config);
    if (*config == NULL)
        return NRT_RESOURCE;
    nrt_sys_trace_config_set_defaults(*config);
    return NRT_SUCCESS;
}

void nrt_sys_trace_config_set_defaults(nrt_sys_trace_config_t *config)
{
    if (config == NULL)
        return;
    memset(config, 0, sizeof *config);
    config->max_events_per_nc = NTSIM_DEFAULT_MAX_EVENTS;
    for (size_t i = 0; i < NTSIM_NC_COUNT; i++)
        config->capture_enabled_for_nc[i] = true;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        config->capture_enabled_for_event_type[t] = true;
}

void nrt_sys_trace_config_free(nrt_sys_trace_config_t *config)
{
    ntsim__free(config);
}

void nrt_sys_trace_config_set_max_events_per_nc(nrt_sys_trace_config_t *config,
                                                uint64_t max_events_per_nc)
{
    if (config != NULL)
        config->max_events_per_nc = max_events_per_nc;
}

void nrt_sys_trace_config_set_capture_enabled_for_nc(nrt_sys_trace_config_t *config,
                                                     uint32_t nc_idx, bool enabled)
{
    if (config == NULL)
        return;
    if (nc_idx >= NTSIM_NC_COUNT) {
        ntsim__log(NTSIM_LOG_WARN, "nc_idx %u is out of range [0, 255]: ignored", nc_idx);
        return;
    }
    config->capture_enabled_for_nc[nc_idx] = enabled;
}

NRT_STATUS nrt_sys_trace_config_set_capture_enabled_for_event_type(nrt_sys_trace_config_t *config,
                                                                  const char *event_type,
                                                                  bool enabled)
{
    if (config == NULL || event_type == NULL)
        return NRT_INVALID;
    /* facts §4: the setter maps the same 46 interned names the getter
     * returns (D-NAMES, D-SETTER-NAMES). */
    const ntsim_event_type_desc_t *d = ntsim__event_type_by_json_name(event_type);
    if (d == NULL) {
        ntsim__log(NTSIM_LOG_ERROR, "unknown event type name '%s'", event_type);
        return NRT_INVALID;
    }
    config->capture_enabled_for_event_type[d->type] = enabled;
    return NRT_SUCCESS;
}

void nrt_sys_trace_free_event_types(const char **event_types, size_t count)
{
    if (event_types == NULL)
        return;
    for (size_t i = 0; i < count; i++)
        ntsim__free((void *)event_types[i]);
    ntsim__free((void *)event_types);
}

/* A malloc'd array of malloc'd interned names of the types where want[t]
 * (facts §4: slot i = strdup(nrt_interned_string_db_get_event_name(i))). */
static NRT_STATUS name_list(const bool *want, const char ***out, size_t *count)
{
    size_t n = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        n += want[t] ? 1 : 0;
    *out = NULL;
    *count = 0;
    if (n == 0)
        return NRT_SUCCESS;
    const char **names = ntsim__calloc(n, sizeof *names);
    if (names == NULL)
        return NRT_RESOURCE;
    size_t i = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        if (!want[t])
            continue;
        if ((names[i] = copy_str(ntsim__event_types[t].json_name)) == NULL) {
            nrt_sys_trace_free_event_types(names, i);
            return NRT_RESOURCE;
        }
        i++;
    }
    *out = names;
    *count = n;
    return NRT_SUCCESS;
}

NRT_STATUS nrt_sys_trace_config_get_enabled_event_types(nrt_sys_trace_config_t *config,
                                                        const char ***event_types, size_t *count)
{
    if (config == NULL || event_types == NULL || count == NULL)
        return NRT_INVALID;
    return name_list(config->capture_enabled_for_event_type, event_types, count);
}

NRT_STATUS nrt_sys_trace_get_event_types(const char ***event_types, size_t *count)
{
    if (event_types == NULL || count == NULL)
        return NRT_INVALID;
    bool all[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        all[t] = true;
    return name_list(all, event_types, count);
}

/* --- fetch options ------------------------------------------------------- */

/* D-FETCH-NC: the stored value for an nc_idx outside 0..255 and not "all". */
#define NTSIM_FETCH_NC_OUT_OF_RANGE INT32_MAX

NRT_STATUS nrt_sys_trace_fetch_options_allocate(nrt_sys_trace_fetch_options_t **options)
{
    if (options == NULL)
        return NRT_INVALID;
    *options = ntsim__malloc(sizeof **options);
    if (*options == NULL)
        return NRT_RESOURCE;
    nrt_sys_trace_fetch_options_set_defaults(*options);
    return NRT_SUCCESS;
}

void nrt_sys_trace_fetch_options_set_defaults(nrt_sys_trace_fetch_options_t *options)
{
    if (options == NULL)
        return;
    memset(options, 0, sizeof *options);
    options->max_events_per_nc = 0; /* unlimited */
    options->nc_idx = -1;           /* every NC */
}

void nrt_sys_trace_fetch_options_free(nrt_sys_trace_fetch_options_t *options)
{
    ntsim__free(options);
}

void nrt_sys_trace_fetch_options_set_max_events_per_nc(nrt_sys_trace_fetch_options_t *options,
                                                       uint64_t max_events_per_nc)
{
    if (options != NULL)
        options->max_events_per_nc = max_events_per_nc;
}

void nrt_sys_trace_fetch_options_set_nc_idx(nrt_sys_trace_fetch_options_t *options,
                                            uint64_t nc_idx)
{
    if (options == NULL)
        return;
    if (nc_idx == UINT64_MAX)
        options->nc_idx = -1;
    else if (nc_idx < NTSIM_NC_COUNT)
        options->nc_idx = (int32_t)nc_idx;
    else {
        ntsim__log(NTSIM_LOG_WARN, "fetch nc_idx %llu is out of range [0, 255]",
                   (unsigned long long)nc_idx);
        options->nc_idx = NTSIM_FETCH_NC_OUT_OF_RANGE;
    }
}
