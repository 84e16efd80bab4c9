/* conformance/fuzz/fuzz_trace_read.c: any bytes as a file given to `ntsim
 * export` and `ntsim view`, through the public read API (ntsim/read.h): the
 * content picks the format (a fetch document, NTFF, a raw record dump, or a
 * timeline refused by name), and whatever records come out are written in
 * every output format of the registry, so the span pairing, the clock fit
 * and the lane layout see hostile records too. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ntsim/convert.h"
#include "ntsim/read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ntsim_trace_t *t = NULL;
    char err[256];
    if (ntsim_trace_read(data, size, NULL, &t, err, sizeof err) != NRT_SUCCESS)
        return 0;
    static FILE *sink;
    if (sink == NULL)
        sink = fopen("/dev/null", "w");
    size_t count;
    const ntsim_output_format_t *f = ntsim_output_formats(&count);
    for (size_t i = 0; i < count; i++)
        (void)f[i].write(t->events, t->event_count, NULL, sink);
    ntsim_trace_free(t);
    return 0;
}
