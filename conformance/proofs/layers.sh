#!/bin/sh
# conformance/proofs/layers.sh CC: proves that the layers only point down,
#
#   include/ <- engine/ <- sim/ <- conformance/lib/ <- conformance/testee/
#     <- conformance/testee/builtin/, conformance/kinds/ <- conformance/generate/
#     <- conformance/runner/ <- conformance/unit/;  conformance/cmd/ (the command)
#
# in five ways, run by `make check` (and `make layers`):
#   1. every layer's own -I flags (the Makefile's INC_*, passed in the
#      environment) let a probe include what lies below it (and the part of
#      the record's ABI header with a file of its own, nrt/nrt_sys_trace_
#      event_data.h, included alone stops with its #error naming the header
#      to include);
#   2. the same flags make a probe that includes a header of a layer above
#      fail to compile, with "No such file" (gcc) or "file not found" (clang)
#      for that header (so the build of every object is itself the proof that
#      nothing points up);
#   3. the engine's private headers (its stage folders', ENGINE_STAGES, and
#      those at its top, ENGINE_PRIVATE_TOP) compile for the engine and the
#      unit suites alone: elsewhere a stage header is not found and a top one
#      stops with its "engine-private header" error;
#   4. no source reaches around the -I flags with a relative path ("../"),
#      none names a header by a folder that is not on any -I path
#      ("ntsim/cli.h", "cmd/cli.h": include/ntsim/ is the public API, and
#      the command's folder must not shadow it), and no file outside the
#      command includes one of the command's headers;
#   5. inside the engine the stages point down too, in ENGINE_STAGES' order
#      (capture, convert, timeline, read, analyze): no source of a stage includes a
#      header of a stage after it: one of its folder, its public header
#      (ntsim/convert.h is the converters' and the timelines', ntsim/read.h
#      the read stage's, ntsim/analyze.h the analyses') or its generated one (ntff.pb-c.h, convert's;
#      perfetto_trace.pb-c.h, the timelines'). All the stages are on the
#      engine's -I, so this is read from the sources, not compiled.
set -u
cc=${1:-cc}
: "${INC_ENGINE:?}" "${INC_SIM:?}" "${INC_LIB:?}" "${INC_TESTEE:?}" "${INC_BUILTIN:?}"
: "${INC_KINDS:?}" "${INC_GENERATE:?}" "${INC_RUNNER:?}" "${INC_UNIT:?}" "${INC_CMD:?}"
: "${ENGINE_PRIVATE_TOP:?}" "${ENGINE_STAGES:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
probes=0

# probe NAME FLAGS HEADER WANT: compile '#include "HEADER"' with FLAGS; WANT
# is ok (must compile), missing (must fail: the header is not visible),
# private (must fail with the engine-private header's own #error) or part
# (must fail with the #error of a part of a public header).
probe() {
    name=$1 flags=$2 header=$3 want=$4
    probes=$((probes + 1))
    printf '#include "%s"\nint ntsim_layer_probe(void);\nint ntsim_layer_probe(void) { return 0; }\n' \
        "$header" >"$tmp/probe.c"
    # shellcheck disable=SC2086 # the flags are a list
    if $cc -std=c11 -D_POSIX_C_SOURCE=200809L $flags $(pkg-config --cflags check yaml-0.1 libprotobuf-c) \
        -c "$tmp/probe.c" -o "$tmp/probe.o" >"$tmp/cc.log" 2>&1; then
        got=ok
    elif grep -q -e "No such file" -e "file not found" "$tmp/cc.log"; then # gcc, clang
        got=missing
    elif grep -q "engine-private header" "$tmp/cc.log"; then
        got=private
    elif grep -q "include <nrt/nrt_sys_trace_event.h>, which includes this file" "$tmp/cc.log"; then
        got=part
    else
        got=error
    fi
    if [ "$got" != "$want" ]; then
        echo "layers: $name: including $header: $got, want $want" >&2
        sed 's/^/    /' "$tmp/cc.log" | head -3 >&2
        fail=1
    fi
}

# A header of each layer, included by the name the layer's own sources use.
H_ENGINE=event_table.h
H_SIM=sim.h
# What moved into sim/ from the harness (issue 34): the scenario format and
# the inspect session are the product's.
H_SIM_OWN="yaml_reader.h scenario_load.h inspect_env.h sim_run.h"
H_LIB=vector.h
H_TESTEE=testee.h
H_BUILTIN=testee_engine.h
H_KINDS=kinds.h
H_GENERATE=gen.h
H_RUNNER=check_suites.h
H_UNIT=alloc_probe.h
H_CMD=cli.h
H_PROTO=testee.pb-c.h

