/*
 * conformance/lib/vector_set.c: the vector set: vector files and directories of
 * them, read with the strict YAML reader (yaml_reader.h).
 *
 * Grammar (one YAML document per file; see vectors/README.md):
 *
 *   file    := { version: 1, kind: KIND, comment?: STR, vectors: [vector+] }
 *   vector  := { id: ID, comment: STR, source: SOURCE, flags?: [FLAG*],
 *                expect: valid | invalid, error?: STR, <KIND's own keys> }
 *   ID      := KIND "." [a-z0-9_.-]+       unique across every loaded file
 *   SOURCE  := REF (("," | " ")+ REF)*   the facts pinned, the decisions relied on
 *   REF     := a fact id of docs/spec_facts.md (S3.hw_notify, F2.json.key_order)
 *              | a decision id of docs/decisions.md (D-PAYLOAD-HOLES)   (facts.c)
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facts.h"
#include "input.h"
#include "suggest.h"

static const char *const common_keys[] = {"id", "comment", "source", "flags", "expect", "error",
                                          NULL};
static const char *const file_keys[] = {"version", "kind", "comment", "vectors", NULL};
static const char *const known_flags[] = {"hole", "gotcha", "quirk", "conflict", "decision",
                                          "sentinel", NULL};

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

/* --- the vector set ------------------------------------------------------------ */

static bool in_list(const char *const *list, const char *s)
{
    for (; *list != NULL; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

bool ntsim_vector_judges_key(const ntsim_vector_t *v, const char *key, size_t len)
{
    bool judged = len == 5 && memcmp(key, "error", 5) == 0;
    for (const char *const *k = v->kind != NULL ? v->kind->judged : NULL; !judged && k && *k; k++)
        judged = strlen(*k) == len && memcmp(*k, key, len) == 0;
    for (size_t i = 0; judged && i < v->key_count; i++)
        if (strlen(v->keys[i]) == len && memcmp(v->keys[i], key, len) == 0)
            return true;
    return false;
}

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
    for (size_t i = 0; i < v->key_count; i++)
        free(v->keys[i]);
    free(v->keys);
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
    ntsim_errors_free(&set->errors);
    ntsim_errors_free(&set->unreadable);
    memset(set, 0, sizeof *set);
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

/* A list of fact and decision ids (facts.h), nothing else: "S3.hw_notify,
 * S3.hw_notify.hole, D-PAYLOAD-HOLES". Whether each id exists is the facts
 * suite's test (check_facts.c), which also counts what every fact is cited by. */
static bool source_is_well_formed(const char *s)
{
    return ntsim_source_each_id(s, NULL, NULL);
}

static const ntsim_vector_t *find_id(const ntsim_vector_set_t *set, const char *id)
{
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->vectors[i].id, id) == 0)
            return &set->vectors[i];
    return NULL;
}

/* Parses the common keys and the kind's body of one vector into *v (~80
 * lines: the common keys in the order vectors/README.md gives them). */
