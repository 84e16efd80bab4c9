/*
 * engine/event_table.h: the one table of the sys_trace taxonomy.
 *
 * Everything that switches on an event type (the capture engine's payload
 * copy, the JSON exporter, event_to_proto, the simulator, the vector runner)
 * asks this table instead of writing its own switch:
 *
 *   ntsim__event_types[t]   per type: its enum identifier, its interned name
 *                          (the JSON event_type), its category, which payload
 *                          its START, STOP and INSTANT phases carry, and the
 *                          JSON exporter's arm (data keys) for each phase.
 *   ntsim__payloads[p]      per payload struct: its union member name, its C
 *                          type, size, offset in the union, and its fields
 *                          (name, offset, size, kind), compiled with offsetof.
 *
 * A new event type is one entry in NTSIM_EVENT_TYPE_MAP below (plus its
 * enumerator in the public header); a new payload is one entry in
 * NTSIM_PAYLOAD_MAP plus its field list. Internal: not installed.
 */
#ifndef NTSIM_ENGINE_EVENT_TABLE_H
#define NTSIM_ENGINE_EVENT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nrt/nrt_sys_trace_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every payload struct that is a member of nrt_sys_trace_event_data_t, in
 * header order: XX(ID, member). ID names the ntsim_payload_id_t enumerator. */
#define NTSIM_PAYLOAD_MAP(XX)                                  \
    XX(EXEC_PRE, exec_pre)                                     \
    XX(EXEC_CORE, exec_core)                                   \
    XX(EXEC_WAIT, exec_wait)                                   \
    XX(EXEC_POST, exec_post)                                   \
    XX(MODEL_EXEC, model_exec)                                 \
    XX(NRT_EXEC, nrt_exec)                                     \
    XX(RUNTIME_EXEC, runtime_exec)                             \
    XX(MODEL_LOAD_STOP, model_load_stop)                       \
    XX(MODEL_SUBMIT, model_submit)                             \
    XX(CC_LOAD_STOP, cc_load_stop)                             \
    XX(EXEC_POST_REQUEST, exec_post_request)                   \
    XX(CC_LOAD_START, cc_load_start)                           \
    XX(NC_EXEC_START, nc_exec_start)                           \
    XX(NC_EXEC_STOP, nc_exec_stop)                             \
    XX(CC_EXEC_START, cc_exec_start)                           \
    XX(CC_EXEC_STOP, cc_exec_stop)                             \
    XX(CC_EXEC_BARRIER_START, cc_exec_barrier_start)           \
    XX(CC_EXEC_BARRIER_STOP, cc_exec_barrier_stop)             \
    XX(NC_MODEL_SWITCH_START, nc_model_switch_start)           \
    XX(NC_MODEL_SWITCH_STOP, nc_model_switch_stop)             \
    XX(HW_NOTIFY, hw_notify)                                   \
    XX(NUM_ERR, num_err)                                       \
    XX(TIMESTAMP_SYNC, timestamp_sync)                         \
    XX(MODEL_SWITCH, model_switch)                             \
    XX(ASYNC_SEMA_WAIT, async_sema_wait)                       \
    XX(EXEC_TENSOR_READ, exec_tensor_read)                     \
    XX(EXEC_TENSOR_WRITE, exec_tensor_write)                   \
    XX(EXEC_TENSOR_ALLOC, exec_tensor_alloc)                   \
    XX(EXEC_TENSOR_FREE, exec_tensor_free)                     \
    XX(EXEC_TENSOR_BLOCK, exec_tensor_block)                   \
    XX(EXEC_TENSOR_READ_BATCH, exec_tensor_read_batch)         \
    XX(EXEC_TENSOR_WRITE_BATCH, exec_tensor_write_batch)       \
    XX(DMEM_BUF_COPYIN, dmem_buf_copyin)                       \
    XX(DMEM_BUF_COPYOUT, dmem_buf_copyout)                     \
    XX(DMEM_BUF_BATCH_COPYIN, dmem_buf_batch_copyin)           \
    XX(DMEM_BUF_BATCH_COPYOUT, dmem_buf_batch_copyout)         \
    XX(ENC_BARRIER_RECV, enc_barrier_recv)                     \
    XX(ENC_BARRIER_SEND, enc_barrier_send)                     \
    XX(ENC_BARRIER, enc_barrier)                               \
    XX(DMA_MEM_ALLOC_START, dma_mem_alloc_start)               \
    XX(DMA_MEM_ALLOC_STOP, dma_mem_alloc_stop)                 \
    XX(DMA_MEM_DEALLOC_START, dma_mem_dealloc_start)           \
    XX(DMA_MEM_DEALLOC_STOP, dma_mem_dealloc_stop)             \
    XX(HOSTCC_PREPARE, hostcc_prepare)                         \
    XX(HOSTCC_SCHEDULE, hostcc_schedule)                       \
    XX(HOSTCC_BUILD_CTX, hostcc_build_ctx)                     \
    XX(HOSTCC_LOAD, hostcc_load)                               \
    XX(HOSTCC_EXEC, hostcc_exec)                               \
    XX(HOSTCC_WAIT, hostcc_wait)

