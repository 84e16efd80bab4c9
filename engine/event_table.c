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
 *  2. ntsim__event_types: one row per event type: names, category and the
 *     payload each phase carries. Sources, per column:
 *       enum name, value      spec §2 (the row's index is the enum constant)
 *       category              facts §1: HARDWARE = {6,7,8,13,24,25,26}
 *       START/STOP payloads   spec §3: a _start / _stop pair splits by phase;
 *                             a single payload is carried by every phase;
 *                             GENERIC and CONSUME_* carry none (spec §2 QUIRK)
 *       INSTANT payload       D-PHASE: single payloads as above; for the
 *                             START/STOP pairs none, except DMA_MEM_ALLOC and
 *                             DMA_MEM_DEALLOC, whose intent payload is also
 *                             read on INSTANT (facts §2 [CONFLICT])
 *       api_name              D-NAMES: the lowercase enum suffix
 *       json_name             D-JSON-NAMES: facts §2 where observed, else the
 *                             style of the observed sibling, else api_name
 *       json data keys        facts §2's `data` table, in its order, with the
 *                             choices of D-JSON-DATA where it is silent
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

#define ROW(NAME, api, json, CAT, S, T, I, JS, JT, JI)                              \
    [NRT_SYS_TRACE_EVENT_TYPE_##NAME] = {                                           \
        NRT_SYS_TRACE_EVENT_TYPE_##NAME, "NRT_SYS_TRACE_EVENT_TYPE_" #NAME, api, json, \
        NRT_SYS_TRACE_EVENT_CATEGORY_##CAT,                                         \
        {NTSIM_PAYLOAD_##S, NTSIM_PAYLOAD_##T, NTSIM_PAYLOAD_##I}, {JS, JT, JI}}

/* One payload, and one key list, for every phase. */
#define ROW1(NAME, api, json, CAT, P, J) ROW(NAME, api, json, CAT, P, P, P, J, J, J)

/* JSON key lists shared by several rows. */
#define K_NC_TS "nc_timestamp_ns=sync_info.nc_timestamp_ns"
#define K_EXEC_MODEL "exec_id,model_id"
#define K_TENSOR_IO "tensor_id,size"
#define K_ENC "peer_id,exec_id,nec_dev_id"
#define K_COPY "mem_type,mem_handle,offset,size"
#define K_BATCH_COPY "mem_type,num_batches,total_num_ops,total_size"
#define K_ALLOC_START "hbm_idx,is_nc_hbm,is_aligned,mla_idx,usage_type%usage"
#define K_DEALLOC_START "hbm_idx,is_nc_hbm,mla_idx,usage_type%usage,physical_address%hex"
#define K_CTX "ctx_device_id,ctx_device_count"

const ntsim_event_type_desc_t ntsim__event_types[NRT_SYS_TRACE_EVENT_TYPE_COUNT] = {
    /* enum suffix, api name, json event_type, category, payload START / STOP / INSTANT,
     * then the JSON data keys (one list, or START / STOP / INSTANT) */
    ROW(GENERIC, "generic", "generic", SOFTWARE, NONE, NONE, NONE, NULL, NULL, NULL),
    ROW(MODEL_LOAD, "model_load", "nrt_load", SOFTWARE, NONE, MODEL_LOAD_STOP, NONE,
        NULL, "model_id", NULL),
    ROW1(POST_REQUEST, "post_request", "post_request", SOFTWARE, EXEC_POST_REQUEST,
         "request_id"),
    ROW1(EXECUTE_API, "execute_api", "nrt_execute", SOFTWARE, NRT_EXEC, "model_id"),
    ROW1(RUNTIME_EXECUTE, "runtime_execute", "runtime_execute", SOFTWARE, RUNTIME_EXEC,
         "model_id"),
    ROW(CC_LOAD, "cc_load", "cc_load", SOFTWARE, CC_LOAD_START, CC_LOAD_STOP, NONE,
        "g_device_id,g_device_count", "model_id", NULL),
    ROW(CC_EXEC_BARRIER, "cc_exec_barrier", "cc_exec_barrier", HARDWARE, CC_EXEC_BARRIER_START,
        CC_EXEC_BARRIER_STOP, NONE, K_NC_TS ",model_id", K_NC_TS, NULL),
    ROW(DEVICE_EXEC, "device_exec", "nc_exec_running", HARDWARE, NC_EXEC_START, NC_EXEC_STOP,
        NONE, "device_core_idx,exec_id," K_NC_TS, K_NC_TS, NULL),
    ROW(CC_EXEC, "cc_exec", "cc_running", HARDWARE, CC_EXEC_START, CC_EXEC_STOP, NONE,
        "gid,op_id," K_NC_TS ",exec_id,algorithm=algo%algo", K_NC_TS, NULL),
    ROW1(TENSOR_READ, "tensor_read", "nrt_tensor_read", SOFTWARE, EXEC_TENSOR_READ, K_TENSOR_IO),
    ROW1(TENSOR_WRITE, "tensor_write", "nrt_tensor_write", SOFTWARE, EXEC_TENSOR_WRITE,
         K_TENSOR_IO),
    ROW1(TENSOR_READ_BATCH, "tensor_read_batch", "nrt_tensor_read_batch", SOFTWARE,
         EXEC_TENSOR_READ_BATCH, "num_batches"),
    ROW1(TENSOR_WRITE_BATCH, "tensor_write_batch", "nrt_tensor_write_batch", SOFTWARE,
         EXEC_TENSOR_WRITE_BATCH, "num_batches"),
    ROW1(NUM_ERR, "num_err", "numerical_err", HARDWARE, NUM_ERR,
         "device_core_idx,exec_id," K_NC_TS),
    ROW1(ENC_BARRIER_RECV, "enc_barrier_recv", "enc_barrier_recv", SOFTWARE, ENC_BARRIER_RECV,
         K_ENC),
    ROW1(ENC_BARRIER_SEND, "enc_barrier_send", "enc_barrier_send", SOFTWARE, ENC_BARRIER_SEND,
         K_ENC),
    ROW1(ENC_BARRIER, "enc_barrier", "enc_barrier", SOFTWARE, ENC_BARRIER, K_ENC),
    ROW1(EXEC_PRE, "exec_pre", "kbl_exec_pre", SOFTWARE, EXEC_PRE, K_EXEC_MODEL),
    ROW1(EXEC_CORE, "exec_core", "kmgr_exec_core", SOFTWARE, EXEC_CORE, K_EXEC_MODEL),
    ROW1(EXEC_WAIT, "exec_wait", "kbl_exec_wait", SOFTWARE, EXEC_WAIT, K_EXEC_MODEL),
    ROW1(EXEC_POST, "exec_post", "kbl_exec_post", SOFTWARE, EXEC_POST, K_EXEC_MODEL),
    ROW1(MODEL_SWITCH, "model_switch", "nrt_model_switch", SOFTWARE, MODEL_SWITCH,
         "device_core_idx,is_neuron_core_work,model_id"),
    ROW1(MODEL_SUBMIT, "model_submit", "nrt_model_submit", SOFTWARE, MODEL_SUBMIT, "model_id"),
    ROW1(ASYNC_SEMA_WAIT, "async_sema_wait", "nrt_async_sema_wait", SOFTWARE, ASYNC_SEMA_WAIT,
         "available_request_slots,has_work"),
    ROW1(HW_NOTIFY, "hw_notify", "hw_notify", HARDWARE, HW_NOTIFY,
         "device_core_idx,hint,custom_data," K_NC_TS ",exec_id"),
    ROW1(TIMESTAMP_SYNC, "timestamp_sync", "timestamp_sync_point", HARDWARE, TIMESTAMP_SYNC,
         "exec_id,nc_timestamp_ns,cpu_timestamp_ns"),
    ROW(NC_MODEL_SWITCH, "nc_model_switch", "nc_model_switch", HARDWARE, NC_MODEL_SWITCH_START,
        NC_MODEL_SWITCH_STOP, NONE, "device_core_idx,model_id,exec_id," K_NC_TS, K_NC_TS, NULL),
    ROW1(TENSOR_ALLOC, "tensor_alloc", "nrt_tensor_allocate", SOFTWARE, EXEC_TENSOR_ALLOC,
         K_TENSOR_IO),
    ROW1(TENSOR_FREE, "tensor_free", "nrt_tensor_free", SOFTWARE, EXEC_TENSOR_FREE,
         "tensor_id,size,ref_count"),
    ROW1(TENSOR_BLOCK_WHILE_EXEC, "tensor_block_while_exec", "tensor_block_while_exec", SOFTWARE,
         EXEC_TENSOR_BLOCK, "tensor_id,pending_reader_count,pending_writer_count"),
    ROW1(DMEM_BUF_COPYIN, "dmem_buf_copyin", "dmem_buf_copyin", SOFTWARE, DMEM_BUF_COPYIN,
         K_COPY),
    ROW1(DMEM_BUF_COPYOUT, "dmem_buf_copyout", "dmem_buf_copyout", SOFTWARE, DMEM_BUF_COPYOUT,
         K_COPY),
    ROW1(DMEM_BUF_BATCH_COPYIN, "dmem_buf_batch_copyin", "dmem_buf_batch_copyin", SOFTWARE,
         DMEM_BUF_BATCH_COPYIN, K_BATCH_COPY),
    ROW1(DMEM_BUF_BATCH_COPYOUT, "dmem_buf_batch_copyout", "dmem_buf_batch_copyout", SOFTWARE,
         DMEM_BUF_BATCH_COPYOUT, K_BATCH_COPY),
    ROW(DMA_MEM_ALLOC, "dma_mem_alloc", "nrt_dma_mem_alloc", SOFTWARE, DMA_MEM_ALLOC_START,
        DMA_MEM_ALLOC_STOP, DMA_MEM_ALLOC_START, K_ALLOC_START,
        "allocated_bytes,total_bytes,usage_type_total_bytes,return_code,physical_address%hex",
        K_ALLOC_START),
    ROW(DMA_MEM_DEALLOC, "dma_mem_dealloc", "nrt_dma_mem_dealloc", SOFTWARE,
        DMA_MEM_DEALLOC_START, DMA_MEM_DEALLOC_STOP, DMA_MEM_DEALLOC_START, K_DEALLOC_START,
        "freed_bytes,total_bytes,usage_type_total_bytes", K_DEALLOC_START),
    ROW(CONSUME_TPB_STATUS_NOTIFICATIONS, "consume_tpb_status_notifications",
        "exec_consume_tpb_status_notifications", SOFTWARE, NONE, NONE, NONE, NULL, NULL, NULL),
    ROW(CONSUME_TOPSP_CC_NOTIFICATIONS, "consume_topsp_cc_notifications",
        "exec_consume_cc_core_notifications", SOFTWARE, NONE, NONE, NONE, NULL, NULL, NULL),
    ROW(CONSUME_ERROR_NOTIFICATIONS, "consume_error_notifications", "notification_consume_errors",
        SOFTWARE, NONE, NONE, NONE, NULL, NULL, NULL),
    ROW(CONSUME_POOL_STDIO, "consume_pool_stdio", "exec_consume_gpsimd_stdio", SOFTWARE, NONE,
        NONE, NONE, NULL, NULL, NULL),
    ROW1(CC_PREPARE, "cc_prepare", "cc_prepare", SOFTWARE, HOSTCC_PREPARE, K_CTX ",cc_op"),
    ROW1(CC_SCHEDULE, "cc_schedule", "cc_schedule", SOFTWARE, HOSTCC_SCHEDULE, K_CTX),
    ROW1(HOSTCC_BUILD_CONTEXT, "hostcc_build_context", "hostcc_build_context", SOFTWARE,
         HOSTCC_BUILD_CTX, K_CTX),
    ROW1(HOSTCC_LOAD, "hostcc_load", "hostcc_load", SOFTWARE, HOSTCC_LOAD, "enc_op,dtype,num_elem"),
    ROW1(HOSTCC_EXEC, "hostcc_exec", "hostcc_exec", SOFTWARE, HOSTCC_EXEC, "stream_id"),
    ROW1(HOSTCC_WAIT, "hostcc_wait", "hostcc_wait", SOFTWARE, HOSTCC_WAIT, "total_notif_expected"),
};

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

const ntsim_event_type_desc_t *ntsim__event_type_by_api_name(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (strcmp(ntsim__event_types[t].api_name, name) == 0)
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
