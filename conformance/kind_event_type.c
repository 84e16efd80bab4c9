/*
 * conformance/kind_event_type.c: `event_type` vectors, one per row of the
 * one table (engine/event_table.c).
 *
 *   - id: event_type.cc_exec
 *     ...common keys...
 *     enum: NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC
 *     value: 8
 *     category: HARDWARE             # UNKNOWN | HARDWARE | SOFTWARE (the row, and
 *                                    #   nrt_sys_trace_get_event_type_category)
 *     json_name: cc_running          # the interned name: JSON event_type, NTFF,
 *                                    #   and the public API's names (D-NAMES):
 *                                    #   slot `value` of get_event_types, and
 *                                    #   the name the type setter resolves
 *     start: cc_exec_start           # the union member each phase carries,
 *     stop: cc_exec_stop             #   or none
 *     instant: none
 *
 * Sub-ids are "<id>.<column>".
 */
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "kinds.h"
#include "nrt/nrt_sys_trace.h"
#include "ntsim/capture.h"

typedef struct event_type_body {
    char *enum_name;
    uint64_t value;
    char *category;
    char *json_name;
    char *payload[NRT_SYS_TRACE_EVENT_PHASE_COUNT];
} event_type_body_t;

static const char *const event_type_keys[] = {"enum", "value", "category", "json_name",
                                              "start", "stop", "instant", NULL};
static const char *const phase_keys[NRT_SYS_TRACE_EVENT_PHASE_COUNT] = {"start", "stop",
                                                                        "instant"};
static const char *const category_names[NRT_SYS_TRACE_EVENT_CATEGORY_COUNT] = {
    "UNKNOWN", "HARDWARE", "SOFTWARE"};

static void event_type_free(void *body)
{
    event_type_body_t *b = body;
    free(b->enum_name);
    free(b->category);
    free(b->json_name);
    for (int ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
        free(b->payload[ph]);
    free(b);
}

static NRT_STATUS event_type_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                   void **out)
{
    event_type_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    const char *enum_name, *category, *json_name, *payload[3];
    NRT_STATUS st;
    if ((st = ntsim_yp_str(p, node, path, "enum", true, &enum_name)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "value", true, UINT32_MAX, &b->value)) !=
            NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "category", true, &category)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "json_name", true, &json_name)) != NRT_SUCCESS)
        return st;
    for (int ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
        if ((st = ntsim_yp_str(p, node, path, phase_keys[ph], true, &payload[ph])) !=
            NRT_SUCCESS)
            return st;
    bool known = false;
    for (int c = 0; c < NRT_SYS_TRACE_EVENT_CATEGORY_COUNT; c++)
        known |= strcmp(category, category_names[c]) == 0;
    if (!known) {
        char field[256];
        snprintf(field, sizeof field, "%s.category", path);
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "category"), field,
                              "expected UNKNOWN, HARDWARE or SOFTWARE, got '%s'", category);
    }
    if ((b->enum_name = ntsim_strdup(enum_name)) == NULL ||
        (b->category = ntsim_strdup(category)) == NULL ||
        (b->json_name = ntsim_strdup(json_name)) == NULL)
        return NRT_RESOURCE;
    for (int ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
        if ((b->payload[ph] = ntsim_strdup(payload[ph])) == NULL)
            return NRT_RESOURCE;
    return NRT_SUCCESS;
}

static void check_str(ntsim_report_t *r, const char *id, const char *column, const char *want,
                      const char *got)
{
    if (strcmp(want, got) != 0) {
        char subid[256];
        snprintf(subid, sizeof subid, "%s.%s", id, column);
        ntsim_report_add(r, subid, column, "expected %s, got %s", want, got);
    }
}

/* The public API's names are the interned names (D-NAMES): get_event_types
 * holds json_name at index `value`, and the type setter resolves json_name to
 * exactly this type (D-SETTER-NAMES). */
