/*
 * conformance/kinds/kind_layout.c: `layout` vectors.
 *
 *   - id: layout.hw_notify
 *     ...common keys...
 *     c_type: struct nrt_sys_trace_event_data_hw_notify
 *     size: 40
 *     fields:
 *       - {name: hint, offset: 0x04, size: 2, type: uint16}
 *
 * The judge asks the testee for the type (a LayoutRequest; the built-in
 * testee answers from the compiled registry, abi_registry.h) and compares
 * both ways: every field the vector names must exist with that offset, size
 * and type, and every field the testee reports must be named by the vector
 * (so a field added to a header without a vector fails too). Sub-ids are
 * "<id>.<field>".
 */
#include <stdlib.h>
#include <string.h>

#include "key_sort.h"
#include "kinds.h"
#include "testee.h"

typedef struct layout_field {
    char *name;
    uint64_t offset;
    uint64_t size;
    char *type;
} layout_field_t;

typedef struct layout_body {
    char *c_type;
    uint64_t size;
    layout_field_t *fields;
    size_t field_count;
} layout_body_t;

static const char *const layout_keys[] = {"c_type", "size", "fields", NULL};
static const char *const field_keys[] = {"name", "offset", "size", "type", NULL};

static void layout_free(void *body)
{
    layout_body_t *b = body;
    for (size_t i = 0; i < b->field_count; i++) {
        free(b->fields[i].name);
        free(b->fields[i].type);
    }
    free(b->fields);
    free(b->c_type);
    free(b);
}

/* A field listed twice: the earliest repeat, at its name. */
static NRT_STATUS check_repeats(ntsim_yparse_t *p, yaml_node_item_t *items, const char *path,
                                const layout_body_t *b)
{
    ntsim_key_t *keys = malloc((b->field_count + 1) * sizeof *keys);
    if (keys == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < b->field_count; i++)
        keys[i] = (ntsim_key_t){b->fields[i].name, 0, i};
    NRT_STATUS st = ntsim_yp_repeats(p, items, keys, b->field_count, path, "fields", "name",
                                     "field");
    free(keys);
    return st;
}

static NRT_STATUS layout_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               void **out)
{
    layout_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    const char *c_type;
    yaml_node_item_t *items;
    size_t count;
    NRT_STATUS st;
    if ((st = ntsim_yp_str(p, node, path, "c_type", true, &c_type)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "size", true, 1u << 20, &b->size)) != NRT_SUCCESS ||
        (st = ntsim_yp_seq(p, node, path, "fields", &items, &count)) != NRT_SUCCESS)
        return st;
    if ((b->c_type = ntsim_strdup(c_type)) == NULL ||
        (b->fields = calloc(count, sizeof *b->fields)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < count; i++) {
        char fpath[256];
        snprintf(fpath, sizeof fpath, "%s.fields[%zu]", path, i);
        yaml_node_t *f = ntsim_yp_node(p, items[i]);
        const char *name, *type;
        layout_field_t *lf = &b->fields[i];
        if ((st = ntsim_yp_check_keys(p, f, fpath, field_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_str(p, f, fpath, "name", true, &name)) != NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, f, fpath, "offset", true, b->size, &lf->offset)) !=
                NRT_SUCCESS ||
            (st = ntsim_yp_u64(p, f, fpath, "size", true, b->size, &lf->size)) != NRT_SUCCESS ||
            (st = ntsim_yp_str(p, f, fpath, "type", true, &type)) != NRT_SUCCESS)
            return st;
        if (lf->offset + lf->size > b->size)
            return ntsim_yp_error(p, f, fpath, "offset %llu + size %llu overruns size %llu",
                                  (unsigned long long)lf->offset, (unsigned long long)lf->size,
                                  (unsigned long long)b->size);
        if ((lf->name = ntsim_strdup(name)) == NULL || (lf->type = ntsim_strdup(type)) == NULL)
            return NRT_RESOURCE;
        b->field_count = i + 1;
    }
    return check_repeats(p, items, path, b);
}

/* Every field the vector lists, as the testee reports it (got: the reply's
 * names, sorted). */
