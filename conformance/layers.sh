#!/bin/sh
# conformance/layers.sh CC: proves that the layers only point down,
#
#   include/ <- engine/ <- sim/ <- conformance/ <- conformance/ntsim/ (the command)
#
# in three ways, run by `make check` (and `make layers`):
#   1. every layer's own -I flags (the Makefile's INC_*, passed in the
#      environment) let a probe include what lies below it;
#   2. the same flags make a probe that includes a header of a layer above
#      fail to compile, with "No such file" (gcc) or "file not found" (clang)
#      for that header (so the build of every object is itself the proof that
#      nothing points up);
#   3. no source reaches around the -I flags with a relative path ("../"), and
#      no file below the command includes one of the command's headers.
set -u
cc=${1:-cc}
: "${INC_ENGINE:?}" "${INC_SIM:?}" "${INC_CONF:?}" "${INC_CMD:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# probe NAME FLAGS HEADER WANT: compile '#include "HEADER"' with FLAGS;
# WANT is ok (must compile) or missing (must fail: the header is not visible).
probe() {
    name=$1 flags=$2 header=$3 want=$4
    printf '#include "%s"\nint ntsim_layer_probe(void);\nint ntsim_layer_probe(void) { return 0; }\n' \
        "$header" >"$tmp/probe.c"
    # shellcheck disable=SC2086 # the flags are a list
    if $cc -std=c11 -D_POSIX_C_SOURCE=200809L $flags $(pkg-config --cflags yaml-0.1 libprotobuf-c) \
        -c "$tmp/probe.c" -o "$tmp/probe.o" >"$tmp/cc.log" 2>&1; then
        got=ok
    elif grep -q -e "No such file" -e "file not found" "$tmp/cc.log"; then # gcc, clang
        got=missing
    else
        got=error
    fi
    if [ "$got" != "$want" ]; then
        echo "layers: $name: including $header: $got, want $want" >&2
        sed 's/^/    /' "$tmp/cc.log" | head -3 >&2
        fail=1
    fi
}

# engine/ sees the ABI and itself, nothing of sim/ or above.
probe "engine sees include" "$INC_ENGINE" nrt/nrt_sys_trace.h ok
probe "engine sees itself" "$INC_ENGINE" event_table.h ok
probe "engine above: sim" "$INC_ENGINE" sim.h missing
probe "engine above: conformance" "$INC_ENGINE" vector.h missing
probe "engine above: command" "$INC_ENGINE" cli.h missing
probe "engine above: testee protocol" "$INC_ENGINE" testee.pb-c.h missing
# sim/ sees the engine, not the harness or the command (and no YAML of its own).
probe "sim sees engine" "$INC_SIM" event_table.h ok
probe "sim sees itself" "$INC_SIM" sim.h ok
probe "sim above: conformance" "$INC_SIM" vector.h missing
probe "sim above: yaml reader" "$INC_SIM" yaml_reader.h missing
probe "sim above: scenario loader" "$INC_SIM" scenario_load.h missing
probe "sim above: command" "$INC_SIM" cli.h missing
probe "sim above: testee protocol" "$INC_SIM" testee.pb-c.h missing
# conformance/ (runner, kinds, inputs) sees the simulator, not the command.
probe "conformance sees sim" "$INC_CONF" sim.h ok
probe "conformance sees itself" "$INC_CONF" kinds.h ok
probe "conformance sees the testee protocol" "$INC_CONF" testee.h ok
probe "conformance above: command" "$INC_CONF" cli.h missing
# the command sees everything.
probe "command sees conformance" "$INC_CMD" kinds.h ok
probe "command sees itself" "$INC_CMD" cli.h ok

# No relative includes anywhere: they would bypass the -I discipline.
rel=$(grep -rn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.\./' \
      include engine sim conformance 2>/dev/null)
if [ -n "$rel" ]; then
    echo "layers: relative includes reach around the layers:" >&2
    echo "$rel" | sed 's/^/    /' >&2
    fail=1
fi
# Nothing below the command names one of its headers (caught by the build
# too; this names the file).
for h in $(cd conformance/ntsim && ls *.h); do
    up=$(grep -rln --include='*.c' --include='*.h' "#include \"$h\"" include engine sim \
         $(ls -d conformance/* | grep -v '^conformance/ntsim$') 2>/dev/null)
    if [ -n "$up" ]; then
        echo "layers: $h (the command's) is included below it by: $up" >&2
        fail=1
    fi
done

if [ "$fail" -eq 0 ]; then
    echo "layers: include <- engine <- sim <- conformance <- ntsim, nothing points up: ok"
fi
exit "$fail"
