# ntsim: a hardware-simulating test harness and conformance suite for the
# Neuron runtime's sys_trace capture path.
#
#   make run        build ntsim and run the default scenario: out/trace.json,
#                   out/trace.ntff, out/notifications.ntff and a summary
#   make check      build and run the conformance suite (the README's test command),
#                   in process and again through `ntsim testee` (the same counts);
#                   CHECK_ARGS="--kind json" (or --file F, --id ID) runs a subset
#   make layers     prove that include <- engine <- sim <- conformance <- ntsim only
#                   point down (part of make check)
#   make memcheck   the same suite under valgrind memcheck: 0 errors, 0 leaks
#   make asan       the same suite built with AddressSanitizer + UBSan
#   make tsan       the same suite built with ThreadSanitizer
#   make install    headers, libntsim.a, libntsim.so and libntsim.pc under
#                   $(DESTDIR)$(PREFIX) (default /usr/local); make uninstall
#   make install-check  install into a scratch prefix and link a program
#   make bench      the capture benchmark beside LTTng-UST and memcpy (not a test);
#                   BENCH_ARGS="--rounds R --events N"; make bench-quick for CI
#   make fuzz       libFuzzer over the loaders and decoders (FUZZ_SECONDS=N each)
#   make coverage   line and branch coverage of engine/ (gcovr)
#   make mutation   prove a changed header offset fails both the static assert
#                   and the layout vectors
#   make mutants    mutation score of engine/*.c: every mutant built and the suite
#                   run on it; build/mutants/report.txt (MUTANT_JOBS=2,
#                   MUTANT_FILES="json.c ...", MUTANT_SAMPLE=N MUTANT_SEED=S)
#   make add-type-check  prove vectors/README.md's checklist for a new event type
#   make interop    the timelines read by tools nobody here wrote: protoc decodes
#                   trace.pftrace, Chrome DevTools' trace model (npm, into build/)
#                   reads trace.chrome.json; their counts must match the JSON's
#   make view-check out/timeline.html rendered by headless chromium: a PNG, and
#                   every lane and span found in the DOM
#   make model      model-check the ring protocol with Spin, and prove that each
#                   deliberately broken variant of it is caught
#   make clean
#
# Missing dependencies are installed on Debian (apt-get, as root); elsewhere
# the build stops and names the packages to install.

CC      ?= cc
CXX     ?= c++
BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
           -Wpointer-arith -Wformat=2 -Wundef -Wvla -pedantic
OPT     ?= -O2 -g
DEFS    := -D_POSIX_C_SOURCE=200809L
# Layers only point down: include <- engine <- sim <- conformance <- the ntsim
# command (conformance/ntsim). Each layer is compiled with the -I flags of the
# layers below it and its own, never those above, so an include that points up
# fails to build (make layers proves it with a probe per layer).
INC_ENGINE = -Iinclude -Iengine -I$(BUILD)/gen
INC_SIM    = -Iinclude -Iengine -Isim
INC_CONF   = -Iinclude -Iengine -Isim -Iconformance -I$(BUILD)/gen -I$(BUILD)/gen-conf
INC_CMD    = $(INC_CONF) -Iconformance/ntsim
EXTRA_CFLAGS  ?=
EXTRA_LDFLAGS ?=

# Resolved when a recipe runs (after the deps stamp), not when make parses.
PKG_CFLAGS = $(shell pkg-config --cflags check yaml-0.1 jansson libprotobuf-c)
PKG_LIBS   = $(shell pkg-config --libs check yaml-0.1 jansson libprotobuf-c)
PKG_LIBS_ENGINE = $(shell pkg-config --libs libprotobuf-c)

CFLAGS_BASE = $(CSTD) $(WARN) $(OPT) $(DEFS) $(PKG_CFLAGS) -MMD -MP $(EXTRA_CFLAGS)

APT_PACKAGES := check libyaml-dev libprotobuf-c-dev protobuf-c-compiler protobuf-compiler \
                libjansson-dev valgrind pkg-config g++ jq
PKG_MODULES  := check yaml-0.1 libprotobuf-c jansson

ENGINE_SRC := engine/alloc.c engine/event_table.c engine/ring.c engine/grace.c engine/log.c engine/capture.c \
              engine/config.c engine/data_view.c engine/json.c engine/intern.c engine/ntff.c \
              engine/notify.c engine/status.c engine/timeline.c engine/timeline_lanes.c engine/clock_align.c \
              engine/pftrace.c engine/chrome_trace.c engine/timeline_html.c
# The simulated device (no YAML, no vectors).
SIM_SRC    := sim/scheduler.c sim/clock.c sim/scenario_default.c sim/workload.c sim/run.c \
              sim/outputs.c sim/stress.c
