/*
 * engine/timeline/pairs.c: START/STOP pairing, one record at a time
 * (pairs.h; D-TIMELINE). Each key's open spans are a stack: a node per open
 * span holds the node below it and the caller's bytes; a STOP pops the top.
 */
#include <string.h>

#include "alloc.h"
#include "pairs.h"

enum { MIN_SLOTS = 16 };

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return x;
}

static size_t slot_of(const ntsim__pair_slot_t *slots, size_t cap, uint32_t type, uint32_t nc,
                      uint64_t tracking)
{
    size_t h = mix(tracking ^ mix((uint64_t)type << 32 | nc)) & (cap - 1);
    while (slots[h].used &&
           (slots[h].tracking != tracking || slots[h].type != type || slots[h].nc != nc))
        h = (h + 1) & (cap - 1);
    return h;
}

void ntsim__pairs_init(ntsim__pairs_t *p, size_t elem)
{
    memset(p, 0, sizeof *p);
    p->elem = elem;
    /* The link, then the caller's bytes, rounded so that the next node's
     * link is aligned. */
    p->node_size = (sizeof(size_t) + elem + sizeof(size_t) - 1) / sizeof(size_t) * sizeof(size_t);
}

void ntsim__pairs_free(ntsim__pairs_t *p)
{
    ntsim__free(p->slots);
    ntsim__free(p->nodes);
    p->slots = NULL;
    p->nodes = NULL;
}

static size_t *node_link(const ntsim__pairs_t *p, size_t node)
{
    return (size_t *)(void *)(p->nodes + (node - 1) * p->node_size);
}

/* The table made room for one more key: rebuilt without the keys that have
 * nothing open, at the size that leaves it at most a quarter full. */
static NRT_STATUS make_room(ntsim__pairs_t *p)
{
    if (p->slots != NULL && (p->used + 1) * 4 <= p->cap * 3)
        return NRT_SUCCESS;
    size_t live = 0;
    for (size_t i = 0; i < p->cap; i++)
        live += p->slots[i].used && p->slots[i].head != 0;
    size_t cap = MIN_SLOTS;
    while (cap < (live + 1) * 4) {
        if (cap > SIZE_MAX / 2 / sizeof *p->slots)
            return NRT_RESOURCE;
        cap *= 2;
    }
    ntsim__pair_slot_t *slots = ntsim__calloc(cap, sizeof *slots);
    if (slots == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < p->cap; i++) {
        const ntsim__pair_slot_t *s = &p->slots[i];
        if (s->used && s->head != 0)
            slots[slot_of(slots, cap, s->type, s->nc, s->tracking)] = *s;
    }
    ntsim__free(p->slots);
    p->slots = slots;
    p->cap = cap;
    p->used = live;
    return NRT_SUCCESS;
}

/* A node for a new open span (a freed one first); 0 when out of memory. */
static size_t new_node(ntsim__pairs_t *p)
{
    if (p->free_node != 0) {
        size_t n = p->free_node;
        p->free_node = *node_link(p, n);
        return n;
    }
    if (p->node_count == p->node_cap) {
        size_t cap = p->node_cap ? p->node_cap * 2 : 64;
        if (cap > SIZE_MAX / p->node_size)
            return 0;
        unsigned char *grown = ntsim__realloc(p->nodes, cap * p->node_size);
        if (grown == NULL)
            return 0;
        p->nodes = grown;
        p->node_cap = cap;
    }
    return ++p->node_count;
}

NRT_STATUS ntsim__pairs_start(ntsim__pairs_t *p, uint32_t type, uint32_t nc, uint64_t tracking,
                              const void *val)
{
    if (make_room(p) != NRT_SUCCESS)
        return NRT_RESOURCE;
    size_t node = new_node(p);
    if (node == 0)
        return NRT_RESOURCE;
    ntsim__pair_slot_t *s = &p->slots[slot_of(p->slots, p->cap, type, nc, tracking)];
    if (!s->used) {
        *s = (ntsim__pair_slot_t){tracking, type, nc, 0, true};
        p->used++;
    }
    *node_link(p, node) = s->head;
    if (p->elem > 0)
        memcpy(node_link(p, node) + 1, val, p->elem);
    s->head = node;
    p->open++;
    return NRT_SUCCESS;
}

bool ntsim__pairs_stop(ntsim__pairs_t *p, uint32_t type, uint32_t nc, uint64_t tracking,
                       void *val)
{
    if (p->slots == NULL)
        return false;
    ntsim__pair_slot_t *s = &p->slots[slot_of(p->slots, p->cap, type, nc, tracking)];
    if (!s->used || s->head == 0)
        return false;
    size_t node = s->head;
    if (p->elem > 0)
        memcpy(val, node_link(p, node) + 1, p->elem);
    s->head = *node_link(p, node);
    *node_link(p, node) = p->free_node;
    p->free_node = node;
    p->open--;
    return true;
}