static NRT_STATUS parse_vector(ntsim_yparse_t *p, ntsim_vector_set_t *set,
                               const ntsim_vector_kind_t *kind,
                               yaml_node_t *node, const char *path, ntsim_vector_t *v)
{
    NRT_STATUS st = ntsim_yp_check_keys(p, node, path, common_keys, kind->keys);
    if (st != NRT_SUCCESS)
        return st;
    v->kind = kind;
    v->line = (unsigned)node->start_mark.line + 1;
    if ((v->file = ntsim_strdup(ntsim_yp_file(p))) == NULL)
        return NRT_RESOURCE;
    /* The keys as written, for the facts' FACT@key pins (facts.h). */
    size_t nkeys = (size_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
    if (nkeys > 0 && (v->keys = calloc(nkeys, sizeof *v->keys)) == NULL)
        return NRT_RESOURCE;
    for (size_t i = 0; i < nkeys; i++) {
        yaml_node_t *k = ntsim_yp_node(p, node->data.mapping.pairs.start[i].key);
        if (k == NULL || k->type != YAML_SCALAR_NODE)
            continue; /* check_keys refused it already */
        if ((v->keys[v->key_count] = ntsim_strdup((const char *)k->data.scalar.value)) == NULL)
            return NRT_RESOURCE;
        v->key_count++;
    }

    const char *id = NULL, *comment = NULL, *source = NULL, *expect = NULL, *error = NULL;
    if ((st = ntsim_yp_str(p, node, path, "id", true, &id)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "comment", true, &comment)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "source", true, &source)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "expect", true, &expect)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "error", false, &error)) != NRT_SUCCESS)
        return st;

    char field[256];
    ntsim_yp_join(field, sizeof field, path, "id");
    if (!id_is_well_formed(id, kind->name))
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "id"), field,
                              "'%s' must be '%s.' followed by [a-z0-9_.-]", id, kind->name);
    const ntsim_vector_t *dup = find_id(set, id);
    if (dup != NULL)
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "id"), field,
                              "duplicate id '%s' (first at %s:%u)", id, dup->file, dup->line);
    ntsim_yp_join(field, sizeof field, path, "comment");
    if (comment[0] == '\0' || strchr(comment, '\n') != NULL)
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "comment"), field,
                              "must be one non-empty line");
    ntsim_yp_join(field, sizeof field, path, "source");
    if (!source_is_well_formed(source))
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "source"), field,
                              "'%s' must list fact and decision ids (S3.hw_notify, "
                              "F2.json.key_order, D-PHASE)",
                              source);
    ntsim_yp_join(field, sizeof field, path, "expect");
    if (strcmp(expect, "valid") == 0)
        v->expect = NTSIM_EXPECT_VALID;
    else if (strcmp(expect, "invalid") == 0)
        v->expect = NTSIM_EXPECT_INVALID;
    else
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "expect"), field,
                              "expected 'valid' or 'invalid', got '%s'", expect);
    if (v->expect == NTSIM_EXPECT_INVALID && !kind->allows_invalid)
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "expect"), field,
                              "kind '%s' has no invalid vectors", kind->name);
    ntsim_yp_join(field, sizeof field, path, "error");
    if (v->expect == NTSIM_EXPECT_INVALID && error == NULL)
        return ntsim_yp_error(p, node, field, "missing required field (expect is invalid)");
    if (v->expect == NTSIM_EXPECT_VALID && error != NULL)
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "error"), field,
                              "only allowed when expect is invalid");

    if ((v->id = ntsim_strdup(id)) == NULL || (v->comment = ntsim_strdup(comment)) == NULL ||
        (v->source = ntsim_strdup(source)) == NULL || (error && (v->error = ntsim_strdup(error)) == NULL))
        return NRT_RESOURCE;

    yaml_node_t *flags = ntsim_yp_get(p, node, "flags");
    if (flags != NULL) {
        ntsim_yp_join(field, sizeof field, path, "flags");
        if (flags->type != YAML_SEQUENCE_NODE)
            return ntsim_yp_error(p, flags, field, "expected a sequence, got %s",
                                  ntsim_yp_node_type_name(flags));
        size_t n = (size_t)(flags->data.sequence.items.top - flags->data.sequence.items.start);
        if (n > 0 && (v->flags = calloc(n, sizeof(char *))) == NULL)
            return NRT_RESOURCE;
        for (size_t i = 0; i < n; i++) {
            yaml_node_t *f = ntsim_yp_node(p, flags->data.sequence.items.start[i]);
            char ffield[280];
            snprintf(ffield, sizeof ffield, "%s[%zu]", field, i);
            const char *text;
            if ((st = ntsim_yp_text(p, f, ffield, "a flag name", &text)) != NRT_SUCCESS)
                return st;
            if (!in_list(known_flags, text))
                return ntsim_yp_error(p, f, ffield, "unknown flag '%s'", text);
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

/* Walks the document root of one file; ctx is the set being loaded. */
static NRT_STATUS parse_file(ntsim_yparse_t *p, yaml_node_t *root, void *ctx)
{
    ntsim_vector_set_t *set = ctx;
    NRT_STATUS st = ntsim_yp_check_keys(p, root, "", file_keys, NULL);
    if (st != NRT_SUCCESS)
        return st;
    int64_t version = 0;
    const char *kind_name = NULL, *comment = NULL;
    if ((st = ntsim_yp_int(p, root, "", "version", true, 1, 1, &version)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, root, "", "kind", true, &kind_name)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, root, "", "comment", false, &comment)) != NRT_SUCCESS)
        return st;
    const ntsim_vector_kind_t *kind = find_kind(kind_name);
    if (kind == NULL) {
        ntsim_suggest_t s;
        ntsim_suggest_init(&s, kind_name, strlen(kind_name));
        for (const ntsim_vector_kind_t *const *k = ntsim_vector_kinds; *k != NULL; k++)
            ntsim_suggest_add_z(&s, (*k)->name);
        const char *near = ntsim_suggest_best(&s, NULL);
        if (near != NULL)
            return ntsim_yp_error(p, ntsim_yp_get(p, root, "kind"), "kind",
                                  "unknown kind '%s' (did you mean %s?)", kind_name, near);
        return ntsim_yp_error(p, ntsim_yp_get(p, root, "kind"), "kind", "unknown kind '%s'",
                              kind_name);
    }
    yaml_node_item_t *items;
    size_t count;
    if ((st = ntsim_yp_seq(p, root, "", "vectors", &items, &count)) != NRT_SUCCESS)
        return st;

    NRT_STATUS worst = NRT_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "vectors[%zu]", i);
        if (grow((void **)&set->vectors, &set->cap, set->count, sizeof(ntsim_vector_t)) !=
            NRT_SUCCESS)
            return NRT_RESOURCE;
        ntsim_vector_t *v = &set->vectors[set->count];
        memset(v, 0, sizeof *v);
        st = parse_vector(p, set, kind, ntsim_yp_node(p, items[i]), path, v);
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

NRT_STATUS ntsim_vector_set_load_string(ntsim_vector_set_t *set, const char *name,
                                        const char *text, size_t len)
{
    return ntsim_yaml_load_string(&set->errors, name, text, len, parse_file, set);
}

