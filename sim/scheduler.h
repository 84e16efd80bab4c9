/*
 * sim/scheduler.h: the simulator's virtual time.
 *
 * A discrete-event scheduler: a min-heap of timed callbacks ordered by
 * (time, sequence number), so that events due at the same instant fire in
 * the order they were scheduled, on every machine. `now` moves only when
 * the scheduler pops an event; nothing in a simulated run reads a wall
 * clock.
 */
#ifndef NTSIM_SIM_SCHEDULER_H
#define NTSIM_SIM_SCHEDULER_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"

typedef struct ntsim_sched ntsim_sched_t;
typedef void (*ntsim_sched_fn)(ntsim_sched_t *s, void *arg, uint64_t arg2);

typedef struct ntsim_sched_item {
    uint64_t time;     /* ns, host clock */
    uint64_t seq;      /* tie-break: scheduling order */
    ntsim_sched_fn fn;
    void *arg;
    uint64_t arg2;
} ntsim_sched_item_t;

struct ntsim_sched {
    uint64_t now;      /* ns, host clock; only advanced by ntsim_sched_run */
    uint64_t next_seq;
    ntsim_sched_item_t *heap;
    size_t count, cap;
    uint64_t fired;    /* callbacks run so far */
};

void ntsim_sched_init(ntsim_sched_t *s, uint64_t start_ns);
void ntsim_sched_free(ntsim_sched_t *s);
/* Schedules fn(arg, arg2) at now + delay_ns. NRT_RESOURCE on OOM. */
NRT_STATUS ntsim_sched_after(ntsim_sched_t *s, uint64_t delay_ns, ntsim_sched_fn fn, void *arg,
                             uint64_t arg2);
/* Runs callbacks in (time, seq) order until none is left or the next one is
 * due after `until_ns`; `now` ends at the last fired callback's time.
 * Returns how many fired. */
uint64_t ntsim_sched_run(ntsim_sched_t *s, uint64_t until_ns);

#endif /* NTSIM_SIM_SCHEDULER_H */
