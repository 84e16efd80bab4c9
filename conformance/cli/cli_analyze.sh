#!/bin/sh
# conformance/cli/cli_analyze.sh NTSIM: `ntsim stats` and `ntsim diff` as their
# users meet them (make check; D-STATS, D-DIFF):
#   - stats --json of a default run's trace.json, trace.ntff and record dump
#     validates against docs/stats.schema.json (python3's jsonschema), and
#     equals, figure for figure, what an independent reading of D-STATS in
#     Python (below: pairing by a stack per key, nearest-rank percentiles,
#     the union of intervals) makes of the same records;
#   - diff: a run with itself and its three formats with each other exit 0;
#     one changed field exits 1 naming the event and the field; --ignore and
#     --time-tolerance; bad usage exits 2 and bad input 3, each in one line.
set -u
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for v in $(env | sed -n 's/^\(NEURON_RT_INSPECT_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

check() { # check NAME WANT_RC CMD...: runs CMD, stdout in $tmp/out, stderr in $tmp/err
    name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "cli_analyze: $name: exit $rc, want $want" >&2
        cat "$tmp/out" "$tmp/err" | sed 's/^/    /' | head -8 >&2
        fail=1
    fi
}
has() { # has NAME FILE TEXT
    grep -qF -- "$3" "$2" || { echo "cli_analyze: $1: $(basename "$2") lacks: $3" >&2; fail=1; }
}
lines() { # lines NAME FILE N: FILE has N lines
    n=$(wc -l <"$2")
    [ "$n" -eq "$3" ] || { echo "cli_analyze: $1: $n lines, want $3" >&2; sed 's/^/    /' "$2" | head -5 >&2; fail=1; }
}

check "run" 0 "$bin" run -q -o "$tmp/r" --records "$tmp/r/records.bin"
run="$tmp/r"

# --- stats ---------------------------------------------------------------------------
check "stats --help" 0 "$bin" stats --help
has "stats --help" "$tmp/out" "usage: ntsim stats TRACE"
for f in trace.json trace.ntff records.bin; do
    check "stats $f" 0 "$bin" stats "$run/$f"
    has "stats $f" "$tmp/out" "ntsim stats: $run/$f: 1252 events, 46 event types, 2 NCs"
    check "stats --json $f" 0 "$bin" stats --json --top 25 "$run/$f"
    cp "$tmp/out" "$tmp/$f.stats.json"
done
python3 - "$tmp" "$run" docs/stats.schema.json <<'EOF' || fail=1
# An independent reading of D-STATS: the records' figures, from trace.json
# (host times as written) and the record dump (the emit times), each compared
# with what ntsim stats --json printed for that file, and every document
# validated against the schema.
import json, math, struct, sys
import jsonschema

tmp, run, schema_path = sys.argv[1:4]
schema = json.load(open(schema_path))
NAMES = [e["event_type"] for e in []]  # filled from trace.json below

def figures(events, top):
    """events: dicts with type (name), type_id, phase, nc, local, track, t, exec (or None)."""
    by_type, ncs, opened, slow = {}, {}, {}, []
    for seq, e in enumerate(events):
        k = by_type.setdefault(e["type_id"], {"type": e["type"], "events": 0, "starts": 0,
                                              "spans": 0, "unmatched_stop": 0, "d": []})
        k["events"] += 1
        n = ncs.setdefault(e["nc"], {"events": 0, "ids": set(), "busy": []})
        n["events"] += 1
        if e["nc"] < 256:
            n["ids"].add(e["local"])
        key = (e["type_id"], e["nc"], e["track"])
        if e["phase"] == "start":
            k["starts"] += 1
            opened.setdefault(key, []).append((e["t"], seq, e["exec"]))
        elif e["phase"] == "stop":
            if not opened.get(key):
                k["unmatched_stop"] += 1
                continue
            t0, s0, ex = opened[key].pop()
            d = max(e["t"] - t0, 0)
            k["spans"] += 1
            k["d"].append(d)
            if e["type"] == "nc_exec_running":
                n["busy"].append((t0, t0 + d))
            if ex is None:
                ex = e["exec"]
            slow.append((-d, t0, s0, e["type"], e["nc"], e["track"], ex))
    def rank(v, q):
        return v[math.ceil(q * len(v) / 100) - 1]
    types = []
    for tid in sorted(by_type):
        k = by_type[tid]
        v = sorted(k["d"])
        types.append({"type": k["type"], "events": k["events"], "spans": k["spans"],
                      "unmatched_start": k["starts"] - k["spans"],
                      "unmatched_stop": k["unmatched_stop"],
                      "duration_ns": None if not v else
                      {"min": v[0], "p50": rank(v, 50), "p90": rank(v, 90), "p99": rank(v, 99),
                       "max": v[-1], "total": sum(v)}})
    slowest = []
    for d, t0, s0, name, nc, track, ex in sorted(slow)[:top]:
        s = {"type": name, "nc_idx": nc, "tracking_id": track}
        if ex is not None:
            s["exec_id"] = ex
        s.update({"start_ns": t0, "duration_ns": -d})
        slowest.append(s)
    out_ncs = []
    for nc in sorted(ncs):
        n = ncs[nc]
        lost = (max(n["ids"]) + 1 - len(n["ids"])) if n["ids"] else 0
        busy, reach = 0, None
        for b, e in sorted(n["busy"]):
            start = b if reach is None or b > reach else reach
            busy += max(e - start, 0)
            reach = e if reach is None else max(reach, e)
        out_ncs.append({"nc_idx": nc, "events": n["events"], "lost": lost, "busy_ns": busy})
    return {"events": len(events), "types": types, "slowest": slowest, "ncs": out_ncs}

# trace.json: the names and, per (type, phase), whether the data has exec_id.
doc = json.load(open(run + "/trace.json"))
order = []  # type names in the C enum's order, from the one table's JSON names
for line in open("engine/event_table.h"):
    line = line.strip()
    if line.startswith("XX(") and '", ' in line and line.count('"') >= 2:
        order.append(line.split('"')[1])
tid = {name: i for i, name in enumerate(order)}
if len(order) < 46:  # the spec's 46 at least (a type added is one more line)
    sys.exit("cli_analyze: read %d type names from engine/event_table.h, want 46 or more" % len(order))
events = [{"type": e["event_type"], "type_id": tid[e["event_type"]], "phase": e["phase"],
           "nc": e["nc_idx"], "local": e["nc_local_id"], "track": e["tracking_id"],
           "t": e["timestamp_ns"], "exec": e["data"].get("exec_id")} for e in doc["events"]]
want_json = figures(events, 25)
# the dump: the same records, with their emit times (trace.json moves device
# times onto the host clock, D-JSON-TIME); every field but the time is the
# same as the document's, record for record.
raw = open(run + "/records.bin", "rb").read()
assert len(raw) == 112 * len(events)
for i, e in enumerate(events):
    e["t"] = struct.unpack_from("<Q", raw, 112 * i + 0x28)[0]
want_dump = figures(events, 25)
ok = True
for f, want in (("trace.json", want_json), ("records.bin", want_dump), ("trace.ntff", want_dump)):
    got = json.load(open("%s/%s.stats.json" % (tmp, f)))
    try:
        jsonschema.validate(got, schema)
    except jsonschema.ValidationError as e:
        print("cli_analyze: stats --json %s does not validate: %s" % (f, e.message), file=sys.stderr)
        ok = False
    if got != want:
        for k in want:
            if got.get(k) != want[k]:
                print("cli_analyze: stats --json %s: %s: got %.300s, want %.300s"
                      % (f, k, json.dumps(got.get(k)), json.dumps(want[k])), file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
EOF
check "stats bad option" 2 "$bin" stats --jsn "$run/trace.json"
lines "stats bad option" "$tmp/err" 2
has "stats bad option" "$tmp/err" "ntsim stats: unknown option '--jsn' (did you mean --json?)"
check "stats no trace" 2 "$bin" stats
check "stats --top x" 2 "$bin" stats --top x "$run/trace.json"
check "stats of a timeline" 3 "$bin" stats "$run/trace.chrome.json"
has "stats of a timeline" "$tmp/err" "$run/trace.chrome.json: a Chrome trace JSON: ntsim reads fetch JSON, NTFF or record dumps"
check "stats of nothing" 3 "$bin" stats "$tmp/none.json"
if [ -w /dev/full ]; then
    check "stats > /dev/full" 1 sh -c "'$bin' stats '$run/trace.json' >/dev/full"
fi

# --- diff ----------------------------------------------------------------------------
check "diff --help" 0 "$bin" diff --help
has "diff --help" "$tmp/out" "usage: ntsim diff A B"
check "diff a run with itself" 0 "$bin" diff "$run/trace.json" "$run/trace.json"
has "diff a run with itself" "$tmp/out" ": the same"
for pair in "trace.json trace.ntff" "trace.ntff records.bin" "records.bin trace.json"; do
    set -- $pair
    check "diff $1 $2" 0 "$bin" diff "$run/$1" "$run/$2"
    has "diff $1 $2" "$tmp/out" "1252 events matched, 0 of them differ; 0 only in A, 0 only in B"
    has "diff $1 $2" "$tmp/out" "not compared, as one of the formats does not keep it (D-READ)"
done
# One field changed: the first nc_exec_running START's data.exec_id, one
# higher, in the document's own text (every other byte kept).
set -- $(python3 - "$run/trace.json" "$tmp/changed.json" <<'EOF2'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r'"event_type":"nc_exec_running","phase":"start","id":\d+,"nc_idx":(\d+),'
              r'"nc_local_id":(\d+)[^}]*?"exec_id":(\d+)', text)
x = int(m.group(3))
open(sys.argv[2], "w").write(text[:m.start(3)] + str(x + 1) + text[m.end(3):])
print(m.group(1), m.group(2), x, x + 1)
EOF2
)
ev="nc $1 event $2" exec_id=$3 changed=$4
check "diff one changed field" 1 "$bin" diff "$run/trace.json" "$tmp/changed.json"
has "diff one changed field" "$tmp/out" "$ev (nc_exec_running start): data.exec_id: $exec_id != $changed"
has "diff one changed field" "$tmp/out" "1252 events matched, 1 of them differ; 0 only in A, 0 only in B"
has "diff one changed field" "$tmp/out" "  data.exec_id                 1"
check "diff it from NTFF" 1 "$bin" diff "$run/trace.ntff" "$tmp/changed.json"
check "diff --ignore data.exec_id" 0 "$bin" diff --ignore data.exec_id "$run/trace.json" "$tmp/changed.json"
check "diff --show 0" 1 "$bin" diff --show 0 "$run/trace.json" "$tmp/changed.json"
has "diff --show 0" "$tmp/out" "(1 more differences not shown; --show K shows more)"
check "diff --ignore exec_id" 2 "$bin" diff --ignore exec_id "$run/trace.json" "$tmp/changed.json"
lines "diff --ignore exec_id" "$tmp/err" 2
has "diff --ignore exec_id" "$tmp/err" "ntsim diff: --ignore: no field 'exec_id' (did you mean data.exec_id?)"
check "diff one trace" 2 "$bin" diff "$run/trace.json"
check "diff a bad file" 3 "$bin" diff "$run/trace.json" "$run/timeline.html"
has "diff a bad file" "$tmp/err" "$run/timeline.html: an HTML timeline page: ntsim reads fetch JSON, NTFF or record dumps"

[ "$fail" -eq 0 ] && echo "cli_analyze: stats (schema-valid, equal to an independent reading of the records in 3 formats) and diff (same, changed, formats, options, usage): ok"
exit "$fail"
