/*
 * engine/timeline/timeline.h: records turned into a timeline, the one model behind the
 * three timeline writers (pftrace.c: Perfetto's .pftrace; chrome_trace.c: the
 * Chrome trace-event JSON; timeline_html.c: the offline page). Internal.
 *
 * What the model is (D-TIMELINE):
 *   items    spans (a START paired with its STOP by (type, nc_idx,
 *            tracking_id), innermost open START first) and instants
 *            (INSTANT records; an unmatched START or STOP, flagged; a gap in an
 *            NC's nc_local_id, flagged as a drop), each on one lane, with its
 *            times on the host timeline
 *   lanes    one per host thread (the runtime's spans), one per NeuronCore
 *            (per physical core when an NC shows several device_core_idx) for
 *            the HARDWARE types, one per NC for notification drains and DMA;
 *            spans that would not nest on their lane go to an overflow lane
 *            of the same name, so every lane nests strictly
 *   clocks   one per device clock (NC, core): the least-squares fit of
 *            dev - cpu = a + b (cpu - c0) over every sync pair the records
 *            carry (sync_info, TIMESTAMP_SYNC), which moves every device time
 *            onto the host timeline, drift included (D-PFTRACE-CLOCK)
 *   flows    a host nrt_execute to each device span with its exec_id
 *   counters per NC: events pushed (nc_local_id + 1) and events lost (gaps)
 *   edges    every begin, end, instant and counter sample in the order the
 *            writers emit them: by time, and on one lane in nesting order
 */
#ifndef NTSIM_ENGINE_TIMELINE_H
#define NTSIM_ENGINE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "growbuf.h"
#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"
#include "ntsim/convert.h"

#define NTSIM_TL_NONE SIZE_MAX
#define NTSIM_TL_NO_CORE UINT32_MAX

/* Item flags. */
enum {
    NTSIM_TL_SPAN = 1u << 0,            /* a START paired with its STOP */
    NTSIM_TL_UNMATCHED_START = 1u << 1, /* an instant: a START whose STOP is not there */
    NTSIM_TL_UNMATCHED_STOP = 1u << 2,  /* an instant: a STOP whose START is not there */
    NTSIM_TL_DEVICE = 1u << 3,          /* a HARDWARE type: device times, aligned */
    NTSIM_TL_UNALIGNED = 1u << 4,       /* device times with no sync pair: emit time kept */
    NTSIM_TL_DROP = 1u << 5             /* no record: nc_local_ids missing before `rec` */
};

typedef enum ntsim_tl_lane_kind {
    NTSIM_TL_LANE_THREAD, /* a host thread (thread_id) */
    NTSIM_TL_LANE_NC,     /* a NeuronCore's device spans (nc, core) */
    NTSIM_TL_LANE_DMA     /* an NC's notification drains and DMA */
} ntsim_tl_lane_kind_t;

typedef struct ntsim_tl_item {
    uint64_t begin, end;      /* ns, host timeline; equal for an instant */
    uint64_t dev_begin;       /* ns, device clock, as recorded (device items) */
    uint64_t exec_id;         /* the execution it belongs to (0: none known) */
    uint64_t lost;            /* a drop: how many events are missing */
    uint64_t flow_in;         /* the flow ending here (0: none) */
    size_t rec;               /* the START, INSTANT or lone record (drop: the next one) */
    size_t stop;              /* the STOP record of a span, else NTSIM_TL_NONE */
    size_t flows_first;       /* a host nrt_execute: its flows in tl->flows */
    uint32_t flows_count;
    uint32_t lane;
    uint32_t clock;           /* a device item: its clock in tl->clocks */
    uint32_t flags;
    uint32_t type;            /* the records' trace_type (drops: UINT32_MAX) */
} ntsim_tl_item_t;

typedef struct ntsim_tl_lane {
    ntsim_tl_lane_kind_t kind;
    uint32_t process;         /* index in tl->processes */
    uint32_t pid, tid;        /* as the writers number threads */
    uint32_t overlap;         /* 0, or k for the k-th overflow lane of the same key */
    uint64_t uuid;            /* Perfetto track uuid */
    uint64_t spans, instants;
    char name[64];
} ntsim_tl_lane_t;

typedef struct ntsim_tl_process {
    uint32_t pid;
    uint64_t uuid;
    char name[64];
    uint32_t nd_idx;          /* a device's index (the host's: 0) */
} ntsim_tl_process_t;

