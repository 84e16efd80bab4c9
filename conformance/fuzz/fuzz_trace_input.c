/* conformance/fuzz/fuzz_trace_input.c: any bytes as the input of `ntsim export` and
 * `ntsim view`: the first byte picks the format (a fetch document, an .ntff
 * or a raw record dump), the rest is the file; whatever records come out
 * are drawn as all three timelines, so the span pairing, the clock fit and
 * the lane layout see hostile records too. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ntsim/convert.h"
#include "trace_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const kinds[3] = {"in.json", "in.ntff", "in.records"};
    if (size == 0)
        return 0;
    nrt_sys_trace_event_t *recs = NULL;
    size_t n = 0;
    char err[256];
    if (ntsim_trace_input_parse(kinds[data[0] % 3], (const char *)data + 1, size - 1,
                                NTSIM_TRACE_INPUT_MAX_EVENTS, &recs, &n, err, sizeof err) != NRT_SUCCESS)
        return 0;
    uint8_t *pf = NULL;
    char *chrome = NULL, *html = NULL;
    size_t len;
    if (ntsim_pftrace_serialize(recs, n, NULL, &pf, &len) == NRT_SUCCESS)
        ntsim_buffer_free(pf);
    if (ntsim_chrome_trace_serialize(recs, n, NULL, &chrome, &len) == NRT_SUCCESS)
        ntsim_buffer_free(chrome);
    if (ntsim_timeline_html_serialize(recs, n, NULL, &html, &len) == NRT_SUCCESS)
        ntsim_buffer_free(html);
    free(recs);
    return 0;
}
