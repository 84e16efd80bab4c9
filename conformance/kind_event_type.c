/*
 * conformance/kind_event_type.c: `event_type` vectors, one per row of the
 * one table (engine/event_table.c).
 *
 *   - id: event_type.cc_exec
 *     ...common keys...
 *     enum: NRT_SYS_TRACE_EVENT_TYPE_CC_EXEC
 *     value: 8
 *     category: HARDWARE             # UNKNOWN | HARDWARE | SOFTWARE
 *     json_name: cc_running          # the interned name: JSON event_type, NTFF,
 *                                    #   and the public API's names (D-NAMES)
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
    /* The category view must agree with the row. */
    if (ntsim__event_category((uint32_t)b->value) != row->category)
        ntsim_report_add(r, v->id, "category", "expected ntsim__event_category to agree with "
                                               "the row, got %d",
                         (int)ntsim__event_category((uint32_t)b->value));
    check_str(r, v->id, "json_name", b->json_name, row->json_name);
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
