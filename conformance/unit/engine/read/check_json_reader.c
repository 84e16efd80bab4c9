/*
 * conformance/unit/engine/read/check_json_reader.c: the pull reader of JSON
 * text at its edges (engine/read/json_reader.h; D-TRACE-READER): it reads
 * nothing past its length, the Unicode encodings at every boundary of
 * RFC 3629 and RFC 8259 (the code points where UTF-8 changes length, the
 * surrogates, U+10FFFF), the number grammar's messages, nesting counted by
 * depth, not by siblings, and a byte shown as a message shows it. Every
 * expected byte string is worked out from the encodings by hand (U+0800 is
 * E0 A0 80: 1110 0000, 10 100000, 10 000000), not taken from the reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "json_reader.h"

/* What the reader makes of text[0..len): any one value and nothing after. */
typedef struct verdict {
    bool ok;
    char msg[128];
    size_t at;
} verdict_t;

static verdict_t read_value(const char *text, size_t len)
{
    ntsim_json_reader_t r;
    verdict_t v;
    ntsim__json_reader_init(&r, text, len);
    v.ok = ntsim__json_skip(&r) && ntsim__json_end(&r);
    memcpy(v.msg, r.msg, sizeof v.msg);
    v.at = r.at;
    return v;
}

/* The first len bytes of a text read alone: the reader's verdict does not
 * depend on the bytes after them, which are the text's own, then each of a
 * few bytes that would continue a value, then none at all (a block of
 * exactly len bytes: ASan sees a read past it). */
START_TEST(test_json_reader_sees_nothing_past_its_length)
{
    static const char *const texts[] = {
        "{\"a\":[1,-2.5e+3,true,false,null,\"x\\u00e9\\ud83d\\ude00\\n\xc3\xa9\"],\"b\":{}}",
        "[0,10,-0,1E5,0.25e-1,\"\\\\\\/\\\"\\b\\f\\n\\r\\t\",[],{},[[]]]",
        " \t\r\n{ \"k\" : \"\xe0\xa0\x80\xf4\x8f\xbf\xbf\xed\x9f\xbf\" , \"n\" : 18446744073709551615 } \n",
        "\"\\u0041\\uD834\\uDD1E\"",
        "-0.0E-0",
        "123",
        "true",
        "false",
        "null",
    };
    static const char tails[] = {'\0', '"', ']', '}', '0', 'e', '.', ' ', '\\', 'u', ',', 'l',
                                 (char)0x80};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        const char *text = texts[t];
        size_t n = strlen(text);
        ck_assert_msg(read_value(text, n).ok, "text %zu: %s", t, read_value(text, n).msg);
        for (size_t len = 0; len <= n; len++) {
            verdict_t in_text = read_value(text, len);
            char *alone = malloc(len > 0 ? len : 1);
            ck_assert_ptr_nonnull(alone);
            memcpy(alone, text, len);
            verdict_t v = read_value(alone, len);
            free(alone);
            ck_assert_msg(v.ok == in_text.ok && v.at == in_text.at &&
                              strcmp(v.msg, in_text.msg) == 0,
                          "text %zu, %zu bytes: '%s' at %zu alone, '%s' at %zu in the text", t,
                          len, v.msg, v.at, in_text.msg, in_text.at);
            char *padded = malloc(len + 8);
            ck_assert_ptr_nonnull(padded);
            memcpy(padded, text, len);
            for (size_t k = 0; k < sizeof tails; k++) {
                memset(padded + len, tails[k], 8);
                v = read_value(padded, len);
                ck_assert_msg(v.ok == in_text.ok && v.at == in_text.at &&
                                  strcmp(v.msg, in_text.msg) == 0,
                              "text %zu, %zu bytes, then 0x%02x: '%s' at %zu, not '%s' at %zu", t,
                              len, (unsigned char)tails[k], v.msg, v.at, in_text.msg, in_text.at);
            }
            free(padded);
        }
    }
}
END_TEST