static void check_api_name(const ntsim_vector_t *v, ntsim_report_t *r)
{
    const event_type_body_t *b = v->body;
    const char **names = NULL;
    size_t count = 0;
    NRT_STATUS st = nrt_sys_trace_get_event_types(&names, &count);
    if (st != NRT_SUCCESS || b->value >= count)
        ntsim_report_add(r, v->id, "get_event_types",
                         "expected slot %llu, got status %d and %zu names",
                         (unsigned long long)b->value, st, count);
    else
        check_str(r, v->id, "get_event_types", b->json_name, names[b->value]);
    if (st == NRT_SUCCESS)
        nrt_sys_trace_free_event_types(names, count);

    nrt_sys_trace_config_t cfg;
    nrt_sys_trace_config_set_defaults(&cfg);
    st = nrt_sys_trace_config_set_capture_enabled_for_event_type(&cfg, b->json_name, false);
    size_t off = 0, which = 0;
    for (size_t t = 0; t < NRT_SYS_TRACE_EVENT_TYPE_COUNT; t++)
        if (!cfg.capture_enabled_for_event_type[t]) {
            off++;
            which = t;
        }
    if (st != NRT_SUCCESS || off != 1 || which != b->value)
        ntsim_report_add(r, v->id, "type_setter",
                         "expected '%s' to disable exactly type %llu, got status %d, %zu "
                         "disabled (last %zu)",
                         b->json_name, (unsigned long long)b->value, st, off, which);
}

static void event_type_run(const ntsim_vector_t *v, ntsim_report_t *r)
{
    const event_type_body_t *b = v->body;
    const ntsim_event_type_desc_t *row = ntsim__event_type_desc((uint32_t)b->value);
    if (row == NULL || b->value > UINT32_MAX) {
        ntsim_report_add(r, v->id, "value", "expected a table row for %llu, got none (COUNT %d)",
                         (unsigned long long)b->value, NRT_SYS_TRACE_EVENT_TYPE_COUNT);
        return;
    }
    check_str(r, v->id, "enum", b->enum_name, row->enum_name);
    if ((uint64_t)row->type != b->value)
        ntsim_report_add(r, v->id, "value", "expected row %llu to hold type %llu, got %d",
                         (unsigned long long)b->value, (unsigned long long)b->value,
                         (int)row->type);
    const char *cat = (unsigned)row->category < NRT_SYS_TRACE_EVENT_CATEGORY_COUNT
                          ? category_names[row->category] : "?";
    check_str(r, v->id, "category", b->category, cat);
    /* The category view, and libnrt's exported (unpublished) function, must
     * agree with the row. */
    if (ntsim__event_category((uint32_t)b->value) != row->category)
        ntsim_report_add(r, v->id, "category", "expected ntsim__event_category to agree with "
                                               "the row, got %d",
                         (int)ntsim__event_category((uint32_t)b->value));
    nrt_sys_trace_event_category_t pub =
        nrt_sys_trace_get_event_type_category((nrt_sys_trace_event_type_t)b->value);
    if (pub != row->category)
        ntsim_report_add(r, v->id, "category", "expected nrt_sys_trace_get_event_type_category "
                                               "to return %s, got %d", cat, (int)pub);
    check_str(r, v->id, "json_name", b->json_name, row->json_name);
    check_api_name(v, r);
    for (int ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++) {
        ntsim_payload_id_t pid = ntsim__event_payload((uint32_t)b->value, (uint32_t)ph);
        check_str(r, v->id, phase_keys[ph], b->payload[ph], ntsim__payloads[pid].member);
    }
}

static const char *event_type_subject(const void *body)
{
    return ((const event_type_body_t *)body)->enum_name;
}

const ntsim_vector_kind_t ntsim_kind_event_type = {
    .name = "event_type",
    .keys = event_type_keys,
    .allows_invalid = false,
    .parse = event_type_parse,
    .free_body = event_type_free,
    .run = event_type_run,
    .subject = event_type_subject,
};
