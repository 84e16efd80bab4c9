# ntsim: a hardware-simulating test harness and conformance suite for the
# Neuron runtime's sys_trace capture path.
#
#   make run        build ntsim and run the default scenario: out/trace.json,
#                   out/trace.ntff, out/notifications.ntff and a summary
#   make check      build and run the conformance suite (the README's test command);
#                   CHECK_ARGS="--kind json" (or --file F, --id ID) runs a subset
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
INCS    = -Iinclude -Iengine -Iconformance -Isim -I$(BUILD)/gen
EXTRA_CFLAGS  ?=
EXTRA_LDFLAGS ?=

# Resolved when a recipe runs (after the deps stamp), not when make parses.
PKG_CFLAGS = $(shell pkg-config --cflags check yaml-0.1 jansson libprotobuf-c)
PKG_LIBS   = $(shell pkg-config --libs check yaml-0.1 jansson libprotobuf-c)
PKG_LIBS_ENGINE = $(shell pkg-config --libs libprotobuf-c)

CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) $(DEFS) $(INCS) $(PKG_CFLAGS) -MMD -MP $(EXTRA_CFLAGS)

APT_PACKAGES := check libyaml-dev libprotobuf-c-dev protobuf-c-compiler protobuf-compiler \
                libjansson-dev valgrind pkg-config g++ jq
PKG_MODULES  := check yaml-0.1 libprotobuf-c jansson

ENGINE_SRC := engine/event_table.c engine/ring.c engine/grace.c engine/log.c engine/capture.c \
              engine/config.c engine/data_view.c engine/json.c engine/intern.c engine/ntff.c \
              engine/notify.c
# The vector library: the loader, the kinds and their helpers (ntsim replays
# vectors too). The simulator: everything of sim/ but the command's main.
VEC_SRC    := conformance/vector.c conformance/kinds.c conformance/abi_registry.c \
              conformance/kind_layout.c conformance/kind_enum.c conformance/kind_event_type.c \
              conformance/kind_record.c conformance/record_input.c conformance/kind_json.c \
              conformance/kind_ntff.c conformance/kind_notify.c conformance/capture_fixture.c
SIM_SRC    := sim/scheduler.c sim/clock.c sim/scenario.c sim/workload.c sim/summary.c \
              sim/cmd_vectors.c sim/decode.c sim/stress.c sim/kind_scenario.c sim/kind_decode.c
CONF_SRC   := conformance/check_main.c conformance/check_vectors.c conformance/check_loader.c \
              conformance/check_event_table.c conformance/check_ring.c \
              conformance/check_capture.c conformance/check_concurrency.c \
              conformance/check_json.c conformance/check_convert.c conformance/check_sim.c