static void check_listed(const ntsim_vector_t *v, const NtsimTestee__LayoutReply *m,
                         const ntsim_key_t *got, ntsim_report_t *r)
{
    const layout_body_t *b = v->body;
    char subid[256];
    for (size_t i = 0; i < b->field_count; i++) {
        const layout_field_t *lf = &b->fields[i];
        snprintf(subid, sizeof subid, "%s.%s", v->id, lf->name);
        size_t at = ntsim_keys_find(got, m->n_fields, lf->name);
        const NtsimTestee__LayoutField *f = at == SIZE_MAX ? NULL : m->fields[at];
        if (f == NULL) {
            ntsim_report_add(r, subid, "name", "expected a field '%s', got none in %s", lf->name,
                             b->c_type);
            continue;
        }
        if (f->offset != lf->offset)
            ntsim_report_add(r, subid, "offset", "expected 0x%02llx, got 0x%02llx",
                             (unsigned long long)lf->offset, (unsigned long long)f->offset);
        if (f->size != lf->size)
            ntsim_report_add(r, subid, "size", "expected %llu, got %llu",
                             (unsigned long long)lf->size, (unsigned long long)f->size);
        if (strcmp(f->type, lf->type) != 0)
            ntsim_report_add(r, subid, "type", "expected %s, got %s", lf->type, f->type);
    }
}

static void layout_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const layout_body_t *b = v->body;
    NtsimTestee__LayoutRequest q = NTSIM_TESTEE__LAYOUT_REQUEST__INIT;
    q.c_type = b->c_type;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_LAYOUT;
    req.layout = &q;
    NtsimTestee__Response *resp = ntsim_testee_ask(t, &req, v->id, r);
    if (resp == NULL)
        return;
    const NtsimTestee__LayoutReply *m = resp->layout;
    if (!m->found) {
        ntsim_report_add(r, v->id, "c_type", "no type '%s' in the headers", b->c_type);
        ntsim_testee_reply_free(resp);
        return;
    }
    if (!m->has_size || m->size != b->size)
        ntsim_report_add(r, v->id, "size", "expected %llu, got %llu", (unsigned long long)b->size,
                         (unsigned long long)m->size);
    /* Both lists sorted once: each field is then found in O(log n). */
    ntsim_key_t *got = malloc((m->n_fields + 1) * sizeof *got);
    ntsim_key_t *want = malloc((b->field_count + 1) * sizeof *want);
    if (got == NULL || want == NULL) {
        ntsim_report_add(r, v->id, "fields", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < m->n_fields; i++)
        got[i] = (ntsim_key_t){m->fields[i]->name, 0, i};
    ntsim_keys_sort(got, m->n_fields);
    for (size_t j = 0; j < b->field_count; j++)
        want[j] = (ntsim_key_t){b->fields[j].name, 0, j};
    ntsim_keys_sort(want, b->field_count);
    check_listed(v, m, got, r);
    char subid[256];
    for (size_t i = 0; i < m->n_fields; i++) {
        if (ntsim_keys_find(want, b->field_count, m->fields[i]->name) == SIZE_MAX) {
            snprintf(subid, sizeof subid, "%s.%s", v->id, m->fields[i]->name);
            ntsim_report_add(r, subid, "coverage",
                             "expected no such field, got '%s' at 0x%02llx in %s: add it to the "
                             "vector from the spec",
                             m->fields[i]->name, (unsigned long long)m->fields[i]->offset,
                             b->c_type);
        }
    }
done:
    free(got);
    free(want);
    ntsim_testee_reply_free(resp);
}

static const char *layout_subject(const void *body)
{
    return ((const layout_body_t *)body)->c_type;
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const layout_judged[] = {"size", "fields", NULL};

const ntsim_vector_kind_t ntsim_kind_layout = {
    .name = "layout",
    .keys = layout_keys,
    .judged = layout_judged,
    .allows_invalid = false,
    .parse = layout_parse,
    .free_body = layout_free,
    .judge = layout_judge,
    .subject = layout_subject,
};
