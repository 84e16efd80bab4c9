/*
 * engine/suggest.h: "did you mean": the known name nearest a misspelled one
 * (an option, a scenario key, a vector kind, an inspect variable, an event
 * type), so that a message can name it. Shared by every layer above the
 * engine; not part of the public API.
 *
 * Nearness is the optimal string alignment distance (Damerau-Levenshtein
 * without a substring edited twice: an insertion, a deletion, a change or
 * two neighbours swapped each count one), byte by byte, case folded for
 * ASCII. A name is suggested when it is within 1 of a word of up to 4
 * bytes, 2 up to 8 bytes, 3 beyond, and nearer than every other name (the
 * first of equally near names): `jsn` -> `json`, `duraton_ns` ->
 * `duration_ns`, `NEURON_RT_INSPECT_ENABEL` -> `NEURON_RT_INSPECT_ENABLE`.
 */
#ifndef NTSIM_ENGINE_SUGGEST_H
#define NTSIM_ENGINE_SUGGEST_H

#include <stddef.h>

typedef struct ntsim_suggest {
    const char *word;   /* what was written */
    size_t word_len;
    const char *best;   /* the nearest name so far, or NULL */
    size_t best_len;
    size_t best_distance;
} ntsim_suggest_t;

/* Starts looking for the name nearest word[0..len). */
void ntsim_suggest_init(ntsim_suggest_t *s, const char *word, size_t len);
/* Offers one known name (name[0..len); it must outlive s). */
void ntsim_suggest_add(ntsim_suggest_t *s, const char *name, size_t len);
/* The NUL-terminated form of both: ntsim_suggest_add(s, name, strlen(name)). */
void ntsim_suggest_add_z(ntsim_suggest_t *s, const char *name);
/* The name to suggest, or NULL when none is near enough; *len its length. */
const char *ntsim_suggest_best(const ntsim_suggest_t *s, size_t *len);

/* The OSA distance of a[0..alen) and b[0..blen), case folded, or `cap`+1
 * when it is more than cap. */
size_t ntsim_suggest_distance(const char *a, size_t alen, const char *b, size_t blen, size_t cap);

#endif /* NTSIM_ENGINE_SUGGEST_H */
