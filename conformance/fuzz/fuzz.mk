# conformance/fuzz/fuzz.mk: libFuzzer over the loaders and decoders (make fuzz).
#
# make fuzz FUZZ_SECONDS=N runs each target for N seconds over a corpus seeded
# from vectors/, sim/scenarios/ and a default run's outputs. A crash leaves its
# input in build/fuzz/crash-*; add it as a regression vector and fix the bug.
#
# The libraries are built once with clang's fuzzer and sanitizer
# instrumentation (-fsanitize=fuzzer-no-link) by a make of this Makefile into
# $(FUZZ_DIR)/build; each target is its one file linked against them.

FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_BUILD   := $(FUZZ_DIR)/build
FUZZ_TARGETS := vector_loader scenario_loader record_decoder ntff_decoder trace_read
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_ARCHIVES := $(FUZZ_BUILD)/libntsim_harness.a $(FUZZ_BUILD)/libntsim_sim.a $(FUZZ_BUILD)/libntsim.a
FUZZ_STAMP   := $(FUZZ_DIR)/.fuzz-deps-ok

# libFuzzer lives in clang's runtime package; the probe links an empty target.
FUZZ_PROBE = printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' \
    >$(FUZZ_DIR)/probe.c && clang -fsanitize=fuzzer -o $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c
$(FUZZ_STAMP): | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(call ensure_packages,$(FUZZ_PROBE),clang libclang-rt-dev,libFuzzer for make fuzz)
	@$(FUZZ_PROBE) || { echo "ntsim: clang still cannot link -fsanitize=fuzzer" >&2; exit 1; }
	@rm -f $(FUZZ_DIR)/probe $(FUZZ_DIR)/probe.c
	@touch $@

# One make builds the three archives (a make per archive would race on the
# shared objects); .PHONY: its own dependency files decide what to rebuild.
.PHONY: fuzz-archives
fuzz-archives: | $(FUZZ_STAMP)
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang OPT="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_ARCHIVES)

$(FUZZ_DIR)/fuzz_%: conformance/fuzz/fuzz_%.c fuzz-archives | $(GEN_HDR)
	@mkdir -p $(@D)
	clang $(CSTD) -g -O1 $(DEFS) $(INC_KINDS) $(PKG_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< \
	    $(FUZZ_ARCHIVES) $(NTSIM_LIBS)

$(FUZZ_DIR)/seeds.stamp: $(NTSIM_BIN)
	@mkdir -p $(FUZZ_TARGETS:%=$(FUZZ_DIR)/corpus-%)
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
	# trace_read's content picks the format (D-READ): the run's files as they are,
	# and the timelines it refuses by name.
	head -c 20000 $(FUZZ_DIR)/seed-run/trace.json >$(FUZZ_DIR)/corpus-trace_read/doc.json
	./$(NTSIM_BIN) decode $(FUZZ_DIR)/corpus-record_decoder/ten.records \
	    >$(FUZZ_DIR)/corpus-trace_read/ten.json
	cp $(FUZZ_DIR)/seed-run/trace.ntff $(FUZZ_DIR)/seed-run/notifications.ntff \
	    $(FUZZ_DIR)/corpus-trace_read/
	head -c 11200 $(FUZZ_DIR)/seed-run/trace.records >$(FUZZ_DIR)/corpus-trace_read/hundred.records
	head -c 4000 $(FUZZ_DIR)/seed-run/trace.pftrace >$(FUZZ_DIR)/corpus-trace_read/head.pftrace
	head -c 4000 $(FUZZ_DIR)/seed-run/trace.chrome.json >$(FUZZ_DIR)/corpus-trace_read/head.chrome.json
	# and the hostile corpus's timeline inputs (each found by this target).
	cp conformance/testdata/hostile/*.ntff conformance/testdata/hostile/*.records \
	    $(FUZZ_DIR)/corpus-trace_read/
	@touch $@

fuzz: $(FUZZ_BINS) $(FUZZ_DIR)/seeds.stamp
	@for t in $(FUZZ_TARGETS); do \
	    echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	    ./$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	        -artifact_prefix=$(FUZZ_DIR)/crash-$$t- $(FUZZ_DIR)/corpus-$$t || exit 1; \
	done