/* A string's decoded bytes (the string alone, of strlen(text) bytes). */
static void assert_decodes(const char *text, size_t text_len, const char *want, size_t want_len)
{
    ntsim_json_reader_t r;
    char buf[64];
    size_t len = 0;
    ntsim__json_reader_init(&r, text, text_len);
    ck_assert_msg(ntsim__json_string(&r, buf, sizeof buf, &len), "%s: %s", text, r.msg);
    ck_assert_msg(len == want_len && memcmp(buf, want, len) == 0 && buf[len] == '\0',
                  "%s: %zu bytes", text, len);
    ck_assert_uint_eq(r.pos, text_len);
}

/* Each escape and raw UTF-8 sequence at the edges where RFC 3629 changes a
 * character's length or its second byte's range, and the surrogate pairs at
 * both ends of the supplementary planes. */
START_TEST(test_json_reader_unicode_at_every_boundary)
{
    static const struct {
        const char *text, *want;
    } good[] = {
        {"\"\\u0001\"", "\x01"},
        {"\"\\u007f\"", "\x7f"},
        {"\"\\u0080\"", "\xc2\x80"},
        {"\"\\u07ff\"", "\xdf\xbf"},
        {"\"\\u0800\"", "\xe0\xa0\x80"},
        {"\"\\ud7ff\"", "\xed\x9f\xbf"},
        {"\"\\ue000\"", "\xee\x80\x80"},
        {"\"\\uffff\"", "\xef\xbf\xbf"},
        {"\"\\ud800\\udc00\"", "\xf0\x90\x80\x80"},    /* U+10000 */
        {"\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf"},    /* U+10FFFF */
        {"\"\\uD83D\\uDE00\"", "\xf0\x9f\x98\x80"},    /* upper-case hex */
        {"\"\\u00aF\\u09Af\"", "\xc2\xaf\xe0\xa6\xaf"}, /* U+00AF, U+09AF */
        {"\"\xc2\x80\xdf\xbf\"", "\xc2\x80\xdf\xbf"},
        {"\"\xe0\xa0\x80\xe1\x80\x80\xec\xbf\xbf\"", "\xe0\xa0\x80\xe1\x80\x80\xec\xbf\xbf"},
        {"\"\xed\x80\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\"",
         "\xed\x80\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf"},
        {"\"\xf0\x90\x80\x80\xf1\x80\x80\x80\xf3\xbf\xbf\xbf\"",
         "\xf0\x90\x80\x80\xf1\x80\x80\x80\xf3\xbf\xbf\xbf"},
        {"\"\xf4\x80\x80\x80\xf4\x8f\xbf\xbf\"", "\xf4\x80\x80\x80\xf4\x8f\xbf\xbf"},
        {"\" \x7f~\"", " \x7f~"}, /* a space and DEL are no control characters */
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_decodes(good[i].text, strlen(good[i].text), good[i].want, strlen(good[i].want));
    static const struct {
        const char *text;
        size_t len; /* 0: strlen */
        const char *msg;
        size_t at;
    } bad[] = {
        {"\"\\udc00\"", 0, "a lone UTF-16 low surrogate \\udc00", 1},
        {"\"\\udfff\"", 0, "a lone UTF-16 low surrogate \\udfff", 1},
        {"\"\\udbff\"", 0, "a UTF-16 high surrogate \\udbff without its low half", 1},
        {"\"\\ud800\\udbff\"", 0, "a UTF-16 high surrogate \\ud800 without its low half", 1},
        {"\"\\udbff\\ue000\"", 0, "a UTF-16 high surrogate \\udbff without its low half", 1},
        {"\"\\ud800\\u\"", 0, "a UTF-16 high surrogate \\ud800 without its low half", 1},
        {"\"\\ud800\\x\"", 0, "a UTF-16 high surrogate \\ud800 without its low half", 1},
        {"\"\\ud800\\", 0, "a UTF-16 high surrogate \\ud800 without its low half", 1},
        {"\"\\u002/\"", 0, "\\u needs four hex digits", 1},
        {"\"\\u00:0\"", 0, "\\u needs four hex digits", 1},
        {"\"\\u00`0\"", 0, "\\u needs four hex digits", 1},
        {"\"\\u00g0\"", 0, "\\u needs four hex digits", 1},
        {"\"\\u00@0\"", 0, "\\u needs four hex digits", 1},
        {"\"\\u00G0\"", 0, "\\u needs four hex digits", 1},
        {"\"\\u004", 0, "\\u needs four hex digits", 1},
        {"\"\\u0041", 0, "unterminated string", 0},
        {"\"\\", 0, "unterminated string", 1},
        {"\"\\\x01\"", 0, "invalid escape '\\?'", 1},
        {"\"\\ \"", 0, "invalid escape '\\?'", 1},
        {"\"\\!\"", 0, "invalid escape '\\!'", 1},
        {"\"\\~\"", 0, "invalid escape '\\~'", 1},
        {"\"\\\x7f\"", 0, "invalid escape '\\?'", 1},
        {"\"\\\0\"", 4, "invalid escape '\\?'", 1},
        {"\"ab\x1f\"", 0, "control character in a string (byte 0x1f)", 3},
        {"\"\0\"", 3, "control character in a string (byte 0x00)", 1},
        {"\"\x80\"", 0, "invalid UTF-8 (byte 0x80)", 1},
        {"\"\xbf\"", 0, "invalid UTF-8 (byte 0xbf)", 1},
        {"\"\xc1\xbf\"", 0, "invalid UTF-8 (byte 0xc1)", 1},
        {"\"\xc2\x7f\"", 0, "invalid UTF-8 (byte 0xc2)", 1},
        {"\"\xc2\xc0\"", 0, "invalid UTF-8 (byte 0xc2)", 1},
        {"\"\xe0\x9f\xbf\"", 0, "invalid UTF-8 (byte 0xe0)", 1},
        {"\"\xe1\x80\x7f\"", 0, "invalid UTF-8 (byte 0xe1)", 1},
        {"\"\xe1\x80\xc0\"", 0, "invalid UTF-8 (byte 0xe1)", 1},
        {"\"\xed\xa0\x80\"", 0, "invalid UTF-8 (byte 0xed)", 1},
        {"\"\xf0\x8f\xbf\xbf\"", 0, "invalid UTF-8 (byte 0xf0)", 1},
        {"\"\xf1\x80\x80\x7f\"", 0, "invalid UTF-8 (byte 0xf1)", 1},
        {"\"\xf1\x80\x7f\x80\"", 0, "invalid UTF-8 (byte 0xf1)", 1},
        {"\"\xf4\x90\x80\x80\"", 0, "invalid UTF-8 (byte 0xf4)", 1},
        {"\"\xf5\x80\x80\x80\"", 0, "invalid UTF-8 (byte 0xf5)", 1},
        {"\"\xe1\x80", 0, "invalid UTF-8 (byte 0xe1)", 1},  /* cut inside the character */
        {"\"\xc3\xa9", 0, "unterminated string", 0},          /* whole, then the end */
        {"\"abc", 0, "unterminated string", 0},
        {"abc\"", 0, "expected a string, got 'a'", 0},
        {"", 0, "expected a string, got the end of the input", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ntsim_json_reader_t r;
        char buf[64];
        size_t len = 99;
        size_t n = bad[i].len ? bad[i].len : strlen(bad[i].text);
        ntsim__json_reader_init(&r, bad[i].text, n);
        ck_assert_msg(!ntsim__json_string(&r, buf, sizeof buf, &len), "%zu: accepted", i);
        ck_assert_msg(strcmp(r.msg, bad[i].msg) == 0 && r.at == bad[i].at,
                      "%zu: '%s' at %zu, want '%s' at %zu", i, r.msg, r.at, bad[i].msg, bad[i].at);
        ck_assert_uint_eq(len, 99); /* untouched */
        ck_assert(r.failed);
        /* The first problem stays: later calls fail and leave it. */
        ck_assert(!ntsim__json_string(&r, buf, sizeof buf, &len));
        ck_assert(!ntsim__json_end(&r));
        ck_assert_str_eq(r.msg, bad[i].msg);
    }
}
END_TEST

/* A string longer than the buffer: its whole decoded length, the bytes
 * that fit (cap - 1) and a NUL; a buffer of one byte holds the NUL alone;
 * no buffer at all still reads the string. */
START_TEST(test_json_reader_string_fills_what_fits)
{
    static const char text[] = "\"ab\\u00e9\xf0\x9f\x98\x80z\""; /* a b C3 A9 F0 9F 98 80 z */
    static const char want[] = "ab\xc3\xa9\xf0\x9f\x98\x80z";
    for (size_t cap = 1; cap <= sizeof want + 1; cap++) {
        ntsim_json_reader_t r;
        char *buf = malloc(cap); /* exactly cap: ASan sees a byte more */
        size_t len = 0;
        ck_assert_ptr_nonnull(buf);
        ntsim__json_reader_init(&r, text, sizeof text - 1);
        ck_assert(ntsim__json_string(&r, buf, cap, &len));
        ck_assert_uint_eq(len, sizeof want - 1);
        size_t kept = cap - 1 < len ? cap - 1 : len;
        ck_assert_msg(memcmp(buf, want, kept) == 0 && buf[kept] == '\0', "cap %zu", cap);
        free(buf);
    }
    ntsim_json_reader_t r;
    ntsim__json_reader_init(&r, text, sizeof text - 1);
    ck_assert(ntsim__json_string(&r, NULL, 0, NULL));
    ck_assert(ntsim__json_end(&r));
}
END_TEST

/* The number grammar's problems, each at the number's first byte, and its
 * values at the edges of the digits and of u64. */
START_TEST(test_json_reader_number_grammar_and_messages)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"-", "a number needs a digit after '-'"},
        {"-a", "a number needs a digit after '-'"},
        {"--1", "a number needs a digit after '-'"},
        {"01", "a number cannot start with 0 and another digit"},
        {"-09", "a number cannot start with 0 and another digit"},
        {"00", "a number cannot start with 0 and another digit"},
        {"1.", "a number needs a digit after '.'"},
        {"1.e5", "a number needs a digit after '.'"},
        {"1e", "a number needs a digit in its exponent"},
        {"1E+", "a number needs a digit in its exponent"},
        {"1e-", "a number needs a digit in its exponent"},
        {"1e+-1", "a number needs a digit in its exponent"},
        {"1ex", "a number needs a digit in its exponent"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ntsim_json_reader_t r;
        ntsim_json_number_t n;
        ntsim__json_reader_init(&r, bad[i].text, strlen(bad[i].text));
        ck_assert_msg(!ntsim__json_number(&r, &n), "%s: accepted", bad[i].text);
        ck_assert_str_eq(r.msg, bad[i].msg);
        ck_assert_uint_eq(r.at, 0);
    }
    static const struct {
        const char *text;
        bool integer, negative;
        uint64_t magnitude;
    } good[] = {
        {"0", true, false, 0},
        {"9", true, false, 9},
        {"90", true, false, 90},
        {"1234567890", true, false, 1234567890},
        {"-0", true, true, 0},
        {"-9", true, true, 9},
        {"0.0", false, false, 0},
        {"9.9e9", false, false, 0},
        {"1E+9", false, false, 0},
        {"1e-0", false, false, 0},
        {"-0.5E2", false, true, 0},
        {"1844674407370955161", true, false, UINT64_C(1844674407370955161)},
        {"18446744073709551610", true, false, UINT64_MAX - 5},
        {"18446744073709551609", true, false, UINT64_MAX - 6},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ntsim_json_reader_t r;
        ntsim_json_number_t n;
        size_t len = strlen(good[i].text);
        ntsim__json_reader_init(&r, good[i].text, len);
        ck_assert_msg(ntsim__json_number(&r, &n), "%s: %s", good[i].text, r.msg);
        ck_assert_msg(n.integer == good[i].integer && n.negative == good[i].negative &&
                          !n.too_wide,
                      "%s", good[i].text);
        ck_assert_uint_eq(n.magnitude, good[i].magnitude);
        ck_assert_uint_eq(n.start, 0);
        ck_assert_uint_eq(n.len, len);
        ck_assert_uint_eq(r.pos, len);
    }
    /* A number ends at the first byte its grammar has no place for. */
    ntsim_json_reader_t r;
    ntsim_json_number_t n;
    ntsim__json_reader_init(&r, "  12]", 5);
    ck_assert(ntsim__json_number(&r, &n));
    ck_assert_uint_eq(n.start, 2);
    ck_assert_uint_eq(n.len, 2);
    ck_assert_uint_eq(n.magnitude, 12);
    /* Past 2^64 - 1 at any digit: too wide, magnitude 0, its length whole. */
    static const char *const wide[] = {"18446744073709551616", "18446744073709551620",
                                       "28446744073709551615", "184467440737095516150",
                                       "-18446744073709551616"};
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
        ntsim__json_reader_init(&r, wide[i], strlen(wide[i]));
        ck_assert(ntsim__json_number(&r, &n));
        ck_assert_msg(n.integer && n.too_wide && n.magnitude == 0, "%s", wide[i]);
        ck_assert_uint_eq(n.len, strlen(wide[i]));
    }
    /* A decimal kept as a string: the token alone, no whitespace around it. */
    static const char *const not_alone[] = {" 1", "\t1", "\n1", "\r1", "1 ", "1\n", "1.0", "1e1",
                                            ""};
    for (size_t i = 0; i < sizeof not_alone / sizeof not_alone[0]; i++)
        ck_assert_msg(!ntsim__json_parse_integer(not_alone[i], strlen(not_alone[i]), &n),
                      "'%s' accepted", not_alone[i]);
    ck_assert(ntsim__json_parse_integer("-7", 2, &n));
    ck_assert(n.negative && n.magnitude == 7 && n.start == 0 && n.len == 2);
}
END_TEST

