/*
 * conformance/lib/abi_registry.c: the compiled ABI, as data for the runners.
 *
 * Payload structs and the union come from engine/event_table.c (which is
 * itself compiled with offsetof), so the layout vectors check the table that
 * the engine and the converters use, not a second copy of it. The record, the
 * config, the fetch options and every enum are listed here.
 *
 * The registry is immutable after the first call (built under a C11 once
 * flag), so forked or threaded tests may read it freely.
 */
#include "abi_registry.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>

#include "event_table.h"
#include "nrt/nrt_profile_notification.h"
#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace.h"

/* --- aggregates ------------------------------------------------------------- */

/* The spec's type word for a field whose C type _Generic can tell apart.
 * Enum-typed and typedef-named fields give their type explicitly (FT). */
#define TYPE_WORD_(expr)                                                   \
    _Generic((expr),                                                       \
        uint8_t: "uint8",                                                  \
        uint16_t: "uint16",                                                \
        uint32_t: "uint32",                                                \
        uint64_t: "uint64",                                                \
        int: "int",                                                        \
        bool: "bool",                                                      \
        nrt_sys_trace_event_data_t: "nrt_sys_trace_event_data_t",         \
        struct nrt_sys_trace_event_data_sync_info: "sync_info")

#define FIELD_(T, f) (((T *)0)->f)
#define F(T, f) {#f, offsetof(T, f), sizeof(FIELD_(T, f)), TYPE_WORD_(FIELD_(T, f))}
#define FT(T, f, type) {#f, offsetof(T, f), sizeof(FIELD_(T, f)), type}
#define LEN_(a) (sizeof(a) / sizeof((a)[0]))

static const ntsim_abi_field_t record_fields[] = {
    FT(nrt_sys_trace_event_t, trace_type, "nrt_sys_trace_event_type_t"),
    F(nrt_sys_trace_event_t, thread_id),
    F(nrt_sys_trace_event_t, id),
    F(nrt_sys_trace_event_t, nc_local_id),
    F(nrt_sys_trace_event_t, tracking_id),
    F(nrt_sys_trace_event_t, timestamp_ns),
    F(nrt_sys_trace_event_t, data),
    FT(nrt_sys_trace_event_t, phase, "nrt_sys_trace_event_phase_t"),
    F(nrt_sys_trace_event_t, nc_idx),
    FT(nrt_sys_trace_event_t, nrta_seq_id, "nrta_seq_t"),
    F(nrt_sys_trace_event_t, has_nrta_seq_id),
};

/* The arrays' type words ("bool[256]", "bool[46]") are written from the
 * compiled bounds in registry_build. */
static char config_nc_type[32], config_type_type[32];
static ntsim_abi_field_t config_fields[] = {
    F(nrt_sys_trace_config_t, max_events_per_nc),
    FT(nrt_sys_trace_config_t, capture_enabled_for_nc, config_nc_type),
    FT(nrt_sys_trace_config_t, capture_enabled_for_event_type, config_type_type),
};

static const ntsim_abi_field_t fetch_options_fields[] = {
    F(nrt_sys_trace_fetch_options_t, max_events_per_nc),
    F(nrt_sys_trace_fetch_options_t, nc_idx),
};

enum {
    FIXED_AGGREGATES = 5, /* record, union, sync_info, config, fetch options */
    AGGREGATE_COUNT = FIXED_AGGREGATES + NTSIM_PAYLOAD_COUNT - 1,
    MAX_PAYLOAD_FIELDS = 8
};

static ntsim_abi_aggregate_t aggregates[AGGREGATE_COUNT];
static ntsim_abi_field_t union_fields[NTSIM_PAYLOAD_COUNT - 1];
static ntsim_abi_field_t sync_info_fields[2];
static ntsim_abi_field_t payload_fields[NTSIM_PAYLOAD_COUNT][MAX_PAYLOAD_FIELDS];
static once_flag registry_once = ONCE_FLAG_INIT;

static ntsim_abi_field_t from_desc(const ntsim_field_desc_t *d)
{
    ntsim_abi_field_t f = {d->name, d->offset, d->size, ntsim__field_kind_name(d->kind)};
    return f;
}

