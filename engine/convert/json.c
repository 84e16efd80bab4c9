/*
 * engine/convert/json.c: the JSON exporter and nrt_sys_trace_fetch_events.
 *
 * Document (facts §2): compact {"events":[...],"data_version":2}. Each event
 * object has the 11 keys in the facts' order:
 *   event_type, phase, id, nc_idx, nc_local_id, tracking_id, thread_id,
 *   worker_gid, data, timestamp_ns, nrta_seq_id
 * with nrta_seq_id omitted when has_nrta_seq_id is 0, data always present
 * ({} when the phase carries nothing, and with a counted warning when the
 * exporter has no arm for the phase), and a device event's timestamp_ns
 * moved to the CPU clock with its execution's TIMESTAMP_SYNC, or its raw
 * device time when none is known (time_sync.h, D-JSON-TIME); the raw device
 * time stays in data.nc_timestamp_ns.
 * Integers are printed exactly from 64 bits; strings are escaped.
 *
 * The writer streams into one growing buffer. fetch reserves, before it
 * drains anything, room for every event it will take (at most
 * NTSIM_JSON_EVENT_MAX bytes each) and for the largest NC's records, so that
 * an allocation failure can only happen while nothing has been removed from
 * the rings: nothing captured is lost to an out-of-memory error, and the
 * hot loop never allocates. It pops each NC whole, learns its sync points,
 * then writes it (D-FETCH).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "data_view.h"
#include "event_table.h"
#include "growbuf.h"
#include "log.h"
#include "ntsim/capture.h"
#include "ntsim/convert.h"
#include "session.h"
#include "time_sync.h"

/* Upper bound of one event's JSON, separator included; pinned by
 * test_json_event_never_exceeds_its_bound over every (type, phase). */
#define NTSIM_JSON_EVENT_MAX 768

static const char DOC_OPEN[] = "{\"events\":[";
static const char DOC_CLOSE[] = "],\"data_version\":2}";

/* --- the worker_gid map ------------------------------------------------------- */

static pthread_mutex_t g_gid_lock = PTHREAD_MUTEX_INITIALIZER;
static int32_t g_gid_map[NTSIM_NC_COUNT];
static size_t g_gid_count = NTSIM_NC_COUNT;
static bool g_gid_custom;

NRT_STATUS ntsim_json_set_gid_map(const int32_t *map, size_t count)
{
    if (count > NTSIM_NC_COUNT)
        return NRT_INVALID;
    pthread_mutex_lock(&g_gid_lock);
    if (map == NULL) {
        g_gid_custom = false;
        g_gid_count = NTSIM_NC_COUNT;
    } else {
        memcpy(g_gid_map, map, count * sizeof *map);
        g_gid_count = count;
        g_gid_custom = true;
    }
    pthread_mutex_unlock(&g_gid_lock);
    return NRT_SUCCESS;
}

/* Snapshot of the map for one serialization: worker_gid of every NC. */
static void gid_snapshot(int32_t out[NTSIM_NC_COUNT])
{
    pthread_mutex_lock(&g_gid_lock);
    for (size_t i = 0; i < NTSIM_NC_COUNT; i++) {
        if (i >= g_gid_count)
            out[i] = -1;
        else
            out[i] = g_gid_custom ? g_gid_map[i] : (int32_t)i;
    }
    pthread_mutex_unlock(&g_gid_lock);
}

/* --- appends into the growbuf ------------------------------------------------------ */

