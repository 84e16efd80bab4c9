/*
 * engine/capture/capture.c: the sys_trace capture engine.
 *
 * 256 NeuronCore contexts (facts §5: CONTEXTS[256]), one per possible nc_idx.
 * Each owns its ring (engine/capture/ring.c), its per-type enable bytes copied from
 * the config at start, and its counters. There is no global event queue and
 * no two NCs share a ring or a written cache line, so emitters on different
 * NCs do not contend.
 *
 * Emit, in libnrt's order (facts §5):
 *   1. capture state off -> return 0          one relaxed load, no store
 *   2. enter the grace section (grace.h)      two plain stores, no RMW
 *   3. nc_idx >= 256 -> warn, use NC 0
 *   4. type >= COUNT -> drop (counted)        before any table lookup
 *   5. NC without a ring, or type disabled -> drop
 *   6. read the clock, reserve a slot (evicting the oldest when full),
 *      seq = the slot's position
 *   7. tracking_id = caller's, else seq | nc_idx << 50
 *   8. fill the record (payload masked per the one table), commit
 *
 * Lifecycle: start and stop are serialized by one mutex; drains of one NC by
 * that NC's mutex. Neither mutex is taken on the emit path.
 *
 * Fork (D-FORK): a child starts with no session. The parent's session is
 * the parent's: its rings may hold a slot that a thread absent from the
 * child was writing, and the registry counts that thread inside an emit
 * for ever. So the child stops capturing, frees its copies of the rings,
 * zeroes the counters and forgets the other threads (fork_child below); it
 * may start a session of its own. The locks that guard what the child keeps
 * are held across the fork, in the order the code takes them (lifecycle,
 * the thread registry, the allocator's list), so that no copy is taken
 * half-changed; each NC's drain lock, which a drain of the parent's may
 * hold, guards only what the child drops: it is made afresh in the child.
 */
#define _GNU_SOURCE /* clock_gettime */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "event_table.h"
#include "grace.h"
#include "log.h"
#include "ntsim/capture.h"
#include "ring.h"
#include "session.h"

#define NTSIM_MAX_EVENTS_MIN UINT64_C(1024)     /* facts §4: the shim's clamp */
#define NTSIM_MAX_EVENTS_MAX UINT64_C(0x100000)
#define NTSIM_SEQ_LIMIT (UINT64_C(1) << 50)     /* seq beyond this collides with nc bits */
/* Rings are mapped in full at start while their total stays within this
 * budget (D-RING-MEMORY); beyond it, pages are mapped on first touch. */
#define NTSIM_PREFAULT_BUDGET (UINT64_C(1) << 30)
#define PAYLOAD_WORDS (sizeof(nrt_sys_trace_event_data_t) / sizeof(uint64_t))