static void registry_build(void)
{
    size_t n = 0;
    snprintf(config_nc_type, sizeof config_nc_type, "bool[%zu]",
             sizeof(((nrt_sys_trace_config_t *)0)->capture_enabled_for_nc));
    snprintf(config_type_type, sizeof config_type_type, "bool[%zu]",
             sizeof(((nrt_sys_trace_config_t *)0)->capture_enabled_for_event_type));
    aggregates[n++] = (ntsim_abi_aggregate_t){"nrt_sys_trace_event_t", sizeof(nrt_sys_trace_event_t),
                                              record_fields, LEN_(record_fields)};
    for (size_t p = 1; p < NTSIM_PAYLOAD_COUNT; p++)
        union_fields[p - 1] = (ntsim_abi_field_t){ntsim__payloads[p].member,
                                                  ntsim__payloads[p].union_offset,
                                                  ntsim__payloads[p].size, ntsim__payloads[p].c_type};
    aggregates[n++] = (ntsim_abi_aggregate_t){"nrt_sys_trace_event_data_t",
                                              sizeof(nrt_sys_trace_event_data_t), union_fields,
                                              LEN_(union_fields)};
    for (size_t i = 0; i < 2; i++)
        sync_info_fields[i] = from_desc(&ntsim__sync_info_fields[i]);
    aggregates[n++] = (ntsim_abi_aggregate_t){"struct nrt_sys_trace_event_data_sync_info",
                                              sizeof(struct nrt_sys_trace_event_data_sync_info),
                                              sync_info_fields, 2};
    aggregates[n++] = (ntsim_abi_aggregate_t){"nrt_sys_trace_config_t",
                                              sizeof(nrt_sys_trace_config_t), config_fields,
                                              LEN_(config_fields)};
    aggregates[n++] = (ntsim_abi_aggregate_t){"nrt_sys_trace_fetch_options_t",
                                              sizeof(nrt_sys_trace_fetch_options_t),
                                              fetch_options_fields, LEN_(fetch_options_fields)};
    for (size_t p = 1; p < NTSIM_PAYLOAD_COUNT; p++) {
        const ntsim_payload_desc_t *d = &ntsim__payloads[p];
        size_t count = d->field_count < MAX_PAYLOAD_FIELDS ? d->field_count : MAX_PAYLOAD_FIELDS;
        for (size_t i = 0; i < count; i++)
            payload_fields[p][i] = from_desc(&d->fields[i]);
        aggregates[n++] = (ntsim_abi_aggregate_t){d->c_type, d->size, payload_fields[p], count};
    }
}

_Static_assert(FIXED_AGGREGATES + NTSIM_PAYLOAD_COUNT - 1 == AGGREGATE_COUNT, "registry size");

size_t ntsim_abi_aggregate_count(void)
{
    call_once(&registry_once, registry_build);
    return AGGREGATE_COUNT;
}

const ntsim_abi_aggregate_t *ntsim_abi_aggregate_at(size_t i)
{
    call_once(&registry_once, registry_build);
    return i < AGGREGATE_COUNT ? &aggregates[i] : NULL;
}

const ntsim_abi_aggregate_t *ntsim_abi_aggregate_find(const char *c_type)
{
    call_once(&registry_once, registry_build);
    for (size_t i = 0; i < AGGREGATE_COUNT; i++)
        if (strcmp(aggregates[i].c_type, c_type) == 0)
            return &aggregates[i];
    return NULL;
}

/* --- enums -------------------------------------------------------------------- */

#define M(name) {#name, (int64_t)(name)}

static ntsim_abi_enum_member_t event_type_members[NRT_SYS_TRACE_EVENT_TYPE_COUNT + 1];

static const ntsim_abi_enum_member_t phase_members[] = {
    M(NRT_SYS_TRACE_EVENT_PHASE_START), M(NRT_SYS_TRACE_EVENT_PHASE_STOP),
    M(NRT_SYS_TRACE_EVENT_PHASE_INSTANT), M(NRT_SYS_TRACE_EVENT_PHASE_COUNT),
};

