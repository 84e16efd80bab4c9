#!/bin/sh
# conformance/cli/contract_check.sh CHECK NTSIM: the suite judges the contract,
# not ntsim's words (issue 36, D-LOG-CONTRACT); run by `make check`.
#
#   1. A port that words every message its own way: `NTSIM testee
#      --break=reword` keeps each message's level, the text the spec quotes
#      and the values it is about, and none of ntsim's words. Over the
#      committed vectors it passes exactly what the plain testee passes (the
#      same per-kind lines), and over `--generate 2000 --seed 2029` the same
#      cases (the same per-kind lines and summary).
#   2. The proof can fail: a vector that demands one of ntsim's own words
#      passes the plain testee and fails the reworded one.
#   3. A log that counts messages it does not show (`--break=log_unlisted`)
#      fails every vector with a log check, among them
#      record.generated.overflow.drain_logs_nothing (nothing at warning or
#      error), and a generated run (issue 35).
#      A reply that sets no body is named as such (TESTEE.md: a void call's
#      reply still sets its body).
#   4. `--kind LIST` takes several kinds for the vectors as for --generate.
#   5. Allocations are judged by their outcome, nothing leaked among it
#      (D-ALLOCATOR): a testee whose out-of-memory paths keep one block
#      (`--break=oom_leak`) fails every api vector that runs a call out of
#      memory, each message naming the vector's call, the allocations
#      allowed and the blocks left held, and a generated api run; the plain
#      testee passes both (section 1); a testee that does not announce
#      `blocks` is not judged on them, and the summary says so.
set -u
check=${1:?usage: contract_check.sh CHECK NTSIM}
ntsim=${2:?}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
seed=2029
cases=2000

bad() {
    echo "contract_check: $*" >&2
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
        grep -v '^  repro' "$tmp/$name" | tail -8 | sed 's/^/    /' >&2
        tail -3 "$tmp/$name.err" | sed 's/^/    /' >&2
    }
}

has() {
    grep -qF -- "$2" "$tmp/$1" || bad "$1: no line with: $2"
}

# What a run passed and failed, kind by kind, without its times.
verdicts() {
    grep -E '^  [a-z_]+: [0-9]+ (cases|passed)|^conformance: |^generate: [0-9]+ cases' "$tmp/$1" |
        sed 's/ in [0-9.]* s:/:/'
}

same() {
    verdicts "$1" >"$tmp/$1.v"
    verdicts "$2" >"$tmp/$2.v"
    [ -s "$tmp/$1.v" ] || bad "$1: no verdict lines"
    cmp -s "$tmp/$1.v" "$tmp/$2.v" || {
        bad "$2 does not pass exactly what $1 passes:"
        diff "$tmp/$1.v" "$tmp/$2.v" | sed 's/^/    /' >&2
    }
}

# --- 1. reworded messages pass what the plain ones pass --------------------------------

run plain 0 --testee "$ntsim testee"
run reword 0 --testee "$ntsim testee --break=reword"
same plain reword
run gen_plain 0 --testee "$ntsim testee" --generate $cases --seed $seed --progress 0
run gen_reword 0 --testee "$ntsim testee --break=reword" --generate $cases --seed $seed --progress 0
same gen_plain gen_reword
has gen_reword "generate: $cases cases"

# --- 2. a vector that demands ntsim's words fails the reworded testee ------------------

mkdir "$tmp/words"
cat >"$tmp/words/record_words.yaml" <<'EOF'
version: 1
kind: record
vectors:
  - id: record.words.nc_clamp
    comment: "demands 'range', a word of ntsim's warning the spec does not quote: no vector may"
    source: F5.emit.nc_clamp, D-WARN-ONCE
    expect: valid
    session: {ncs: [0]}
    emits:
      - {type: GENERIC, phase: INSTANT, nc_idx: 256, tracking_id: 5, returns: 5}
    log: [{warning: [256, range]}]
EOF
run words_plain 0 --testee "$ntsim testee" --vectors "$tmp/words"
run words_reword 1 --testee "$ntsim testee --break=reword" --vectors "$tmp/words"
has words_reword 'record.words.nc_clamp: log: expected {warning: [256, "range"]}, got "warning: reworded, holding: 256"'

