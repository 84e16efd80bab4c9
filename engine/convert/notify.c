/*
 * engine/convert/notify.c: the notification_type converter and the EXPLICIT
 * collectives-status path (spec §5).
 *
 * The converter is a table from notification_type 0..8 to
 * (notification_trace_type, block_type), dispatched like libnrt's jump
 * table @0x8570c0: one unsigned compare against 8, so 9, 10 and every
 * negative value (huge as unsigned) take the default arm, which logs,
 * counts and drops. EXPLICIT is not in the table's codomain: the
 * collectives-status path below writes it directly.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "growbuf.h"
#include "log.h"
#include "nrt/nrt_profile_notification.h"
#include "ntsim/convert.h"

static const struct {
    enum notification_trace_type trace_type;
    enum block_type block_type;
} convert_table[9] = {
    [NOTIFICATION_TYPE_TRACE] = {NOTIFICATION_TRACE_TYPE_INSTRUCTION, BLOCK_TYPE_NC},
    [NOTIFICATION_TYPE_EVENT] = {NOTIFICATION_TRACE_TYPE_EVENT, BLOCK_TYPE_NC},
    [NOTIFICATION_TYPE_ERROR] = {NOTIFICATION_TRACE_TYPE_ERROR, BLOCK_TYPE_NC},
    [NOTIFICATION_TYPE_INFER_STATUS] = {NOTIFICATION_TRACE_TYPE_INSTRUCTION, BLOCK_TYPE_NC},
    [NOTIFICATION_TYPE_DMA] = {NOTIFICATION_TRACE_TYPE_DMA, BLOCK_TYPE_DMA},
    [NOTIFICATION_TYPE_THROTTLE] = {NOTIFICATION_TRACE_TYPE_THROTTLE, BLOCK_TYPE_NC},
    [NOTIFICATION_TYPE_TOPSP_TRACE] = {NOTIFICATION_TRACE_TYPE_INSTRUCTION, BLOCK_TYPE_TOPSP},
    [NOTIFICATION_TYPE_TOPSP_EVENT] = {NOTIFICATION_TRACE_TYPE_EVENT, BLOCK_TYPE_TOPSP},
    [NOTIFICATION_TYPE_TOPSP_ERROR] = {NOTIFICATION_TRACE_TYPE_ERROR, BLOCK_TYPE_TOPSP},
};

/* Statistics: relaxed atomics, read as a snapshot. */
static _Atomic uint64_t g_converted, g_converted_by_type[9];
static _Atomic uint64_t g_dropped, g_dropped_cc_status, g_dropped_max, g_dropped_out_of_range;
static _Atomic uint64_t g_explicit;

