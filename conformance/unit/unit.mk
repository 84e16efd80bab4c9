# conformance/unit/unit.mk: the Check suites of make check beside the vector
# suite, mirroring the source tree (engine/, sim/, the harness; include/ as
# C++ clients of the public headers). Only these may include the engine's
# private headers: they are compiled with the engine's stage folders on -I
# and NTSIM_ENGINE_INTERNAL defined.
UNIT_SRC := conformance/unit/alloc_probe.c \
            $(addprefix conformance/unit/engine/,check_event_table.c check_services.c \
              check_intern.c check_input.c check_abuse.c check_abuse_hooks.c check_output.c) \
            $(addprefix conformance/unit/engine/capture/,check_ring.c check_ring_push.c \
              check_ring_pop.c check_ring_evict.c check_ring_owner.c check_capture.c \
              check_capture_start.c check_config.c check_concurrency.c \
              check_concurrency_lifecycle.c check_concurrency_settings.c check_concurrency_fork.c \
              check_grace.c) \
            $(addprefix conformance/unit/engine/convert/,check_json.c check_notify.c check_ntff.c) \
            $(addprefix conformance/unit/engine/timeline/,check_timeline.c check_timeline_flows.c \
              check_clock_align.c check_timeline_lanes.c check_chrome_trace.c check_pftrace.c \
              check_timeline_html.c check_timeline_writers.c check_timeline_runs.c \
              check_output_formats.c check_timeline_devices.c) \
            $(addprefix conformance/unit/engine/read/,check_read.c check_json_reader.c \
              check_read_errors.c check_read_roundtrip.c) \
            $(addprefix conformance/unit/engine/analyze/,check_stats.c check_diff.c) \
            $(addprefix conformance/unit/sim/,check_sim.c check_inspect.c \
              check_scenario_keys.c check_rng.c) \
            $(addprefix conformance/unit/harness/,check_loader.c check_facts.c check_log_contract.c \
              check_testee.c)
# The public headers as C++ (C++11), a libnrt client (C++17), and a C program
# that exits with its capture running (make memcheck runs it under valgrind).
UNIT_CXX_API     := conformance/unit/include/api_test.cc
UNIT_CXX_CLIENT  := conformance/unit/include/client_test.cc
UNIT_EXIT_CLIENT := conformance/unit/include/exit_client.c