typedef struct ntsim_tl_clock {
    uint32_t nc, core;        /* core NTSIM_TL_NO_CORE: records that name none */
    uint64_t c0;              /* ns, host: the reference of the fit (first pair) */
    double a;                 /* ns: dev - cpu at cpu = c0 */
    double b;                 /* drift: d(dev - cpu)/d(cpu), 25 ppm = 25e-6 */
    uint64_t pairs;           /* distinct (cpu, dev) pairs the fit used */
    size_t pair_first;        /* its pairs in tl->pairs, sorted by cpu */
    double max_residual_ns;   /* max |aligned(dev_i) - cpu_i| over its pairs */
} ntsim_tl_clock_t;

typedef struct ntsim_tl_pair {
    uint64_t cpu, dev;
    uint32_t clock;
} ntsim_tl_pair_t;

typedef struct ntsim_tl_flow {
    uint64_t id;
    size_t from, to;          /* items: the host nrt_execute, the device span */
} ntsim_tl_flow_t;

typedef struct ntsim_tl_counter {
    uint32_t process, nc;
    uint64_t uuid;
    char name[64];
} ntsim_tl_counter_t;

typedef enum ntsim_tl_edge_kind {
    NTSIM_TL_BEGIN,
    NTSIM_TL_END,
    NTSIM_TL_INSTANT,
    NTSIM_TL_SAMPLE
} ntsim_tl_edge_kind_t;

typedef struct ntsim_tl_edge {
    uint64_t ts;              /* ns, host timeline */
    uint64_t order;           /* tie-break: lane-local sequence */
    size_t index;             /* item, or sample value's counter (SAMPLE) */
    int64_t value;            /* SAMPLE: the counter's value */
    ntsim_tl_edge_kind_t kind;
} ntsim_tl_edge_t;

typedef struct ntsim_timeline {
    const nrt_sys_trace_event_t *recs;
    size_t nrec;
    ntsim_tl_item_t *items;
    size_t nitems;
    ntsim_tl_lane_t *lanes;
    size_t nlanes;
    ntsim_tl_process_t *processes; /* the host, then a device per process, ascending */
    size_t nprocesses;
    bool by_device;           /* the caller mapped NCs to devices (options.nd_idx_by_nc) */
    ntsim_tl_clock_t *clocks;
    size_t nclocks;
    ntsim_tl_pair_t *pairs;
    size_t npairs;
    ntsim_tl_flow_t *flows;
    size_t nflows;
    ntsim_tl_counter_t *counters;
    size_t ncounters;
    ntsim_tl_edge_t *edges;
    size_t nedges;
    uint64_t t_min, t_max;    /* ns, host timeline, over every item (0, 0 if none) */
    ntsim_timeline_stats_t stats;
} ntsim_timeline_t;

/* Builds the model of `n` records (borrowed: they must outlive it). NULL
 * options are the defaults. NRT_RESOURCE when memory runs out (nothing left
 * allocated). */
NRT_STATUS ntsim__timeline_build(const nrt_sys_trace_event_t *recs, size_t n,
                                 const ntsim_timeline_options_t *opt, ntsim_timeline_t *tl);
void ntsim__timeline_free(ntsim_timeline_t *tl);
/* A public writer's first step: NRT_INVALID when it has nowhere to put its
 * result (out NULL: the bytes or the stats; len NULL where it takes one) or
 * events is NULL with count > 0; else ntsim__timeline_build. */
NRT_STATUS ntsim__timeline_begin(const void *out, bool has_len, const nrt_sys_trace_event_t *events,
                                 size_t count, const ntsim_timeline_options_t *options,
                                 ntsim_timeline_t *tl);

/* The event name of a record's type ("nrt_execute"; "unknown" past the table). */
const char *ntsim__timeline_name(uint32_t type);

/* clock_align.c: fits every clock over its pairs (tl->pairs sorted by clock,
 * then cpu) and returns the device time dev of clock c on the host timeline. */
void ntsim__clock_fit(ntsim_timeline_t *tl);
uint64_t ntsim__clock_align(const ntsim_tl_clock_t *c, uint64_t dev);

/* Text the JSON and HTML writers build: printf into a growbuf; the first
 * failure sticks in st and later calls do nothing. chrome_trace.c. */
typedef struct ntsim_textout {
    ntsim_growbuf_t b;
    NRT_STATUS st;
} ntsim_textout_t;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
void ntsim__text_put(ntsim_textout_t *o, const char *fmt, ...);

#endif /* NTSIM_ENGINE_TIMELINE_H */
