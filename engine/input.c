/*
 * engine/input.c: reading inputs into memory (input.h).
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t g_limits[NTSIM_INPUT_KIND_COUNT] = {
    [NTSIM_INPUT_VECTOR] = (size_t)16 << 20,
    [NTSIM_INPUT_SCENARIO] = (size_t)1 << 20,
    [NTSIM_INPUT_DOC] = (size_t)4 << 20,
    [NTSIM_INPUT_NTFF] = (size_t)256 << 20,
};

size_t ntsim_input_limit(ntsim_input_kind_t kind)
{
    return (unsigned)kind < NTSIM_INPUT_KIND_COUNT ? g_limits[kind] : SIZE_MAX;
}

void ntsim_input_set_limit_all(size_t bytes)
{
    for (size_t k = 0; k < NTSIM_INPUT_KIND_COUNT; k++)
        g_limits[k] = bytes;
}

char *ntsim_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

char *ntsim_vformat(const char *fmt, va_list ap)
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

char *ntsim_text_escape(const char *s, size_t len, size_t max, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < len && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, 5, "\\x%02x", c);
    }
    if (len > max) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return out;
}

bool ntsim_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

const char *ntsim_file_type_name(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file";
}

FILE *ntsim_open_input(const char *path, size_t limit, uint64_t *size, char *err, size_t cap)
{
    /* Open first and fstat the open file, so the check and the read see the
     * same file. O_NONBLOCK: opening a FIFO without a writer must not block
     * (it is refused below); regular files ignore the flag. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, cap, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat sb;
    int saved = 0;
    if (fstat(fd, &sb) != 0) {
        saved = errno;
        snprintf(err, cap, "cannot stat: %s", strerror(saved));
    } else if (!S_ISREG(sb.st_mode)) {
        saved = EINVAL;
        snprintf(err, cap, "not a regular file (%s)", ntsim_file_type_name(sb.st_mode));
    } else if ((uint64_t)sb.st_size > (uint64_t)limit) {
        saved = EFBIG;
        snprintf(err, cap, "file too large (%llu bytes, limit %llu)",
                 (unsigned long long)sb.st_size, (unsigned long long)limit);
    }
    FILE *f = saved == 0 ? fdopen(fd, "rb") : NULL;
    if (f == NULL) {
        if (saved == 0) {
            saved = errno;
            snprintf(err, cap, "cannot open: %s", strerror(saved));
        }
        close(fd);
        errno = saved;
        return NULL;
    }
    *size = (uint64_t)sb.st_size;
    return f;
}

NRT_STATUS ntsim_read_stream(FILE *f, size_t limit, char **out, size_t *out_len)
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
        size_t want = cap - len - 1;
        size_t room = limit - len; /* len <= limit here */
        if (room < SIZE_MAX && want > room + 1)
            want = room + 1; /* one byte past the limit tells "too large" */
        size_t got = fread(buf + len, 1, want, f);
        len += got;
        if (len > limit) {
            free(buf);
            return NRT_INVALID;
        }
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

NRT_STATUS ntsim_read_input(const char *path, ntsim_input_kind_t kind, char **out, size_t *len,
                            char *err, size_t cap)
{
    size_t limit = ntsim_input_limit(kind);
    uint64_t size;
    FILE *f = ntsim_open_input(path, limit, &size, err, cap);
    if (f == NULL)
        return NRT_INVALID;
    NRT_STATUS st = ntsim_read_stream(f, limit, out, len);
    int saved = errno;
    fclose(f);
    if (st == NRT_INVALID)
        snprintf(err, cap, "file too large (grew past the limit of %llu bytes while read)",
                 (unsigned long long)limit);
    else if (st == NRT_FAILURE)
        snprintf(err, cap, "read error: %s", strerror(saved));
    else if (st == NRT_RESOURCE)
        snprintf(err, cap, "out of memory (%llu bytes)", (unsigned long long)size);
    return st == NRT_FAILURE ? NRT_INVALID : st;
}
