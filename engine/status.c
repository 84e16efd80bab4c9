/*
 * engine/status.c: nrt_get_status_as_str (docs/decisions.md D-STATUS-STR).
 *
 * The name of each NRT_STATUS enumerator, verbatim; "UNKNOWN" for any other
 * value. NTSIM_STATUS_MAP lists the enumerators of nrt/nrt_status.h once;
 * the switch has no default, so -Wswitch (part of -Wall, an error here)
 * fails the build when the list misses one, and a repeated one is a
 * duplicate case.
 */
#include "nrt/nrt_status.h"

#define NTSIM_STATUS_MAP(XX)                                                   \
    XX(NRT_SUCCESS) XX(NRT_FAILURE) XX(NRT_INVALID) XX(NRT_INVALID_HANDLE)     \
    XX(NRT_RESOURCE) XX(NRT_TIMEOUT) XX(NRT_HW_ERROR) XX(NRT_QUEUE_FULL)       \
    XX(NRT_LOAD_NOT_ENOUGH_NC) XX(NRT_UNSUPPORTED_NEFF_VERSION)                \
    XX(NRT_FAIL_HOST_MEM_ALLOC) XX(NRT_UNINITIALIZED) XX(NRT_CLOSED)           \
    XX(NRT_QUEUE_EMPTY) XX(NRT_EXEC_UNIT_UNRECOVERABLE) XX(NRT_EXEC_BAD_INPUT) \
    XX(NRT_EXEC_COMPLETED_WITH_NUM_ERR) XX(NRT_EXEC_COMPLETED_WITH_ERR)        \
    XX(NRT_EXEC_NC_BUSY) XX(NRT_EXEC_OOB) XX(NRT_COLL_PENDING)                 \
    XX(NRT_EXEC_HW_ERR_COLLECTIVES) XX(NRT_EXEC_HW_ERR_HBM_UE)                 \
    XX(NRT_EXEC_HW_ERR_NC_UE) XX(NRT_EXEC_HW_ERR_DMA_ABORT)                    \
    XX(NRT_EXEC_SW_NQ_OVERFLOW) XX(NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE)          \
    XX(NRT_NETWORK_PROXY_FAILURE)

const char *nrt_get_status_as_str(NRT_STATUS status)
{
    switch (status) {
#define NTSIM_STATUS_CASE(name) case name: return #name;
        NTSIM_STATUS_MAP(NTSIM_STATUS_CASE)
#undef NTSIM_STATUS_CASE
    }
    return "UNKNOWN"; /* a value of the type that names no enumerator */
}
