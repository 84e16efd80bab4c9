/*
 * engine/read/read.c: the read stage's entry points (ntsim/read.h; D-READ):
 * a file or bytes into a trace, the format told by content, record dumps.
 *
 * The format, from at most the first NTSIM_READ_DETECT_BYTES (D-READ):
 *   1. protobuf: the bytes read as whole fields on the wire (a key's number
 *      at least 1, its wire type 0, 1, 2 or 5; a field cut by the end of the
 *      window counts, one cut by the end of the file does not), the first a
 *      field of ntrace_info with its wire type. A first field 1 whose message
 *      holds a field ntrace_event does not have, or has with another wire
 *      type (a TracePacket's 87 or 60, its 11 as a message), is a Perfetto
 *      trace; anything else NTFF.
 *   2. JSON: the first byte that is not JSON whitespace is '{' or '['. An
 *      array, or an object with "traceEvents" among its keys before
 *      "events", is a Chrome trace JSON; any other object a fetch document.
 *   3. '<' there instead: an HTML page (ntsim's timeline page).
 *   4. anything else: a record dump, whole 112-byte records or refused.
 * Protobuf comes first because an NTFF's first byte, an event's key 0x0a,
 * is JSON's line feed, and the event's length after it may be a '{'. A JSON
 * text that starts with '{', '[', a space, a tab or a CR is no protobuf: a
 * key of wire type 3, or one ntrace_info declares with another wire type.
 * A dump's first record is its trace_type (below 46, so bytes 1 and 2 are
 * 0): read as protobuf it is a key, a value or length of 0, then a key of
 * 0, which no protobuf field has; its first byte is none of '{', '[', '<',
 * and a whitespace first byte is followed by a 0. So nothing ntsim writes is
 * taken for another format.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "input.h"
#include "ntff.pb-c.h"
#include "ntff_wire.h"
#include "read_int.h"

/* The formats: what messages call each, and how the formats read are
 * listed ("ntsim reads fetch JSON, NTFF or record dumps"); NULL: refused.
 * ntsim's own timelines are called what the registry of output formats
 * calls them (its `output` entry). */
static const struct trace_format {
    ntsim_trace_format_t format;
    const char *title;
    const char *listed;
    const char *output;
} g_formats[] = {
    {NTSIM_TRACE_FORMAT_JSON, "a JSON fetch document", "fetch JSON", NULL},
    {NTSIM_TRACE_FORMAT_NTFF, "an NTFF ntrace_info", "NTFF", NULL},
    {NTSIM_TRACE_FORMAT_RECORDS, "a record dump", "record dumps", NULL},
    {NTSIM_TRACE_FORMAT_PERFETTO, NULL, NULL, "pftrace"},
    {NTSIM_TRACE_FORMAT_CHROME_JSON, NULL, NULL, "chrome_trace"},
    {NTSIM_TRACE_FORMAT_HTML, NULL, NULL, "timeline_html"},
};
enum { FORMAT_COUNT = sizeof g_formats / sizeof g_formats[0] };

const char *ntsim_trace_format_title(ntsim_trace_format_t format)
{
    for (size_t i = 0; i < FORMAT_COUNT; i++) {
        if (g_formats[i].format != format)
            continue;
        if (g_formats[i].title != NULL)
            return g_formats[i].title;
        const ntsim_output_format_t *o = ntsim_output_format_named(g_formats[i].output);
        return o != NULL ? o->title : "an unknown format";
    }
    return "an unknown format";
}

static char g_read_list[128];
static pthread_once_t g_read_list_once = PTHREAD_ONCE_INIT;

static void read_list_build(void)
{
    size_t n = 0, k = 0, len = 0;
    for (size_t i = 0; i < FORMAT_COUNT; i++)
        n += g_formats[i].listed != NULL;
    for (size_t i = 0; i < FORMAT_COUNT; i++) {
        if (g_formats[i].listed == NULL)
            continue;
        const char *sep = k == 0 ? "" : k + 1 == n ? " or " : ", ";
        len += (size_t)snprintf(g_read_list + len, sizeof g_read_list - len, "%s%s", sep,
                                g_formats[i].listed);
        k++;
    }
}

