/*
 * conformance/vector.c: the strict YAML vector loader.
 *
 * Grammar (one YAML document per file; see vectors/README.md):
 *
 *   file    := { version: 1, kind: KIND, comment?: STR, vectors: [vector+] }
 *   vector  := { id: ID, comment: STR, source: SOURCE, flags?: [FLAG*],
 *                expect: valid | invalid, error?: STR, <KIND's own keys> }
 *   ID      := KIND "." [a-z0-9_.-]+       unique across every loaded file
 *   SOURCE  := "spec §..." | "facts §..." | "decision D-..."
 *   FLAG    := hole | gotcha | quirk | conflict | decision | sentinel
 *   error   := required when expect is invalid, forbidden when valid
 *
 * The loader walks only this fixed shape (never a generic recursive descent),
 * so YAML aliases, however nested, cannot make it loop or blow up. Scalars are
 * typed by us, not by YAML: an integer is a plain scalar of decimal digits
 * (optionally negative) or 0x-prefixed hex; a quoted "12" is a string.
 */
#include "vector.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct ntsim_vparse {
    ntsim_vector_set_t *set;
    const char *file;
    yaml_document_t *doc;
    unsigned errors; /* errors recorded while parsing this file */
};

static const char *const common_keys[] = {"id", "comment", "source", "flags", "expect", "error",
                                          NULL};
static const char *const file_keys[] = {"version", "kind", "comment", "vectors", NULL};
static const char *const known_flags[] = {"hole", "gotcha", "quirk", "conflict", "decision",
                                          "sentinel", NULL};

/* --- small utilities -------------------------------------------------------- */

char *ntsim_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

__attribute__((format(printf, 1, 0))) static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s != NULL)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

/* Grows *arr (of elem-sized items) so that one more fits. */
static NRT_STATUS grow(void **arr, size_t *cap, size_t count, size_t elem)
{
    if (count < *cap)
        return NRT_SUCCESS;
    size_t ncap = *cap ? *cap * 2 : 16;
    void *n = realloc(*arr, ncap * elem);
    if (n == NULL)
        return NRT_RESOURCE;
    *arr = n;
    *cap = ncap;
    return NRT_SUCCESS;
}

