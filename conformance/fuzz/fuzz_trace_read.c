/* conformance/fuzz/fuzz_trace_read.c: any bytes as a file given to `ntsim
 * export` and `ntsim view`, through the public read API (ntsim/read.h): the
 * content picks the format (a fetch document, NTFF, a raw record dump, or a
 * timeline refused by name), and whatever records come out are drawn as all
 * three timelines, so the span pairing, the clock fit and the lane layout
 * see hostile records too. */
#include <stddef.h>
#include <stdint.h>

#include "ntsim/convert.h"
#include "ntsim/read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ntsim_trace_t *t = NULL;
    char err[256];
    if (ntsim_trace_read(data, size, NULL, &t, err, sizeof err) != NRT_SUCCESS)
        return 0;
    uint8_t *pf = NULL;
    char *chrome = NULL, *html = NULL;
    size_t len;
    if (ntsim_pftrace_serialize(t->events, t->event_count, NULL, &pf, &len) == NRT_SUCCESS)
        ntsim_buffer_free(pf);
    if (ntsim_chrome_trace_serialize(t->events, t->event_count, NULL, &chrome, &len) ==
        NRT_SUCCESS)
        ntsim_buffer_free(chrome);
    if (ntsim_timeline_html_serialize(t->events, t->event_count, NULL, &html, &len) == NRT_SUCCESS)
        ntsim_buffer_free(html);
    ntsim_trace_free(t);
    return 0;
}
