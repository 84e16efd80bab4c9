/*
 * engine/event_table.c: the one table of the sys_trace taxonomy.
 *
 * Two tables, both indexed by an enum, both written once:
 *
 *  1. ntsim__payloads: one entry per payload struct, with its fields. Offsets
 *     and sizes are compiled (offsetof/sizeof); kinds are derived from the
 *     field's C type with _Generic, so the table cannot drift from the header.
 *     The layout vectors check this table, which checks the header.
 *
 *  2. ntsim__event_types: one row per entry of NTSIM_EVENT_TYPE_MAP
 *     (event_table.h): names, category, the payload each phase carries and
 *     the JSON keys. Sources, per column:
 *       enum name, value      spec §2 (the row's index is the enum constant)
 *       category              facts §1: HARDWARE = {6,7,8,13,24,25,26}
 *       START/STOP payloads   spec §3: a _start / _stop pair splits by phase;
 *                             a single payload is carried by every phase;
 *                             GENERIC and CONSUME_* carry none (spec §2 QUIRK)
 *       INSTANT payload       D-PHASE: single payloads as above; for the
 *                             START/STOP pairs none, except DMA_MEM_ALLOC and
 *                             DMA_MEM_DEALLOC, whose intent payload is also
 *                             read on INSTANT (facts §2 [CONFLICT])
 *       json_name             D-JSON-NAMES: facts §2 where observed, else the
 *                             style of the observed sibling, else the
 *                             lowercase enum suffix; the interned name the
 *                             public API returns too (D-NAMES)
 *       json data keys        facts §2's `data` table, in its order, each
 *                             S/T/I restriction an arm of that phase only,
 *                             with the choices of D-JSON-DATA where it is
 *                             silent
 */
#include "event_table.h"

#include <string.h>

/* --- 1. payloads ---------------------------------------------------------- */

/* The kind of a field, from its C type. dma_mem_usage_type_t is an enum and
 * so compatible with an integer type; it is declared explicitly (F_USAGE). */
#define KIND_OF_(expr)                                                        \
    _Generic((expr),                                                          \
        uint8_t: NTSIM_FIELD_U8,                                              \
        uint16_t: NTSIM_FIELD_U16,                                            \
        uint32_t: NTSIM_FIELD_U32,                                            \
        uint64_t: NTSIM_FIELD_U64,                                            \
        int: NTSIM_FIELD_INT,                                                 \
        bool: NTSIM_FIELD_BOOL,                                               \
        struct nrt_sys_trace_event_data_sync_info: NTSIM_FIELD_SYNC_INFO)

#define MEMBER_(S, f) (((struct nrt_sys_trace_event_data_##S *)0)->f)
#define F(S, f)                                                                \
    { #f, offsetof(struct nrt_sys_trace_event_data_##S, f), sizeof(MEMBER_(S, f)), \
      KIND_OF_(MEMBER_(S, f)) }
#define F_USAGE(S, f)                                                          \
    { #f, offsetof(struct nrt_sys_trace_event_data_##S, f), sizeof(MEMBER_(S, f)), \
      NTSIM_FIELD_USAGE_TYPE }

const ntsim_field_desc_t ntsim__sync_info_fields[2] = {
    F(sync_info, nc_timestamp_ns),
    F(sync_info, cpu_timestamp_ns),
};