/* Unchecked appends: the caller reserved the room. */
static inline void put(ntsim_growbuf_t *b, const char *s, size_t n)
{
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

#define PUT_LIT(b, lit) put((b), (lit), sizeof(lit) - 1)

/* "00" .. "99": two digits per division (a timestamp has 19 digits). */
static const char digit_pairs[] = "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
                                  "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

static inline void put_u64(ntsim_growbuf_t *b, uint64_t v)
{
    char tmp[20];
    size_t i = sizeof tmp;
    while (v >= 100) {
        size_t d = (size_t)(v % 100) * 2;
        v /= 100;
        tmp[--i] = digit_pairs[d + 1];
        tmp[--i] = digit_pairs[d];
    }
    if (v >= 10) {
        tmp[--i] = digit_pairs[v * 2 + 1];
        tmp[--i] = digit_pairs[v * 2];
    } else {
        tmp[--i] = (char)('0' + v);
    }
    put(b, tmp + i, sizeof tmp - i);
}

static inline void put_i64(ntsim_growbuf_t *b, int64_t v)
{
    if (v < 0) {
        b->data[b->len++] = '-';
        put_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(b, (uint64_t)v);
    }
}

static inline void put_hex(ntsim_growbuf_t *b, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    size_t n = 0;
    do {
        tmp[sizeof tmp - 1 - n++] = digits[v & 15];
        v >>= 4;
    } while (v != 0);
    PUT_LIT(b, "\"0x");
    put(b, tmp + sizeof tmp - n, n);
    b->data[b->len++] = '"';
}

size_t ntsim_json_escape(const char *s, size_t len, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
#define EMIT(c)                                                                 \
    do {                                                                        \
        if (n + 1 < cap)                                                        \
            out[n] = (c);                                                       \
        n++;                                                                    \
    } while (0)
    EMIT('"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\t': esc = "\\t"; break;
        case '\n': esc = "\\n"; break;
        case '\f': esc = "\\f"; break;
        case '\r': esc = "\\r"; break;
        default: break;
        }
        if (esc != NULL) {
            EMIT(esc[0]);
            EMIT(esc[1]);
        } else if (c < 0x20) {
            EMIT('\\');
            EMIT('u');
            EMIT('0');
            EMIT('0');
            EMIT(hex[c >> 4]);
            EMIT(hex[c & 15]);
        } else {
            EMIT((char)c);
        }
    }
    EMIT('"');
#undef EMIT
    if (cap > 0)
        out[n < cap ? n : cap - 1] = '\0';
    return n;
}

/* --- names, escaped once ---------------------------------------------------------- */

typedef struct jname {
    char text[96]; /* "{\"event_type\":\"<name>\",\"phase\":" */
    size_t len;
} jname_t;

static jname_t g_type_open[NRT_SYS_TRACE_EVENT_TYPE_COUNT + 1]; /* last: unknown type */
/* The serde view's CamelCase display name of each type, as the phase-mismatch
 * warning spells it (facts §2). The five names spec §1 quotes from the serde
 * string pool, byte for byte, on the types D-SERDE-NAMES places them;
 * every other type's interned name in UpperCamel ("numerical_err" ->
 * "NumericalErr"), which reproduces the two the pool and the interned names
 * share (Generic, NrtLoad). */
static const struct {
    nrt_sys_trace_event_type_t type;
    const char *name;
} g_serde_pool[] = {
    {NRT_SYS_TRACE_EVENT_TYPE_GENERIC, "Generic"},
    {NRT_SYS_TRACE_EVENT_TYPE_MODEL_LOAD, "NrtLoad"},
    {NRT_SYS_TRACE_EVENT_TYPE_EXEC_CORE, "KmgrExec"},
    {NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC, "Collectives"},
    {NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC_BARRIER, "Barrier"},
};
static char g_camel[NRT_SYS_TRACE_EVENT_TYPE_COUNT][64];
static char g_usage_json[DMA_MEM_USAGE_TYPE_MAX + 1][40];
static size_t g_usage_len[DMA_MEM_USAGE_TYPE_MAX + 1];
static pthread_once_t g_names_once = PTHREAD_ONCE_INIT;

static void camel_of(const char *snake, char *out, size_t cap)
{
    size_t n = 0;
    bool upper = true;
    for (const char *c = snake; *c && n + 1 < cap; c++) {
        if (*c == '_') {
            upper = true;
            continue;
        }
        out[n++] = upper && *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
        upper = false;
    }
    out[n] = '\0';
}

static void names_build(void)
{
    for (size_t t = 0; t <= NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        const char *name = t < NRT_SYS_TRACE_EVENT_TYPE_COUNT ? ntsim__event_types[t].json_name
                                                               : "unknown";
        char quoted[64];
        size_t q = ntsim_json_escape(name, strlen(name), quoted, sizeof quoted);
        jname_t *j = &g_type_open[t];
        j->len = (size_t)snprintf(j->text, sizeof j->text, "{\"event_type\":%.*s,\"phase\":",
                                  (int)q, quoted);
        if (t < NRT_SYS_TRACE_EVENT_TYPE_COUNT)
            camel_of(name, g_camel[t], sizeof g_camel[t]);
    }
    for (size_t i = 0; i < sizeof g_serde_pool / sizeof g_serde_pool[0]; i++)
        snprintf(g_camel[g_serde_pool[i].type], sizeof g_camel[0], "%s", g_serde_pool[i].name);
    for (size_t u = 0; u <= DMA_MEM_USAGE_TYPE_MAX; u++) {
        const char *name = ntsim__usage_type_names[u];
        g_usage_len[u] = ntsim_json_escape(name, strlen(name), g_usage_json[u],
                                           sizeof g_usage_json[u]);
    }
}

