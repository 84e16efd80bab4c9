/*
 * conformance/input.c: reading inputs into memory (input.h).
 */
#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *ntsim_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
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
