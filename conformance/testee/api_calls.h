/*
 * conformance/testee/api_calls.h: the calls of an `api` session, by name,
 * as the testee protocol carries them (testee.proto's ApiCall.call) and
 * vectors/api.yaml spells them: the kind that reads the vectors
 * (kinds/kind_api.c) and the built-in testee that makes the calls
 * (builtin/testee_api.c) share this one list.
 */
#ifndef NTSIM_CONFORMANCE_API_CALLS_H
#define NTSIM_CONFORMANCE_API_CALLS_H

#include <stdbool.h>

/* XX(ENUM, name): every call, in the order of kind_api.c's table. */
#define NTSIM_API_CALL_MAP(XX)                                                         \
    XX(CONFIG_ALLOCATE, "config_allocate")                                             \
    XX(CONFIG_SET_DEFAULTS, "config_set_defaults")                                     \
    XX(CONFIG_FREE, "config_free")                                                     \
    XX(CONFIG_SET_MAX_EVENTS, "config_set_max_events_per_nc")                          \
    XX(CONFIG_SET_NC, "config_set_capture_enabled_for_nc")                             \
    XX(CONFIG_SET_TYPE, "config_set_capture_enabled_for_event_type")                   \
    XX(CONFIG_GET, "config_get")                                                       \
    XX(CONFIG_GET_ENABLED_TYPES, "config_get_enabled_event_types")                     \
    XX(GET_EVENT_TYPES, "get_event_types")                                             \
    XX(START, "start")                                                                 \
    XX(STOP, "stop")                                                                   \
    XX(EMIT, "emit")                                                                   \
    XX(OPTIONS_ALLOCATE, "fetch_options_allocate")                                     \
    XX(OPTIONS_SET_DEFAULTS, "fetch_options_set_defaults")                             \
    XX(OPTIONS_FREE, "fetch_options_free")                                             \
    XX(OPTIONS_SET_MAX_EVENTS, "fetch_options_set_max_events_per_nc")                  \
    XX(OPTIONS_SET_NC, "fetch_options_set_nc_idx")                                     \
    XX(OPTIONS_GET, "fetch_options_get")                                               \
    XX(FETCH, "fetch")                                                                 \
    XX(NC_STATS, "nc_stats")                                                           \
    XX(CATEGORY, "get_event_type_category")                                            \
    XX(STATUS_STR, "get_status_as_str")

typedef enum api_call {
#define NTSIM_API_CALL_ENUM(e, name) API_##e,
    NTSIM_API_CALL_MAP(NTSIM_API_CALL_ENUM)
#undef NTSIM_API_CALL_ENUM
        API_CALL_COUNT
} api_call_t;

/* Pointer arguments a step passes as NULL (null_args), one bit each; the
 * names are libnrt's parameter names, in bit order (ntsim_api_null_arg_names). */
#define API_NULL_CONFIG       (1u << 0) /* "config" */
#define API_NULL_OPTIONS      (1u << 1) /* "options" */
#define API_NULL_EVENT_TYPE   (1u << 2) /* "event_type" */
#define API_NULL_EVENT_TYPES  (1u << 3) /* "event_types" */
#define API_NULL_COUNT        (1u << 4) /* "count" */
#define API_NULL_BUFFER       (1u << 5) /* "buffer" */
#define API_NULL_WRITTEN_SIZE (1u << 6) /* "written_size" */

/* A call's name ("?" for none), and the call of a name (false: none). */
const char *ntsim_api_call_name(api_call_t call);
bool ntsim_api_call_by_name(const char *name, api_call_t *out);
/* The API_NULL_* bit of a pointer argument's name, 0 for none; the names,
 * by bit, NULL-terminated. */
unsigned ntsim_api_null_arg_bit(const char *name);
extern const char *const ntsim_api_null_arg_names[];

#endif /* NTSIM_CONFORMANCE_API_CALLS_H */
