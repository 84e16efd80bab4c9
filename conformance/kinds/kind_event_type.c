/*
 * conformance/kinds/kind_event_type.c: `event_type` vectors, one per row of the
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
 * The judge asks the testee for the row (an EventTypeRequest; the built-in
 * testee answers from the one table and the public API). Sub-ids are
 * "<id>.<column>".
 */
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "testee.h"

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
static void check_api_name(const ntsim_vector_t *v, const NtsimTestee__EventTypeReply *m,
                           ntsim_report_t *r)
{
    const event_type_body_t *b = v->body;
    if (!m->has_names_status || !m->has_names_count)
        ntsim_report_add(r, v->id, "get_event_types", "expected its status and count, the "
                                                      "reply has no %s",
                         !m->has_names_status ? "names_status" : "names_count");
    else if (m->names_status != NRT_SUCCESS || b->value >= m->names_count || m->api_name == NULL)
        ntsim_report_add(r, v->id, "get_event_types",
                         "expected slot %llu, got status %d and %llu names",
                         (unsigned long long)b->value, m->names_status,
                         (unsigned long long)m->names_count);
    else
        check_str(r, v->id, "get_event_types", b->json_name, m->api_name);
    size_t off = m->n_setter_disabled;
    uint32_t which = off > 0 ? m->setter_disabled[off - 1] : 0;
    if (!m->has_setter_status)
        ntsim_report_add(r, v->id, "type_setter", "expected '%s' to disable exactly type %llu, "
                                                  "the reply has no setter_status",
                         b->json_name, (unsigned long long)b->value);
    else if (m->setter_status != NRT_SUCCESS || off != 1 || which != b->value)
        ntsim_report_add(r, v->id, "type_setter",
                         "expected '%s' to disable exactly type %llu, got status %d, %zu "
                         "disabled (last %u)",
                         b->json_name, (unsigned long long)b->value, m->setter_status, off, which);
}

static void compare_row(const ntsim_vector_t *v, const NtsimTestee__EventTypeReply *m,
                        ntsim_report_t *r)
{
    const event_type_body_t *b = v->body;
    check_str(r, v->id, "enum", b->enum_name, m->enum_name ? m->enum_name : "(none)");
    if (!m->has_type || m->type != b->value)
        ntsim_report_add(r, v->id, "value", "expected row %llu to hold type %llu, got %u",
                         (unsigned long long)b->value, (unsigned long long)b->value, m->type);
    check_str(r, v->id, "category", b->category, m->category ? m->category : "(none)");
    /* libnrt's exported (unpublished) function must agree with the row. */
    int row_cat = -1;
    for (int c = 0; c < NRT_SYS_TRACE_EVENT_CATEGORY_COUNT; c++)
        if (m->category != NULL && strcmp(m->category, category_names[c]) == 0)
            row_cat = c;
    if (!m->has_api_category || m->api_category != row_cat)
        ntsim_report_add(r, v->id, "category", "expected nrt_sys_trace_get_event_type_category "
                                               "to return %s, got %d",
                         m->category ? m->category : "the row's", m->api_category);
    check_str(r, v->id, "json_name", b->json_name, m->json_name ? m->json_name : "(none)");
    const char *got[NRT_SYS_TRACE_EVENT_PHASE_COUNT] = {m->start, m->stop, m->instant};
    for (int ph = 0; ph < NRT_SYS_TRACE_EVENT_PHASE_COUNT; ph++)
        check_str(r, v->id, phase_keys[ph], b->payload[ph], got[ph] ? got[ph] : "(none)");
}

static void event_type_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const event_type_body_t *b = v->body;
    if (b->value > UINT32_MAX) {
        ntsim_report_add(r, v->id, "value", "expected a table row for %llu, got none",
                         (unsigned long long)b->value);
        return;
    }
    NtsimTestee__EventTypeRequest q = NTSIM_TESTEE__EVENT_TYPE_REQUEST__INIT;
    q.value = (uint32_t)b->value;
    q.setter_name = b->json_name;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_EVENT_TYPE;
    req.event_type = &q;
    NtsimTestee__Response *resp = ntsim_testee_ask(t, &req, v->id, r);
    if (resp == NULL)
        return;
    if (!resp->event_type->found)
        ntsim_report_add(r, v->id, "value", "expected a table row for %llu, got none",
                         (unsigned long long)b->value);
    else {
        compare_row(v, resp->event_type, r);
        check_api_name(v, resp->event_type, r);
    }
    ntsim_testee_reply_free(resp);
}

static const char *event_type_subject(const void *body)
{
    return ((const event_type_body_t *)body)->enum_name;
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const event_type_judged[] = {
    "enum", "value", "category", "json_name", "start", "stop", "instant", NULL};

const ntsim_vector_kind_t ntsim_kind_event_type = {
    .name = "event_type",
    .keys = event_type_keys,
    .judged = event_type_judged,
    .allows_invalid = false,
    .parse = event_type_parse,
    .free_body = event_type_free,
    .judge = event_type_judge,
    .subject = event_type_subject,
};
