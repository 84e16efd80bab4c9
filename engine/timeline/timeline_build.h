/*
 * engine/timeline/timeline_build.h: what the stages of the timeline build share
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

/* What an NC's device items say about cores. Any nc_idx can appear: a trace
 * read from a file may hold NCs past the engine's 256. */
typedef struct ntsim_tl_nc_core {
    uint32_t nc;
    uint32_t core;            /* its only core; NTSIM_TL_NO_CORE when several */
    bool several;             /* its device items name several cores */
} ntsim_tl_nc_core_t;

typedef struct build {
    ntsim_timeline_t *tl;
    size_t item_cap, pair_cap, flow_cap, counter_cap, edge_cap, lane_cap;
    uint32_t *core;           /* per item: the device core (NTSIM_TL_NO_CORE) */
    uint32_t *clock;          /* per item: its clock */
    size_t ncore;             /* items core[] and clock[] cover (drops come later) */
    ntsim_tl_nc_core_t *ncs;  /* per NC its device items name a core of, by nc */
    size_t nncs;
    uint64_t edge_order;
    const ntsim_timeline_options_t *opt;
    bool device_known;        /* the caller gave options: nd_idx names the device */
    uint32_t *devices;        /* tl->processes[1..]'s device indices, ascending */
} build_t;

/* An item's device core: its own, or its NC's only one (NTSIM_TL_NO_CORE). */
uint32_t ntsim__tl_item_core(const build_t *b, size_t i);

/* What the NC's device items say about cores, or NULL when they name none. */
const ntsim_tl_nc_core_t *ntsim__tl_nc_core(const build_t *b, uint32_t nc);

/* The types of the NC's notifications & DMA lane. */
bool ntsim__tl_is_dma_type(uint32_t type);

/* The processes: the host, then the devices the records' NCs are on (one,
 * options.nd_idx, without a map), ascending; before the other stages. */
NRT_STATUS ntsim__tl_processes(build_t *b);
/* The index in tl->processes of the device NC nc is on. */
uint32_t ntsim__tl_process_of(const build_t *b, uint32_t nc);

/* Stage 5: lanes and edges. */
NRT_STATUS ntsim__tl_lay_out(build_t *b);

/* After a successful build: lane thread ids, uuids, edges sorted by time. */
void ntsim__tl_finish_lanes(ntsim_timeline_t *tl);

#endif
