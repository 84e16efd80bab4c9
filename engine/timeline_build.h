/*
 * engine/timeline_build.h: what the stages of the timeline build share
 * (timeline.c: pairing, clocks, executions, losses; timeline_lanes.c: the
 * lanes and edges). Private to those two files.
 */
#ifndef NTSIM_ENGINE_TIMELINE_BUILD_H
#define NTSIM_ENGINE_TIMELINE_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_sys_trace.h"
#include "timeline.h"

typedef struct build {
    ntsim_timeline_t *tl;
    size_t item_cap, pair_cap, flow_cap, counter_cap, edge_cap, lane_cap;
    size_t *prev_open;        /* per item: the START opened before it under its key */
    uint32_t *core;           /* per item: the device core (NTSIM_TL_NO_CORE) */
    uint32_t *clock;          /* per item: its clock */
    size_t ncore;             /* items core[] and clock[] cover (drops come later) */
    uint32_t nc_core[NTSIM_NC_COUNT]; /* an NC's only core, or NTSIM_TL_NO_CORE */
    bool nc_cores[NTSIM_NC_COUNT];    /* the NC names several cores */
    uint64_t edge_order;
    const ntsim_timeline_options_t *opt;
} build_t;

/* Grows the array *arrp of elements of `elem` bytes to hold `need`; false
 * when the size would overflow or the allocator refuses (the array is kept). */
bool ntsim__tl_grow(void *arrp, size_t *cap, size_t need, size_t elem);

/* An item's device core: its own, or its NC's only one (NTSIM_TL_NO_CORE). */
uint32_t ntsim__tl_item_core(const build_t *b, size_t i);

/* The types of the NC's notifications & DMA lane. */
bool ntsim__tl_is_dma_type(uint32_t type);

/* Stage 5: lanes and edges. */
NRT_STATUS ntsim__tl_lay_out(build_t *b);

/* After a successful build: lane thread ids, uuids, edges sorted by time. */
void ntsim__tl_finish_lanes(ntsim_timeline_t *tl);

#endif
