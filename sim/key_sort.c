/*
 * sim/key_sort.c: sorted keys (key_sort.h).
 */
#include "key_sort.h"

#include <stdlib.h>
#include <string.h>

static int key_cmp(const ntsim_key_t *a, const ntsim_key_t *b)
{
    if (a->name != NULL && b->name != NULL) {
        int c = strcmp(a->name, b->name);
        if (c != 0)
            return c;
    } else if (a->num != b->num) {
        return a->num < b->num ? -1 : 1;
    }
    return 0;
}

static int key_order(const void *pa, const void *pb)
{
    const ntsim_key_t *a = pa, *b = pb;
    int c = key_cmp(a, b);
    if (c != 0)
        return c;
    /* The listed order breaks ties, so the result does not depend on how
     * qsort treats equal elements. */
    return a->index < b->index ? -1 : a->index > b->index;
}

void ntsim_keys_sort(ntsim_key_t *keys, size_t n)
{
    if (n > 1)
        qsort(keys, n, sizeof *keys, key_order);
}

size_t ntsim_keys_first_repeat(const ntsim_key_t *sorted, size_t n, size_t *earlier)
{
    size_t best = SIZE_MAX;
    for (size_t i = 1; i < n; i++) {
        /* Equal keys are adjacent and in listed order: the second of a run
         * is its earliest repeat, and the later ones are never smaller. */
        if (key_cmp(&sorted[i - 1], &sorted[i]) == 0 && sorted[i].index < best) {
            best = sorted[i].index;
            *earlier = sorted[i - 1].index;
        }
    }
    return best;
}

size_t ntsim_keys_find(const ntsim_key_t *sorted, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    ntsim_key_t want = {name, 0, 0};
    while (lo < hi) { /* the first entry not less than name */
        size_t mid = lo + (hi - lo) / 2;
        if (key_cmp(&sorted[mid], &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && key_cmp(&sorted[lo], &want) == 0 ? sorted[lo].index : SIZE_MAX;
}
