/*
 * nrt/nrt_sys_trace_event_data.h: the payload structs of the sys_trace record
 * (spec §3) and the 40-byte union of them, byte for byte: the part of
 * nrt/nrt_sys_trace_event.h that has a file of its own (together they would
 * be one header of some 780 lines, past the 700 a source file may have).
 * That header includes this one after the macros and types it needs
 * (NTSIM_ABI_SIZE, NTSIM_ABI_OFFSET, dma_mem_usage_type_t), inside its
 * extern "C"; include <nrt/nrt_sys_trace_event.h>, never this file
 * (D-EVENT-HEADER).
 *
 * Sources and rules are nrt_sys_trace_event.h's: "spec §N" is
 * ../shared/spec/sys_trace_taxonomy.txt, "facts §N" companion_facts.md; every
 * size and offset the spec gives is asserted below its struct and again by a
 * layout vector (vectors/layout_*.yaml).
 */
#ifndef NRT_NRT_SYS_TRACE_EVENT_DATA_H
#define NRT_NRT_SYS_TRACE_EVENT_DATA_H

#ifndef NRT_NRT_SYS_TRACE_EVENT_H
#error "include <nrt/nrt_sys_trace_event.h>, which includes this file"
#endif

/* ------------------------------------------------------------------------ */
/* spec §3: the payload structs. Offsets are bytes from the start of the     */
/* payload, i.e. from record +0x30. Unnamed gaps are the compiler's natural  */
/* padding, which is what the DWARF dump shows.                              */
/* ------------------------------------------------------------------------ */

/* The shared device/host clock pair: the STOP payload of the device spans
 * (types 6, 7, 8, 26) and the tail of hw_notify, num_err and nc_exec_start. */
struct nrt_sys_trace_event_data_sync_info {
    uint64_t nc_timestamp_ns;  /* ns, device clock at the span boundary */
    uint64_t cpu_timestamp_ns; /* ns, host clock at the same boundary */
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_sync_info, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_sync_info, nc_timestamp_ns, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_sync_info, cpu_timestamp_ns, 0x08);

/* --- the {exec_id, model_id} family: exec-stage spans (types 17..20) --- */

struct nrt_sys_trace_event_data_exec_pre {
    uint64_t exec_id;
    uint64_t model_id;
};

struct nrt_sys_trace_event_data_exec_core {
    uint64_t exec_id;
    uint64_t model_id;
};

struct nrt_sys_trace_event_data_exec_wait {
    uint64_t exec_id;
    uint64_t model_id;
};

struct nrt_sys_trace_event_data_exec_post {
    uint64_t exec_id;
    uint64_t model_id;
};

/* declared by the spec; no type reads it (D-MODEL-EXEC) */
struct nrt_sys_trace_event_data_model_exec {
    uint64_t exec_id;
    uint64_t model_id;
};

NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_pre, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_pre, exec_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_pre, model_id, 0x08);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_core, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_core, exec_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_core, model_id, 0x08);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_wait, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_wait, exec_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_wait, model_id, 0x08);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_post, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_post, exec_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_post, model_id, 0x08);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_model_exec, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_model_exec, exec_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_model_exec, model_id, 0x08);

/* --- the single-model_id shape (exec_id absent) --- */

/* EXECUTE_API (3) */
struct nrt_sys_trace_event_data_nrt_exec {
    uint64_t model_id;
};

/* RUNTIME_EXECUTE (4) */
struct nrt_sys_trace_event_data_runtime_exec {
    uint64_t model_id;
};

/* MODEL_LOAD (1), STOP */
struct nrt_sys_trace_event_data_model_load_stop {
    uint64_t model_id;
};

/* MODEL_SUBMIT (22) */
struct nrt_sys_trace_event_data_model_submit {
    uint64_t model_id;
};

/* CC_LOAD (5), STOP */
struct nrt_sys_trace_event_data_cc_load_stop {
    uint64_t model_id;
};

NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_nrt_exec, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nrt_exec, model_id, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_runtime_exec, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_runtime_exec, model_id, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_model_load_stop, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_model_load_stop, model_id, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_model_submit, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_model_submit, model_id, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_cc_load_stop, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_load_stop, model_id, 0x00);

/* POST_REQUEST (2) */
struct nrt_sys_trace_event_data_exec_post_request {
    uint64_t model_id;
    uint32_t request_id;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_post_request, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_post_request, model_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_post_request, request_id, 0x08);

/* CC_LOAD (5), START */
struct nrt_sys_trace_event_data_cc_load_start {
    uint32_t g_device_id;
    uint32_t g_device_count;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_cc_load_start, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_load_start, g_device_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_load_start, g_device_count, 0x04);

/* --- the device-span START/STOP pairs; each STOP is a bare sync_info --- */

/* DEVICE_EXEC (7) */
struct nrt_sys_trace_event_data_nc_exec_start {
    uint32_t device_core_idx;
    uint32_t exec_id;
    struct nrt_sys_trace_event_data_sync_info sync_info;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_nc_exec_start, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_exec_start, device_core_idx, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_exec_start, exec_id, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_exec_start, sync_info, 0x08);

/* CC_EXEC (8): one of the three 40-byte payloads that size the union. */
struct nrt_sys_trace_event_data_cc_exec_start {
    uint32_t gid;
    uint32_t op_id;
    uint32_t exec_id;
    /* 4-byte hole at +0x0c: sync_info is 8-aligned */
    struct nrt_sys_trace_event_data_sync_info sync_info;
    uint32_t algo;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_cc_exec_start, 40);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_start, gid, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_start, op_id, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_start, exec_id, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_start, sync_info, 0x10);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_start, algo, 0x20);

/* CC_EXEC_BARRIER (6) */
struct nrt_sys_trace_event_data_cc_exec_barrier_start {
    uint64_t model_id;
    uint32_t exec_id;
    struct nrt_sys_trace_event_data_sync_info sync_info;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_cc_exec_barrier_start, 32);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_barrier_start, model_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_barrier_start, exec_id, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_barrier_start, sync_info, 0x10);

/* NC_MODEL_SWITCH (26): 40 bytes, the third union-sizing payload. */
struct nrt_sys_trace_event_data_nc_model_switch_start {
    uint32_t device_core_idx;
    uint64_t model_id;
    uint64_t exec_id;
    struct nrt_sys_trace_event_data_sync_info sync_info;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_nc_model_switch_start, 40);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_model_switch_start, device_core_idx, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_model_switch_start, model_id, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_model_switch_start, exec_id, 0x10);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_model_switch_start, sync_info, 0x18);

struct nrt_sys_trace_event_data_nc_exec_stop {
    struct nrt_sys_trace_event_data_sync_info sync_info;
};

struct nrt_sys_trace_event_data_cc_exec_stop {
    struct nrt_sys_trace_event_data_sync_info sync_info;
};

struct nrt_sys_trace_event_data_cc_exec_barrier_stop {
    struct nrt_sys_trace_event_data_sync_info sync_info;
};

struct nrt_sys_trace_event_data_nc_model_switch_stop {
    struct nrt_sys_trace_event_data_sync_info sync_info;
};

NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_nc_exec_stop, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_exec_stop, sync_info, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_cc_exec_stop, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_stop, sync_info, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_cc_exec_barrier_stop, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_cc_exec_barrier_stop, sync_info, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_nc_model_switch_stop, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_nc_model_switch_stop, sync_info, 0x00);

/* --- hardware notify, numerical error, timestamp sync, model switch --- */

/* HW_NOTIFY (24). GOTCHA (spec §3): hint is a uint16 at +0x04, leaving a
 * 2-byte hole at +0x06 before custom_data. */