typedef struct ntsim_nc_context {
    /* Read by emitters: the ring and the enable bytes share one line. */
    _Alignas(64) _Atomic(ntsim_ring_t *) ring;
    uint8_t enable[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    /* Rare paths. */
    _Alignas(64) pthread_mutex_t drain_lock;
    _Atomic bool seq_overflow_warned;
    ntsim_nc_stats_t last;    /* the stopped session's counters (under drain_lock) */
} ntsim_nc_context_t;

/* Each drain lock is initialized statically (POSIX allows a zero-filled
 * mutex only where PTHREAD_MUTEX_INITIALIZER happens to be all zero): no
 * init call to order before the first drain, stats or start. */
#define NC_INIT1 {.drain_lock = PTHREAD_MUTEX_INITIALIZER}
#define NC_INIT4 NC_INIT1, NC_INIT1, NC_INIT1, NC_INIT1
#define NC_INIT16 NC_INIT4, NC_INIT4, NC_INIT4, NC_INIT4
#define NC_INIT64 NC_INIT16, NC_INIT16, NC_INIT16, NC_INIT16
_Static_assert(NTSIM_NC_COUNT == 256, "g_nc's initializer lists 256 contexts");
static ntsim_nc_context_t g_nc[NTSIM_NC_COUNT] = {NC_INIT64, NC_INIT64, NC_INIT64, NC_INIT64};
static pthread_mutex_t g_lifecycle = PTHREAD_MUTEX_INITIALIZER;

/* 1 while capturing. Written under g_lifecycle; read by every emit. */
static _Atomic uint32_t g_state;

static ntsim_capture_hooks_t g_hooks;   /* written only while not capturing */
static uint64_t g_payload_mask[NTSIM_PAYLOAD_COUNT][PAYLOAD_WORDS];
static pthread_once_t g_mask_once = PTHREAD_ONCE_INIT;

static _Atomic uint64_t g_sessions;
static _Atomic uint64_t g_invalid_type;
static _Atomic uint64_t g_clamped_nc;
static _Atomic uint64_t g_reentrant;
static _Atomic bool g_reentrant_warned;
static _Atomic bool g_invalid_type_warned;
static _Atomic bool g_clamped_nc_warned;

/* One 40-byte mask per payload: 0xff over each field's bytes, 0 over holes
 * and past the member's end. Applied to the caller's union, it copies the
 * member's fields and zeroes everything else (D-PAYLOAD-HOLES). */
static void masks_init(void)
{
    for (size_t p = 1; p < NTSIM_PAYLOAD_COUNT; p++) {
        uint8_t bytes[sizeof(nrt_sys_trace_event_data_t)] = {0};
        const ntsim_payload_desc_t *d = &ntsim__payloads[p];
        for (size_t f = 0; f < d->field_count; f++)
            memset(bytes + d->fields[f].offset, 0xff, d->fields[f].size);
        memcpy(g_payload_mask[p], bytes, sizeof bytes);
    }
}

static inline uint64_t clock_now(void)
{
    if (g_hooks.now_ns != NULL)
        return g_hooks.now_ns(g_hooks.ctx);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts); /* libnrt: SystemTime, i.e. CLOCK_REALTIME */
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* True the first time per session: hot-path warnings are logged once and
 * counted always. */
static bool first_time(_Atomic bool *flag)
{
    return !atomic_exchange_explicit(flag, true, memory_order_relaxed);
}

/* The emit path, one function on purpose (~100 lines): it is the hot path,
 * and its steps (enabled checks, clock, ring claim, the slot's writes, the
 * statistics) read in the order the protocol of ring.c orders them. */
static uint64_t emit(uint32_t type, uint32_t phase, uint32_t nc_idx,
                     const nrt_sys_trace_event_data_t *data, uint64_t tracking_id,
                     nrta_seq_t nrta_seq_id, bool has_seq)
{
    /* The gate: relaxed is enough to decide "not capturing"; the acquire
     * load below is the one that orders what we read next. */
    if (atomic_load_explicit(&g_state, memory_order_relaxed) == 0)
        return 0;
    ntsim_thread_t *self = ntsim__thread_self();
    if (self == NULL)
        return 0;
    /* An emit from a clock or thread-id hook, inside this thread's own emit:
     * its exit would clear the flag stop() waits on while the outer emit
     * still writes its slot, so it is refused (only this thread sets the
     * flag: a relaxed load of our own store). */
    if (atomic_load_explicit(&self->in_emit, memory_order_relaxed) != 0) {
        atomic_fetch_add_explicit(&g_reentrant, 1, memory_order_relaxed);
        if (first_time(&g_reentrant_warned))
            ntsim__log(NTSIM_LOG_WARN, "an emit from inside an emit (a clock or thread-id hook) "
                                       "is refused: event dropped");
        return 0;
    }
    ntsim__grace_enter(self);
    uint64_t result = 0;
    /* seq_cst (at least acquire): pairs with start()'s release, so the rings,
     * enable bytes, hooks and masks it wrote are visible from here on; and
     * with stop()'s seq_cst store for the grace period (grace.h). */
    if (atomic_load_explicit(&g_state, memory_order_seq_cst) == 0)
        goto out;
    if (nc_idx >= NTSIM_NC_COUNT) {
        atomic_fetch_add_explicit(&g_clamped_nc, 1, memory_order_relaxed);
        if (first_time(&g_clamped_nc_warned))
            ntsim__log(NTSIM_LOG_WARN, "nc_idx %u is out of range [0, 255]: using NC 0", nc_idx);
        nc_idx = 0;
    }
    /* facts §5's order (D-EMIT-GATES): a closed NC drops first, silently,
     * whatever the type; then a type past the enum; then the type filter. */
    ntsim_nc_context_t *ctx = &g_nc[nc_idx];
    ntsim_ring_t *ring = atomic_load_explicit(&ctx->ring, memory_order_relaxed);
    if (ring == NULL)
        goto out;
    if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT) {
        atomic_fetch_add_explicit(&g_invalid_type, 1, memory_order_relaxed);
        if (first_time(&g_invalid_type_warned))
            ntsim__log(NTSIM_LOG_WARN, "invalid event type %u: event dropped", type);
        goto out;
    }
    if (ctx->enable[type] == 0)
        goto out;

    uint64_t now = clock_now();
    ntsim_ring_reservation_t res;
    if (ntsim__ring_reserve(ring, now, self, &res) != NRT_SUCCESS)
        goto out; /* refused as busy: counted by the ring */
    uint64_t seq = res.pos;
    if (seq >= NTSIM_SEQ_LIMIT && first_time(&ctx->seq_overflow_warned))
        ntsim__log(NTSIM_LOG_WARN,
                   "NC %u: seq reached 2^50 (%llu): derived tracking ids now collide with nc_idx",
                   nc_idx, (unsigned long long)seq);
    uint64_t nc_bits = (uint64_t)nc_idx << 50;
    result = tracking_id != 0 ? tracking_id : (seq | nc_bits);

    /* Written straight into the slot, each byte once, padding included: no
     * staging copy (narrow stores followed by a wide copy stall the store
     * buffer). The first and last words are zeroed whole, then their field
     * is stored, so the record's padding is always zero. */
    nrt_sys_trace_event_t *rec = res.rec;
    memset(rec, 0, 8);
    rec->trace_type = (nrt_sys_trace_event_type_t)type;
    rec->thread_id = g_hooks.thread_id != NULL ? g_hooks.thread_id(g_hooks.ctx) : self->tid;
    rec->id = seq | nc_bits;
    rec->nc_local_id = seq;
    rec->tracking_id = result;
    rec->timestamp_ns = now;
    ntsim_payload_id_t pid = ntsim__event_payload(type, phase);
    unsigned char *slot_data = (unsigned char *)&rec->data;
    if (pid != NTSIM_PAYLOAD_NONE && data != NULL) {
        const unsigned char *src = (const unsigned char *)data;
        const uint64_t *mask = g_payload_mask[pid];
        uint64_t w0, w1, w2, w3, w4; /* five words, unrolled: this runs per event */
        _Static_assert(PAYLOAD_WORDS == 5, "the payload copy is unrolled for 40 bytes");
        memcpy(&w0, src, 8);
        memcpy(&w1, src + 8, 8);
        memcpy(&w2, src + 16, 8);
        memcpy(&w3, src + 24, 8);
        memcpy(&w4, src + 32, 8);
        w0 &= mask[0];
        w1 &= mask[1];
        w2 &= mask[2];
        w3 &= mask[3];
        w4 &= mask[4];
        memcpy(slot_data, &w0, 8);
        memcpy(slot_data + 8, &w1, 8);
        memcpy(slot_data + 16, &w2, 8);
        memcpy(slot_data + 24, &w3, 8);
        memcpy(slot_data + 32, &w4, 8);
    } else {
        memset(slot_data, 0, sizeof rec->data);
    }
    rec->phase = (nrt_sys_trace_event_phase_t)phase;
    rec->nc_idx = nc_idx;
    rec->nrta_seq_id = has_seq ? nrta_seq_id : 0;
    memset((unsigned char *)rec + offsetof(nrt_sys_trace_event_t, has_nrta_seq_id), 0, 8);
    rec->has_nrta_seq_id = has_seq;
    ntsim__ring_commit(&res);
out:
    ntsim__grace_exit(self);
    return result;
}

