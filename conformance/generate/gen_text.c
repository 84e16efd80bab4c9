/*
 * conformance/generate/gen_text.c: writing a generated case as vector text,
 * in the grammar the kinds' loaders read (vectors/README.md): scalars typed
 * as the strict loader wants them (plain decimal or 0x hex integers, plain
 * true/false, double-quoted strings), records and payloads as the record
 * grammar of conformance/lib/record_input.c gives them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_table.h"
#include "gen_int.h"

void ntsim_gen_text_init(ntsim_gen_text_t *t)
{
    memset(t, 0, sizeof *t);
}

void ntsim_gen_text_free(ntsim_gen_text_t *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}

void ntsim_gen_text_clear(ntsim_gen_text_t *t)
{
    t->len = 0;
    t->oom = false;
    if (t->buf != NULL)
        t->buf[0] = '\0';
}

static bool reserve(ntsim_gen_text_t *t, size_t more)
{
    if (t->oom)
        return false;
    if (t->len + more + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + more + 1)
        cap *= 2;
    char *n = realloc(t->buf, cap);
    if (n == NULL) {
        t->oom = true;
        return false;
    }
    t->buf = n;
    t->cap = cap;
    return true;
}

void ntsim_gen_printf(ntsim_gen_text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n >= 0 && reserve(t, (size_t)n)) {
        vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    } else {
        t->oom = true;
    }
    va_end(again);
}

void ntsim_gen_hex(ntsim_gen_text_t *t, const void *bytes, size_t n, size_t group)
{
    const uint8_t *b = bytes;
    if (!reserve(t, 3 * n + 1))
        return;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && group > 0 && i % group == 0)
            t->buf[t->len++] = ' ';
        t->buf[t->len++] = "0123456789abcdef"[b[i] >> 4];
        t->buf[t->len++] = "0123456789abcdef"[b[i] & 15];
    }
    t->buf[t->len] = '\0';
}

/* The length of a well-formed UTF-8 sequence at s (at most n bytes), with
 * its code point; 0 when the bytes there are not one. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (len == 0 || s[0] >= 0xf5 || len > n)
        return 0;
    uint32_t v = s[0] & (0xff >> (len + 1));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

void ntsim_gen_quoted(ntsim_gen_text_t *t, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    ntsim_gen_printf(t, "\"");
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        uint32_t cp;
        size_t len;
        if (c == '"' || c == '\\') {
            ntsim_gen_printf(t, "\\%c", c);
            i++;
        } else if (c >= 0x20 && c < 0x7f) {
            ntsim_gen_printf(t, "%c", c);
            i++;
        } else if (c < 0x80) {
            ntsim_gen_printf(t, "\\x%02x", c); /* YAML's \xNN is U+00NN: this byte */
            i++;
        } else if ((len = utf8_seq(u + i, n - i, &cp)) > 0) {
            /* The code point, which YAML stores as exactly these bytes. */
            if (cp <= 0xffff)
                ntsim_gen_printf(t, "\\u%04x", (unsigned)cp);
            else
                ntsim_gen_printf(t, "\\U%08x", (unsigned)cp);
            i += len;
        } else {
            /* A byte YAML cannot hold as itself: the callers never write
             * one (the generator's strings are valid UTF-8). */
            t->oom = true;
            return;
        }
    }
    ntsim_gen_printf(t, "\"");
}

const char *ntsim_gen_type_word(uint32_t type, char *buf, size_t cap)
{
    const ntsim_event_type_desc_t *d = ntsim__event_type_desc(type);
    if (d != NULL)
        snprintf(buf, cap, "%s", d->enum_name + strlen("NRT_SYS_TRACE_EVENT_TYPE_"));
    else if (type == NRT_SYS_TRACE_EVENT_TYPE_COUNT)
        snprintf(buf, cap, "COUNT");
    else
        snprintf(buf, cap, "%u", type);
    return buf;
}

const char *ntsim_gen_phase_word(uint32_t phase, char *buf, size_t cap)
{
    static const char *const names[] = {"START", "STOP", "INSTANT"};
    if (phase < 3)
        snprintf(buf, cap, "%s", names[phase]);
    else
        snprintf(buf, cap, "%u", phase);
    return buf;
}