/* The 46 event types, listed once, in enum order. Every per-type view (the
 * table rows of event_table.c, the names, the registry's enum members, the
 * row count) is expanded from this list; adding a type is one entry here plus
 * its enumerator in nrt/nrt_sys_trace_event.h (vectors/README.md has the
 * whole checklist). An entry is
 *
 *   XX(NAME, name, CATEGORY, (START, STOP, INSTANT), (KEYS START, STOP, INSTANT))
 *
 *   NAME       the enum suffix: the row is NRT_SYS_TRACE_EVENT_TYPE_##NAME, so a
 *              name the header lacks fails to compile
 *   name       the event's interned name: the JSON event_type string, the NTFF
 *              interned name and hint, and what nrt_sys_trace_get_event_types
 *              returns and the type setter accepts (D-NAMES, D-JSON-NAMES)
 *   CATEGORY   UNKNOWN | HARDWARE | SOFTWARE (facts §1)
 *   payloads   the ntsim_payload_id_t suffix each phase carries (D-PHASE);
 *              NTSIM__ALL(P) is the same P in every phase
 *   keys       the JSON exporter's arm for each phase (D-JSON-DATA): the data
 *              keys it writes (grammar at ntsim_event_type_desc_t.json_keys);
 *              "" an arm that writes {}; NULL no arm: the exporter writes {}
 *              and warns of a phase mismatch (facts §2)
 *
 * event_table.c asserts at compile time that the list has exactly
 * NRT_SYS_TRACE_EVENT_TYPE_COUNT entries; with designated initializers and
 * -Werror (override-init), a type listed twice fails to compile too, so every
 * row is filled exactly once. */
#define NTSIM__ALL(x) (x, x, x)

/* JSON key lists shared by several types. */
#define NTSIM__K_NC_TS "nc_timestamp_ns=sync_info.nc_timestamp_ns"
#define NTSIM__K_EXEC_MODEL "exec_id,model_id"
#define NTSIM__K_TENSOR_IO "tensor_id,size"
#define NTSIM__K_ENC "peer_id,exec_id,nec_dev_id"
#define NTSIM__K_COPY "mem_type,mem_handle,offset,size"
#define NTSIM__K_BATCH_COPY "mem_type,num_batches,total_num_ops,total_size"
#define NTSIM__K_ALLOC_START "hbm_idx,is_nc_hbm,is_aligned,mla_idx,usage_type%usage"
#define NTSIM__K_DEALLOC_START "hbm_idx,is_nc_hbm,mla_idx,usage_type%usage,physical_address%hex"
#define NTSIM__K_CTX "ctx_device_id,ctx_device_count"

