#!/bin/sh
# conformance/proofs/model.sh [BUILD]: model-checks the ring protocol of
# engine/capture/ring.c (conformance/proofs/ring.pml) with Spin, exhaustively, under
# x86-TSO store buffers. Each configuration below must pass with a complete
# search; then each mutant, a deliberately broken step of the protocol, must
# make Spin find a violation, so that a check that proves nothing fails
# here. Work files go to BUILD/model (default build/model).
set -u
top=$(pwd)
out=${1:-build}/model
mkdir -p "$out" || exit 1
cp "$top/conformance/proofs/ring.pml" "$out/" || exit 1
cd "$out" || exit 1
fail=0

# verify DEFINES: builds and runs the verifier; sets `errors`, `states`,
# `why` (the first violation) and `complete` (1 when the search finished).
verify() {
    errors='' states='' why='' complete=0
    if ! spin $1 -a ring.pml >spin.log 2>&1; then
        why="spin could not build the verifier: $(head -1 spin.log)"
        return
    fi
    if ! cc -O2 -DSAFETY -DCOLLAPSE -DMEMLIM=3072 -w -o pan pan.c >cc.log 2>&1; then
        why="cc could not build the verifier: $(head -1 cc.log)"
        return
    fi
    ./pan -m200000 -w24 >pan.log 2>&1
    errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' pan.log | head -1)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -1)
    why=$(grep -E '^pan:[0-9]+:' pan.log | head -1 | sed 's/^pan:[0-9]*: //')
    if ! grep -qE 'MEMLIM bound|search depth too small' pan.log &&
        [ -n "$errors" ]; then
        complete=1
    fi
}

# pass NAME DEFINES: the protocol must hold in every execution.
pass() {
    verify "$2"
    if [ "$complete" = 1 ] && [ "$errors" = 0 ]; then
        echo "model $1: $states states, no violation"
    else
        echo "model $1 ($2): FAILED: ${why:-the search did not complete}" >&2
        [ -f ring.pml.trail ] && spin $2 -t -p ring.pml >"trail-$1.txt" 2>&1 &&
            echo "  counterexample: $out/trail-$1.txt" >&2
        fail=1
    fi
}

# catch MUTANT DEFINES: a broken protocol must be caught.
catch() {
    verify "-DMUTANT_$1 $2"
    if [ -n "$errors" ] && [ "$errors" != 0 ]; then
        echo "mutant $1: caught: $why"
    else
        echo "mutant $1 ($2): NOT caught: the model checks less than it claims" >&2
        fail=1
    fi
}

owner_pop='-DNP=4 -DNI=0 -DNPOPS=2'
handover='-DNP=3 -DNI=1 -DNPOPS=0'
pass owner-and-consumer "$owner_pop"
pass handover "$handover"
pass handover-two-shared '-DNP=2 -DNI=2 -DNPOPS=0'
pass handover-and-consumer '-DNP=2 -DNI=1 -DNPOPS=1'
pass shared-and-consumer '-DSHARED_FROM_START -DNP=2 -DNI=2 -DNPOPS=1'
pass fence-mode-owner-and-consumer "-DFENCE_MODE $owner_pop"
pass fence-mode-handover-and-consumer '-DFENCE_MODE -DNP=2 -DNI=1 -DNPOPS=1'
pass fence-mode-shared-and-consumer '-DFENCE_MODE -DSHARED_FROM_START -DNP=2 -DNI=1 -DNPOPS=2'

catch NO_BARRIER "$handover"
catch NO_OSEQ_WAIT "$handover"
catch NO_RECHECK "$handover"
catch NO_POP_BARRIER "$owner_pop"
catch NO_DECIDE_WAIT "$owner_pop"
catch OWNER_NO_SC "$owner_pop"
catch EVICT_NO_K "$owner_pop"
catch JUMP_TO_FRONT "$owner_pop"
catch WINDOW_OWNER_FIRST '-DNP=2 -DNI=1 -DNPOPS=1'

if [ "$fail" = 0 ]; then
    echo "model: the ring protocol holds in every configuration and every mutant is caught: ok"
fi
exit $fail
