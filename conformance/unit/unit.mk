# conformance/unit/unit.mk: the Check suites of make check beside the vector
# suite, mirroring the source tree (engine/, sim/, the harness; include/ as
# C++ clients of the public headers). Only these may include the engine's
# private headers: they are compiled with the engine's stage folders on -I
# and NTSIM_ENGINE_INTERNAL defined.
UNIT_SRC := conformance/unit/alloc_probe.c \
            $(addprefix conformance/unit/engine/,check_event_table.c check_ring.c check_capture.c \
              check_concurrency.c check_grace.c check_json.c check_convert.c check_abuse.c \
              check_perfetto.c check_services.c check_timeline.c) \
            $(addprefix conformance/unit/sim/,check_sim.c) \
            $(addprefix conformance/unit/harness/,check_loader.c check_facts.c check_inspect.c check_testee.c \
              check_trace_input.c)
# The public headers as C++ (C++11), a libnrt client (C++17), and a C program
# that exits with its capture running (make memcheck runs it under valgrind).
UNIT_CXX_API     := conformance/unit/include/api_test.cc
UNIT_CXX_CLIENT  := conformance/unit/include/client_test.cc
UNIT_EXIT_CLIENT := conformance/unit/include/exit_client.c