# The harness library: inputs (the strict YAML reader, vector and scenario
# files, the decoders), the eleven vector kinds, the report writer and the
# testee protocol (the runner's side, the transport, the built-in testee).
# Linked by the suite and by the ntsim command.
VEC_SRC    := conformance/input.c conformance/yaml_reader.c conformance/vector_set.c conformance/facts.c \
              conformance/report.c conformance/kinds.c conformance/abi_registry.c \
              conformance/record_input.c conformance/capture_fixture.c \
              conformance/scenario_load.c conformance/range_list.c conformance/sim_run.c \
              conformance/decode.c conformance/trace_input.c \
              conformance/kind_layout.c conformance/kind_enum.c conformance/kind_event_type.c \
              conformance/kind_record.c conformance/record_judge.c conformance/kind_json.c \
              conformance/kind_ntff.c conformance/kind_notify.c conformance/kind_scenario.c \
              conformance/kind_decode.c conformance/kind_api.c conformance/api_args.c \
              conformance/api_run.c \
              conformance/testee_msg.c conformance/testee_client.c conformance/testee_pipe.c \
              conformance/testee_engine.c conformance/testee_abi.c conformance/testee_capture.c \
              conformance/testee_convert.c conformance/testee_api.c \
              conformance/inspect_env.c conformance/kind_inspect.c
# The Check suite (make check): check_main.c registers the suites;
# check_runner.c owns options, filters, expected failures; check_summary.c tallies.
CONF_SRC   := conformance/check_main.c conformance/check_runner.c conformance/check_vectors.c \
              conformance/check_loader.c conformance/check_event_table.c conformance/check_ring.c \
              conformance/check_capture.c conformance/check_concurrency.c conformance/check_grace.c \
              conformance/check_json.c conformance/check_convert.c conformance/check_sim.c \
              conformance/check_facts.c conformance/check_abuse.c conformance/check_perfetto.c \
              conformance/check_inspect.c conformance/check_testee.c conformance/check_summary.c \
              conformance/check_services.c conformance/alloc_probe.c conformance/check_timeline.c
# The ntsim command, the top layer: main.c dispatches, one file per subcommand.
CMD_SRC    := conformance/ntsim/main.c conformance/ntsim/cmd_run.c \
              conformance/ntsim/cmd_record.c conformance/ntsim/cmd_replay.c \
              conformance/ntsim/cmd_decode.c conformance/ntsim/io.c conformance/ntsim/summary.c \
              conformance/ntsim/timelines.c conformance/ntsim/cmd_export.c \
              conformance/ntsim/cmd_view.c conformance/ntsim/inspect.c conformance/ntsim/cmd_testee.c \
              conformance/ntsim/testee_faults.c

# protoc-c output: generated at build time from engine/ntff.proto and
# engine/perfetto_trace.proto (the .pftrace subset).
PROTOS     := ntff perfetto_trace
GEN_SRC    := $(PROTOS:%=$(BUILD)/gen/%.pb-c.c)
GEN_HDR    := $(PROTOS:%=$(BUILD)/gen/%.pb-c.h)
# The testee protocol (conformance/testee.proto) is the harness's: generated
# into its own directory, which only conformance/ and above have on -I.
CONF_PROTOS := testee
CONF_GEN_SRC := $(CONF_PROTOS:%=$(BUILD)/gen-conf/%.pb-c.c)
CONF_GEN_HDR := $(CONF_PROTOS:%=$(BUILD)/gen-conf/%.pb-c.h)
CONF_GEN_OBJ := $(CONF_PROTOS:%=$(BUILD)/obj/gen-conf/%.pb-c.o)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/obj/%.o) $(PROTOS:%=$(BUILD)/obj/gen/%.pb-c.o)
ENGINE_PIC := $(ENGINE_SRC:%.c=$(BUILD)/pic/%.o) $(PROTOS:%=$(BUILD)/pic/gen/%.pb-c.o)
SONAME     := libntsim.so.0
SHLIB      := $(BUILD)/$(SONAME)
PCFILE     := $(BUILD)/libntsim.pc
CXX_TEST   := $(BUILD)/cxx_api_test
CLIENT_TEST := $(BUILD)/cxx_client_test
BENCH_BIN  := $(BUILD)/bench_capture
BENCH_CONV := $(BUILD)/bench_convert
CONF_OBJ   := $(CONF_SRC:%.c=$(BUILD)/obj/%.o)
VEC_OBJ    := $(VEC_SRC:%.c=$(BUILD)/obj/%.o) $(CONF_GEN_OBJ)
SIM_OBJ    := $(SIM_SRC:%.c=$(BUILD)/obj/%.o)
CMD_OBJ    := $(CMD_SRC:%.c=$(BUILD)/obj/%.o)
NTSIM_BIN  := $(BUILD)/ntsim
LIB        := $(BUILD)/libntsim.a
CHECK_BIN  := $(BUILD)/check_ntsim
DEPS_STAMP := $(BUILD)/.deps-ok

# --fair-sched=yes: valgrind runs one thread at a time, and by default the
# thread that gives up its lock (a PAUSE, a yield) usually takes it straight
# back, so a spinning emitter starved the thread it waited for: the
# concurrency suite took 14-38 minutes here, 13 seconds with a fair lock.
VALGRIND := valgrind --fair-sched=yes --quiet --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect,possible \
            --show-leak-kinds=definite,indirect,possible

.PHONY: all run check layers memcheck asan tsan bench bench-quick bench-sim fuzz coverage mutation mutants model add-type-check install uninstall install-check deps clean \
        interop view-check trace-engine

all: $(LIB) $(SHLIB) $(PCFILE) $(CHECK_BIN) $(NTSIM_BIN) $(CXX_TEST) $(CLIENT_TEST)

# --- dependencies -------------------------------------------------------------

deps: $(DEPS_STAMP)

