/* conformance/fuzz/fuzz_scenario_loader.c: any bytes through the scenario loader. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "scenario_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ntsim_scenario_t sc;
    static char errors[4096];
    ntsim_scenario_load_string("fuzz.yaml", (const char *)data, size, &sc, errors,
                               sizeof errors);
    return 0;
}