const char *ntsim__read_formats_read(void)
{
    pthread_once(&g_read_list_once, read_list_build);
    return g_read_list;
}

/* --- the format, by content ------------------------------------------------------- */

/* The wire type of field `number` of message d, or -1 when d has none. */
static int schema_wire(const ProtobufCMessageDescriptor *d, uint32_t number)
{
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, number);
    if (f == NULL)
        return -1;
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
        return 2;
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return 1;
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        return 5;
    default:
        return 0;
    }
}

/* Whether the fields of b[0..len) include one that message d does not
 * have, or has with another wire type; the walk stops where the bytes end
 * or stop being fields. */
static bool has_foreign_field(const uint8_t *b, size_t len, const ProtobufCMessageDescriptor *d)
{
    ntsim_wire_field_t f;
    for (size_t i = 0; i < len && ntsim__ntff_wire_key(b, len, &i, &f);) {
        if (schema_wire(d, f.number) != (int)f.wire)
            return true;
        if (!ntsim__ntff_wire_value(b, len, &i, &f))
            break;
    }
    return false;
}

/* The field at *i of b[0..len): 2 whole; 1 the bytes end inside its value
 * (its number and wire type known); 0 they end inside its key; -1 not a
 * field. A field the bytes end inside is one only when they are a window
 * that ends before the file does (detect_protobuf). */
static int field_at(const uint8_t *b, size_t len, size_t *i, ntsim_wire_field_t *f)
{
    size_t at = *i;
    if (!ntsim__ntff_wire_key(b, len, i, f)) {
        size_t k = at; /* cut: every byte left continues the key's varint */
        while (k < len && b[k] >= 0x80)
            k++;
        return k == len && len - at < 10 ? 0 : -1;
    }
    return ntsim__ntff_wire_value(b, len, i, f) ? 2 : 1;
}

/* Rule 2 over b[0..len), the first bytes of a file of `size`: NTFF or
 * PERFETTO, or 0 when not protobuf. */
static ntsim_trace_format_t detect_protobuf(const uint8_t *b, size_t len, uint64_t size)
{
    ntsim_wire_field_t first, f;
    size_t i = 0;
    int cut = len < size ? 1 : 2; /* the least a field may be: cut by the window, or whole */
    int got = field_at(b, len, &i, &first);
    if (got < cut || got < 1 ||
        schema_wire(&ntff__ntrace_info__descriptor, first.number) != (int)first.wire)
        return (ntsim_trace_format_t)0;
    while (got == 2 && i < len)
        if ((got = field_at(b, len, &i, &f)) < cut)
            return (ntsim_trace_format_t)0;
    /* The first event's fields, as far as the bytes go (value is past the
     * key once its length is read). */
    if (ntsim__ntff_wire_is_event(&first) && first.value > 0) {
        size_t avail = len - first.value;
        if (has_foreign_field(b + first.value, first.value_len < avail ? first.value_len : avail,
                              &ntff__ntrace_event__descriptor))
            return NTSIM_TRACE_FORMAT_PERFETTO;
    }
    return NTSIM_TRACE_FORMAT_NTFF;
}

/* Rule 1's object: Chrome when "traceEvents" comes before "events". */
static ntsim_trace_format_t detect_json_object(const char *text, size_t len)
{
    ntsim_json_reader_t r;
    char key[16];
    size_t klen;
    bool first = true;
    ntsim__json_reader_init(&r, text, len);
    if (!ntsim__json_begin(&r, '{'))
        return NTSIM_TRACE_FORMAT_JSON;
    while (ntsim__json_more(&r, '{', &first) && ntsim__json_key(&r, key, sizeof key, &klen)) {
        if (klen == 6 && strcmp(key, "events") == 0)
            break;
        if (klen == 11 && strcmp(key, "traceEvents") == 0)
            return NTSIM_TRACE_FORMAT_CHROME_JSON;
        if (!ntsim__json_skip(&r))
            break;
    }
    return NTSIM_TRACE_FORMAT_JSON;
}