static const ntsim_field_desc_t fields_exec_pre[] = {F(exec_pre, exec_id), F(exec_pre, model_id)};
static const ntsim_field_desc_t fields_exec_core[] = {F(exec_core, exec_id), F(exec_core, model_id)};
static const ntsim_field_desc_t fields_exec_wait[] = {F(exec_wait, exec_id), F(exec_wait, model_id)};
static const ntsim_field_desc_t fields_exec_post[] = {F(exec_post, exec_id), F(exec_post, model_id)};
static const ntsim_field_desc_t fields_model_exec[] = {F(model_exec, exec_id), F(model_exec, model_id)};
static const ntsim_field_desc_t fields_nrt_exec[] = {F(nrt_exec, model_id)};
static const ntsim_field_desc_t fields_runtime_exec[] = {F(runtime_exec, model_id)};
static const ntsim_field_desc_t fields_model_load_stop[] = {F(model_load_stop, model_id)};
static const ntsim_field_desc_t fields_model_submit[] = {F(model_submit, model_id)};
static const ntsim_field_desc_t fields_cc_load_stop[] = {F(cc_load_stop, model_id)};
static const ntsim_field_desc_t fields_exec_post_request[] = {
    F(exec_post_request, model_id), F(exec_post_request, request_id)};
static const ntsim_field_desc_t fields_cc_load_start[] = {
    F(cc_load_start, g_device_id), F(cc_load_start, g_device_count)};
static const ntsim_field_desc_t fields_nc_exec_start[] = {
    F(nc_exec_start, device_core_idx), F(nc_exec_start, exec_id), F(nc_exec_start, sync_info)};
static const ntsim_field_desc_t fields_nc_exec_stop[] = {F(nc_exec_stop, sync_info)};
static const ntsim_field_desc_t fields_cc_exec_start[] = {
    F(cc_exec_start, gid), F(cc_exec_start, op_id), F(cc_exec_start, exec_id),
    F(cc_exec_start, sync_info), F(cc_exec_start, algo)};
static const ntsim_field_desc_t fields_cc_exec_stop[] = {F(cc_exec_stop, sync_info)};
static const ntsim_field_desc_t fields_cc_exec_barrier_start[] = {
    F(cc_exec_barrier_start, model_id), F(cc_exec_barrier_start, exec_id),
    F(cc_exec_barrier_start, sync_info)};
static const ntsim_field_desc_t fields_cc_exec_barrier_stop[] = {F(cc_exec_barrier_stop, sync_info)};
static const ntsim_field_desc_t fields_nc_model_switch_start[] = {
    F(nc_model_switch_start, device_core_idx), F(nc_model_switch_start, model_id),
    F(nc_model_switch_start, exec_id), F(nc_model_switch_start, sync_info)};
static const ntsim_field_desc_t fields_nc_model_switch_stop[] = {F(nc_model_switch_stop, sync_info)};
static const ntsim_field_desc_t fields_hw_notify[] = {
    F(hw_notify, device_core_idx), F(hw_notify, hint), F(hw_notify, custom_data),
    F(hw_notify, exec_id), F(hw_notify, sync_info)};
static const ntsim_field_desc_t fields_num_err[] = {
    F(num_err, device_core_idx), F(num_err, exec_id), F(num_err, sync_info)};
static const ntsim_field_desc_t fields_timestamp_sync[] = {
    F(timestamp_sync, exec_id), F(timestamp_sync, nc_timestamp_ns),
    F(timestamp_sync, cpu_timestamp_ns)};
static const ntsim_field_desc_t fields_model_switch[] = {
    F(model_switch, device_core_idx), F(model_switch, model_id),
    F(model_switch, is_neuron_core_work)};
static const ntsim_field_desc_t fields_async_sema_wait[] = {
    F(async_sema_wait, available_request_slots), F(async_sema_wait, has_work)};
static const ntsim_field_desc_t fields_exec_tensor_read[] = {
    F(exec_tensor_read, tensor_id), F(exec_tensor_read, size)};
static const ntsim_field_desc_t fields_exec_tensor_write[] = {
    F(exec_tensor_write, tensor_id), F(exec_tensor_write, size)};
static const ntsim_field_desc_t fields_exec_tensor_alloc[] = {
    F(exec_tensor_alloc, tensor_id), F(exec_tensor_alloc, size)};
static const ntsim_field_desc_t fields_exec_tensor_free[] = {
    F(exec_tensor_free, tensor_id), F(exec_tensor_free, size), F(exec_tensor_free, ref_count)};
