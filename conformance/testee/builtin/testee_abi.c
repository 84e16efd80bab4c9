/*
 * conformance/testee/builtin/testee_abi.c: the built-in testee's layout, enum and
 * event_type answers: what the compiled headers say (abi_registry.h:
 * offsetof, sizeof and the enumerators themselves) and what the one table
 * and the public API say of an event type.
 */
#include <stdlib.h>
#include <string.h>

#include "abi_registry.h"
#include "event_table.h"
#include "nrt/nrt_sys_trace.h"
#include "ntsim/capture.h"
#include "testee_engine_int.h"

static const char *const category_names[NRT_SYS_TRACE_EVENT_CATEGORY_COUNT] = {
    "UNKNOWN", "HARDWARE", "SOFTWARE"};

NRT_STATUS ntsim__testee_layout(const NtsimTestee__Request *q, ntsim_arena_t *a,
                                NtsimTestee__Response *out, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    NtsimTestee__LayoutReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__layout_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_LAYOUT;
    out->layout = m;
    const ntsim_abi_aggregate_t *agg = ntsim_abi_aggregate_find(q->layout->c_type);
    if (agg == NULL)
        return NRT_SUCCESS; /* found: false */
    m->found = 1;
    m->has_size = 1;
    m->size = agg->size;
    m->fields = ntsim_arena_array(a, agg->field_count, sizeof *m->fields);
    if (m->fields == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < agg->field_count; i++) {
        NtsimTestee__LayoutField *f = ntsim_arena_alloc(a, sizeof *f);
        if (f == NULL)
            return NRT_RESOURCE;
        ntsim_testee__layout_field__init(f);
        /* The registry's strings are static: they outlive the packing. */
        f->name = (char *)(uintptr_t)agg->fields[i].name;
        f->type = (char *)(uintptr_t)agg->fields[i].type;
        f->offset = agg->fields[i].offset;
        f->size = agg->fields[i].size;
        m->fields[m->n_fields++] = f;
    }
    return NRT_SUCCESS;
}

NRT_STATUS ntsim__testee_enum(const NtsimTestee__Request *q, ntsim_arena_t *a,
                              NtsimTestee__Response *out, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    NtsimTestee__EnumReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__enum_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_ENUM_TYPE;
    out->enum_type = m;
    const ntsim_abi_enum_t *e = ntsim_abi_enum_find(q->enum_type->c_type);
    if (e == NULL)
        return NRT_SUCCESS;
    m->found = 1;
    m->has_size = 1;
    m->size = e->size;
    m->members = ntsim_arena_array(a, e->member_count, sizeof *m->members);
    if (m->members == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < e->member_count; i++) {
        NtsimTestee__EnumMember *x = ntsim_arena_alloc(a, sizeof *x);
        if (x == NULL)
            return NRT_RESOURCE;
        ntsim_testee__enum_member__init(x);
        x->name = (char *)(uintptr_t)e->members[i].name;
        x->value = e->members[i].value;
        m->members[m->n_members++] = x;
    }
    return NRT_SUCCESS;
}

/* The public API's view: slot `value` of get_event_types, and the types the
 * type setter disables when given setter_name (D-NAMES, D-SETTER-NAMES). */
static NRT_STATUS api_names(NtsimTestee__EventTypeReply *m, uint32_t value, const char *setter,
                            ntsim_arena_t *a)
{
    const char **names = NULL;
    size_t count = 0;
    m->has_names_status = m->has_names_count = 1;
    m->names_status = nrt_sys_trace_get_event_types(&names, &count);
    if (m->names_status == NRT_SUCCESS) {
        m->names_count = count;
        if (value < count && names[value] != NULL &&
            (m->api_name = ntsim_arena_strdup(a, names[value])) == NULL) {
            nrt_sys_trace_free_event_types(names, count);
            return NRT_RESOURCE;
        }
        nrt_sys_trace_free_event_types(names, count);
    }
    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    m->has_setter_status = 1;
    m->setter_status = nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, setter,
                                                                              false);
    m->setter_disabled = ntsim_arena_array(a, NRT_SYS_TRACE_EVENT_TYPE_COUNT,
                                           sizeof *m->setter_disabled);
    if (m->setter_disabled == NULL)
        return NRT_RESOURCE;
    for (uint32_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (!cfg.capture_enabled_for_event_type[t])
            m->setter_disabled[m->n_setter_disabled++] = t;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim__testee_event_type(const NtsimTestee__Request *q, ntsim_arena_t *a,
                                    NtsimTestee__Response *out, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    const NtsimTestee__EventTypeRequest *r = q->event_type;
    NtsimTestee__EventTypeReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__event_type_reply__init(m);
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_EVENT_TYPE;
    out->event_type = m;
    const ntsim_event_type_desc_t *row = ntsim__event_type_desc(r->value);
    if (row == NULL)
        return NRT_SUCCESS;
    m->found = 1;
    m->enum_name = (char *)(uintptr_t)row->enum_name; /* the table's: static */
    m->json_name = (char *)(uintptr_t)row->json_name;
    m->has_type = 1;
    m->type = (uint32_t)row->type;
    m->category = (char *)(uintptr_t)((unsigned)row->category < NRT_SYS_TRACE_EVENT_CATEGORY_COUNT
                                          ? category_names[row->category] : "?");
    m->has_api_category = 1;
    m->api_category = (int32_t)nrt_sys_trace_get_event_type_category(
        (nrt_sys_trace_event_type_t)r->value);
    char **phase[NRT_SYS_TRACE_EVENT_PHASE_COUNT] = {&m->start, &m->stop, &m->instant};
    for (uint32_t ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
        *phase[ph] = (char *)(uintptr_t)ntsim__payloads[ntsim__event_payload(r->value, ph)]
                         .member;
    return api_names(m, r->value, r->setter_name, a);
}
