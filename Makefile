# ntsim: a hardware-simulating test harness and conformance suite for the
# Neuron runtime's sys_trace capture path.
#
#   make run        build ntsim and run the default scenario: out/trace.json,
#                   out/trace.ntff, out/notifications.ntff and a summary
#   make check      build and run the conformance suite (the README's test command),
#                   in process and again through `ntsim testee` (the same counts),
#                   and a short generative pass; CHECK_ARGS="--kind json" (or --file F,
#                   --id ID) runs a subset
#   make generate   generative conformance: N=2000 cases from SEED through
#                   GENERATE_TESTEE (docs/generative.md)
#   make layers     prove that the layers only point down (part of make check)
#   make memcheck   the same suite under valgrind memcheck: 0 errors, 0 leaks
#   make asan       the same suite built with AddressSanitizer + UBSan
#   make tsan       the same suite built with ThreadSanitizer
#   make install    under $(DESTDIR)$(PREFIX) (default /usr/local): headers,
#                   libntsim.a, libntsim.so, libntsim.pc, bin/ntsim,
#                   bin/check_ntsim, their man pages, and share/ntsim/ (the
#                   suite's data: sim/locate.h's NTSIM_DATA_MAP); make
#                   uninstall removes exactly that
#   make install-check  install into a scratch prefix: link a program, run the
#                   installed suite from another directory, the Python example
#                   testee through it, missing data, uninstall
#   make bench      the capture benchmark beside LTTng-UST and memcpy (not a test);
#                   BENCH_ARGS="--rounds R --events N"; make bench-quick for CI
#   make fuzz       libFuzzer over the loaders and decoders (FUZZ_SECONDS=N each)
#   make coverage   line and branch coverage of engine/ (gcovr)
#   make mutation   prove a changed header offset fails both the static assert
#                   and the layout vectors
#   make mutants    mutation score of engine/: every mutant built and the suite
#                   run on it; build/mutants/report.txt (MUTANT_JOBS=2,
#                   MUTANT_FILES="json.c ...", MUTANT_SAMPLE=N MUTANT_SEED=S,
#                   MUTANT_SUITE=vectors|generate: judged by one of them alone,
#                   MUTANT_SHARD=K/N: one machine's part); make mutants-merge
#                   adds the shards' reports up (docs/ci.md)
#   make add-type-check  prove vectors/README.md's checklist for a new event type
#   make add-kind-check  prove docs/architecture.md's checklist for a new vector kind
#   make add-scenario-key-check  prove docs/architecture.md's checklist for a new
#                   scenario key
#   make add-format-check  prove docs/architecture.md's checklist for a new output format
#   make interop    the timelines read by tools nobody here wrote: protoc decodes
#                   trace.pftrace, Chrome DevTools' trace model (npm, into build/)
#                   reads trace.chrome.json; their counts must match the JSON's
#   make view-check the timeline page in headless chromium: every lane and span
#                   of the Chrome JSON, grouped lanes without a flow curtain in
#                   the screenshot, and the zoom step measured on trn2_48xl
#   make model      model-check the ring protocol with Spin, and prove that each
#                   deliberately broken variant of it is caught
#   make clean
#
# Missing dependencies are installed on Debian (apt-get, as root); elsewhere
# the build stops and names the packages to install.
#
# The tree, and which folder may include which (docs/architecture.md has the
# file map): each folder's sources are listed in the .mk file beside them.

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
EXTRA_CFLAGS  ?=
EXTRA_LDFLAGS ?=

include engine/engine.mk sim/sim.mk conformance/lib/lib.mk conformance/testee/testee.mk \
        conformance/kinds/kinds.mk conformance/generate/generate.mk conformance/runner/runner.mk \
        conformance/unit/unit.mk conformance/cmd/cmd.mk

# --- layers ---------------------------------------------------------------------------
#
# Layers only point down. Each folder is compiled with the -I flags of the
# folders below it and its own, never those above, so an include that points
# up fails to build (make layers proves it with a probe per layer):
#
#   include/ <- engine/ <- sim/ <- conformance/lib/ <- conformance/testee/
#     <- conformance/testee/builtin/, conformance/kinds/ <- conformance/generate/
#     <- conformance/runner/ <- conformance/unit/;   conformance/cmd/ (the command)
#
# The engine's stage folders are on -I for the engine and conformance/unit/
# only, and both define NTSIM_ENGINE_INTERNAL, without which the private
# headers at engine/'s top refuse to compile.
INC_ENGINE  = -Iinclude -Iengine $(ENGINE_STAGES:%=-I%) -I$(BUILD)/gen -DNTSIM_ENGINE_INTERNAL
INC_SIM     = -Iinclude -Iengine -Isim
INC_LIB     = -Iinclude -Iengine -Isim -Iconformance/lib -I$(BUILD)/gen
INC_TESTEE  = $(INC_LIB) -Iconformance/testee -I$(BUILD)/gen-conf
INC_BUILTIN = $(INC_TESTEE) -Iconformance/testee/builtin
INC_KINDS   = $(INC_TESTEE) -Iconformance/kinds
INC_GENERATE = $(INC_KINDS) -Iconformance/testee/builtin -Iconformance/generate
INC_RUNNER  = $(INC_GENERATE) -Iconformance/runner
INC_UNIT    = $(INC_RUNNER) $(ENGINE_STAGES:%=-I%) -Iconformance/unit -DNTSIM_ENGINE_INTERNAL
INC_CMD     = $(INC_KINDS) -Iconformance/testee/builtin -Iconformance/cmd