#define NTSIM_EVENT_TYPE_MAP(XX)                                                                  \
    XX(GENERIC, "generic", SOFTWARE,                                                              \
       (NONE, NONE, NONE),                                                                        \
       ("", "", ""))                                                                              \
    XX(MODEL_LOAD, "nrt_load", SOFTWARE,                                                          \
       (NONE, MODEL_LOAD_STOP, NONE),                                                             \
       ("", "model_id", ""))                                                                      \
    XX(POST_REQUEST, "post_request", SOFTWARE,                                                    \
       NTSIM__ALL(EXEC_POST_REQUEST),                                                             \
       NTSIM__ALL("request_id"))                                                                  \
    XX(EXECUTE_API, "nrt_execute", SOFTWARE,                                                      \
       NTSIM__ALL(NRT_EXEC),                                                                      \
       NTSIM__ALL("model_id"))                                                                    \
    XX(RUNTIME_EXECUTE, "runtime_execute", SOFTWARE,                                              \
       NTSIM__ALL(RUNTIME_EXEC),                                                                  \
       NTSIM__ALL("model_id"))                                                                    \
    XX(CC_LOAD, "cc_load", SOFTWARE,                                                              \
       (CC_LOAD_START, CC_LOAD_STOP, NONE),                                                       \
       ("g_device_id,g_device_count", "model_id", NULL))                                          \
    XX(CC_EXEC_BARRIER, "cc_exec_barrier", HARDWARE,                                              \
       (CC_EXEC_BARRIER_START, CC_EXEC_BARRIER_STOP, NONE),                                       \
       (NTSIM__K_NC_TS ",model_id", NTSIM__K_NC_TS, NULL))                                        \
    XX(DEVICE_EXEC, "nc_exec_running", HARDWARE,                                                  \
       (NC_EXEC_START, NC_EXEC_STOP, NONE),                                                       \
       ("device_core_idx,exec_id," NTSIM__K_NC_TS ",model_id=@exec_id", NTSIM__K_NC_TS, NULL))    \
    XX(CC_EXEC, "cc_running", HARDWARE,                                                           \
       (CC_EXEC_START, CC_EXEC_STOP, NONE),                                                       \
       ("gid,op_id," NTSIM__K_NC_TS ",exec_id,algorithm=algo%algo", NTSIM__K_NC_TS, NULL))        \
    XX(TENSOR_READ, "nrt_tensor_read", SOFTWARE,                                                  \
       NTSIM__ALL(EXEC_TENSOR_READ),                                                              \
       NTSIM__ALL(NTSIM__K_TENSOR_IO))                                                            \
    XX(TENSOR_WRITE, "nrt_tensor_write", SOFTWARE,                                                \
       NTSIM__ALL(EXEC_TENSOR_WRITE),                                                             \
       NTSIM__ALL(NTSIM__K_TENSOR_IO))                                                            \
    XX(TENSOR_READ_BATCH, "nrt_tensor_read_batch", SOFTWARE,                                      \
       NTSIM__ALL(EXEC_TENSOR_READ_BATCH),                                                        \
       NTSIM__ALL("num_batches"))                                                                 \
    XX(TENSOR_WRITE_BATCH, "nrt_tensor_write_batch", SOFTWARE,                                    \
       NTSIM__ALL(EXEC_TENSOR_WRITE_BATCH),                                                       \
       NTSIM__ALL("num_batches"))                                                                 \
    XX(NUM_ERR, "numerical_err", HARDWARE,                                                        \
       NTSIM__ALL(NUM_ERR),                                                                       \
       (NULL, NULL, "device_core_idx,exec_id," NTSIM__K_NC_TS ",model_id=@exec_id"))              \
    XX(ENC_BARRIER_RECV, "enc_barrier_recv", SOFTWARE,                                            \
       NTSIM__ALL(ENC_BARRIER_RECV),                                                              \
       NTSIM__ALL(NTSIM__K_ENC))                                                                  \
    XX(ENC_BARRIER_SEND, "enc_barrier_send", SOFTWARE,                                            \
       NTSIM__ALL(ENC_BARRIER_SEND),                                                              \
       NTSIM__ALL(NTSIM__K_ENC))                                                                  \
    XX(ENC_BARRIER, "enc_barrier", SOFTWARE,                                                      \
       NTSIM__ALL(ENC_BARRIER),                                                                   \
       NTSIM__ALL(NTSIM__K_ENC))                                                                  \
    XX(EXEC_PRE, "kbl_exec_pre", SOFTWARE,                                                        \
       NTSIM__ALL(EXEC_PRE),                                                                      \
       NTSIM__ALL(NTSIM__K_EXEC_MODEL))                                                           \
    XX(EXEC_CORE, "kmgr_exec_core", SOFTWARE,                                                     \
       NTSIM__ALL(EXEC_CORE),                                                                     \
       NTSIM__ALL(NTSIM__K_EXEC_MODEL))                                                           \
    XX(EXEC_WAIT, "kbl_exec_wait", SOFTWARE,                                                      \
       NTSIM__ALL(EXEC_WAIT),                                                                     \
       NTSIM__ALL(NTSIM__K_EXEC_MODEL))                                                           \
    XX(EXEC_POST, "kbl_exec_post", SOFTWARE,                                                      \
       NTSIM__ALL(EXEC_POST),                                                                     \
       NTSIM__ALL(NTSIM__K_EXEC_MODEL))                                                           \
    XX(MODEL_SWITCH, "model_switch", SOFTWARE,                                                    \
       NTSIM__ALL(MODEL_SWITCH),                                                                  \
       NTSIM__ALL("device_core_idx,is_neuron_core_work,model_id"))                                \
    XX(MODEL_SUBMIT, "nrt_model_submit", SOFTWARE,                                                \
       NTSIM__ALL(MODEL_SUBMIT),                                                                  \
       NTSIM__ALL("model_id"))                                                                    \
    XX(ASYNC_SEMA_WAIT, "nrt_async_sema_wait", SOFTWARE,                                          \
       NTSIM__ALL(ASYNC_SEMA_WAIT),                                                               \
       NTSIM__ALL("available_request_slots,has_work"))                                            \
    XX(HW_NOTIFY, "hw_notify", HARDWARE,                                                          \
       NTSIM__ALL(HW_NOTIFY),                                                                     \
       NTSIM__ALL("device_core_idx,hint,custom_data," NTSIM__K_NC_TS ",exec_id"))                 \
    XX(TIMESTAMP_SYNC, "timestamp_sync_point", HARDWARE,                                          \
       NTSIM__ALL(TIMESTAMP_SYNC),                                                                \
       NTSIM__ALL("exec_id,nc_timestamp_ns,cpu_timestamp_ns"))                                    \
    XX(NC_MODEL_SWITCH, "nc_model_switch", HARDWARE,                                              \
       (NC_MODEL_SWITCH_START, NC_MODEL_SWITCH_STOP, NONE),                                       \
       ("device_core_idx,model_id,exec_id," NTSIM__K_NC_TS, NTSIM__K_NC_TS, NULL))                \
    XX(TENSOR_ALLOC, "nrt_tensor_allocate", SOFTWARE,                                             \
       NTSIM__ALL(EXEC_TENSOR_ALLOC),                                                             \
       NTSIM__ALL(NTSIM__K_TENSOR_IO))                                                            \
    XX(TENSOR_FREE, "nrt_tensor_free", SOFTWARE,                                                  \
       NTSIM__ALL(EXEC_TENSOR_FREE),                                                              \
       NTSIM__ALL("tensor_id,size,ref_count"))                                                    \
    XX(TENSOR_BLOCK_WHILE_EXEC, "tensor_block_while_exec", SOFTWARE,                              \
       NTSIM__ALL(EXEC_TENSOR_BLOCK),                                                             \
       NTSIM__ALL("tensor_id,pending_reader_count,pending_writer_count"))                         \
    XX(DMEM_BUF_COPYIN, "dmem_buf_copyin", SOFTWARE,                                              \
       NTSIM__ALL(DMEM_BUF_COPYIN),                                                               \
       NTSIM__ALL(NTSIM__K_COPY))                                                                 \
    XX(DMEM_BUF_COPYOUT, "dmem_buf_copyout", SOFTWARE,                                            \
       NTSIM__ALL(DMEM_BUF_COPYOUT),                                                              \
       NTSIM__ALL(NTSIM__K_COPY))                                                                 \
    XX(DMEM_BUF_BATCH_COPYIN, "dmem_buf_batch_copyin", SOFTWARE,                                  \
       NTSIM__ALL(DMEM_BUF_BATCH_COPYIN),                                                         \
       NTSIM__ALL(NTSIM__K_BATCH_COPY))                                                           \
    XX(DMEM_BUF_BATCH_COPYOUT, "dmem_buf_batch_copyout", SOFTWARE,                                \
       NTSIM__ALL(DMEM_BUF_BATCH_COPYOUT),                                                        \
       NTSIM__ALL(NTSIM__K_BATCH_COPY))                                                           \
    XX(DMA_MEM_ALLOC, "nrt_dma_mem_alloc", SOFTWARE,                                              \
       (DMA_MEM_ALLOC_START, DMA_MEM_ALLOC_STOP, DMA_MEM_ALLOC_START),                            \
       (NTSIM__K_ALLOC_START,                                                                     \
        "allocated_bytes,total_bytes,usage_type_total_bytes,return_code,physical_address%hex",    \
        NTSIM__K_ALLOC_START))                                                                    \
    XX(DMA_MEM_DEALLOC, "nrt_dma_mem_dealloc", SOFTWARE,                                          \
       (DMA_MEM_DEALLOC_START, DMA_MEM_DEALLOC_STOP, DMA_MEM_DEALLOC_START),                      \
       (NTSIM__K_DEALLOC_START,                                                                   \
        "freed_bytes,total_bytes,usage_type_total_bytes",                                         \
        NTSIM__K_DEALLOC_START))                                                                  \
    XX(CONSUME_TPB_STATUS_NOTIFICATIONS, "exec_consume_tpb_status_notifications", SOFTWARE,       \
       (NONE, NONE, NONE),                                                                        \
       ("", "", ""))                                                                              \
    XX(CONSUME_TOPSP_CC_NOTIFICATIONS, "exec_consume_cc_core_notifications", SOFTWARE,            \
       (NONE, NONE, NONE),                                                                        \
       ("", "", ""))                                                                              \
    XX(CONSUME_ERROR_NOTIFICATIONS, "notification_consume_errors", SOFTWARE,                      \
       (NONE, NONE, NONE),                                                                        \
       ("", "", ""))                                                                              \
    XX(CONSUME_POOL_STDIO, "exec_consume_gpsimd_stdio", SOFTWARE,                                 \
       (NONE, NONE, NONE),                                                                        \
       ("", "", ""))                                                                              \
    XX(CC_PREPARE, "cc_prepare", SOFTWARE,                                                        \
       NTSIM__ALL(HOSTCC_PREPARE),                                                                \
       NTSIM__ALL(NTSIM__K_CTX ",cc_op"))                                                         \
    XX(CC_SCHEDULE, "cc_schedule", SOFTWARE,                                                      \
       NTSIM__ALL(HOSTCC_SCHEDULE),                                                               \
       NTSIM__ALL(NTSIM__K_CTX))                                                                  \
    XX(HOSTCC_BUILD_CONTEXT, "hostcc_build_context", SOFTWARE,                                    \
       NTSIM__ALL(HOSTCC_BUILD_CTX),                                                              \
       NTSIM__ALL(NTSIM__K_CTX))                                                                  \
    XX(HOSTCC_LOAD, "hostcc_load", SOFTWARE,                                                      \
       NTSIM__ALL(HOSTCC_LOAD),                                                                   \
       NTSIM__ALL("enc_op,dtype,num_elem"))                                                       \
    XX(HOSTCC_EXEC, "hostcc_exec", SOFTWARE,                                                      \
       NTSIM__ALL(HOSTCC_EXEC),                                                                   \
       NTSIM__ALL("stream_id"))                                                                   \
    XX(HOSTCC_WAIT, "hostcc_wait", SOFTWARE,                                                      \
       NTSIM__ALL(HOSTCC_WAIT),                                                                   \
       NTSIM__ALL("total_notif_expected"))