struct nrt_sys_trace_event_data_hw_notify {
    uint32_t device_core_idx;
    uint16_t hint;
    uint32_t custom_data;
    uint64_t exec_id;
    struct nrt_sys_trace_event_data_sync_info sync_info;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_hw_notify, 40);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hw_notify, device_core_idx, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hw_notify, hint, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hw_notify, custom_data, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hw_notify, exec_id, 0x10);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hw_notify, sync_info, 0x18);

/* NUM_ERR (13) */
struct nrt_sys_trace_event_data_num_err {
    uint32_t device_core_idx;
    uint32_t exec_id;
    struct nrt_sys_trace_event_data_sync_info sync_info;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_num_err, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_num_err, device_core_idx, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_num_err, exec_id, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_num_err, sync_info, 0x08);

/* TIMESTAMP_SYNC (25). GOTCHA (spec §3): the clock pair is inlined as flat
 * fields after exec_id; this struct does NOT embed sync_info. */
struct nrt_sys_trace_event_data_timestamp_sync {
    uint64_t exec_id;
    uint64_t nc_timestamp_ns;  /* ns, device clock */
    uint64_t cpu_timestamp_ns; /* ns, host clock */
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_timestamp_sync, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_timestamp_sync, exec_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_timestamp_sync, nc_timestamp_ns, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_timestamp_sync, cpu_timestamp_ns, 0x10);

/* MODEL_SWITCH (21) */
struct nrt_sys_trace_event_data_model_switch {
    uint32_t device_core_idx;
    uint64_t model_id;
    bool is_neuron_core_work;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_model_switch, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_model_switch, device_core_idx, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_model_switch, model_id, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_model_switch, is_neuron_core_work, 0x10);

/* ASYNC_SEMA_WAIT (23) */
struct nrt_sys_trace_event_data_async_sema_wait {
    uint64_t available_request_slots;
    bool has_work;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_async_sema_wait, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_async_sema_wait, available_request_slots, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_async_sema_wait, has_work, 0x08);

/* --- tensor lifecycle --- */

/* TENSOR_READ (9) */
struct nrt_sys_trace_event_data_exec_tensor_read {
    uint64_t tensor_id;
    uint64_t size; /* bytes */
};

/* TENSOR_WRITE (10) */
struct nrt_sys_trace_event_data_exec_tensor_write {
    uint64_t tensor_id;
    uint64_t size; /* bytes */
};

/* TENSOR_ALLOC (27) */
struct nrt_sys_trace_event_data_exec_tensor_alloc {
    uint64_t tensor_id;
    uint64_t size; /* bytes */
};

NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_tensor_read, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_read, tensor_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_read, size, 0x08);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_tensor_write, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_write, tensor_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_write, size, 0x08);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_tensor_alloc, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_alloc, tensor_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_alloc, size, 0x08);

/* TENSOR_FREE (28) */
struct nrt_sys_trace_event_data_exec_tensor_free {
    uint64_t tensor_id;
    uint64_t size; /* bytes */
    uint64_t ref_count;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_tensor_free, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_free, tensor_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_free, size, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_free, ref_count, 0x10);

/* TENSOR_BLOCK_WHILE_EXEC (29) */
struct nrt_sys_trace_event_data_exec_tensor_block {
    uint64_t tensor_id;
    uint64_t pending_reader_count;
    uint64_t pending_writer_count;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_tensor_block, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_block, tensor_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_block, pending_reader_count, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_block, pending_writer_count, 0x10);

/* TENSOR_READ_BATCH (11), TENSOR_WRITE_BATCH (12): the smallest payload. */
struct nrt_sys_trace_event_data_exec_tensor_read_batch {
    uint32_t num_batches;
};
struct nrt_sys_trace_event_data_exec_tensor_write_batch {
    uint32_t num_batches;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_tensor_read_batch, 4);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_read_batch, num_batches, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_exec_tensor_write_batch, 4);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_exec_tensor_write_batch, num_batches, 0x00);

/* --- device-memory buffer copies --- */