uint64_t nrt_sys_trace_new_event(nrt_sys_trace_event_type_t type,
                                 nrt_sys_trace_event_phase_t phase, uint32_t nc_idx,
                                 const nrt_sys_trace_event_data_t *data, uint64_t tracking_id)
{
    return emit((uint32_t)type, (uint32_t)phase, nc_idx, data, tracking_id, 0, false);
}

uint64_t nrt_sys_trace_new_event_with_seq(nrt_sys_trace_event_type_t type,
                                          nrt_sys_trace_event_phase_t phase, uint32_t nc_idx,
                                          const nrt_sys_trace_event_data_t *data,
                                          uint64_t tracking_id, nrta_seq_t nrta_seq_id)
{
    return emit((uint32_t)type, (uint32_t)phase, nc_idx, data, tracking_id, nrta_seq_id, true);
}

/* --- lifecycle ------------------------------------------------------------- */

static void stats_from_ring(const ntsim_ring_t *ring, ntsim_nc_stats_t *st)
{
    ntsim_ring_counts_t c;
    ntsim__ring_counts(ring, &c);
    memset(st, 0, sizeof *st);
    st->capacity = ntsim__ring_capacity(ring);
    st->pushed = c.pushed;
    st->busy = c.busy;
    st->created = c.pushed + c.busy;
    st->overwritten = c.overwritten;
    st->drained = c.drained;
    st->in_ring = c.pushed - c.consumed;
    st->first_overwrite_ns = c.first_overwrite_ns;
    st->last_overwrite_ns = c.last_overwrite_ns;
}

