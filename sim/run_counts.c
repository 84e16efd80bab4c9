/*
 * sim/run_counts.c: a run's counts by name (run_counts.h), expanded from the
 * lists.
 */
#include "run_counts.h"

#include <string.h>

#define NTSIM_COUNT_NAME_(name, value) #name,
static const char *const run_names[] = {NTSIM_RUN_COUNT_MAP(NTSIM_COUNT_NAME_) NULL};
static const char *const nc_names[] = {NTSIM_RUN_NC_COUNT_MAP(NTSIM_COUNT_NAME_) NULL};
static const char *const notify_names[] = {NTSIM_RUN_NOTIFY_COUNT_MAP(NTSIM_COUNT_NAME_) NULL};
#undef NTSIM_COUNT_NAME_

const char *const *ntsim_run_count_names(ntsim_run_count_group_t g)
{
    static const char *const none[] = {NULL};
    switch (g) {
    case NTSIM_COUNTS_RUN: return run_names;
    case NTSIM_COUNTS_NC: return nc_names;
    case NTSIM_COUNTS_NOTIFY: return notify_names;
    case NTSIM_COUNTS_GROUPS: break;
    }
    return none;
}

uint64_t ntsim_run_types_present(const ntsim_run_result_t *r)
{
    uint64_t n = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        n += r->per_type[t] != 0;
    return n;
}

bool ntsim_run_count(const ntsim_run_result_t *r, ntsim_run_count_group_t g, const char *name,
                     uint32_t nc, uint64_t *out)
{
#define NTSIM_COUNT_IF_(n, value)                                                          \
    if (strcmp(name, #n) == 0) {                                                           \
        *out = (value);                                                                    \
        return true;                                                                       \
    }
    switch (g) {
    case NTSIM_COUNTS_RUN:
        NTSIM_RUN_COUNT_MAP(NTSIM_COUNT_IF_)
        break;
    case NTSIM_COUNTS_NC:
        if (nc >= NTSIM_NC_COUNT)
            return false;
        NTSIM_RUN_NC_COUNT_MAP(NTSIM_COUNT_IF_)
        break;
    case NTSIM_COUNTS_NOTIFY:
        NTSIM_RUN_NOTIFY_COUNT_MAP(NTSIM_COUNT_IF_)
        break;
    case NTSIM_COUNTS_GROUPS:
        break;
    }
#undef NTSIM_COUNT_IF_
    return false;
}
