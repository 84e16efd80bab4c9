/*
 * nrt/nrt_status.h: the Neuron runtime's status codes (NRT_STATUS).
 *
 * Every ntsim function on the libnrt surface returns one of these, and our own
 * ntsim_* functions use the same values, so there is one status convention in
 * the whole tree (docs/decisions.md, D-STATUS).
 *
 * Values: libnrt 2.31's DWARF enum NRT_STATUS (28 enumerators, 4 bytes), which
 * agrees with the public nrt_status.h shipped with the runtime. 8 and 12 are
 * unused; the bands are 0..15 (API), 101/1002..1100 (execution) and 1200..1206
 * (hardware faults). Pinned by vectors/enum_status.yaml.
 */
#ifndef NRT_NRT_STATUS_H
#define NRT_NRT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks every function of the installed API (the nrt_* functions of include/nrt/
 * and the ntsim_* functions of include/ntsim/). libntsim.so is built with
 * -fvisibility=hidden, so it exports exactly these; the engine's internals
 * (ntsim__*) stay inside it. The list is committed in
 * conformance/cli/exported_symbols.txt and checked by make install-check. */
#ifndef NTSIM_EXPORT
#if defined(__GNUC__) || defined(__clang__)
#define NTSIM_EXPORT __attribute__((visibility("default")))
#else
#define NTSIM_EXPORT
#endif
#endif

typedef enum {
    NRT_SUCCESS                       = 0,
    NRT_FAILURE                       = 1,    /* non-specific failure */
    NRT_INVALID                       = 2,    /* invalid argument */
    NRT_INVALID_HANDLE                = 3,
    NRT_RESOURCE                      = 4,    /* failed to allocate a resource */
    NRT_TIMEOUT                       = 5,
    NRT_HW_ERROR                      = 6,
    NRT_QUEUE_FULL                    = 7,
    NRT_LOAD_NOT_ENOUGH_NC            = 9,
    NRT_UNSUPPORTED_NEFF_VERSION      = 10,
    NRT_FAIL_HOST_MEM_ALLOC           = 11,
    NRT_UNINITIALIZED                 = 13,
    NRT_CLOSED                        = 14,
    NRT_QUEUE_EMPTY                   = 15,
    NRT_EXEC_UNIT_UNRECOVERABLE       = 101,
    NRT_EXEC_BAD_INPUT                = 1002,
    NRT_EXEC_COMPLETED_WITH_NUM_ERR   = 1003,
    NRT_EXEC_COMPLETED_WITH_ERR       = 1004,
    NRT_EXEC_NC_BUSY                  = 1005,
    NRT_EXEC_OOB                      = 1006,
    NRT_COLL_PENDING                  = 1100,
    NRT_EXEC_HW_ERR_COLLECTIVES       = 1200,
    NRT_EXEC_HW_ERR_HBM_UE            = 1201,
    NRT_EXEC_HW_ERR_NC_UE             = 1202,
    NRT_EXEC_HW_ERR_DMA_ABORT         = 1203,
    NRT_EXEC_SW_NQ_OVERFLOW           = 1204,
    NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE = 1205,
    NRT_NETWORK_PROXY_FAILURE         = 1206
} NRT_STATUS;

/* The enumerator's name of a status, verbatim ("NRT_INVALID" for 2), or
 * "UNKNOWN" for a value that is none of the above (D-STATUS-STR). The string
 * is static: never free it. Declared here, where libnrt's nrt_status.h
 * declares it; nrt/nrt.h includes this header. */
NTSIM_EXPORT const char *nrt_get_status_as_str(NRT_STATUS status);

#ifdef __cplusplus
}
#endif

#endif /* NRT_NRT_STATUS_H */
