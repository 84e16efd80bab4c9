#!/bin/sh
# conformance/proofs/shard_mutants.sh [BUILD [CC]]: the shards of a real make
# mutants run, merged by make mutants-merge, give the unsharded run's results
# and score (make check, after conformance/cli/shard_check.sh; alone: make
# mutants-shard-check). About 10 s.
#
# A small run (4 mutants of engine/event_table.c, judged by the committed
# vectors: MUTANT_SUITE=vectors, no sanitizer stage) unsharded, then as
# MUTANT_SHARD=0/2 and 1/2, then merged: the merged report's mutants and
# results, its compiled/killed line, its score line and its problems must be
# the unsharded report's; and a merge without one of the shards is refused.
# Run from the top of the tree.
set -u
build=${1:-build}
cc=${2:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
    echo "shard_mutants: $*" >&2
    fail=1
}
# Its own output folder (MUTANT_OUT): a report of a real make mutants run in
# BUILD/mutants is left alone. make mutants exits 1 on the equivalents
# file's problems too; each run's report is compared here, problems included.
out=$build/mutants-shard-check
rm -rf "$out"
run() {
    MUTANT_OUT=$out make -s mutants BUILD="$build" CC="$cc" MUTANT_SUITE=vectors MUTANT_FILES=event_table.c MUTANT_SAMPLE=4 \
        MUTANT_SEED=1 MUTANT_SANITIZERS= MUTANT_MIN_SCORE=0 MUTANT_JOBS=2 "$@" >>"$tmp/runs.log" 2>&1
}
# The parts a merge must reproduce: the results, the totals, the score, the problems.
parts() {
    sed -n '/^  compiled /p; /^  score /p; /^problem: /p' "$1"
    grep -E '^[^ #]+:[0-9]+ [A-Z]{3}' "$1" | sort
}

run
[ -f "$out/report.txt" ] || { bad "the unsharded run wrote no report"; exit 1; }
mv "$out/report.txt" "$tmp/whole.txt"
run MUTANT_SHARD=0/2
run MUTANT_SHARD=1/2
for k in 0 1; do
    [ -f "$out/report.shard-$k-of-2.txt" ] || bad "MUTANT_SHARD=$k/2 wrote no report"
done
merge() {
    make -s mutants-merge BUILD="$build" MUTANT_MIN_SCORE=0 MUTANT_MERGED="$out/report.txt" "$@"
}
merge MUTANT_REPORTS="$out/report.shard-0-of-2.txt $out/report.shard-1-of-2.txt" >>"$tmp/runs.log" 2>&1
parts "$tmp/whole.txt" >"$tmp/whole.parts"
parts "$out/report.txt" >"$tmp/merged.parts"
n=$(grep -cE '^[^ #]+:[0-9]+ [A-Z]{3}' "$tmp/whole.parts")
[ "$n" -eq 4 ] || bad "the unsharded run judged $n mutants, not 4"
cmp -s "$tmp/whole.parts" "$tmp/merged.parts" ||
    { bad "the merged shards differ from the unsharded run:"; diff "$tmp/whole.parts" "$tmp/merged.parts" >&2; }
# A shard missing, or given twice, is refused.
merge MUTANT_REPORTS="$out/report.shard-0-of-2.txt" >/dev/null 2>"$tmp/one.err" &&
    bad "a merge of shard 0/2 alone passed"
grep -q 'shard(s) 1/2 missing' "$tmp/one.err" || bad "a merge without shard 1/2 did not say so"
rm -rf "$out"

if [ "$fail" -eq 0 ]; then
    echo "shard_mutants: 2 shards of $n mutants, merged, give the unsharded run's results and $(sed -n 's/^  \(score [0-9.]*%\).*/\1/p' "$tmp/whole.txt"): ok"
fi
exit "$fail"
