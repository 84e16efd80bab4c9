/*
 * conformance/kinds/kind_decode.c: `decode` vectors — bytes through the two decoders of
 * `ntsim decode`, and the output or the error they must give.
 *
 *   - id: decode.records.truncated
 *     ...common keys...
 *     format: records                  # records (112-byte dump) | ntff
 *     text: false                      # records only: the --text printer
 *     hex: "00 00 ..."                 # the input bytes
 *     output: |                        # valid: exactly what is printed
 *       ...
 *     # invalid: expect: invalid, error: "<the message, exactly>"
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntsim/read.h"
#include "kinds.h"
#include "record_input.h"

typedef struct decode_body {
    bool ntff;
    bool text;
    uint8_t *bytes;
    size_t len;
    char *output;
} decode_body_t;

static const char *const decode_keys[] = {"format", "text", "hex", "output", NULL};

static void decode_free(void *body)
{
    decode_body_t *b = body;
    free(b->bytes);
    free(b->output);
    free(b);
}

static NRT_STATUS decode_parse(ntsim_yparse_t *p, yaml_node_t *node, const char *path,
                               void **out)
{
    decode_body_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NRT_RESOURCE;
    *out = b;
    const char *format, *hex, *output = NULL;
    NRT_STATUS st;
    if ((st = ntsim_yp_str(p, node, path, "format", true, &format)) != NRT_SUCCESS ||
        (st = ntsim_yp_bool(p, node, path, "text", false, &b->text)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "hex", true, &hex)) != NRT_SUCCESS ||
        (st = ntsim_yp_str(p, node, path, "output", false, &output)) != NRT_SUCCESS)
        return st;
    char field[512];
    if (strcmp(format, "ntff") == 0)
        b->ntff = true;
    else if (strcmp(format, "records") != 0) {
        ntsim_yp_path(field, sizeof field, "%s.format", path);
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "format"), field,
                              "expected records or ntff, got '%s'", format);
    }
    size_t digits = 0;
    for (const char *c = hex; *c; c++)
        digits += !(*c == ' ' || *c == '\n' || *c == '\t');
    b->len = digits / 2;
    b->bytes = malloc(b->len ? b->len : 1);
    if (b->bytes == NULL)
        return NRT_RESOURCE;
    ntsim_yp_path(field, sizeof field, "%s.hex", path);
    if (digits % 2 != 0 || (b->len > 0 && !ntsim_vec_parse_hex(hex, b->bytes, b->len)))
        return ntsim_yp_error(p, ntsim_yp_get(p, node, "hex"), field, "expected hex bytes");
    if (output != NULL && (b->output = ntsim_strdup(output)) == NULL)
        return NRT_RESOURCE;
    return NRT_SUCCESS;
}

static void decode_run(const ntsim_vector_t *v, ntsim_report_t *r)
{
    const decode_body_t *b = v->body;
    char *text = NULL;
    size_t text_len = 0;
    FILE *out = open_memstream(&text, &text_len);
    if (out == NULL) {
        ntsim_report_add(r, v->id, "run", "open_memstream failed");
        return;
    }
    char err[512] = "";
    NRT_STATUS st = b->ntff ? ntsim_decode_ntff(b->bytes, b->len, NTSIM_READ_MAX_EVENTS, out, err,
                                                         sizeof err)
                            : ntsim_decode_records(b->bytes, b->len, b->text, out, err,
                                                   sizeof err);
    fclose(out);
    if (v->expect == NTSIM_EXPECT_INVALID) {
        if (st != NRT_INVALID)
            ntsim_report_add(r, v->id, "status", "expected NRT_INVALID, got %d", st);
        if (strcmp(err, v->error) != 0)
            ntsim_report_add(r, v->id, "error", "expected '%s', got '%s'", v->error, err);
        if (text_len != 0)
            ntsim_report_add(r, v->id, "output", "expected no output, got %zu bytes", text_len);
    } else {
        if (st != NRT_SUCCESS)
            ntsim_report_add(r, v->id, "status", "expected NRT_SUCCESS, got %d (%s)", st, err);
        else if (b->output != NULL && strcmp(text, b->output) != 0)
            ntsim_report_diff(r, v->id, "output", b->output, text);
    }
    free(text);
}

/* The keys a vector of this kind is judged by (facts.h: FACT@key). */
static const char *const decode_judged[] = {"output", NULL};

const ntsim_vector_kind_t ntsim_kind_decode = {
    .name = "decode",
    .keys = decode_keys,
    .judged = decode_judged,
    .allows_invalid = true,
    .parse = decode_parse,
    .free_body = decode_free,
    .run = decode_run,
};
