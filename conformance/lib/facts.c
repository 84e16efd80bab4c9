/*
 * conformance/lib/facts.c: reading docs/spec_facts.md and docs/decisions.md
 * (facts.h), and the grammar of a vector's `source:`.
 *
 *   source  := id (sep id)*
 *   sep     := ("," | " ")+
 *   id      := fact | decision
 *   fact    := ("S" | "F") digit "." word ("." word)*     word := [a-z0-9_]+
 *   decision:= "D-" [A-Z0-9]+ ("-" [A-Z0-9]+)*
 */
#include "facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Length of a fact id at s, or 0. */
static size_t fact_id_len(const char *s)
{
    if ((s[0] != 'S' && s[0] != 'F') || s[1] < '0' || s[1] > '9' || s[2] != '.')
        return 0;
    size_t n = 3;
    for (;;) {
        size_t w = 0;
        while (is_word_char(s[n + w]))
            w++;
        if (w == 0)
            return 0;
        n += w;
        if (s[n] != '.' || !is_word_char(s[n + 1]))
            return n;
        n++;
    }
}

/* Length of a decision id at s, or 0. */
static size_t decision_id_len(const char *s)
{
    if (s[0] != 'D' || s[1] != '-')
        return 0;
    size_t n = 2;
    for (;;) {
        size_t w = 0;
        while ((s[n + w] >= 'A' && s[n + w] <= 'Z') || (s[n + w] >= '0' && s[n + w] <= '9'))
            w++;
        if (w == 0)
            return 0;
        n += w;
        if (s[n] != '-')
            return n;
        n++;
    }
}

/* Length of a pin's key at s ("json", "types_enabled"), or 0. */
static size_t key_len(const char *s)
{
    size_t n = 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
        n++;
    return n;
}

/* Walks the tokens of a source: ID, or FACT@key. Calls id_fn with every id,
 * pin_fn with every pin; stops when either returns false. */
static bool source_walk(const char *source, bool (*id_fn)(const char *id, size_t len, void *ctx),
                        bool (*pin_fn)(const char *id, size_t len, const char *key,
                                       size_t key_len, void *ctx),
                        void *ctx)
{
    const char *p = source;
    size_t ids = 0;
    for (;;) {
        while (*p == ',' || *p == ' ')
            p++;
        if (*p == '\0')
            return ids > 0;
        size_t n = fact_id_len(p), k = 0;
        if (n > 0 && p[n] == '@') {
            k = key_len(p + n + 1);
            if (k == 0)
                return false;
        } else if (n == 0) {
            n = decision_id_len(p);
        }
        size_t end = n + (k > 0 ? k + 1 : 0);
        if (n == 0 || (p[end] != '\0' && p[end] != ',' && p[end] != ' '))
            return false;
        ids++;
        if (id_fn != NULL && !id_fn(p, n, ctx))
            return true;
        if (k > 0 && pin_fn != NULL && !pin_fn(p, n, p + n + 1, k, ctx))
            return true;
        p += end;
    }
}

bool ntsim_source_each_id(const char *source, bool (*fn)(const char *id, size_t len, void *ctx),
                          void *ctx)
{
    return source_walk(source, fn, NULL, ctx);
}

bool ntsim_source_each_pin(const char *source,
                           bool (*fn)(const char *id, size_t len, const char *key,
                                      size_t key_len, void *ctx),
                           void *ctx)
{
    return source_walk(source, NULL, fn, ctx);
}

/* --- loading ------------------------------------------------------------------------- */

static NRT_STATUS read_file(const char *path, char **text, ntsim_errors_t *errors)
{
    char err[256];
    size_t len;
    NRT_STATUS st = ntsim_read_input(path, NTSIM_INPUT_DOC, text, &len, err, sizeof err);
    if (st == NRT_INVALID && ntsim_errors_add(errors, "%s: %s", path, err) != NRT_SUCCESS)
        return NRT_RESOURCE;
    return st == NRT_INVALID ? NRT_FAILURE : st;
}

