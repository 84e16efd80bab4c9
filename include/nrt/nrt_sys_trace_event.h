/*
 * nrt/nrt_sys_trace_event.h: the sys_trace record ABI, byte for byte.
 *
 * Source: ../shared/spec/sys_trace_taxonomy.txt (libnrt 2.31.24.0, DWARF
 * enums.json / structures.json), sections cited as "spec §N", and
 * ../shared/spec/companion_facts.md, cited as "facts §N". Every identifier that
 * the spec spells is spelled the same here, so that grepping the spec's name
 * lands on its definition. Names the spec does not give are ours and are listed
 * in docs/decisions.md (D-NAMES).
 *
 * What is here:
 *   enum nrt_sys_trace_event_type      the 46-variant discriminant (spec §1, §2)
 *   nrt_sys_trace_event_phase_t        START 0 / STOP 1 / INSTANT 2
 *   nrt_sys_trace_event_category_t     UNKNOWN / HARDWARE / SOFTWARE (facts §1)
 *   dma_mem_usage_type_t               the 23-member alloc class (spec §3)
 *   struct nrt_sys_trace_event_data_*  every payload struct (spec §3)
 *   nrt_sys_trace_event_data_t         the 40-byte union of them
 *   struct nrt_sys_trace_event         the 112-byte record (spec §1)
 *
 * Which union member a record's data holds is chosen by (trace_type, phase)
 * jointly, never by trace_type alone (spec §3 NOTE). That choice is made in
 * one table, engine/event_table.c; every reader of a record goes through it.
 *
 * Every size and every offset the spec gives is a compile-time assertion below
 * its struct, and again a layout vector (vectors/layout_*.yaml) that the
 * conformance suite checks at run time. Building with -DNTSIM_NO_ABI_ASSERTS
 * turns the compile-time half off; only the mutation test does that, to prove
 * the run-time half catches the same change.
 */
#ifndef NRT_NRT_SYS_TRACE_EVENT_H
#define NRT_NRT_SYS_TRACE_EVENT_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NTSIM_NO_ABI_ASSERTS)
#define NTSIM_ABI_ASSERT(expr, msg) struct ntsim_abi_assert_off_
#elif defined(__cplusplus)
#define NTSIM_ABI_ASSERT(expr, msg) static_assert(expr, msg)
#else
#define NTSIM_ABI_ASSERT(expr, msg) _Static_assert(expr, msg)
#endif

