/* conformance/kinds.c: the registry of vector kinds, in report order. */
#include "kinds.h"

const ntsim_vector_kind_t *const ntsim_vector_kinds[] = {
    &ntsim_kind_layout,
    &ntsim_kind_enum,
    &ntsim_kind_event_type,
    &ntsim_kind_record,
    &ntsim_kind_json,
    &ntsim_kind_ntff,
    &ntsim_kind_notify,
    &ntsim_kind_scenario,
    &ntsim_kind_decode,
    &ntsim_kind_api,
    &ntsim_kind_inspect,
    NULL,
};

const char *ntsim_check_proto_dir = "engine";
