/*
 * engine/read/json_reader.h: a pull reader of JSON text (RFC 8259), for the
 * fetch documents the read stage reads back (read_json.c, D-TRACE-READER).
 * Internal.
 *
 * Why not jansson: it builds the whole document as a tree (about 220 bytes
 * per empty object: 10M of them, 30 MB of text, took 2.2 GB), and it keeps
 * integers as long long, so the u64 values ntsim itself writes (tracking_id,
 * nrta_seq_id, timestamps at or past 2^63) could not be read back. This
 * reader holds no tree: the caller walks the text value by value, and
 * memory does not grow with the document. Integers are read exactly over
 * the whole u64 range and beyond it are reported as too wide, never wrapped.
 *
 * Usage: ntsim__json_begin() a container, then `while (ntsim__json_more(...))`
 * read a member's key with ntsim__json_key() and its value with the readers
 * below (or ntsim__json_skip() it). Every reader returns false on the first
 * problem and leaves it in the reader (msg, at); after that every call
 * returns false. What is read is checked as JSON is defined: the grammar of
 * numbers, escapes, UTF-8 in strings, no control character in a string, no
 * \u0000, nesting at most NTSIM_JSON_MAX_DEPTH.
 */
#ifndef NTSIM_ENGINE_JSON_READER_H
#define NTSIM_ENGINE_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Containers may nest this deep (a fetch document needs 4: the document,
 * events, an event, its data); deeper is refused where it starts. */
#define NTSIM_JSON_MAX_DEPTH 64

typedef struct ntsim_json_reader {
    const char *text;  /* the document, len bytes (need not be NUL-terminated) */
    size_t len;
    size_t pos;        /* the next byte to read */
    unsigned depth;    /* containers open */
    bool failed;       /* a problem was found: msg and at say what and where */
    size_t at;         /* byte offset of the problem */
    char msg[128];
} ntsim_json_reader_t;

/* What the next value is, by its first byte. */
typedef enum ntsim_json_kind {
    NTSIM_JSON_OBJECT,
    NTSIM_JSON_ARRAY,
    NTSIM_JSON_STRING,
    NTSIM_JSON_NUMBER,
    NTSIM_JSON_TRUE,
    NTSIM_JSON_FALSE,
    NTSIM_JSON_NULL,
    NTSIM_JSON_NONE    /* the end of the text, or a byte no value starts with */
} ntsim_json_kind_t;

/* A number as written. An integer (no fraction, no exponent) has its exact
 * magnitude unless it is past 2^64 - 1 (too_wide). */
typedef struct ntsim__json_number {
    bool integer;        /* no fraction, no exponent */
    bool negative;       /* a leading '-' ("-0" is negative and 0) */
    bool too_wide;       /* an integer whose magnitude is past 2^64 - 1 */
    uint64_t magnitude;  /* of an integer that is not too wide */
    size_t start, len;   /* the token's bytes in the text */
} ntsim_json_number_t;

void ntsim__json_reader_init(ntsim_json_reader_t *r, const char *text, size_t len);

/* Skips whitespace and says what the next value is; consumes nothing. */
ntsim_json_kind_t ntsim__json_peek(ntsim_json_reader_t *r);

/* Consumes '{' or '[' (`open`), counting the depth. */
bool ntsim__json_begin(ntsim_json_reader_t *r, char open);
/* Whether another member or element follows in the container opened with
 * `open`: consumes the ',' before it, or the closing bracket (false, with
 * r->failed still false). *first is true before the first call of a
 * container (set it, then leave it to this function). */
bool ntsim__json_more(ntsim_json_reader_t *r, char open, bool *first);

/* A member's key and its ':'. The decoded key goes to buf (at most cap - 1
 * bytes, NUL-terminated); *len is its whole decoded length, so a key longer
 * than buf is known to be one (*len >= cap). */
bool ntsim__json_key(ntsim_json_reader_t *r, char *buf, size_t cap, size_t *len);
/* A string value, decoded as ntsim__json_key decodes. */
bool ntsim__json_string(ntsim_json_reader_t *r, char *buf, size_t cap, size_t *len);
/* A number value. */
bool ntsim__json_number(ntsim_json_reader_t *r, ntsim_json_number_t *n);
/* true, false or null; *value is true only for true. */
bool ntsim__json_literal(ntsim_json_reader_t *r, bool *value);
/* Any value, checked and passed over without keeping anything. */
bool ntsim__json_skip(ntsim_json_reader_t *r);
/* Only whitespace is left. */
bool ntsim__json_end(ntsim_json_reader_t *r);

/* Records a problem at byte `at` (the first one wins); returns false. */
bool ntsim__json_fail(ntsim_json_reader_t *r, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The 1-based line and column (in characters) of byte offset `at`; lines
 * end at '\n'. */
void ntsim__json_position(const ntsim_json_reader_t *r, size_t at, unsigned long *line,
                         unsigned long *column);

/* Whether text[0..len) is exactly one JSON integer (the number grammar
 * without fraction or exponent: "0", "-3", "18446744073709551615"); its value
 * into *n (start 0, len len), too_wide past 2^64 - 1. For values kept as
 * strings (NTFF attributes, the decimal strings of the JSON data keys). */
bool ntsim__json_parse_integer(const char *text, size_t len, ntsim_json_number_t *n);

#endif /* NTSIM_ENGINE_JSON_READER_H */
