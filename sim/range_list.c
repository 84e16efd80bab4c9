/*
 * sim/range_list.c: "0-3,8" index lists (range_list.h).
 */
#include "range_list.h"

#include <stdio.h>
#include <string.h>

/* A decimal index from [p, end): digits only, at most 9 of them. */
static bool index_of(const char *p, const char *end, uint32_t *out)
{
    if (p == end || end - p > 9)
        return false;
    uint32_t v = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (uint32_t)(*p - '0');
    }
    *out = v;
    return true;
}

/* One item [p, end): N or N-M, into in[]. */
static bool one_item(const char *p, const char *end, uint32_t limit, bool *in, char *why,
                     size_t cap)
{
    int len = (int)(end - p);
    const char *dash = memchr(p, '-', (size_t)(end - p));
    uint32_t lo, hi;
    if (p == end) {
        snprintf(why, cap, "'': an empty item");
        return false;
    }
    if (!index_of(p, dash ? dash : end, &lo) || (dash && !index_of(dash + 1, end, &hi))) {
        snprintf(why, cap, "'%.*s': not an index or a range N-M of indices", len, p);
        return false;
    }
    if (!dash)
        hi = lo;
    if (hi < lo) {
        snprintf(why, cap, "'%.*s': the range ends before it starts", len, p);
        return false;
    }
    if (hi >= limit) {
        snprintf(why, cap, "'%.*s': %u is past the last index, %u", len, p, hi, limit - 1);
        return false;
    }
    for (uint32_t i = lo; i <= hi; i++) {
        if (in[i]) {
            snprintf(why, cap, "'%.*s': %u is listed twice", len, p, i);
            return false;
        }
        in[i] = true;
    }
    return true;
}

bool ntsim_parse_range_list(const char *text, uint32_t limit, bool *in, char *why, size_t cap)
{
    memset(in, 0, limit * sizeof *in);
    for (const char *p = text;;) {
        const char *end = strchr(p, ',');
        if (end == NULL)
            end = p + strlen(p);
        if (!one_item(p, end, limit, in, why, cap))
            return false;
        if (*end == '\0')
            return true;
        p = end + 1;
    }
}