static const char *const phase_json[] = {"\"start\"", "\"stop\"", "\"instant\"", "\"unknown\""};
static const size_t phase_json_len[] = {7, 6, 9, 9};

/* --- the session: what a capture session's start resets ------------------------------ */

/* The mismatch counters and the session's sync points are per session: a
 * start() forgets them, ntsim_capture_shutdown() frees the table. Capture
 * cannot call the exporter (it lies below it), so the exporter registers
 * these with engine/session.h the first time it keeps either. */
static void session_start(void);
static void session_shutdown(void);
static const ntsim__session_hooks_t g_session_hooks = {session_start, session_shutdown};
static pthread_once_t g_session_once = PTHREAD_ONCE_INIT;

static void session_register(void)
{
    (void)ntsim__session_register(&g_session_hooks); /* one of 8: it fits */
}

/* Called before the exporter first counts or learns anything, and with
 * none of its locks held (registering takes the registry's). */
static void session_join(void)
{
    pthread_once(&g_session_once, session_register);
}

/* --- phase mismatches: counted always, warned once per type ------------------------- */

/* Relaxed: independent counters and flags; a fetch and a reset racing may
 * warn once more, never miscount an event. */
static _Atomic uint64_t g_mismatch_total;
static _Atomic uint64_t g_mismatch_by_type[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
static atomic_bool g_mismatch_warned[NRT_SYS_TRACE_EVENT_TYPE_COUNT];

NRT_STATUS ntsim_json_stats(ntsim_json_stats_t *stats)
{
    if (stats == NULL)
        return NRT_INVALID;
    stats->phase_mismatch = atomic_load_explicit(&g_mismatch_total, memory_order_relaxed);
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        stats->phase_mismatch_by_type[t] =
            atomic_load_explicit(&g_mismatch_by_type[t], memory_order_relaxed);
    return NRT_SUCCESS;
}

void ntsim_json_reset_stats(void)
{
    atomic_store_explicit(&g_mismatch_total, 0, memory_order_relaxed);
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        atomic_store_explicit(&g_mismatch_by_type[t], 0, memory_order_relaxed);
        atomic_store_explicit(&g_mismatch_warned[t], false, memory_order_relaxed);
    }
}

/* facts §2: a record whose phase the exporter has no arm for is written with
 * "data":{} and a warning that names the type in CamelCase. (NTFF writes no
 * attributes for the same records; it does not count them again.) Called
 * from write_event only: write_events has built the names. */
static void note_mismatch(uint32_t type, uint32_t phase)
{
    session_join();
    if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT)
        return; /* no type, no arm to miss: "unknown" (D-JSON-DATA) */
    atomic_fetch_add_explicit(&g_mismatch_total, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&g_mismatch_by_type[type], 1, memory_order_relaxed);
    if (atomic_exchange_explicit(&g_mismatch_warned[type], true, memory_order_relaxed))
        return;
    static const char *const names[] = {"start", "stop", "instant"};
    char ph[16];
    if (phase < 3)
        snprintf(ph, sizeof ph, "%s", names[phase]);
    else
        snprintf(ph, sizeof ph, "%u", phase);
    ntsim__log(NTSIM_LOG_WARN, "phase mismatch: %s has no data for phase %s: writing {} "
                               "(warned once per type; counted in ntsim_json_stats)",
               g_camel[type], ph);
}

/* --- one event ----------------------------------------------------------------------- */

typedef struct jctx {
    const int32_t *gid;          /* worker_gid per nc_idx */
    const ntsim__sync_table_t *sync; /* sync points for device times (D-JSON-TIME) */
} jctx_t;