/* One "- `ID` — text [STATUS] → settled by D-NAME" line into the list. */
static NRT_STATUS parse_fact_line(ntsim_facts_t *f, const char *path, unsigned lineno,
                                  const char *line, size_t *cap, ntsim_errors_t *errors)
{
    const char *id = line + 3;
    size_t idn = fact_id_len(id);
    if (idn == 0 || id[idn] != '`')
        return ntsim_errors_add(errors, "%s:%u: not a fact id: %.40s", path, lineno, id);
    if (ntsim_facts_find(f, id, idn) != NULL)
        return ntsim_errors_add(errors, "%s:%u: duplicate fact id %.*s", path, lineno, (int)idn,
                                id);
    static const char *const statuses[] = {"HIGH", "MED", "LOW", "OBS", "inf", "CONFLICT", "OPEN"};
    const char *status = NULL;
    const char *bracket = NULL;
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0] && status == NULL; i++) {
        char tag[16];
        snprintf(tag, sizeof tag, "[%s]", statuses[i]);
        const char *at = strstr(line, tag);
        if (at != NULL) {
            status = statuses[i];
            bracket = at;
        }
    }
    if (status == NULL)
        return ntsim_errors_add(errors, "%s:%u: %.*s: no [STATUS]", path, lineno, (int)idn, id);
    if (f->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 256;
        ntsim_fact_t *n = realloc(f->items, ncap * sizeof *n);
        if (n == NULL)
            return NRT_RESOURCE;
        f->items = n;
        *cap = ncap;
    }
    ntsim_fact_t *fact = &f->items[f->count];
    memset(fact, 0, sizeof *fact);
    fact->line = lineno;
    snprintf(fact->status, sizeof fact->status, "%s", status);
    if ((fact->id = malloc(idn + 1)) == NULL)
        return NRT_RESOURCE;
    memcpy(fact->id, id, idn);
    fact->id[idn] = '\0';
    f->count++;
    /* " · pinned only at `key`": the one key that can see the fact. */
    const char *only = strstr(bracket, "pinned only at `");
    const char *pins = strstr(bracket, "pinned by ");
    if (only != NULL) {
        only += strlen("pinned only at `");
        const char *end = strchr(only, '`');
        size_t kn = end != NULL ? (size_t)(end - only) : 0;
        if (kn == 0 || key_len(only) != kn || (pins != NULL && pins < only))
            return ntsim_errors_add(errors, "%s:%u: %s: 'pinned only at' needs one `key`, "
                                            "before any 'pinned by'", path, lineno, fact->id);
        if ((fact->only_at = malloc(kn + 1)) == NULL)
            return NRT_RESOURCE;
        memcpy(fact->only_at, only, kn);
        fact->only_at[kn] = '\0';
    }
    /* " · pinned by `test_x`, `conformance/cli/y.sh`": checks outside the
     * vectors that fail if the fact changes. */
    for (const char *q = pins; q != NULL && (q = strchr(q, '`')) != NULL;) {
        const char *end = strchr(q + 1, '`');
        if (end == NULL || end == q + 1)
            return ntsim_errors_add(errors, "%s:%u: %s: 'pinned by' needs `name` items", path,
                                    lineno, fact->id);
        if (fact->check_count == NTSIM_FACT_CHECKS_MAX)
            return ntsim_errors_add(errors, "%s:%u: %s: more than %d checks", path, lineno,
                                    fact->id, NTSIM_FACT_CHECKS_MAX);
        size_t cn = (size_t)(end - q - 1);
        char *c = malloc(cn + 1);
        if (c == NULL)
            return NRT_RESOURCE;
        memcpy(c, q + 1, cn);
        c[cn] = '\0';
        fact->checks[fact->check_count++] = c;
        q = end + 1;
    }
    const char *by = strstr(bracket, "settled by ");
    if (by != NULL) {
        by += strlen("settled by ");
        size_t dn = decision_id_len(by);
        if (dn == 0)
            return ntsim_errors_add(errors, "%s:%u: %s: 'settled by' names no decision id", path,
                                    lineno, fact->id);
        if ((fact->settled_by = malloc(dn + 1)) == NULL)
            return NRT_RESOURCE;
        memcpy(fact->settled_by, by, dn);
        fact->settled_by[dn] = '\0';
    }
    return NRT_SUCCESS;
}