/* --- fork (D-FORK) ------------------------------------------------------------- */

static void fork_prepare(void)
{
    pthread_mutex_lock(&g_lifecycle);
    ntsim__grace_fork_prepare();
    ntsim__alloc_fork_prepare();
}

static void fork_parent(void)
{
    ntsim__alloc_fork_release();
    ntsim__grace_fork_parent();
    pthread_mutex_unlock(&g_lifecycle);
}

static void fork_child(void)
{
    ntsim__alloc_fork_release(); /* first: freeing the rings takes it */
    ntsim__grace_fork_child();
    /* The child's only thread: relaxed stores order nothing with anyone. */
    atomic_store_explicit(&g_state, 0, memory_order_relaxed);
    for (size_t nc = NTSIM_NC_COUNT; nc-- > 0;) {
        ntsim_nc_context_t *ctx = &g_nc[nc];
        /* A drain of the parent's may have held it at the fork, and its
         * thread is not here to release it: a fresh lock. What it guards,
         * the ring and the counters, is dropped and reset just below. */
        pthread_mutex_init(&ctx->drain_lock, NULL);
        ntsim_ring_t *ring = atomic_load_explicit(&ctx->ring, memory_order_relaxed);
        atomic_store_explicit(&ctx->ring, NULL, memory_order_relaxed);
        ntsim__ring_destroy(ring); /* the child's copy; the parent's is untouched */
        memset(&ctx->last, 0, sizeof ctx->last);
    }
    pthread_mutex_unlock(&g_lifecycle);
}

static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;

static void atfork_register(void)
{
    if (pthread_atfork(fork_prepare, fork_parent, fork_child) != 0)
        ntsim__log(NTSIM_LOG_WARN, "pthread_atfork failed: a forked child must not use "
                                   "the capture of its parent");
}

