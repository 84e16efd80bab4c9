/*
 * ntsim/convert.h: the readers of the records: JSON, NTFF, and the
 * device-notification converter. Compiles as C11 and as C++.
 */
#ifndef NTSIM_CONVERT_H
#define NTSIM_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* JSON                                                                     */
/* ------------------------------------------------------------------------ */

/* The nc_idx -> worker_gid mapping used at fetch time (libnrt:
 * vnc_idx_to_gid for i < visible_vnc_count, -1 beyond). ntsim's default is
 * the identity for all 256 NCs (D-WORKER-GID). `map` is copied; NULL
 * restores the default; count > 256 is NRT_INVALID. */
NRT_STATUS ntsim_json_set_gid_map(const int32_t *map, size_t count);

/* Serializes any array of records (not only the live rings) into the same
 * document fetch_events returns. *out is freed with nrt_sys_trace_buffer_free.
 * NRT_INVALID for NULL out pointers or NULL events with count > 0,
 * NRT_RESOURCE when out of memory. */
NRT_STATUS ntsim_json_serialize(const nrt_sys_trace_event_t *events, size_t count, char **out,
                                size_t *len);

/* Writes s as a JSON string literal, quotes included, into out (cap bytes,
 * NUL-terminated); returns the length it needs (without the NUL), like
 * snprintf. Escapes \" \\ \b \t \n \f \r, other bytes < 0x20 as \u00xx. */
size_t ntsim_json_escape(const char *s, size_t len, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* NTSIM_CONVERT_H */
