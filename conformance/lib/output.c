/*
 * conformance/lib/output.c: checked output (output.h). Now: stdout.
 */
#include "output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
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
