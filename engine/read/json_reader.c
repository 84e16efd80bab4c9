/*
 * engine/read/json_reader.c: a pull reader of JSON text (json_reader.h).
 *
 * The grammar read (RFC 8259), one value at a time, with no tree:
 *
 *   value   = object | array | string | number | "true" | "false" | "null"
 *   object  = "{" [ string ":" value *( "," string ":" value ) ] "}"
 *   array   = "[" [ value *( "," value ) ] "]"
 *   number  = [ "-" ] ( "0" | [1-9] *digit ) [ "." 1*digit ] [ ("e"|"E") ["+"|"-"] 1*digit ]
 *   string  = '"' *( unescaped UTF-8 | "\" ( '"' | "\" | "/" | b f n r t | u 4hex ) ) '"'
 *   ws      = *( " " | "\t" | "\n" | "\r" ), between any two tokens
 *
 * A string holds no byte below 0x20, only well-formed UTF-8 (no overlong
 * form, no surrogate, nothing past U+10FFFF), UTF-16 surrogates escaped in
 * pairs only, and no \u0000 (as jansson refused it: the keys and names read
 * are C strings).
 */
#include "json_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ntsim__json_reader_init(ntsim_json_reader_t *r, const char *text, size_t len)
{
    memset(r, 0, sizeof *r);
    r->text = text;
    r->len = len;
}

bool ntsim__json_fail(ntsim_json_reader_t *r, size_t at, const char *fmt, ...)
{
    if (r->failed)
        return false;
    r->failed = true;
    r->at = at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return false;
}

void ntsim__json_position(const ntsim_json_reader_t *r, size_t at, unsigned long *line,
                         unsigned long *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < at && i < r->len; i++) {
        unsigned char c = (unsigned char)r->text[i];
        if (c == '\n') {
            ++*line;
            *column = 1;
        } else if ((c & 0xc0) != 0x80) { /* a character starts here (not a continuation) */
            ++*column;
        }
    }
}

/* The byte at `at`, as a message shows it: 'x' or byte 0xNN. */
static const char *show_byte(const ntsim_json_reader_t *r, size_t at, char out[16])
{
    if (at >= r->len)
        return "the end of the input";
    unsigned char c = (unsigned char)r->text[at];
    if (c > 0x20 && c < 0x7f)
        snprintf(out, 16, "'%c'", c);
    else
        snprintf(out, 16, "byte 0x%02x", c);
    return out;
}

