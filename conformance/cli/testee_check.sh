#!/bin/sh
# conformance/cli/testee_check.sh CHECK NTSIM [IN_PROCESS_LOG [CHECK_ARGS...]]:
# the conformance suite through a testee process, run by `make check`.
#
#   1. The whole suite through `NTSIM testee` (the built-in testee, over
#      pipes): it must pass, and its line for every kind a testee answers
#      must equal the in-process run's (IN_PROCESS_LOG, the output of
#      `CHECK --ntsim NTSIM CHECK_ARGS...`; run here when not given), so the
#      two modes are one judgement.
#   2. Broken testees (`NTSIM testee --break=...`) get the right failure
#      blocks, and the run goes on: a wrong JSON key order, a flipped record
#      byte, a wrong enum value; a testee that crashes, hangs, exits, writes
#      garbage or answers out of order mid-run (the verdict names what it
#      did; the vectors after it pass); one that cannot start; one that
#      exits non-zero at the end.
#   3. A testee lacking capabilities skips what it cannot be judged on; the
#      shards of a run add up to the run.
#   4. --first SUITES runs those suites first and changes nothing else;
#      an unknown suite is a usage error; --list-suites names every suite.
set -u
check=${1:?usage: testee_check.sh CHECK NTSIM [IN_PROCESS_LOG [CHECK_ARGS...]]}
ntsim=${2:?}
inlog=${3:-}
[ $# -ge 3 ] && shift 3 || shift $#
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
# The kinds a testee answers, from the one list (lib/kind_map.h).
kinds=$("$check" --list-kinds | awk '$2 == "judged" { printf "%s%s", sep, $1; sep = "|" }')
[ -n "$kinds" ] || { echo "testee_check: $check --list-kinds named no judged kind" >&2; exit 1; }

bad() {
    echo "testee_check: $*" >&2
    fail=1
}

# run NAME EXPECTED_RC ARGS...: runs CHECK with ARGS, output in $tmp/NAME.
run() {
    name=$1 want=$2
    shift 2
    "$check" "$@" >"$tmp/$name" 2>"$tmp/$name.err"
    rc=$?
    [ "$rc" -eq "$want" ] || { bad "$name: exit $rc, want $want"; sed 's/^/    /' "$tmp/$name.err" | tail -5 >&2; }
}

# has NAME TEXT: the output of run NAME holds the line fragment TEXT.
has() {
    grep -qF -- "$2" "$tmp/$1" || bad "$1: no line with: $2"
}

# --- 1. the whole suite, in process and through the testee ---------------------

if [ -z "$inlog" ]; then
    inlog=$tmp/in-process
    "$check" --ntsim "$ntsim" "$@" >"$inlog" 2>/dev/null || bad "the in-process run failed"
fi
start=$(date +%s.%N)
run testee 0 --testee "$ntsim testee" --xfail conformance/runner/expected_failures.txt "$@"
end=$(date +%s.%N)
grep -E "^  ($kinds): " "$inlog" >"$tmp/kinds.in"
grep -E "^  ($kinds): " "$tmp/testee" >"$tmp/kinds.testee"
if [ ! -s "$tmp/kinds.in" ] && [ $# -eq 0 ]; then
    bad "the in-process log has no per-kind line"
elif ! cmp -s "$tmp/kinds.in" "$tmp/kinds.testee"; then
    bad "per-kind counts differ between the in-process run and the testee run:"
    diff "$tmp/kinds.in" "$tmp/kinds.testee" | sed 's/^/    /' >&2
fi
has testee "testee: $ntsim testee (ntsim "
has testee "capabilities: log, stats, fail_allocations, json_escape"

# A filtered run only checks that; the rest needs the whole vector set.
if [ $# -gt 0 ]; then
    [ "$fail" -eq 0 ] && echo "testee_check: the testee run's per-kind counts equal the in-process run's"
    exit "$fail"
fi

# --- 2. broken testees ----------------------------------------------------------------

t="$ntsim testee"
run json_key_order 1 --testee "$t --break=json_key_order" --id json.data.model_load.stop
has json_key_order 'FAIL [json] json.data.model_load.stop (vectors/json_events.yaml:8): 1 mismatch'
has json_key_order '-{"event_type":"nrt_load","phase":"stop","id":1125899906842625,'
has json_key_order '+{"phase":"stop","event_type":"nrt_load","id":1125899906842625,'
has json_key_order "  repro: $check --testee '$t --break=json_key_order' --id json.data.model_load.stop"
has json_key_order '  json: 0 passed, 1 failed'

run record_byte 1 --testee "$t --break=record_byte" --file record_smoke.yaml
has record_byte 'record.smoke.hw_notify_instant_nc1.records[0]: bytes: 1 bytes differ, first at +0x08 (thread_id): expected 92, got 93'
has record_byte '  record: 1 passed, 1 failed'

run enum_value 1 --testee "$t --break=enum_value" --kind enum
has enum_value 'enum.notification_type.NOTIFICATION_TYPE_MAX: value: expected 10, got 11'
has enum_value 'enum.event_type.NRT_SYS_TRACE_EVENT_TYPE_COUNT: value: expected 46, got 47'
has enum_value '  enum: 0 passed, 8 failed'

# Request 4 of each process fails: hello, two vectors, then the third
# (block_type, then phase after a restart); after two restarts the seventh
# and eighth enum vectors pass.
for fault in "crash=4:crashed (killed by signal 11, SIGSEGV)" "exit=4:exited with status 3" \
             "hang=4:did not answer within 500 ms (killed)" \
             "garbage=4:wrote a malformed frame: 5 bytes that are not a Response" \
             "disorder=4:answered out of order: its reply carries id 5"; do
    f=${fault%%:*} verdict=${fault#*:}
    run "$f" 1 --testee "$t --break=$f" --testee-timeout 0.5 --kind enum
    has "$f" "enum.block_type: testee: $verdict while answering request 4 (enum); restarted for the next request"
    has "$f" "enum.phase: testee: $verdict while answering request 4 (enum)"
    has "$f" '  enum: 6 passed, 2 failed'
done

# A testee must end well: a non-zero exit at the end of its stdin (how a
# testee under valgrind --error-exitcode reports) fails the run.
run bad_end 1 --testee "sh -c '$t; exit 5'" --kind enum
has bad_end "FAIL the testee 'sh -c '$t; exit 5'' exited with status 5 at the end of the run"
has bad_end '  enum: 8 passed, 0 failed'

run no_start 1 --testee "sh -c 'exit 7'" --kind enum
has no_start.err "the testee 'sh -c 'exit 7'' could not be started: its hello failed: it exited with status 7"

# A hello naming a kind or capability the runner does not know is an error
# naming it (a misspelled kind must not become a testee that answers nothing),
# and a run that judged nothing fails (issue 27: both were green).
run misspelled 1 --testee "$t --kinds=Layout,records" --kind enum
has misspelled.err "could not be started: its hello names an unknown kind 'Layout' (known: layout, enum,"
run misspelled_cap 1 --testee "$t --capabilities=stats,Log" --kind enum
has misspelled_cap.err "its hello names an unknown capability 'Log' (known: log, stats,"
run no_kinds 1 --testee "$t --kinds=" --xfail conformance/runner/expected_failures.txt
has no_kinds "FAIL nothing was judged: every vector was skipped or filtered out (580 skipped); the testee answers none of the selected kinds"
has no_kinds "conformance: 0 passed, 1 failed, 580 skipped"
run only_own 1 --testee "$t" --kind scenario
has only_own "FAIL nothing was judged"

# Text from a testee cannot forge the runner's output: its name and its
# Error messages are shown with every control byte as \xNN, so no line it
# sends starts a line of ours.
run forge 1 --testee "$t --break=forge" --kind enum
has forge 'testee: '"$t"' --break=forge (ntsim\x0aconformance: 9999 passed,...)'
has forge 'enum.phase: testee: answered request 7 (enum) with an error: ntsim\x0aconformance: 9999 passed, 0 failed, 0 skipped\x0a\x1b[2J\x0d'
if grep -q '^conformance: 9999' "$tmp/forge" || grep -q "$(printf '\033')" "$tmp/forge"; then
    bad "forge: a line or an escape of the testee's reached the runner's output"
fi
has forge '  enum: 0 passed, 8 failed'

# --- 3. capabilities and shards -------------------------------------------------------

run port 0 --testee "$t --kinds=layout,json,api --capabilities=" --xfail conformance/runner/expected_failures.txt
has port '  enum: 8 skipped (the testee does not answer enum)'
has port '  json: 88 passed, 0 failed, 4 skipped (needs the testee'"'"'s json_escape); 4 without their log checks (not announced)'
has port '  api: 38 passed, 0 failed, 2 skipped (needs the testee'"'"'s fail_allocations)'
has port '  scenario: 9 skipped (the harness'"'"'s own kind)'

total=$(sed -n 's/^conformance: \([0-9]*\) passed.*/\1/p' "$tmp/testee")
sum=0
for k in 0 1 2; do
    run "shard$k" 0 --testee "$t" --shard "$k/3" --xfail conformance/runner/expected_failures.txt
    n=$(sed -n 's/^conformance: \([0-9]*\) passed.*/\1/p' "$tmp/shard$k")
    sum=$((sum + ${n:-0}))
done
[ "$sum" -eq "${total:-x}" ] || bad "shards 0/3, 1/3, 2/3 passed $sum vectors, the whole run $total"

# --- 4. suite order (--first, make mutants' speed-up) ---------------------------------

# The named suites run first, in that order, then every other one as usual:
# the same tests, the same summary.
CK_TAP_LOG_FILE_NAME=$tmp/first.tap "$check" --ntsim "$ntsim" --first timeline,loader "$@" \
    >"$tmp/first" 2>/dev/null || bad "the run with --first timeline,loader failed"
grep '^conformance: ' "$inlog" >"$tmp/summary.in"
grep '^conformance: ' "$tmp/first" >"$tmp/summary.first"
cmp -s "$tmp/summary.in" "$tmp/summary.first" ||
    bad "--first timeline,loader: '$(cat "$tmp/summary.first")', the usual order: '$(cat "$tmp/summary.in")'"
# The suite of each TAP line (file:SUITE-or-tcase:test), in order of first appearance.
order=$(sed -n 's/^ok [0-9]* - conformance\/[a-z_/]*check_\([a-z_]*\)\.c:.*/\1/p' "$tmp/first.tap" | uniq | head -3 | tr '\n' ' ')
[ "$order" = "timeline loader vectors " ] ||
    bad "--first timeline,loader ran the tests of check_{$order} first, want timeline, loader, then vectors"
run first_bad 2 --first timeline,nosuch
has first_bad.err "check_ntsim: --first: no suite 'nosuch'"
# --list-suites names every suite the sources create, each once.
run list 0 --list-suites
sed -n 's/.*suite_create("\([a-z_]*\)").*/\1/p' $(find conformance -name 'check_*.c') | sort >"$tmp/list.src"
sort "$tmp/list" | cmp -s - "$tmp/list.src" ||
    bad "--list-suites: $(tr '\n' ' ' <"$tmp/list"), the sources create: $(tr '\n' ' ' <"$tmp/list.src")"

if [ "$fail" -eq 0 ]; then
    printf 'testee_check: the testee run (%s vectors, %.1f s) counts what the in-process run does; broken testees, capabilities, shards and suite order: ok\n' \
        "$total" "$(awk "BEGIN { print $end - $start }")"
fi
exit "$fail"