static NRT_STATUS set_push_error(ntsim_vector_set_t *set, char *msg)
{
    if (msg == NULL)
        return NRT_RESOURCE;
    if (grow((void **)&set->errors, &set->error_cap, set->error_count, sizeof(char *)) !=
        NRT_SUCCESS) {
        free(msg);
        return NRT_RESOURCE;
    }
    set->errors[set->error_count++] = msg;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vector_set_add_error(ntsim_vector_set_t *set, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    return set_push_error(set, msg);
}

/* --- node access -------------------------------------------------------------- */

NRT_STATUS ntsim_vp_error(ntsim_vparse_t *p, const yaml_node_t *node, const char *path,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = vformat(fmt, ap);
    va_end(ap);
    unsigned line = node ? (unsigned)node->start_mark.line + 1 : 1;
    unsigned col = node ? (unsigned)node->start_mark.column + 1 : 1;
    if (path == NULL || path[0] == '\0')
        path = "(file)";
    p->errors++;
    if (what == NULL)
        return NRT_RESOURCE;
    NRT_STATUS st = ntsim_vector_set_add_error(p->set, "%s:%u:%u: %s: %s", p->file, line, col,
                                               path, what);
    free(what);
    return st == NRT_SUCCESS ? NRT_INVALID : st;
}

char *ntsim_vp_path(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    return out;
}

yaml_node_t *ntsim_vp_node(ntsim_vparse_t *p, int index)
{
    return yaml_document_get_node(p->doc, index);
}

const char *ntsim_vp_scalar(const yaml_node_t *node)
{
    if (node == NULL || node->type != YAML_SCALAR_NODE)
        return NULL;
    return (const char *)node->data.scalar.value;
}

static const char *node_type_name(const yaml_node_t *node)
{
    switch (node->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a sequence";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "an empty node";
    }
}

yaml_node_t *ntsim_vp_get(ntsim_vparse_t *p, yaml_node_t *map, const char *key)
{
    if (map == NULL || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
         pair < map->data.mapping.pairs.top; pair++) {
        const char *k = ntsim_vp_scalar(ntsim_vp_node(p, pair->key));
        if (k != NULL && strcmp(k, key) == 0)
            return ntsim_vp_node(p, pair->value);
    }
    return NULL;
}

static bool in_list(const char *const *list, const char *s)
{
    for (; list != NULL && *list != NULL; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

static void join_path(char *out, size_t cap, const char *path, const char *key)
{
    if (path == NULL || path[0] == '\0')
        snprintf(out, cap, "%s", key);
    else
        snprintf(out, cap, "%s.%s", path, key);
}

NRT_STATUS ntsim_vp_check_keys(ntsim_vparse_t *p, yaml_node_t *node, const char *path,
                               const char *const *list1, const char *const *list2)
{
    if (node->type != YAML_MAPPING_NODE)
        return ntsim_vp_error(p, node, path, "expected a mapping, got %s", node_type_name(node));
    for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
         pair < node->data.mapping.pairs.top; pair++) {
        yaml_node_t *knode = ntsim_vp_node(p, pair->key);
        const char *k = ntsim_vp_scalar(knode);
        if (k == NULL || knode->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
            return ntsim_vp_error(p, knode, path, "keys must be plain scalars");
        char field[256];
        join_path(field, sizeof field, path, k);
        if (!in_list(list1, k) && !in_list(list2, k))
            return ntsim_vp_error(p, knode, field, "unknown key");
        for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < pair; q++) {
            const char *k2 = ntsim_vp_scalar(ntsim_vp_node(p, q->key));
            if (k2 != NULL && strcmp(k2, k) == 0)
                return ntsim_vp_error(p, knode, field, "duplicate key");
        }
    }
    return NRT_SUCCESS;
}

/* Finds key's value node; reports a missing required key at the map. */
static NRT_STATUS lookup(ntsim_vparse_t *p, yaml_node_t *map, const char *path, const char *key,
                         bool required, yaml_node_t **out)
{
    *out = ntsim_vp_get(p, map, key);
    if (*out == NULL && required) {
        char field[256];
        join_path(field, sizeof field, path, key);
        return ntsim_vp_error(p, map, field, "missing required field");
    }
    return NRT_SUCCESS;
}

static NRT_STATUS scalar_of(ntsim_vparse_t *p, yaml_node_t *node, const char *field,
                            const char *want, const char **out)
{
    if (node->type != YAML_SCALAR_NODE)
        return ntsim_vp_error(p, node, field, "expected %s, got %s", want, node_type_name(node));
    if (strlen((const char *)node->data.scalar.value) != node->data.scalar.length)
        return ntsim_vp_error(p, node, field, "contains a NUL byte");
    *out = (const char *)node->data.scalar.value;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vp_str(ntsim_vparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        bool required, const char **out)
{
    yaml_node_t *node;
    char field[256];
    join_path(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    return scalar_of(p, node, field, "a string", out);
}

/* Parses an integer literal: [-](0|[1-9][0-9]*) or 0x[0-9a-fA-F]+. Sets *neg
 * and the magnitude; false on any other text or on overflow of 64 bits. */
static bool parse_int_text(const char *s, bool *neg, uint64_t *mag)
{
    *neg = false;
    *mag = 0;
    if (*s == '-') {
        *neg = true;
        s++;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (*neg || s[2] == '\0')
            return false;
        for (s += 2; *s; s++) {
            unsigned d;
            if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
            else if (*s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a' + 10);
            else if (*s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A' + 10);
            else return false;
            if (*mag > (UINT64_MAX >> 4))
                return false;
            *mag = (*mag << 4) | d;
        }
        return true;
    }
    if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] != '\0'))
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        unsigned d = (unsigned)(*s - '0');
        if (*mag > (UINT64_MAX - d) / 10)
            return false;
        *mag = *mag * 10 + d;
    }
    return true;
}

static NRT_STATUS int_node(ntsim_vparse_t *p, yaml_node_t *node, const char *field, bool *neg,
                           uint64_t *mag)
{
    const char *text;
    NRT_STATUS st = scalar_of(p, node, field, "an integer", &text);
    if (st != NRT_SUCCESS)
        return st;
    if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || !parse_int_text(text, neg, mag))
        return ntsim_vp_error(p, node, field, "expected an integer, got '%s'", text);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vp_int(ntsim_vparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        bool required, int64_t min, int64_t max, int64_t *out)
{
    yaml_node_t *node;
    char field[256];
    join_path(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    bool neg;
    uint64_t mag;
    if ((st = int_node(p, node, field, &neg, &mag)) != NRT_SUCCESS)
        return st;
    /* -(INT64_MIN) is 2^63, one past INT64_MAX: compare magnitudes unsigned. */
    bool fits = neg ? mag <= (uint64_t)INT64_MAX + 1 : mag <= (uint64_t)INT64_MAX;
    int64_t v = 0;
    if (fits)
        v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    if (!fits || v < min || v > max)
        return ntsim_vp_error(p, node, field, "%s is out of range [%" PRId64 ", %" PRId64 "]",
                              ntsim_vp_scalar(node), min, max);
    *out = v;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vp_u64(ntsim_vparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        bool required, uint64_t max, uint64_t *out)
{
    yaml_node_t *node;
    char field[256];
    join_path(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    bool neg;
    uint64_t mag;
    if ((st = int_node(p, node, field, &neg, &mag)) != NRT_SUCCESS)
        return st;
    if ((neg && mag != 0) || mag > max)
        return ntsim_vp_error(p, node, field, "%s is out of range [0, %" PRIu64 "]",
                              ntsim_vp_scalar(node), max);
    *out = mag;
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vp_bool(ntsim_vparse_t *p, yaml_node_t *map, const char *path, const char *key,
                         bool required, bool *out)
{
    yaml_node_t *node;
    char field[256];
    join_path(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, required, &node);
    if (st != NRT_SUCCESS || node == NULL)
        return st;
    const char *text;
    if ((st = scalar_of(p, node, field, "true or false", &text)) != NRT_SUCCESS)
        return st;
    if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && strcmp(text, "true") == 0)
        *out = true;
    else if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && strcmp(text, "false") == 0)
        *out = false;
    else
        return ntsim_vp_error(p, node, field, "expected true or false, got '%s'", text);
    return NRT_SUCCESS;
}

NRT_STATUS ntsim_vp_seq(ntsim_vparse_t *p, yaml_node_t *map, const char *path, const char *key,
                        yaml_node_item_t **items, size_t *count)
{
    yaml_node_t *node;
    char field[256];
    join_path(field, sizeof field, path, key);
    NRT_STATUS st = lookup(p, map, path, key, true, &node);
    if (st != NRT_SUCCESS)
        return st;
    if (node->type != YAML_SEQUENCE_NODE)
        return ntsim_vp_error(p, node, field, "expected a sequence, got %s", node_type_name(node));
    *items = node->data.sequence.items.start;
    *count = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
    if (*count == 0)
        return ntsim_vp_error(p, node, field, "must not be empty");
    return NRT_SUCCESS;
}

/* --- the vector set ------------------------------------------------------------ */

void ntsim_vector_set_init(ntsim_vector_set_t *set)
{
    memset(set, 0, sizeof *set);
}

static void vector_free(ntsim_vector_t *v)
{
    if (v->body != NULL && v->kind != NULL)
        v->kind->free_body(v->body);
    for (size_t i = 0; i < v->flag_count; i++)
        free(v->flags[i]);
    free(v->flags);
    free(v->id);
    free(v->comment);
    free(v->source);
    free(v->error);
    free(v->file);
    memset(v, 0, sizeof *v);
}

void ntsim_vector_set_free(ntsim_vector_set_t *set)
{
    for (size_t i = 0; i < set->count; i++)
        vector_free(&set->vectors[i]);
    free(set->vectors);
    for (size_t i = 0; i < set->error_count; i++)
        free(set->errors[i]);
    free(set->errors);
    memset(set, 0, sizeof *set);
}

bool ntsim_vector_has_flag(const ntsim_vector_t *v, const char *flag)
{
    for (size_t i = 0; i < v->flag_count; i++)
        if (strcmp(v->flags[i], flag) == 0)
            return true;
    return false;
}

static bool id_is_well_formed(const char *id, const char *kind)
{
    size_t k = strlen(kind);
    if (strncmp(id, kind, k) != 0 || id[k] != '.' || id[k + 1] == '\0')
        return false;
    for (const char *c = id + k + 1; *c; c++) {
        bool ok = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
                  *c == '.' || *c == '-';
        if (!ok)
            return false;
    }
    return id[strlen(id) - 1] != '.';
}

static bool source_is_well_formed(const char *s)
{
    return strncmp(s, "spec §", strlen("spec §")) == 0 ||
           strncmp(s, "facts §", strlen("facts §")) == 0 ||
           strncmp(s, "decision D-", strlen("decision D-")) == 0;
}

static const ntsim_vector_t *find_id(const ntsim_vector_set_t *set, const char *id)
{
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->vectors[i].id, id) == 0)
            return &set->vectors[i];
    return NULL;
}

/* Parses the common keys and the kind's body of one vector into *v. */
static NRT_STATUS parse_vector(ntsim_vparse_t *p, const ntsim_vector_kind_t *kind,
                               yaml_node_t *node, const char *path, ntsim_vector_t *v)
{
    NRT_STATUS st = ntsim_vp_check_keys(p, node, path, common_keys, kind->keys);
    if (st != NRT_SUCCESS)
        return st;
    v->kind = kind;
    v->line = (unsigned)node->start_mark.line + 1;
    if ((v->file = ntsim_strdup(p->file)) == NULL)
        return NRT_RESOURCE;

    const char *id = NULL, *comment = NULL, *source = NULL, *expect = NULL, *error = NULL;
    if ((st = ntsim_vp_str(p, node, path, "id", true, &id)) != NRT_SUCCESS ||
        (st = ntsim_vp_str(p, node, path, "comment", true, &comment)) != NRT_SUCCESS ||
        (st = ntsim_vp_str(p, node, path, "source", true, &source)) != NRT_SUCCESS ||
        (st = ntsim_vp_str(p, node, path, "expect", true, &expect)) != NRT_SUCCESS ||
        (st = ntsim_vp_str(p, node, path, "error", false, &error)) != NRT_SUCCESS)
        return st;

    char field[256];
    join_path(field, sizeof field, path, "id");
    if (!id_is_well_formed(id, kind->name))
        return ntsim_vp_error(p, ntsim_vp_get(p, node, "id"), field,
                              "'%s' must be '%s.' followed by [a-z0-9_.-]", id, kind->name);
    const ntsim_vector_t *dup = find_id(p->set, id);
    if (dup != NULL)
        return ntsim_vp_error(p, ntsim_vp_get(p, node, "id"), field,
                              "duplicate id '%s' (first at %s:%u)", id, dup->file, dup->line);
    join_path(field, sizeof field, path, "comment");
    if (comment[0] == '\0' || strchr(comment, '\n') != NULL)
        return ntsim_vp_error(p, ntsim_vp_get(p, node, "comment"), field,
                              "must be one non-empty line");
    join_path(field, sizeof field, path, "source");
    if (!source_is_well_formed(source))
        return ntsim_vp_error(p, ntsim_vp_get(p, node, "source"), field,
                              "'%s' must start with 'spec §', 'facts §' or 'decision D-'",
                              source);
    join_path(field, sizeof field, path, "expect");
    if (strcmp(expect, "valid") == 0)
        v->expect = NTSIM_EXPECT_VALID;
    else if (strcmp(expect, "invalid") == 0)
        v->expect = NTSIM_EXPECT_INVALID;
    else
        return ntsim_vp_error(p, ntsim_vp_get(p, node, "expect"), field,
                              "expected 'valid' or 'invalid', got '%s'", expect);
    if (v->expect == NTSIM_EXPECT_INVALID && !kind->allows_invalid)
        return ntsim_vp_error(p, ntsim_vp_get(p, node, "expect"), field,
                              "kind '%s' has no invalid vectors", kind->name);
    join_path(field, sizeof field, path, "error");
    if (v->expect == NTSIM_EXPECT_INVALID && error == NULL)
        return ntsim_vp_error(p, node, field, "missing required field (expect is invalid)");
    if (v->expect == NTSIM_EXPECT_VALID && error != NULL)
        return ntsim_vp_error(p, ntsim_vp_get(p, node, "error"), field,
                              "only allowed when expect is invalid");

    if ((v->id = ntsim_strdup(id)) == NULL || (v->comment = ntsim_strdup(comment)) == NULL ||
        (v->source = ntsim_strdup(source)) == NULL || (error && (v->error = ntsim_strdup(error)) == NULL))
        return NRT_RESOURCE;

    yaml_node_t *flags = ntsim_vp_get(p, node, "flags");
    if (flags != NULL) {
        join_path(field, sizeof field, path, "flags");
        if (flags->type != YAML_SEQUENCE_NODE)
            return ntsim_vp_error(p, flags, field, "expected a sequence, got %s",
                                  node_type_name(flags));
        size_t n = (size_t)(flags->data.sequence.items.top - flags->data.sequence.items.start);
        if (n > 0 && (v->flags = calloc(n, sizeof(char *))) == NULL)
            return NRT_RESOURCE;
        for (size_t i = 0; i < n; i++) {
            yaml_node_t *f = ntsim_vp_node(p, flags->data.sequence.items.start[i]);
            char ffield[280];
            snprintf(ffield, sizeof ffield, "%s[%zu]", field, i);
            const char *text;
            if ((st = scalar_of(p, f, ffield, "a flag name", &text)) != NRT_SUCCESS)
                return st;
            if (!in_list(known_flags, text))
                return ntsim_vp_error(p, f, ffield, "unknown flag '%s'", text);
            if ((v->flags[i] = ntsim_strdup(text)) == NULL)
                return NRT_RESOURCE;
            v->flag_count = i + 1;
        }
    }
    return kind->parse(p, node, path, &v->body);
}

static const ntsim_vector_kind_t *find_kind(const char *name)
{
    for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
        if (strcmp((*k)->name, name) == 0)
            return *k;
    return NULL;
}

/* Walks the document root of one file. */
static NRT_STATUS parse_file(ntsim_vparse_t *p, yaml_node_t *root)
{
    NRT_STATUS st = ntsim_vp_check_keys(p, root, "", file_keys, NULL);
    if (st != NRT_SUCCESS)
        return st;
    int64_t version = 0;
    const char *kind_name = NULL, *comment = NULL;
    if ((st = ntsim_vp_int(p, root, "", "version", true, 1, 1, &version)) != NRT_SUCCESS ||
        (st = ntsim_vp_str(p, root, "", "kind", true, &kind_name)) != NRT_SUCCESS ||
        (st = ntsim_vp_str(p, root, "", "comment", false, &comment)) != NRT_SUCCESS)
        return st;
    const ntsim_vector_kind_t *kind = find_kind(kind_name);
    if (kind == NULL)
        return ntsim_vp_error(p, ntsim_vp_get(p, root, "kind"), "kind", "unknown kind '%s'",
                              kind_name);
    yaml_node_item_t *items;
    size_t count;
    if ((st = ntsim_vp_seq(p, root, "", "vectors", &items, &count)) != NRT_SUCCESS)
        return st;

    NRT_STATUS worst = NRT_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "vectors[%zu]", i);
        ntsim_vector_set_t *set = p->set;
        if (grow((void **)&set->vectors, &set->cap, set->count, sizeof(ntsim_vector_t)) !=
            NRT_SUCCESS)
            return NRT_RESOURCE;
        ntsim_vector_t *v = &set->vectors[set->count];
        memset(v, 0, sizeof *v);
        st = parse_vector(p, kind, ntsim_vp_node(p, items[i]), path, v);
        if (st == NRT_SUCCESS) {
            set->count++;
            continue;
        }
        vector_free(v);
        if (st == NRT_RESOURCE)
            return st;
        worst = NRT_INVALID; /* keep going: report every bad vector of the file */
    }
    return worst;
}

