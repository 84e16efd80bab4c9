/*
 * engine/timeline/output_formats.c: the registry of output formats
 * (output_formats.h) as a table, its lookups, and the writers of the
 * formats whose serializer makes a buffer (ntsim_pftrace_serialize and its
 * two siblings, public since before the registry): each written to the
 * caller's stream, which the writer neither opens nor names.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "output_formats.h"

/* The bytes a serializer made (when st says it did), written to out, and
 * freed. NRT_FAILURE, errno kept, when out refuses them. */
static NRT_STATUS write_bytes(NRT_STATUS st, void *bytes, size_t len, FILE *out)
{
    if (st != NRT_SUCCESS)
        return st;
    bool ok = len == 0 || (bytes != NULL && fwrite(bytes, 1, len, out) == len);
    int saved = errno;
    ntsim_buffer_free(bytes);
    errno = saved;
    return ok ? NRT_SUCCESS : NRT_FAILURE;
}

/* ntsim__write_<name> over ntsim_<name>_serialize, whose bytes are `type`. */
#define WRITE_SERIALIZED(name, type)                                                       \
    NRT_STATUS ntsim__write_##name(const nrt_sys_trace_event_t *events, size_t count,     \
                                   const ntsim_timeline_options_t *options, FILE *out)    \
    {                                                                                      \
        type *bytes = NULL;                                                                \
        size_t len = 0;                                                                    \
        if (out == NULL)                                                                   \
            return NRT_INVALID;                                                            \
        NRT_STATUS st = ntsim_##name##_serialize(events, count, options, &bytes, &len);    \
        return write_bytes(st, bytes, len, out);                                           \
    }
WRITE_SERIALIZED(pftrace, uint8_t)
WRITE_SERIALIZED(chrome_trace, char)
WRITE_SERIALIZED(timeline_html, char)

static const ntsim_output_format_t g_formats[] = {
#define NTSIM_OUTPUT_FORMAT_ROW(name, title, file, extensions, description, decision)      \
    {#name, title, file, extensions, description, decision, ntsim__write_##name},
    NTSIM_OUTPUT_FORMAT_MAP(NTSIM_OUTPUT_FORMAT_ROW)
#undef NTSIM_OUTPUT_FORMAT_ROW
};
enum { FORMAT_COUNT = sizeof g_formats / sizeof g_formats[0] };

const ntsim_output_format_t *ntsim_output_formats(size_t *count)
{
    if (count != NULL)
        *count = FORMAT_COUNT;
    return g_formats;
}

const ntsim_output_format_t *ntsim_output_format_for_path(const char *path)
{
    if (path == NULL)
        return NULL;
    size_t n = strlen(path);
    for (size_t f = 0; f < FORMAT_COUNT; f++) {
        for (const char *s = g_formats[f].extensions; *s != '\0';) {
            size_t m = strcspn(s, " ");
            if (n >= m && memcmp(path + n - m, s, m) == 0)
                return &g_formats[f];
            s += m;
            s += strspn(s, " ");
        }
    }
    return NULL;
}

const ntsim_output_format_t *ntsim_output_format_named(const char *name)
{
    for (size_t f = 0; name != NULL && f < FORMAT_COUNT; f++)
        if (strcmp(g_formats[f].name, name) == 0)
            return &g_formats[f];
    return NULL;
}