ntsim_trace_format_t ntsim_trace_format_detect(const void *head, size_t len, uint64_t size)
{
    const uint8_t *b = head;
    if (b == NULL)
        return NTSIM_TRACE_FORMAT_RECORDS;
    if (len > size)
        len = (size_t)size;
    if (len > NTSIM_READ_DETECT_BYTES)
        len = NTSIM_READ_DETECT_BYTES;
    /* protobuf first: an NTFF's first byte is an event's key, 0x0a, which
     * is also JSON's line feed, and its length may be a '{'. */
    ntsim_trace_format_t f = len > 0 ? detect_protobuf(b, len, size) : (ntsim_trace_format_t)0;
    if (f != 0)
        return f;
    size_t i = 0;
    while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
        i++;
    if (i < len && b[i] == '[')
        return NTSIM_TRACE_FORMAT_CHROME_JSON;
    if (i < len && b[i] == '{')
        return detect_json_object((const char *)b, len);
    if (i < len && b[i] == '<')
        return NTSIM_TRACE_FORMAT_HTML;
    return NTSIM_TRACE_FORMAT_RECORDS;
}

/* --- reading ---------------------------------------------------------------------- */

/* A format recognised and not read: named, and refused. */
static NRT_STATUS refuse_format(ntsim__read_t *rd, ntsim_trace_format_t f)
{
    return ntsim__read_fail(rd, "%s: ntsim reads %s", ntsim_trace_format_title(f),
                            ntsim__read_formats_read());
}

/* A record dump's size against the limits; its record count into *n. */
static NRT_STATUS check_dump(ntsim__read_t *rd, size_t len, size_t *n)
{
    const size_t rec = sizeof(nrt_sys_trace_event_t);
    if (len % rec != 0)
        return ntsim__read_fail(rd, "offset %zu: not %s, %s or whole %zu-byte records (%zu "
                                    "records and %zu bytes over)",
                                len - len % rec, ntsim_trace_format_title(NTSIM_TRACE_FORMAT_JSON),
                                ntsim_trace_format_title(NTSIM_TRACE_FORMAT_NTFF), rec,
                                len / rec, len % rec);
    if (len / rec > rd->max_events)
        return ntsim__read_fail(rd, "events: more than %llu events (the --max-events limit; the "
                                    "dump holds %zu records)",
                                (unsigned long long)rd->max_events, len / rec);
    *n = len / rec;
    return NRT_SUCCESS;
}

/* Reads `data` into rd->trace. `own`: data is an ntsim__malloc block the
 * trace may keep as its records (a dump's bytes are its records); *own is
 * cleared when it does. */
static NRT_STATUS read_bytes(ntsim__read_t *rd, const void *data, size_t len, void **own)
{
    ntsim_trace_t *t = rd->trace;
    t->format = ntsim_trace_format_detect(data, len, len);
    switch (t->format) {
    case NTSIM_TRACE_FORMAT_JSON:
    case NTSIM_TRACE_FORMAT_CHROME_JSON: /* the JSON reader names it where it is sure */
        return ntsim__read_json(rd, data, len);
    case NTSIM_TRACE_FORMAT_NTFF:
        return ntsim__read_ntff(rd, data, len);
    case NTSIM_TRACE_FORMAT_RECORDS:
        break;
    default:
        return refuse_format(rd, t->format);
    }
    /* A scan reads a dump from its file a batch at a time (scan_dump); a
     * scan's bytes are here only when the file's first bytes, read before,
     * were not a dump's or could not be read whole, and the same rule on the
     * same first bytes and size gives the same answer: the file changed
     * between the two reads. */
    if (rd->fn != NULL)
        return ntsim__read_fail(rd, "the file changed while it was read");
    size_t n = 0;
    NRT_STATUS st = check_dump(rd, len, &n);
    if (st != NRT_SUCCESS || n == 0)
        return st;
    if (own != NULL && *own != NULL) { /* malloc's alignment suits the records */
        t->events = *own;
        *own = NULL;
    } else if ((t->events = ntsim__malloc(len)) == NULL) {
        return ntsim__read_out_of_memory(rd);
    } else {
        memcpy(t->events, data, len);
    }
    t->event_count = n;
    return NRT_SUCCESS;
}