/* NTSIM_PAYLOAD_NONE: the phase carries no payload; the data slot is zeros. */
typedef enum ntsim_payload_id {
    NTSIM_PAYLOAD_NONE = 0,
#define NTSIM_PAYLOAD_ENUM_(ID, member) NTSIM_PAYLOAD_##ID,
    NTSIM_PAYLOAD_MAP(NTSIM_PAYLOAD_ENUM_)
#undef NTSIM_PAYLOAD_ENUM_
    NTSIM_PAYLOAD_COUNT
} ntsim_payload_id_t;

/* How a payload field is stored; the readers (JSON, NTFF) format by kind. */
typedef enum ntsim_field_kind {
    NTSIM_FIELD_U8,
    NTSIM_FIELD_U16,
    NTSIM_FIELD_U32,
    NTSIM_FIELD_U64,
    NTSIM_FIELD_INT,        /* C int, 4 bytes, signed */
    NTSIM_FIELD_BOOL,
    NTSIM_FIELD_SYNC_INFO,  /* nested struct nrt_sys_trace_event_data_sync_info */
    NTSIM_FIELD_USAGE_TYPE, /* dma_mem_usage_type_t, 4 bytes */
    NTSIM_FIELD_KIND_COUNT
} ntsim_field_kind_t;

typedef struct ntsim_field_desc {
    const char *name;        /* the spec's field name */
    size_t offset;           /* bytes from the start of the payload */
    size_t size;             /* bytes */
    ntsim_field_kind_t kind;
} ntsim_field_desc_t;

