/*
 * conformance/kinds/kind_enum.c: `enum` vectors.
 *
 *   - id: enum.notification_type
 *     ...common keys...
 *     c_type: enum notification_type
 *     size: 4
 *     members:
 *       - {name: NOTIFICATION_TYPE_TRACE, value: 0}
 *
 * Compared both ways with what the testee reports (an EnumRequest; the
 * built-in testee answers from the compiled registry): every member the
 * vector names must exist with that value, and every member reported must
 * be named.
 * Sub-ids are "<id>.<member>".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "key_sort.h"
#include "kinds.h"
#include "testee.h"

typedef struct enum_member {
    char *name;
    int64_t value;
} enum_member_t;

typedef struct enum_body {
    char *c_type;
    uint64_t size;
    enum_member_t *members;
    size_t member_count;
} enum_body_t;

static const char *const enum_keys[] = {"c_type", "size", "members", NULL};
static const char *const member_keys[] = {"name", "value", NULL};

static void enum_free(void *body)
{
    enum_body_t *b = body;
    for (size_t i = 0; i < b->member_count; i++)
        free(b->members[i].name);
    free(b->members);
    free(b->c_type);
    free(b);
}

/* A member listed twice: the earliest repeat, at its name. */
static NRT_STATUS check_repeats(ntsim_yparse_t *p, yaml_node_item_t *items, const char *path,
                                const enum_body_t *b)
{
    ntsim_key_t *keys = malloc((b->member_count + 1) * sizeof *keys);
    if (keys == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < b->member_count; i++)
        keys[i] = (ntsim_key_t){b->members[i].name, 0, i};
    NRT_STATUS st = ntsim_yp_repeats(p, items, keys, b->member_count, path, "members", "name",
                                     "member");
    free(keys);
    return st;
}

static NRT_STATUS enum_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path, void **out)
{
    enum_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    const char *c_type;
    yaml_node_item_t *items;
    size_t count;
    NRT_STATUS st;
    if ((st = ntsim_yp_str(p, node, path, "c_type", true, &c_type)) != NRT_SUCCESS ||
        (st = ntsim_yp_u64(p, node, path, "size", true, 8, &b->size)) != NRT_SUCCESS ||
        (st = ntsim_yp_seq(p, node, path, "members", &items, &count)) != NRT_SUCCESS)
        return st;
    if ((b->c_type = ntsim_strdup(c_type)) == NULL ||
        (b->members = calloc(count, sizeof *b->members)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < count; i++) {
        char mpath[256];
        snprintf(mpath, sizeof mpath, "%s.members[%zu]", path, i);
        yaml_node_t *m = ntsim_yp_node(p, items[i]);
        const char *name;
        int64_t value;
        if ((st = ntsim_yp_check_keys(p, m, mpath, member_keys, NULL)) != NRT_SUCCESS ||
            (st = ntsim_yp_str(p, m, mpath, "name", true, &name)) != NRT_SUCCESS ||
            (st = ntsim_yp_int(p, m, mpath, "value", true, INT32_MIN, INT32_MAX, &value)) !=
                NRT_SUCCESS)
            return st;
        if ((b->members[i].name = ntsim_strdup(name)) == NULL)
            return NRT_RESOURCE;
        b->members[i].value = value;
        b->member_count = i + 1;
    }
    return check_repeats(p, items, path, b);
}

static void compare_members(const ntsim_vector_t *v, const NtsimTestee__EnumReply *m,
                            ntsim_report_t *r)
{
    const enum_body_t *b = v->body;
    char subid[256];
    /* Both lists sorted once: each member is then found in O(log n). */
    ntsim_key_t *got_keys = malloc((m->n_members + 1) * sizeof *got_keys);
    ntsim_key_t *want_keys = malloc((b->member_count + 1) * sizeof *want_keys);
    if (got_keys == NULL || want_keys == NULL) {
        ntsim_report_add(r, v->id, "members", "out of memory");
        goto done;
    }
    for (size_t j = 0; j < m->n_members; j++)
        got_keys[j] = (ntsim_key_t){m->members[j]->name, 0, j};
    ntsim_keys_sort(got_keys, m->n_members);
    for (size_t i = 0; i < b->member_count; i++)
        want_keys[i] = (ntsim_key_t){b->members[i].name, 0, i};
    ntsim_keys_sort(want_keys, b->member_count);
    for (size_t i = 0; i < b->member_count; i++) {
        const enum_member_t *want = &b->members[i];
        snprintf(subid, sizeof subid, "%s.%s", v->id, want->name);
        size_t at = ntsim_keys_find(got_keys, m->n_members, want->name);
        const NtsimTestee__EnumMember *got = at == SIZE_MAX ? NULL : m->members[at];
        if (got == NULL)
            ntsim_report_add(r, subid, "name", "expected a member '%s', got none in %s",
                             want->name, b->c_type);
        else if (got->value != want->value)
            ntsim_report_add(r, subid, "value", "expected %" PRId64 ", got %" PRId64,
                             want->value, got->value);
    }
    for (size_t j = 0; j < m->n_members; j++) {
        if (ntsim_keys_find(want_keys, b->member_count, m->members[j]->name) == SIZE_MAX) {
            snprintf(subid, sizeof subid, "%s.%s", v->id, m->members[j]->name);
            ntsim_report_add(r, subid, "coverage",
                             "expected no such member, got %s = %" PRId64 " in %s: add it to "
                             "the vector from the spec",
                             m->members[j]->name, m->members[j]->value, b->c_type);
        }
    }
done:
    free(got_keys);
    free(want_keys);
}

static void enum_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const enum_body_t *b = v->body;
    NtsimTestee__EnumRequest q = NTSIM_TESTEE__ENUM_REQUEST__INIT;
    q.c_type = b->c_type;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_ENUM_TYPE;
    req.enum_type = &q;
    NtsimTestee__Response *resp = ntsim_testee_ask(t, &req, v->id, r);
    if (resp == NULL)
        return;
    const NtsimTestee__EnumReply *m = resp->enum_type;
    if (!m->found)
        ntsim_report_add(r, v->id, "c_type", "no enum '%s' in the headers", b->c_type);
    else {
        if (!m->has_size || m->size != b->size)
            ntsim_report_add(r, v->id, "size", "expected %llu, got %llu",
                             (unsigned long long)b->size, (unsigned long long)m->size);
        compare_members(v, m, r);
    }
    ntsim_testee_reply_free(resp);
}

static const char *enum_subject(const void *body)
{
    return ((const enum_body_t *)body)->c_type;
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const enum_judged[] = {"size", "members", NULL};

const ntsim_vector_kind_t ntsim_kind_enum = {
    .name = "enum",
    .keys = enum_keys,
    .judged = enum_judged,
    .allows_invalid = false,
    .parse = enum_parse,
    .free_body = enum_free,
    .judge = enum_judge,
    .subject = enum_subject,
};