NRT_STATUS nrt_sys_trace_start(nrt_sys_trace_config_t *config)
{
    if (config == NULL) {
        ntsim__log(NTSIM_LOG_ERROR, "nrt_sys_trace_start: config is NULL");
        return NRT_INVALID;
    }
    pthread_once(&g_mask_once, masks_init);
    /* Before the first session, a fork has nothing to reset. */
    pthread_once(&g_atfork_once, atfork_register);
    pthread_mutex_lock(&g_lifecycle);
    if (atomic_load_explicit(&g_state, memory_order_relaxed) != 0) {
        pthread_mutex_unlock(&g_lifecycle);
        ntsim__log(NTSIM_LOG_WARN, "sys trace capture is already running: start ignored");
        return NRT_FAILURE;
    }
    uint64_t max = config->max_events_per_nc;
    if (max < NTSIM_MAX_EVENTS_MIN)
        max = NTSIM_MAX_EVENTS_MIN;
    if (max > NTSIM_MAX_EVENTS_MAX)
        max = NTSIM_MAX_EVENTS_MAX;

    ntsim_ring_t *rings[NTSIM_NC_COUNT] = {0};
    size_t enabled = 0;
    for (size_t nc = 0; nc < NTSIM_NC_COUNT; nc++)
        enabled += config->capture_enabled_for_nc[nc] ? 1 : 0;
    /* 128 bytes of storage per record: the record and its stamp, one slot
     * (ring.c; D-RING-MEMORY). */
    bool prefault = (uint64_t)enabled * max * 128 <= NTSIM_PREFAULT_BUDGET;
    for (size_t nc = 0; nc < NTSIM_NC_COUNT; nc++) {
        if (!config->capture_enabled_for_nc[nc])
            continue;
        NRT_STATUS st = ntsim__ring_create(max, prefault, &rings[nc]);
        if (st != NRT_SUCCESS) {
            for (size_t j = 0; j < nc; j++)
                ntsim__ring_destroy(rings[j]);
            pthread_mutex_unlock(&g_lifecycle);
            ntsim__log(NTSIM_LOG_ERROR, "cannot allocate the ring of NC %zu (%llu events)", nc,
                       (unsigned long long)max);
            return st;
        }
    }
    ntsim__log(NTSIM_LOG_INFO, "sys trace: %zu NCs x %llu events: %.3f GB of rings%s", enabled,
               (unsigned long long)max, 112.0 * (double)max * (double)enabled / 1073741824.0,
               prefault ? "" : " (mapped on first touch: over the prefault budget)");

    ntsim__grace_prepare();
    atomic_store_explicit(&g_invalid_type, 0, memory_order_relaxed);
    atomic_store_explicit(&g_clamped_nc, 0, memory_order_relaxed);
    atomic_store_explicit(&g_reentrant, 0, memory_order_relaxed);
    atomic_store_explicit(&g_reentrant_warned, false, memory_order_relaxed);
    atomic_store_explicit(&g_invalid_type_warned, false, memory_order_relaxed);
    atomic_store_explicit(&g_clamped_nc_warned, false, memory_order_relaxed);
    ntsim__session_started(); /* what the stages above keep per session (the exporter's) */
    for (size_t nc = 0; nc < NTSIM_NC_COUNT; nc++) {
        ntsim_nc_context_t *ctx = &g_nc[nc];
        pthread_mutex_lock(&ctx->drain_lock);
        for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
            ctx->enable[t] = config->capture_enabled_for_event_type[t] ? 1 : 0;
        atomic_store_explicit(&ctx->seq_overflow_warned, false, memory_order_relaxed);
        memset(&ctx->last, 0, sizeof ctx->last);
        atomic_store_explicit(&ctx->ring, rings[nc], memory_order_relaxed);
        pthread_mutex_unlock(&ctx->drain_lock);
    }
    atomic_fetch_add_explicit(&g_sessions, 1, memory_order_relaxed);
    /* release: publishes the rings, enable bytes, masks and hooks above to
     * every emitter that acquires the state. */
    atomic_store_explicit(&g_state, 1, memory_order_release);
    pthread_mutex_unlock(&g_lifecycle);
    return NRT_SUCCESS;
}