/* sizeof(T) == n, and the offset of T.f == off; T is a complete type name. */
#define NTSIM_ABI_SIZE(T, n) NTSIM_ABI_ASSERT(sizeof(T) == (n), #T " must be " #n " bytes")
#define NTSIM_ABI_OFFSET(T, f, off) \
    NTSIM_ABI_ASSERT(offsetof(T, f) == (off), #T "." #f " must be at offset " #off)

/* ------------------------------------------------------------------------ */
/* spec §1, §2: the discriminant. 4 bytes, dense 0..45, COUNT = 46.          */
/* ------------------------------------------------------------------------ */

typedef enum nrt_sys_trace_event_type {
    NRT_SYS_TRACE_EVENT_TYPE_GENERIC                          = 0,
    NRT_SYS_TRACE_EVENT_TYPE_MODEL_LOAD                       = 1,
    NRT_SYS_TRACE_EVENT_TYPE_POST_REQUEST                     = 2,
    NRT_SYS_TRACE_EVENT_TYPE_EXECUTE_API                      = 3,
    NRT_SYS_TRACE_EVENT_TYPE_RUNTIME_EXECUTE                  = 4,
    NRT_SYS_TRACE_EVENT_TYPE_CC_LOAD                          = 5,
    NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC_BARRIER                  = 6,
    NRT_SYS_TRACE_EVENT_TYPE_DEVICE_EXEC                      = 7,
    NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC                          = 8,
    NRT_SYS_TRACE_EVENT_TYPE_TENSOR_READ                      = 9,
    NRT_SYS_TRACE_EVENT_TYPE_TENSOR_WRITE                     = 10,
    NRT_SYS_TRACE_EVENT_TYPE_TENSOR_READ_BATCH                = 11,
    NRT_SYS_TRACE_EVENT_TYPE_TENSOR_WRITE_BATCH               = 12,
    NRT_SYS_TRACE_EVENT_TYPE_NUM_ERR                          = 13,
    NRT_SYS_TRACE_EVENT_TYPE_ENC_BARRIER_RECV                 = 14,
    NRT_SYS_TRACE_EVENT_TYPE_ENC_BARRIER_SEND                 = 15,
    NRT_SYS_TRACE_EVENT_TYPE_ENC_BARRIER                      = 16,
    NRT_SYS_TRACE_EVENT_TYPE_EXEC_PRE                         = 17,
    NRT_SYS_TRACE_EVENT_TYPE_EXEC_CORE                        = 18,
    NRT_SYS_TRACE_EVENT_TYPE_EXEC_WAIT                        = 19,
    NRT_SYS_TRACE_EVENT_TYPE_EXEC_POST                        = 20,
    NRT_SYS_TRACE_EVENT_TYPE_MODEL_SWITCH                     = 21,
    NRT_SYS_TRACE_EVENT_TYPE_MODEL_SUBMIT                     = 22,
    NRT_SYS_TRACE_EVENT_TYPE_ASYNC_SEMA_WAIT                  = 23,
    NRT_SYS_TRACE_EVENT_TYPE_HW_NOTIFY                        = 24,
    NRT_SYS_TRACE_EVENT_TYPE_TIMESTAMP_SYNC                   = 25,
    NRT_SYS_TRACE_EVENT_TYPE_NC_MODEL_SWITCH                  = 26,
    NRT_SYS_TRACE_EVENT_TYPE_TENSOR_ALLOC                     = 27,
    NRT_SYS_TRACE_EVENT_TYPE_TENSOR_FREE                      = 28,
    NRT_SYS_TRACE_EVENT_TYPE_TENSOR_BLOCK_WHILE_EXEC          = 29,
    NRT_SYS_TRACE_EVENT_TYPE_DMEM_BUF_COPYIN                  = 30,
    NRT_SYS_TRACE_EVENT_TYPE_DMEM_BUF_COPYOUT                 = 31,
    NRT_SYS_TRACE_EVENT_TYPE_DMEM_BUF_BATCH_COPYIN            = 32,
    NRT_SYS_TRACE_EVENT_TYPE_DMEM_BUF_BATCH_COPYOUT           = 33,
    NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_ALLOC                    = 34,
    NRT_SYS_TRACE_EVENT_TYPE_DMA_MEM_DEALLOC                  = 35,
    NRT_SYS_TRACE_EVENT_TYPE_CONSUME_TPB_STATUS_NOTIFICATIONS = 36,
    NRT_SYS_TRACE_EVENT_TYPE_CONSUME_TOPSP_CC_NOTIFICATIONS   = 37,
    NRT_SYS_TRACE_EVENT_TYPE_CONSUME_ERROR_NOTIFICATIONS      = 38,
    NRT_SYS_TRACE_EVENT_TYPE_CONSUME_POOL_STDIO               = 39,
    NRT_SYS_TRACE_EVENT_TYPE_CC_PREPARE                       = 40,
    NRT_SYS_TRACE_EVENT_TYPE_CC_SCHEDULE                      = 41,
    NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_BUILD_CONTEXT             = 42,
    NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_LOAD                      = 43,
    NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_EXEC                      = 44,
    NRT_SYS_TRACE_EVENT_TYPE_HOSTCC_WAIT                      = 45,
    /* Sentinel: the array bound of capture_enabled_for_event_type (spec §1). */
    NRT_SYS_TRACE_EVENT_TYPE_COUNT                            = 46
} nrt_sys_trace_event_type_t;
NTSIM_ABI_SIZE(nrt_sys_trace_event_type_t, 4);

/* facts §1: 0 START, 1 STOP, 2 INSTANT, 3 COUNT. 4 bytes at record +0x58. */
typedef enum nrt_sys_trace_event_phase {
    NRT_SYS_TRACE_EVENT_PHASE_START   = 0,
    NRT_SYS_TRACE_EVENT_PHASE_STOP    = 1,
    NRT_SYS_TRACE_EVENT_PHASE_INSTANT = 2,
    NRT_SYS_TRACE_EVENT_PHASE_COUNT   = 3
} nrt_sys_trace_event_phase_t;
NTSIM_ABI_SIZE(nrt_sys_trace_event_phase_t, 4);

/* facts §1: HARDWARE = {6,7,8,13,24,25,26}, every other type < 46 SOFTWARE,
 * anything else UNKNOWN. The per-type value lives in engine/event_table.c. */
typedef enum nrt_sys_trace_event_category {
    NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN  = 0,
    NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE = 1,
    NRT_SYS_TRACE_EVENT_CATEGORY_SOFTWARE = 2,
    NRT_SYS_TRACE_EVENT_CATEGORY_COUNT    = 3
} nrt_sys_trace_event_category_t;
NTSIM_ABI_SIZE(nrt_sys_trace_event_category_t, 4);

/* spec §3, facts §1: the DMA allocation class carried by the dma_mem_*
 * payloads. Not the NTFF memory_usage_type: do not conflate the two. */
typedef enum dma_mem_usage_type {
    DMA_MEM_USAGE_TYPE_GENERIC               = 0,
    DMA_MEM_USAGE_TYPE_INSTR_PE              = 1,
    DMA_MEM_USAGE_TYPE_INSTR_ACT             = 2,
    DMA_MEM_USAGE_TYPE_INSTR_POOL            = 3,
    DMA_MEM_USAGE_TYPE_IO                    = 4,
    DMA_MEM_USAGE_TYPE_DRAM_SPILL            = 5,
    DMA_MEM_USAGE_TYPE_WEIGHT                = 6,
    DMA_MEM_USAGE_TYPE_NOTIFICATION          = 7,
    DMA_MEM_USAGE_TYPE_ACT_TABLE             = 8,
    DMA_MEM_USAGE_TYPE_INSTR_DVE             = 9,
    DMA_MEM_USAGE_TYPE_INSTR_SP              = 10,
    DMA_MEM_USAGE_TYPE_SCRATCHPAD            = 11,
    DMA_MEM_USAGE_TYPE_TENSOR                = 12,
    DMA_MEM_USAGE_TYPE_UCODE_LIB             = 13,
    DMA_MEM_USAGE_TYPE_POOL_STDIO            = 14,
    DMA_MEM_USAGE_TYPE_CC                    = 15,
    DMA_MEM_USAGE_TYPE_SCRATCHPAD_NOT_SHARED = 16,
    DMA_MEM_USAGE_TYPE_XT_CC                 = 17,
    DMA_MEM_USAGE_TYPE_DMA_RING              = 18,
    DMA_MEM_USAGE_TYPE_DMA_RING_SPILL        = 19,
    DMA_MEM_USAGE_TYPE_DMA_RING_IO           = 20,
    DMA_MEM_USAGE_TYPE_DMA_RING_COLLECTIVES  = 21,
    DMA_MEM_USAGE_TYPE_MAX                   = 22
} dma_mem_usage_type_t;
NTSIM_ABI_SIZE(dma_mem_usage_type_t, 4);

/* The runtime async sequence id carried at record +0x60. */
typedef uint64_t nrta_seq_t;

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

/* ------------------------------------------------------------------------ */
/* spec §1: the 112-byte record. Rings store these at a 112-byte stride.     */
/* ------------------------------------------------------------------------ */

typedef struct nrt_sys_trace_event {
    nrt_sys_trace_event_type_t trace_type; /* the discriminant; 4-byte hole follows */
    uint64_t thread_id;                    /* cached gettid of the emitting thread */
    uint64_t id;                           /* event id */
    uint64_t nc_local_id;                  /* per-NC local id */
    uint64_t tracking_id;                  /* caller's id, else seq | (nc_idx << 50) */
    uint64_t timestamp_ns;                 /* ns, host clock (CLOCK_REALTIME) at emit */
    nrt_sys_trace_event_data_t data;       /* member chosen by (trace_type, phase) */
    nrt_sys_trace_event_phase_t phase;     /* START 0 / STOP 1 / INSTANT 2 */
    uint32_t nc_idx;                       /* NeuronCore index, 0..255 */
    nrta_seq_t nrta_seq_id;                /* meaningful only if has_nrta_seq_id */
    bool has_nrta_seq_id;                  /* 7 bytes of tail padding follow */
} nrt_sys_trace_event_t;
NTSIM_ABI_SIZE(nrt_sys_trace_event_t, 112);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, trace_type, 0x00);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, thread_id, 0x08);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, id, 0x10);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, nc_local_id, 0x18);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, tracking_id, 0x20);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, timestamp_ns, 0x28);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, data, 0x30);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, phase, 0x58);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, nc_idx, 0x5c);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, nrta_seq_id, 0x60);
NTSIM_ABI_OFFSET(nrt_sys_trace_event_t, has_nrta_seq_id, 0x68);

#ifdef __cplusplus
}
#endif

#endif /* NRT_NRT_SYS_TRACE_EVENT_H */