static const ntsim_read_limits_t g_default_limits = {NTSIM_READ_MAX_BYTES, NTSIM_READ_MAX_EVENTS};

/* Sets up a read of a new trace; NRT_RESOURCE when there is no memory for it. */
static NRT_STATUS read_begin(ntsim__read_t *rd, const ntsim_read_limits_t *limits, char *err,
                             size_t cap)
{
    if (limits == NULL)
        limits = &g_default_limits;
    rd->err = err;
    rd->cap = cap;
    rd->max_events = limits->max_events;
    rd->events_cap = 0;
    rd->fn = NULL;
    rd->ctx = NULL;
    rd->passed = 0;
    rd->trace = ntsim__calloc(1, sizeof *rd->trace);
    if (cap > 0)
        err[0] = '\0';
    return rd->trace == NULL ? ntsim__read_out_of_memory(rd) : NRT_SUCCESS;
}

static NRT_STATUS read_end(ntsim__read_t *rd, NRT_STATUS st, ntsim_trace_t **out)
{
    if (st == NRT_SUCCESS && rd->fn != NULL) /* a scan: the last batch, then the count */
        st = ntsim__read_flush(rd);
    if (rd->fn != NULL && rd->trace != NULL) {
        ntsim__free(rd->trace->events);
        rd->trace->events = NULL;
        rd->trace->event_count = (size_t)rd->passed;
    }
    if (st != NRT_SUCCESS) {
        ntsim_trace_free(rd->trace);
        rd->trace = NULL;
    }
    *out = rd->trace;
    return st;
}

NRT_STATUS ntsim_trace_read(const void *data, size_t len, const ntsim_read_limits_t *limits,
                            ntsim_trace_t **out, char *err, size_t err_cap)
{
    if (out == NULL || (data == NULL && len > 0))
        return NRT_INVALID;
    ntsim__read_t rd;
    NRT_STATUS st = read_begin(&rd, limits, err, err_cap);
    if (st == NRT_SUCCESS)
        st = read_bytes(&rd, data, len, NULL);
    return read_end(&rd, st, out);
}

/* A scan of a record dump (f at its start, `size` bytes): its records a
 * batch at a time from the file, never held whole. */
static NRT_STATUS scan_dump(ntsim__read_t *rd, FILE *f, uint64_t size)
{
    ntsim_trace_t *t = rd->trace;
    size_t n = 0;
    t->format = NTSIM_TRACE_FORMAT_RECORDS;
    NRT_STATUS st = check_dump(rd, (size_t)size, &n);
    if (st != NRT_SUCCESS || n == 0)
        return st;
    t->events = ntsim__malloc((n < NTSIM_READ_BATCH ? n : NTSIM_READ_BATCH) * sizeof *t->events);
    if (t->events == NULL)
        return ntsim__read_out_of_memory(rd);
    for (size_t done = 0; done < n && st == NRT_SUCCESS;) {
        size_t k = n - done < NTSIM_READ_BATCH ? n - done : NTSIM_READ_BATCH;
        if (fread(t->events, sizeof *t->events, k, f) != k)
            return ntsim__read_fail(rd, "%s", ferror(f) ? "read error"
                                                        : "the file changed while it was read");
        t->event_count = k;
        st = ntsim__read_flush(rd);
        done += k;
    }
    if (st == NRT_SUCCESS && getc(f) != EOF)
        return ntsim__read_fail(rd, "the file changed while it was read");
    return st;
}

/* The whole regular file at path (at most `limit` bytes) into an
 * ntsim__malloc block; the reason into rd->err when it cannot be read. A
 * scan of a record dump is done here, a batch at a time (*buf stays NULL). */
