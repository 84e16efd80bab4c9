/* conformance/fuzz/fuzz_vector_loader.c: any bytes through the YAML vector loader. It
 * must never crash, leak or read out of bounds; bad input is an error in
 * the set. */
#include <stddef.h>
#include <stdint.h>

#include "vector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ntsim_vector_set_t set;
    ntsim_vector_set_init(&set);
    ntsim_vector_set_load_string(&set, "fuzz.yaml", (const char *)data, size);
    ntsim_vector_set_free(&set);
    return 0;
}