# Resolved when a recipe runs (after the deps stamp), not when make parses.
PKG_CFLAGS = $(shell pkg-config --cflags check yaml-0.1 jansson libprotobuf-c)
PKG_LIBS   = $(shell pkg-config --libs check yaml-0.1 jansson libprotobuf-c)
PKG_LIBS_ENGINE = $(shell pkg-config --libs libprotobuf-c)
# The command links no test framework.
NTSIM_LIBS = $(shell pkg-config --libs yaml-0.1 jansson libprotobuf-c) -pthread

CFLAGS_BASE = $(CSTD) $(WARN) $(OPT) $(DEFS) $(PKG_CFLAGS) -MMD -MP $(EXTRA_CFLAGS)

# --- what gets built ------------------------------------------------------------------

obj = $(1:%.c=$(BUILD)/obj/%.o)
GEN_SRC      := $(foreach p,$(ENGINE_PROTOS),$(BUILD)/gen/$(basename $(notdir $(p))).pb-c.c)
GEN_HDR      := $(GEN_SRC:.c=.h)
CONF_GEN_SRC := $(foreach p,$(TESTEE_PROTOS),$(BUILD)/gen-conf/$(basename $(notdir $(p))).pb-c.c)
CONF_GEN_HDR := $(CONF_GEN_SRC:.c=.h)

ENGINE_OBJ  := $(call obj,$(ENGINE_SRC)) $(GEN_SRC:$(BUILD)/%.c=$(BUILD)/obj/%.o)
ENGINE_PIC  := $(ENGINE_SRC:%.c=$(BUILD)/pic/%.o) $(GEN_SRC:$(BUILD)/%.c=$(BUILD)/pic/%.o)
SIM_OBJ     := $(call obj,$(SIM_SRC))
LIB_OBJ     := $(call obj,$(LIB_SRC))
TESTEE_OBJ  := $(call obj,$(TESTEE_SRC)) $(CONF_GEN_SRC:$(BUILD)/%.c=$(BUILD)/obj/%.o)
BUILTIN_OBJ := $(call obj,$(BUILTIN_SRC))
KINDS_OBJ   := $(call obj,$(KINDS_SRC))
GENERATE_OBJ := $(call obj,$(GENERATE_SRC))
RUNNER_OBJ  := $(call obj,$(RUNNER_SRC))
UNIT_OBJ    := $(call obj,$(UNIT_SRC))
CMD_OBJ     := $(call obj,$(CMD_SRC))
# The harness library: everything the suite and the command share.
HARNESS_OBJ := $(LIB_OBJ) $(TESTEE_OBJ) $(BUILTIN_OBJ) $(KINDS_OBJ)

LIB         := $(BUILD)/libntsim.a
SIM_LIB     := $(BUILD)/libntsim_sim.a
HARNESS_LIB := $(BUILD)/libntsim_harness.a
SONAME      := libntsim.so.0
SHLIB       := $(BUILD)/$(SONAME)
PCFILE      := $(BUILD)/libntsim.pc
CHECK_BIN   := $(BUILD)/check_ntsim
NTSIM_BIN   := $(BUILD)/ntsim
CXX_TEST    := $(BUILD)/cxx_api_test
CLIENT_TEST := $(BUILD)/cxx_client_test
EXIT_CLIENT := $(BUILD)/exit_client
DEPS_STAMP  := $(BUILD)/.deps-ok
MAN_PAGES   := $(BUILD)/man/ntsim.1 $(BUILD)/man/check_ntsim.1

# Each folder's objects with that folder's -I flags (one compile rule below).
$(call obj,$(ENGINE_SRC)) $(ENGINE_PIC): INC = $(INC_ENGINE)
$(SIM_OBJ):     INC = $(INC_SIM)
$(LIB_OBJ):     INC = $(INC_LIB)
$(TESTEE_OBJ):  INC = $(INC_TESTEE)
$(BUILTIN_OBJ): INC = $(INC_BUILTIN)
$(KINDS_OBJ):   INC = $(INC_KINDS)
$(GENERATE_OBJ): INC = $(INC_GENERATE)
$(RUNNER_OBJ):  INC = $(INC_RUNNER)
$(UNIT_OBJ):    INC = $(INC_UNIT)
$(CMD_OBJ):     INC = $(INC_CMD)

# --fair-sched=yes: valgrind runs one thread at a time, and by default the
# thread that gives up its lock (a PAUSE, a yield) usually takes it straight
# back, so a spinning emitter starved the thread it waited for: the
# concurrency suite took 14-38 minutes here, 13 seconds with a fair lock.
VALGRIND := valgrind --fair-sched=yes --quiet --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect,possible \
            --show-leak-kinds=definite,indirect,possible

.PHONY: all run check generate layers memcheck asan tsan bench bench-quick bench-sim fuzz coverage mutation \
        mutants mutants-merge mutants-shard-check model add-type-check add-kind-check \
        add-scenario-key-check add-format-check install uninstall install-check deps clean \
        interop view-check trace-engine

all: $(LIB) $(SHLIB) $(PCFILE) $(CHECK_BIN) $(NTSIM_BIN) $(CXX_TEST) $(CLIENT_TEST) $(EXIT_CLIENT) \
     $(MAN_PAGES)

# --- dependencies -------------------------------------------------------------

