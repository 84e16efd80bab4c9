/*
 * conformance/generate/gen_int.h: what the generator's files share: the
 * random source, the vector text being written, the replies a testee gave,
 * the coverage counters, and the table of generated kinds.
 *
 * A generated kind (gen_record.c, gen_json.c, gen_ntff.c, gen_notify.c,
 * gen_api.c) owns its case type: the inputs of one vector of that kind and,
 * once the reference has answered, its expected values. The oracle
 * (gen_oracle.c) only moves text and replies between them and the kinds'
 * own loaders and judges.
 */
#ifndef NTSIM_CONFORMANCE_GEN_INT_H
#define NTSIM_CONFORMANCE_GEN_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "log_catalog.h"
#include "nrt/nrt_sys_trace_event.h"
#include "report.h"
#include "testee.h"

/* --- the random source (gen_rng.c) ------------------------------------------------ */

/* xoshiro256** (Blackman and Vigna), seeded through splitmix64: small, fast,
 * the same sequence on every machine. Never rand(). */
typedef struct ntsim_gen_rng {
    uint64_t s[4];
} ntsim_gen_rng_t;

/* The stream of case `index` of a run with `seed`: each case draws from its
 * own stream, so case K is the same whether or not the cases before it ran. */
void ntsim_gen_rng_seed(ntsim_gen_rng_t *r, uint64_t seed, uint64_t index);
uint64_t ntsim_gen_next(ntsim_gen_rng_t *r);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t ntsim_gen_below(ntsim_gen_rng_t *r, uint64_t n);
/* Uniform in [lo, hi]. */
uint64_t ntsim_gen_range(ntsim_gen_rng_t *r, uint64_t lo, uint64_t hi);
/* True with probability percent / 100. */
bool ntsim_gen_chance(ntsim_gen_rng_t *r, unsigned percent);
/* A value of a field `bytes` wide (1, 2, 4, 8), as docs/generative.md
 * gives the distribution: a boundary value (0, 1, max, max - 1, the top bit,
 * a power of two) a quarter of the time, a small one (< 256) a sixth, else
 * uniform over the width. */
uint64_t ntsim_gen_value(ntsim_gen_rng_t *r, unsigned bytes);
/* The same for a C int: INT32_MIN, -1, 0, 1, INT32_MAX and neighbours, or
 * any int32. */
int32_t ntsim_gen_int(ntsim_gen_rng_t *r);
/* Shrinking a number: step i of a ladder takes v toward floor by
 * (v - floor) / 2^(i+1) (the big cuts first, then ever closer); false when
 * the step changes nothing. */
bool ntsim_gen_ladder(uint64_t *v, uint64_t floor, size_t i);

/* --- vector text (gen_text.c) ----------------------------------------------------- */

typedef struct ntsim_gen_text {
    char *buf;
    size_t len, cap;
    bool oom;                 /* an append ran out of memory: the text is unusable */
} ntsim_gen_text_t;