/* "{"event_type":...,"phase":...,"id":...,...,"worker_gid":N," */
static void write_head(ntsim_growbuf_t *b, const jctx_t *ctx, const nrt_sys_trace_event_t *e)
{
    uint32_t type = (uint32_t)e->trace_type;
    uint32_t phase = (uint32_t)e->phase;
    const jname_t *open = &g_type_open[type < NRT_SYS_TRACE_EVENT_TYPE_COUNT
                                           ? type : NRT_SYS_TRACE_EVENT_TYPE_COUNT];
    put(b, open->text, open->len);
    uint32_t p = phase < 3 ? phase : 3;
    put(b, phase_json[p], phase_json_len[p]);
    PUT_LIT(b, ",\"id\":");
    put_u64(b, e->id);
    PUT_LIT(b, ",\"nc_idx\":");
    put_u64(b, e->nc_idx);
    PUT_LIT(b, ",\"nc_local_id\":");
    put_u64(b, e->nc_local_id);
    PUT_LIT(b, ",\"tracking_id\":");
    put_u64(b, e->tracking_id);
    PUT_LIT(b, ",\"thread_id\":");
    put_u64(b, e->thread_id);
    PUT_LIT(b, ",\"worker_gid\":");
    put_i64(b, e->nc_idx < NTSIM_NC_COUNT ? ctx->gid[e->nc_idx] : -1);
}

/* One data value in its JSON form (D-JSON-DATA formats). */
static void write_value(ntsim_growbuf_t *b, const ntsim_data_key_t *k, uint64_t val)
{
    switch (k->fmt) {
    case NTSIM_FMT_BOOL:
        if (val)
            PUT_LIT(b, "true");
        else
            PUT_LIT(b, "false");
        break;
    case NTSIM_FMT_USAGE:
        if (val <= DMA_MEM_USAGE_TYPE_MAX) {
            put(b, g_usage_json[val], g_usage_len[val]);
        } else {
            b->data[b->len++] = '"';
            put_u64(b, val);
            b->data[b->len++] = '"';
        }
        break;
    case NTSIM_FMT_HEX:
        put_hex(b, val);
        break;
    case NTSIM_FMT_ALGO:
        b->data[b->len++] = '"';
        put_u64(b, val);
        b->data[b->len++] = '"';
        break;
    case NTSIM_FMT_NUMBER:
        if (k->is_signed)
            put_i64(b, (int64_t)val);
        else
            put_u64(b, val);
        break;
    }
}

/* Appends one event object; the caller reserved NTSIM_JSON_EVENT_MAX. */
static void write_event(ntsim_growbuf_t *b, jctx_t *ctx, const nrt_sys_trace_event_t *e)
{
    uint32_t type = (uint32_t)e->trace_type;
    uint32_t phase = (uint32_t)e->phase;
    write_head(b, ctx, e);
    PUT_LIT(b, ",\"data\":{");
    const ntsim_data_view_t *v = ntsim__data_view(type, phase);
    if (!v->has_arm)
        note_mismatch(type, phase);
    bool first = true;
    for (size_t i = 0; i < v->count; i++) {
        const ntsim_data_key_t *k = &v->keys[i];
        uint64_t val = ntsim__data_value(k, &e->data);
        if (k->fmt == NTSIM_FMT_ALGO && val == 0)
            continue;
        if (!first)
            b->data[b->len++] = ',';
        first = false;
        put(b, k->json_key, k->json_key_len);
        write_value(b, k, val);
    }
    PUT_LIT(b, "},\"timestamp_ns\":");
    put_u64(b, ntsim__sync_event_time(ctx->sync, e, v));
    if (ntsim__record_has_seq(e)) {
        PUT_LIT(b, ",\"nrta_seq_id\":");
        put_u64(b, e->nrta_seq_id);
    }
    b->data[b->len++] = '}';
}

/* The one place the names are built: every document and batch comes here. */
static void write_events(ntsim_growbuf_t *b, jctx_t *ctx, const nrt_sys_trace_event_t *e, size_t n,
                         bool *first)
{
    pthread_once(&g_names_once, names_build);
    for (size_t i = 0; i < n; i++) {
        if (!*first)
            b->data[b->len++] = ',';
        *first = false;
        write_event(b, ctx, &e[i]);
    }
}

static NRT_STATUS finish(ntsim_growbuf_t *b, char **out, size_t *len)
{
    put(b, DOC_CLOSE, sizeof DOC_CLOSE - 1);
    b->data[b->len] = '\0';
    *out = (char *)b->data;
    *len = b->len;
    return NRT_SUCCESS;
}

/* --- the session's sync points ------------------------------------------------- */