# above LAYER FLAGS H...: each header H must not be visible with FLAGS.
above() {
    layer=$1 flags=$2
    shift 2
    for h in "$@"; do probe "$layer above: $h" "$flags" "$h" missing; done
}

# engine/ sees the ABI and itself, nothing of sim/ or above.
probe "engine sees include" "$INC_ENGINE" nrt/nrt_sys_trace.h ok
probe "the record's payloads, by the ABI header's name" "$INC_ENGINE" nrt/nrt_sys_trace_event.h ok
probe "the record's payloads, on their own" "$INC_ENGINE" nrt/nrt_sys_trace_event_data.h part
probe "engine sees itself" "$INC_ENGINE" $H_ENGINE ok
# The read stage's public face (ntsim/read.h) is for every layer; its
# private headers (engine/read/, a stage) for the engine and unit/ (3.).
for layer in SIM LIB TESTEE BUILTIN KINDS GENERATE RUNNER UNIT CMD; do
    eval "flags=\$INC_$layer"
    probe "$(echo $layer | tr A-Z a-z) sees the read API" "$flags" ntsim/read.h ok
done
above engine "$INC_ENGINE" $H_SIM $H_LIB $H_TESTEE $H_PROTO $H_KINDS $H_GENERATE $H_CMD
# sim/ sees the engine's shared pieces and owns what configures a run (its
# scenario format and the strict YAML reader under it, the inspect
# variables); not the harness's vector files, facts or reports.
probe "sim sees engine" "$INC_SIM" $H_ENGINE ok
probe "sim sees itself" "$INC_SIM" $H_SIM ok
for h in $H_SIM_OWN; do probe "sim sees its $h" "$INC_SIM" $h ok; done
above sim "$INC_SIM" $H_LIB facts.h report.h record_input.h $H_TESTEE $H_PROTO $H_CMD
# conformance/lib/ sees the simulator, not the testee protocol or the kinds.
probe "lib sees sim" "$INC_LIB" $H_SIM ok
probe "lib sees sim's YAML reader" "$INC_LIB" yaml_reader.h ok
probe "lib sees itself" "$INC_LIB" $H_LIB ok
above lib "$INC_LIB" $H_TESTEE $H_PROTO $H_BUILTIN $H_KINDS $H_GENERATE $H_RUNNER $H_UNIT $H_CMD
# conformance/testee/ (the protocol) sees lib/, not the built-in testee it
# may be asked to run (the runner hands it the handler) nor the kinds.
probe "testee sees lib" "$INC_TESTEE" $H_LIB ok
probe "testee sees itself" "$INC_TESTEE" $H_TESTEE ok
probe "testee sees its protocol" "$INC_TESTEE" $H_PROTO ok
above testee "$INC_TESTEE" $H_BUILTIN $H_KINDS $H_GENERATE $H_RUNNER $H_UNIT $H_CMD
# conformance/testee/builtin/ answers the protocol; it knows no kind.
probe "builtin sees the protocol" "$INC_BUILTIN" $H_TESTEE ok
probe "builtin sees itself" "$INC_BUILTIN" $H_BUILTIN ok
above builtin "$INC_BUILTIN" $H_KINDS $H_GENERATE $H_RUNNER $H_UNIT $H_CMD
# conformance/kinds/ judge through the protocol, never the engine behind it.
probe "kinds see the protocol" "$INC_KINDS" $H_TESTEE ok
probe "kinds see themselves" "$INC_KINDS" $H_KINDS ok
above kinds "$INC_KINDS" $H_BUILTIN $H_GENERATE $H_RUNNER $H_UNIT $H_CMD
# conformance/generate/ makes cases, asks the built-in testee (the reference)
# and judges through the kinds; the runner calls it, never the other way.
probe "generate sees kinds" "$INC_GENERATE" $H_KINDS ok
probe "generate sees builtin" "$INC_GENERATE" $H_BUILTIN ok
probe "generate sees itself" "$INC_GENERATE" $H_GENERATE ok
above generate "$INC_GENERATE" $H_RUNNER $H_UNIT $H_CMD
# conformance/runner/ sees the kinds and the built-in testee, not the units.
probe "runner sees kinds" "$INC_RUNNER" $H_KINDS ok
probe "runner sees builtin" "$INC_RUNNER" $H_BUILTIN ok
probe "runner sees generate" "$INC_RUNNER" $H_GENERATE ok
probe "runner sees itself" "$INC_RUNNER" $H_RUNNER ok
above runner "$INC_RUNNER" $H_UNIT $H_CMD
# conformance/unit/ sees everything but the command.
probe "unit sees the runner" "$INC_UNIT" $H_RUNNER ok
probe "unit sees itself" "$INC_UNIT" $H_UNIT ok
above unit "$INC_UNIT" $H_CMD
# conformance/cmd/ sees the harness and the built-in testee, not the Check
# runner or the unit suites (it links no test framework).
probe "command sees kinds" "$INC_CMD" $H_KINDS ok
probe "command sees builtin" "$INC_CMD" $H_BUILTIN ok
probe "command sees itself" "$INC_CMD" $H_CMD ok
above command "$INC_CMD" $H_GENERATE $H_RUNNER $H_UNIT