/* Parses one YAML document from text and hands its root to `fn`; a second
 * document, an empty stream and malformed YAML are errors of the set. */
static NRT_STATUS load_yaml(ntsim_vector_set_t *set, const char *name, const char *text,
                            size_t len, NRT_STATUS (*fn)(ntsim_vparse_t *, yaml_node_t *, void *),
                            void *ctx)
{
    ntsim_vparse_t p = {set, name, NULL, 0};
    yaml_parser_t parser;
    yaml_document_t doc;
    NRT_STATUS st = NRT_SUCCESS;

    set->file_count++;
    if (!yaml_parser_initialize(&parser)) {
        (void)ntsim_vector_set_add_error(set, "%s: out of memory", name);
        return NRT_RESOURCE;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        const char *problem = parser.problem ? parser.problem : "malformed YAML";
        if (parser.context != NULL)
            st = ntsim_vector_set_add_error(set, "%s:%zu:%zu: yaml: %s (%s at line %zu)", name,
                                            parser.problem_mark.line + 1,
                                            parser.problem_mark.column + 1, problem,
                                            parser.context, parser.context_mark.line + 1);
        else
            st = ntsim_vector_set_add_error(set, "%s:%zu:%zu: yaml: %s", name,
                                            parser.problem_mark.line + 1,
                                            parser.problem_mark.column + 1, problem);
        yaml_parser_delete(&parser);
        return st == NRT_SUCCESS ? NRT_INVALID : st;
    }
    p.doc = &doc;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        st = ntsim_vector_set_add_error(set, "%s:1:1: (file): empty document", name);
        st = st == NRT_SUCCESS ? NRT_INVALID : st;
    } else {
        st = fn(&p, root, ctx);
    }
    yaml_document_delete(&doc);

    /* A second document would be silently ignored by a lax reader; reject it. */
    if (st == NRT_SUCCESS) {
        if (!yaml_parser_load(&parser, &doc)) {
            st = ntsim_vector_set_add_error(set, "%s:%zu:%zu: yaml: %s", name,
                                            parser.problem_mark.line + 1,
                                            parser.problem_mark.column + 1,
                                            parser.problem ? parser.problem : "malformed YAML");
            st = st == NRT_SUCCESS ? NRT_INVALID : st;
        } else {
            yaml_node_t *extra = yaml_document_get_root_node(&doc);
            if (extra != NULL) {
                st = ntsim_vector_set_add_error(set, "%s:%zu:%zu: (file): more than one YAML "
                                                     "document; a vector file holds one",
                                                name, extra->start_mark.line + 1,
                                                extra->start_mark.column + 1);
                st = st == NRT_SUCCESS ? NRT_INVALID : st;
            }
            yaml_document_delete(&doc);
        }
    }
    yaml_parser_delete(&parser);
    return st;
}