static void skip_ws(ntsim_json_reader_t *r)
{
    while (r->pos < r->len) {
        char c = r->text[r->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        r->pos++;
    }
}

ntsim_json_kind_t ntsim__json_peek(ntsim_json_reader_t *r)
{
    skip_ws(r);
    if (r->failed || r->pos >= r->len)
        return NTSIM_JSON_NONE;
    switch (r->text[r->pos]) {
    case '{': return NTSIM_JSON_OBJECT;
    case '[': return NTSIM_JSON_ARRAY;
    case '"': return NTSIM_JSON_STRING;
    case 't': return NTSIM_JSON_TRUE;
    case 'f': return NTSIM_JSON_FALSE;
    case 'n': return NTSIM_JSON_NULL;
    case '-': return NTSIM_JSON_NUMBER;
    default:
        return r->text[r->pos] >= '0' && r->text[r->pos] <= '9' ? NTSIM_JSON_NUMBER
                                                                  : NTSIM_JSON_NONE;
    }
}

/* Fails for a value that cannot start at the current byte. */
static bool no_value(ntsim_json_reader_t *r)
{
    char b[16];
    return ntsim__json_fail(r, r->pos, "expected a value, got %s", show_byte(r, r->pos, b));
}

bool ntsim__json_begin(ntsim_json_reader_t *r, char open)
{
    skip_ws(r);
    if (r->failed)
        return false;
    if (r->pos >= r->len || r->text[r->pos] != open) {
        char b[16];
        return ntsim__json_fail(r, r->pos, "expected '%c', got %s", open,
                               show_byte(r, r->pos, b));
    }
    if (r->depth >= NTSIM_JSON_MAX_DEPTH)
        return ntsim__json_fail(r, r->pos, "nesting deeper than %d", NTSIM_JSON_MAX_DEPTH);
    r->depth++;
    r->pos++;
    return true;
}

bool ntsim__json_more(ntsim_json_reader_t *r, char open, bool *first)
{
    char close = open == '{' ? '}' : ']';
    skip_ws(r);
    if (r->failed)
        return false;
    if (r->pos < r->len && r->text[r->pos] == close) {
        r->pos++;
        r->depth--;
        return false;
    }
    char b[16];
    if (*first) {
        *first = false;
        if (r->pos < r->len)
            return true; /* the member's own reader checks what starts here */
        return ntsim__json_fail(r, r->pos, "expected %s or '%c', got %s",
                               open == '{' ? "a key" : "a value", close, show_byte(r, r->pos, b));
    }
    if (r->pos < r->len && r->text[r->pos] == ',') {
        r->pos++;
        return true;
    }
    return ntsim__json_fail(r, r->pos, "expected ',' or '%c', got %s", close,
                           show_byte(r, r->pos, b));
}

/* --- strings --------------------------------------------------------------------- */

static void put(char *buf, size_t cap, size_t *n, unsigned char c)
{
    if (*n + 1 < cap)
        buf[*n] = (char)c;
    ++*n;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The 4 hex digits of \uXXXX at r->pos (after the 'u'); -1 if they are not. */
static long read_u4(ntsim_json_reader_t *r)
{
    if (r->len - r->pos < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(r->text[r->pos + (size_t)i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    r->pos += 4;
    return v;
}

static void put_utf8(char *buf, size_t cap, size_t *n, unsigned long cp)
{
    if (cp < 0x80) {
        put(buf, cap, n, (unsigned char)cp);
    } else if (cp < 0x800) {
        put(buf, cap, n, (unsigned char)(0xc0 | (cp >> 6)));
        put(buf, cap, n, (unsigned char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        put(buf, cap, n, (unsigned char)(0xe0 | (cp >> 12)));
        put(buf, cap, n, (unsigned char)(0x80 | ((cp >> 6) & 0x3f)));
        put(buf, cap, n, (unsigned char)(0x80 | (cp & 0x3f)));
    } else {
        put(buf, cap, n, (unsigned char)(0xf0 | (cp >> 18)));
        put(buf, cap, n, (unsigned char)(0x80 | ((cp >> 12) & 0x3f)));
        put(buf, cap, n, (unsigned char)(0x80 | ((cp >> 6) & 0x3f)));
        put(buf, cap, n, (unsigned char)(0x80 | (cp & 0x3f)));
    }
}

/* An escape after its backslash (r->pos at the letter). */
static bool read_escape(ntsim_json_reader_t *r, char *buf, size_t cap, size_t *n)
{
    size_t at = r->pos - 1;
    if (r->pos >= r->len)
        return ntsim__json_fail(r, at, "unterminated string");
    char c = r->text[r->pos++];
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *p = c != '\0' ? strchr(from, c) : NULL;
    if (p != NULL) {
        put(buf, cap, n, (unsigned char)to[p - from]);
        return true;
    }
    if (c != 'u')
        return ntsim__json_fail(r, at, "invalid escape '\\%c'", c > 0x20 && c < 0x7f ? c : '?');
    long cp = read_u4(r);
    if (cp < 0)
        return ntsim__json_fail(r, at, "\\u needs four hex digits");
    if (cp == 0)
        return ntsim__json_fail(r, at, "\\u0000 is not allowed");
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return ntsim__json_fail(r, at, "a lone UTF-16 low surrogate \\u%04lx", (unsigned long)cp);
    if (cp >= 0xd800 && cp <= 0xdbff) {
        long lo = -1;
        if (r->len - r->pos >= 2 && r->text[r->pos] == '\\' && r->text[r->pos + 1] == 'u') {
            r->pos += 2;
            lo = read_u4(r);
        }
        if (lo < 0xdc00 || lo > 0xdfff)
            return ntsim__json_fail(r, at, "a UTF-16 high surrogate \\u%04lx without its low half",
                                   (unsigned long)cp);
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    put_utf8(buf, cap, n, (unsigned long)cp);
    return true;
}

/* One UTF-8 character of 2 to 4 bytes starting at r->pos (its lead byte). */
static bool read_utf8(ntsim_json_reader_t *r, char *buf, size_t cap, size_t *n)
{
    const unsigned char *s = (const unsigned char *)r->text + r->pos;
    size_t left = r->len - r->pos, need;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range (RFC 3629) */
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        need = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        need = 3, lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        need = 4, lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
    else
        return ntsim__json_fail(r, r->pos, "invalid UTF-8 (byte 0x%02x)", s[0]);
    bool ok = left >= need && s[1] >= lo && s[1] <= hi;
    for (size_t i = 2; ok && i < need; i++)
        ok = (s[i] & 0xc0) == 0x80;
    if (!ok)
        return ntsim__json_fail(r, r->pos, "invalid UTF-8 (byte 0x%02x)", s[0]);
    for (size_t i = 0; i < need; i++)
        put(buf, cap, n, s[i]);
    r->pos += need;
    return true;
}

bool ntsim__json_string(ntsim_json_reader_t *r, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    skip_ws(r);
    if (r->failed)
        return false;
    if (r->pos >= r->len || r->text[r->pos] != '"') {
        char b[16];
        return ntsim__json_fail(r, r->pos, "expected a string, got %s", show_byte(r, r->pos, b));
    }
    size_t start = r->pos++;
    for (;;) {
        if (r->pos >= r->len)
            return ntsim__json_fail(r, start, "unterminated string");
        unsigned char c = (unsigned char)r->text[r->pos];
        if (c == '"')
            break;
        if (c < 0x20)
            return ntsim__json_fail(r, r->pos, "control character in a string (byte 0x%02x)", c);
        if (c == '\\') {
            r->pos++;
            if (!read_escape(r, buf, cap, &n))
                return false;
        } else if (c >= 0x80) {
            if (!read_utf8(r, buf, cap, &n))
                return false;
        } else {
            put(buf, cap, &n, c);
            r->pos++;
        }
    }
    r->pos++;
    if (cap > 0)
        buf[n < cap ? n : cap - 1] = '\0';
    if (len != NULL)
        *len = n;
    return true;
}

bool ntsim__json_key(ntsim_json_reader_t *r, char *buf, size_t cap, size_t *len)
{
    if (!ntsim__json_string(r, buf, cap, len))
        return false;
    skip_ws(r);
    if (r->pos >= r->len || r->text[r->pos] != ':') {
        char b[16];
        return ntsim__json_fail(r, r->pos, "expected ':' after a key, got %s",
                               show_byte(r, r->pos, b));
    }
    r->pos++;
    return true;
}

/* --- numbers and literals -------------------------------------------------------- */

static bool is_digit(const ntsim_json_reader_t *r, size_t at)
{
    return at < r->len && r->text[at] >= '0' && r->text[at] <= '9';
}

bool ntsim__json_number(ntsim_json_reader_t *r, ntsim_json_number_t *n)
{
    skip_ws(r);
    if (r->failed)
        return false;
    memset(n, 0, sizeof *n);
    n->start = r->pos;
    n->integer = true;
    if (r->pos < r->len && r->text[r->pos] == '-') {
        n->negative = true;
        r->pos++;
    }
    if (!is_digit(r, r->pos))
        return r->pos == n->start ? no_value(r)
                                  : ntsim__json_fail(r, n->start, "a number needs a digit after '-'");
    if (r->text[r->pos] == '0' && is_digit(r, r->pos + 1))
        return ntsim__json_fail(r, n->start, "a number cannot start with 0 and another digit");
    for (; is_digit(r, r->pos); r->pos++) {
        unsigned d = (unsigned)(r->text[r->pos] - '0');
        if (n->magnitude > (UINT64_MAX - d) / 10)
            n->too_wide = true;
        else
            n->magnitude = n->magnitude * 10 + d;
    }
    if (r->pos < r->len && r->text[r->pos] == '.') {
        n->integer = false;
        if (!is_digit(r, ++r->pos))
            return ntsim__json_fail(r, n->start, "a number needs a digit after '.'");
        while (is_digit(r, r->pos))
            r->pos++;
    }
    if (r->pos < r->len && (r->text[r->pos] == 'e' || r->text[r->pos] == 'E')) {
        n->integer = false;
        r->pos++;
        if (r->pos < r->len && (r->text[r->pos] == '+' || r->text[r->pos] == '-'))
            r->pos++;
        if (!is_digit(r, r->pos))
            return ntsim__json_fail(r, n->start, "a number needs a digit in its exponent");
        while (is_digit(r, r->pos))
            r->pos++;
    }
    if (!n->integer || n->too_wide)
        n->magnitude = 0;
    n->len = r->pos - n->start;
    return true;
}

bool ntsim__json_literal(ntsim_json_reader_t *r, bool *value)
{
    static const char *const words[] = {"true", "false", "null"};
    skip_ws(r);
    if (r->failed)
        return false;
    for (size_t w = 0; w < 3; w++) {
        size_t l = strlen(words[w]);
        if (r->len - r->pos >= l && memcmp(r->text + r->pos, words[w], l) == 0) {
            r->pos += l;
            *value = w == 0;
            return true;
        }
    }
    return no_value(r);
}

bool ntsim__json_skip(ntsim_json_reader_t *r)
{
    ntsim_json_number_t num;
    bool b, first = true;
    switch (ntsim__json_peek(r)) {
    case NTSIM_JSON_OBJECT:
        if (!ntsim__json_begin(r, '{'))
            return false;
        while (ntsim__json_more(r, '{', &first))
            if (!ntsim__json_key(r, NULL, 0, NULL) || !ntsim__json_skip(r))
                return false;
        return !r->failed;
    case NTSIM_JSON_ARRAY: /* recursion is bounded: begin refuses past the depth limit */
        if (!ntsim__json_begin(r, '['))
            return false;
        while (ntsim__json_more(r, '[', &first))
            if (!ntsim__json_skip(r))
                return false;
        return !r->failed;
    case NTSIM_JSON_STRING: return ntsim__json_string(r, NULL, 0, NULL);
    case NTSIM_JSON_NUMBER: return ntsim__json_number(r, &num);
    case NTSIM_JSON_TRUE:
    case NTSIM_JSON_FALSE:
    case NTSIM_JSON_NULL: return ntsim__json_literal(r, &b);
    case NTSIM_JSON_NONE: break;
    }
    return r->failed ? false : no_value(r);
}

bool ntsim__json_end(ntsim_json_reader_t *r)
{
    skip_ws(r);
    if (r->failed)
        return false;
    if (r->pos < r->len) {
        char b[16];
        return ntsim__json_fail(r, r->pos, "%s after the document", show_byte(r, r->pos, b));
    }
    return true;
}

bool ntsim__json_parse_integer(const char *text, size_t len, ntsim_json_number_t *n)
{
    ntsim_json_reader_t r;
    ntsim__json_reader_init(&r, text, len);
    /* No whitespace around it: a value kept as a string is the token alone. */
    if (len == 0 || text[0] == ' ' || text[0] == '\t' || text[0] == '\n' || text[0] == '\r')
        return false;
    return ntsim__json_number(&r, n) && n->integer && r.pos == len;
}
