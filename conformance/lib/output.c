/*
 * conformance/lib/output.c: checked output (output.h). Now: stdout.
 */
#include "output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

NRT_STATUS ntsim_output_stdout_close(const char *program)
{
    /* stdio keeps the error flag of a write that failed while printing (a
     * full buffer flushed to a full disk), but not its errno: the flush
     * below tries again what is still buffered and names the reason. */
    bool earlier = ferror(stdout) != 0;
    errno = 0;
    int err = fflush(stdout) != 0 ? errno : 0;
    if (fclose(stdout) != 0 && err == 0)
        err = errno;
    if (!earlier && err == 0)
        return NRT_SUCCESS;
    fprintf(stderr, "%s: cannot write stdout: %s\n", program,
            err != 0 ? strerror(err) : "a write failed");
    return NRT_FAILURE;
}

char *ntsim_output_shell_word(const char *s, bool always)
{
    size_t n = strlen(s), quotes = 0;
    bool plain = !always && n > 0;
    for (const char *c = s; *c != '\0'; c++) {
        quotes += *c == '\'';
        plain &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                 (*c >= '0' && *c <= '9') || strchr("_./:=,+@%-", *c) != NULL;
    }
    char *out = malloc(n + 3 * quotes + 3);
    if (out == NULL || plain) {
        if (out != NULL)
            memcpy(out, s, n + 1);
        return out;
    }
    char *o = out;
    *o++ = '\'';
    for (const char *c = s; *c != '\0'; c++) {
        if (*c == '\'') {
            memcpy(o, "'\\''", 4); /* close, an escaped quote, open again */
            o += 4;
        } else {
            *o++ = *c;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}
