/* conformance/fuzz/fuzz_record_decoder.c: any bytes as a raw 112-byte record dump, both
 * printers (JSON and text). Any field value may appear: types and phases
 * out of range, payloads of any bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ntsim/read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (sink == NULL)
        sink = fopen("/dev/null", "w");
    char err[256];
    ntsim_decode_records(data, size, false, sink, err, sizeof err);
    ntsim_decode_records(data, size, true, sink, err, sizeof err);
    return 0;
}
