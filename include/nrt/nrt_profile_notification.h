/*
 * nrt/nrt_profile_notification.h: the device-notification taxonomy and the
 * two NTFF enums it maps onto (spec §5, facts §1).
 *
 * Three disjoint index spaces meet here:
 *   enum notification_type         0..10, the on-device notification queue entry type
 *   enum notification_trace_type   0..5,  NTFF ntff::notification_trace_type
 *   enum block_type                0..2,  NTFF ntff::block_type
 * They are not the 46-variant nrt_sys_trace_event_type and never index it.
 *
 * Spelling (D-NOTIFY-NAMES): the enum tags are the spec's names. C has one
 * namespace for enumerators, and the spec's bare names collide (EVENT, ERROR,
 * DMA and THROTTLE occur in both notification enums), so each enumerator is
 * prefixed with its enum's name in capitals: NOTIFICATION_TYPE_TOPSP_CC_STATUS,
 * NOTIFICATION_TRACE_TYPE_EXPLICIT. block_type's spec names already carry
 * their prefix (BLOCK_TYPE_NC) and are kept verbatim. The two NTFF enums are
 * protobuf enums; their INT_MIN/INT_MAX sentinels (spec §5) are kept, spelled
 * as protoc spells them, and make both enums exactly 4 bytes.
 */
#ifndef NRT_NRT_PROFILE_NOTIFICATION_H
#define NRT_NRT_PROFILE_NOTIFICATION_H

#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h" /* NTSIM_ABI_SIZE */

#ifdef __cplusplus
extern "C" {
#endif

/* The device notification queue entry type. Per-engine subscribe lists
 * (spec §5): TPB / per-NC block {0,3,1,2,4,5}; TopSP block {6,8,7}. */
enum notification_type {
    NOTIFICATION_TYPE_TRACE           = 0,
    NOTIFICATION_TYPE_EVENT           = 1,
    NOTIFICATION_TYPE_ERROR           = 2,
    NOTIFICATION_TYPE_INFER_STATUS    = 3,
    NOTIFICATION_TYPE_DMA             = 4,
    NOTIFICATION_TYPE_THROTTLE        = 5,
    NOTIFICATION_TYPE_TOPSP_TRACE     = 6,
    NOTIFICATION_TYPE_TOPSP_EVENT     = 7,
    NOTIFICATION_TYPE_TOPSP_ERROR     = 8,
    NOTIFICATION_TYPE_TOPSP_CC_STATUS = 9,  /* rejected by the converter: dropped */
    NOTIFICATION_TYPE_MAX             = 10  /* sentinel: rejected by the converter */
};
NTSIM_ABI_SIZE(enum notification_type, 4);

/* ntff::notification_trace_type. The converter's codomain is {0,1,2,4,5}:
 * EXPLICIT (3) is written only by the collectives-status path (spec §5 GOTCHA). */
enum notification_trace_type {
    NOTIFICATION_TRACE_TYPE_INSTRUCTION = 0,
    NOTIFICATION_TRACE_TYPE_EVENT       = 1,
    NOTIFICATION_TRACE_TYPE_ERROR       = 2,
    NOTIFICATION_TRACE_TYPE_EXPLICIT    = 3,
    NOTIFICATION_TRACE_TYPE_DMA         = 4,
    NOTIFICATION_TRACE_TYPE_THROTTLE    = 5,
    NOTIFICATION_TRACE_TYPE_INT_MIN_SENTINEL_DO_NOT_USE_ = INT32_MIN,
    NOTIFICATION_TRACE_TYPE_INT_MAX_SENTINEL_DO_NOT_USE_ = INT32_MAX
};
NTSIM_ABI_SIZE(enum notification_trace_type, 4);

/* ntff::block_type: which hardware block produced the notification. */
enum block_type {
    BLOCK_TYPE_NC    = 0,
    BLOCK_TYPE_DMA   = 1,
    BLOCK_TYPE_TOPSP = 2,
    BLOCK_TYPE_INT_MIN_SENTINEL_DO_NOT_USE_ = INT32_MIN,
    BLOCK_TYPE_INT_MAX_SENTINEL_DO_NOT_USE_ = INT32_MAX
};
NTSIM_ABI_SIZE(enum block_type, 4);

/* The converter (spec §5, nrt_profile_convert_trace_type_from_ntff_params):
 *   0 TRACE        -> INSTRUCTION, NC       5 THROTTLE    -> THROTTLE,    NC
 *   1 EVENT        -> EVENT,       NC       6 TOPSP_TRACE -> INSTRUCTION, TOPSP
 *   2 ERROR        -> ERROR,       NC       7 TOPSP_EVENT -> EVENT,       TOPSP
 *   3 INFER_STATUS -> INSTRUCTION, NC       8 TOPSP_ERROR -> ERROR,       TOPSP
 *   4 DMA          -> DMA,         DMA
 * Anything else (9 TOPSP_CC_STATUS, 10 MAX, and any value above 8 as an
 * unsigned number, negative values included) logs "Invalid notification
 * type: N", writes nothing to the outputs, counts the drop and returns
 * NRT_INVALID (2). It never produces EXPLICIT. NULL outputs: NRT_INVALID,
 * nothing logged, nothing counted (D-NOTIFY). */
NTSIM_EXPORT NRT_STATUS nrt_profile_convert_trace_type_from_ntff_params(enum notification_type type,
                                                           enum notification_trace_type *trace_type,
                                                           enum block_type *block_type);

#ifdef __cplusplus
}
#endif

#endif /* NRT_NRT_PROFILE_NOTIFICATION_H */