typedef struct ntsim_payload_desc {
    const char *member;      /* union member = struct suffix, e.g. "hw_notify" */
    const char *c_type;      /* "struct nrt_sys_trace_event_data_hw_notify" */
    size_t size;             /* sizeof the struct */
    size_t union_offset;     /* offsetof(nrt_sys_trace_event_data_t, member): 0 */
    const ntsim_field_desc_t *fields;
    size_t field_count;
} ntsim_payload_desc_t;

typedef struct ntsim__event_type_desc {
    nrt_sys_trace_event_type_t type;
    const char *enum_name;   /* "NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY" */
    const char *json_name;   /* the interned name: JSON event_type, NTFF hint, the
                              * public API's names (D-NAMES, D-JSON-NAMES) */
    nrt_sys_trace_event_category_t category;
    /* payload read by each phase, indexed by nrt_sys_trace_event_phase_t */
    ntsim_payload_id_t payload[NRT_SYS_TRACE_EVENT_PHASE_COUNT];
    /* The JSON exporter's arm for each phase (D-JSON-DATA): the `data` keys it
     * writes, in order, which are also the NTFF attribute keys. NULL: no arm
     * (the exporter writes {} and warns of a phase mismatch); "": an arm with
     * no keys ({}). Otherwise a comma-separated list of
     *   key              the payload field of that name
     *   key=path         another field: "nc_timestamp_ns=sync_info.nc_timestamp_ns"
     *   key=@field       the model the runtime registered for the execution
     *                    whose id is that field (model_id=@exec_id;
     *                    D-JSON-MODEL-ID; 0 when unknown)
     *   ...%fmt          a format other than the field kind's: %usage (the
     *                    dma_mem_usage_type_t name), %hex ("0x..." string),
     *                    %algo (decimal string, omitted when 0)
     * Checked against the payload fields by test_json_keys_name_real_fields. */
    const char *json_keys[NRT_SYS_TRACE_EVENT_PHASE_COUNT];
} ntsim_event_type_desc_t;