static NRT_STATUS parse_vector_file(ntsim_vparse_t *p, yaml_node_t *root, void *ctx)
{
    (void)ctx;
    return parse_file(p, root);
}

NRT_STATUS ntsim_vector_set_load_string(ntsim_vector_set_t *set, const char *name,
                                        const char *text, size_t len)
{
    return load_yaml(set, name, text, len, parse_vector_file, NULL);
}

NRT_STATUS ntsim_read_stream(FILE *f, char **out, size_t *out_len)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 2) { /* room for a byte and the NUL */
            size_t ncap = cap ? cap * 2 : 8192;
            char *n = ncap > cap ? realloc(buf, ncap) : NULL;
            if (n == NULL) {
                free(buf);
                return NRT_RESOURCE;
            }
            buf = n;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int saved = errno;
        free(buf);
        errno = saved ? saved : EIO;
        return NRT_FAILURE;
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return NRT_SUCCESS;
}

/* Reads a whole file into a malloc'd buffer; errors go to the set. */
static NRT_STATUS read_all(ntsim_vector_set_t *set, const char *path, char **out, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        set->file_count++;
        NRT_STATUS st = ntsim_vector_set_add_error(set, "%s: cannot open: %s", path,
                                                   strerror(errno));
        return st == NRT_SUCCESS ? NRT_FAILURE : st;
    }
    NRT_STATUS st = ntsim_read_stream(f, out, out_len);
    fclose(f);
    if (st == NRT_FAILURE) {
        set->file_count++;
        st = ntsim_vector_set_add_error(set, "%s: read error", path);
        st = st == NRT_SUCCESS ? NRT_FAILURE : st;
    }
    return st;
}

