/*
 * conformance/cmd/timelines.c: the timeline files of the ntsim command
 * (D-TIMELINE): `ntsim run` writes all three beside its other outputs,
 * `ntsim export` and `ntsim view` one each. The engine makes the bytes
 * (ntsim_pftrace_serialize, ntsim_chrome_trace_serialize,
 * ntsim_timeline_html_serialize); this file picks the format and writes it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

ntsim_timeline_format_t ntsim_cli_timeline_format(const char *path)
{
    if (ends_with(path, ".pftrace") || ends_with(path, ".perfetto-trace"))
        return NTSIM_TIMELINE_PFTRACE;
    if (ends_with(path, ".json"))
        return NTSIM_TIMELINE_CHROME_JSON;
    if (ends_with(path, ".html") || ends_with(path, ".htm"))
        return NTSIM_TIMELINE_HTML;
    return NTSIM_TIMELINE_UNKNOWN;
}

int ntsim_cli_write_timeline(const char *path, ntsim_timeline_format_t format,
                             const nrt_sys_trace_event_t *recs, size_t n,
                             const ntsim_timeline_options_t *opt, size_t *bytes, FILE *err)
{
    void *data = NULL;
    size_t len = 0;
    NRT_STATUS st;
    if (format == NTSIM_TIMELINE_PFTRACE)
        st = ntsim_pftrace_serialize(recs, n, opt, (uint8_t **)&data, &len);
    else if (format == NTSIM_TIMELINE_CHROME_JSON)
        st = ntsim_chrome_trace_serialize(recs, n, opt, (char **)&data, &len);
    else
        st = ntsim_timeline_html_serialize(recs, n, opt, (char **)&data, &len);
    if (st != NRT_SUCCESS) {
        fprintf(err, "ntsim: %s: cannot make the timeline: %s\n", path,
                st == NRT_RESOURCE ? "out of memory" : nrt_get_status_as_str(st));
        return -1;
    }
    FILE *f = fopen(path, "wb");
    bool ok = f != NULL && fwrite(data, 1, len, f) == len;
    int saved = errno;
    if (f != NULL && fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    ntsim_buffer_free(data);
    if (!ok) {
        fprintf(err, "ntsim: %s: cannot write: %s\n", path, strerror(saved));
        return -1;
    }
    if (bytes != NULL)
        *bytes = len;
    return 0;
}

int ntsim_cli_write_timelines(const char *dir, const nrt_sys_trace_event_t *recs, size_t n,
                              FILE *out, FILE *err)
{
    static const struct {
        const char *name;
        ntsim_timeline_format_t format;
    } files[] = {{"trace.pftrace", NTSIM_TIMELINE_PFTRACE},
                 {"trace.chrome.json", NTSIM_TIMELINE_CHROME_JSON},
                 {"timeline.html", NTSIM_TIMELINE_HTML}};
    size_t bytes[3];
    char path[3][1200];
    for (size_t i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/%s", dir, files[i].name);
        if (ntsim_cli_write_timeline(path[i], files[i].format, recs, n, NULL, &bytes[i], err) != 0)
            return -1;
    }
    if (out != NULL)
        fprintf(out, "wrote %s (%zu bytes, Perfetto), %s (%zu bytes, Chrome trace JSON)\n"
                     "timeline: %s (open it in a browser)\n",
                path[0], bytes[0], path[1], bytes[1], path[2]);
    return 0;
}