# $(call ensure_packages,PROBE,PACKAGES,WHAT): a recipe line that runs the
# shell command PROBE and, when it fails, installs the Debian PACKAGES with
# apt-get (as root; apt-get update first only if the install fails), or else
# stops and names them. Every dependency of every target goes through it.
define ensure_packages
if ! { $(1); } >/dev/null 2>&1; then \
    if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
        echo "ntsim: installing $(3): $(2)"; \
        export DEBIAN_FRONTEND=noninteractive; \
        apt-get install -y -q $(2) || { apt-get update -q && apt-get install -y -q $(2); } \
          || { echo "ntsim: apt-get could not install: $(2)" >&2; exit 1; }; \
    else \
        echo "ntsim: $(3) missing; install: $(2)" >&2; exit 1; \
    fi; \
fi
endef

PKG_MODULES := check yaml-0.1 libprotobuf-c jansson
DEPS_PROBE = pkg-config --exists $(PKG_MODULES) && command -v valgrind && command -v protoc-c \
    && command -v $(CXX) && command -v protoc && command -v jq \
    && python3 -c 'import jsonschema'

deps: $(DEPS_STAMP)

$(DEPS_STAMP):
	@mkdir -p $(@D)
	@$(call ensure_packages,$(DEPS_PROBE),check libyaml-dev libprotobuf-c-dev protobuf-c-compiler \
	    protobuf-compiler libjansson-dev valgrind pkg-config g++ jq python3-jsonschema,the build's dependencies)
	@pkg-config --exists $(PKG_MODULES) || { echo "ntsim: pkg-config cannot find $(PKG_MODULES)" >&2; exit 1; }
	@touch $@

# --- build --------------------------------------------------------------------

# One compile rule: INC is the object's folder's (above).
$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(INC) -c $< -o $@

# The shared library exports exactly the declarations marked NTSIM_EXPORT
# (include/nrt/nrt_status.h); conformance/cli/exported_symbols.txt lists them.
$(BUILD)/pic/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_BASE) $(INC) -fPIC -fvisibility=hidden -c $< -o $@

# protoc-c, one rule for every .proto: $(call protoc_rule,PROTO,OUTDIR). The
# generated code is protoc-c's, compiled without our -pedantic/-W extras.
define protoc_rule
$(2)/$(basename $(notdir $(1))).pb-c.c $(2)/$(basename $(notdir $(1))).pb-c.h &: $(1) | $(DEPS_STAMP)
	@mkdir -p $(2)
	protoc-c --c_out=$(2) -I$(dir $(1)) $(1)
endef
$(foreach p,$(ENGINE_PROTOS),$(eval $(call protoc_rule,$(p),$(BUILD)/gen)))
$(foreach p,$(TESTEE_PROTOS),$(eval $(call protoc_rule,$(p),$(BUILD)/gen-conf)))

$(BUILD)/obj/%.pb-c.o: $(BUILD)/%.pb-c.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g $(PKG_CFLAGS) -I$(<D) $(EXTRA_CFLAGS) -c $< -o $@
$(BUILD)/pic/%.pb-c.o: $(BUILD)/%.pb-c.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g -fPIC -fvisibility=hidden $(PKG_CFLAGS) -I$(<D) $(EXTRA_CFLAGS) -c $< -o $@

# The engine and the harness may include the generated headers (sim/ may not);
# the testee protocol's only the harness.
$(call obj,$(ENGINE_SRC)) $(ENGINE_PIC) $(LIB_OBJ) $(TESTEE_OBJ) $(BUILTIN_OBJ) $(KINDS_OBJ) \
    $(GENERATE_OBJ) $(RUNNER_OBJ) $(UNIT_OBJ) $(CMD_OBJ): | $(GEN_HDR)
$(TESTEE_OBJ) $(BUILTIN_OBJ) $(KINDS_OBJ) $(GENERATE_OBJ) $(RUNNER_OBJ) $(UNIT_OBJ) \
    $(CMD_OBJ): | $(CONF_GEN_HDR)

$(LIB): $(ENGINE_OBJ)
$(SIM_LIB): $(SIM_OBJ)
$(HARNESS_LIB): $(HARNESS_OBJ)
$(LIB) $(SIM_LIB) $(HARNESS_LIB):
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(SHLIB): $(ENGINE_PIC)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ -pthread $(PKG_LIBS_ENGINE) $(EXTRA_LDFLAGS)
	ln -sf $(SONAME) $(BUILD)/libntsim.so

$(PCFILE): engine/libntsim.pc.in Makefile
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' engine/libntsim.pc.in > $@

