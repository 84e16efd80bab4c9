/*
 * sim/yaml_reader.h: the strict YAML reader of every YAML input: the
 * simulator's scenario files and, above it, the harness's vector files.
 *
 * One YAML document per input, read with libyaml into a node tree; a
 * caller's function walks the root with the readers below. Scalars are typed
 * by us, not by YAML's implicit resolution: an integer is a plain scalar of
 * decimal digits (optionally negative, no leading zero: YAML 1.1 would read
 * 010 as octal 8, so it is refused rather than guessed) or 0x-prefixed hex
 * (not in a decimal-only file: scenarios), so a quoted "12" is a string, and
 * is said to be one; booleans are plain true/false; keys are plain scalars
 * and appear once; an explicit tag (!!str) is refused, as a quoted integer is
 * (D-VECTOR-SCHEMA, D-SCENARIO-INTEGERS). Every problem is
 * kept as one line
 *
 *     file:line:col: field: message
 *
 * in the caller's error list (ntsim_errors_t), and reading goes on where it
 * can, so one run reports every bad field of a file. Nothing here aborts.
 */
#ifndef NTSIM_SIM_YAML_READER_H
#define NTSIM_SIM_YAML_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "input.h"
#include "key_sort.h"
#include "nrt/nrt_status.h"

/* Collections may nest this deep (the deepest any vector or scenario needs is
 * 6); deeper is an error found while parsing, before the document is built. */
#define NTSIM_YAML_MAX_DEPTH 64

/* The problems found while reading inputs, one formatted line each. */
typedef struct ntsim_errors {
    char **items;   /* "file:line:col: field: message" */
    size_t count;
    size_t cap;
    size_t files;   /* inputs read (loaded or not) */
} ntsim_errors_t;

void ntsim_errors_init(ntsim_errors_t *e);
/* Frees every line; safe on a zeroed list. */
void ntsim_errors_free(ntsim_errors_t *e);
/* Appends one formatted line. NRT_SUCCESS, or NRT_RESOURCE when it cannot be
 * kept. */
NRT_STATUS ntsim_errors_add(ntsim_errors_t *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Read state of one document, handed to the caller's function. */
typedef struct ntsim_yparse ntsim_yparse_t;

/* Walks a document's root. Returns NRT_SUCCESS, NRT_INVALID after reporting
 * through ntsim_yp_error, or NRT_RESOURCE. */
typedef NRT_STATUS (*ntsim_yaml_root_fn)(ntsim_yparse_t *p, yaml_node_t *root, void *ctx);

/* Parses exactly one YAML document from text and hands its root to fn. Malformed
 * YAML, an empty stream and a second document are errors in *errors. `name`
 * labels the errors (a path). The worst status: NRT_SUCCESS, NRT_INVALID
 * (something was reported), NRT_RESOURCE. */
NRT_STATUS ntsim_yaml_load_string(ntsim_errors_t *errors, const char *name, const char *text,
                                  size_t len, ntsim_yaml_root_fn fn, void *ctx);
/* The same for a file of the given kind (its size limit, input.h);
 * NRT_FAILURE (reported as "path: reason") when it cannot be read. */
NRT_STATUS ntsim_yaml_load_file(ntsim_errors_t *errors, const char *path,
                                ntsim_input_kind_t kind, ntsim_yaml_root_fn fn, void *ctx);

/* From now on, integers of this document are decimal only: 0x hex is an
 * error that names the decimal to write (scenario files, D-SCENARIO-INTEGERS). */
void ntsim_yp_set_decimal_only(ntsim_yparse_t *p, bool on);

/* The input being read (for error messages of callers). */
const char *ntsim_yp_file(const ntsim_yparse_t *p);

/* Reports "file:line:col: path: message" at node's position (1:1 without a
 * node). Returns NRT_INVALID, or NRT_RESOURCE when it cannot be kept. */
NRT_STATUS ntsim_yp_error(ntsim_yparse_t *p, const yaml_node_t *node, const char *path,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The entries of the sequence at "<path>.<list>" (items) are mappings named
 * by their `key` (keys[i].name is items[i]'s): the earliest entry that
 * repeats an earlier name is reported at its key as "<what> '<name>' listed
 * twice". O(n log n) (key_sort.h); sorts keys. NRT_SUCCESS when none
 * repeats. */
NRT_STATUS ntsim_yp_repeats(ntsim_yparse_t *p, yaml_node_item_t *items, ntsim_key_t *keys,
                            size_t n, const char *path, const char *list, const char *key,
                            const char *what);
yaml_node_t *ntsim_yp_node(ntsim_yparse_t *p, int index);
/* Value node of `key` in a mapping, or NULL. */
yaml_node_t *ntsim_yp_get(ntsim_yparse_t *p, yaml_node_t *map, const char *key);
/* "a scalar", "a sequence", "a mapping": for messages. */
const char *ntsim_yp_node_type_name(const yaml_node_t *node);
/* `node` must be a mapping whose keys are plain scalars from allowed lists
 * (each NULL-terminated; list2 may be NULL), with no key twice. */
NRT_STATUS ntsim_yp_check_keys(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               const char *const *list1, const char *const *list2);
/* The text of a scalar node; an error ("expected <want>, got a mapping") for
 * any other node, or a scalar holding a NUL byte. */
NRT_STATUS ntsim_yp_text(ntsim_yparse_t *p, yaml_node_t *node, const char *field, const char *want,
                         const char **out);
/* Scalar readers. A missing optional key leaves *out untouched and returns
 * NRT_SUCCESS; a missing required key is an error at the mapping's line. */
NRT_STATUS ntsim_yp_str(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, bool required, const char **out);
NRT_STATUS ntsim_yp_int(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, bool required, int64_t min, int64_t max,
                        int64_t *out);
NRT_STATUS ntsim_yp_u64(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, bool required, uint64_t max, uint64_t *out);
/* The same integer rule for a node itself (a sequence item), named `field`. */
NRT_STATUS ntsim_yp_u64_node(ntsim_yparse_t *p, yaml_node_t *node, const char *field,
                             uint64_t max, uint64_t *out);
NRT_STATUS ntsim_yp_bool(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                         const char *key, bool required, bool *out);
/* A required non-empty sequence; items and count view the document's storage. */
NRT_STATUS ntsim_yp_seq(ntsim_yparse_t *p, yaml_node_t *map, const char *path,
                        const char *key, yaml_node_item_t **items, size_t *count);
/* Formats a field path such as "vectors[3].emits[1].data" into out (cut
 * short if it does not fit: paths only label messages). Returns out. */
char *ntsim_yp_path(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "path.key" (or "key" when path is empty) into out. */
void ntsim_yp_join(char *out, size_t cap, const char *path, const char *key);
/* The value of a scalar node, or NULL if node is not a scalar. */
const char *ntsim_yp_scalar(const yaml_node_t *node);

#endif /* NTSIM_SIM_YAML_READER_H */
