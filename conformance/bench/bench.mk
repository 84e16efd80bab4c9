# conformance/bench/bench.mk: the benchmarks (not tests). make bench: the
# capture path beside LTTng-UST and memcpy, the converters beside jansson and
# C++ libprotobuf, the simulator's speed and memory; make bench-quick for CI.

BENCH_BIN   := $(BUILD)/bench_capture
BENCH_CONV  := $(BUILD)/bench_convert
BENCH_SIM   := $(BUILD)/bench_sim
BENCH_OBJ   := $(BUILD)/obj/conformance/bench
BENCH_STAMP := $(BUILD)/.bench-deps-ok
BENCH_PROBE = pkg-config --exists lttng-ust protobuf && command -v lttng

$(BENCH_STAMP): | $(DEPS_STAMP)
	@$(call ensure_packages,$(BENCH_PROBE),liblttng-ust-dev lttng-tools libprotobuf-dev,the benchmark peers)
	@touch $@

# The LTTng-UST provider is compiled with the library's own expectations
# (gnu11, no -pedantic; its header names itself from the top of the tree);
# the benchmark itself with the project's flags.
$(BENCH_OBJ)/lttng_tp.o $(BENCH_OBJ)/lttng_peer.o: $(BENCH_OBJ)/%.o: conformance/bench/%.c \
        conformance/bench/lttng_tp.h | $(BENCH_STAMP)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -I. -Wall -Werror -c $< -o $@

BENCH_CAPTURE_OBJ := $(addprefix $(BENCH_OBJ)/,bench_capture.o bench_threads.o bench_drain.o)
$(BENCH_CAPTURE_OBJ): $(BENCH_OBJ)/%.o: conformance/bench/%.c conformance/bench/bench_capture.h | $(BENCH_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O2 -g $(DEFS) -Iinclude -c $< -o $@

$(BENCH_BIN): $(BENCH_CAPTURE_OBJ) $(BENCH_OBJ)/lttng_tp.o $(BENCH_OBJ)/lttng_peer.o $(LIB) \
              | $(BENCH_STAMP)
	$(CC) -o $@ $^ $$(pkg-config --libs lttng-ust) $(PKG_LIBS_ENGINE) -ldl -pthread

# The C++ libprotobuf peer: protoc's C++ output for the same ntff.proto.
$(BUILD)/gen-cpp/ntff.pb.cc: engine/convert/ntff.proto | $(BENCH_STAMP)
	@mkdir -p $(@D)
	protoc --cpp_out=$(BUILD)/gen-cpp -Iengine/convert engine/convert/ntff.proto

$(BENCH_CONV): conformance/bench/bench_convert.c conformance/bench/ntff_cpp_peer.cc \
               $(BUILD)/gen-cpp/ntff.pb.cc $(LIB) | $(BENCH_STAMP)
	@mkdir -p $(BENCH_OBJ)
	$(CC) $(CSTD) $(WARN) -O2 -g $(DEFS) -Iinclude $$(pkg-config --cflags jansson) \
	    -c conformance/bench/bench_convert.c -o $(BENCH_OBJ)/bench_convert.o
	$(CXX) -std=c++17 -O2 -g -Iinclude -I$(BUILD)/gen-cpp -c conformance/bench/ntff_cpp_peer.cc \
	    -o $(BENCH_OBJ)/ntff_cpp_peer.o
	$(CXX) -std=c++17 -O2 -g -I$(BUILD)/gen-cpp -c $(BUILD)/gen-cpp/ntff.pb.cc \
	    -o $(BENCH_OBJ)/ntff.pb.o
	$(CXX) -o $@ $(BENCH_OBJ)/bench_convert.o $(BENCH_OBJ)/ntff_cpp_peer.o \
	    $(BENCH_OBJ)/ntff.pb.o $(LIB) $$(pkg-config --libs jansson protobuf) \
	    $(PKG_LIBS_ENGINE) -pthread

# The simulator's own speed and memory (sim.sh): it needs nothing beyond the
# suite's libraries, so it builds without the benchmark peers.
$(BENCH_OBJ)/bench_sim.o: INC = $(INC_LIB)
$(BENCH_SIM): $(BENCH_OBJ)/bench_sim.o $(HARNESS_LIB) $(SIM_LIB) $(LIB)
	$(CC) $(CFLAGS_BASE) -o $@ $^ $(NTSIM_LIBS) $(EXTRA_LDFLAGS)

bench-sim: $(BENCH_SIM)
	sh conformance/bench/sim.sh ./$(BENCH_SIM)

bench: $(BENCH_BIN) $(BENCH_CONV) $(BENCH_SIM)
	sh conformance/bench/run.sh ./$(BENCH_BIN) $(BENCH_ARGS)
	./$(BENCH_CONV)
	sh conformance/bench/sim.sh ./$(BENCH_SIM)

# The same, small: for CI, well under 30 s; it checks nothing.
bench-quick: $(BENCH_BIN) $(BENCH_CONV)
	sh conformance/bench/run.sh ./$(BENCH_BIN) --quick
	./$(BENCH_CONV) --events 20000