# The public headers must build as C++ and the API must link from C++.
$(CXX_TEST): $(UNIT_CXX_API) $(LIB) include/nrt/*.h include/ntsim/*.h | $(DEPS_STAMP)
	$(CXX) -std=c++11 -Wall -Wextra -Werror -pedantic -Iinclude $(EXTRA_CFLAGS) \
	    -o $@ $(UNIT_CXX_API) $(LIB) $(PKG_LIBS_ENGINE) -pthread $(EXTRA_LDFLAGS)

# A libnrt trace client, written as libnrt's users write one (<nrt/nrt.h> and
# <nrt/nrt_sys_trace.h>, C++17), compiles unchanged and links against the
# shared library, so every function it calls must be exported.
$(CLIENT_TEST): $(UNIT_CXX_CLIENT) $(SHLIB) include/nrt/*.h include/ntsim/*.h | $(DEPS_STAMP)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude $(EXTRA_CFLAGS) \
	    -o $@ $(UNIT_CXX_CLIENT) $(SHLIB) -Wl,-rpath,'$$ORIGIN' $(EXTRA_LDFLAGS)

# A program that emits from its main thread and from a thread that ends, and
# exits with the capture running, built as the README says (the static
# library): under valgrind nothing it leaves may be lost (make memcheck).
$(EXIT_CLIENT): $(UNIT_EXIT_CLIENT) $(LIB) include/nrt/*.h include/ntsim/*.h | $(DEPS_STAMP)
	$(CC) $(CSTD) $(WARN) $(OPT) $(DEFS) -Iinclude $(EXTRA_CFLAGS) -o $@ $(UNIT_EXIT_CLIENT) $(LIB) \
	    $(PKG_LIBS_ENGINE) -pthread $(EXTRA_LDFLAGS)

# The suite links the runner, the unit suites, the harness library, the
# simulator and the engine; never the command's objects.
$(CHECK_BIN): $(RUNNER_OBJ) $(GENERATE_OBJ) $(UNIT_OBJ) $(HARNESS_LIB) $(SIM_LIB) $(LIB)
	$(CC) $(CFLAGS_BASE) -o $@ $^ $(PKG_LIBS) $(EXTRA_LDFLAGS)

# The command links no test framework.
$(NTSIM_BIN): $(CMD_OBJ) $(HARNESS_LIB) $(SIM_LIB) $(LIB)
	$(CC) $(CFLAGS_BASE) -o $@ $^ $(NTSIM_LIBS) $(EXTRA_LDFLAGS)

# --- the simulator ----------------------------------------------------------------

SCENARIO ?=
OUT ?= out
# SCENARIO is a file, or the name of a shipped one (make run SCENARIO=trn2_48xl):
# ntsim run resolves it (D-SCENARIO-NAMES).
# RUN_ARGS adds ntsim run's options (make run RUN_ARGS='--timeline-max-events 100').
# The closing line says what this run wrote: a run that wrote no timelines
# (past --timeline-max-events) removed the earlier run's (D-OUTPUT).
RUN_ARGS ?=
run: $(NTSIM_BIN)
	./$(NTSIM_BIN) run $(SCENARIO) -o $(OUT) $(RUN_ARGS)
	@if [ -e "$(OUT)/timeline.html" ]; then \
	    echo "make run: open $(OUT)/timeline.html in a browser; $(OUT)/trace.pftrace in ui.perfetto.dev"; \
	else \
	    echo "make run: no timelines this time (see above); ntsim export $(OUT)/trace.json -o OUT.html makes one"; \
	fi

# --- tests --------------------------------------------------------------------

# Logs for CI beside the build: Check's TAP, and the run as JUnit XML
# (--junit, D-JUNIT; Check's own XML is not JUnit, and no longer written).
CHECK_LOGS = CK_TAP_LOG_FILE_NAME=$(BUILD)/conformance.tap
CHECK_ARGS ?=

# Debian's Python, which sees the python3-* packages apt-get installs (a
# python3 earlier in PATH, pyenv's, may not).
PYTHON3 ?= /usr/bin/python3
# python3-junitparser reads check_ntsim --junit's files (D-JUNIT); groff
# renders the man pages for their check.
$(BUILD)/.junitparser-ok: | $(DEPS_STAMP)
	@$(call ensure_packages,$(PYTHON3) -c 'import junitparser',python3-junitparser,python3-junitparser for the --junit checks)
	@touch $@
# python3-protobuf runs the example Python testee (conformance/testee/examples).
$(BUILD)/.protobuf-py-ok: | $(DEPS_STAMP)
	@$(call ensure_packages,$(PYTHON3) -c 'import google.protobuf',python3-protobuf,python3-protobuf for the example testee)
	@touch $@
$(BUILD)/.groff-ok: | $(DEPS_STAMP)
	@$(call ensure_packages,command -v groff,groff-base,groff for the man pages' check)
	@touch $@

# The in-process run's output is kept (build/conformance.log) so that
# testee_check.sh can compare it with the same suite through `ntsim testee`.
check: $(CHECK_BIN) $(CXX_TEST) $(CLIENT_TEST) $(EXIT_CLIENT) $(NTSIM_BIN) $(MAN_PAGES) layers \
       | $(BUILD)/.junitparser-ok $(BUILD)/.groff-ok
	{ $(CHECK_LOGS) ./$(CHECK_BIN) --ntsim ./$(NTSIM_BIN) --junit $(BUILD)/conformance.junit.xml \
	    $(CHECK_ARGS); echo $$? >$(BUILD)/conformance.rc; } \
	    | tee $(BUILD)/conformance.log; exit $$(cat $(BUILD)/conformance.rc)
	$(PYTHON3) conformance/cli/junit_check.py $(BUILD)/conformance.junit.xml \
	    "$$(tail -1 $(BUILD)/conformance.log)"
	sh conformance/cli/testee_check.sh ./$(CHECK_BIN) ./$(NTSIM_BIN) $(BUILD)/conformance.log $(CHECK_ARGS)
	sh conformance/cli/generate_check.sh ./$(CHECK_BIN) ./$(NTSIM_BIN) $(PYTHON3)
	sh conformance/cli/contract_check.sh ./$(CHECK_BIN) ./$(NTSIM_BIN)
	sh conformance/cli/cli_failures.sh ./$(CHECK_BIN) $(PYTHON3)
	./$(CXX_TEST)
	./$(CLIENT_TEST)
	./$(EXIT_CLIENT)
	sh conformance/cli/cli_ntsim.sh ./$(NTSIM_BIN)
	sh conformance/cli/make_run_check.sh "$(MAKE)" $(BUILD)/make-run
	sh conformance/cli/cli_analyze.sh ./$(NTSIM_BIN)
	sh conformance/cli/hostile.sh ./$(NTSIM_BIN) ./$(CHECK_BIN)
	sh conformance/cli/shard_check.sh ./$(CHECK_BIN) ./$(NTSIM_BIN) $(PYTHON3)
	sh conformance/proofs/shard_mutants.sh $(BUILD) "$(CC)"
	perl conformance/cli/man_pages.pl check $(BUILD)/man ./$(NTSIM_BIN) ./$(CHECK_BIN)
	sh conformance/proofs/file_map.sh
	sh conformance/proofs/readme_formats.sh ./$(NTSIM_BIN)
	sh conformance/proofs/readme_samples.sh ./$(NTSIM_BIN) $(BUILD)/conformance.log "$(CHECK_ARGS)"

# Generative conformance (docs/generative.md): N cases from SEED (default: from
# the clock; printed) through GENERATE_TESTEE (default: the built-in testee over
# pipes); GENERATE_ARGS adds options (--kind record,json --save-failures DIR ...).
N ?= 2000
SEED ?=
GENERATE_TESTEE ?= ./$(NTSIM_BIN) testee
GENERATE_ARGS ?=
generate: $(CHECK_BIN) $(NTSIM_BIN)
	./$(CHECK_BIN) --testee '$(GENERATE_TESTEE)' --generate $(N) $(if $(SEED),--seed $(SEED)) \
	    $(GENERATE_ARGS)

# The layers only point down: probes compiled with each layer's own -I flags.
layers: $(DEPS_STAMP) | $(GEN_HDR) $(CONF_GEN_HDR)
	INC_ENGINE="$(INC_ENGINE)" INC_SIM="$(INC_SIM)" INC_LIB="$(INC_LIB)" INC_TESTEE="$(INC_TESTEE)" \
	INC_BUILTIN="$(INC_BUILTIN)" INC_KINDS="$(INC_KINDS)" INC_GENERATE="$(INC_GENERATE)" \
	INC_RUNNER="$(INC_RUNNER)" \
	INC_UNIT="$(INC_UNIT)" INC_CMD="$(INC_CMD)" ENGINE_PRIVATE_TOP="$(ENGINE_PRIVATE_TOP)" \
	ENGINE_STAGES="$(ENGINE_STAGES)" sh conformance/proofs/layers.sh "$(CC)"

# Programs as users write them run under valgrind too: one that exits with
# its capture running and its threads' records kept, and the C++ client.
# The generative runs: both ends under valgrind, then a failing run (exit 1,
# valgrind's errors exit 9) that shrinks and saves its case.
memcheck: $(CHECK_BIN) $(NTSIM_BIN) $(EXIT_CLIENT) $(CLIENT_TEST)
	$(VALGRIND) ./$(EXIT_CLIENT)
	$(VALGRIND) ./$(CLIENT_TEST)
	CK_FORK=no $(VALGRIND) ./$(CHECK_BIN) --ntsim ./$(NTSIM_BIN)
	$(VALGRIND) ./$(CHECK_BIN) --testee '$(VALGRIND) ./$(NTSIM_BIN) testee' --testee-timeout 120 \
	    --xfail conformance/runner/expected_failures.txt --junit $(BUILD)/memcheck.junit.xml
	$(VALGRIND) ./$(CHECK_BIN) --testee '$(VALGRIND) ./$(NTSIM_BIN) testee' --testee-timeout 120 \
	    --generate 100 --seed 2029 --progress 0
	rm -rf $(BUILD)/memcheck-generated
	$(VALGRIND) --error-exitcode=9 ./$(CHECK_BIN) --testee './$(NTSIM_BIN) testee --break=escape_1e' \
	    --generate 200 --seed 2029 --progress 0 --max-failures 1 \
	    --save-failures $(BUILD)/memcheck-generated \
	    >$(BUILD)/memcheck-generated.log; test $$? -eq 1
	$(VALGRIND) ./$(NTSIM_BIN) replay --quiet vectors/*.yaml
	$(VALGRIND) ./$(NTSIM_BIN) run -q -o $(BUILD)/memcheck-out
	$(VALGRIND) ./$(NTSIM_BIN) export $(BUILD)/memcheck-out/trace.json -o $(BUILD)/memcheck-out/json.pftrace
	$(VALGRIND) ./$(NTSIM_BIN) view $(BUILD)/memcheck-out/trace.ntff -o $(BUILD)/memcheck-out/ntff.html
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
	    --xfail conformance/runner/expected_failures.txt --junit $(BUILD)/asan/conformance.junit.xml
	$(ASAN_ENV) ./$(BUILD)/asan/check_ntsim --testee './$(BUILD)/asan/ntsim testee' \
	    --generate 600 --seed 2029 --progress 0 --junit $(BUILD)/asan/generate.junit.xml

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
	    --xfail conformance/runner/expected_failures.txt

# --- the timelines read by other tools (D-TIMELINE) --------------------------------
#
# make interop: protoc (Debian's protobuf-compiler) decodes trace.pftrace
# against engine/timeline/perfetto_trace.proto, and Chrome DevTools' own trace
# model, npm's @paulirish/trace_engine (pinned in
# conformance/cli/interop/package.json, installed with npm into
# build/trace-engine), reads trace.chrome.json; both must count what jq counts
# in the run's trace.json. make view-check: Debian's chromium renders
# out/timeline.html headless. Node, npm and chromium are installed with
# apt-get when missing.

TE_DIR := $(BUILD)/trace-engine
TE_PKG := $(TE_DIR)/node_modules/@paulirish/trace_engine

$(BUILD)/.node-ok: | $(DEPS_STAMP)
	@$(call ensure_packages,command -v node && command -v npm,nodejs npm,node and npm for make interop)
	@touch $@

$(TE_PKG)/package.json: conformance/cli/interop/package.json | $(BUILD)/.node-ok
	@mkdir -p $(TE_DIR)
	cp conformance/cli/interop/package.json $(TE_DIR)/package.json
	cd $(TE_DIR) && npm install --no-audit --no-fund --loglevel=error
	@test -f $@ && touch $@

trace-engine: $(TE_PKG)/package.json

interop: $(NTSIM_BIN) $(TE_PKG)/package.json
	sh conformance/cli/interop.sh ./$(NTSIM_BIN) $(abspath $(TE_PKG))

$(BUILD)/.chromium-ok: | $(DEPS_STAMP)
	@$(call ensure_packages,command -v chromium,chromium,chromium for make view-check)
	@touch $@

# make view-check drives chromium with npm's playwright-core (pinned in
# conformance/cli/view/package.json, installed into build/view-check-node; it
# starts /usr/bin/chromium and downloads no browser).
PW_DIR := $(BUILD)/view-check-node
PW_PKG := $(PW_DIR)/node_modules/playwright-core

$(PW_PKG)/package.json: conformance/cli/view/package.json | $(BUILD)/.node-ok
	@mkdir -p $(PW_DIR)
	cp conformance/cli/view/package.json $(PW_DIR)/package.json
	cd $(PW_DIR) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error
	@test -f $@ && touch $@

view-check: $(NTSIM_BIN) $(PW_PKG)/package.json | $(BUILD)/.chromium-ok
	sh conformance/cli/view_check.sh ./$(NTSIM_BIN) $(abspath $(PW_PKG))

# --- coverage (gcov + gcovr) --------------------------------------------------------
#
# The suite and the ntsim CLI tests built with --coverage; gcovr reports line
# and branch coverage of engine/ (the capture engine and the converters).

COV_BUILD := $(BUILD)/coverage
coverage: | $(DEPS_STAMP)
	@$(call ensure_packages,command -v gcovr,gcovr,gcovr for make coverage)
	rm -rf $(COV_BUILD)
	$(MAKE) BUILD=$(COV_BUILD) OPT="-O0 -g" EXTRA_CFLAGS="--coverage" \
	    EXTRA_LDFLAGS="--coverage" $(COV_BUILD)/check_ntsim $(COV_BUILD)/ntsim
	./$(COV_BUILD)/check_ntsim --ntsim ./$(COV_BUILD)/ntsim > $(COV_BUILD)/check.log
	sh conformance/cli/cli_ntsim.sh ./$(COV_BUILD)/ntsim > $(COV_BUILD)/cli.log
	gcovr --root . --filter 'engine/' --object-directory $(COV_BUILD) \
	    --print-summary --txt $(COV_BUILD)/engine-coverage.txt --branches > /dev/null
	gcovr --root . --filter 'engine/' --object-directory $(COV_BUILD) --print-summary \
	    | tail -n +1
	@echo "per-file report: $(COV_BUILD)/engine-coverage.txt"

include conformance/fuzz/fuzz.mk

# --- proofs -------------------------------------------------------------------------

mutation: $(DEPS_STAMP)
	sh conformance/proofs/mutation.sh "$(CC)"

# The ring protocol (engine/capture/ring.c) under x86-TSO, exhaustively, in
# Spin (conformance/proofs/ring.pml), then its mutants, each of which must fail.
model:
	@$(call ensure_packages,command -v spin,spin,Spin for make model)
	sh conformance/proofs/model.sh $(BUILD)

# The mutation score (conformance/proofs/mutants.pl, its header says how):
# mutants of the engine's sources, each built by recompiling one object and
# relinking the suite in a per-job copy of the tree under $(BUILD)/mutants,
# then run with a timeout; a survivor is built and run again with ASan +
# UBSan + LeakSanitizer, as make asan runs the suite, and one the equivalents
# file does not explain with TSan too, as make tsan does, over the concurrency
# suite (the only one that starts threads) (MUTANT_SANITIZERS= skips those
# stages). conformance/proofs/equivalent_mutants.txt lists the survivors
# proven equivalent. The builds' flags and object lists reach mutants.pl in
# one file, $(BUILD)/mutants.conf (KEY=VALUE lines).
MUTANT_JOBS ?= 2
MUTANT_FILES ?=
MUTANT_SAMPLE ?=
MUTANT_SEED ?= 1
MUTANT_TIMEOUT ?=
MUTANT_MIN_SCORE ?= 95
MUTANT_RETRY ?=
MUTANT_LIST ?=
MUTANT_SHARD ?=
MUTANT_SANITIZERS ?= asan tsan
# What judges each mutant: suite (the whole suite), vectors (the committed
# vectors alone) or generate (the generator alone, MUTANT_GENERATE_ARGS);
# conformance/proofs/mutants.pl's header.
MUTANT_SUITE ?= suite
MUTANT_GENERATE_ARGS ?= --generate 2000 --seed 2029
SAN_CFLAGS_BASE = $(CSTD) $(WARN) -O1 -g $(DEFS) $(PKG_CFLAGS) -MMD -MP
# The suite's and the command's objects (not archives: a mutant relinks them).
MUTANT_SUITE_OBJS = $(RUNNER_OBJ) $(GENERATE_OBJ) $(UNIT_OBJ) $(HARNESS_OBJ) $(SIM_OBJ)
MUTANT_NTSIM_OBJS = $(CMD_OBJ) $(HARNESS_OBJ) $(SIM_OBJ)
define MUTANT_CONF
MUTANT_BUILD=$(BUILD)
MUTANT_CC=$(CC)
MUTANT_CFLAGS=$(CFLAGS_BASE)
MUTANT_INC=$(INC_ENGINE)
MUTANT_LIBS=$(PKG_LIBS) $(EXTRA_LDFLAGS)
MUTANT_LINK_OBJS=$(MUTANT_SUITE_OBJS)
MUTANT_ENGINE_OBJS=$(ENGINE_OBJ)
MUTANT_NTSIM_OBJS=$(MUTANT_NTSIM_OBJS)
MUTANT_SANITIZERS=$(MUTANT_SANITIZERS)
MUTANT_SUITE=$(MUTANT_SUITE)
MUTANT_GENERATE_ARGS=$(MUTANT_GENERATE_ARGS)
MUTANT_ASAN_BUILD=$(BUILD)/asan
MUTANT_ASAN_CFLAGS=$(SAN_CFLAGS_BASE) $(ASAN_CFLAGS)
MUTANT_ASAN_LIBS=$(PKG_LIBS) $(ASAN_LDFLAGS)
MUTANT_ASAN_ENV=$(ASAN_ENV)
MUTANT_TSAN_BUILD=$(BUILD)/tsan
MUTANT_TSAN_CFLAGS=$(SAN_CFLAGS_BASE) $(TSAN_CFLAGS)
MUTANT_TSAN_LIBS=$(PKG_LIBS) $(TSAN_LDFLAGS)
MUTANT_TSAN_ENV=$(TSAN_ENV) CK_RUN_SUITE=concurrency
MUTANT_JOBS=$(MUTANT_JOBS)
MUTANT_FILES=$(MUTANT_FILES)
MUTANT_SAMPLE=$(MUTANT_SAMPLE)
MUTANT_SEED=$(MUTANT_SEED)
MUTANT_TIMEOUT=$(MUTANT_TIMEOUT)
MUTANT_MIN_SCORE=$(MUTANT_MIN_SCORE)
MUTANT_RETRY=$(MUTANT_RETRY)
MUTANT_LIST=$(MUTANT_LIST)
MUTANT_SHARD=$(MUTANT_SHARD)
endef
mutants: $(CHECK_BIN) $(NTSIM_BIN) | $(GEN_HDR)
	$(foreach s,$(if $(filter suite,$(MUTANT_SUITE)),$(filter asan tsan,$(MUTANT_SANITIZERS))),$(MAKE) BUILD=$(BUILD)/$(s) OPT="-O1 -g" \
	    EXTRA_CFLAGS="$($(call upper,$(s))_CFLAGS)" EXTRA_LDFLAGS="$($(call upper,$(s))_LDFLAGS)" \
	    $(BUILD)/$(s)/check_ntsim $(BUILD)/$(s)/ntsim &&) true
	$(file >$(BUILD)/mutants.conf,$(MUTANT_CONF))
	perl conformance/proofs/mutants.pl $(BUILD)/mutants.conf
upper = $(if $(filter asan,$(1)),ASAN,TSAN)

# The shards of one make mutants run (MUTANT_SHARD=K/N on N machines, their
# report.shard-K-of-N.txt gathered here) as one report and one score:
# build/mutants/report.txt, judged against MUTANT_MIN_SCORE (docs/ci.md).
MUTANT_REPORTS ?= $(wildcard $(BUILD)/mutants/report.shard-*-of-*.txt)
MUTANT_MERGED ?= $(BUILD)/mutants/report.txt
mutants-merge:
	@mkdir -p $(dir $(MUTANT_MERGED))
	perl conformance/proofs/mutants.pl --merge $(MUTANT_MERGED) $(MUTANT_MIN_SCORE) $(MUTANT_REPORTS)

# The shards of a small real mutant run, merged, give the unsharded run's
# score and results (conformance/proofs/shard_mutants.sh; part of make check).
mutants-shard-check: $(CHECK_BIN) $(NTSIM_BIN)
	sh conformance/proofs/shard_mutants.sh $(BUILD) "$(CC)"

# vectors/README.md's checklist for adding an event type, proven on a scratch
# copy: a throwaway 47th type with the listed edits passes the whole suite,
# and leaving out any one edit fails the build or the suite.
add-type-check: $(DEPS_STAMP)
	sh conformance/proofs/add_type.sh "$(CC)"

# docs/architecture.md's checklist for adding a vector kind, proven the same
# way: a throwaway twelfth kind with the listed edits is judged through the
# testee, and leaving out any one edit fails the build or the suite.
add-kind-check: $(DEPS_STAMP)
	sh conformance/proofs/add_kind.sh "$(CC)"

# docs/architecture.md's checklist for adding a scenario key, proven the
# same way: a throwaway host.think_ns with the listed edits passes the suite,
# and leaving out any one edit fails the build or the suite.
add-scenario-key-check: $(DEPS_STAMP)
	sh conformance/proofs/add_scenario_key.sh "$(CC)"

# docs/architecture.md's checklist for adding an output format, the same way:
# a throwaway format with the ten listed edits passes the suite and is
# written by ntsim run and export, and leaving out any one edit fails the
# build, the suite or the file map.
add-format-check: $(DEPS_STAMP)
	sh conformance/proofs/add_format.sh "$(CC)"

include conformance/bench/bench.mk

# --- install ------------------------------------------------------------------
#
# make install puts under $(DESTDIR)$(PREFIX): the headers, libntsim.a,
# libntsim.so and libntsim.pc; the programs ntsim and check_ntsim in bin/;
# their man pages in share/man/man1/; and in share/ntsim/ the data they read
# at run time, found from where they are (D-DATA-LOCATE): every row of
# NTSIM_DATA_MAP (sim/locate.h, the one list: the vectors, the protos, the
# facts and decisions, the shipped scenarios, TESTEE.md, the example
# testees), each tree path copied to its installed path. It writes the list
# of what it put in share/ntsim/install_manifest.txt, and make uninstall
# removes exactly those files (then the folders of ntsim's own left empty).

# "tree path=installed path" per row of the map; a folder's files found now.
DATA_MAP = $(shell perl -0777 -ne 's/\\\n/ /g; while (/XX\x28\w+,\s*"([^"]+)",\s*"([^"]+)"/g) { print "$$1=$$2\n" }' sim/locate.h)
data_files = $(if $(wildcard $(1)/.),$(foreach f,$(shell find $(1) -type f ! -name '*.pyc' ! -path '*/__pycache__/*' | LC_ALL=C sort),$(f)=share/ntsim/$(2)$(patsubst $(1)%,%,$(f))),$(1)=share/ntsim/$(2))
# Every regular file install copies, as source=path under the prefix.
INSTALL_FILES = $(foreach h,$(wildcard include/nrt/*.h include/ntsim/*.h),$(h)=$(h)) \
    $(LIB)=lib/libntsim.a $(SHLIB)=lib/$(SONAME) $(NTSIM_BIN)=bin/ntsim $(CHECK_BIN)=bin/check_ntsim \
    $(foreach p,$(MAN_PAGES),$(p)=share/man/man1/$(notdir $(p))) \
    $(foreach m,$(DATA_MAP),$(call data_files,$(firstword $(subst =, ,$(m))),$(lastword $(subst =, ,$(m)))))
# Its name, from sim/locate.h: an installed check_ntsim checks its data against it.
MANIFEST := $(shell sed -n 's/^\#define NTSIM_INSTALLED_DATA "\(.*\)"$$/\1/p' sim/locate.h)/$(shell \
    sed -n 's/^\#define NTSIM_INSTALL_MANIFEST "\(.*\)"$$/\1/p' sim/locate.h)

# The man pages, made from the programs' own --help (conformance/cli/man_pages.pl).
$(BUILD)/man/ntsim.1: docs/man/ntsim.1.in $(NTSIM_BIN) conformance/cli/man_pages.pl sim/locate.h
	@mkdir -p $(@D)
	perl conformance/cli/man_pages.pl page $< ./$(NTSIM_BIN) $(VERSION) $@
$(BUILD)/man/check_ntsim.1: docs/man/check_ntsim.1.in $(CHECK_BIN) conformance/cli/man_pages.pl sim/locate.h
	@mkdir -p $(@D)
	perl conformance/cli/man_pages.pl page $< ./$(CHECK_BIN) $(VERSION) $@

install: $(LIB) $(SHLIB) $(NTSIM_BIN) $(CHECK_BIN) $(MAN_PAGES)
	@set -e; d='$(DESTDIR)$(PREFIX)'; m="$$d/$(MANIFEST)"; \
	install -d "$$d/share/ntsim"; : >"$$m.tmp"; \
	for pair in $(INSTALL_FILES); do \
	    src=$${pair%%=*}; dst=$${pair#*=}; mode=644; [ ! -x "$$src" ] || mode=755; \
	    install -d "$$d/$${dst%/*}"; install -m $$mode "$$src" "$$d/$$dst"; echo "$$dst" >>"$$m.tmp"; \
	done; \
	ln -sf $(SONAME) "$$d/lib/libntsim.so"; echo lib/libntsim.so >>"$$m.tmp"; \
	install -d "$$d/lib/pkgconfig"; \
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' engine/libntsim.pc.in \
	    >"$$d/lib/pkgconfig/libntsim.pc"; echo lib/pkgconfig/libntsim.pc >>"$$m.tmp"; \
	echo $(MANIFEST) >>"$$m.tmp"; mv "$$m.tmp" "$$m"; \
	echo "make install: $$(wc -l <"$$m") files under $$d (listed in $$m)"

# What install put, from its manifest (or, without one, what it would put
# now); then the folders that are ntsim's own, when nothing else is in them.
uninstall:
	@d='$(DESTDIR)$(PREFIX)'; m="$$d/$(MANIFEST)"; \
	if [ -f "$$m" ]; then files=$$(cat "$$m"); else \
	    files="$(foreach pair,$(INSTALL_FILES),$(lastword $(subst =, ,$(pair)))) lib/libntsim.so lib/pkgconfig/libntsim.pc"; fi; \
	n=0; for f in $$files; do [ ! -e "$$d/$$f" ] && [ ! -L "$$d/$$f" ] || n=$$((n + 1)); rm -f "$$d/$$f"; done; \
	for dir in share/ntsim include/ntsim include/nrt; do \
	    [ ! -d "$$d/$$dir" ] || find "$$d/$$dir" -depth -type d -empty -delete; done; \
	echo "make uninstall: removed $$n files under $$d"

# Installs into a scratch prefix and builds a program against it with
# pkg-config, as a porter would.
$(BUILD)/.man-ok: | $(DEPS_STAMP)
	@$(call ensure_packages,command -v man,man-db,man for make install-check)
	@touch $@
install-check: $(DEPS_STAMP) | $(BUILD)/.junitparser-ok $(BUILD)/.protobuf-py-ok $(BUILD)/.man-ok
	sh conformance/cli/install_check.sh
	sh conformance/cli/install_suite.sh $(PYTHON3)

clean:
	rm -rf $(BUILD)

-include $(ENGINE_OBJ:.o=.d) $(ENGINE_PIC:.o=.d) $(SIM_OBJ:.o=.d) $(HARNESS_OBJ:.o=.d) \
    $(GENERATE_OBJ:.o=.d) $(RUNNER_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(BUILD)/obj/conformance/bench/bench_sim.d
