/* conformance/fuzz/fuzz_ntff_decoder.c: any bytes as an .ntff file (protobuf-c unpack,
 * then the text printer over whatever it accepted). */
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
    ntsim_decode_ntff(data, size, NTSIM_READ_MAX_EVENTS, sink, err, sizeof err);
    return 0;
}
