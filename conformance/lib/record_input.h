/*
 * conformance/lib/record_input.h: records and payloads read from vectors
 * (record, json and ntff kinds). Grammar in record_input.c.
 */
#ifndef NTSIM_CONFORMANCE_RECORD_INPUT_H
#define NTSIM_CONFORMANCE_RECORD_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "nrt/nrt_sys_trace_event.h"
#include "log_expect.h"
#include "report.h"
#include "vector.h"

/* Hex digits (spaces, tabs and newlines ignored) into exactly n bytes. */
bool ntsim_vec_parse_hex(const char *s, uint8_t *out, size_t n);
/* `type`: an enum suffix (HW_NOTIFY) or an integer. */
NRT_STATUS ntsim_vec_parse_type(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                                uint32_t *out);
/* `phase`: START, STOP, INSTANT or an integer. */
NRT_STATUS ntsim_vec_parse_phase(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                                 uint32_t *out);
/* data_fill, data, data_raw of `map` into *out; *has_data says whether any
 * was given (the caller passes NULL data otherwise). */
NRT_STATUS ntsim_vec_parse_data(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                                uint32_t type, uint32_t phase, bool *has_data,
                                nrt_sys_trace_event_data_t *out);
/* One record, by fields or {hex: ...}. */
NRT_STATUS ntsim_vec_parse_record(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                  nrt_sys_trace_event_t *out);
/* The sequence under `key`: a calloc'd array the caller frees. */
NRT_STATUS ntsim_vec_parse_records(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                   const char *key, nrt_sys_trace_event_t **out, size_t *count);

/* The runtime's execution -> model table a vector registers for the
 * exporters (D-JSON-MODEL-ID):  models: [{exec_id: 7, model_id: 3}, ...] */
typedef struct ntsim_vec_model {
    uint64_t exec_id, model_id;
} ntsim_vec_model_t;

typedef struct ntsim_vec_models {
    ntsim_vec_model_t *items;   /* calloc'd; the caller frees */
    size_t count;
} ntsim_vec_models_t;

/* The optional `models` key of map (absent: count 0). */
NRT_STATUS ntsim_vec_parse_models(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                                  ntsim_vec_models_t *out);

/* A set of NCs (types false) or event types (true), given as
 * `enabled_key: all | none | [MEMBER*]` or `disabled_key: [MEMBER*]` (the
 * exact set either way); a member is an NC index 0..255, or an enum suffix
 * (HW_NOTIFY) or 0..COUNT-1. Fills member[256 or COUNT] and sets *given;
 * neither key: *given untouched. Both: an error. */
NRT_STATUS ntsim_vec_parse_set(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               const char *enabled_key, const char *disabled_key, bool types,
                               bool *given, bool *member);
/* Reports `field` of subid when the sets differ: how many are on, and the
 * first member that differs ("expected 255 NCs enabled (NC 3 off), got 256
 * (NC 3 on)"); `one` names a member ("NC", "type"). */
void ntsim_vec_compare_set(ntsim_report_t *r, const char *subid, const char *field,
                           const char *one, const bool *want, const bool *got, size_t n);

#endif /* NTSIM_CONFORMANCE_RECORD_INPUT_H */
