# conformance/lib/lib.mk: the harness's inputs and shared pieces: reading
# files, the strict YAML reader, vector and scenario files, the facts, the
# report writer, records written in vectors, the decoders, trace input, the
# inspect variables, the ABI registry, the capture fixture. No kind, no testee.
LIB_SRC := $(addprefix conformance/lib/,yaml_reader.c vector_set.c facts.c report.c \
             record_input.c log_expect.c log_catalog.c capture_fixture.c scenario_load.c range_list.c sim_run.c decode.c \
             trace_input.c json_reader.c ntff_wire.c inspect_env.c abi_registry.c key_sort.c)