/* DMEM_BUF_COPYIN (30) */
struct nrt_sys_trace_event_data_dmem_buf_copyin {
    uint8_t mem_type;
    uint64_t mem_handle;
    uint32_t offset; /* bytes */
    uint32_t size;   /* bytes */
};

/* DMEM_BUF_COPYOUT (31) */
struct nrt_sys_trace_event_data_dmem_buf_copyout {
    uint8_t mem_type;
    uint64_t mem_handle;
    uint32_t offset; /* bytes */
    uint32_t size;   /* bytes */
};

NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dmem_buf_copyin, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyin, mem_type, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyin, mem_handle, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyin, offset, 0x10);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyin, size, 0x14);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dmem_buf_copyout, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyout, mem_type, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyout, mem_handle, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyout, offset, 0x10);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_copyout, size, 0x14);

/* DMEM_BUF_BATCH_COPYIN (32) */
struct nrt_sys_trace_event_data_dmem_buf_batch_copyin {
    uint8_t mem_type;
    uint32_t num_batches;
    uint32_t total_num_ops;
    uint64_t total_size; /* bytes */
};

/* DMEM_BUF_BATCH_COPYOUT (33) */
struct nrt_sys_trace_event_data_dmem_buf_batch_copyout {
    uint8_t mem_type;
    uint32_t num_batches;
    uint32_t total_num_ops;
    uint64_t total_size; /* bytes */
};

NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dmem_buf_batch_copyin, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyin, mem_type, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyin, num_batches, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyin, total_num_ops, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyin, total_size, 0x10);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dmem_buf_batch_copyout, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyout, mem_type, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyout, num_batches, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyout, total_num_ops, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dmem_buf_batch_copyout, total_size, 0x10);

/* --- encode barriers (types 14..16); peer_id and nec_dev_id are signed int --- */

struct nrt_sys_trace_event_data_enc_barrier_recv {
    int peer_id;
    uint64_t exec_id;
    int nec_dev_id;
};

struct nrt_sys_trace_event_data_enc_barrier_send {
    int peer_id;
    uint64_t exec_id;
    int nec_dev_id;
};

struct nrt_sys_trace_event_data_enc_barrier {
    int peer_id;
    uint64_t exec_id;
    int nec_dev_id;
};

NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_enc_barrier_recv, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier_recv, peer_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier_recv, exec_id, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier_recv, nec_dev_id, 0x10);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_enc_barrier_send, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier_send, peer_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier_send, exec_id, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier_send, nec_dev_id, 0x10);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_enc_barrier, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier, peer_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier, exec_id, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_enc_barrier, nec_dev_id, 0x10);

/* --- DMA memory alloc/dealloc: START carries the intent, STOP the result --- */

/* DMA_MEM_ALLOC (34), START */
struct nrt_sys_trace_event_data_dma_mem_alloc_start {
    uint32_t hbm_idx;
    dma_mem_usage_type_t usage_type;
    bool is_nc_hbm;
    bool is_aligned;
    uint32_t mla_idx;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dma_mem_alloc_start, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_start, hbm_idx, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_start, usage_type, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_start, is_nc_hbm, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_start, is_aligned, 0x09);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_start, mla_idx, 0x0c);

/* DMA_MEM_ALLOC (34), STOP: 40 bytes */
struct nrt_sys_trace_event_data_dma_mem_alloc_stop {
    uint64_t allocated_bytes;
    uint64_t physical_address;
    uint64_t return_code;
    uint64_t usage_type_total_bytes; /* running total for this usage_type */
    uint64_t total_bytes;            /* running total, all usage types */
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dma_mem_alloc_stop, 40);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_stop, allocated_bytes, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_stop, physical_address, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_stop, return_code, 0x10);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_stop, usage_type_total_bytes, 0x18);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_alloc_stop, total_bytes, 0x20);