NRT_STATUS nrt_profile_convert_trace_type_from_ntff_params(enum notification_type type,
                                                           enum notification_trace_type *trace_type,
                                                           enum block_type *block_type)
{
    if (trace_type == NULL || block_type == NULL)
        return NRT_INVALID;
    uint32_t t = (uint32_t)type; /* cmp $0x8 / ja default: unsigned */
    if (t > NOTIFICATION_TYPE_TOPSP_ERROR) {
        ntsim__log(NTSIM_LOG_ERROR, "Invalid notification type: %d", (int)type);
        atomic_fetch_add_explicit(&g_dropped, 1, memory_order_relaxed);
        if (t == NOTIFICATION_TYPE_TOPSP_CC_STATUS)
            atomic_fetch_add_explicit(&g_dropped_cc_status, 1, memory_order_relaxed);
        else if (t == NOTIFICATION_TYPE_MAX)
            atomic_fetch_add_explicit(&g_dropped_max, 1, memory_order_relaxed);
        else
            atomic_fetch_add_explicit(&g_dropped_out_of_range, 1, memory_order_relaxed);
        return NRT_INVALID;
    }
    *trace_type = convert_table[t].trace_type;
    *block_type = convert_table[t].block_type;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_notify_wrap(int32_t notification_type, uint32_t nc_idx, const uint8_t *payload,
                             size_t payload_len, ntsim_trace_info_t *out)
{
    if (out == NULL || (payload == NULL && payload_len > 0))
        return NRT_INVALID;
    enum notification_trace_type tt;
    enum block_type bt;
    NRT_STATUS st = nrt_profile_convert_trace_type_from_ntff_params(
        (enum notification_type)notification_type, &tt, &bt);
    if (st != NRT_SUCCESS)
        return st;
    out->trace_type = (int32_t)tt;
    out->block_type = (int32_t)bt;
    out->nc_idx = nc_idx;
    out->payload = payload;
    out->payload_len = payload_len;
    atomic_fetch_add_explicit(&g_converted, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&g_converted_by_type[(uint32_t)notification_type], 1,
                              memory_order_relaxed);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_notify_stats(ntsim_notify_stats_t *s)
{
    if (s == NULL)
        return NRT_INVALID;
    s->converted = atomic_load_explicit(&g_converted, memory_order_relaxed);
    for (size_t i = 0; i < 9; i++)
        s->converted_by_type[i] = atomic_load_explicit(&g_converted_by_type[i],
                                                       memory_order_relaxed);
    s->dropped = atomic_load_explicit(&g_dropped, memory_order_relaxed);
    s->dropped_cc_status = atomic_load_explicit(&g_dropped_cc_status, memory_order_relaxed);
    s->dropped_max = atomic_load_explicit(&g_dropped_max, memory_order_relaxed);
    s->dropped_out_of_range = atomic_load_explicit(&g_dropped_out_of_range,
                                                   memory_order_relaxed);
    s->explicit_infos = atomic_load_explicit(&g_explicit, memory_order_relaxed);
    return NRT_SUCCESS;
}

void ntsim_notify_reset_stats(void)
{
    atomic_store_explicit(&g_converted, 0, memory_order_relaxed);
    for (size_t i = 0; i < 9; i++)
        atomic_store_explicit(&g_converted_by_type[i], 0, memory_order_relaxed);
    atomic_store_explicit(&g_dropped, 0, memory_order_relaxed);
    atomic_store_explicit(&g_dropped_cc_status, 0, memory_order_relaxed);
    atomic_store_explicit(&g_dropped_max, 0, memory_order_relaxed);
    atomic_store_explicit(&g_dropped_out_of_range, 0, memory_order_relaxed);
    atomic_store_explicit(&g_explicit, 0, memory_order_relaxed);
}

/* --- the EXPLICIT collectives-status path -------------------------------------- */

struct ntsim_explicit_notifs {
    uint32_t num_topsp; /* facts §3: expl_notifs {u32 num_topsp; buf *} */
    ntsim_growbuf_t *bufs;
};

NRT_STATUS ntsim_explicit_create(uint32_t num_topsp, ntsim_explicit_notifs_t **out)
{
    if (out == NULL || num_topsp == 0 || num_topsp > 256)
        return NRT_INVALID;
    ntsim_explicit_notifs_t *x = ntsim__calloc(1, sizeof *x);
    if (x == NULL || (x->bufs = ntsim__calloc(num_topsp, sizeof *x->bufs)) == NULL) {
        ntsim__free(x);
        return NRT_RESOURCE;
    }
    x->num_topsp = num_topsp;
    *out = x;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_explicit_append(ntsim_explicit_notifs_t *x, uint32_t topsp, const uint8_t *bytes,
                                 size_t len)
{
    if (x == NULL || topsp >= x->num_topsp || (bytes == NULL && len > 0))
        return NRT_INVALID;
    ntsim_growbuf_t *b = &x->bufs[topsp];
    if (ntsim__growbuf_reserve(b, len) != NRT_SUCCESS)
        return NRT_RESOURCE;
    if (len > 0)
        memcpy(b->data + b->len, bytes, len);
    b->len += len;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_explicit_collect(const ntsim_explicit_notifs_t *x, ntsim_trace_info_t *out,
                                  size_t capacity, size_t *count)
{
    if (x == NULL || out == NULL || count == NULL || capacity < x->num_topsp)
        return NRT_INVALID;
    for (uint32_t i = 0; i < x->num_topsp; i++) {
        /* Written directly: never through the converter (spec §5 GOTCHA). */
        out[i].trace_type = NOTIFICATION_TRACE_TYPE_EXPLICIT;
        out[i].block_type = BLOCK_TYPE_TOPSP; /* D-EXPLICIT-BLOCK */
        out[i].nc_idx = i;
        out[i].payload = x->bufs[i].data;
        out[i].payload_len = x->bufs[i].len;
    }
    *count = x->num_topsp;
    atomic_fetch_add_explicit(&g_explicit, x->num_topsp, memory_order_relaxed);
    return NRT_SUCCESS;
}

void ntsim_explicit_free(ntsim_explicit_notifs_t *x)
{
    if (x == NULL)
        return;
    for (uint32_t i = 0; i < x->num_topsp; i++)
        ntsim__free(x->bufs[i].data);
    ntsim__free(x->bufs);
    ntsim__free(x);
}
