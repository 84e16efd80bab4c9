# conformance/lib/lib.mk: the harness's inputs and shared pieces: vector
# files (through the simulator's strict YAML reader), the facts, the report
# writer, records written in vectors, the ABI registry, the capture fixture,
# the log judge, the catalogue of the engine's messages and what a program
# says about bad usage (the checked output is the engine's:
# engine/output.[ch]). No kind, no testee.
LIB_SRC := $(addprefix conformance/lib/,vector_set.c facts.c report.c \
             record_input.c log_expect.c log_catalog.c capture_fixture.c abi_registry.c \
             usage.c)