# --- 3. a log that counts what it does not show ----------------------------------------

run unlisted 1 --testee "$ntsim testee --break=log_unlisted"
has unlisted "record.generated.overflow.drain_logs_nothing: log: the reply counts 3 messages and shows 1"
# Each kind that judges a log has vectors that fail for it.
for k in record json notify api; do
    grep -q "^  $k: [0-9]* passed, [1-9][0-9]* failed" "$tmp/unlisted" ||
        bad "unlisted: no $k vector failed"
done
run gen_unlisted 1 --testee "$ntsim testee --break=log_unlisted" --generate 600 --seed $seed \
    --progress 0 --max-failures 1
has gen_unlisted "log: the reply counts"

# A reply that sets no body (a port's empty answer to a void call) is named so.
run no_body 1 --testee "$ntsim testee --break=no_body" --kind enum
has no_body "answered request 2 (enum) with a Response with no body: set the enum reply even when it holds nothing"

# --- 4. --kind a,b -----------------------------------------------------------------------

run kinds 0 --kind layout,enum
has kinds "  layout: "
has kinds "  enum: "
grep -q "^  record: [0-9]* passed" "$tmp/kinds" && bad "kinds: --kind layout,enum ran record vectors"
run kinds_bad 2 --kind layout,bogus
grep -qF -- "--kind: no kind 'bogus'" "$tmp/kinds_bad.err" || bad "kinds_bad: no message naming 'bogus'"

# --- 5. an out-of-memory path that keeps a block ----------------------------------------

# The api vectors that run a call out of memory: a sweep, or a count below
# get_event_types' 47 blocks (facts §4). Counted from the vectors.
oom=$(awk '
    /^  - id: / { if (hit) n++; hit = 0 }
    /^kind: / { api = ($2 == "api") }
    api && (/fail_allocations: sweep/ || /fail_allocations_after: ([0-9]|[1-3][0-9]|4[0-6])[,}]/) { hit = 1 }
    END { if (hit) n++; print n + 0 }' vectors/*.yaml)
api_all=$(awk '/^kind: / { api = ($2 == "api") } api && /^  - id: / { n++ } END { print n + 0 }' vectors/*.yaml)
[ "$oom" -gt 0 ] || bad "no api vector runs a call out of memory"
run leak 1 --testee "$ntsim testee --break=oom_leak" --kind api
has leak "  api: $((api_all - oom)) passed, $oom failed"
has leak "api.fetch.out_of_memory.calls[7]: blocks: fetch ran out of memory (NRT_RESOURCE) with 0 allocations allowed and left 1 block more held than before it (4 of its 4 attempts that ran out of memory did so); expected as many as before (D-ALLOCATOR"
has leak "api.event_types.out_of_memory.calls[1]: blocks: get_event_types ran out of memory (NRT_RESOURCE) with 1 allocation allowed and left 1 block more held than before it; expected as many as before"
has leak "api.allocator.out_of_memory_keeps_nothing.calls[7]: blocks: start ran out of memory (NRT_RESOURCE) with 0 allocations allowed and left 1 block more held than before it"
run gen_leak 1 --testee "$ntsim testee --break=oom_leak" --generate 600 --seed $seed --kind api \
    --progress 0 --max-failures 1
has gen_leak "ran out of memory (NRT_RESOURCE) with "
has gen_leak "block more held than before it"
# Not announced: not judged, and said so.
run leak_unannounced 0 --testee "$ntsim testee --break=oom_leak --capabilities=log,stats,fail_allocations,json_escape" --kind api
grep -q "^  api: $api_all passed, 0 failed; [1-9][0-9]* without their blocks checks (not announced)$" "$tmp/leak_unannounced" ||
    bad "leak_unannounced: no api line saying the blocks checks were left out"

[ "$fail" -eq 0 ] || exit 1
echo "contract_check: reworded messages pass what ntsim's pass (the vectors, $cases generated cases); words are not judged, hidden messages fail, --kind takes a list, a block kept by an out-of-memory path fails: ok"
