/*
 * conformance/lib/vector.h: loading golden vectors from YAML (libyaml).
 *
 * A vector file is one YAML document (schema: vectors/README.md):
 *
 *   version: 1                  # schema version; only 1 exists
 *   kind: layout                # which runner checks these vectors
 *   comment: one line           # optional
 *   vectors:                    # one or more
 *     - id: layout.hw_notify    # stable, unique, starts with "<kind>."
 *       comment: one line       # what this vector pins
 *       source: S3.hw_notify, D-NAMES
 *                               # where its values come from: the ids of the
 *                               #   facts (docs/spec_facts.md) and decisions
 *                               #   (docs/decisions.md) it rests on, separated
 *                               #   by commas or spaces (facts.h)
 *       flags: [hole, gotcha]   # optional, from a fixed set
 *       expect: valid           # or: invalid, with error: "<the error>"
 *       ...                     # the kind's own keys
 *
 * The loader is strict (the readers of yaml_reader.h): unknown keys, missing
 * keys, wrong scalar types, out of range integers, duplicate ids and malformed
 * YAML are errors, each reported as "file:line:col: field: message" and kept
 * in the set; nothing is skipped silently. Loading never aborts the process.
 * Mismatches found by running a vector go into a report (report.h).
 */
#ifndef NTSIM_CONFORMANCE_VECTOR_H
#define NTSIM_CONFORMANCE_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"
#include "report.h"
#include "yaml_reader.h"

typedef enum ntsim_expect {
    NTSIM_EXPECT_VALID,
    NTSIM_EXPECT_INVALID
} ntsim_expect_t;

typedef struct ntsim_vector ntsim_vector_t;
struct ntsim_testee;     /* testee.h */
struct ntsim_trace_info; /* ntsim/convert.h */

typedef struct ntsim_vector_kind {
    const char *name;              /* the file's kind: value, and the id prefix */
    const char *const *keys;       /* the kind's own vector keys, NULL-terminated */
    const char *const *judged;     /* those whose values are the expectation the kind
                                    * compares (the rest are inputs); with `error`, the
                                    * keys a fact may be pinned by (facts.h) */
    bool allows_invalid;           /* may a vector of this kind say expect: invalid */
    /* Reads the kind's keys of the vector mapping `node` (whose error path is
     * `path`) into a new body. Returns NRT_SUCCESS, or NRT_INVALID after
     * reporting through ntsim_yp_error, or NRT_RESOURCE. */
    NRT_STATUS (*parse)(ntsim_yparse_t *p, yaml_node_t *node, const char *path, void **body);
    void (*free_body)(void *body);
    /* A kind of the harness's own (scenario, decode): checks the vector;
     * every mismatch goes into the report. NULL for the kinds an
     * implementation answers, which judge instead. */
    void (*run)(const ntsim_vector_t *v, ntsim_report_t *r);
    /* A kind an implementation answers (conformance/testee/testee.proto): asks
     * the testee and compares its replies with the vector; every mismatch
     * goes into the report. The same judge runs in process and against a
     * testee process (testee.h). NULL for the harness's own kinds. */
    void (*judge)(const ntsim_vector_t *v, struct ntsim_testee *t, ntsim_report_t *r);
    /* The testee capabilities (NTSIM_TESTEE_CAP_*) the vector cannot be
     * judged without: a testee lacking one skips it. NULL: none. */
    unsigned (*needs)(const ntsim_vector_t *v);
    /* Whether a vector of a judged kind is the harness's own check, asking
     * the testee nothing (an ntff schema vector: protoc on bytes typed by
     * hand). It runs in process; with a testee process it is skipped, so
     * that it never counts as that testee's pass. NULL: none is. */
    bool (*own_check)(const ntsim_vector_t *v);
    /* What the vector pins (a C type, an enum, an event type), for the
     * coverage checks of runner/check_vectors.c: set by the kinds those
     * ask (layout, enum, event_type), NULL for the others. */
    const char *(*subject)(const void *body);
    /* The records the vector writes down (a json or ntff vector's input, a
     * record vector's drained output) into *out, valid while the body is;
     * returns their count. And an ntff vector's trace infos, up to cap of
     * them copied into out (payloads valid while the body is); returns their
     * count. For the read stage's round trips (D-READ); NULL: none. */
    size_t (*records)(const void *body, const nrt_sys_trace_event_t **out);
    size_t (*infos)(const void *body, struct ntsim_trace_info *out, size_t cap);
} ntsim_vector_kind_t;

struct ntsim_vector {
    char *id;
    char *comment;
    char *source;
    char **flags;
    size_t flag_count;
    ntsim_expect_t expect;
    char *error;                   /* the error an invalid vector must produce */
    const ntsim_vector_kind_t *kind;
    char *file;                    /* path as given to the loader */
    unsigned line;                 /* 1-based line of the vector's "- " item */
    void *body;                    /* the kind's parsed keys */
    char **keys;                   /* the vector's own keys, as written (facts: FACT@key) */
    size_t key_count;
};

typedef struct ntsim_vector_set {
    ntsim_vector_t *vectors;
    size_t count;
    size_t cap;
    ntsim_errors_t errors;         /* load errors; errors.files counts files read */
    ntsim_errors_t unreadable;     /* load_dir: files and folders that give no content at all */
} ntsim_vector_set_t;

/* The kinds this build knows (conformance/kinds/kinds.c), NULL-terminated. */
extern const ntsim_vector_kind_t *const ntsim_vector_kinds[];

void ntsim_vector_set_init(ntsim_vector_set_t *set);
/* Frees everything the set owns; safe on a zeroed or half-loaded set. */
void ntsim_vector_set_free(ntsim_vector_set_t *set);

/* Loads one file into the set. Returns NRT_SUCCESS when every vector in it
 * loaded, NRT_INVALID when any error was recorded (the file's good vectors are
 * still added), NRT_FAILURE when the file cannot be read, NRT_RESOURCE on OOM. */
NRT_STATUS ntsim_vector_set_load_file(ntsim_vector_set_t *set, const char *path);
/* Loads every *.yaml under dir (recursively, in byte order of the path),
 * each directory read once: a symlink loop or a second path to a directory
 * is an error naming both paths, and not followed; deeper than 16
 * directories is an error too. Returns the worst status of the files; a
 * missing dir, a loop or an unreadable subdirectory is NRT_FAILURE. What
 * gives no content at all (dir or a subdirectory that does not list, a
 * *.yaml that does not open or is not a regular file) is named in
 * set->unreadable, not set->errors, and not loaded: the caller's input
 * failed, not a vector (D-DATA-LOCATE). A file that opens but is refused
 * (over the size limit, not YAML) is a load error as any. */
NRT_STATUS ntsim_vector_set_load_dir(ntsim_vector_set_t *set, const char *dir);
/* Whether `key` (len bytes) is one of v's keys that its kind judges: `error`
 * or one of the kind's judged keys, present in v (facts.h: FACT@key). */
bool ntsim_vector_judges_key(const ntsim_vector_t *v, const char *key, size_t len);

/* Loads from a string (tests, fuzzing); `name` is used in error messages. */
NRT_STATUS ntsim_vector_set_load_string(ntsim_vector_set_t *set, const char *name,
                                        const char *text, size_t len);

#endif /* NTSIM_CONFORMANCE_VECTOR_H */
