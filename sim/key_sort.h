/*
 * sim/key_sort.h: names and numbers found again in O(n log n).
 *
 * A vector lists members, fields, indices, variables; a testee's reply lists
 * them too. Checking each against the ones before it (or each listed one
 * against the whole reply) is quadratic: a valid 300K-member enum vector
 * took 130 s. Sorting a list of keys once makes the repeat check one pass
 * and each lookup a binary search, with no worst case an input can pick
 * (a hash table's can be). The keys borrow their names: the caller keeps
 * them alive while the list is used.
 */
#ifndef NTSIM_SIM_KEY_SORT_H
#define NTSIM_SIM_KEY_SORT_H

#include <stddef.h>
#include <stdint.h>

/* One key: a name (when not NULL) or a number, and where it was listed. */
typedef struct ntsim_key {
    const char *name;
    uint64_t num;
    size_t index;
} ntsim_key_t;

/* Sorts keys by name (or number), then by index: within equal keys, the
 * order they were listed in. A list holds names only or numbers only. */
void ntsim_keys_sort(ntsim_key_t *keys, size_t n);

/* In a sorted list: the smallest index that repeats a key listed earlier
 * (the one a check of each entry against those before it reports first),
 * with the earlier index in *earlier; SIZE_MAX when every key is listed once. */
size_t ntsim_keys_first_repeat(const ntsim_key_t *sorted, size_t n, size_t *earlier);

/* In a sorted list: the index of the first-listed key named `name`, or
 * SIZE_MAX. */
size_t ntsim_keys_find(const ntsim_key_t *sorted, size_t n, const char *name);

#endif /* NTSIM_SIM_KEY_SORT_H */