static const ntsim_abi_enum_member_t category_members[] = {
    M(NRT_SYS_TRACE_EVENT_CATEGORY_UNKNOWN), M(NRT_SYS_TRACE_EVENT_CATEGORY_HARDWARE),
    M(NRT_SYS_TRACE_EVENT_CATEGORY_SOFTWARE), M(NRT_SYS_TRACE_EVENT_CATEGORY_COUNT),
};

static const ntsim_abi_enum_member_t usage_members[] = {
    M(DMA_MEM_USAGE_TYPE_GENERIC),        M(DMA_MEM_USAGE_TYPE_INSTR_PE),
    M(DMA_MEM_USAGE_TYPE_INSTR_ACT),      M(DMA_MEM_USAGE_TYPE_INSTR_POOL),
    M(DMA_MEM_USAGE_TYPE_IO),             M(DMA_MEM_USAGE_TYPE_DRAM_SPILL),
    M(DMA_MEM_USAGE_TYPE_WEIGHT),         M(DMA_MEM_USAGE_TYPE_NOTIFICATION),
    M(DMA_MEM_USAGE_TYPE_ACT_TABLE),      M(DMA_MEM_USAGE_TYPE_INSTR_DVE),
    M(DMA_MEM_USAGE_TYPE_INSTR_SP),       M(DMA_MEM_USAGE_TYPE_SCRATCHPAD),
    M(DMA_MEM_USAGE_TYPE_TENSOR),         M(DMA_MEM_USAGE_TYPE_UCODE_LIB),
    M(DMA_MEM_USAGE_TYPE_POOL_STDIO),     M(DMA_MEM_USAGE_TYPE_CC),
    M(DMA_MEM_USAGE_TYPE_SCRATCHPAD_NOT_SHARED), M(DMA_MEM_USAGE_TYPE_XT_CC),
    M(DMA_MEM_USAGE_TYPE_DMA_RING),       M(DMA_MEM_USAGE_TYPE_DMA_RING_SPILL),
    M(DMA_MEM_USAGE_TYPE_DMA_RING_IO),    M(DMA_MEM_USAGE_TYPE_DMA_RING_COLLECTIVES),
    M(DMA_MEM_USAGE_TYPE_MAX),
};

static const ntsim_abi_enum_member_t notification_type_members[] = {
    M(NOTIFICATION_TYPE_TRACE),        M(NOTIFICATION_TYPE_EVENT),
    M(NOTIFICATION_TYPE_ERROR),        M(NOTIFICATION_TYPE_INFER_STATUS),
    M(NOTIFICATION_TYPE_DMA),          M(NOTIFICATION_TYPE_THROTTLE),
    M(NOTIFICATION_TYPE_TOPSP_TRACE),  M(NOTIFICATION_TYPE_TOPSP_EVENT),
    M(NOTIFICATION_TYPE_TOPSP_ERROR),  M(NOTIFICATION_TYPE_TOPSP_CC_STATUS),
    M(NOTIFICATION_TYPE_MAX),
};

static const ntsim_abi_enum_member_t trace_type_members[] = {
    M(NOTIFICATION_TRACE_TYPE_INSTRUCTION), M(NOTIFICATION_TRACE_TYPE_EVENT),
    M(NOTIFICATION_TRACE_TYPE_ERROR),       M(NOTIFICATION_TRACE_TYPE_EXPLICIT),
    M(NOTIFICATION_TRACE_TYPE_DMA),         M(NOTIFICATION_TRACE_TYPE_THROTTLE),
    M(NOTIFICATION_TRACE_TYPE_INT_MIN_SENTINEL_DO_NOT_USE_),
    M(NOTIFICATION_TRACE_TYPE_INT_MAX_SENTINEL_DO_NOT_USE_),
};

static const ntsim_abi_enum_member_t block_type_members[] = {
    M(BLOCK_TYPE_NC), M(BLOCK_TYPE_DMA), M(BLOCK_TYPE_TOPSP),
    M(BLOCK_TYPE_INT_MIN_SENTINEL_DO_NOT_USE_), M(BLOCK_TYPE_INT_MAX_SENTINEL_DO_NOT_USE_),
};

