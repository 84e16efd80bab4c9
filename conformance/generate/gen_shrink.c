/*
 * conformance/generate/gen_shrink.c: a failing case made small, and written
 * down as a vector.
 *
 * Greedy, as QuickCheck and Hypothesis shrink: the kind offers simpler
 * candidates in a fixed order (the biggest cuts first: half the emits, one
 * emit, a repeat halved, then a payload zeroed, a field, an option back to
 * its default); the first candidate that still fails replaces the case and
 * the walk starts again from the first candidate; it ends when no candidate
 * fails, or the budget of tries (or time) is spent. Every candidate goes
 * through the whole oracle (gen_oracle.c): its expected values are the
 * reference's again, so a shrunk vector is as right as the original.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gen_int.h"

double ntsim_gen_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The case's inputs as text (a copy holds no expected values): two cases
 * with the same key are the same case. NULL when out of memory. */
static char *key_of(const ntsim_gen_kind_t *k, const void *c)
{
    void *bare = k->copy(c);
    if (bare == NULL)
        return NULL;
    ntsim_gen_text_t t;
    ntsim_gen_text_init(&t);
    ntsim_gen_vector_text(k, bare, "x.key", "key", &t);
    k->free(bare);
    if (t.oom) {
        ntsim_gen_text_free(&t);
        return NULL;
    }
    return t.buf != NULL ? t.buf : calloc(1, 1);
}

size_t ntsim_gen_shrink(ntsim_gen_ctx_t *x, const ntsim_gen_kind_t *k, void **c, const char *id,
                  ntsim_gen_outcome_t *out, size_t budget, double seconds)
{
    double until = ntsim_gen_now() + seconds;
    size_t tries = 0;
    char *key = key_of(k, *c);
    if (key == NULL)
        return 0;
    bool progress = true;
    while (progress) {
        progress = false;
        for (size_t step = 0;; step++) {
            void *cand = k->shrink(*c, step);
            if (cand == NULL)
                break;
            char *ckey = key_of(k, cand);
            if (ckey == NULL || strcmp(ckey, key) == 0) {
                free(ckey);
                k->free(cand);
                continue; /* this step changes nothing */
            }
            if (tries >= budget || ntsim_gen_now() > until) {
                free(ckey);
                k->free(cand);
                free(key);
                return tries;
            }
            tries++;
            ntsim_gen_outcome_t o;
            ntsim_gen_evaluate(x, k, cand, id, &o);
            if (o.verdict == NTSIM_GEN_FAIL) {
                k->free(*c);
                *c = cand;
                ntsim_gen_outcome_free(out);
                *out = o;
                free(key);
                key = ckey;
                progress = true;
                break;
            }
            ntsim_gen_outcome_free(&o);
            free(ckey);
            k->free(cand);
        }
    }
    free(key);
    return tries;
}

/* DIR/NAME.yaml, created new (an existing file is never written over:
 * NAME-2.yaml and on). Its path, whole whatever its length (malloc'd), in
 * *path; NULL with why (a path the system refuses as too long among them). */
static FILE *create_new(const char *dir, const char *name, char **path, char *why,
                        size_t why_cap)
{
    *path = NULL;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(why, why_cap, "%s: cannot create the directory: %s", dir, strerror(errno));
        return NULL;
    }
    size_t cap = strlen(dir) + strlen(name) + 16;
    char *p = malloc(cap);
    if (p == NULL) {
        snprintf(why, why_cap, "out of memory");
        return NULL;
    }
    for (int n = 1; n < 1000; n++) {
        if (n == 1)
            snprintf(p, cap, "%s/%s.yaml", dir, name);
        else
            snprintf(p, cap, "%s/%s-%d.yaml", dir, name, n);
        int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd >= 0) {
            FILE *f = fdopen(fd, "w");
            if (f == NULL) {
                snprintf(why, why_cap, "%s: cannot open: %s", p, strerror(errno));
                (void)close(fd);
                (void)unlink(p); /* ours, empty */
                free(p);
                return NULL;
            }
            *path = p;
            return f;
        }
        if (errno != EEXIST) {
            snprintf(why, why_cap, "%s: cannot create: %s", p, strerror(errno));
            free(p);
            return NULL;
        }
    }
    snprintf(why, why_cap, "%s/%s.yaml: 999 files of that name exist", dir, name);
    free(p);
    return NULL;
}

bool ntsim_gen_save(const ntsim_gen_kind_t *k, const void *c, const char *id, const char *comment,
                    const char *dir, const char *name, char **path, char *why, size_t why_cap)
{
    *path = NULL;
    ntsim_gen_text_t t;
    ntsim_gen_text_init(&t);
    ntsim_gen_printf(&t, "# Generated by check_ntsim --generate and shrunk; the expected values are the\n"
                   "# built-in reference's. Check them against the facts in `source` before\n"
                   "# committing it (docs/generative.md, \"Keeping a failure\").\n");
    ntsim_gen_vector_text(k, c, id, comment, &t);
    if (t.oom) {
        ntsim_gen_text_free(&t);
        snprintf(why, why_cap, "out of memory");
        return false;
    }
    char *p = NULL;
    FILE *f = create_new(dir, name, &p, why, why_cap);
    if (f == NULL) {
        ntsim_gen_text_free(&t);
        return false;
    }
    bool ok = fwrite(t.buf, 1, t.len, f) == t.len;
    ok &= fclose(f) == 0;
    ntsim_gen_text_free(&t);
    if (!ok) {
        snprintf(why, why_cap, "%s: write failed", p);
        (void)unlink(p); /* our own half-written file, never another's */
        free(p);
        return false;
    }
    *path = p;
    return true;
}
