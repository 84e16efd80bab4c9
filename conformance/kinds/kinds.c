/* conformance/kinds/kinds.c: the registry of vector kinds, in report order, and
 * running one vector (kinds.h). */
#include "kinds.h"

#include "testee.h"

/* NTSIM_KIND_MAP's order is the report order. */
const ntsim_vector_kind_t *const ntsim_vector_kinds[] = {
#define NTSIM_KIND_ENTRY(name, how, body) &ntsim_kind_##name,
    NTSIM_KIND_MAP(NTSIM_KIND_ENTRY)
#undef NTSIM_KIND_ENTRY
        NULL,
};

const char *ntsim_check_ntff_proto;

void ntsim_vector_run(const ntsim_vector_t *v, struct ntsim_testee *t, ntsim_report_t *r)
{
    if (v->kind->judge != NULL)
        v->kind->judge(v, t, r);
    else
        v->kind->run(v, r);
}

const char *ntsim_vector_skip_reason(const ntsim_vector_t *v, const struct ntsim_testee *t,
                                     char *buf, size_t cap)
{
    if (t == NULL)
        return NULL;
    if (v->kind->judge == NULL)
        return "the harness's own kind";
    if (!ntsim_testee_answers(t, v->kind->name)) {
        snprintf(buf, cap, "the testee does not answer %s", v->kind->name);
        return buf;
    }
    if (v->kind->own_check != NULL && v->kind->own_check(v))
        return NTSIM_OWN_CHECK_REASON;
    unsigned missing = v->kind->needs != NULL ? v->kind->needs(v) & ~ntsim_testee_caps(t) : 0;
    if (missing == 0)
        return NULL;
    char caps[128];
    snprintf(buf, cap, "needs the testee's %s", ntsim_testee_caps_text(missing, caps, sizeof caps));
    return buf;
}
