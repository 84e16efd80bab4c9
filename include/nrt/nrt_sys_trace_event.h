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
 *   struct nrt_sys_trace_event_data_*  every payload struct (spec §3), and
 *   nrt_sys_trace_event_data_t         the 40-byte union of them: both in
 *                                      nrt/nrt_sys_trace_event_data.h, which
 *                                      this header includes (never on its own)
 *   struct nrt_sys_trace_event         the 112-byte record (spec §1)
 * Including this header gives all of it, as libnrt's header of this name does;
 * the payload structs have a file of their own only to keep each file short
 * (D-EVENT-HEADER).
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

/* The payload structs and their union (spec §3): nrt/nrt_sys_trace_event_data.h
 * needs the macros and types above, so it is included here, inside extern "C". */
#include "nrt/nrt_sys_trace_event_data.h"

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