/* The sync points and device STARTs of the session's earlier collections
 * (fetches and batches), so that a device event collected after its sync
 * point is still aligned (time_sync.h). Allocated on first use, forgotten
 * at start(), freed by ntsim_capture_shutdown(). */
static pthread_mutex_t g_sync_lock = PTHREAD_MUTEX_INITIALIZER;
static ntsim__sync_table_t *g_session_sync;

static void session_start(void)
{
    ntsim_json_reset_stats();
    pthread_mutex_lock(&g_sync_lock);
    if (g_session_sync != NULL)
        ntsim__sync_table_clear(g_session_sync);
    pthread_mutex_unlock(&g_sync_lock);
}

static void session_shutdown(void)
{
    pthread_mutex_lock(&g_sync_lock);
    ntsim__sync_table_free(g_session_sync);
    g_session_sync = NULL;
    pthread_mutex_unlock(&g_sync_lock);
}

/* The session's table, locked; NULL (unlocked) when it cannot be made.
 * *made: whether this call made it, so that a call that fails after it
 * gives it back (session_sync_unlock). */
static ntsim__sync_table_t *session_sync_lock(bool *made)
{
    session_join();
    pthread_mutex_lock(&g_sync_lock);
    *made = false;
    if (g_session_sync == NULL) {
        if ((g_session_sync = ntsim__sync_table_new()) == NULL) {
            pthread_mutex_unlock(&g_sync_lock);
            return NULL;
        }
        *made = true;
    }
    return g_session_sync;
}

/* Unlocks the session's table. A call that failed before learning anything
 * frees the table when it made it: an out-of-memory path keeps no block it
 * took, the table included (D-ALLOCATOR), and the next call makes it again
 * as it would have. */
static void session_sync_unlock(bool failed, bool made)
{
    if (failed && made) {
        ntsim__sync_table_free(g_session_sync);
        g_session_sync = NULL;
    }
    pthread_mutex_unlock(&g_sync_lock);
}

/* Serializes events into a new buffer, wrapped in the document or not. A
 * document is a collection of its own (its own sync points only); a batch
 * belongs to the session (D-JSON-TIME). */
