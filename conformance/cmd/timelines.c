/*
 * conformance/cmd/timelines.c: the timeline files of the ntsim command
 * (D-TIMELINE): `ntsim run` writes every format of NTSIM_TIMELINE_FORMAT_MAP
 * (cli.h) beside its other outputs, `ntsim export` and `ntsim view` one
 * each. The engine makes the bytes (ntsim_pftrace_serialize,
 * ntsim_chrome_trace_serialize, ntsim_timeline_html_serialize); this file
 * picks the format and writes it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Each format's engine writer, as one type: the bytes and their length. */
typedef NRT_STATUS (*serialize_fn)(const nrt_sys_trace_event_t *recs, size_t n,
                                   const ntsim_timeline_options_t *opt, void **out, size_t *len);

static NRT_STATUS serialize_PFTRACE(const nrt_sys_trace_event_t *recs, size_t n,
                                    const ntsim_timeline_options_t *opt, void **out, size_t *len)
{
    uint8_t *b = NULL;
    NRT_STATUS st = ntsim_pftrace_serialize(recs, n, opt, &b, len);
    *out = b;
    return st;
}

static NRT_STATUS serialize_CHROME_JSON(const nrt_sys_trace_event_t *recs, size_t n,
                                        const ntsim_timeline_options_t *opt, void **out,
                                        size_t *len)
{
    char *b = NULL;
    NRT_STATUS st = ntsim_chrome_trace_serialize(recs, n, opt, &b, len);
    *out = b;
    return st;
}

static NRT_STATUS serialize_HTML(const nrt_sys_trace_event_t *recs, size_t n,
                                 const ntsim_timeline_options_t *opt, void **out, size_t *len)
{
    char *b = NULL;
    NRT_STATUS st = ntsim_timeline_html_serialize(recs, n, opt, &b, len);
    *out = b;
    return st;
}

static const struct timeline_format {
    const char *file, *suffixes, *label, *what;
    serialize_fn serialize;
} formats[NTSIM_TIMELINE_FORMAT_END] = {
#define NTSIM_TIMELINE_FORMAT_ROW(f, file, suffixes, label, what) \
    [NTSIM_TIMELINE_##f] = {file, suffixes, label, what, serialize_##f},
    NTSIM_TIMELINE_FORMAT_MAP(NTSIM_TIMELINE_FORMAT_ROW)
#undef NTSIM_TIMELINE_FORMAT_ROW
};
#define EACH_FORMAT(f) for (int f = NTSIM_TIMELINE_UNKNOWN + 1; f < NTSIM_TIMELINE_FORMAT_END; f++)

/* The length of the suffix at s (up to a space or the end). */
static size_t suffix_len(const char *s)
{
    return strcspn(s, " ");
}

ntsim_timeline_format_t ntsim_cli_timeline_format(const char *path)
{
    size_t n = strlen(path);
    EACH_FORMAT(f)
    {
        for (const char *s = formats[f].suffixes; *s != '\0'; s += strspn(s, " ")) {
            size_t m = suffix_len(s);
            if (n >= m && memcmp(path + n - m, s, m) == 0)
                return (ntsim_timeline_format_t)f;
            s += m;
        }
    }
    return NTSIM_TIMELINE_UNKNOWN;
}

void ntsim_cli_timeline_usage(FILE *out)
{
    EACH_FORMAT(f)
    {
        int m = (int)suffix_len(formats[f].suffixes);
        fprintf(out, "  %.*s%*s%s\n", m, formats[f].suffixes, m < 11 ? 11 - m : 1, "",
                formats[f].what);
    }
}

void ntsim_cli_timeline_suffixes(FILE *out)
{
    EACH_FORMAT(f)
    {
        const char *sep = f == NTSIM_TIMELINE_UNKNOWN + 1 ? ""
                          : f == NTSIM_TIMELINE_FORMAT_END - 1 ? " or "
                                                                : ", ";
        fprintf(out, "%s%.*s", sep, (int)suffix_len(formats[f].suffixes), formats[f].suffixes);
    }
}

int ntsim_cli_write_timeline(const char *path, ntsim_timeline_format_t format,
                             const nrt_sys_trace_event_t *recs, size_t n,
                             const ntsim_timeline_options_t *opt, size_t *bytes, FILE *err)
{
    void *data = NULL;
    size_t len = 0;
    NRT_STATUS st;
    if (format <= NTSIM_TIMELINE_UNKNOWN || format >= NTSIM_TIMELINE_FORMAT_END) {
        fprintf(err, "ntsim: %s: no timeline format\n", path);
        return -1;
    }
    st = formats[format].serialize(recs, n, opt, &data, &len);
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
    size_t bytes[NTSIM_TIMELINE_FORMAT_END];
    char path[NTSIM_TIMELINE_FORMAT_END][1200];
    EACH_FORMAT(f)
    {
        snprintf(path[f], sizeof path[f], "%s/%s", dir, formats[f].file);
        if (ntsim_cli_write_timeline(path[f], (ntsim_timeline_format_t)f, recs, n, NULL, &bytes[f],
                                     err) != 0)
            return -1;
    }
    if (out == NULL)
        return 0;
    /* "wrote A (N bytes, Perfetto), B (N bytes, Chrome trace JSON)", then the page. */
    const char *sep = "wrote ";
    EACH_FORMAT(f)
    {
        if (formats[f].label != NULL) {
            fprintf(out, "%s%s (%zu bytes, %s)", sep, path[f], bytes[f], formats[f].label);
            sep = ", ";
        }
    }
    fputs("\n", out);
    EACH_FORMAT(f)
    {
        if (formats[f].label == NULL)
            fprintf(out, "timeline: %s (open it in a browser)\n", path[f]);
    }
    return 0;
}