void ntsim_gen_record_hex(ntsim_gen_text_t *t, const nrt_sys_trace_event_t *rec)
{
    ntsim_gen_printf(t, "\"");
    ntsim_gen_hex(t, rec, sizeof *rec, 4);
    ntsim_gen_printf(t, "\"");
}

/* Whether fill, then the fields of payload pid, give exactly `data`. */
static bool by_fields(const uint8_t *data, ntsim_payload_id_t pid, uint8_t fill)
{
    const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
    bool field[sizeof(nrt_sys_trace_event_data_t)] = {false};
    for (size_t i = 0; i < d->field_count; i++) {
        const ntsim_field_desc_t *f = &d->fields[i];
        for (size_t b = 0; b < f->size; b++)
            field[f->offset + b] = true;
        if (f->kind == NTSIM_FIELD_BOOL && data[f->offset] > 1)
            return false; /* the grammar's bools are true or false */
    }
    for (size_t b = 0; b < sizeof field; b++)
        if (!field[b] && data[b] != fill)
            return false;
    return true;
}

static void field_yaml(ntsim_gen_text_t *t, const ntsim_field_desc_t *f, const uint8_t *p)
{
    uint64_t v = 0;
    switch (f->kind) {
    case NTSIM_FIELD_SYNC_INFO: {
        uint64_t nc, cpu;
        memcpy(&nc, p + f->offset + ntsim__sync_info_fields[0].offset, 8);
        memcpy(&cpu, p + f->offset + ntsim__sync_info_fields[1].offset, 8);
        ntsim_gen_printf(t, "%s: {nc_timestamp_ns: %llu, cpu_timestamp_ns: %llu}", f->name,
                   (unsigned long long)nc, (unsigned long long)cpu);
        return;
    }
    case NTSIM_FIELD_BOOL:
        ntsim_gen_printf(t, "%s: %s", f->name, p[f->offset] ? "true" : "false");
        return;
    case NTSIM_FIELD_INT: {
        int32_t i;
        memcpy(&i, p + f->offset, 4);
        ntsim_gen_printf(t, "%s: %d", f->name, i);
        return;
    }
    default:
        memcpy(&v, p + f->offset, f->size); /* little-endian: the low bytes */
        ntsim_gen_printf(t, "%s: %llu", f->name, (unsigned long long)v);
        return;
    }
}

void ntsim_gen_data_yaml(ntsim_gen_text_t *t, uint32_t type, uint32_t phase,
                   const nrt_sys_trace_event_data_t *data)
{
    const uint8_t *p = (const uint8_t *)data;
    ntsim_payload_id_t pid = ntsim__event_payload(type, phase);
    const ntsim_payload_desc_t *d = &ntsim__payloads[pid];
    /* The fill a by-fields payload would need: any byte outside the fields
     * (every byte when the phase carries nothing). */
    bool covered[sizeof *data] = {false};
    for (size_t i = 0; i < d->field_count; i++)
        for (size_t b = 0; b < d->fields[i].size; b++)
            covered[d->fields[i].offset + b] = true;
    size_t at = 0;
    while (at < sizeof *data && covered[at])
        at++;
    uint8_t fill = at < sizeof *data ? p[at] : 0;
    if (!by_fields(p, pid, fill)) {
        ntsim_gen_printf(t, ", data_raw: \"");
        ntsim_gen_hex(t, p, sizeof *data, 8);
        ntsim_gen_printf(t, "\"");
        return;
    }
    ntsim_gen_printf(t, ", data_fill: 0x%02x", fill);
    if (pid == NTSIM_PAYLOAD_NONE || d->field_count == 0)
        return;
    ntsim_gen_printf(t, ", data: {");
    for (size_t i = 0; i < d->field_count; i++) {
        if (i > 0)
            ntsim_gen_printf(t, ", ");
        field_yaml(t, &d->fields[i], p);
    }
    ntsim_gen_printf(t, "}");
}

