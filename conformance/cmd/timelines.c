/*
 * conformance/cmd/timelines.c: the timeline files of the ntsim command
 * (D-TIMELINE), in the formats of the engine's one registry
 * (ntsim_output_formats): `ntsim run` writes every one beside its other
 * outputs, `ntsim export` and `ntsim view` one each; the usage texts list
 * them. The engine's writer makes each file's bytes on the stream opened
 * here, beside the file's name (D-OUTPUT).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "input.h"

/* The length of the extension at s (up to a space or the end). */
static size_t suffix_len(const char *s)
{
    return strcspn(s, " ");
}

void ntsim_cli_timeline_usage(FILE *out)
{
    size_t n;
    const ntsim_output_format_t *f = ntsim_output_formats(&n);
    for (size_t i = 0; i < n; i++) {
        int m = (int)suffix_len(f[i].extensions);
        fprintf(out, "  %.*s%*s%s\n", m, f[i].extensions, m < 11 ? 11 - m : 1, "",
                f[i].description);
    }
}

void ntsim_cli_timeline_suffixes(FILE *out)
{
    size_t n;
    const ntsim_output_format_t *f = ntsim_output_formats(&n);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%.*s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                (int)suffix_len(f[i].extensions), f[i].extensions);
}

void ntsim_cli_timeline_files(FILE *out, const char *dir, const char *sep, const char *last)
{
    size_t n;
    const ntsim_output_format_t *f = ntsim_output_formats(&n);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s%s", i == 0 ? "" : i + 1 == n ? last : sep, dir, f[i].file);
}

const ntsim_output_format_t *ntsim_cli_timeline_page(void)
{
    return ntsim_output_format_named("timeline_html");
}

int ntsim_cli_timeline_into(ntsim_output_t *o, const ntsim_output_format_t *format,
                            const nrt_sys_trace_event_t *recs, size_t n,
                            const ntsim_timeline_options_t *opt, size_t *bytes, FILE *err)
{
    const char *path = ntsim_output_path(o);
    if (format == NULL) {
        fprintf(err, "ntsim: %s: no timeline format\n", path);
        return -1;
    }
    FILE *f = ntsim_output_file(o);
    errno = 0;
    NRT_STATUS st = format->write(recs, n, opt, f);
    int saved = errno;
    if (st == NRT_FAILURE) {
        fprintf(err, "ntsim: %s: cannot write: %s\n", path, strerror(saved != 0 ? saved : EIO));
        return -1;
    }
    if (st != NRT_SUCCESS) {
        fprintf(err, "ntsim: %s: cannot make the timeline: %s\n", path,
                st == NRT_RESOURCE ? "out of memory" : nrt_get_status_as_str(st));
        return -1;
    }
    long len = ftell(f);
    if (bytes != NULL)
        *bytes = len > 0 ? (size_t)len : 0;
    return 0;
}

int ntsim_cli_write_timeline(const char *path, const ntsim_output_format_t *format,
                             const nrt_sys_trace_event_t *recs, size_t n,
                             const ntsim_timeline_options_t *opt, size_t *bytes, FILE *err)
{
    char why[2048];
    ntsim_output_t *o;
    NRT_STATUS st = ntsim_output_open(&o, path, why, sizeof why);
    if (st != NRT_SUCCESS) {
        fprintf(err, "ntsim: %s\n", st == NRT_RESOURCE ? "out of memory" : why);
        return -1;
    }
    if (ntsim_cli_timeline_into(o, format, recs, n, opt, bytes, err) != 0) {
        ntsim_output_abort(o); /* the earlier file stays */
        return -1;
    }
    if ((st = ntsim_output_commit(o, why, sizeof why)) != NRT_SUCCESS) {
        fprintf(err, "ntsim: %s\n", st == NRT_RESOURCE ? "out of memory" : why);
        return -1;
    }
    return 0;
}

void ntsim_cli_timeline_hint(const char *cmd, const char *path)
{
    char err[256];
    uint64_t size;
    FILE *f = ntsim_open_input(path, SIZE_MAX, &size, err, sizeof err);
    if (f == NULL)
        return;
    unsigned char head[NTSIM_READ_DETECT_BYTES];
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    ntsim_trace_format_t fmt = ntsim_trace_format_detect(head, got, size);
    if (fmt != NTSIM_TRACE_FORMAT_PERFETTO && fmt != NTSIM_TRACE_FORMAT_CHROME_JSON &&
        fmt != NTSIM_TRACE_FORMAT_HTML)
        return;
    /* A run writes its trace beside its timelines: name the one to pass. */
    const char *slash = strrchr(path, '/');
    int dir_len = slash != NULL ? (int)(slash - path) : 0;
    static const char *const traces[] = {"trace.json", "trace.ntff"};
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        char beside[4096];
        int n = slash != NULL ? snprintf(beside, sizeof beside, "%.*s/%s", dir_len, path, traces[i])
                              : snprintf(beside, sizeof beside, "%s", traces[i]);
        if (n > 0 && (size_t)n < sizeof beside && access(beside, R_OK) == 0) {
            fprintf(stderr, "ntsim %s: %s is a timeline ntsim drew, not a trace: give it the "
                            "trace it was drawn from, %s\n", cmd, path, beside);
            return;
        }
    }
    fprintf(stderr, "ntsim %s: %s is a timeline ntsim drew, not a trace: give it the trace it "
                    "was drawn from (a run's trace.json, trace.ntff or --records dump)\n", cmd,
            path);
}