static const ntsim_field_desc_t fields_exec_tensor_block[] = {
    F(exec_tensor_block, tensor_id), F(exec_tensor_block, pending_reader_count),
    F(exec_tensor_block, pending_writer_count)};
static const ntsim_field_desc_t fields_exec_tensor_read_batch[] = {
    F(exec_tensor_read_batch, num_batches)};
static const ntsim_field_desc_t fields_exec_tensor_write_batch[] = {
    F(exec_tensor_write_batch, num_batches)};
static const ntsim_field_desc_t fields_dmem_buf_copyin[] = {
    F(dmem_buf_copyin, mem_type), F(dmem_buf_copyin, mem_handle), F(dmem_buf_copyin, offset),
    F(dmem_buf_copyin, size)};
static const ntsim_field_desc_t fields_dmem_buf_copyout[] = {
    F(dmem_buf_copyout, mem_type), F(dmem_buf_copyout, mem_handle), F(dmem_buf_copyout, offset),
    F(dmem_buf_copyout, size)};
static const ntsim_field_desc_t fields_dmem_buf_batch_copyin[] = {
    F(dmem_buf_batch_copyin, mem_type), F(dmem_buf_batch_copyin, num_batches),
    F(dmem_buf_batch_copyin, total_num_ops), F(dmem_buf_batch_copyin, total_size)};
static const ntsim_field_desc_t fields_dmem_buf_batch_copyout[] = {
    F(dmem_buf_batch_copyout, mem_type), F(dmem_buf_batch_copyout, num_batches),
    F(dmem_buf_batch_copyout, total_num_ops), F(dmem_buf_batch_copyout, total_size)};
static const ntsim_field_desc_t fields_enc_barrier_recv[] = {
    F(enc_barrier_recv, peer_id), F(enc_barrier_recv, exec_id), F(enc_barrier_recv, nec_dev_id)};
static const ntsim_field_desc_t fields_enc_barrier_send[] = {
    F(enc_barrier_send, peer_id), F(enc_barrier_send, exec_id), F(enc_barrier_send, nec_dev_id)};
static const ntsim_field_desc_t fields_enc_barrier[] = {
    F(enc_barrier, peer_id), F(enc_barrier, exec_id), F(enc_barrier, nec_dev_id)};
static const ntsim_field_desc_t fields_dma_mem_alloc_start[] = {
    F(dma_mem_alloc_start, hbm_idx), F_USAGE(dma_mem_alloc_start, usage_type),
    F(dma_mem_alloc_start, is_nc_hbm), F(dma_mem_alloc_start, is_aligned),
    F(dma_mem_alloc_start, mla_idx)};
static const ntsim_field_desc_t fields_dma_mem_alloc_stop[] = {
    F(dma_mem_alloc_stop, allocated_bytes), F(dma_mem_alloc_stop, physical_address),
    F(dma_mem_alloc_stop, return_code), F(dma_mem_alloc_stop, usage_type_total_bytes),
    F(dma_mem_alloc_stop, total_bytes)};
static const ntsim_field_desc_t fields_dma_mem_dealloc_start[] = {
    F(dma_mem_dealloc_start, hbm_idx), F(dma_mem_dealloc_start, is_nc_hbm),
    F(dma_mem_dealloc_start, mla_idx), F_USAGE(dma_mem_dealloc_start, usage_type),
    F(dma_mem_dealloc_start, physical_address)};
static const ntsim_field_desc_t fields_dma_mem_dealloc_stop[] = {
    F(dma_mem_dealloc_stop, freed_bytes), F(dma_mem_dealloc_stop, usage_type_total_bytes),
    F(dma_mem_dealloc_stop, total_bytes)};
static const ntsim_field_desc_t fields_hostcc_prepare[] = {
    F(hostcc_prepare, ctx_device_id), F(hostcc_prepare, ctx_device_count), F(hostcc_prepare, cc_op)};