void ntsim_gen_record_yaml(ntsim_gen_text_t *t, const nrt_sys_trace_event_t *rec)
{
    /* By fields only when the record's padding is zero and has_nrta_seq_id
     * is 0 or 1 (the grammar writes both as the fields give them). */
    const uint8_t *b = (const uint8_t *)rec;
    bool plain = b[offsetof(nrt_sys_trace_event_t, has_nrta_seq_id)] <= 1;
    for (size_t i = 4; i < 8; i++)
        plain &= b[i] == 0;
    for (size_t i = offsetof(nrt_sys_trace_event_t, has_nrta_seq_id) + 1; i < sizeof *rec; i++)
        plain &= b[i] == 0;
    /* A record without nrta_seq_id must hold 0 there: the grammar has no
     * way to give a value with the flag clear. */
    plain &= ntsim__record_has_seq(rec) || rec->nrta_seq_id == 0;
    if (!plain) {
        ntsim_gen_printf(t, "{hex: ");
        ntsim_gen_record_hex(t, rec);
        ntsim_gen_printf(t, "}");
        return;
    }
    char tw[64], pw[32];
    ntsim_gen_printf(t,
               "{type: %s, phase: %s, nc_idx: %u, id: %llu, nc_local_id: %llu, tracking_id: %llu, "
               "thread_id: %llu, timestamp_ns: %llu",
               ntsim_gen_type_word((uint32_t)rec->trace_type, tw, sizeof tw),
               ntsim_gen_phase_word((uint32_t)rec->phase, pw, sizeof pw), rec->nc_idx,
               (unsigned long long)rec->id, (unsigned long long)rec->nc_local_id,
               (unsigned long long)rec->tracking_id, (unsigned long long)rec->thread_id,
               (unsigned long long)rec->timestamp_ns);
    if (ntsim__record_has_seq(rec))
        ntsim_gen_printf(t, ", nrta_seq_id: %llu", (unsigned long long)rec->nrta_seq_id);
    ntsim_gen_data_yaml(t, (uint32_t)rec->trace_type, (uint32_t)rec->phase, &rec->data);
    ntsim_gen_printf(t, "}");
}

/* --- logs ----------------------------------------------------------------------------- */

/* One entry as YAML flow text. */
static char *log_entry_yaml(const ntsim_log_entry_t *e)
{
    ntsim_gen_text_t t;
    ntsim_gen_text_init(&t);
    const char *level = ntsim_log_level_name(e->level);
    if (e->n_parts == 0)
        ntsim_gen_printf(&t, "%s", level);
    else {
        ntsim_gen_printf(&t, "{%s: [", level);
        for (size_t i = 0; i < e->n_parts; i++) {
            const ntsim_log_part_t *part = &e->parts[i];
            ntsim_gen_printf(&t, "%s", i ? ", " : "");
            if (part->kind == NTSIM_LOG_PART_TEXT)
                ntsim_gen_quoted(&t, part->text, strlen(part->text));
            else
                ntsim_gen_printf(&t, "%s", part->text);
        }
        ntsim_gen_printf(&t, "]}");
    }
    char *text = t.oom ? NULL : ntsim_strdup(t.buf);
    ntsim_gen_text_free(&t);
    return text;
}

bool ntsim_gen_log_entries(const NtsimTestee__Log *log, char ***out, size_t *n, char *why,
                           size_t cap)
{
    *n = 0;
    if ((*out = calloc(log->n_lines + 1, sizeof **out)) == NULL)
        return false;
    for (size_t i = 0; i < log->n_lines; i++) {
        ntsim_log_level_t level;
        const char *message;
        if (ntsim_log_line_split(log->lines[i], &level, &message) && level == NTSIM_LOG_INFO)
            continue; /* info need not be listed (the environment's) */
        ntsim_log_entry_t e;
        NRT_STATUS st = ntsim_log_catalog_entry(log->lines[i], &e);
        char *text = st == NRT_SUCCESS ? log_entry_yaml(&e) : NULL;
        ntsim_log_entry_free(&e);
        if (st == NRT_INVALID)
            snprintf(why, cap, "the reference logged a message the catalogue does not know "
                               "(conformance/lib/log_catalog.c): '%s'", log->lines[i]);
        if (text == NULL)
            return false;
        (*out)[(*n)++] = text;
    }
    return true;
}

void ntsim_gen_log_write(ntsim_gen_text_t *t, const char *indent, char *const *entries, size_t n)
{
    ntsim_gen_printf(t, "%slog: [", indent);
    for (size_t i = 0; i < n; i++)
        ntsim_gen_printf(t, "%s%s", i ? ", " : "", entries[i]);
    ntsim_gen_printf(t, "]");
}
