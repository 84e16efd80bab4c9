/*
 * conformance/lib/abi_registry.h: what the compiled headers say.
 *
 * The layout and enum runners compare a vector (typed in by hand from the
 * spec) against this registry. Everything numeric here is compiled: offsets
 * and sizes come from offsetof/sizeof, enum values from the enumerators
 * themselves, field types from _Generic where C can tell them apart. Nothing
 * here is typed in from the spec, so a vector and the registry are two
 * independent witnesses of the same fact.
 */
#ifndef NTSIM_CONFORMANCE_ABI_REGISTRY_H
#define NTSIM_CONFORMANCE_ABI_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

typedef struct ntsim_abi_field {
    const char *name;
    size_t offset;
    size_t size;
    const char *type;   /* the spec's word: "uint16", "int", "sync_info", ... */
} ntsim_abi_field_t;

typedef struct ntsim_abi_aggregate {
    const char *c_type; /* "struct nrt_sys_trace_event_data_hw_notify" */
    size_t size;
    const ntsim_abi_field_t *fields;
    size_t field_count;
} ntsim_abi_aggregate_t;

typedef struct ntsim_abi_enum_member {
    const char *name;
    int64_t value;
} ntsim_abi_enum_member_t;

typedef struct ntsim_abi_enum {
    const char *c_type; /* "enum nrt_sys_trace_event_type" */
    size_t size;
    const ntsim_abi_enum_member_t *members;
    size_t member_count;
} ntsim_abi_enum_t;

size_t ntsim_abi_aggregate_count(void);
const ntsim_abi_aggregate_t *ntsim_abi_aggregate_at(size_t i);
const ntsim_abi_aggregate_t *ntsim_abi_aggregate_find(const char *c_type);

size_t ntsim_abi_enum_count(void);
const ntsim_abi_enum_t *ntsim_abi_enum_at(size_t i);
const ntsim_abi_enum_t *ntsim_abi_enum_find(const char *c_type);

#endif /* NTSIM_CONFORMANCE_ABI_REGISTRY_H */