/* The literals, alone and at the end of the text; a word cut short is no
 * value. */
START_TEST(test_json_reader_literals)
{
    static const struct {
        const char *text;
        bool value;
    } good[] = {{"true", true}, {"false", false}, {"null", false}};
    for (size_t i = 0; i < 3; i++) {
        ntsim_json_reader_t r;
        bool b = !good[i].value;
        size_t n = strlen(good[i].text);
        ntsim__json_reader_init(&r, good[i].text, n);
        ck_assert_msg(ntsim__json_literal(&r, &b), "%s: %s", good[i].text, r.msg);
        ck_assert_int_eq(b, good[i].value);
        ck_assert_uint_eq(r.pos, n);
        ntsim__json_reader_init(&r, good[i].text, n - 1);
        ck_assert(!ntsim__json_literal(&r, &b));
        char want[64];
        snprintf(want, sizeof want, "expected a value, got '%c'", good[i].text[0]);
        ck_assert_str_eq(r.msg, want);
    }
    verdict_t v = read_value("[true,nul]", 10);
    ck_assert(!v.ok);
    ck_assert_str_eq(v.msg, "expected a value, got 'n'");
    ck_assert_uint_eq(v.at, 6);
}
END_TEST

/* Depth counts the containers open, not those met: any number of empty
 * siblings, of either kind, nest one deep; 64 objects nest, 65 do not. */