$(DEPS_STAMP):
	@mkdir -p $(@D)
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $(PKG_MODULES) \
	    && command -v valgrind >/dev/null 2>&1 && command -v protoc-c >/dev/null 2>&1 \
	    && command -v $(CXX) >/dev/null 2>&1 && command -v protoc >/dev/null 2>&1 \
	    && command -v jq >/dev/null 2>&1; then \
	    :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "ntsim: installing missing dependencies: $(APT_PACKAGES)"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -q $(APT_PACKAGES) \
	      || { apt-get update -q && apt-get install -y -q $(APT_PACKAGES); } \
	      || { echo "ntsim: apt-get could not install: $(APT_PACKAGES)" >&2; exit 1; }; \
	else \
	    echo "ntsim: missing dependencies; install: $(APT_PACKAGES)" >&2; exit 1; \
	fi
	@pkg-config --exists $(PKG_MODULES) || { echo "ntsim: pkg-config cannot find $(PKG_MODULES)" >&2; exit 1; }
	@touch $@

# --- build --------------------------------------------------------------------

# One rule per layer, each with only its own -I flags (see INC_*). GNU make
# picks the pattern with the shortest stem, so conformance/ntsim/ gets its own.
$(BUILD)/obj/engine/%.o: engine/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(INC_ENGINE) -c $< -o $@
$(BUILD)/obj/sim/%.o: sim/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(INC_SIM) -c $< -o $@
$(BUILD)/obj/conformance/%.o: conformance/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(INC_CONF) -c $< -o $@
$(BUILD)/obj/conformance/ntsim/%.o: conformance/ntsim/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(INC_CMD) -c $< -o $@

