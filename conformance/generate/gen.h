/*
 * conformance/generate/gen.h: generative conformance, the runner's side
 * (`check_ntsim --testee CMD --generate N`; docs/generative.md).
 *
 * Random cases of the judged kinds (record, json, ntff, notify, api) are
 * made from a seed, each as a vector of that kind's own format; the built-in
 * testee (the reference, in process) answers the case's requests, its
 * replies become the vector's expected values, and the kind's own judge then
 * asks the testee under test and compares; invariants are checked on both
 * sides' replies. A failing case is shrunk while it still fails, printed with
 * a repro line, and with --save-failures written as a vector file that
 * `ntsim replay` and `check_ntsim --file` replay.
 */
#ifndef NTSIM_CONFORMANCE_GEN_H
#define NTSIM_CONFORMANCE_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "facts.h"

struct ntsim_testee;

typedef struct ntsim_gen_options {
    uint64_t cases;          /* --generate N */
    uint64_t seed;           /* --seed S (the caller picks one when not given) */
    int64_t only_case;       /* --case K: only that case; -1: cases 0 .. N-1 */
    unsigned kinds;          /* --kind LIST as bits of the generated kinds; 0: all */
    const char *kind_list;   /* that LIST as given (for repro lines), or NULL */
    const char *save_dir;    /* --save-failures DIR, or NULL */
    uint64_t max_failures;   /* stop after this many failing cases (each shrunk) */
    uint64_t shrink_steps;   /* the most candidates one shrink may try */
    double progress_seconds; /* a progress line on stderr this often; 0: none */
    bool quiet;              /* no failure blocks: the summary only (mutants.pl) */
    /* For repro lines: the runner's own name, and the testee's command
     * (NULL: the built-in testee in process). */
    const char *argv0;
    const char *testee_command;
    const char *vectors_note; /* " --vectors DIR" when not the default, else "" */
    /* Called after each case's verdict (check_ntsim --junit): its kind and
     * id, the result (NTSIM_GEN_CASE_*) and what the run printed for it (a
     * failure's block, an error's report, a skip's reason; NULL for a
     * pass). NULL: not called. */
    void (*on_case)(const char *kind, const char *id, int result, const char *text);
} ntsim_gen_options_t;

enum { NTSIM_GEN_CASE_PASSED, NTSIM_GEN_CASE_FAILED, NTSIM_GEN_CASE_SKIPPED, NTSIM_GEN_CASE_ERROR };

/* The generated kinds' names, comma-separated, into bits (a name a kind of
 * NTSIM_KIND_MAP that is not generated is refused, naming those that are).
 * False with why. */
bool ntsim_gen_parse_kinds(const char *list, unsigned *bits, char *why, size_t cap);
/* "record,json,ntff,notify,api": the kinds the generator makes. */
const char *ntsim_gen_kind_list(void);

/* Runs the cases against testee t (the built-in in-process one when the
 * runner has no --testee), printing failures, progress and the summary.
 * facts: the loaded facts and decisions, against which every source the
 * generator writes is checked (NULL: not checked). Returns the exit status:
 * 0 when every case passed, 1 otherwise (a failure, a case the reference
 * could not express as a vector, a source naming no fact), 2 on bad
 * options. */
int ntsim_generate(const ntsim_gen_options_t *o, struct ntsim_testee *t,
                   const ntsim_facts_t *facts);

#endif /* NTSIM_CONFORMANCE_GEN_H */
