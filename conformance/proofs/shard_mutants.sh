#!/bin/sh
# conformance/proofs/shard_mutants.sh [BUILD]: make mutants-shard-check (CI,
# .ci/run): the shards of a real make mutants run, merged by make
# mutants-merge, give the unsharded run's results and score.
#
# A small run (4 mutants of engine/event_table.c, judged by the committed
# vectors: MUTANT_SUITE=vectors, no sanitizer stage) unsharded, then as
# MUTANT_SHARD=0/2 and 1/2, then merged: the merged report's mutants and
# results, its compiled/killed line, its score line and its problems must be
# the unsharded report's. make check proves the cheap half on its own (the
# shards' lists partition the selection: conformance/cli/shard_check.sh).
# Run from the top of the tree.
set -u
build=${1:-build}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
    echo "shard_mutants: $*" >&2
    fail=1
}
# make mutants exits 1 on the equivalents file's problems too; each run's
# report is compared here, its problems included.
run() {
    make -s mutants BUILD="$build" MUTANT_SUITE=vectors MUTANT_FILES=event_table.c MUTANT_SAMPLE=4 \
        MUTANT_SEED=1 MUTANT_SANITIZERS= MUTANT_MIN_SCORE=0 MUTANT_JOBS=2 "$@" >>"$tmp/runs.log" 2>&1
}
# The parts a merge must reproduce: the results, the totals, the score, the problems.
parts() {
    sed -n '/^  compiled /p; /^  score /p; /^problem: /p' "$1"
    grep -E '^[^ #]+:[0-9]+ [A-Z]{3}' "$1" | sort
}

rm -f "$build"/mutants/report.shard-*-of-*.txt
run
[ -f "$build/mutants/report.txt" ] || { bad "the unsharded run wrote no report"; exit 1; }
cp "$build/mutants/report.txt" "$tmp/whole.txt"
run MUTANT_SHARD=0/2
run MUTANT_SHARD=1/2
for k in 0 1; do
    [ -f "$build/mutants/report.shard-$k-of-2.txt" ] || bad "MUTANT_SHARD=$k/2 wrote no report"
done
make -s mutants-merge BUILD="$build" MUTANT_MIN_SCORE=0 >>"$tmp/runs.log" 2>&1
parts "$tmp/whole.txt" >"$tmp/whole.parts"
parts "$build/mutants/report.txt" >"$tmp/merged.parts"
n=$(grep -cE '^[^ #]+:[0-9]+ [A-Z]{3}' "$tmp/whole.parts")
[ "$n" -eq 4 ] || bad "the unsharded run judged $n mutants, not 4"
cmp -s "$tmp/whole.parts" "$tmp/merged.parts" ||
    { bad "the merged shards differ from the unsharded run:"; diff "$tmp/whole.parts" "$tmp/merged.parts" >&2; }
# A shard missing, or given twice, is refused.
make -s mutants-merge BUILD="$build" MUTANT_REPORTS="$build/mutants/report.shard-0-of-2.txt" \
    >/dev/null 2>"$tmp/one.err" && bad "a merge of shard 0/2 alone passed"
grep -q 'shard(s) 1/2 missing' "$tmp/one.err" || bad "a merge without shard 1/2 did not say so"
rm -f "$build"/mutants/report.shard-*-of-*.txt

if [ "$fail" -eq 0 ]; then
    echo "shard_mutants: 2 shards of $n mutants, merged, give the unsharded run's results and $(sed -n 's/^  \(score [0-9.]*%\).*/\1/p' "$tmp/whole.txt"): ok"
fi
exit "$fail"