# A pattern rule with two targets: one protoc-c run makes both files.
$(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h: engine/%.proto | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/gen
	protoc-c --c_out=$(BUILD)/gen -Iengine $<

# The same rule for the harness's protocol, into its own directory.
$(BUILD)/gen-conf/%.pb-c.c $(BUILD)/gen-conf/%.pb-c.h: conformance/%.proto | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/gen-conf
	protoc-c --c_out=$(BUILD)/gen-conf -Iconformance $<

# Generated code is protoc-c's, compiled without our -pedantic/-W extras.
$(BUILD)/obj/gen/%.pb-c.o: $(BUILD)/gen/%.pb-c.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g $(PKG_CFLAGS) -I$(BUILD)/gen $(EXTRA_CFLAGS) -c $< -o $@
$(BUILD)/obj/gen-conf/%.pb-c.o: $(BUILD)/gen-conf/%.pb-c.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g $(PKG_CFLAGS) -I$(BUILD)/gen-conf $(EXTRA_CFLAGS) -c $< -o $@
$(BUILD)/pic/gen/%.pb-c.o: $(BUILD)/gen/%.pb-c.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g -fPIC -fvisibility=hidden $(PKG_CFLAGS) -I$(BUILD)/gen $(EXTRA_CFLAGS) -c $< -o $@

# The engine and the harness may include the generated header (sim/ may not).
$(ENGINE_SRC:%.c=$(BUILD)/obj/%.o) $(ENGINE_SRC:%.c=$(BUILD)/pic/%.o) $(CONF_OBJ) $(VEC_OBJ) \
    $(CMD_OBJ): | $(GEN_HDR)
$(CONF_OBJ) $(VEC_OBJ) $(CMD_OBJ): | $(CONF_GEN_HDR)

# The shared library exports exactly the declarations marked NTSIM_EXPORT
# (include/nrt/nrt_status.h); conformance/exported_symbols.txt lists them.
$(BUILD)/pic/engine/%.o: engine/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(INC_ENGINE) -fPIC -fvisibility=hidden -c $< -o $@

$(LIB): $(ENGINE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(SHLIB): $(ENGINE_PIC)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ -pthread $(PKG_LIBS_ENGINE) $(EXTRA_LDFLAGS)
	ln -sf $(SONAME) $(BUILD)/libntsim.so

$(PCFILE): libntsim.pc.in Makefile
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' libntsim.pc.in > $@

# The public headers must build as C++ and the API must link from C++.
$(CXX_TEST): conformance/cxx/api_test.cc $(LIB) include/nrt/*.h include/ntsim/*.h | $(DEPS_STAMP)
	$(CXX) -std=c++11 -Wall -Wextra -Werror -pedantic -Iinclude $(EXTRA_CFLAGS) \
	    -o $@ conformance/cxx/api_test.cc $(LIB) $(PKG_LIBS_ENGINE) -pthread $(EXTRA_LDFLAGS)

# A libnrt trace client, written as libnrt's users write one (<nrt/nrt.h> and
# <nrt/nrt_sys_trace.h>, C++17), compiles unchanged and links against the
# shared library, so every function it calls must be exported.
$(CLIENT_TEST): conformance/cxx/client_test.cc $(SHLIB) include/nrt/*.h include/ntsim/*.h | $(DEPS_STAMP)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude $(EXTRA_CFLAGS) \
	    -o $@ conformance/cxx/client_test.cc $(SHLIB) -Wl,-rpath,'$$ORIGIN' $(EXTRA_LDFLAGS)

# The suite links the harness library, the simulator and the engine; never the
# command's objects.
$(CHECK_BIN): $(CONF_OBJ) $(VEC_OBJ) $(SIM_OBJ) $(LIB)
	$(CC) $(CFLAGS_BASE) -o $@ $(CONF_OBJ) $(VEC_OBJ) $(SIM_OBJ) $(LIB) $(PKG_LIBS) $(EXTRA_LDFLAGS)

# The command links no test framework.
NTSIM_LIBS = $(shell pkg-config --libs yaml-0.1 jansson libprotobuf-c) -pthread
$(NTSIM_BIN): $(CMD_OBJ) $(VEC_OBJ) $(SIM_OBJ) $(LIB)
	$(CC) $(CFLAGS_BASE) -o $@ $^ $(NTSIM_LIBS) $(EXTRA_LDFLAGS)

# --- the simulator ----------------------------------------------------------------

SCENARIO ?=
OUT ?= out
# SCENARIO is a file, or the name of one in sim/scenarios (make run SCENARIO=trn2_48xl).
SCENARIO_FILE = $(if $(SCENARIO),$(if $(findstring /,$(SCENARIO))$(filter %.yaml,$(SCENARIO)),$(SCENARIO),sim/scenarios/$(SCENARIO).yaml))
run: $(NTSIM_BIN)
	./$(NTSIM_BIN) run $(SCENARIO_FILE) -o $(OUT)
	@echo "make run: open $(OUT)/timeline.html in a browser; $(OUT)/trace.pftrace in ui.perfetto.dev"

# --- tests --------------------------------------------------------------------

# Check writes TAP and JUnit-style XML logs for CI beside the build.
CHECK_LOGS = CK_TAP_LOG_FILE_NAME=$(BUILD)/conformance.tap CK_XML_LOG_FILE_NAME=$(BUILD)/conformance.xml
CHECK_ARGS ?=

# The in-process run's output is kept (build/conformance.log) so that
# testee_check.sh can compare it with the same suite through `ntsim testee`.
check: $(CHECK_BIN) $(CXX_TEST) $(CLIENT_TEST) $(NTSIM_BIN) layers
	{ $(CHECK_LOGS) ./$(CHECK_BIN) --ntsim ./$(NTSIM_BIN) $(CHECK_ARGS); echo $$? >$(BUILD)/conformance.rc; } \
	    | tee $(BUILD)/conformance.log; exit $$(cat $(BUILD)/conformance.rc)
	sh conformance/testee_check.sh ./$(CHECK_BIN) ./$(NTSIM_BIN) $(BUILD)/conformance.log $(CHECK_ARGS)
	sh conformance/cli_failures.sh ./$(CHECK_BIN)
	./$(CXX_TEST)
	./$(CLIENT_TEST)
	sh conformance/cli_ntsim.sh ./$(NTSIM_BIN)
	sh conformance/hostile.sh ./$(NTSIM_BIN) ./$(CHECK_BIN)

# The layers only point down: probes compiled with each layer's own -I flags.
layers: $(DEPS_STAMP) | $(GEN_HDR) $(CONF_GEN_HDR)
	INC_ENGINE="$(INC_ENGINE)" INC_SIM="$(INC_SIM)" INC_CONF="$(INC_CONF)" INC_CMD="$(INC_CMD)" \
	    sh conformance/layers.sh "$(CC)"

memcheck: $(CHECK_BIN) $(NTSIM_BIN)
	CK_FORK=no $(VALGRIND) ./$(CHECK_BIN) --ntsim ./$(NTSIM_BIN)
	$(VALGRIND) ./$(CHECK_BIN) --testee '$(VALGRIND) ./$(NTSIM_BIN) testee' --testee-timeout 120 \
	    --xfail conformance/expected_failures.txt
	$(VALGRIND) ./$(NTSIM_BIN) replay --quiet vectors/*.yaml
	$(VALGRIND) ./$(NTSIM_BIN) run -q -o $(BUILD)/memcheck-out
	NEURON_RT_INSPECT_ENABLE=1 NEURON_RT_INSPECT_OUTPUT_DIR=$(BUILD)/memcheck-inspect \
	    NEURON_RT_INSPECT_EVENT_FILTER_TYPE=hardware,^hw_notify NEURON_RT_INSPECT_EVENT_FILTER_NC=1 \
	    $(VALGRIND) ./$(NTSIM_BIN) run -q -o $(BUILD)/memcheck-out
	NEURON_RT_INSPECT_EVENT_FILTER_NC=4-2,abc NEURON_RT_INSPECT_ENABLE=yes \
	    $(VALGRIND) ./$(NTSIM_BIN) run -q -o $(BUILD)/memcheck-out 2>/dev/null; test $$? -eq 2

ASAN_CFLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_LDFLAGS := -fsanitize=address,undefined
ASAN_ENV     := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
asan:
	$(MAKE) BUILD=$(BUILD)/asan OPT="-O1 -g" EXTRA_CFLAGS="$(ASAN_CFLAGS)" \
	    EXTRA_LDFLAGS="$(ASAN_LDFLAGS)" all
	$(ASAN_ENV) ./$(BUILD)/asan/check_ntsim --ntsim ./$(BUILD)/asan/ntsim
	$(ASAN_ENV) ./$(BUILD)/asan/check_ntsim --testee './$(BUILD)/asan/ntsim testee' \
	    --xfail conformance/expected_failures.txt

# ThreadSanitizer over the whole suite in one process (the concurrency suite
# is the point; the rest costs little). TSan must see every thread: no fork.
# -fno-builtin-memset: GCC expands a memset of a small odd size (9 bytes)
# inline after its TSan pass, so TSan never sees those stores; as calls they
# go through TSan's memset interceptor (a 9-byte memset that reached a ring
# slot's stamp was a race make tsan could not report).
TSAN_CFLAGS  := -fsanitize=thread -fno-omit-frame-pointer -fno-builtin-memset
TSAN_LDFLAGS := -fsanitize=thread
TSAN_ENV     := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
tsan:
	$(MAKE) BUILD=$(BUILD)/tsan OPT="-O1 -g" EXTRA_CFLAGS="$(TSAN_CFLAGS)" \
	    EXTRA_LDFLAGS="$(TSAN_LDFLAGS)" all
	CK_FORK=no $(TSAN_ENV) ./$(BUILD)/tsan/check_ntsim --ntsim ./$(BUILD)/tsan/ntsim
	$(TSAN_ENV) ./$(BUILD)/tsan/check_ntsim --testee './$(BUILD)/tsan/ntsim testee' \
	    --xfail conformance/expected_failures.txt

# --- the timelines read by other tools (D-TIMELINE) --------------------------------
#
# make interop: protoc (Debian's protobuf-compiler) decodes trace.pftrace
# against engine/perfetto_trace.proto, and Chrome DevTools' own trace model,
# npm's @paulirish/trace_engine (pinned in conformance/interop/package.json,
# installed with npm into build/trace-engine), reads trace.chrome.json; both
# must count what jq counts in the run's trace.json. make view-check: Debian's
# chromium renders out/timeline.html headless. Node, npm and chromium are
# installed with apt-get when missing.

TE_DIR   := $(BUILD)/trace-engine
TE_PKG   := $(TE_DIR)/node_modules/@paulirish/trace_engine
NODE_APT := nodejs npm

$(BUILD)/.node-ok: | $(DEPS_STAMP)
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
	    if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	        echo "ntsim: installing $(NODE_APT)"; \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(NODE_APT) \
	          || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(NODE_APT); }; \
	    else echo "ntsim: make interop needs node and npm; install: $(NODE_APT)" >&2; exit 1; fi; \
	fi
	@touch $@

$(TE_PKG)/package.json: conformance/interop/package.json | $(BUILD)/.node-ok
	@mkdir -p $(TE_DIR)
	cp conformance/interop/package.json $(TE_DIR)/package.json
	cd $(TE_DIR) && npm install --no-audit --no-fund --loglevel=error
	@test -f $@ && touch $@

trace-engine: $(TE_PKG)/package.json

interop: $(NTSIM_BIN) $(TE_PKG)/package.json
	sh conformance/interop.sh ./$(NTSIM_BIN) $(abspath $(TE_PKG))

$(BUILD)/.chromium-ok: | $(DEPS_STAMP)
	@if ! command -v chromium >/dev/null 2>&1; then \
	    if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	        echo "ntsim: installing chromium"; \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
	          || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }; \
	    else echo "ntsim: make view-check needs chromium; install: chromium" >&2; exit 1; fi; \
	fi
	@touch $@

view-check: $(NTSIM_BIN) | $(BUILD)/.chromium-ok
	sh conformance/view_check.sh ./$(NTSIM_BIN)

# --- coverage (gcov + gcovr) --------------------------------------------------------
#
# The suite and the ntsim CLI tests built with --coverage; gcovr reports line
# and branch coverage of engine/ (the capture engine and the converters).

COV_BUILD := $(BUILD)/coverage
coverage: | $(DEPS_STAMP)
	@command -v gcovr >/dev/null 2>&1 || { \
	    if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcovr; \
	    else echo "ntsim: coverage needs gcovr" >&2; exit 1; fi; }
	rm -rf $(COV_BUILD)
	$(MAKE) BUILD=$(COV_BUILD) OPT="-O0 -g" EXTRA_CFLAGS="--coverage" \
	    EXTRA_LDFLAGS="--coverage" $(COV_BUILD)/check_ntsim $(COV_BUILD)/ntsim
	./$(COV_BUILD)/check_ntsim --ntsim ./$(COV_BUILD)/ntsim > $(COV_BUILD)/check.log
	sh conformance/cli_ntsim.sh ./$(COV_BUILD)/ntsim > $(COV_BUILD)/cli.log
	gcovr --root . --filter 'engine/' --object-directory $(COV_BUILD) \
	    --print-summary --txt $(COV_BUILD)/engine-coverage.txt --branches > /dev/null
	gcovr --root . --filter 'engine/' --object-directory $(COV_BUILD) --print-summary \
	    | tail -n +1
	@echo "per-file report: $(COV_BUILD)/engine-coverage.txt"

# --- fuzzing (libFuzzer, clang) ------------------------------------------------------
#
# make fuzz FUZZ_SECONDS=N runs each target for N seconds over a corpus seeded
# from vectors/, sim/scenarios/ and a default run's outputs. A crash leaves its
# input in build/fuzz/crash-*; add it as a regression vector and fix the bug.

FUZZ_SECONDS ?= 60
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_TARGETS := vector_loader scenario_loader record_decoder ntff_decoder trace_input
FUZZ_CFLAGS := -std=c11 -g -O1 $(DEFS) $(INC_CONF) -fsanitize=fuzzer,address,undefined \
               -fno-sanitize-recover=undefined
FUZZ_SRC := $(ENGINE_SRC) $(VEC_SRC) $(SIM_SRC)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

FUZZ_APT := clang libclang-rt-dev
FUZZ_STAMP := $(FUZZ_DIR)/.fuzz-deps-ok

# libFuzzer lives in clang's runtime package; probe by linking an empty target.
$(FUZZ_STAMP): | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' \
	    > $(FUZZ_DIR)/probe.c
	@if ! clang -fsanitize=fuzzer -o $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c >/dev/null 2>&1; then \
	    if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	        echo "ntsim: installing libFuzzer: $(FUZZ_APT)"; \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(FUZZ_APT) \
	          || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(FUZZ_APT); }; \
	        clang -fsanitize=fuzzer -o $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c \
	          || { echo "ntsim: clang still cannot link -fsanitize=fuzzer" >&2; exit 1; }; \
	    else echo "ntsim: make fuzz needs clang with libFuzzer; install: $(FUZZ_APT)" >&2; exit 1; fi; \
	fi
	@rm -f $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c
	@touch $@

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_SRC) $(GEN_SRC) $(CONF_GEN_SRC) | $(FUZZ_STAMP)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) $$(pkg-config --cflags yaml-0.1 jansson libprotobuf-c) -o $@ $< \
	    $(FUZZ_SRC) $(GEN_SRC) $(CONF_GEN_SRC) $$(pkg-config --libs yaml-0.1 jansson libprotobuf-c) -pthread

$(FUZZ_DIR)/seeds.stamp: $(NTSIM_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus-vector_loader $(FUZZ_DIR)/corpus-scenario_loader \
	    $(FUZZ_DIR)/corpus-record_decoder $(FUZZ_DIR)/corpus-ntff_decoder \
	    $(FUZZ_DIR)/corpus-trace_input
	cp vectors/*.yaml conformance/testdata/bad/*.yaml conformance/testdata/hostile/*.yaml \
	    $(FUZZ_DIR)/corpus-vector_loader/
	cp sim/scenarios/*.yaml conformance/testdata/scenarios/*.yaml \
	    conformance/testdata/hostile/*.yaml $(FUZZ_DIR)/corpus-scenario_loader/
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "["; print "" }' \
	    >$(FUZZ_DIR)/corpus-vector_loader/deep.yaml
	awk 'BEGIN { for (i = 0; i < 1000; i++) printf "\n%c", 0 }' \
	    >$(FUZZ_DIR)/corpus-ntff_decoder/empty_events.ntff
	./$(NTSIM_BIN) run -q -o $(FUZZ_DIR)/seed-run --records $(FUZZ_DIR)/seed-run/trace.records \
	    2>/dev/null
	head -c 1120 $(FUZZ_DIR)/seed-run/trace.records > $(FUZZ_DIR)/corpus-record_decoder/ten.records
	cp $(FUZZ_DIR)/seed-run/*.ntff $(FUZZ_DIR)/corpus-ntff_decoder/
	# trace_input's first byte picks the format: 0 JSON, 1 NTFF, 2 records.
	{ printf '\000'; head -c 20000 $(FUZZ_DIR)/seed-run/trace.json; } \
	    >$(FUZZ_DIR)/corpus-trace_input/doc.json
	{ printf '\001'; cat $(FUZZ_DIR)/seed-run/trace.ntff; } >$(FUZZ_DIR)/corpus-trace_input/trace.ntff
	{ printf '\002'; head -c 11200 $(FUZZ_DIR)/seed-run/trace.records; } \
	    >$(FUZZ_DIR)/corpus-trace_input/hundred.records
	# and the hostile corpus's timeline inputs (each found by this target).
	for f in conformance/testdata/hostile/*.ntff; do { printf '\001'; cat "$$f"; } \
	    >$(FUZZ_DIR)/corpus-trace_input/hostile-$$(basename "$$f"); done
	for f in conformance/testdata/hostile/*.records; do { printf '\002'; cat "$$f"; } \
	    >$(FUZZ_DIR)/corpus-trace_input/hostile-$$(basename "$$f"); done
	@touch $@

fuzz: $(FUZZ_BINS) $(FUZZ_DIR)/seeds.stamp
	@for t in $(FUZZ_TARGETS); do \
	    echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	    ./$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	        -artifact_prefix=$(FUZZ_DIR)/crash-$$t- $(FUZZ_DIR)/corpus-$$t || exit 1; \
	done

mutation: $(DEPS_STAMP)
	sh conformance/mutation.sh "$(CC)"

# The ring protocol (engine/ring.c) under x86-TSO, exhaustively, in Spin
# (conformance/model/ring.pml), then its mutants, each of which must fail.
model:
	@command -v spin >/dev/null 2>&1 || { \
	    if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -q spin \
	          || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q spin; }; \
	    else echo "ntsim: make model needs Spin; install: spin" >&2; exit 1; fi; }
	sh conformance/model.sh $(BUILD)

# The mutation score (conformance/mutants.pl, its header says how): mutants of
# engine/*.c, each built by recompiling one object and relinking the suite in
# a per-job copy of the tree under $(BUILD)/mutants, then run with a timeout;
# a survivor is built and run again with ASan + UBSan + LeakSanitizer, as
# make asan runs the suite, and one the equivalents file does not explain
# with TSan too, as make tsan does, over the concurrency suite (the only one
# that starts threads) (MUTANT_SANITIZERS= skips those stages).
# conformance/equivalent_mutants.txt lists the survivors proven equivalent.
MUTANT_JOBS ?= 2
MUTANT_FILES ?=
MUTANT_SAMPLE ?=
MUTANT_SEED ?= 1
MUTANT_TIMEOUT ?=
MUTANT_MIN_SCORE ?= 95
MUTANT_RETRY ?=
MUTANT_LIST ?=
MUTANT_SANITIZERS ?= asan tsan
SAN_CFLAGS_BASE = $(CSTD) $(WARN) -O1 -g $(DEFS) $(PKG_CFLAGS) -MMD -MP
mutants: $(CHECK_BIN) $(NTSIM_BIN) | $(GEN_HDR)
	$(if $(filter asan,$(MUTANT_SANITIZERS)),$(MAKE) BUILD=$(BUILD)/asan OPT="-O1 -g" \
	    EXTRA_CFLAGS="$(ASAN_CFLAGS)" EXTRA_LDFLAGS="$(ASAN_LDFLAGS)" $(BUILD)/asan/check_ntsim \
	    $(BUILD)/asan/ntsim)
	$(if $(filter tsan,$(MUTANT_SANITIZERS)),$(MAKE) BUILD=$(BUILD)/tsan OPT="-O1 -g" \
	    EXTRA_CFLAGS="$(TSAN_CFLAGS)" EXTRA_LDFLAGS="$(TSAN_LDFLAGS)" $(BUILD)/tsan/check_ntsim \
	    $(BUILD)/tsan/ntsim)
	MUTANT_SANITIZERS="$(MUTANT_SANITIZERS)" \
	MUTANT_ASAN_BUILD="$(BUILD)/asan" MUTANT_ASAN_CFLAGS="$(SAN_CFLAGS_BASE) $(ASAN_CFLAGS)" \
	MUTANT_ASAN_LIBS="$(PKG_LIBS) $(ASAN_LDFLAGS)" MUTANT_ASAN_ENV="$(ASAN_ENV)" \
	MUTANT_TSAN_BUILD="$(BUILD)/tsan" MUTANT_TSAN_CFLAGS="$(SAN_CFLAGS_BASE) $(TSAN_CFLAGS)" \
	MUTANT_TSAN_LIBS="$(PKG_LIBS) $(TSAN_LDFLAGS)" MUTANT_TSAN_ENV="$(TSAN_ENV) CK_RUN_SUITE=concurrency" \
	MUTANT_BUILD="$(BUILD)" MUTANT_CC="$(CC)" MUTANT_CFLAGS="$(CFLAGS_BASE)" \
	MUTANT_INC="$(INC_ENGINE)" MUTANT_LIBS="$(PKG_LIBS) $(EXTRA_LDFLAGS)" \
	MUTANT_LINK_OBJS="$(CONF_OBJ) $(VEC_OBJ) $(SIM_OBJ)" MUTANT_ENGINE_OBJS="$(ENGINE_OBJ)" \
	MUTANT_NTSIM_OBJS="$(CMD_OBJ) $(VEC_OBJ) $(SIM_OBJ)" \
	MUTANT_JOBS="$(MUTANT_JOBS)" MUTANT_FILES="$(MUTANT_FILES)" MUTANT_SAMPLE="$(MUTANT_SAMPLE)" \
	MUTANT_SEED="$(MUTANT_SEED)" MUTANT_TIMEOUT="$(MUTANT_TIMEOUT)" \
	MUTANT_MIN_SCORE="$(MUTANT_MIN_SCORE)" MUTANT_RETRY="$(MUTANT_RETRY)" MUTANT_LIST="$(MUTANT_LIST)" \
	    perl conformance/mutants.pl

# vectors/README.md's checklist for adding an event type, proven on a scratch
# copy: a throwaway 47th type with the listed edits passes the whole suite,
# and leaving out any one edit fails the build or the suite.
add-type-check: $(DEPS_STAMP)
	sh conformance/add_type.sh "$(CC)"

# --- benchmarks (not tests) ------------------------------------------------------

BENCH_APT := liblttng-ust-dev lttng-tools libprotobuf-dev
BENCH_STAMP := $(BUILD)/.bench-deps-ok

$(BENCH_STAMP): | $(DEPS_STAMP)
	@if ! pkg-config --exists lttng-ust protobuf || ! command -v lttng >/dev/null 2>&1; then \
	    if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	        echo "ntsim: installing benchmark peers: $(BENCH_APT)"; \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(BENCH_APT) \
	          || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(BENCH_APT); }; \
	    else echo "ntsim: benchmark peers missing; install: $(BENCH_APT)" >&2; exit 1; fi; \
	fi
	@touch $@

# The LTTng-UST provider is compiled with the library's own expectations
# (gnu11, no -pedantic); the benchmark itself with the project's flags.
$(BUILD)/obj/bench/lttng_tp.o $(BUILD)/obj/bench/lttng_peer.o: $(BUILD)/obj/bench/%.o: bench/%.c bench/lttng_tp.h | $(BENCH_STAMP)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -I. -Wall -Werror -c $< -o $@

# The capture benchmark itself, with the project's flags (it had no rule).
$(BUILD)/obj/bench/bench_capture.o: bench/bench_capture.c bench/lttng_tp.h | $(BENCH_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g $(DEFS) -Iinclude -I. -c $< -o $@

$(BENCH_BIN): $(BUILD)/obj/bench/bench_capture.o $(BUILD)/obj/bench/lttng_tp.o \
              $(BUILD)/obj/bench/lttng_peer.o $(LIB) | $(BENCH_STAMP)
	$(CC) -o $@ $^ $$(pkg-config --libs lttng-ust) $(PKG_LIBS_ENGINE) -ldl -pthread

# The C++ libprotobuf peer: protoc's C++ output for the same ntff.proto.
$(BUILD)/gen-cpp/ntff.pb.cc: engine/ntff.proto | $(BENCH_STAMP)
	@mkdir -p $(@D)
	protoc --cpp_out=$(BUILD)/gen-cpp -Iengine engine/ntff.proto

$(BENCH_CONV): bench/bench_convert.c bench/ntff_cpp_peer.cc $(BUILD)/gen-cpp/ntff.pb.cc $(LIB) \
               | $(BENCH_STAMP)
	$(CC) $(CSTD) $(WARN) -O2 -g $(DEFS) -Iinclude $$(pkg-config --cflags jansson) \
	    -c bench/bench_convert.c -o $(BUILD)/obj/bench/bench_convert.o
	$(CXX) -std=c++17 -O2 -g -Iinclude -I$(BUILD)/gen-cpp -c bench/ntff_cpp_peer.cc \
	    -o $(BUILD)/obj/bench/ntff_cpp_peer.o
	$(CXX) -std=c++17 -O2 -g -I$(BUILD)/gen-cpp -c $(BUILD)/gen-cpp/ntff.pb.cc \
	    -o $(BUILD)/obj/bench/ntff.pb.o
	$(CXX) -o $@ $(BUILD)/obj/bench/bench_convert.o $(BUILD)/obj/bench/ntff_cpp_peer.o \
	    $(BUILD)/obj/bench/ntff.pb.o $(LIB) $$(pkg-config --libs jansson protobuf) \
	    $(PKG_LIBS_ENGINE) -pthread

# The simulator's own speed and memory (bench/sim.sh): it needs nothing
# beyond the suite's libraries, so it builds without the benchmark peers.
BENCH_SIM := $(BUILD)/bench_sim
$(BENCH_SIM): bench/bench_sim.c $(VEC_OBJ) $(SIM_OBJ) $(LIB)
	@mkdir -p $(BUILD)/obj/bench
	$(CC) $(CFLAGS_BASE) $(INC_CONF) -c bench/bench_sim.c -o $(BUILD)/obj/bench/bench_sim.o
	$(CC) $(CFLAGS_BASE) -o $@ $(BUILD)/obj/bench/bench_sim.o $(VEC_OBJ) $(SIM_OBJ) $(LIB) \
	    $(NTSIM_LIBS) $(EXTRA_LDFLAGS)

bench-sim: $(BENCH_SIM)
	sh bench/sim.sh ./$(BENCH_SIM)

bench: $(BENCH_BIN) $(BENCH_CONV) $(BENCH_SIM)
	sh bench/run.sh ./$(BENCH_BIN) $(BENCH_ARGS)
	./$(BENCH_CONV)
	sh bench/sim.sh ./$(BENCH_SIM)

# The same, small: for CI, well under 30 s; it checks nothing.
bench-quick: $(BENCH_BIN) $(BENCH_CONV)
	sh bench/run.sh ./$(BENCH_BIN) --quick
	./$(BENCH_CONV) --events 20000

# --- install ------------------------------------------------------------------

install: $(LIB) $(SHLIB)
	install -d $(DESTDIR)$(PREFIX)/include/nrt $(DESTDIR)$(PREFIX)/include/ntsim \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/nrt/*.h $(DESTDIR)$(PREFIX)/include/nrt/
	install -m 644 include/ntsim/*.h $(DESTDIR)$(PREFIX)/include/ntsim/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHLIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libntsim.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' libntsim.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/libntsim.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libntsim.a $(DESTDIR)$(PREFIX)/lib/$(SONAME) \
	    $(DESTDIR)$(PREFIX)/lib/libntsim.so $(DESTDIR)$(PREFIX)/lib/pkgconfig/libntsim.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/ntsim
	cd $(DESTDIR)$(PREFIX)/include/nrt 2>/dev/null && rm -f $(notdir $(wildcard include/nrt/*.h)); true

# Installs into a scratch prefix and builds a program against it with
# pkg-config, as a porter would.
install-check: $(DEPS_STAMP)
	sh conformance/install_check.sh

clean:
	rm -rf $(BUILD)

-include $(ENGINE_OBJ:.o=.d) $(ENGINE_PIC:.o=.d) $(CONF_OBJ:.o=.d) $(VEC_OBJ:.o=.d) \
    $(SIM_OBJ:.o=.d) $(CMD_OBJ:.o=.d)
