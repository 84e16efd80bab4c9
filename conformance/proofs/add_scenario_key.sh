#!/bin/sh
# conformance/proofs/add_scenario_key.sh [CC]: proves docs/architecture.md's
# checklist for adding a scenario key is exactly right, on a scratch copy of
# the tree.
#
# It adds a throwaway key, host.think_ns (a pause a host thread takes after
# each execute, before its request interval), with the checklist's edits,
# one function per edit:
#   1. edit_field     the scenario's field (sim/scenario.h)
#   2. edit_row       its row in the one list of keys (sim/scenario_keys.c)
#   3. edit_use       what the simulator does with it (sim/workload.c)
#   4. edit_schema    its row in the schema (sim/scenarios/README.md)
#   5. edit_scenario  a scenario that sets it (sim/scenarios/think.yaml)
#   6. edit_vector    that scenario's vector, its counts derived by hand
#                     (vectors/scenario_think.yaml)
#   7. edit_decision  the decision the vector cites (docs/decisions.md)
# (The hand check in sim/scenarios/README.md's prose is prose: no test
# reads it.)
#
# Then: with all seven edits the whole suite passes (the checklist is
# enough); with any one left out, the build or the suite fails (none is
# superfluous). Exit 0 when both hold.
cc=${1:-cc}
proof=add_scenario_key
. "$(dirname "$0")/checklist.sh"
checklist_base

edit_field() {
    perl -0pi -e 's/(\n    uint64_t request_interval_ns;\n)/$1    uint64_t host_think_ns;    \/* a pause after each execute *\/\n/' \
        "$tmp/t/sim/scenario.h"
}
edit_row() {
    perl -0pi -e 's/(\n     AT\(ntsim_scenario_t, request_interval_ns\), "between one thread.s executes"\},\n)/$1    {NTSIM_SEC_HOST, "think_ns", NTSIM_KEY_UINT, false, 0, P2(40), "0", NULL,\n     AT(ntsim_scenario_t, host_think_ns), "a pause after each execute"},\n/' \
        "$tmp/t/sim/scenario_keys.c"
}
edit_use() {
    perl -0pi -e 's/ntsim__sim_at\(s, s->sc->request_interval_ns, thread_next/ntsim__sim_at(s, s->sc->request_interval_ns + s->sc->host_think_ns, thread_next/' \
        "$tmp/t/sim/workload.c"
}
edit_schema() {
    perl -0pi -e 's/(\n\| `host.request_interval_ns` [^\n]*\n)/$1| `host.think_ns` | integer | 0 | 0..2^40 | a pause after each execute |\n/' \
        "$tmp/t/sim/scenarios/README.md"
}
edit_scenario() {
    cat >"$tmp/t/sim/scenarios/think.yaml" <<'YAML'
# The throwaway key of conformance/proofs/add_scenario_key.sh.
version: 1
name: think
cores: 1
duration_ns: 1000000
host: {threads: 1, request_interval_ns: 90000, think_ns: 100000}
models:
  - {id: 1, name: tiny, exec_ns: 16}
YAML
}
edit_vector() {
    cat >"$tmp/t/vectors/scenario_think.yaml" <<'YAML'
# The throwaway key of conformance/proofs/add_scenario_key.sh. By hand: the
# one thread starts at 10 us; an execute takes 9 us of host steps and 15..17
# ns of device time (16 jittered by 1/8), then the thread waits
# request_interval_ns + think_ns = 190 us: execute k starts at
# 10 + 199.016 k us (+-2 ns each), before the 1 ms end for k = 0..4: 5
# executes (10 without think_ns).
version: 1
kind: scenario
comment: host.think_ns, the throwaway key
vectors:
- id: scenario.think
  comment: a pause after each execute halves the executes
  source: D-SIM-THINK
  expect: valid
  scenario: think
  counts: {executes: 5}
YAML
}
edit_decision() {
    cat >>"$tmp/t/docs/decisions.md" <<'MD'

## D-SIM-THINK: host.think_ns (the throwaway key of add_scenario_key.sh)

A host thread pauses think_ns after each execute, before its request interval.

Sources: none of the spec's.
Contradicts: nothing.
MD
}

EDITS="edit_field edit_row edit_use edit_schema edit_scenario edit_vector edit_decision"

suite() { # the whole suite, in process
    (cd "$tmp/t" && CK_VERBOSITY=silent ./build/check_ntsim) >"$tmp/suite.log" 2>&1
}

# --- all seven edits: the suite passes -------------------------------------------
fresh
applied edit_field sim/scenario.h
applied edit_row sim/scenario_keys.c
applied edit_use sim/workload.c
applied edit_schema sim/scenarios/README.md
applied edit_scenario
applied edit_vector
applied edit_decision docs/decisions.md
if ! build; then
    say "with every edit, the build failed:"; grep -m5 -E 'error' "$tmp/build.log" | sed 's/^/    /'
    exit 1
fi
if suite && grep -q '^  scenario: [1-9][0-9]* passed, 0 failed' "$tmp/suite.log" &&
    (cd "$tmp/t" && ./build/check_ntsim --id scenario.think) >"$tmp/one.log" 2>&1 &&
    grep -q '^conformance: 1 passed, 0 failed' "$tmp/one.log"; then
    say "1-7 applied: $(tail -1 "$tmp/suite.log"); scenario.think judged and passed"
else
    say "with every edit, the suite failed or did not judge the new scenario:"
    grep -E '^FAIL|think|conformance:' "$tmp/suite.log" "$tmp/one.log" | head -8
    exit 1
fi

# --- each edit left out: the build or the suite fails -----------------------------
leave_each_out
checklist_done 7