/* DMA_MEM_DEALLOC (35), START */
struct nrt_sys_trace_event_data_dma_mem_dealloc_start {
    uint32_t hbm_idx;
    bool is_nc_hbm;
    uint32_t mla_idx;
    dma_mem_usage_type_t usage_type;
    uint64_t physical_address;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dma_mem_dealloc_start, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_start, hbm_idx, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_start, is_nc_hbm, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_start, mla_idx, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_start, usage_type, 0x0c);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_start, physical_address, 0x10);

/* DMA_MEM_DEALLOC (35), STOP */
struct nrt_sys_trace_event_data_dma_mem_dealloc_stop {
    uint64_t freed_bytes;
    uint64_t usage_type_total_bytes;
    uint64_t total_bytes;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_dma_mem_dealloc_stop, 24);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_stop, freed_bytes, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_stop, usage_type_total_bytes, 0x08);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_dma_mem_dealloc_stop, total_bytes, 0x10);

/* --- host collectives (types 40..45) --- */

/* CC_PREPARE (40) */
struct nrt_sys_trace_event_data_hostcc_prepare {
    uint32_t ctx_device_id;
    uint32_t ctx_device_count;
    uint32_t cc_op;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_hostcc_prepare, 12);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_prepare, ctx_device_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_prepare, ctx_device_count, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_prepare, cc_op, 0x08);

/* CC_SCHEDULE (41), HOSTCC_BUILD_CONTEXT (42) */
struct nrt_sys_trace_event_data_hostcc_schedule {
    uint32_t ctx_device_id;
    uint32_t ctx_device_count;
};
struct nrt_sys_trace_event_data_hostcc_build_ctx {
    uint32_t ctx_device_id;
    uint32_t ctx_device_count;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_hostcc_schedule, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_schedule, ctx_device_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_schedule, ctx_device_count, 0x04);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_hostcc_build_ctx, 8);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_build_ctx, ctx_device_id, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_build_ctx, ctx_device_count, 0x04);

/* HOSTCC_LOAD (43) */
struct nrt_sys_trace_event_data_hostcc_load {
    uint32_t enc_op;
    uint32_t dtype;
    uint64_t num_elem;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_hostcc_load, 16);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_load, enc_op, 0x00);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_load, dtype, 0x04);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_load, num_elem, 0x08);

/* HOSTCC_EXEC (44), HOSTCC_WAIT (45). The spec gives size 4 and no C type;
 * uint32 is our reading (D-HOSTCC-U32). */
struct nrt_sys_trace_event_data_hostcc_exec {
    uint32_t stream_id;
};
struct nrt_sys_trace_event_data_hostcc_wait {
    uint32_t total_notif_expected;
};
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_hostcc_exec, 4);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_exec, stream_id, 0x00);
NTSIM_ABI_SIZE(struct nrt_sys_trace_event_data_hostcc_wait, 4);
NTSIM_ABI_OFFSET(struct nrt_sys_trace_event_data_hostcc_wait, total_notif_expected, 0x00);

/* ------------------------------------------------------------------------ */
/* The 40-byte union: the payload structs as alternative views of record    */
/* +0x30. Each member is named by its struct's suffix.                       */
/* ------------------------------------------------------------------------ */

