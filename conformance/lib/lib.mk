# conformance/lib/lib.mk: the harness's inputs and shared pieces: reading
# files, the strict YAML reader, vector and scenario files, the facts, the
# report writer, records written in vectors, the inspect variables, the ABI
# registry, the capture fixture. No kind, no testee.
LIB_SRC := $(addprefix conformance/lib/,yaml_reader.c vector_set.c facts.c report.c \
             record_input.c capture_fixture.c scenario_load.c range_list.c sim_run.c \
             inspect_env.c abi_registry.c key_sort.c)