void ntsim_gen_text_init(ntsim_gen_text_t *t);
void ntsim_gen_text_free(ntsim_gen_text_t *t);
void ntsim_gen_text_clear(ntsim_gen_text_t *t);
void ntsim_gen_printf(ntsim_gen_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n bytes as hex digits, a space after every group of `group` bytes. */
void ntsim_gen_hex(ntsim_gen_text_t *t, const void *bytes, size_t n, size_t group);
/* A YAML double-quoted scalar holding exactly the n bytes (UTF-8 sequences
 * as their code points, other bytes below 0x20 and 0x7f escaped). */
void ntsim_gen_quoted(ntsim_gen_text_t *t, const char *s, size_t n);

/* A reply's log as the entries a vector lists (log_expect.h), each a YAML
 * flow text (`{warning: [256]}`): every error and warning, its level and
 * the parts of its catalogued message (D-LOG-CONTRACT), never its words.
 * *out is calloc'd (free each and it); false with why when a message is
 * not catalogued or memory runs out. */
bool ntsim_gen_log_entries(const NtsimTestee__Log *log, char ***out, size_t *n, char *why,
                           size_t cap);
/* "log: [e1, e2]" from those entries, with the indent given. */
void ntsim_gen_log_write(ntsim_gen_text_t *t, const char *indent, char *const *entries, size_t n);

/* The 112 bytes of a record as the record kind writes them. */
void ntsim_gen_record_hex(ntsim_gen_text_t *t, const nrt_sys_trace_event_t *rec);
/* A record as a flow mapping of the record grammar (record_input.c): by
 * fields, or {hex: ...} when its padding is not zero. */
void ntsim_gen_record_yaml(ntsim_gen_text_t *t, const nrt_sys_trace_event_t *rec);
/* The keys data_fill / data / data_raw of a payload given for (type, phase):
 * by field names when the fill byte and the fields give exactly `data`, else
 * as data_raw. Writes ", key: ..." pieces for a flow mapping. */
void ntsim_gen_data_yaml(ntsim_gen_text_t *t, uint32_t type, uint32_t phase,
                   const nrt_sys_trace_event_data_t *data);

/* A type for YAML: its enum suffix, COUNT, or the integer. */
const char *ntsim_gen_type_word(uint32_t type, char *buf, size_t cap);
const char *ntsim_gen_phase_word(uint32_t phase, char *buf, size_t cap);

/* --- a payload, a record (gen_payload.c) ------------------------------------------ */

/* The (type, phase) "anchor" j of a kind's cases: the kind's j-th case
 * starts with it, so that every (type, phase) of the one table, a type past
 * the enum and a phase past it come up within NTSIM_GEN_ANCHORS cases of a kind
 * (docs/generative.md). */
enum { NTSIM_GEN_ANCHOR_TYPES = NRT_SYS_TRACE_EVENT_TYPE_COUNT + 1, NTSIM_GEN_ANCHOR_PHASES = 4,
       NTSIM_GEN_ANCHORS = NTSIM_GEN_ANCHOR_TYPES * NTSIM_GEN_ANCHOR_PHASES };
void ntsim_gen_anchor(ntsim_gen_rng_t *r, uint64_t j, uint32_t *type, uint32_t *phase);
/* A type and a phase: mostly of the table, sometimes past the enum. */
uint32_t ntsim_gen_type(ntsim_gen_rng_t *r);
uint32_t ntsim_gen_phase(ntsim_gen_rng_t *r);
/* A payload for (type, phase): a fill byte, then each field of the member the
 * one table names for it (boundary-biased values, bools true or false), or,
 * a tenth of the time, 40 random bytes. */
void ntsim_gen_payload(ntsim_gen_rng_t *r, uint32_t type, uint32_t phase, nrt_sys_trace_event_data_t *out);
/* A whole record as another implementation might hand the converters one. */
void ntsim_gen_record(ntsim_gen_rng_t *r, uint32_t type, uint32_t phase, nrt_sys_trace_event_t *out);
/* Shrinking: a simpler payload (every byte 0; the fields' values halved) for
 * step k, or false when k is past the last. */
bool ntsim_gen_payload_simpler(const nrt_sys_trace_event_data_t *in, uint32_t type, uint32_t phase,
                         size_t k, nrt_sys_trace_event_data_t *out);
/* The facts a record of (type, phase) rests on, appended to the source. */
void ntsim_gen_source_payload(ntsim_gen_text_t *t, uint32_t type, uint32_t phase);

/* --- replies (gen_oracle.c) ------------------------------------------------------- */

/* The responses one judge got from one testee, in order (copies). */
typedef struct ntsim_gen_replies {
    NtsimTestee__Response **items;
    size_t count, cap;
} ntsim_gen_replies_t;

void ntsim_gen_replies_free(ntsim_gen_replies_t *g);

/* --- coverage (gen_run.c prints it) ----------------------------------------------- */

typedef struct ntsim_gen_cov {
    uint64_t type_phase[NRT_SYS_TRACE_EVENT_TYPE_COUNT][3]; /* emits or records of each */
    uint64_t type_past, phase_past; /* a type >= COUNT, a phase >= 3 */
    uint64_t notify_in[11];         /* converter inputs 0..10 */
    uint64_t notify_below, notify_above; /* < 0, > 10 */
    uint64_t notify_explicit;       /* EXPLICIT collections */
    uint64_t overflowed;            /* record cases whose ring overwrote (the reference's stats) */
    uint64_t strings;               /* json escaper strings */
    uint64_t api_calls[32];         /* api calls by api_call_t */
} ntsim_gen_cov_t;

void ntsim_gen_cov_type_phase(ntsim_gen_cov_t *c, uint32_t type, uint32_t phase);

/* --- the generated kinds ------------------------------------------------------------ */

typedef enum ntsim_gen_expect_status {
    NTSIM_GEN_EXPECT_DONE,   /* the case holds every expected value the replies give */
    NTSIM_GEN_EXPECT_AGAIN,  /* the replies stopped early (an api status): ask again */
    NTSIM_GEN_EXPECT_NONE    /* the reference's replies cannot become this kind's vector */
} ntsim_gen_expect_status_t;

typedef struct ntsim_gen_kind {
    const char *name;           /* the vector kind (NTSIM_KIND_MAP) */
    unsigned weight;            /* cases of this kind in every NTSIM_GEN_ROUND cases */
    /* A new case: j counts this kind's cases (its anchor, ntsim_gen_anchor). */
    void *(*make)(ntsim_gen_rng_t *r, uint64_t j);
    void (*free)(void *c);
    void *(*copy)(const void *c);
    /* The vector's keys after id, comment and source: expect (and error),
     * then the kind's own; the expected values the case holds, and for
     * those it does not yet, what the kind's loader accepts in their place. */
    void (*write)(const void *c, ntsim_gen_text_t *t);
    /* The source ids (the facts and decisions the vector rests on). */
    void (*source)(const void *c, ntsim_gen_text_t *t);
    /* Takes the expected values from the reference's replies. */
    ntsim_gen_expect_status_t (*expect)(void *c, const ntsim_gen_replies_t *ref, char *why, size_t cap);
    /* The invariants on one side's replies ("reference" or "testee"). */
    void (*check)(const void *c, const ntsim_gen_replies_t *got, const char *who, const char *id,
                  ntsim_report_t *r);
    /* Shrinking: the k-th simpler candidate (NULL past the last); its
     * expected values are taken again before it is tried. */
    void *(*shrink)(const void *c, size_t k);
    /* How big the case is, for the summary's "shrunk from A to B", and the
     * word for it ("emit calls", "records", "calls"). */
    size_t (*size)(const void *c);
    const char *size_unit;
    void (*cover)(const void *c, ntsim_gen_cov_t *cov, const ntsim_gen_replies_t *ref);
} ntsim_gen_kind_t;

extern const ntsim_gen_kind_t ntsim_gen_kind_record, ntsim_gen_kind_json, ntsim_gen_kind_ntff, ntsim_gen_kind_notify,
    ntsim_gen_kind_api;
/* In summary order; NULL-terminated. */
extern const ntsim_gen_kind_t *const ntsim_gen_kinds[];
enum { NTSIM_GEN_KIND_COUNT = 5 };

/* --- one case through the oracle (gen_oracle.c) ------------------------------------ */

typedef enum ntsim_gen_verdict {
    NTSIM_GEN_PASS,
    NTSIM_GEN_FAIL,      /* the judge or an invariant found a mismatch */
    NTSIM_GEN_SKIP,      /* the testee cannot judge it (a kind it does not answer, a capability) */
    NTSIM_GEN_DISCARD,   /* the reference's answers cannot be written as this kind's vector */
    NTSIM_GEN_ERROR      /* the generator's own fault: its vector did not load, out of memory */
} ntsim_gen_verdict_t;

typedef struct ntsim_gen_outcome {
    ntsim_gen_verdict_t verdict;
    ntsim_report_t report;    /* the mismatches (FAIL), or why (SKIP, DISCARD, ERROR) */
    char skipped[160];        /* SKIP: the runner's reason */
    unsigned unjudged;        /* capabilities whose checks were left out */
    ntsim_gen_replies_t ref;        /* the reference's replies (for coverage) */
} ntsim_gen_outcome_t;

typedef struct ntsim_gen_ctx {
    const ntsim_gen_options_t *o;
    struct ntsim_testee *testee;   /* the testee under test */
    struct ntsim_testee *reference; /* the built-in one, in process */
    const ntsim_facts_t *facts;
    ntsim_gen_text_t text;               /* scratch for vector text */
} ntsim_gen_ctx_t;

/* The whole vector file of case c as text: id, comment, source, the kind's
 * keys. */
void ntsim_gen_vector_text(const ntsim_gen_kind_t *k, const void *c, const char *id, const char *comment,
                     ntsim_gen_text_t *t);
/* Runs case c (its expected values taken from the reference, then judged
 * against the testee, invariants on both); c's expected values are updated.
 * Free *out with ntsim_gen_outcome_free. */
void ntsim_gen_evaluate(ntsim_gen_ctx_t *x, const ntsim_gen_kind_t *k, void *c, const char *id,
                  ntsim_gen_outcome_t *out);
void ntsim_gen_outcome_free(ntsim_gen_outcome_t *out);

/* --- shrinking and saving (gen_shrink.c) ------------------------------------------ */

/* Monotonic seconds. */
double ntsim_gen_now(void);
/* Shrinks the failing case *c (whose outcome is *out) while it still fails,
 * trying at most `budget` candidates within `seconds`; *c and *out become
 * the smallest failing case and its outcome. Returns the candidates tried. */
size_t ntsim_gen_shrink(ntsim_gen_ctx_t *x, const ntsim_gen_kind_t *k, void **c, const char *id,
                  ntsim_gen_outcome_t *out, size_t budget, double seconds);
/* Writes case c (with its expected values) as a new vector file DIR/NAME.yaml
 * (NAME-2.yaml ... when taken: nothing is written over); its whole path in
 * *path (malloc'd: the caller frees), or false with why. A path is never
 * cut: one the system refuses (longer than PATH_MAX) is not saved, and why
 * says so. */
bool ntsim_gen_save(const ntsim_gen_kind_t *k, const void *c, const char *id, const char *comment,
                    const char *dir, const char *name, char **path, char *why, size_t why_cap);

#endif /* NTSIM_CONFORMANCE_GEN_INT_H */