static NRT_STATUS read_file_bytes(ntsim__read_t *rd, const char *path, uint64_t limit,
                                  void **buf, size_t *len)
{
    uint64_t size;
    FILE *f = ntsim_open_input(path, limit < SIZE_MAX ? (size_t)limit : SIZE_MAX, &size, rd->err,
                               rd->cap);
    if (f == NULL)
        return NRT_INVALID;
    if (rd->fn != NULL) { /* a scan: a dump needs no more than a batch in memory */
        unsigned char head[NTSIM_READ_DETECT_BYTES];
        size_t got = fread(head, 1, sizeof head, f);
        if (ferror(f) == 0 && got == (size < sizeof head ? size : sizeof head) &&
            ntsim_trace_format_detect(head, got, size) == NTSIM_TRACE_FORMAT_RECORDS &&
            fseek(f, 0, SEEK_SET) == 0) {
            NRT_STATUS st = scan_dump(rd, f, size);
            fclose(f);
            return st;
        }
        if (fseek(f, 0, SEEK_SET) != 0) {
            fclose(f);
            return ntsim__read_fail(rd, "read error");
        }
    }
    *buf = ntsim__malloc(size > 0 ? (size_t)size : 1);
    if (*buf == NULL) {
        fclose(f);
        return ntsim__read_out_of_memory(rd);
    }
    *len = fread(*buf, 1, (size_t)size, f);
    bool error = ferror(f) != 0, grew = !error && getc(f) != EOF;
    fclose(f);
    if (error || grew || *len != size) { /* it changed while it was read */
        ntsim__free(*buf);
        *buf = NULL;
        return ntsim__read_fail(rd, "%s", error ? "read error" : "the file changed while it was read");
    }
    return NRT_SUCCESS;
}

/* A file read (fn NULL) or scanned. */
static NRT_STATUS read_file(const char *path, const ntsim_read_limits_t *limits,
                            ntsim_trace_batch_fn fn, void *ctx, ntsim_trace_t **out, char *err,
                            size_t err_cap)
{
    char why[1024];
    ntsim__read_t rd;
    NRT_STATUS st = read_begin(&rd, limits, why, sizeof why);
    rd.fn = fn;
    rd.ctx = ctx;
    void *buf = NULL;
    size_t len = 0;
    if (st == NRT_SUCCESS)
        st = read_file_bytes(&rd, path, limits ? limits->max_bytes : NTSIM_READ_MAX_BYTES, &buf,
                             &len);
    if (st == NRT_SUCCESS && (buf != NULL || fn == NULL))
        st = read_bytes(&rd, buf, len, &buf);
    st = read_end(&rd, st, out); /* a scan's last batch is handed on here */
    ntsim__free(buf);
    if (st != NRT_SUCCESS && err_cap > 0)
        snprintf(err, err_cap, "%s: %s", path, why);
    else if (err_cap > 0)
        err[0] = '\0';
    return st;
}

NRT_STATUS ntsim_trace_read_file(const char *path, const ntsim_read_limits_t *limits,
                                 ntsim_trace_t **out, char *err, size_t err_cap)
{
    if (path == NULL || out == NULL)
        return NRT_INVALID;
    return read_file(path, limits, NULL, NULL, out, err, err_cap);
}

NRT_STATUS ntsim_trace_scan_file(const char *path, const ntsim_read_limits_t *limits,
                                 ntsim_trace_batch_fn fn, void *ctx, ntsim_trace_t **out,
                                 char *err, size_t err_cap)
{
    if (path == NULL || fn == NULL)
        return NRT_INVALID;
    ntsim_trace_t *t = NULL;
    NRT_STATUS st = read_file(path, limits, fn, ctx, &t, err, err_cap);
    if (out != NULL)
        *out = t;
    else
        ntsim_trace_free(t);
    return st;
}

void ntsim_trace_free(ntsim_trace_t *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->info_count; i++)
        ntsim__free((void *)(uintptr_t)t->infos[i].payload);
    for (size_t i = 0; i < t->name_count; i++)
        ntsim__free((void *)(uintptr_t)t->names[i].name);
    ntsim__free(t->infos);
    ntsim__free(t->names);
    ntsim__free((void *)(uintptr_t)t->arch);
    ntsim__free((void *)(uintptr_t)t->nd_idx_by_nc);
    ntsim__free(t->events);
    ntsim__free(t);
}
