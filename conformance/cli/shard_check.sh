#!/bin/sh
# conformance/cli/shard_check.sh CHECK NTSIM [PYTHON3]: the shards of a run add
# up to the whole run (make check; docs/ci.md has the CI job matrix):
#   1. vectors: the suite through `NTSIM testee`, whole and as --shard K/3,
#      each with --junit, read back by python3-junitparser
#      (conformance/cli/junit_check.py): every shard's file counts what its
#      summary line says; the vectors the shards ran are disjoint, their
#      union is the whole run's, each with the outcome it has there;
#   2. mutants: MUTANT_SHARD=K/3 lists of a sample of 60 (make mutants,
#      nothing built or run) are disjoint and their union is the unsharded
#      list. That the shards' reports of a real run merge into the
#      unsharded run's results and score: conformance/proofs/shard_mutants.sh,
#      which make check runs next.
set -u
check=${1:?usage: shard_check.sh CHECK NTSIM [PYTHON3]}
ntsim=${2:?}
py=${3:-python3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
    echo "shard_check: $*" >&2
    fail=1
}

# --- 1. vectors ------------------------------------------------------------------------
xfail=conformance/runner/expected_failures.txt
for k in whole 0 1 2; do
    shard=; [ "$k" = whole ] || shard="--shard $k/3"
    # shellcheck disable=SC2086 # $shard is two words or none
    "$check" --testee "$ntsim testee" --xfail "$xfail" $shard --junit "$tmp/$k.xml" \
        >"$tmp/$k.log" 2>"$tmp/$k.err" || bad "the run $k failed: $(tail -1 "$tmp/$k.log")"
    "$py" conformance/cli/junit_check.py "$tmp/$k.xml" "$(tail -1 "$tmp/$k.log")" >/dev/null ||
        bad "--junit of run $k does not count what its summary line does"
done
"$py" conformance/cli/junit_check.py --shards "$tmp/whole.xml" "$tmp/0.xml" "$tmp/1.xml" "$tmp/2.xml" \
    >"$tmp/vectors" || bad "the vector shards do not add up to the whole run"

# --- 2. mutants ------------------------------------------------------------------------
# mutants.pl's listing exits 1 while the equivalents file names a mutant that
# no longer exists (make mutants reports it); the lists are what is proven here.
list() {
    env MUTANT_LIST=1 MUTANT_SAMPLE=60 MUTANT_SEED=3 MUTANT_SHARD="$1" \
        perl conformance/proofs/mutants.pl 2>/dev/null | sed 's/ | .*//'
}
list "" >"$tmp/m.whole"
: >"$tmp/m.shards"
for k in 0 1 2; do
    list "$k/3" >"$tmp/m.$k"
    [ -s "$tmp/m.$k" ] || bad "MUTANT_SHARD=$k/3 lists no mutant"
    cat "$tmp/m.$k" >>"$tmp/m.shards"
done
n=$(wc -l <"$tmp/m.whole")
[ "$n" -eq 60 ] || bad "the unsharded sample lists $n mutants, not 60"
sort "$tmp/m.shards" | uniq -d >"$tmp/m.twice"
[ ! -s "$tmp/m.twice" ] || bad "mutants in two shards: $(head -3 "$tmp/m.twice")"
sort -u "$tmp/m.shards" | cmp -s - "$(sort "$tmp/m.whole" >"$tmp/m.sorted" && echo "$tmp/m.sorted")" ||
    bad "the shards' mutants are not the unsharded sample's"

if [ "$fail" -eq 0 ]; then
    echo "shard_check: $(sed 's/^junit_check: //' "$tmp/vectors"); 3 mutant shards list the 60 of the sample, each once: ok"
fi
exit "$fail"
