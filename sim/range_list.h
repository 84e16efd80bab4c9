/*
 * sim/range_list.h: lists of indices written as users write them
 * for the Neuron runtime: "0-3,8" (NEURON_RT_VISIBLE_CORES,
 * NEURON_RT_INSPECT_EVENT_FILTER_NC, a scenario's visible_cores).
 */
#ifndef NTSIM_SIM_RANGE_LIST_H
#define NTSIM_SIM_RANGE_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parses `text`: comma-separated items, each N or N-M (decimal, N <= M),
 * every index < limit; sets in[i] for each index listed (in[] has limit
 * entries, cleared first). An index listed twice is refused. On error
 * returns false with why = "'<the item>': <what is wrong>", naming the
 * offending item as written. */
bool ntsim_parse_range_list(const char *text, uint32_t limit, bool *in, char *why, size_t cap);

#endif /* NTSIM_SIM_RANGE_LIST_H */
