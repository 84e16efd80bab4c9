/*
 * conformance/cmd/testee_reword.c: the faults of `ntsim testee --break` that
 * touch only what a testee logged (cli.h):
 *   reword        every message worded as another implementation might word
 *                 it: the same level, the text the spec quotes and the values
 *                 the message is about, none of ntsim's words
 *                 (log_catalog.h). A port that does this must pass exactly
 *                 what the plain testee passes (D-LOG-CONTRACT):
 *                 conformance/cli/contract_check.sh shows it over the vectors
 *                 and a generated run.
 *   log_unlisted  every log counts two messages more than it shows: what a
 *                 testee that hides its warnings replies (issue 35).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "log_catalog.h"
#include "testee_msg.h"

/* The Log of a reply's body, or NULL. */
static NtsimTestee__Log *reply_log(NtsimTestee__Response *m)
{
    switch (m->body_case) {
    case NTSIM_TESTEE__RESPONSE__BODY_RECORD: return m->record->log;
    case NTSIM_TESTEE__RESPONSE__BODY_JSON: return m->json->log;
    case NTSIM_TESTEE__RESPONSE__BODY_NOTIFY: return m->notify->log;
    case NTSIM_TESTEE__RESPONSE__BODY_API: return m->api->log;
    default: return NULL;
    }
}

bool ntsim_testee_reword_reply(const ntsim_testee_faults_t *f, NtsimTestee__Response *m)
{
    NtsimTestee__Log *log = reply_log(m);
    if (log == NULL)
        return true;
    if (f->log_unlisted)
        log->count += 2;
    for (size_t i = 0; f->reword && i < log->n_lines; i++) {
        char other[1024];
        (void)ntsim_log_catalog_reword(log->lines[i], other, sizeof other);
        /* The unpacked reply's strings are protobuf-c's, from malloc. */
        char *copy = ntsim_strdup(other);
        if (copy == NULL)
            return false;
        free(log->lines[i]);
        log->lines[i] = copy;
    }
    return true;
}