START_TEST(test_json_reader_depth_counts_nesting_not_siblings)
{
    enum { SIBLINGS = 200 };
    char text[4 * SIBLINGS + 16];
    size_t n = 0;
    text[n++] = '[';
    for (size_t i = 0; i < SIBLINGS; i++) {
        memcpy(text + n, i % 2 ? "{}," : "[],", 3);
        n += 3;
    }
    text[n - 1] = ']';
    verdict_t v = read_value(text, n);
    ck_assert_msg(v.ok, "%s at %zu", v.msg, v.at);
    for (size_t depth = 64; depth <= 65; depth++) {
        char *obj = malloc(6 * depth + 8);
        ck_assert_ptr_nonnull(obj);
        n = 0;
        for (size_t i = 0; i < depth; i++) {
            memcpy(obj + n, "{\"a\":", 5);
            n += 5;
        }
        obj[n++] = '1';
        memset(obj + n, '}', depth);
        n += depth;
        v = read_value(obj, n);
        free(obj);
        if (depth == 64) {
            ck_assert_msg(v.ok, "%s", v.msg);
        } else {
            ck_assert(!v.ok);
            ck_assert_str_eq(v.msg, "nesting deeper than 64");
            ck_assert_uint_eq(v.at, 5 * 64);
        }
    }
}
END_TEST