/* Test hook: see ring.h. Under the NC's drain lock, as drains are. */
bool ntsim__capture_skip_to(uint32_t nc_idx, uint64_t pos)
{
    if (nc_idx >= NTSIM_NC_COUNT)
        return false;
    ntsim_nc_context_t *ctx = &g_nc[nc_idx];
    pthread_mutex_lock(&g_lifecycle);
    pthread_mutex_lock(&ctx->drain_lock);
    ntsim_ring_t *ring = atomic_load_explicit(&ctx->ring, memory_order_relaxed);
    bool done = ring != NULL && ntsim__ring_skip_to(ring, pos);
    pthread_mutex_unlock(&ctx->drain_lock);
    pthread_mutex_unlock(&g_lifecycle);
    return done;
}

/* With g_lifecycle held and the state already cleared. */
static void stop_locked(void)
{
    ntsim__grace_wait();
    for (size_t nc = 0; nc < NTSIM_NC_COUNT; nc++) {
        ntsim_nc_context_t *ctx = &g_nc[nc];
        pthread_mutex_lock(&ctx->drain_lock);
        ntsim_ring_t *ring = atomic_load_explicit(&ctx->ring, memory_order_relaxed);
        if (ring != NULL) {
            stats_from_ring(ring, &ctx->last);
            ctx->last.lost_at_stop = ctx->last.in_ring;
            ctx->last.in_ring = 0;
            if (ctx->last.lost_at_stop > 0)
                ntsim__log(NTSIM_LOG_INFO, "NC %zu: %llu events not drained before stop", nc,
                           (unsigned long long)ctx->last.lost_at_stop);
            atomic_store_explicit(&ctx->ring, NULL, memory_order_relaxed);
            ntsim__ring_destroy(ring);
        }
        pthread_mutex_unlock(&ctx->drain_lock);
    }
}

/* stop() and shutdown() wait for every emit in flight to leave; called from
 * inside one (a hook), they would wait for themselves forever. */
static bool refuse_inside_emit(const char *what)
{
    if (!ntsim__grace_inside_emit())
        return false;
    ntsim__log(NTSIM_LOG_ERROR, "%s called from inside an emit (a clock or thread-id hook): "
                                "refused, a thread cannot wait for its own emit",
               what);
    return true;
}

NRT_STATUS nrt_sys_trace_stop(void)
{
    if (refuse_inside_emit("nrt_sys_trace_stop"))
        return NRT_FAILURE;
    pthread_mutex_lock(&g_lifecycle);
    if (atomic_load_explicit(&g_state, memory_order_relaxed) == 0) {
        pthread_mutex_unlock(&g_lifecycle);
        ntsim__log(NTSIM_LOG_WARN, "sys trace capture is not running: stop ignored");
        return NRT_FAILURE;
    }
    /* seq_cst: ordered before the grace period's scan of in_emit flags. */
    atomic_store_explicit(&g_state, 0, memory_order_seq_cst);
    stop_locked();
    pthread_mutex_unlock(&g_lifecycle);
    return NRT_SUCCESS;
}