static const ntsim_abi_enum_member_t status_members[] = {
    M(NRT_SUCCESS),                 M(NRT_FAILURE),
    M(NRT_INVALID),                 M(NRT_INVALID_HANDLE),
    M(NRT_RESOURCE),                M(NRT_TIMEOUT),
    M(NRT_HW_ERROR),                M(NRT_QUEUE_FULL),
    M(NRT_LOAD_NOT_ENOUGH_NC),      M(NRT_UNSUPPORTED_NEFF_VERSION),
    M(NRT_FAIL_HOST_MEM_ALLOC),     M(NRT_UNINITIALIZED),
    M(NRT_CLOSED),                  M(NRT_QUEUE_EMPTY),
    M(NRT_EXEC_UNIT_UNRECOVERABLE), M(NRT_EXEC_BAD_INPUT),
    M(NRT_EXEC_COMPLETED_WITH_NUM_ERR), M(NRT_EXEC_COMPLETED_WITH_ERR),
    M(NRT_EXEC_NC_BUSY),            M(NRT_EXEC_OOB),
    M(NRT_COLL_PENDING),            M(NRT_EXEC_HW_ERR_COLLECTIVES),
    M(NRT_EXEC_HW_ERR_HBM_UE),      M(NRT_EXEC_HW_ERR_NC_UE),
    M(NRT_EXEC_HW_ERR_DMA_ABORT),   M(NRT_EXEC_SW_NQ_OVERFLOW),
    M(NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE), M(NRT_NETWORK_PROXY_FAILURE),
};

static ntsim_abi_enum_t enums[] = {
    {"enum nrt_sys_trace_event_type", sizeof(nrt_sys_trace_event_type_t), event_type_members,
     LEN_(event_type_members)},
    {"nrt_sys_trace_event_phase_t", sizeof(nrt_sys_trace_event_phase_t), phase_members,
     LEN_(phase_members)},
    {"nrt_sys_trace_event_category_t", sizeof(nrt_sys_trace_event_category_t), category_members,
     LEN_(category_members)},
    {"dma_mem_usage_type_t", sizeof(dma_mem_usage_type_t), usage_members, LEN_(usage_members)},
    {"enum notification_type", sizeof(enum notification_type), notification_type_members,
     LEN_(notification_type_members)},
    {"enum notification_trace_type", sizeof(enum notification_trace_type), trace_type_members,
     LEN_(trace_type_members)},
    {"enum block_type", sizeof(enum block_type), block_type_members, LEN_(block_type_members)},
    {"NRT_STATUS", sizeof(NRT_STATUS), status_members, LEN_(status_members)},
};

static once_flag enum_once = ONCE_FLAG_INIT;

/* The event type members are the table's rows: each row's name is the
 * stringified enumerator and its value the enumerator itself (event_table.c
 * ROW), so the enum vector checks the one table as well as the header. */
static void enums_build(void)
{
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++) {
        const char *name = ntsim__event_types[t].enum_name;
        event_type_members[t] = (ntsim_abi_enum_member_t){
            name ? name : "(missing row)", (int64_t)ntsim__event_types[t].type};
    }
    event_type_members[NRT_SYS_TRACE_EVENT_TYPE_COUNT] =
        (ntsim_abi_enum_member_t)M(NRT_SYS_TRACE_EVENT_TYPE_COUNT);
}

size_t ntsim_abi_enum_count(void)
{
    return LEN_(enums);
}

const ntsim_abi_enum_t *ntsim_abi_enum_at(size_t i)
{
    call_once(&enum_once, enums_build);
    return i < LEN_(enums) ? &enums[i] : NULL;
}

const ntsim_abi_enum_t *ntsim_abi_enum_find(const char *c_type)
{
    call_once(&enum_once, enums_build);
    for (size_t i = 0; i < LEN_(enums); i++)
        if (strcmp(enums[i].c_type, c_type) == 0)
            return &enums[i];
    return NULL;
}
