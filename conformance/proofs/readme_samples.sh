#!/bin/sh
# conformance/proofs/readme_samples.sh NTSIM CONFORMANCE_LOG [CHECK_ARGS]: the
# README's samples of output are the program's (make check; issue 38: the
# README said "posted 118, converted 114" where the program printed 117 and
# 113). A sample is a code block after a line `<!-- checked: WHAT -->`; WHAT
# says where its lines come from:
#
#   run        `ntsim run -o out` (stdout and stderr), in a scratch directory
#   inspect    the same with README's inspect filter (ENABLE=1, FILTER_NC=1,
#              FILTER_TYPE=hardware,^hw_notify)
#   inspect-bad  the same with README's two malformed variables (stderr)
#   check      make check's conformance run (CONFORMANCE_LOG); left out when
#              CHECK_ARGS chose part of the suite
#   fail       check_ntsim (beside NTSIM) on a copy of vectors/json_smoke.yaml
#              whose json.smoke.empty expects data_version 3, run as README
#              shows it (--ntsim build/ntsim, from a checkout's top)
#
# Each line of a sample must be a line of that output, in order (lines may be
# left out between them: a sample is abridged); spaces are compared as one
# (a sample may narrow a table's columns), a line "..." stands for lines left
# out, and "..." inside a line for any text (a time, a count that changes
# with the machine). A sample that fails is printed beside what was found.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
log=$2
check_args=${3:-}
top=$(pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for v in $(env | sed -n 's/^\(NEURON_RT_INSPECT_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

(cd "$tmp" && mkdir run && cd run && "$bin" run -o out >../run.txt 2>&1) ||
    { echo "readme_samples: ntsim run failed" >&2; exit 1; }
(cd "$tmp" && mkdir inspect && cd inspect && NEURON_RT_INSPECT_ENABLE=1 NEURON_RT_INSPECT_EVENT_FILTER_NC=1 \
    NEURON_RT_INSPECT_EVENT_FILTER_TYPE='hardware,^hw_notify' "$bin" run -o out >../inspect.txt 2>&1) ||
    { echo "readme_samples: ntsim run with the inspect filter failed" >&2; exit 1; }
(cd "$tmp" && NEURON_RT_INSPECT_EVENT_FILTER_NC=4-2 NEURON_RT_INSPECT_EVENT_FILTER_TYPE=DEVICE_EXEC \
    "$bin" run -o out >/dev/null 2>inspect-bad.txt)
cp "$log" "$tmp/check.txt" 2>/dev/null || : >"$tmp/check.txt"
mkdir -p "$tmp/fail/vectors" "$tmp/fail/build"
sed "s/json: '{\"events\":\[\],\"data_version\":2}'/json: '{\"events\":[],\"data_version\":3}'/" \
    "$top/vectors/json_smoke.yaml" >"$tmp/fail/vectors/json_smoke.yaml"
ln -s "$bin" "$tmp/fail/build/ntsim"
(cd "$tmp/fail" && "$(dirname "$bin")/check_ntsim" --ntsim build/ntsim --vectors vectors \
    --id json.smoke.empty >../fail.txt 2>&1)
[ $? = 1 ] || { echo "readme_samples: the broken json.smoke.empty did not fail the run" >&2; exit 1; }

python3 - "$top/README.md" "$tmp" "$check_args" <<'EOF'
import re, sys
readme, tmp, check_args = sys.argv[1:4]
lines = open(readme).read().split("\n")
norm = lambda s: " ".join(s.split())
samples, i = [], 0
while i < len(lines):
    m = re.match(r"<!-- checked: ([a-z-]+) -->$", lines[i].strip())
    if m and i + 1 < len(lines) and lines[i + 1].startswith("```"):
        j = i + 2
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        samples.append((m.group(1), i + 3, lines[i + 2:j]))
        i = j
    i += 1
ok, checked = True, 0
for what, first_line, body in samples:
    if what == "check" and check_args:
        continue
    try:
        got = [norm(l) for l in open("%s/%s.txt" % (tmp, what)).read().split("\n")]
    except OSError:
        print("readme_samples: README.md:%d: no output named '%s'" % (first_line - 2, what),
              file=sys.stderr)
        ok = False
        continue
    at = 0
    for k, line in enumerate(body):
        want = norm(line)
        if want in ("", "..."):
            continue
        pattern = re.compile("^" + ".*".join(re.escape(p) for p in want.split("...")) + "$")
        while at < len(got) and not pattern.match(got[at]):
            at += 1
        if at == len(got):
            print("readme_samples: README.md:%d: the sample's line is not in the output of '%s' "
                  "(or not in this order):\n    %s" % (first_line + k, what, line), file=sys.stderr)
            near = [g for g in got if g and g.split(" ")[0] == want.split(" ")[0]][:3]
            for g in near:
                print("  the output has: %s" % g, file=sys.stderr)
            ok = False
            break
        at += 1
    checked += 1
if checked == 0:
    print("readme_samples: no sample checked", file=sys.stderr)
    ok = False
if ok:
    print("readme_samples: %d README samples are the program's output: ok" % checked)
sys.exit(0 if ok else 1)
EOF
