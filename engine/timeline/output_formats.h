/*
 * engine/timeline/output_formats.h: the one registry of output formats
 * (D-TIMELINE): the timelines ntsim writes, each once. `ntsim run` writes
 * every one, in this order; `ntsim export` picks one by the output's
 * extension; every usage line, help text and run's summary are made from it,
 * and the README's list of formats, each format's decision and its test
 * suite are checked against it (conformance/unit/engine/timeline/
 * check_output_formats.c). docs/architecture.md, "Adding an output format",
 * lists what a new one takes. Internal: the public face is
 * ntsim_output_formats() (ntsim/convert.h).
 *
 *   XX(name, title, file, extensions, description, decision)
 *   name         its writer is ntsim__write_<name> (ntsim_output_write_fn),
 *                its test suite check_<name>.c
 *   title        what messages call it ("a Perfetto trace")
 *   file         its name among ntsim run's outputs
 *   extensions   the endings of -o OUT that pick it in ntsim export,
 *                space-separated; the first is its own
 *   description  one line: what it is, and what opens it
 *   decision     the docs/decisions.md entry that says what it holds
 */
#ifndef NTSIM_ENGINE_OUTPUT_FORMATS_H
#define NTSIM_ENGINE_OUTPUT_FORMATS_H

#include <stddef.h>
#include <stdio.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_sys_trace_event.h"
#include "ntsim/convert.h"

#define NTSIM_OUTPUT_FORMAT_MAP(XX)                                                          \
    XX(pftrace, "a Perfetto trace", "trace.pftrace", ".pftrace .perfetto-trace",            \
       "Perfetto's native trace (open it in the Perfetto UI or trace_processor)",            \
       "D-PFTRACE")                                                                          \
    XX(chrome_trace, "a Chrome trace JSON", "trace.chrome.json", ".json",                   \
       "Chrome trace-event JSON (chrome://tracing, DevTools, Perfetto)", "D-CHROME-JSON")    \
    XX(timeline_html, "an HTML timeline page", "timeline.html", ".html .htm",               \
       "one self-contained page drawing the lanes (open it in a browser)",                  \
       "D-TIMELINE-HTML")

/* Each format's writer, of ntsim_output_write_fn's contract. */
#define NTSIM_OUTPUT_FORMAT_WRITER(name, title, file, extensions, description, decision)   \
    NRT_STATUS ntsim__write_##name(const nrt_sys_trace_event_t *events, size_t count,     \
                                   const ntsim_timeline_options_t *options, FILE *out);
NTSIM_OUTPUT_FORMAT_MAP(NTSIM_OUTPUT_FORMAT_WRITER)
#undef NTSIM_OUTPUT_FORMAT_WRITER

#endif /* NTSIM_ENGINE_OUTPUT_FORMATS_H */
