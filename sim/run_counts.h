/*
 * sim/run_counts.h: the counts of a run that a scenario vector pins and
 * `ntsim record` writes, listed once. A count is one XX(name, value) line
 * of its group, the value an expression of the run's result `r` (and of
 * `nc` for the per-NC group); the vector's keys, the judge's lookup and the
 * recorder's lines are expanded from the lists, never typed again.
 */
#ifndef NTSIM_SIM_RUN_COUNTS_H
#define NTSIM_SIM_RUN_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

/* counts: the run's totals. */
#define NTSIM_RUN_COUNT_MAP(XX)                                                           \
    XX(executes, r->executes)                                                             \
    XX(events_emitted, r->events_emitted)                                                 \
    XX(trace_events, r->record_count)                                                     \
    XX(types_present, ntsim_run_types_present(r))

/* counts.ncs[]: each NC's (the engine's counters, and its events in the trace). */
#define NTSIM_RUN_NC_COUNT_MAP(XX)                                                        \
    XX(created, r->nc_stats[nc].created)                                                  \
    XX(pushed, r->nc_stats[nc].pushed)                                                    \
    XX(overwritten, r->nc_stats[nc].overwritten)                                          \
    XX(drained, r->nc_stats[nc].drained)                                                  \
    XX(lost_at_stop, r->nc_stats[nc].lost_at_stop)                                        \
    XX(busy, r->nc_stats[nc].busy)                                                        \
    XX(events, r->per_nc[nc])

/* counts.notifications: the device's posts and the converter's counts. */
#define NTSIM_RUN_NOTIFY_COUNT_MAP(XX)                                                    \
    XX(posted, r->notifications_posted)                                                   \
    XX(converted, r->notify.converted)                                                    \
    XX(dropped, r->notify.dropped)                                                        \
    XX(dropped_cc_status, r->notify.dropped_cc_status)                                    \
    XX(dropped_max, r->notify.dropped_max)                                                \
    XX(dropped_out_of_range, r->notify.dropped_out_of_range)                              \
    XX(explicit, r->notify.explicit_infos)

typedef enum ntsim_run_count_group {
    NTSIM_COUNTS_RUN,         /* NTSIM_RUN_COUNT_MAP */
    NTSIM_COUNTS_NC,          /* NTSIM_RUN_NC_COUNT_MAP */
    NTSIM_COUNTS_NOTIFY,      /* NTSIM_RUN_NOTIFY_COUNT_MAP */
    NTSIM_COUNTS_GROUPS
} ntsim_run_count_group_t;

/* The names of a group's counts, in their list's order, NULL-terminated. */
const char *const *ntsim_run_count_names(ntsim_run_count_group_t g);

/* The value of count `name` of group g (nc: the NC, for NTSIM_COUNTS_NC; it
 * must be below NTSIM_NC_COUNT); false when the group has no such count. */
bool ntsim_run_count(const ntsim_run_result_t *r, ntsim_run_count_group_t g, const char *name,
                     uint32_t nc, uint64_t *out);

/* How many event types the trace holds at least one of. */
uint64_t ntsim_run_types_present(const ntsim_run_result_t *r);

#endif /* NTSIM_SIM_RUN_COUNTS_H */