static const ntsim_field_desc_t fields_hostcc_schedule[] = {
    F(hostcc_schedule, ctx_device_id), F(hostcc_schedule, ctx_device_count)};
static const ntsim_field_desc_t fields_hostcc_build_ctx[] = {
    F(hostcc_build_ctx, ctx_device_id), F(hostcc_build_ctx, ctx_device_count)};
static const ntsim_field_desc_t fields_hostcc_load[] = {
    F(hostcc_load, enc_op), F(hostcc_load, dtype), F(hostcc_load, num_elem)};
static const ntsim_field_desc_t fields_hostcc_exec[] = {F(hostcc_exec, stream_id)};
static const ntsim_field_desc_t fields_hostcc_wait[] = {F(hostcc_wait, total_notif_expected)};

/* The usage_type fields are declared by hand above; check they are 4 bytes. */
_Static_assert(sizeof(dma_mem_usage_type_t) == 4, "usage_type is a 4-byte enum");

#define NTSIM_ARRAY_LEN_(a) (sizeof(a) / sizeof((a)[0]))

const ntsim_payload_desc_t ntsim__payloads[NTSIM_PAYLOAD_COUNT] = {
    [NTSIM_PAYLOAD_NONE] = {"none", "none", 0, 0, NULL, 0},
#define PAYLOAD_ROW_(ID, member)                                                      \
    [NTSIM_PAYLOAD_##ID] = {#member, "struct nrt_sys_trace_event_data_" #member,      \
                            sizeof(struct nrt_sys_trace_event_data_##member),         \
                            offsetof(nrt_sys_trace_event_data_t, member),             \
                            fields_##member, NTSIM_ARRAY_LEN_(fields_##member)},
    NTSIM_PAYLOAD_MAP(PAYLOAD_ROW_)
#undef PAYLOAD_ROW_
};

/* --- 2. event types ------------------------------------------------------- */

/* One row per entry of NTSIM_EVENT_TYPE_MAP (event_table.h). */
#define NTSIM__PAYLOADS_(S, T, I) {NTSIM_PAYLOAD_##S, NTSIM_PAYLOAD_##T, NTSIM_PAYLOAD_##I}
#define NTSIM__KEYS_(S, T, I) {S, T, I}
#define ROW_(NAME, json, CAT, P, K)                                                        \
    [NRT_SYS_TRACE_EVENT_TYPE_##NAME] = {NRT_SYS_TRACE_EVENT_TYPE_##NAME,                  \
                                         "NRT_SYS_TRACE_EVENT_TYPE_" #NAME, json,          \
                                         NRT_SYS_TRACE_EVENT_CATEGORY_##CAT,               \
                                         NTSIM__PAYLOADS_ P, NTSIM__KEYS_ K},

const ntsim_event_type_desc_t ntsim__event_types[NRT_SYS_TRACE_EVENT_TYPE_COUNT] = {
    NTSIM_EVENT_TYPE_MAP(ROW_)
};
#undef ROW_

/* Exactly COUNT entries: with the array bound and override-init, a missing,
 * extra or repeated type fails the build instead of leaving a zero row. */
#define COUNT_ROW_(...) +1
enum { NTSIM__EVENT_TYPE_ROWS = 0 NTSIM_EVENT_TYPE_MAP(COUNT_ROW_) };
#undef COUNT_ROW_
_Static_assert((int)NTSIM__EVENT_TYPE_ROWS == (int)NRT_SYS_TRACE_EVENT_TYPE_COUNT,
               "NTSIM_EVENT_TYPE_MAP must list every nrt_sys_trace_event_type exactly once");

/* --- dma_mem_usage_type_t names (D-JSON-DATA: lowercase enum suffix) ------ */

const char *const ntsim__usage_type_names[DMA_MEM_USAGE_TYPE_MAX + 1] = {
    [DMA_MEM_USAGE_TYPE_GENERIC] = "generic",
    [DMA_MEM_USAGE_TYPE_INSTR_PE] = "instr_pe",
    [DMA_MEM_USAGE_TYPE_INSTR_ACT] = "instr_act",
    [DMA_MEM_USAGE_TYPE_INSTR_POOL] = "instr_pool",
    [DMA_MEM_USAGE_TYPE_IO] = "io",
    [DMA_MEM_USAGE_TYPE_DRAM_SPILL] = "dram_spill",
    [DMA_MEM_USAGE_TYPE_WEIGHT] = "weight",
    [DMA_MEM_USAGE_TYPE_NOTIFICATION] = "notification",
    [DMA_MEM_USAGE_TYPE_ACT_TABLE] = "act_table",
    [DMA_MEM_USAGE_TYPE_INSTR_DVE] = "instr_dve",
    [DMA_MEM_USAGE_TYPE_INSTR_SP] = "instr_sp",
    [DMA_MEM_USAGE_TYPE_SCRATCHPAD] = "scratchpad",
    [DMA_MEM_USAGE_TYPE_TENSOR] = "tensor",
    [DMA_MEM_USAGE_TYPE_UCODE_LIB] = "ucode_lib",
    [DMA_MEM_USAGE_TYPE_POOL_STDIO] = "pool_stdio",
    [DMA_MEM_USAGE_TYPE_CC] = "cc",
    [DMA_MEM_USAGE_TYPE_SCRATCHPAD_NOT_SHARED] = "scratchpad_not_shared",
    [DMA_MEM_USAGE_TYPE_XT_CC] = "xt_cc",
    [DMA_MEM_USAGE_TYPE_DMA_RING] = "dma_ring",
    [DMA_MEM_USAGE_TYPE_DMA_RING_SPILL] = "dma_ring_spill",
    [DMA_MEM_USAGE_TYPE_DMA_RING_IO] = "dma_ring_io",
    [DMA_MEM_USAGE_TYPE_DMA_RING_COLLECTIVES] = "dma_ring_collectives",
    [DMA_MEM_USAGE_TYPE_MAX] = "max",
};

/* --- views ---------------------------------------------------------------- */

static const char *const field_kind_names[NTSIM_FIELD_KIND_COUNT] = {
    [NTSIM_FIELD_U8] = "uint8",         [NTSIM_FIELD_U16] = "uint16",
    [NTSIM_FIELD_U32] = "uint32",       [NTSIM_FIELD_U64] = "uint64",
    [NTSIM_FIELD_INT] = "int",          [NTSIM_FIELD_BOOL] = "bool",
    [NTSIM_FIELD_SYNC_INFO] = "sync_info",
    [NTSIM_FIELD_USAGE_TYPE] = "dma_mem_usage_type_t",
};

const char *ntsim__field_kind_name(ntsim_field_kind_t kind)
{
    if ((unsigned)kind >= NTSIM_FIELD_KIND_COUNT)
        return "?";
    return field_kind_names[kind];
}

const ntsim_event_type_desc_t *ntsim__event_type_desc(uint32_t type)
{
    if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT)
        return NULL;
    return &ntsim__event_types[type];
}

nrt_sys_trace_event_category_t ntsim__event_category(uint32_t type)
{
    if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT)
        return NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN;
    return ntsim__event_types[type].category;
}

const ntsim_event_type_desc_t *ntsim__event_type_by_json_name(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (strcmp(ntsim__event_types[t].json_name, name) == 0)
            return &ntsim__event_types[t];
    return NULL;
}

const ntsim_event_type_desc_t *ntsim__event_type_by_enum_name(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (strcmp(ntsim__event_types[t].enum_name, name) == 0)
            return &ntsim__event_types[t];
    return NULL;
}

const ntsim_payload_desc_t *ntsim__payload_by_member(const char *member)
{
    if (member == NULL)
        return NULL;
    for (size_t p = 1; p < NTSIM_PAYLOAD_COUNT; p++)
        if (strcmp(ntsim__payloads[p].member, member) == 0)
            return &ntsim__payloads[p];
    return NULL;
}
