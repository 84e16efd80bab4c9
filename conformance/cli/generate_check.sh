#!/bin/sh
# conformance/cli/generate_check.sh CHECK NTSIM [PYTHON3]: generative
# conformance (`CHECK --generate`, docs/generative.md), run by `make check`.
#
#   1. A short pass (seed 2029, 600 cases) through `NTSIM testee` passes,
#      covers every (type, phase) of the one table, every converter input and
#      every api call, and discards nothing (the reference passes every
#      vector written from its own answers).
#   2. Each subtle break of `NTSIM testee --break=...` is found, shrunk to
#      the smallest case (one string byte, one record, a ring one past its
#      capacity) and saved as a vector that `NTSIM replay` passes (the
#      reference) and the broken testee fails; the repro line replays the
#      case; the committed vectors now catch each break too.
#   3. The same seed and case give the same vector, in process and through
#      the testee.
#   4. A testee lacking kinds or capabilities: the cases it cannot judge are
#      skipped with the reason, the checks it cannot answer counted.
#   5. Bad options are usage errors.
#   6. --junit FILE of a generate run (200 cases from seed 2029: passing in
#      process, one failing through a broken testee, skips through a testee
#      that answers less), read by python3-junitparser
#      (conformance/cli/junit_check.py), counts what the generate line does
#      (D-JUNIT).
set -u
check=${1:?usage: generate_check.sh CHECK NTSIM [PYTHON3]}
ntsim=${2:?}
py=${3:-python3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
seed=2029

bad() {
    echo "generate_check: $*" >&2
    fail=1
}

# run NAME EXPECTED_RC ARGS...: CHECK with ARGS, output in $tmp/NAME.
run() {
    name=$1 want=$2
    shift 2
    "$check" "$@" >"$tmp/$name" 2>"$tmp/$name.err"
    rc=$?
    [ "$rc" -eq "$want" ] || {
        bad "$name: exit $rc, want $want"
        sed 's/^/    /' "$tmp/$name" | tail -8 >&2
        sed 's/^/    /' "$tmp/$name.err" | tail -3 >&2
    }
}

has() {
    grep -qF -- "$2" "$tmp/$1" || bad "$1: no line with: $2"
}

# --- 1. a short pass through the built-in testee --------------------------------------

start=$(date +%s)
run pass 0 --testee "$ntsim testee" --generate 600 --seed $seed --progress 0
has pass "generate: seed $seed, cases 0..599 (record,json,ntff,notify,api), against $ntsim testee"
# Every (type, phase) of the one table and every api call, however many the
# table and the call list hold: "N of N", nothing missing.
full() {
    n=$(sed -n "s/.*$2 \([0-9]*\) of \([0-9]*\).*/\1 \2/p" "$tmp/$1" | head -1)
    [ -n "$n" ] && [ "${n% *}" = "${n#* }" ] || bad "$1: not every $2 covered: '${n:-no line}'"
}
full pass "coverage: (type, phase)"
full pass "api calls"
has pass "coverage: notification types 0..10: 11 of 11,"
has pass "600 passed, 0 failed, 0 skipped, 0 discarded, 0 errors (seed $seed)"
took=$(( $(date +%s) - start ))

# --- 2. broken testees: found, shrunk, saved, replayed ---------------------------------

# found BREAK ID_PREFIX: the break is found, its case shrunk and saved.
found() {
    b=$1 prefix=$2
    run "$b" 1 --testee "$ntsim testee --break=$b" --generate 600 --seed $seed --progress 0 \
        --max-failures 1 --save-failures "$tmp/saved-$b"
    has "$b" "FAIL [generate] $prefix"
    has "$b" "generate: stopped after 1 failing cases (--max-failures)"
    set -- "$tmp/saved-$b"/*.yaml
    [ -f "$1" ] || { bad "$b: no vector saved"; return; }
    saved=$1
    "$ntsim" replay --quiet "$saved" >/dev/null 2>&1 || bad "$b: ntsim replay $saved fails: the reference fails its own vector"
    run "$b-replay" 1 --testee "$ntsim testee --break=$b" --vectors "$tmp/saved-$b"
    has "$b-replay" "conformance: 0 passed, 1 failed"
    # The repro line makes the same case again, and it fails the same way.
    repro=$(sed -n 's/^  repro: //p' "$tmp/$b")
    [ -n "$repro" ] || { bad "$b: no repro line"; return; }
    eval "$repro --progress 0" >"$tmp/$b-repro" 2>&1 && bad "$b: the repro line passes: $repro"
    grep -qF "FAIL [generate] $prefix" "$tmp/$b-repro" || bad "$b: the repro line makes another case: $repro"
}

found escape_1e json.gen.s$seed.c
grep -q '^    string: "1e"$' "$tmp/saved-escape_1e"/*.yaml ||
    bad "escape_1e: not shrunk to the one byte 1e"
found json_key_order_rare json.gen.s$seed.c
[ "$(grep -c '^      - {type: ASYNC_SEMA_WAIT, phase: START' "$tmp/saved-json_key_order_rare"/*.yaml)" = 1 ] &&
    [ "$(grep -c '^      - {' "$tmp/saved-json_key_order_rare"/*.yaml)" = 1 ] ||
    bad "json_key_order_rare: not shrunk to one nrt_async_sema_wait START record"
found overwrite_count record.gen.s$seed.c
grep -q 'overwritten: 1,' "$tmp/saved-overwrite_count"/*.yaml ||
    bad "overwrite_count: not shrunk to a single overwrite"
found record_byte record.gen.s$seed.c

# The committed vectors that the generator's first finds became catch each
# subtle break now (vectors/*_generated.yaml, hand-checked).
for pair in overwrite_count:record.generated.overwrite.capacity_1025 \
            json_key_order_rare:json.generated.key_order.async_sema_wait_start \
            escape_1e:json.generated.escape.byte_1e; do
    b=${pair%%:*} id=${pair#*:}
    run "$b-vectors" 1 --testee "$ntsim testee --break=$b" --id "$id"
    has "$b-vectors" "FAIL [${id%%.*}] $id"
done

# --- 3. the same case, in process and through the testee ---------------------------------

run case-in 0 --seed $seed --case 301
run case-testee 0 --testee "$ntsim testee" --seed $seed --case 301
sed -n '/^version: 1$/,/^$/p' "$tmp/case-in" >"$tmp/vector-in"
sed -n '/^version: 1$/,/^$/p' "$tmp/case-testee" >"$tmp/vector-testee"
[ -s "$tmp/vector-in" ] || bad "--case 301 printed no vector"
cmp -s "$tmp/vector-in" "$tmp/vector-testee" || bad "--case 301 differs in process and through the testee"

# --- 4. a testee that answers less ---------------------------------------------------------

run less 0 --testee "$ntsim testee --kinds=record,json --capabilities=log" --generate 120 \
    --seed $seed --progress 0 --junit "$tmp/less.xml"
has less "  ntff: 10 cases, 0 passed, 0 failed, 10 skipped (the testee does not answer ntff)"
has less "skipped (needs the testee's json_escape)"
has less "without their stats checks (not announced)"

# --- 5. usage ----------------------------------------------------------------------------

run zero 2 --generate 0
has zero.err "--generate: '0' is not a positive count"
run kind 2 --generate 5 --kind record,layout
has kind.err "--kind: 'layout' is not a generated kind (record,json,ntff,notify,api)"
run seedx 2 --generate 5 --seed x
has seedx.err "--seed: 'x' is not a count"
run seed010 0 --seed 010 --case 0 --progress 0
has seed010 "generate: seed 10, cases 0..0"

# --- 6. the --junit file counts what the generate line does ------------------------------

# junit NAME: NAME's --junit file ($tmp/NAME.xml) against its generate line.
junit() {
    line=$(grep '^generate: [0-9]* cases in ' "$tmp/$1")
    "$py" conformance/cli/junit_check.py "$tmp/$1.xml" "$line" >"$tmp/$1.junit" 2>&1 ||
        bad "$1: the --junit file does not count what '$line' does: $(cat "$tmp/$1.junit")"
}
run junit 0 --generate 200 --seed $seed --progress 0 --junit "$tmp/junit.xml"
has junit "200 passed, 0 failed, 0 skipped, 0 discarded, 0 errors (seed $seed)"
junit junit
run junit-fail 1 --testee "$ntsim testee --break=escape_1e" --generate 200 --seed $seed --progress 0 \
    --junit "$tmp/junit-fail.xml"
has junit-fail "199 passed, 1 failed, 0 skipped"
junit junit-fail
junit less

if [ "$fail" -eq 0 ]; then
    echo "generate_check: 600 cases through the testee (${took} s) cover every (type, phase), converter input and api call; subtle breaks found, shrunk, saved and replayed; --junit counts what the generate line does; ok"
fi
exit "$fail"
