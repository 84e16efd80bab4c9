/*
 * engine/convert/time_sync.c: the sync points the JSON exporter aligns
 * hardware timestamps with (time_sync.h; D-JSON-TIME).
 *
 * Two kinds of entry share one open-addressed table with linear probing:
 *   SYNC   (nc_idx, exec_id)              -> (cpu, dev) of a TIMESTAMP_SYNC
 *   START  (nc_idx, type, tracking_id)    -> exec_id of a device START
 * The table has twice as many slots as entries, so a probe is short. A
 * ring of the slots' keys in insertion order bounds it: when it is full,
 * the oldest key is deleted (backward-shift deletion keeps every probe
 * chain whole, with no tombstones), then the new one is inserted.
 */
#include "time_sync.h"

#include <stdbool.h>
#include <string.h>

#include "alloc.h"
#include "event_table.h"

enum { KIND_SYNC = 1, KIND_START = 2 };

#define SLOTS (2u * NTSIM_SYNC_TABLE_ENTRIES) /* a power of two */

typedef struct key {
    uint64_t id;     /* exec_id (SYNC) or tracking_id (START) */
    uint32_t nc;
    uint16_t type;   /* the START's event type; 0 for SYNC */
    uint8_t kind;    /* 0: empty slot */
} sync_key_t;

typedef struct slot {
    sync_key_t key;
    uint64_t a, b;   /* SYNC: cpu, dev; START: exec_id */
} slot_t;

struct ntsim__sync_table {
    slot_t slots[SLOTS];
    sync_key_t order[NTSIM_SYNC_TABLE_ENTRIES]; /* live keys, oldest at head */
    size_t head, live;
};

static bool key_eq(const sync_key_t *x, const sync_key_t *y)
{
    return x->kind == y->kind && x->id == y->id && x->nc == y->nc && x->type == y->type;
}

/* splitmix64's finalizer over the key's words: ids are often small and
 * dense (exec ids 1, 2, 3...), so they are mixed before masking. */
static size_t home(const sync_key_t *k)
{
    uint64_t z = k->id ^ ((uint64_t)k->nc << 40) ^ ((uint64_t)k->type << 24) ^ k->kind;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return (size_t)(z & (SLOTS - 1));
}

static slot_t *find(ntsim__sync_table_t *t, const sync_key_t *k)
{
    for (size_t i = home(k);; i = (i + 1) & (SLOTS - 1)) {
        slot_t *s = &t->slots[i];
        if (s->key.kind == 0 || key_eq(&s->key, k))
            return s;
    }
}

/* Deletes k (present) and shifts back the entries after it whose home lies
 * at or before the freed slot, so that no probe chain is cut. */
static void erase(ntsim__sync_table_t *t, const sync_key_t *k)
{
    size_t i = (size_t)(find(t, k) - t->slots);
    for (size_t j = (i + 1) & (SLOTS - 1);; j = (j + 1) & (SLOTS - 1)) {
        slot_t *s = &t->slots[j];
        if (s->key.kind == 0)
            break;
        size_t h = home(&s->key);
        /* s may move to i when its home is not in the cyclic range (i, j]. */
        bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!stays) {
            t->slots[i] = *s;
            i = j;
        }
    }
    memset(&t->slots[i], 0, sizeof t->slots[i]);
}

static void put(ntsim__sync_table_t *t, const sync_key_t *k, uint64_t a, uint64_t b)
{
    slot_t *s = find(t, k);
    if (s->key.kind == 0) {
        if (t->live == NTSIM_SYNC_TABLE_ENTRIES) {
            erase(t, &t->order[t->head]);
            t->head = (t->head + 1) % NTSIM_SYNC_TABLE_ENTRIES;
            t->live--;
            s = find(t, k); /* the shift may have moved the empty slot */
        }
        s->key = *k;
        t->order[(t->head + t->live) % NTSIM_SYNC_TABLE_ENTRIES] = *k;
        t->live++;
    }
    s->a = a;
    s->b = b;
}

static const slot_t *get(const ntsim__sync_table_t *t, const sync_key_t *k)
{
    const slot_t *s = find((ntsim__sync_table_t *)t, k);
    return s->key.kind != 0 ? s : NULL;
}

ntsim__sync_table_t *ntsim__sync_table_new(void)
{
    return ntsim__calloc(1, sizeof(ntsim__sync_table_t));
}

void ntsim__sync_table_free(ntsim__sync_table_t *t)
{
    ntsim__free(t);
}

void ntsim__sync_table_clear(ntsim__sync_table_t *t)
{
    memset(t, 0, sizeof *t);
}

static uint64_t field(const nrt_sys_trace_event_t *e, size_t offset, size_t size)
{
    return ntsim__data_field(&e->data, offset, size, false);
}

void ntsim__sync_table_learn(ntsim__sync_table_t *t, const nrt_sys_trace_event_t *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t type = (uint32_t)e[i].trace_type, phase = (uint32_t)e[i].phase;
        const ntsim_data_view_t *v = ntsim__data_view(type, phase);
        if (!v->nc_timestamp || !v->has_exec_id)
            continue;
        uint64_t exec = field(&e[i], v->exec_id_offset, v->exec_id_size);
        if (type == NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC) {
            sync_key_t k = {exec, e[i].nc_idx, 0, KIND_SYNC};
            put(t, &k, field(&e[i], v->cpu_timestamp_offset, 8),
                field(&e[i], v->nc_timestamp_offset, 8));
        } else if (phase == NRT_SYS_TRACE_EVENT_PHASE_START) {
            sync_key_t k = {e[i].tracking_id, e[i].nc_idx, (uint16_t)type, KIND_START};
            put(t, &k, exec, 0);
        }
    }
}

uint64_t ntsim__sync_event_time(const ntsim__sync_table_t *t, const nrt_sys_trace_event_t *e,
                                const ntsim_data_view_t *v)
{
    if (!v->nc_timestamp)
        return e->timestamp_ns;
    uint64_t dev = field(e, v->nc_timestamp_offset, 8);
    uint32_t type = (uint32_t)e->trace_type;
    if (type == NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC)
        return field(e, v->cpu_timestamp_offset, 8); /* its own sync point */
    if (t == NULL)
        return dev;
    uint64_t exec;
    if (v->has_exec_id) {
        exec = field(e, v->exec_id_offset, v->exec_id_size);
    } else {
        sync_key_t k = {e->tracking_id, e->nc_idx, (uint16_t)type, KIND_START};
        const slot_t *s = get(t, &k);
        if (s == NULL)
            return dev;
        exec = s->a;
    }
    sync_key_t k = {exec, e->nc_idx, 0, KIND_SYNC};
    const slot_t *s = get(t, &k);
    /* Unsigned arithmetic: a device clock behind the sync point's, or one
     * that wrapped, still gives sync.cpu + the signed difference mod 2^64. */
    return s != NULL ? s->a + (dev - s->b) : dev;
}
