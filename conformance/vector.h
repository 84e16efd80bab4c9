/*
 * conformance/vector.h: loading golden vectors from YAML (libyaml).
 *
 * A vector file is one YAML document (schema: vectors/README.md):
 *
 *   version: 1                  # schema version; only 1 exists
 *   kind: layout                # which runner checks these vectors
 *   comment: one line           # optional
 *   vectors:                    # one or more
 *     - id: layout.hw_notify    # stable, unique, starts with "<kind>."
 *       comment: one line       # what this vector pins
 *       source: spec §3         # where its values come from: spec §N,
 *                               #   facts §N or decision D-NAME
 *       flags: [hole, gotcha]   # optional, from a fixed set
 *       expect: valid           # or: invalid, with error: "<the error>"
 *       ...                     # the kind's own keys
 *
 * The loader is strict: unknown keys, missing keys, wrong scalar types, out of
 * range integers, duplicate ids and malformed YAML are errors, each reported
 * as "file:line:col: field: message" and kept in the set; nothing is skipped
 * silently. Loading never aborts the process.
 */
#ifndef NTSIM_CONFORMANCE_VECTOR_H
#define NTSIM_CONFORMANCE_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <yaml.h>

#include "nrt/nrt_status.h"

typedef enum ntsim_expect {
    NTSIM_EXPECT_VALID,
    NTSIM_EXPECT_INVALID
} ntsim_expect_t;

/* Parse state for one file; kinds receive it to read their own keys. */
typedef struct ntsim_vparse ntsim_vparse_t;
typedef struct ntsim_vector ntsim_vector_t;

/* Accumulates the mismatches of one vector run, one line each:
 *   "<sub-id>: <field>: expected <x>, got <y>" */
typedef struct ntsim_report {
    char *text;
    size_t len;
    size_t cap;
    unsigned mismatches;
} ntsim_report_t;

typedef struct ntsim_vector_kind {
    const char *name;              /* the file's kind: value, and the id prefix */
    const char *const *keys;       /* the kind's own vector keys, NULL-terminated */
    bool allows_invalid;           /* may a vector of this kind say expect: invalid */
    /* Reads the kind's keys of the vector mapping `node` (whose error path is
     * `path`) into a new body. Returns NRT_SUCCESS, or NRT_INVALID after
     * reporting through ntsim_vp_error, or NRT_RESOURCE. */
    NRT_STATUS (*parse)(ntsim_vparse_t *p, yaml_node_t *node, const char *path, void **body);
    void (*free_body)(void *body);
    /* Checks the vector; every mismatch goes into the report. */
    void (*run)(const ntsim_vector_t *v, ntsim_report_t *r);
    /* What the vector pins (a C type, an enum constant), for coverage checks. */
    const char *(*subject)(const void *body);
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
};

typedef struct ntsim_vector_set {
    ntsim_vector_t *vectors;
    size_t count;
    size_t cap;
    char **errors;                 /* load errors, "file:line:col: field: message" */
    size_t error_count;
    size_t error_cap;
    size_t file_count;             /* files read, loaded or not */
} ntsim_vector_set_t;

/* The kinds this build knows (conformance/kinds.c), NULL-terminated. */
extern const ntsim_vector_kind_t *const ntsim_vector_kinds[];

void ntsim_vector_set_init(ntsim_vector_set_t *set);
/* Frees everything the set owns; safe on a zeroed or half-loaded set. */
void ntsim_vector_set_free(ntsim_vector_set_t *set);

/* Loads one file into the set. Returns NRT_SUCCESS when every vector in it
 * loaded, NRT_INVALID when any error was recorded (the file's good vectors are
 * still added), NRT_FAILURE when the file cannot be read, NRT_RESOURCE on OOM. */
NRT_STATUS ntsim_vector_set_load_file(ntsim_vector_set_t *set, const char *path);
/* Loads every *.yaml under dir (recursively, in byte order of the path).
 * Returns the worst status of the files; a missing dir is NRT_FAILURE. */
NRT_STATUS ntsim_vector_set_load_dir(ntsim_vector_set_t *set, const char *dir);
/* Loads from a string (tests, fuzzing); `name` is used in error messages. */
NRT_STATUS ntsim_vector_set_load_string(ntsim_vector_set_t *set, const char *name,
                                        const char *text, size_t len);