/* A problem's byte, as its message shows it: printable ASCII (0x21..0x7e)
 * quoted, anything else as its hex value (a space is never shown: it is
 * skipped as whitespace before a value is looked for). */
START_TEST(test_json_reader_shows_a_byte_printable_or_as_hex)
{
    static const struct {
        const char *text;
        size_t len;
        const char *msg;
        size_t at;
    } cases[] = {
        {"[!]", 3, "expected a value, got '!'", 1},
        {"[~]", 3, "expected a value, got '~'", 1},
        {"[/]", 3, "expected a value, got '/'", 1},
        {"[:]", 3, "expected a value, got ':'", 1},
        {"[\x7f]", 3, "expected a value, got byte 0x7f", 1},
        {"[\x80]", 3, "expected a value, got byte 0x80", 1},
        {"[\x1f]", 3, "expected a value, got byte 0x1f", 1},
        {"[\0]", 3, "expected a value, got byte 0x00", 1},
        {"[\x0b]", 3, "expected a value, got byte 0x0b", 1}, /* VT: no JSON whitespace */
        {"{\"a\":1}\x7f", 8, "byte 0x7f after the document", 7},
        {"{\"a\" \x01", 6, "expected ':' after a key, got byte 0x01", 5},
        {"[1 \xff", 4, "expected ',' or ']', got byte 0xff", 3},
        {"{\"a\":1 ~", 8, "expected ',' or '}', got '~'", 7},
        {"{ \"a\":1,\t\x7f", 10, "expected a string, got byte 0x7f", 9},
        {"{\x7f", 2, "expected a string, got byte 0x7f", 1},
        {"[\r\n\t 1 ,\n 2\r]", 13, "", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        verdict_t v = read_value(cases[i].text, cases[i].len);
        ck_assert_msg(v.ok == (cases[i].msg[0] == '\0'), "%zu: %s", i, v.msg);
        if (v.ok)
            continue;
        ck_assert_msg(strcmp(v.msg, cases[i].msg) == 0 && v.at == cases[i].at,
                      "%zu: '%s' at %zu, want '%s' at %zu", i, v.msg, v.at, cases[i].msg,
                      cases[i].at);
    }
}
END_TEST

/* Lines end at '\n' (a CR is a character of its line); columns count
 * characters, so a UTF-8 character of 2 to 4 bytes is one column; an offset
 * past the text stops at its end. */
START_TEST(test_json_reader_position_counts_characters)
{
    static const char text[] = "ab\ncd\r\n\xc3\xa9\xf0\x9f\x98\x80x";
    /* offsets: a0 b1 \n2 c3 d4 \r5 \n6 C3 7 A9 8 F0 9 9F 10 98 11 80 12 x13 */
    static const struct {
        size_t at;
        unsigned long line, col;
    } cases[] = {{0, 1, 1},  {1, 1, 2},  {2, 1, 3},  {3, 2, 1},  {4, 2, 2},
                 {5, 2, 3},  {6, 2, 4},  {7, 3, 1},  {9, 3, 2},  {13, 3, 3},
                 {14, 3, 4}, {99, 3, 4}};
    ntsim_json_reader_t r;
    ntsim__json_reader_init(&r, text, sizeof text - 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned long line = 0, col = 0;
        ntsim__json_position(&r, cases[i].at, &line, &col);
        ck_assert_msg(line == cases[i].line && col == cases[i].col, "offset %zu: %lu:%lu",
                      cases[i].at, line, col);
    }
}
END_TEST

Suite *make_json_reader_suite(void)
{
    Suite *s = suite_create("json_reader");
    TCase *tc = tcase_create("json_reader");
    tcase_add_test(tc, test_json_reader_sees_nothing_past_its_length);
    tcase_add_test(tc, test_json_reader_unicode_at_every_boundary);
    tcase_add_test(tc, test_json_reader_string_fills_what_fits);
    tcase_add_test(tc, test_json_reader_number_grammar_and_messages);
    tcase_add_test(tc, test_json_reader_literals);
    tcase_add_test(tc, test_json_reader_depth_counts_nesting_not_siblings);
    tcase_add_test(tc, test_json_reader_shows_a_byte_printable_or_as_hex);
    tcase_add_test(tc, test_json_reader_position_counts_characters);
    suite_add_tcase(s, tc);
    return s;
}