# 3. The engine's private headers: the engine and unit/ only.
for stage in $ENGINE_STAGES; do
    for h in $(cd "$stage" && ls -- *.h 2>/dev/null); do
        probe "engine sees its $stage/$h" "$INC_ENGINE" "$h" ok
        probe "unit sees $stage/$h" "$INC_UNIT" "$h" ok
        for layer in SIM LIB TESTEE BUILTIN KINDS GENERATE RUNNER CMD; do
            eval "flags=\$INC_$layer"
            probe "$(echo $layer | tr A-Z a-z) above: $stage/$h (engine-private)" "$flags" "$h" missing
        done
    done
done
for h in $ENGINE_PRIVATE_TOP; do
    probe "engine sees its $h" "$INC_ENGINE" "$h" ok
    probe "unit sees $h" "$INC_UNIT" "$h" ok
    for layer in SIM LIB TESTEE BUILTIN KINDS GENERATE RUNNER CMD; do
        eval "flags=\$INC_$layer"
        probe "$(echo $layer | tr A-Z a-z): engine/$h is engine-private" "$flags" "$h" private
    done
done

# 4. The command's folder must not shadow the public include/ntsim/, nor be
# reachable by a folder name from anywhere.
for layer in LIB TESTEE BUILTIN KINDS GENERATE RUNNER UNIT CMD; do
    eval "flags=\$INC_$layer"
    lname=$(echo $layer | tr A-Z a-z)
    probe "$lname: ntsim/$H_CMD (a shadow of include/ntsim/)" "$flags" "ntsim/$H_CMD" missing
    probe "$lname: cmd/$H_CMD by folder" "$flags" "cmd/$H_CMD" missing
    probe "$lname: lib/$H_LIB by folder" "$flags" "lib/$H_LIB" missing
done

# No relative includes anywhere: they would bypass the -I discipline.
rel=$(grep -rn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.\./' \
      include engine sim conformance 2>/dev/null)
if [ -n "$rel" ]; then
    echo "layers: relative includes reach around the layers:" >&2
    echo "$rel" | sed 's/^/    /' >&2
    fail=1
fi
# Nothing outside the command names one of its headers (caught by the
# build too; this names the file).
for h in $(cd conformance/cmd && ls -- *.h); do
    up=$(grep -rln --include='*.c' --include='*.h' "#include \"$h\"" include engine sim \
         $(ls -d conformance/* | grep -v '^conformance/cmd$') 2>/dev/null)
    if [ -n "$up" ]; then
        echo "layers: $h (the command's) is included outside it by: $up" >&2
        fail=1
    fi
done

# 5. The engine's stages, in order: what each stage owns, then every later
# stage's headers looked for in the earlier stages' sources.
owned() { # owned STAGE: the headers STAGE owns
    (cd "$1" && ls -- *.h 2>/dev/null)
    case $1 in
    */convert) echo ntsim/convert.h ntff.pb-c.h ;;
    */timeline) echo perfetto_trace.pb-c.h ;;
    */read) echo ntsim/read.h ;;
    */analyze) echo ntsim/analyze.h ;;
    esac
}
earlier=
for stage in $ENGINE_STAGES; do
    for h in $(owned "$stage"); do
        for below in $earlier; do
            probes=$((probes + 1))
            up=$(grep -ln --include='*.c' --include='*.h' -r "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$h\"" \
                 "$below" 2>/dev/null)
            if [ -n "$up" ]; then
                echo "layers: $below points up: $(echo $up | tr '\n' ' ')includes $h ($stage's)" >&2
                fail=1
            fi
        done
    done
    earlier="$earlier $stage"
done

if [ "$fail" -eq 0 ]; then
    echo "layers: include <- engine <- sim <- lib <- testee <- builtin, kinds <- generate <- runner <- unit; cmd;" \
        "in the engine $(echo $ENGINE_STAGES | sed 's|engine/||g; s| | <- |g');" \
        "engine-private headers in engine/ and unit/ only ($probes probes): ok"
fi
exit "$fail"
