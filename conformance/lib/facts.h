/*
 * conformance/lib/facts.h: the facts of the spec and the decisions, as ids, and
 * which vectors pin them.
 *
 * docs/spec_facts.md lists every fact of the two spec documents, one per line:
 *
 *   - `S3.hw_notify` — hw_notify, size 40: ... [HIGH]
 *   - `F2.json.timestamp_override` — ... [CONFLICT] → settled by D-JSON-TIME
 *
 * docs/decisions.md has one "## D-NAME: title" heading per decision. A
 * vector's `source:` names the fact and decision ids it rests on, separated
 * by commas or spaces; a fact cited as FACT@key is *pinned* by that vector:
 * `key` is one of the vector's keys, the one whose judgement fails if the
 * fact changes. A fact line may also end with " · pinned by `name`, ...",
 * naming unit tests (START_TEST) or CLI scripts that pin it, and, before
 * that, " · pinned only at `key`" when only that key of a vector can see
 * the fact (a pin at another key counts for nothing). The coverage
 * check: every fact (but those settled by D-OUT-OF-SCOPE) is pinned, by a
 * vector's key or a named check that exists; every id a vector cites
 * exists; every [CONFLICT] or [OPEN] fact names a decision that exists.
 */
#ifndef NTSIM_CONFORMANCE_FACTS_H
#define NTSIM_CONFORMANCE_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "nrt/nrt_status.h"
#include "yaml_reader.h"

enum { NTSIM_FACT_CHECKS_MAX = 4 };

typedef struct ntsim_fact {
    char *id;              /* "S3.hw_notify" */
    char status[12];       /* HIGH, MED, LOW, OBS, inf, CONFLICT, OPEN */
    char *settled_by;      /* "D-JSON-TIME", or NULL */
    char *checks[NTSIM_FACT_CHECKS_MAX]; /* "pinned by" names: unit tests, CLI scripts */
    /* " · pinned only at `key`": the one vector key whose judgement can see
     * the fact (NTFF map order: `bytes`, protoc's text sorts maps itself);
     * a pin at another key pins nothing. NULL: any key the kind judges. */
    char *only_at;
    size_t check_count;
    unsigned line;         /* in the facts file */
    unsigned cited;        /* vectors that cite it (filled by the caller) */
    unsigned pinned;       /* vectors that pin it by a key they judge (FACT@key; caller) */
} ntsim_fact_t;

/* A count docs/spec_facts.md states in its "## Counts" section: "- HIGH: 257",
 * "- total: 345", "Entries that name a settling decision: 132" (as "settled"). */
typedef struct ntsim_fact_count {
    char name[16];
    size_t n;
} ntsim_fact_count_t;

enum { NTSIM_FACT_COUNTS_MAX = 12 };

typedef struct ntsim_facts {
    ntsim_fact_t *items;
    size_t count;
    ntsim_fact_count_t stated[NTSIM_FACT_COUNTS_MAX]; /* the file's own counts */
    size_t stated_count;
    char **decisions;      /* "D-NAME" of every heading */
    size_t decision_count;
} ntsim_facts_t;

/* The decision that exempts a fact from the coverage check. */
#define NTSIM_FACTS_EXEMPT "D-OUT-OF-SCOPE"

/* Loads both files. Malformed lines, duplicate ids and unreadable files are
 * errors ("file:line: message") in *errors; NRT_SUCCESS when there are none. */
NRT_STATUS ntsim_facts_load(ntsim_facts_t *f, const char *facts_path, const char *decisions_path,
                            ntsim_errors_t *errors);
void ntsim_facts_free(ntsim_facts_t *f);

ntsim_fact_t *ntsim_facts_find(const ntsim_facts_t *f, const char *id, size_t len);
/* Whether a vector's `key` (len bytes) can pin fact x: x names no key, or
 * this one. */
bool ntsim_fact_pinnable_at(const ntsim_fact_t *x, const char *key, size_t len);
bool ntsim_facts_has_decision(const ntsim_facts_t *f, const char *id, size_t len);

/* Calls fn for each id token of a source string (a fact id "S3.x" / "F2.y" or
 * a decision id "D-NAME"), with its length; stops early when fn returns
 * false. Returns false when the source holds anything else (the loader's
 * syntax check) or no id at all. */
bool ntsim_source_each_id(const char *source, bool (*fn)(const char *id, size_t len, void *ctx),
                          void *ctx);

/* Calls fn for each pin of a source: a fact cited as FACT@key, the key of
 * the vector that would fail if the fact changed ("S3.hw_notify@fields",
 * "S5.convert.drop_message@log"). Same return as ntsim_source_each_id. */
bool ntsim_source_each_pin(const char *source,
                           bool (*fn)(const char *id, size_t len, const char *key,
                                      size_t key_len, void *ctx),
                           void *ctx);

#endif /* NTSIM_CONFORMANCE_FACTS_H */