NRT_STATUS ntsim_yaml_load_string(ntsim_vector_set_t *errors, const char *name, const char *text,
                                  size_t len,
                                  NRT_STATUS (*fn)(ntsim_vparse_t *p, yaml_node_t *root,
                                                   void *ctx),
                                  void *ctx)
{
    return load_yaml(errors, name, text, len, fn, ctx);
}

NRT_STATUS ntsim_yaml_load_file(ntsim_vector_set_t *errors, const char *path,
                                NRT_STATUS (*fn)(ntsim_vparse_t *p, yaml_node_t *root, void *ctx),
                                void *ctx)
{
    char *buf;
    size_t len;
    NRT_STATUS st = read_all(errors, path, &buf, &len);
    if (st != NRT_SUCCESS)
        return st;
    st = load_yaml(errors, path, buf, len, fn, ctx);
    free(buf);
    return st;
}

NRT_STATUS ntsim_vector_set_load_file(ntsim_vector_set_t *set, const char *path)
{
    return ntsim_yaml_load_file(set, path, parse_vector_file, NULL);
}

/* --- directories ------------------------------------------------------------------ */

typedef struct path_list {
    char **paths;
    size_t count;
    size_t cap;
} path_list_t;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static NRT_STATUS collect(path_list_t *list, const char *dir, unsigned depth)
{
    if (depth > 16)
        return NRT_SUCCESS; /* a symlink loop, not a vector tree */
    DIR *d = opendir(dir);
    if (d == NULL)
        return NRT_FAILURE;
    NRT_STATUS st = NRT_SUCCESS;
    struct dirent *e;
    while (st == NRT_SUCCESS && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *full = malloc(n);
        if (full == NULL) {
            st = NRT_RESOURCE;
            break;
        }
        snprintf(full, n, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(full, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            st = collect(list, full, depth + 1);
            free(full);
        } else if (ends_with(e->d_name, ".yaml")) {
            if (grow((void **)&list->paths, &list->cap, list->count, sizeof(char *)) !=
                NRT_SUCCESS) {
                free(full);
                st = NRT_RESOURCE;
                break;
            }
            list->paths[list->count++] = full;
        } else {
            free(full);
        }
    }
    closedir(d);
    return st;
}

static int cmp_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

NRT_STATUS ntsim_vector_set_load_dir(ntsim_vector_set_t *set, const char *dir)
{
    path_list_t list = {NULL, 0, 0};
    NRT_STATUS st = collect(&list, dir, 0);
    if (st == NRT_FAILURE) {
        NRT_STATUS e = ntsim_vector_set_add_error(set, "%s: cannot read vector directory: %s",
                                                  dir, strerror(errno));
        st = e == NRT_SUCCESS ? NRT_FAILURE : e;
    }
    if (st == NRT_SUCCESS && list.count == 0) {
        NRT_STATUS e = ntsim_vector_set_add_error(set, "%s: no *.yaml vector files found", dir);
        st = e == NRT_SUCCESS ? NRT_FAILURE : e;
    }
    if (st == NRT_SUCCESS) {
        qsort(list.paths, list.count, sizeof(char *), cmp_paths);
        for (size_t i = 0; i < list.count; i++) {
            NRT_STATUS fs = ntsim_vector_set_load_file(set, list.paths[i]);
            if (fs == NRT_RESOURCE) {
                st = fs;
                break;
            }
            if (fs != NRT_SUCCESS && st == NRT_SUCCESS)
                st = fs;
        }
    }
    for (size_t i = 0; i < list.count; i++)
        free(list.paths[i]);
    free(list.paths);
    return st;
}

/* --- reports ------------------------------------------------------------------------- */

void ntsim_report_init(ntsim_report_t *r)
{
    memset(r, 0, sizeof *r);
}

void ntsim_report_free(ntsim_report_t *r)
{
    free(r->text);
    memset(r, 0, sizeof *r);
}

void ntsim_report_add(ntsim_report_t *r, const char *subid, const char *field, const char *fmt,
                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = vformat(fmt, ap);
    va_end(ap);
    r->mismatches++; /* counted even if the text cannot be kept */
    if (what == NULL)
        return;
    int n = snprintf(NULL, 0, "%s: %s: %s\n", subid, field, what);
    if (n > 0) {
        size_t need = r->len + (size_t)n + 1;
        if (need > r->cap) {
            size_t ncap = r->cap ? r->cap : 256;
            while (ncap < need)
                ncap *= 2;
            char *t = realloc(r->text, ncap);
            if (t != NULL) {
                r->text = t;
                r->cap = ncap;
            }
        }
        if (need <= r->cap)
            r->len += (size_t)snprintf(r->text + r->len, r->cap - r->len, "%s: %s: %s\n", subid,
                                       field, what);
    }
    free(what);
}

/* Splits text into lines (pointers into it, lengths without the newline). */
typedef struct lines {
    const char **at;
    size_t *len;
    size_t n;
} lines_t;

static bool split_lines(const char *text, lines_t *l)
{
    size_t cap = 1;
    for (const char *c = text; *c; c++)
        cap += *c == '\n';
    l->at = malloc(cap * sizeof *l->at);
    l->len = malloc(cap * sizeof *l->len);
    l->n = 0;
    if (l->at == NULL || l->len == NULL)
        return false;
    const char *start = text;
    for (const char *c = text;; c++) {
        if (*c == '\n' || *c == '\0') {
            if (*c == '\0' && c == start)
                break; /* no empty last line after a final newline */
            l->at[l->n] = start;
            l->len[l->n++] = (size_t)(c - start);
            if (*c == '\0')
                break;
            start = c + 1;
        }
    }
    return true;
}

static bool same_line(const lines_t *a, size_t i, const lines_t *b, size_t j)
{
    return a->len[i] == b->len[j] && memcmp(a->at[i], b->at[j], a->len[i]) == 0;
}

void ntsim_report_diff(ntsim_report_t *r, const char *subid, const char *field, const char *want,
                       const char *got)
{
    lines_t a = {0}, b = {0};
    if (!split_lines(want, &a) || !split_lines(got, &b)) {
        ntsim_report_add(r, subid, field, "expected and got differ (no memory for a diff)");
        goto out;
    }
    /* One hunk: everything between the common head and the common tail. */
    size_t head = 0;
    while (head < a.n && head < b.n && same_line(&a, head, &b, head))
        head++;
    size_t tail = 0;
    while (tail < a.n - head && tail < b.n - head &&
           same_line(&a, a.n - 1 - tail, &b, b.n - 1 - tail))
        tail++;
    size_t ctx_lo = head > 3 ? head - 3 : 0;
    size_t a_hi = a.n - tail, b_hi = b.n - tail;
    size_t ctx_a_end = a_hi + (tail > 3 ? 3 : tail);
    size_t text_cap = 256;
    for (size_t i = ctx_lo; i < ctx_a_end; i++)
        text_cap += a.len[i] + 8;
    for (size_t j = head; j < b_hi; j++)
        text_cap += b.len[j] + 8;
    char *text = malloc(text_cap);
    if (text == NULL) {
        ntsim_report_add(r, subid, field, "expected and got differ (no memory for a diff)");
        goto out;
    }
    size_t n = (size_t)snprintf(text, text_cap,
                                "expected and got differ:\n--- expected\n+++ got\n"
                                "@@ -%zu,%zu +%zu,%zu @@\n",
                                ctx_lo + 1, ctx_a_end - ctx_lo, ctx_lo + 1,
                                (b_hi + (ctx_a_end - a_hi)) - ctx_lo);
    for (size_t i = ctx_lo; i < head; i++)
        n += (size_t)snprintf(text + n, text_cap - n, " %.*s\n", (int)a.len[i], a.at[i]);
    for (size_t i = head; i < a_hi; i++)
        n += (size_t)snprintf(text + n, text_cap - n, "-%.*s\n", (int)a.len[i], a.at[i]);
    for (size_t j = head; j < b_hi; j++)
        n += (size_t)snprintf(text + n, text_cap - n, "+%.*s\n", (int)b.len[j], b.at[j]);
    for (size_t i = a_hi; i < ctx_a_end; i++)
        n += (size_t)snprintf(text + n, text_cap - n, " %.*s\n", (int)a.len[i], a.at[i]);
    if (n > 0 && text[n - 1] == '\n')
        text[n - 1] = '\0';
    ntsim_report_add(r, subid, field, "%s", text);
    free(text);
out:
    free(a.at);
    free(a.len);
    free(b.at);
    free(b.len);
}