/* Loads one YAML file of another shape (a scenario) with the same strict
 * readers: fn gets the root; every error lands in errors->errors as
 * "file:line:col: field: message". */
NRT_STATUS ntsim_yaml_load_file(ntsim_vector_set_t *errors, const char *path,
                                NRT_STATUS (*fn)(ntsim_vparse_t *p, yaml_node_t *root, void *ctx),
                                void *ctx);

NRT_STATUS ntsim_yaml_load_string(ntsim_vector_set_t *errors, const char *name, const char *text,
                                  size_t len,
                                  NRT_STATUS (*fn)(ntsim_vparse_t *p, yaml_node_t *root,
                                                   void *ctx),
                                  void *ctx);

/* Records a load error that is not tied to a YAML node (I/O, OOM). */
NRT_STATUS ntsim_vector_set_add_error(ntsim_vector_set_t *set, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

bool ntsim_vector_has_flag(const ntsim_vector_t *v, const char *flag);

/* strdup for C11: a malloc'd copy of s, or NULL when out of memory. */
char *ntsim_strdup(const char *s);

/* Reads f to its end into a malloc'd buffer with a NUL after the *len bytes
 * read (so text can be used as a string). NRT_RESOURCE when memory runs out,
 * NRT_FAILURE on a read error (errno says why); *out is untouched then. */
NRT_STATUS ntsim_read_stream(FILE *f, char **out, size_t *len);

/* --- for kinds: reading keys with precise errors ------------------------- */

/* Reports "file:line:col: path: message" at node's position. Returns NRT_INVALID. */
NRT_STATUS ntsim_vp_error(ntsim_vparse_t *p, const yaml_node_t *node, const char *path,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));
yaml_node_t *ntsim_vp_node(ntsim_vparse_t *p, int index);
/* Value node of `key` in a mapping, or NULL. */
yaml_node_t *ntsim_vp_get(ntsim_vparse_t *p, yaml_node_t *map, const char *key);
/* `node` must be a mapping whose keys are plain scalars from allowed lists
 * (each NULL-terminated; list2 may be NULL), with no key twice. */
NRT_STATUS ntsim_vp_check_keys(ntsim_vparse_t *p, yaml_node_t *node, const char *path,
                               const char *const *list1, const char *const *list2);
/* Scalar readers. A missing optional key leaves *out untouched and returns
 * NRT_SUCCESS; a missing required key is an error at the mapping's line. */
NRT_STATUS ntsim_vp_str(ntsim_vparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, bool required, const char **out);
NRT_STATUS ntsim_vp_int(ntsim_vparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, bool required, int64_t min, int64_t max,
                        int64_t *out);
NRT_STATUS ntsim_vp_u64(ntsim_vparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, bool required, uint64_t max, uint64_t *out);
NRT_STATUS ntsim_vp_bool(ntsim_vparse_t *p, yaml_node_t *map, const char *path,
                         const char *key, bool required, bool *out);
/* A required non-empty sequence; items and count view the document's storage. */
NRT_STATUS ntsim_vp_seq(ntsim_vparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, yaml_node_item_t **items, size_t *count);
/* Formats a field path such as "vectors[3].emits[1].data" into out (cut
 * short if it does not fit: paths only label messages). Returns out. */
char *ntsim_vp_path(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The value of a scalar node, or NULL if node is not a scalar. */
const char *ntsim_vp_scalar(const yaml_node_t *node);

/* --- for kinds: reporting mismatches ------------------------------------- */

void ntsim_report_init(ntsim_report_t *r);
void ntsim_report_free(ntsim_report_t *r);
/* Appends "<subid>: <field>: <message>\n" and counts one mismatch. */
void ntsim_report_add(ntsim_report_t *r, const char *subid, const char *field,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Appends "<subid>: <field>: expected and got differ:" and a unified diff
 * (one hunk, 3 lines of context) of two texts, line by line, and counts
 * one mismatch. */
void ntsim_report_diff(ntsim_report_t *r, const char *subid, const char *field, const char *want,
                       const char *got);

#endif /* NTSIM_CONFORMANCE_VECTOR_H */
