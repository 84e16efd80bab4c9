/*
 * sim/scheduler.c: a binary min-heap keyed by (time, seq).
 *
 * Ordering rule: a callback scheduled for time t fires after every callback
 * with an earlier time, and after every callback for the same t that was
 * scheduled before it. The sequence number makes the heap's order total,
 * so the run does not depend on the heap's internal layout.
 */
#include "scheduler.h"

#include <stdlib.h>
#include <string.h>

static int before(const ntsim_sched_item_t *a, const ntsim_sched_item_t *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void ntsim_sched_init(ntsim_sched_t *s, uint64_t start_ns)
{
    memset(s, 0, sizeof *s);
    s->now = start_ns;
}

void ntsim_sched_free(ntsim_sched_t *s)
{
    free(s->heap);
    memset(s, 0, sizeof *s);
}

NRT_STATUS ntsim_sched_after(ntsim_sched_t *s, uint64_t delay_ns, ntsim_sched_fn fn, void *arg,
                             uint64_t arg2)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        ntsim_sched_item_t *h = realloc(s->heap, cap * sizeof *h);
        if (h == NULL)
            return NRT_RESOURCE;
        s->heap = h;
        s->cap = cap;
    }
    ntsim_sched_item_t item = {s->now + delay_ns, s->next_seq++, fn, arg, arg2};
    size_t i = s->count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&item, &s->heap[parent]))
            break;
        s->heap[i] = s->heap[parent];
        i = parent;
    }
    s->heap[i] = item;
    return NRT_SUCCESS;
}

static ntsim_sched_item_t pop(ntsim_sched_t *s)
{
    ntsim_sched_item_t top = s->heap[0];
    ntsim_sched_item_t last = s->heap[--s->count];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const ntsim_sched_item_t *best = &last;
        if (l < s->count && before(&s->heap[l], best)) {
            m = l;
            best = &s->heap[l];
        }
        if (r < s->count && before(&s->heap[r], best))
            m = r;
        if (m == i)
            break;
        s->heap[i] = s->heap[m];
        i = m;
    }
    if (s->count > 0)
        s->heap[i] = last;
    return top;
}

uint64_t ntsim_sched_run(ntsim_sched_t *s, uint64_t until_ns)
{
    uint64_t fired = 0;
    while (s->count > 0 && s->heap[0].time <= until_ns) {
        ntsim_sched_item_t it = pop(s);
        s->now = it.time;
        it.fn(s, it.arg, it.arg2);
        fired++;
    }
    s->fired += fired;
    return fired;
}
