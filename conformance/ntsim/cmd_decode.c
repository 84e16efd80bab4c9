/*
 * conformance/ntsim/cmd_decode.c: `ntsim decode FILE` — print an .ntff file
 * or a raw record dump with the decoders of conformance/decode.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode.h"
#include "input.h"

static const char *const usage_decode =
    "usage: ntsim decode FILE [--ntff | --records] [--text]\n"
    "\n"
    "Prints FILE: an .ntff file (an ntrace_info) in protobuf text format, or a raw dump\n"
    "of 112-byte records as the JSON fetch document (--text: one line per record).\n"
    "A name ending in .ntff is NTFF, anything else a record dump, unless forced. A dump\n"
    "whose size is not a multiple of 112 or a malformed .ntff exits 3.\n";

int ntsim_cmd_decode(int argc, char **argv)
{
    int force = 0; /* 1 ntff, 2 records */
    bool text = false;
    static const struct option opts[] = {{"ntff", no_argument, NULL, 'n'},
                                         {"records", no_argument, NULL, 'r'},
                                         {"text", no_argument, NULL, 't'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': force = 1; break;
        case 'r': force = 2; break;
        case 't': text = true; break;
        case 'h': fputs(usage_decode, stdout); return NTSIM_EXIT_OK;
        default: fputs(usage_decode, stderr); return NTSIM_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        fputs(usage_decode, stderr);
        return NTSIM_EXIT_USAGE;
    }
    const char *path = argv[optind];
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno));
        return NTSIM_EXIT_INPUT;
    }
    char *buf;
    size_t len;
    NRT_STATUS rs = ntsim_read_stream(f, &buf, &len);
    int saved = errno;
    fclose(f);
    if (rs != NRT_SUCCESS) {
        fprintf(stderr, "%s: cannot read: %s\n", path,
                rs == NRT_RESOURCE ? "out of memory" : strerror(saved));
        return rs == NRT_RESOURCE ? NTSIM_EXIT_FAIL : NTSIM_EXIT_INPUT;
    }
    const uint8_t *data = (const uint8_t *)buf;
    size_t plen = strlen(path);
    bool is_ntff = force == 1 ||
                   (force == 0 && plen > 5 && strcmp(path + plen - 5, ".ntff") == 0);
    char err[512] = "";
    NRT_STATUS st = is_ntff ? ntsim_decode_ntff(data, len, stdout, err, sizeof err)
                            : ntsim_decode_records(data, len, text, stdout, err, sizeof err);
    free(buf);
    if (st == NRT_SUCCESS)
        return NTSIM_EXIT_OK;
    fprintf(stderr, "%s: %s\n", path, err);
    return st == NRT_INVALID ? NTSIM_EXIT_INPUT : NTSIM_EXIT_FAIL;
}
