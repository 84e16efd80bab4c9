/*
 * engine/suggest.c: the nearest known name (suggest.h). The distance is the
 * textbook dynamic programme over three rows (the row before the last one
 * is what a swap of two neighbours looks back to); one constant is both a
 * row's length and the limit past which a name is never near: stack rows.
 */
#include <string.h>

#include "suggest.h"

enum { ROW = 65 }; /* a row: b's prefixes of 0..64 bytes; a name of ROW bytes is never near */

static unsigned char fold(char c)
{
    return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

size_t ntsim_suggest_distance(const char *a, size_t alen, const char *b, size_t blen, size_t cap)
{
    if (alen >= ROW || blen >= ROW || (alen > blen ? alen - blen : blen - alen) > cap)
        return cap + 1;
    size_t rows[3][ROW];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= blen; j++)
        prev[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        size_t row_min = cur[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
                fold(a[i - 2]) == fold(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
                cur[j] = prev2[j - 2] + 1;
            if (cur[j] < row_min)
                row_min = cur[j];
        }
        if (row_min > cap)
            return cap + 1;
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[blen] > cap ? cap + 1 : prev[blen];
}

void ntsim_suggest_init(ntsim_suggest_t *s, const char *word, size_t len)
{
    *s = (ntsim_suggest_t){word, len, NULL, 0, 0};
    /* The most a typo may be, by the word's length. */
    s->best_distance = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    s->best_distance++; /* one past: a name must come nearer than this */
}

void ntsim_suggest_add(ntsim_suggest_t *s, const char *name, size_t len)
{
    if (name == NULL || s->best_distance == 0)
        return;
    size_t d = ntsim_suggest_distance(s->word, s->word_len, name, len, s->best_distance - 1);
    if (d < s->best_distance) {
        s->best = name;
        s->best_len = len;
        s->best_distance = d;
    }
}

void ntsim_suggest_add_z(ntsim_suggest_t *s, const char *name)
{
    if (name != NULL)
        ntsim_suggest_add(s, name, strlen(name));
}

const char *ntsim_suggest_best(const ntsim_suggest_t *s, size_t *len)
{
    if (len != NULL)
        *len = s->best_len;
    return s->best;
}
