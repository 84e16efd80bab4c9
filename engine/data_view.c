/*
 * engine/data_view.c: compiles the one table's json_keys column.
 *
 * Grammar of one key list (event_table.h):
 *   list  := "" | item ("," item)*
 *   item  := key ["=" path] ["%" fmt]
 *   path  := field | "sync_info." ("nc_timestamp_ns" | "cpu_timestamp_ns") | "@" field
 *   fmt   := "usage" | "hex" | "algo"
 * A key without a path names the payload field of the same name; "@" field
 * is the model registered for the execution id in that field. NULL (not a
 * list) is a phase without an arm.
 */
#include "data_view.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "ntsim/convert.h"

static ntsim_data_view_t g_views[NRT_SYS_TRACE_EVENT_TYPE_COUNT][NRT_SYS_TRACE_EVENT_PHASE_COUNT];
static const ntsim_data_view_t g_empty_view;
static pthread_once_t g_views_once = PTHREAD_ONCE_INIT;

const char *ntsim__usage_type_name(uint64_t value)
{
    return value <= DMA_MEM_USAGE_TYPE_MAX ? ntsim__usage_type_names[value] : NULL;
}

static const ntsim_field_desc_t *find_field(const ntsim_field_desc_t *fields, size_t n,
                                            const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(fields[i].name) == len && memcmp(fields[i].name, name, len) == 0)
            return &fields[i];
    return NULL;
}

/* ~80 lines on purpose: one flat pass over the key list, one case per key
 * form of D-JSON-DATA, each refusing with the key it could not place. */
const char *ntsim__data_view_compile(const char *keys, ntsim_payload_id_t pid,
                                    ntsim_data_view_t *view)
{
    memset(view, 0, sizeof *view);
    if (keys == NULL)
        return NULL;
    view->has_arm = true;
    if (*keys == '\0')
        return NULL;
    if (pid == NTSIM_PAYLOAD_NONE)
        return "keys given for a phase that carries no payload";
    const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
    /* The payload's exec_id, written as a key or not (cc_exec_barrier_start
     * has one the exporter does not write): the execution whose sync point
     * aligns a device event (D-JSON-TIME). */
    const ntsim_field_desc_t *exec = find_field(d->fields, d->field_count, "exec_id", 7);
    if (exec != NULL) {
        view->has_exec_id = true;
        view->exec_id_offset = exec->offset;
        view->exec_id_size = exec->size;
    }
    const char *p = keys;
    while (*p) {
        if (view->count == NTSIM_DATA_KEYS_MAX)
            return "too many keys";
        ntsim_data_key_t *k = &view->keys[view->count];
        const char *end = p + strcspn(p, ",");
        const char *eq = memchr(p, '=', (size_t)(end - p));
        const char *pct = memchr(p, '%', (size_t)(end - p));
        const char *key_end = eq ? eq : (pct ? pct : end);
        const char *path = eq ? eq + 1 : p;
        const char *path_end = pct ? pct : end;
        k->key = p;
        k->key_len = (size_t)(key_end - p);
        /* The key must fit key_z whole (the NTFF attribute key), and so
         * json_key ("\"key\":" is 3 bytes longer, sizeof 64 > 48 + 3). */
        if (k->key_len == 0 || k->key_len >= sizeof k->key_z)
            return "empty or overlong key";
        /* Resolve the path to an offset, size and kind. */
        const ntsim_field_desc_t *f;
        size_t base = 0;
        if (eq != NULL && *path == '@') {
            k->exec_model = true;
            path++;
        }
        const char *dot = memchr(path, '.', (size_t)(path_end - path));
        if (dot != NULL) {
            f = find_field(d->fields, d->field_count, path, (size_t)(dot - path));
            if (f == NULL || f->kind != NTSIM_FIELD_SYNC_INFO)
                return "a dotted path must start at a sync_info field";
            base = f->offset;
            f = find_field(ntsim__sync_info_fields, 2, dot + 1, (size_t)(path_end - dot - 1));
        } else {
            f = find_field(d->fields, d->field_count, path, (size_t)(path_end - path));
        }
        if (f == NULL)
            return "names no field of the payload";
        if (f->kind == NTSIM_FIELD_SYNC_INFO)
            return "a sync_info field needs a path to one of its members";
        k->offset = base + f->offset;
        k->size = f->size;
        k->is_signed = f->kind == NTSIM_FIELD_INT;
        k->fmt = f->kind == NTSIM_FIELD_BOOL ? NTSIM_FMT_BOOL : NTSIM_FMT_NUMBER;
        if (pct != NULL) {
            size_t n = (size_t)(end - pct - 1);
            if (n == 5 && memcmp(pct + 1, "usage", 5) == 0)
                k->fmt = NTSIM_FMT_USAGE;
            else if (n == 3 && memcmp(pct + 1, "hex", 3) == 0)
                k->fmt = NTSIM_FMT_HEX;
            else if (n == 4 && memcmp(pct + 1, "algo", 4) == 0)
                k->fmt = NTSIM_FMT_ALGO;
            else
                return "unknown %format";
        }
        snprintf(k->key_z, sizeof k->key_z, "%.*s", (int)k->key_len, k->key);
        k->json_key_len = (size_t)snprintf(k->json_key, sizeof k->json_key, "\"%.*s\":",
                                           (int)k->key_len, k->key);
        if (k->key_len == strlen("nc_timestamp_ns") &&
            memcmp(k->key, "nc_timestamp_ns", k->key_len) == 0) {
            /* Its host partner: the same sync_info's cpu_timestamp_ns, or the
             * payload's flat cpu_timestamp_ns (TIMESTAMP_SYNC). */
            const ntsim_field_desc_t *cpu =
                dot != NULL ? find_field(ntsim__sync_info_fields, 2, "cpu_timestamp_ns", 16)
                            : find_field(d->fields, d->field_count, "cpu_timestamp_ns", 16);
            if (cpu == NULL)
                return "nc_timestamp_ns has no cpu_timestamp_ns beside it";
            view->nc_timestamp = true;
            view->nc_timestamp_offset = k->offset;
            view->cpu_timestamp_offset = base + cpu->offset;
        }

        view->count++;
        p = *end ? end + 1 : end;
    }
    return NULL;
}