typedef union nrt_sys_trace_event_data {
    struct nrt_sys_trace_event_data_exec_pre exec_pre;
    struct nrt_sys_trace_event_data_exec_core exec_core;
    struct nrt_sys_trace_event_data_exec_wait exec_wait;
    struct nrt_sys_trace_event_data_exec_post exec_post;
    struct nrt_sys_trace_event_data_model_exec model_exec;
    struct nrt_sys_trace_event_data_nrt_exec nrt_exec;
    struct nrt_sys_trace_event_data_runtime_exec runtime_exec;
    struct nrt_sys_trace_event_data_model_load_stop model_load_stop;
    struct nrt_sys_trace_event_data_model_submit model_submit;
    struct nrt_sys_trace_event_data_cc_load_stop cc_load_stop;
    struct nrt_sys_trace_event_data_exec_post_request exec_post_request;
    struct nrt_sys_trace_event_data_cc_load_start cc_load_start;
    struct nrt_sys_trace_event_data_nc_exec_start nc_exec_start;
    struct nrt_sys_trace_event_data_nc_exec_stop nc_exec_stop;
    struct nrt_sys_trace_event_data_cc_exec_start cc_exec_start;
    struct nrt_sys_trace_event_data_cc_exec_stop cc_exec_stop;
    struct nrt_sys_trace_event_data_cc_exec_barrier_start cc_exec_barrier_start;
    struct nrt_sys_trace_event_data_cc_exec_barrier_stop cc_exec_barrier_stop;
    struct nrt_sys_trace_event_data_nc_model_switch_start nc_model_switch_start;
    struct nrt_sys_trace_event_data_nc_model_switch_stop nc_model_switch_stop;
    struct nrt_sys_trace_event_data_hw_notify hw_notify;
    struct nrt_sys_trace_event_data_num_err num_err;
    struct nrt_sys_trace_event_data_timestamp_sync timestamp_sync;
    struct nrt_sys_trace_event_data_model_switch model_switch;
    struct nrt_sys_trace_event_data_async_sema_wait async_sema_wait;
    struct nrt_sys_trace_event_data_exec_tensor_read exec_tensor_read;
    struct nrt_sys_trace_event_data_exec_tensor_write exec_tensor_write;
    struct nrt_sys_trace_event_data_exec_tensor_alloc exec_tensor_alloc;
    struct nrt_sys_trace_event_data_exec_tensor_free exec_tensor_free;
    struct nrt_sys_trace_event_data_exec_tensor_block exec_tensor_block;
    struct nrt_sys_trace_event_data_exec_tensor_read_batch exec_tensor_read_batch;
    struct nrt_sys_trace_event_data_exec_tensor_write_batch exec_tensor_write_batch;
    struct nrt_sys_trace_event_data_dmem_buf_copyin dmem_buf_copyin;
    struct nrt_sys_trace_event_data_dmem_buf_copyout dmem_buf_copyout;
    struct nrt_sys_trace_event_data_dmem_buf_batch_copyin dmem_buf_batch_copyin;
    struct nrt_sys_trace_event_data_dmem_buf_batch_copyout dmem_buf_batch_copyout;
    struct nrt_sys_trace_event_data_enc_barrier_recv enc_barrier_recv;
    struct nrt_sys_trace_event_data_enc_barrier_send enc_barrier_send;
    struct nrt_sys_trace_event_data_enc_barrier enc_barrier;
    struct nrt_sys_trace_event_data_dma_mem_alloc_start dma_mem_alloc_start;
    struct nrt_sys_trace_event_data_dma_mem_alloc_stop dma_mem_alloc_stop;
    struct nrt_sys_trace_event_data_dma_mem_dealloc_start dma_mem_dealloc_start;
    struct nrt_sys_trace_event_data_dma_mem_dealloc_stop dma_mem_dealloc_stop;
    struct nrt_sys_trace_event_data_hostcc_prepare hostcc_prepare;
    struct nrt_sys_trace_event_data_hostcc_schedule hostcc_schedule;
    struct nrt_sys_trace_event_data_hostcc_build_ctx hostcc_build_ctx;
    struct nrt_sys_trace_event_data_hostcc_load hostcc_load;
    struct nrt_sys_trace_event_data_hostcc_exec hostcc_exec;
    struct nrt_sys_trace_event_data_hostcc_wait hostcc_wait;
} nrt_sys_trace_event_data_t;
/* Sized by its largest members (cc_exec_start, hw_notify,
 * nc_model_switch_start, dma_mem_alloc_stop: 40 each). Any other size
 * desyncs the 112-byte record stride (spec §1 NOTE). */
NTSIM_ABI_SIZE(nrt_sys_trace_event_data_t, 40);

#endif /* NRT_NRT_SYS_TRACE_EVENT_DATA_H */