/* Indexed by nrt_sys_trace_event_type_t; exactly COUNT rows. */
extern const ntsim_event_type_desc_t ntsim__event_types[NRT_SYS_TRACE_EVENT_TYPE_COUNT];
/* Indexed by ntsim_payload_id_t; row 0 (NONE) has member "none" and no fields. */
extern const ntsim_payload_desc_t ntsim__payloads[NTSIM_PAYLOAD_COUNT];
/* The two fields of struct nrt_sys_trace_event_data_sync_info. */
extern const ntsim_field_desc_t ntsim__sync_info_fields[2];

/* dma_mem_usage_type_t value -> its lowercase enum suffix ("weight"), the
 * string JSON and NTFF write for usage_type (D-JSON-DATA). */
extern const char *const ntsim__usage_type_names[DMA_MEM_USAGE_TYPE_MAX + 1];

/* The spec's word for each field kind ("uint16", "int", "sync_info", ...). */
const char *ntsim__field_kind_name(ntsim_field_kind_t kind);

/* The payload a record of (type, phase) carries; NONE when either is out of
 * range or the phase carries nothing. Never reads memory outside the tables.
 * Inline: the emit path asks it for every event. */
static inline ntsim_payload_id_t ntsim__event_payload(uint32_t type, uint32_t phase)
{
    if (type >= NRT_SYS_TRACE_EVENT_TYPE_COUNT || phase >= NRT_SYS_TRACE_EVENT_PHASE_COUNT)
        return NTSIM_PAYLOAD_NONE;
    return ntsim__event_types[type].payload[phase];
}

/* has_nrta_seq_id of a record that may come from outside (a dump, a
 * caller's array): read as its byte, nonzero = present, since a bool object
 * holding anything but 0 or 1 may not be read as a bool. */
static inline bool ntsim__record_has_seq(const nrt_sys_trace_event_t *e)
{
    unsigned char byte;
    memcpy(&byte, &e->has_nrta_seq_id, 1);
    return byte != 0;
}

/* Category of any integer type value: UNKNOWN for values >= COUNT. */
nrt_sys_trace_event_category_t ntsim__event_category(uint32_t type);

/* Row for a type, or NULL when type >= COUNT. */
const ntsim_event_type_desc_t *ntsim__event_type_desc(uint32_t type);

/* Lookups by name; return NULL when no row matches. */
const ntsim_event_type_desc_t *ntsim__event_type_by_json_name(const char *name);
const ntsim_event_type_desc_t *ntsim__event_type_by_enum_name(const char *name);
const ntsim_payload_desc_t *ntsim__payload_by_member(const char *member);

#ifdef __cplusplus
}
#endif

#endif /* NTSIM_ENGINE_EVENT_TABLE_H */
