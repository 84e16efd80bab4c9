#!/bin/sh
# conformance/proofs/add_kind.sh [CC]: proves docs/architecture.md's checklist
# for adding a vector kind is exactly right, on a scratch copy of the tree.
#
# It adds a throwaway twelfth kind, `scratch`, that an implementation answers
# (a number in, the number plus one back), with the checklist's edits, one
# function per edit:
#   1. edit_map      one XX(scratch, JUDGED, SCRATCH) entry in NTSIM_KIND_MAP
#                    (conformance/lib/kind_map.h)
#   2. edit_proto    the request and reply messages, and a field of each in
#                    Request's and Response's `body` (conformance/testee/testee.proto)
#   3. edit_kind     conformance/kinds/kind_scratch.c (keys, parse, judge), listed
#                    in conformance/kinds/kinds.mk
#   4. edit_builtin  the built-in testee's answer, ntsim__testee_scratch
#                    (conformance/testee/builtin/testee_scratch.c, listed in
#                    conformance/testee/testee.mk)
#   5. edit_vectors  vectors/scratch.yaml: the kind's vectors
# (6, the kind's section in conformance/testee/TESTEE.md and its row in
# vectors/README.md, is prose: no test reads it.)
#
# Then: with all five edits the whole suite passes, in process and through
# `ntsim testee` (the checklist is enough); with any one left out, the build
# or the suite fails (none is superfluous). Exit 0 when both hold.
cc=${1:-cc}
proof=add_kind
. "$(dirname "$0")/checklist.sh"
checklist_base

edit_map() {
    perl -0pi -e 's/(\n    XX\(inspect, OWN, NONE\))\n/$1 \\\n    XX(scratch, JUDGED, SCRATCH)\n/' \
        "$tmp/t/conformance/lib/kind_map.h"
}
edit_proto() {
    perl -0pi -e 's/(\n    ApiRequest api = 10;\n)/$1    ScratchRequest scratch = 11;\n/; s/(\n    ApiReply api = 10;\n)/$1    ScratchReply scratch = 11;\n/' \
        "$tmp/t/conformance/testee/testee.proto"
    cat >>"$tmp/t/conformance/testee/testee.proto" <<'PROTO'

message ScratchRequest {
  required uint64 value = 1;
}

message ScratchReply {
  required uint64 value = 1;                // the request's value plus one
}
PROTO
}
edit_kind() {
    cat >"$tmp/t/conformance/kinds/kind_scratch.c" <<'C'
/* conformance/kinds/kind_scratch.c: the throwaway kind of add_kind.sh. */
#include <stdlib.h>

#include "kinds.h"
#include "testee.h"

typedef struct scratch_body {
    uint64_t value, reply;
} scratch_body_t;

static const char *const scratch_keys[] = {"value", "reply", NULL};

static void scratch_free(void *body)
{
    free(body);
}

static NRT_STATUS scratch_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                                void **out)
{
    scratch_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    NRT_STATUS st = ntsim_yp_u64(p, node, path, "value", true, UINT64_MAX - 1, &b->value);
    return st != NRT_SUCCESS ? st : ntsim_yp_u64(p, node, path, "reply", true, UINT64_MAX, &b->reply);
}

static void scratch_judge(const ntsim_vector_t *v, ntsim_testee_t *t, ntsim_report_t *r)
{
    const scratch_body_t *b = v->body;
    NtsimTestee__ScratchRequest q = NTSIM_TESTEE__SCRATCH_REQUEST__INIT;
    q.value = b->value;
    NtsimTestee__Request req = NTSIM_TESTEE__REQUEST__INIT;
    req.body_case = NTSIM_TESTEE__REQUEST__BODY_SCRATCH;
    req.scratch = &q;
    NtsimTestee__Response *resp = ntsim_testee_ask(t, &req, v->id, r);
    if (resp == NULL)
        return;
    if (resp->scratch->value != b->reply)
        ntsim_report_add(r, v->id, "reply", "expected %llu, got %llu",
                         (unsigned long long)b->reply, (unsigned long long)resp->scratch->value);
    ntsim_testee_reply_free(resp);
}

const ntsim_vector_kind_t ntsim_kind_scratch = {
    .name = "scratch",
    .keys = scratch_keys,
    .parse = scratch_parse,
    .free_body = scratch_free,
    .judge = scratch_judge,
};
C
    perl -0pi -e 's/(kind_api_run\.c kind_inspect\.c)/$1 kind_scratch.c/' \
        "$tmp/t/conformance/kinds/kinds.mk"
}
edit_builtin() {
    cat >"$tmp/t/conformance/testee/builtin/testee_scratch.c" <<'C'
/* conformance/testee/builtin/testee_scratch.c: the throwaway kind of add_kind.sh. */
#include "testee_engine_int.h"

NRT_STATUS ntsim__testee_scratch(const NtsimTestee__Request *q, ntsim_arena_t *a,
                                 NtsimTestee__Response *out, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    NtsimTestee__ScratchReply *m = ntsim_arena_alloc(a, sizeof *m);
    if (m == NULL)
        return NRT_RESOURCE;
    ntsim_testee__scratch_reply__init(m);
    m->value = q->scratch->value + 1;
    out->body_case = NTSIM_TESTEE__RESPONSE__BODY_SCRATCH;
    out->scratch = m;
    return NRT_SUCCESS;
}
C
    perl -0pi -e 's/(testee_convert\.c testee_api\.c)/$1 testee_scratch.c/' \
        "$tmp/t/conformance/testee/testee.mk"
}
edit_vectors() {
    cat >"$tmp/t/vectors/scratch.yaml" <<'YAML'
version: 1
kind: scratch
comment: the throwaway kind of conformance/proofs/add_kind.sh
vectors:
  - id: scratch.one
    comment: the testee adds one
    source: D-VECTOR-SCHEMA
    expect: valid
    value: 41
    reply: 42
YAML
}

EDITS="edit_map edit_proto edit_kind edit_builtin edit_vectors"

suite() { # the whole suite in process, then the judged kinds through ntsim testee
    (cd "$tmp/t" && CK_VERBOSITY=silent ./build/check_ntsim) >"$tmp/suite.log" 2>&1 &&
        (cd "$tmp/t" && CK_VERBOSITY=silent ./build/check_ntsim --testee './build/ntsim testee' \
            --kind scratch) >"$tmp/testee.log" 2>&1
}

# --- all five edits: the suite passes ------------------------------------------
fresh
applied edit_map conformance/lib/kind_map.h
applied edit_proto conformance/testee/testee.proto
applied edit_kind conformance/kinds/kinds.mk
applied edit_builtin conformance/testee/testee.mk
applied edit_vectors
if ! build; then
    say "with every edit, the build failed:"; grep -m5 -E 'error' "$tmp/build.log" | sed 's/^/    /'
    exit 1
fi
if suite && grep -q '^  scratch: 1 passed, 0 failed' "$tmp/suite.log" &&
    grep -q '^  scratch: 1 passed, 0 failed' "$tmp/testee.log"; then
    say "1-5 applied: $(tail -1 "$tmp/suite.log"); through ntsim testee: $(tail -1 "$tmp/testee.log")"
else
    say "with every edit, the suite failed or did not judge the new kind:"
    grep -E '^FAIL|scratch|conformance:' "$tmp/suite.log" "$tmp/testee.log" | head -8
    exit 1
fi

# --- each edit left out: the build or the suite fails -----------------------------
leave_each_out
checklist_done 5
