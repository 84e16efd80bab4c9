/*
 * conformance/testee/api_calls.c: the names of an `api` session's calls and
 * of their pointer arguments (api_calls.h).
 */
#include <string.h>

#include "api_calls.h"

static const char *const call_names[API_CALL_COUNT] = {
#define NTSIM_API_CALL_NAME(e, name) name,
    NTSIM_API_CALL_MAP(NTSIM_API_CALL_NAME)
#undef NTSIM_API_CALL_NAME
};

const char *const ntsim_api_null_arg_names[] = {"config",  "options", "event_type",   "event_types",
                                                "count",   "buffer",  "written_size", NULL};

const char *ntsim_api_call_name(api_call_t call)
{
    return (unsigned)call < API_CALL_COUNT ? call_names[call] : "?";
}

bool ntsim_api_call_by_name(const char *name, api_call_t *out)
{
    for (size_t c = 0; c < API_CALL_COUNT; c++)
        if (strcmp(call_names[c], name) == 0) {
            *out = (api_call_t)c;
            return true;
        }
    return false;
}

unsigned ntsim_api_null_arg_bit(const char *name)
{
    for (unsigned b = 0; ntsim_api_null_arg_names[b] != NULL; b++)
        if (strcmp(name, ntsim_api_null_arg_names[b]) == 0)
            return 1u << b;
    return 0;
}