static NRT_STATUS load_facts(ntsim_facts_t *f, const char *path, ntsim_errors_t *errors)
{
    char *text;
    NRT_STATUS st = read_file(path, &text, errors);
    if (st != NRT_SUCCESS)
        return st;
    size_t cap = 0;
    unsigned lineno = 0;
    NRT_STATUS worst = NRT_SUCCESS;
    bool in_counts = false;
    for (char *line = text, *next; line != NULL && *line; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        lineno++;
        if (strncmp(line, "## ", 3) == 0)
            in_counts = strcmp(line, "## Counts") == 0;
        if (in_counts) {
            /* "- HIGH: 257", "- total: 345", "Entries that name a settling decision: 132" */
            char name[16];
            size_t n;
            if (f->stated_count < NTSIM_FACT_COUNTS_MAX &&
                (sscanf(line, "- %15[A-Za-z]: %zu", name, &n) == 2 ||
                 (sscanf(line, "Entries that name a settling decision: %zu", &n) == 1 &&
                  snprintf(name, sizeof name, "settled") > 0))) {
                snprintf(f->stated[f->stated_count].name, sizeof f->stated[0].name, "%s", name);
                f->stated[f->stated_count++].n = n;
            }
            continue;
        }
        if (strncmp(line, "- `", 3) != 0)
            continue;
        size_t before = errors->count;
        st = parse_fact_line(f, path, lineno, line, &cap, errors);
        if (st == NRT_RESOURCE) {
            worst = st;
            break;
        }
        if (errors->count > before)
            worst = NRT_INVALID;
    }
    free(text);
    return worst;
}

static NRT_STATUS load_decisions(ntsim_facts_t *f, const char *path, ntsim_errors_t *errors)
{
    char *text;
    NRT_STATUS st = read_file(path, &text, errors);
    if (st != NRT_SUCCESS)
        return st;
    size_t cap = 0;
    st = NRT_SUCCESS;
    for (char *line = text, *next; line != NULL && *line; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        if (strncmp(line, "## ", 3) != 0)
            continue;
        size_t n = decision_id_len(line + 3);
        if (n == 0 || line[3 + n] != ':')
            continue;
        if (f->decision_count == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            char **d = realloc(f->decisions, ncap * sizeof *d);
            if (d == NULL) {
                st = NRT_RESOURCE;
                break;
            }
            f->decisions = d;
            cap = ncap;
        }
        char *id = malloc(n + 1);
        if (id == NULL) {
            st = NRT_RESOURCE;
            break;
        }
        memcpy(id, line + 3, n);
        id[n] = '\0';
        f->decisions[f->decision_count++] = id;
    }
    free(text);
    return st;
}

NRT_STATUS ntsim_facts_load(ntsim_facts_t *f, const char *facts_path, const char *decisions_path,
                            ntsim_errors_t *errors)
{
    memset(f, 0, sizeof *f);
    NRT_STATUS a = load_facts(f, facts_path, errors);
    if (a == NRT_RESOURCE)
        return a;
    NRT_STATUS b = load_decisions(f, decisions_path, errors);
    if (b == NRT_RESOURCE)
        return b;
    return a != NRT_SUCCESS ? a : b;
}

void ntsim_facts_free(ntsim_facts_t *f)
{
    for (size_t i = 0; i < f->count; i++) {
        free(f->items[i].id);
        free(f->items[i].settled_by);
        free(f->items[i].only_at);
        for (size_t c = 0; c < f->items[i].check_count; c++)
            free(f->items[i].checks[c]);
    }
    free(f->items);
    for (size_t i = 0; i < f->decision_count; i++)
        free(f->decisions[i]);
    free(f->decisions);
    memset(f, 0, sizeof *f);
}

ntsim_fact_t *ntsim_facts_find(const ntsim_facts_t *f, const char *id, size_t len)
{
    for (size_t i = 0; i < f->count; i++)
        if (strlen(f->items[i].id) == len && memcmp(f->items[i].id, id, len) == 0)
            return &f->items[i];
    return NULL;
}

bool ntsim_fact_pinnable_at(const ntsim_fact_t *x, const char *key, size_t len)
{
    return x->only_at == NULL || (strlen(x->only_at) == len && memcmp(x->only_at, key, len) == 0);
}

bool ntsim_facts_has_decision(const ntsim_facts_t *f, const char *id, size_t len)
{
    for (size_t i = 0; i < f->decision_count; i++)
        if (strlen(f->decisions[i]) == len && memcmp(f->decisions[i], id, len) == 0)
            return true;
    return false;
}
