/*
 * engine/data_view.h: the `data` keys of a record, as the readers see them.
 *
 * The JSON exporter's `data` object and NTFF's attributes map carry the same
 * keys with the same values (facts §2: "Keys equal the NTFF attribute
 * keys"). Both come from the json_keys column of the one table, compiled
 * once into this view: per (type, phase), the keys in order, where each
 * value lives in the payload, and how it is formatted. Internal.
 */
#ifndef NTSIM_ENGINE_DATA_VIEW_H
#define NTSIM_ENGINE_DATA_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_table.h"

typedef enum ntsim_value_format {
    NTSIM_FMT_NUMBER, /* decimal; signed for C int fields */
    NTSIM_FMT_BOOL,   /* true / false */
    NTSIM_FMT_USAGE,  /* dma_mem_usage_type_t name string, e.g. "weight" */
    NTSIM_FMT_HEX,    /* "0x" + lowercase hex string */
    NTSIM_FMT_ALGO    /* decimal string; the key is omitted when the value is 0 */
} ntsim_value_format_t;

typedef struct ntsim_data_key {
    const char *key;          /* points into the table's key list; key_len bytes */
    size_t key_len;
    size_t offset;            /* in the 40-byte payload */
    size_t size;              /* 1, 2, 4 or 8 bytes */
    bool is_signed;           /* C int */
    bool exec_model;          /* key=@field: the model registered for the execution
                               * whose id is the field (D-JSON-MODEL-ID) */
    ntsim_value_format_t fmt;
    char key_z[48];           /* the key, NUL-terminated (NTFF attribute key) */
    char json_key[64];        /* "\"key\":" ready to copy; json_key_len bytes */
    size_t json_key_len;
} ntsim_data_key_t;

enum { NTSIM_DATA_KEYS_MAX = 8 };

typedef struct ntsim__data_view {
    ntsim_data_key_t keys[NTSIM_DATA_KEYS_MAX];
    size_t count;
    bool has_arm;             /* the exporter has an arm for this phase (keys may be
                               * none); false: {} and a phase-mismatch warning */
    bool nc_timestamp;        /* one key is nc_timestamp_ns: a device event, whose JSON
                               * timestamp_ns is moved to the host clock (D-JSON-TIME) */
    size_t nc_timestamp_offset;  /* in the payload */
    size_t cpu_timestamp_offset; /* of the host time read with it (the same sync
                                  * pair: sync_info or TIMESTAMP_SYNC's flat pair) */
    bool has_exec_id;         /* the payload has an exec_id (a key or not) */
    size_t exec_id_offset, exec_id_size;
} ntsim_data_view_t;

/* The view of (type, phase); a view with no keys for anything out of range.
 * Built on first use; immutable afterwards, so any thread may read it. */
const ntsim_data_view_t *ntsim__data_view(uint32_t type, uint32_t phase);

/* Parses one table key list (NULL: no arm; "": an arm with no keys) against
 * a payload into `view`. Returns NULL on success, else a static message
 * naming the problem (for the table test). */
const char *ntsim__data_view_compile(const char *keys, ntsim_payload_id_t pid,
                                    ntsim_data_view_t *view);

/* The value of key k of a record's payload, widened to 64 bits (sign-
 * extended for C int fields); for an exec_model key, the model the runtime
 * registered for that execution id (ntsim_json_set_model_lookup), 0 when
 * none is. */
uint64_t ntsim__data_value(const ntsim_data_key_t *k, const nrt_sys_trace_event_data_t *data);

/* A payload field widened to 64 bits (the raw read behind ntsim__data_value). */
uint64_t ntsim__data_field(const nrt_sys_trace_event_data_t *data, size_t offset, size_t size,
                           bool is_signed);

/* The value of key k as NTFF writes it in an attribute: the JSON value
 * without quotes ("7", "-3", "true", "weight", "0x1f", "5"). Returns false
 * when the key is omitted (%algo with value 0). out holds >= 32 bytes. */
bool ntsim__data_format(const ntsim_data_key_t *k, uint64_t value, char *out, size_t cap);

/* Name of a dma_mem_usage_type_t value ("weight"), or NULL when out of range. */
const char *ntsim__usage_type_name(uint64_t value);

#endif /* NTSIM_ENGINE_DATA_VIEW_H */