NRT_STATUS ntsim_vector_set_load_file(ntsim_vector_set_t *set, const char *path)
{
    return ntsim_yaml_load_file(&set->errors, path, NTSIM_INPUT_VECTOR, parse_file, set);
}

/* --- directories ------------------------------------------------------------------ */

/* The directories read so far, by device and inode: each is read once. */
typedef struct dir_seen {
    dev_t dev;
    ino_t ino;
    char *path; /* the path it was first read by */
} dir_seen_t;

typedef struct path_list {
    char **paths;
    size_t count;
    size_t cap;
    dir_seen_t *dirs;
    size_t dir_count, dir_cap;
    ntsim_errors_t *errors; /* a loop or a second path to a directory, named */
    ntsim_errors_t *unreadable; /* a file or subdirectory that cannot be read, named */
} path_list_t;

/* Deeper than this is no vector tree; said, not read. */
enum { DIR_DEPTH_MAX = 16 };

/* Whether dir (whose stat is *sb) was read already; its first path in *first. */
static bool dir_seen(const path_list_t *list, const struct stat *sb, const char **first)
{
    for (size_t i = 0; i < list->dir_count; i++)
        if (list->dirs[i].dev == sb->st_dev && list->dirs[i].ino == sb->st_ino) {
            *first = list->dirs[i].path;
            return true;
        }
    return false;
}

/* The *.yaml files under dir, each directory read once (a symlink back to
 * an ancestor, or a second path to a directory, is named in the errors and
 * not followed: three links to "." would otherwise be walked 3^16 times). */
static NRT_STATUS collect(path_list_t *list, const char *dir, unsigned depth)
{
    struct stat sb;
    const char *first = NULL;
    if (stat(dir, &sb) != 0)
        return NRT_FAILURE;
    if (dir_seen(list, &sb, &first))
        return ntsim_errors_add(list->errors, "%s: the directory %s again (a symlink loop or a "
                                              "second path to it): not read twice",
                                dir, first);
    if (depth > DIR_DEPTH_MAX)
        return ntsim_errors_add(list->errors, "%s: more than %d directories deep: not read", dir,
                                DIR_DEPTH_MAX);
    char *copy = ntsim_strdup(dir);
    if (copy == NULL || grow((void **)&list->dirs, &list->dir_cap, list->dir_count,
                             sizeof(dir_seen_t)) != NRT_SUCCESS) {
        free(copy);
        return NRT_RESOURCE;
    }
    list->dirs[list->dir_count++] = (dir_seen_t){sb.st_dev, sb.st_ino, copy};
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
        struct stat fb;
        if (stat(full, &fb) == 0 && S_ISDIR(fb.st_mode)) {
            st = collect(list, full, depth + 1);
            if (st == NRT_FAILURE) /* a subdirectory that cannot be read: named */
                st = ntsim_errors_add(list->unreadable, "%s: cannot read vector directory: %s",
                                      full, strerror(errno));
            free(full);
        } else if (ntsim_ends_with(e->d_name, ".yaml")) {
            /* One that does not open or is not a regular file gives no
             * content to judge: named apart, never loaded (vector.h). */
            char why[256];
            uint64_t size;
            FILE *f = ntsim_open_input(full, SIZE_MAX, &size, why, sizeof why);
            if (f == NULL) {
                st = ntsim_errors_add(list->unreadable, "%s: %s", full, why);
                free(full);
                continue;
            }
            (void)fclose(f); /* opened to see that it opens: nothing read */
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
    path_list_t list = {NULL, 0, 0, NULL, 0, 0, &set->errors, &set->unreadable};
    size_t errors_before = set->errors.count + set->unreadable.count;
    size_t unreadable_before = set->unreadable.count;
    NRT_STATUS st = collect(&list, dir, 0);
    if (st == NRT_FAILURE) {
        NRT_STATUS e = ntsim_errors_add(&set->unreadable, "%s: cannot read vector directory: %s",
                                        dir, strerror(errno));
        st = e == NRT_SUCCESS ? NRT_FAILURE : e;
    }
    /* In byte order, as the files load: the same run names them the same way. */
    if (set->unreadable.count > unreadable_before)
        qsort(set->unreadable.items + unreadable_before, set->unreadable.count - unreadable_before,
              sizeof(char *), cmp_paths);
    if (st == NRT_SUCCESS && list.count == 0) {
        NRT_STATUS e = ntsim_errors_add(&set->errors, "%s: no *.yaml vector files found", dir);
        st = e == NRT_SUCCESS ? NRT_FAILURE : e;
    }
    if (st == NRT_SUCCESS && set->errors.count + set->unreadable.count > errors_before)
        st = NRT_FAILURE; /* a loop, a directory too deep or unreadable: named above */
    if (st != NRT_RESOURCE && list.count > 0) { /* qsort wants an array, even of 0 */
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
    for (size_t i = 0; i < list.dir_count; i++)
        free(list.dirs[i].path);
    free(list.dirs);
    return st;
}