static void views_build(void)
{
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        for (uint32_t ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++) {
            const char *err = ntsim__data_view_compile(ntsim__event_types[t].json_keys[ph],
                                                      ntsim__event_payload(t, ph), &g_views[t][ph]);
            if (err != NULL)
                ntsim__log(NTSIM_LOG_ERROR, "event table: %s phase %u json keys: %s",
                           ntsim__event_types[t].enum_name, ph, err);
        }
}

const ntsim_data_view_t *ntsim__data_view(uint32_t type, uint32_t phase)
{
    if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT || phase >= NRT_SYS_TRACE_EVENT_PHASE_COUNT)
        return &g_empty_view;
    pthread_once(&g_views_once, views_build);
    return &g_views[type][phase];
}

/* Decimal digits of v at the end of out; returns the start. Twice as fast
 * as snprintf on the NTFF path, which formats every attribute. */
static char *u64_digits(uint64_t v, char *end)
{
    *end = '\0';
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    return end;
}

static void copy_out(char *out, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

bool ntsim__data_format(const ntsim_data_key_t *k, uint64_t value, char *out, size_t cap)
{
    char tmp[24];
    switch (k->fmt) {
    case NTSIM_FMT_BOOL:
        copy_out(out, cap, value ? "true" : "false");
        return true;
    case NTSIM_FMT_USAGE: {
        const char *name = ntsim__usage_type_name(value);
        copy_out(out, cap, name != NULL ? name : u64_digits(value, tmp + sizeof tmp - 1));
        return true;
    }
    case NTSIM_FMT_HEX:
        snprintf(out, cap, "0x%llx", (unsigned long long)value);
        return true;
    case NTSIM_FMT_ALGO:
        if (value == 0)
            return false;
        copy_out(out, cap, u64_digits(value, tmp + sizeof tmp - 1));
        return true;
    case NTSIM_FMT_NUMBER:
    default:
        if (k->is_signed && (int64_t)value < 0) {
            char *d = u64_digits((uint64_t)0 - value, tmp + sizeof tmp - 1);
            *--d = '-';
            copy_out(out, cap, d);
        } else {
            copy_out(out, cap, u64_digits(value, tmp + sizeof tmp - 1));
        }
        return true;
    }
}

uint64_t ntsim__data_field(const nrt_sys_trace_event_data_t *data, size_t offset, size_t size,
                           bool is_signed)
{
    const unsigned char *b = (const unsigned char *)data + offset;
    switch (size) {
    case 1: {
        uint8_t v;
        memcpy(&v, b, 1);
        return v;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, b, 2);
        return v;
    }
    case 4:
        if (is_signed) {
            int32_t v;
            memcpy(&v, b, 4);
            return (uint64_t)(int64_t)v;
        } else {
            uint32_t v;
            memcpy(&v, b, 4);
            return v;
        }
    default: {
        uint64_t v;
        memcpy(&v, b, 8);
        return v;
    }
    }
}

/* --- the runtime's execution -> model lookup (D-JSON-MODEL-ID) --------------------- */

static pthread_mutex_t g_model_lock = PTHREAD_MUTEX_INITIALIZER;
static ntsim_model_lookup_fn g_model_fn;
static void *g_model_ctx;

NRT_STATUS ntsim_json_set_model_lookup(ntsim_model_lookup_fn fn, void *ctx)
{
    pthread_mutex_lock(&g_model_lock);
    g_model_fn = fn;
    g_model_ctx = ctx;
    pthread_mutex_unlock(&g_model_lock);
    return NRT_SUCCESS;
}

static uint64_t model_of(uint64_t exec_id)
{
    pthread_mutex_lock(&g_model_lock);
    uint64_t model = g_model_fn != NULL ? g_model_fn(exec_id, g_model_ctx) : 0;
    pthread_mutex_unlock(&g_model_lock);
    return model;
}

uint64_t ntsim__data_value(const ntsim_data_key_t *k, const nrt_sys_trace_event_data_t *data)
{
    uint64_t v = ntsim__data_field(data, k->offset, k->size, k->is_signed);
    return k->exec_model ? model_of(v) : v;
}