# protoc-c output: generated at build time from engine/ntff.proto.
GEN_SRC    := $(BUILD)/gen/ntff.pb-c.c
GEN_HDR    := $(BUILD)/gen/ntff.pb-c.h
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/ntff.pb-c.o
ENGINE_PIC := $(ENGINE_SRC:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/gen/ntff.pb-c.o
SONAME     := libntsim.so.0
SHLIB      := $(BUILD)/$(SONAME)
PCFILE     := $(BUILD)/libntsim.pc
CXX_TEST   := $(BUILD)/cxx_api_test
BENCH_BIN  := $(BUILD)/bench_capture
BENCH_CONV := $(BUILD)/bench_convert
CONF_OBJ   := $(CONF_SRC:%.c=$(BUILD)/obj/%.o)
VEC_OBJ    := $(VEC_SRC:%.c=$(BUILD)/obj/%.o)
SIM_OBJ    := $(SIM_SRC:%.c=$(BUILD)/obj/%.o)
NTSIM_BIN  := $(BUILD)/ntsim
LIB        := $(BUILD)/libntsim.a
CHECK_BIN  := $(BUILD)/check_ntsim
DEPS_STAMP := $(BUILD)/.deps-ok

VALGRIND := valgrind --quiet --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect,possible \
            --show-leak-kinds=definite,indirect,possible

.PHONY: all run check memcheck asan tsan bench bench-quick fuzz coverage mutation model install uninstall install-check deps clean

all: $(LIB) $(SHLIB) $(PCFILE) $(CHECK_BIN) $(NTSIM_BIN) $(CXX_TEST)

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

$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(GEN_SRC) $(GEN_HDR): engine/ntff.proto | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/gen
	protoc-c --c_out=$(BUILD)/gen -Iengine engine/ntff.proto

# Generated code is protoc-c's, compiled without our -pedantic/-W extras.
$(BUILD)/obj/gen/ntff.pb-c.o: $(GEN_SRC)
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g $(PKG_CFLAGS) -I$(BUILD)/gen $(EXTRA_CFLAGS) -c $< -o $@
$(BUILD)/pic/gen/ntff.pb-c.o: $(GEN_SRC)
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g -fPIC -fvisibility=hidden $(PKG_CFLAGS) -I$(BUILD)/gen $(EXTRA_CFLAGS) -c $< -o $@

# Every engine and test object may include the generated header.
$(ENGINE_SRC:%.c=$(BUILD)/obj/%.o) $(ENGINE_SRC:%.c=$(BUILD)/pic/%.o) $(CONF_OBJ) $(VEC_OBJ) \
    $(SIM_OBJ) $(BUILD)/obj/sim/ntsim_main.o: | $(GEN_HDR)

# The shared library exports exactly the declarations marked NTSIM_EXPORT
# (include/nrt/nrt_status.h); conformance/exported_symbols.txt lists them.
$(BUILD)/pic/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fPIC -fvisibility=hidden -c $< -o $@

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

$(CHECK_BIN): $(CONF_OBJ) $(VEC_OBJ) $(SIM_OBJ) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $(CONF_OBJ) $(VEC_OBJ) $(SIM_OBJ) $(LIB) $(PKG_LIBS) $(EXTRA_LDFLAGS)

# The command links no test framework.
NTSIM_LIBS = $(shell pkg-config --libs yaml-0.1 jansson libprotobuf-c) -pthread
$(NTSIM_BIN): $(BUILD)/obj/sim/ntsim_main.o $(VEC_OBJ) $(SIM_OBJ) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(NTSIM_LIBS) $(EXTRA_LDFLAGS)

# --- the simulator ----------------------------------------------------------------

SCENARIO ?=
OUT ?= out
run: $(NTSIM_BIN)
	./$(NTSIM_BIN) run $(SCENARIO) -o $(OUT)

# --- tests --------------------------------------------------------------------

# Check writes TAP and JUnit-style XML logs for CI beside the build.
CHECK_LOGS = CK_TAP_LOG_FILE_NAME=$(BUILD)/conformance.tap CK_XML_LOG_FILE_NAME=$(BUILD)/conformance.xml
CHECK_ARGS ?=

check: $(CHECK_BIN) $(CXX_TEST) $(NTSIM_BIN)
	$(CHECK_LOGS) ./$(CHECK_BIN) --ntsim ./$(NTSIM_BIN) $(CHECK_ARGS)
	sh conformance/cli_failures.sh ./$(CHECK_BIN)
	./$(CXX_TEST)
	sh conformance/cli_ntsim.sh ./$(NTSIM_BIN)

memcheck: $(CHECK_BIN) $(NTSIM_BIN)
	CK_FORK=no $(VALGRIND) ./$(CHECK_BIN)
	$(VALGRIND) ./$(NTSIM_BIN) replay --quiet vectors/*.yaml
	$(VALGRIND) ./$(NTSIM_BIN) run -q -o $(BUILD)/memcheck-out

asan:
	$(MAKE) BUILD=$(BUILD)/asan OPT="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    EXTRA_LDFLAGS="-fsanitize=address,undefined" all
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    ./$(BUILD)/asan/check_ntsim

# ThreadSanitizer over the whole suite in one process (the concurrency suite
# is the point; the rest costs little). TSan must see every thread: no fork.
tsan:
	$(MAKE) BUILD=$(BUILD)/tsan OPT="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
	    EXTRA_LDFLAGS="-fsanitize=thread" all
	CK_FORK=no TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ./$(BUILD)/tsan/check_ntsim

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
FUZZ_TARGETS := vector_loader scenario_loader record_decoder ntff_decoder
FUZZ_CFLAGS := -std=c11 -g -O1 $(DEFS) $(INCS) -fsanitize=fuzzer,address,undefined \
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

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_SRC) $(GEN_SRC) | $(FUZZ_STAMP)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) $$(pkg-config --cflags yaml-0.1 jansson libprotobuf-c) -o $@ $< \
	    $(FUZZ_SRC) $(GEN_SRC) $$(pkg-config --libs yaml-0.1 jansson libprotobuf-c) -pthread

$(FUZZ_DIR)/seeds.stamp: $(NTSIM_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus-vector_loader $(FUZZ_DIR)/corpus-scenario_loader \
	    $(FUZZ_DIR)/corpus-record_decoder $(FUZZ_DIR)/corpus-ntff_decoder
	cp vectors/*.yaml conformance/testdata/bad/*.yaml $(FUZZ_DIR)/corpus-vector_loader/
	cp sim/scenarios/*.yaml conformance/testdata/scenarios/*.yaml $(FUZZ_DIR)/corpus-scenario_loader/
	./$(NTSIM_BIN) run -q -o $(FUZZ_DIR)/seed-run --records $(FUZZ_DIR)/seed-run/trace.records \
	    2>/dev/null
	head -c 1120 $(FUZZ_DIR)/seed-run/trace.records > $(FUZZ_DIR)/corpus-record_decoder/ten.records
	cp $(FUZZ_DIR)/seed-run/*.ntff $(FUZZ_DIR)/corpus-ntff_decoder/
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

bench: $(BENCH_BIN) $(BENCH_CONV)
	sh bench/run.sh ./$(BENCH_BIN) $(BENCH_ARGS)
	./$(BENCH_CONV)

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
    $(SIM_OBJ:.o=.d) $(BUILD)/obj/sim/ntsim_main.d