static NRT_STATUS serialize(const nrt_sys_trace_event_t *events, size_t count, bool document,
                            char **out, size_t *len)
{
    if (out == NULL || len == NULL || (events == NULL && count > 0))
        return NRT_INVALID;
    jctx_t *ctx = ntsim__calloc(1, sizeof *ctx + NTSIM_NC_COUNT * sizeof(int32_t));
    if (ctx == NULL)
        return NRT_RESOURCE;
    int32_t *gid = (int32_t *)(ctx + 1);
    gid_snapshot(gid);
    ctx->gid = gid;
    ntsim_growbuf_t b = {NULL, 0, 0};
    bool made = false;
    ntsim__sync_table_t *sync = document ? ntsim__sync_table_new() : session_sync_lock(&made);
    if (sync == NULL || count > (SIZE_MAX - 64) / NTSIM_JSON_EVENT_MAX ||
        ntsim__growbuf_reserve(&b, sizeof DOC_OPEN + sizeof DOC_CLOSE +
                                      count * NTSIM_JSON_EVENT_MAX) != NRT_SUCCESS) {
        if (document)
            ntsim__sync_table_free(sync);
        else if (sync != NULL)
            session_sync_unlock(true, made);
        ntsim__free(ctx);
        return NRT_RESOURCE;
    }
    ntsim__sync_table_learn(sync, events, count);
    ctx->sync = sync;
    if (document)
        put(&b, DOC_OPEN, sizeof DOC_OPEN - 1);
    bool first = true;
    write_events(&b, ctx, events, count, &first);
    if (document)
        ntsim__sync_table_free(sync);
    else
        session_sync_unlock(false, made);
    ntsim__free(ctx);
    if (document)
        return finish(&b, out, len);
    b.data[b.len] = '\0'; /* reserved above: the close is longer than a NUL */
    *out = (char *)b.data;
    *len = b.len;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_json_serialize(const nrt_sys_trace_event_t *events, size_t count, char **out,
                                size_t *len)
{
    return serialize(events, count, true, out, len);
}

NRT_STATUS ntsim_json_serialize_events(const nrt_sys_trace_event_t *events, size_t count,
                                       char **out, size_t *len)
{
    return serialize(events, count, false, out, len);
}

/* --- fetch ------------------------------------------------------------------------------ */

NRT_STATUS nrt_sys_trace_fetch_events(char **buffer, size_t *written_size,
                                      const nrt_sys_trace_fetch_options_t *options)
{
    if (buffer == NULL || written_size == NULL)
        return NRT_INVALID;
    if (*buffer != NULL) {
        ntsim__log(NTSIM_LOG_WARN, "nrt_sys_trace_fetch_events: *buffer must be NULL on "
                                   "entry (free the previous one with "
                                   "nrt_sys_trace_buffer_free)");
        return NRT_INVALID;
    }
    uint64_t max_per_nc = options ? options->max_events_per_nc : 0;
    int32_t only = options ? options->nc_idx : -1;
    if (only < -1 || only >= NTSIM_NC_COUNT) {
        ntsim__log(NTSIM_LOG_ERROR, "nrt_sys_trace_fetch_events: nc_idx %d is not -1 or "
                                    "0..255", (int)only);
        return NRT_INVALID;
    }
    uint32_t lo = only < 0 ? 0 : (uint32_t)only;
    uint32_t hi = only < 0 ? NTSIM_NC_COUNT : (uint32_t)only + 1;

    /* How many events to take from each NC, decided before taking any. */
    uint64_t take[NTSIM_NC_COUNT] = {0};
    uint64_t total = 0, most = 0;
    for (uint32_t nc = lo; nc < hi; nc++) {
        ntsim_nc_stats_t st;
        (void)ntsim_capture_nc_stats(nc, &st); /* nc < 256, &st non-NULL: cannot fail */
        take[nc] = (max_per_nc != 0 && st.in_ring > max_per_nc) ? max_per_nc : st.in_ring;
        total += take[nc];
        most = take[nc] > most ? take[nc] : most;
    }
    /* Each NC's events are popped whole, then written (facts §2: pop up to
     * max_events_per_nc, then serialize): a device event's sync point may
     * come after it (D-JSON-TIME). The scratch holds the largest NC's. */
    ntsim_growbuf_t b = {NULL, 0, 0};
    jctx_t *ctx = ntsim__calloc(1, sizeof *ctx + NTSIM_NC_COUNT * sizeof(int32_t));
    nrt_sys_trace_event_t *scratch =
        most > 0 && most <= SIZE_MAX / sizeof *scratch ? ntsim__malloc((size_t)most * sizeof *scratch)
                                                       : NULL;
    bool made = false;
    ntsim__sync_table_t *sync = session_sync_lock(&made);
    if (ctx == NULL || (most > 0 && scratch == NULL) || sync == NULL ||
        total > (SIZE_MAX - 64) / NTSIM_JSON_EVENT_MAX ||
        ntsim__growbuf_reserve(&b, sizeof DOC_OPEN + sizeof DOC_CLOSE +
                                      (size_t)total * NTSIM_JSON_EVENT_MAX) != NRT_SUCCESS) {
        /* b holds nothing: its reserve is the last test and failed, or
         * was not reached (a failed reserve leaves the buffer unchanged). */
        if (sync != NULL)
            session_sync_unlock(true, made);
        ntsim__free(ctx);
        ntsim__free(scratch);
        ntsim__log(NTSIM_LOG_ERROR, "nrt_sys_trace_fetch_events: cannot reserve memory for "
                                    "%llu events: nothing fetched", (unsigned long long)total);
        return NRT_RESOURCE;
    }
    int32_t *gid = (int32_t *)(ctx + 1);
    gid_snapshot(gid);
    ctx->gid = gid;
    ctx->sync = sync;
    put(&b, DOC_OPEN, sizeof DOC_OPEN - 1);
    bool first = true;
    for (uint32_t nc = lo; nc < hi; nc++) {
        size_t n = 0;
        if (take[nc] == 0)
            continue;
        /* nc < 256, scratch holds take[nc] records: cannot fail. Fewer
         * come back when some were evicted or are not yet committed: the
         * rest waits for the next fetch. */
        (void)nrt_sys_trace_drain_events(nc, scratch, (size_t)take[nc], &n);
        ntsim__sync_table_learn(sync, scratch, n);
        write_events(&b, ctx, scratch, n, &first);
    }
    session_sync_unlock(false, made);
    ntsim__free(scratch);
    ntsim__free(ctx);
    return finish(&b, buffer, written_size);
}

void nrt_sys_trace_buffer_free(char *buffer)
{
    ntsim__free(buffer);
}