void ntsim_capture_shutdown(void)
{
    if (refuse_inside_emit("ntsim_capture_shutdown"))
        return;
    pthread_mutex_lock(&g_lifecycle);
    if (atomic_load_explicit(&g_state, memory_order_relaxed) != 0) {
        atomic_store_explicit(&g_state, 0, memory_order_seq_cst);
        stop_locked();
    }
    for (size_t nc = 0; nc < NTSIM_NC_COUNT; nc++) {
        pthread_mutex_lock(&g_nc[nc].drain_lock);
        memset(&g_nc[nc].last, 0, sizeof g_nc[nc].last);
        pthread_mutex_unlock(&g_nc[nc].drain_lock);
    }
    atomic_store_explicit(&g_invalid_type, 0, memory_order_relaxed);
    atomic_store_explicit(&g_clamped_nc, 0, memory_order_relaxed);
    atomic_store_explicit(&g_reentrant, 0, memory_order_relaxed);
    ntsim__session_shutdown();
    ntsim__grace_shutdown();
    pthread_mutex_unlock(&g_lifecycle);
}

bool ntsim_capture_is_capturing(void)
{
    return atomic_load_explicit(&g_state, memory_order_acquire) != 0;
}

NRT_STATUS ntsim_capture_set_hooks(const ntsim_capture_hooks_t *hooks)
{
    pthread_mutex_lock(&g_lifecycle);
    if (atomic_load_explicit(&g_state, memory_order_relaxed) != 0) {
        pthread_mutex_unlock(&g_lifecycle);
        ntsim__log(NTSIM_LOG_WARN, "capture hooks cannot change while capturing");
        return NRT_FAILURE;
    }
    if (hooks != NULL)
        g_hooks = *hooks;
    else
        memset(&g_hooks, 0, sizeof g_hooks);
    pthread_mutex_unlock(&g_lifecycle);
    return NRT_SUCCESS;
}

/* --- drain and stats ------------------------------------------------------- */

NRT_STATUS nrt_sys_trace_drain_events(uint32_t nc_idx, nrt_sys_trace_event_t *out,
                                      size_t capacity, size_t *count)
{
    if (count == NULL || nc_idx >= NTSIM_NC_COUNT || (out == NULL && capacity > 0))
        return NRT_INVALID;
    *count = 0;
    ntsim_nc_context_t *ctx = &g_nc[nc_idx];
    pthread_mutex_lock(&ctx->drain_lock);
    ntsim_ring_t *ring = atomic_load_explicit(&ctx->ring, memory_order_relaxed);
    if (ring != NULL && capacity > 0)
        *count = ntsim__ring_pop(ring, out, capacity);
    pthread_mutex_unlock(&ctx->drain_lock);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_capture_nc_stats(uint32_t nc_idx, ntsim_nc_stats_t *stats)
{
    if (stats == NULL || nc_idx >= NTSIM_NC_COUNT)
        return NRT_INVALID;
    ntsim_nc_context_t *ctx = &g_nc[nc_idx];
    pthread_mutex_lock(&ctx->drain_lock);
    ntsim_ring_t *ring = atomic_load_explicit(&ctx->ring, memory_order_relaxed);
    if (ring != NULL)
        stats_from_ring(ring, stats);
    else
        *stats = ctx->last;
    pthread_mutex_unlock(&ctx->drain_lock);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_capture_global_stats(ntsim_capture_stats_t *stats)
{
    if (stats == NULL)
        return NRT_INVALID;
    stats->sessions = atomic_load_explicit(&g_sessions, memory_order_relaxed);
    stats->invalid_type = atomic_load_explicit(&g_invalid_type, memory_order_relaxed);
    stats->clamped_nc_idx = atomic_load_explicit(&g_clamped_nc, memory_order_relaxed);
    stats->reentrant = atomic_load_explicit(&g_reentrant, memory_order_relaxed);
    return NRT_SUCCESS;
}

nrt_sys_trace_event_category_t nrt_sys_trace_get_event_type_category(
    nrt_sys_trace_event_type_t type)
{
    if ((uint32_t)type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT)
        ntsim__log(NTSIM_LOG_WARN, "unknown event type %u: category UNKNOWN", (unsigned)type);
    return ntsim__event_category((uint32_t)type);
}
