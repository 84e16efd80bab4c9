#!/bin/sh
# conformance/cli/cli_ntsim.sh NTSIM: the `ntsim` command as its users meet it,
# run by `make check`: help and exit codes, the three output files (jq and
# protoc must read them), byte-identical reruns, bad scenarios and bad
# files named with file:line:col, replay pass/fail with a repro line,
# record-then-replay, decode matching protoc, and a short stress run.
set -u
bin=$1
tmp=$(mktemp -d) || exit 1
# The inspect variables of whoever runs the tests must not reach the runs
# below; the inspect tests set their own.
for v in $(env | sed -n 's/^\(NEURON_RT_INSPECT_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # check NAME WANT_RC CMD...: runs CMD, output in $tmp/out
    name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "cli_ntsim: $name: exit $rc, want $want" >&2
        sed 's/^/    /' "$tmp/out" | head -5 >&2
        fail=1
    fi
}

has() { # has NAME TEXT: the last command's output contains TEXT
    if ! grep -qF -- "$2" "$tmp/out"; then
        echo "cli_ntsim: $1: output lacks: $2" >&2
        fail=1
    fi
}

check help 0 "$bin" --help
has help "usage: ntsim <command>"
for sub in run record replay decode; do
    check "help $sub" 0 "$bin" "$sub" --help
    has "help $sub" "usage: ntsim $sub"
    check "help via help $sub" 0 "$bin" help "$sub"
done
check "no command" 2 "$bin"
check "unknown command" 2 "$bin" frobnicate
has "unknown command" "unknown command 'frobnicate'"
check "bad option" 2 "$bin" run --frobnicate

# The default run: three files, readable by jq and protoc, and a summary.
check "run" 0 "$bin" run -o "$tmp/a"
has "run summary" "46 of 46 event types present"
has "run summary" "dropped 4 (TOPSP_CC_STATUS 1, MAX 1, out of range 2)"
# S5.convert.drop_message: the caller (the simulated runtime) reports its drops
# with the runtime's own words, beside the converter's "Invalid notification
# type: N" (D-NOTIFY).
has "run summary" "Unexpected notification type! Dropping: 4 notifications dropped, each logged as \"Invalid notification type: N\""
for f in trace.json trace.ntff notifications.ntff; do
    [ -s "$tmp/a/$f" ] || { echo "cli_ntsim: run did not write $f" >&2; fail=1; }
done
if command -v jq >/dev/null 2>&1; then
    n=$(jq '.events | length' "$tmp/a/trace.json") || fail=1
    v=$(jq '.data_version' "$tmp/a/trace.json") || fail=1
    [ "$v" = 2 ] || { echo "cli_ntsim: jq: data_version $v, want 2" >&2; fail=1; }
    [ "${n:-0}" -gt 1000 ] || { echo "cli_ntsim: jq: only ${n:-0} events" >&2; fail=1; }
else
    echo "cli_ntsim: jq missing (the Makefile installs it)" >&2
    fail=1
fi
for f in trace.ntff notifications.ntff; do
    protoc --decode=ntff.ntrace_info -Iengine engine/convert/ntff.proto <"$tmp/a/$f" >"$tmp/$f.txt" ||
        { echo "cli_ntsim: protoc cannot decode $f" >&2; fail=1; }
    check "decode $f" 0 "$bin" decode "$tmp/a/$f"
    cmp -s "$tmp/out" "$tmp/$f.txt" ||
        { echo "cli_ntsim: ntsim decode $f differs from protoc --decode" >&2; fail=1; }
done

# nrta_seq_id is field 16 (D-NTFF-FIELDS). What a reader with either schema
# sees: ours names all of them, as many as the fetch document has; a schema
# numbered as the facts' field listing (nrta_seq_id = 15) sees each as the
# unknown field 16 and names none; and a file written with that schema's 15
# is, to ours, the unknown (reserved) field 15.
mkdir -p "$tmp/listing/convert"
sed -e '/^  reserved 15;$/d' -e 's/nrta_seq_id = 16;/nrta_seq_id = 15;/' engine/convert/ntff.proto \
    >"$tmp/listing/convert/ntff.proto"
seqs=$(grep -o '"nrta_seq_id"' "$tmp/a/trace.json" | wc -l)
named=$(grep -c '^  nrta_seq_id: ' "$tmp/trace.ntff.txt")
protoc --decode=ntff.ntrace_info -I"$tmp/listing" "$tmp/listing/convert/ntff.proto" \
    <"$tmp/a/trace.ntff" >"$tmp/listing.txt" || fail=1
unknown16=$(grep -c '^  16: ' "$tmp/listing.txt")
named15=$(grep -c 'nrta_seq_id' "$tmp/listing.txt")
protoc --encode=ntff.ntrace_info -I"$tmp/listing" "$tmp/listing/convert/ntff.proto" \
    <"$tmp/trace.ntff.txt" >"$tmp/as15.ntff" || fail=1
protoc --decode=ntff.ntrace_info -Iengine engine/convert/ntff.proto <"$tmp/as15.ntff" \
    >"$tmp/as15.txt" || fail=1
unknown15=$(grep -c '^  15: ' "$tmp/as15.txt")
named16=$(grep -c 'nrta_seq_id' "$tmp/as15.txt")
[ "$seqs" -gt 0 ] && [ "$named" = "$seqs" ] && [ "$unknown16" = "$seqs" ] && [ "$named15" = 0 ] &&
    [ "$unknown15" = "$seqs" ] && [ "$named16" = 0 ] || {
    echo "cli_ntsim: nrta_seq_id field 16: json $seqs, ours names $named; listing schema: $unknown16 unknown 16, $named15 named; a #15 file to ours: $unknown15 unknown 15, $named16 named" >&2
    fail=1
}

# --records writes the raw dump and still prints the summary (it used to
# replace it); the dump is the trace's records, 112 bytes each.
check "run --records" 0 "$bin" run -o "$tmp/r" --records "$tmp/r.records"
has "run --records summary" "46 of 46 event types present"
[ "$(wc -c <"$tmp/r.records")" -eq $(( ${n:-0} * 112 )) ] ||
    { echo "cli_ntsim: --records: $(wc -c <"$tmp/r.records") bytes, want ${n:-0} x 112" >&2; fail=1; }
check "run --records -q" 0 "$bin" run -q -o "$tmp/r" --records "$tmp/r.records"
# The timelines hold the whole trace in memory, so a trace past
# --timeline-max-events gets none, and the summary says how to make them.
check "timelines skipped" 0 "$bin" run -o "$tmp/tl" --timeline-max-events 100
has "timelines skipped" "timelines: not written: the trace has 1252 events, more than --timeline-max-events 100"
[ ! -e "$tmp/tl/trace.pftrace" ] || { echo "cli_ntsim: trace.pftrace written past the limit" >&2; fail=1; }
# DIR holds one run's files (D-OUTPUT): the timelines of an earlier run that
# this one does not write go, and it says so (issue 38: they stayed beside
# the new trace, and make run still said "open timeline.html").
check "timelines, then none" 0 "$bin" run -q -o "$tmp/tl"
check "timelines, then none" 0 "$bin" run -o "$tmp/tl" --timeline-max-events 100
has "timelines, then none" "; removed the earlier run's $tmp/tl/trace.pftrace, $tmp/tl/trace.chrome.json, $tmp/tl/timeline.html"
[ "$(ls -A "$tmp/tl" | tr '\n' ' ')" = "notifications.ntff trace.json trace.ntff " ] ||
    { echo "cli_ntsim: a run without timelines left: $(ls -A "$tmp/tl" | tr '\n' ' ')" >&2; fail=1; }
# The outputs stream to disk during the run: a write that fails names its
# file and fails the run (exit 1).
if [ -w /dev/full ]; then
    check "records to a full disk" 1 "$bin" run -q -o "$tmp/r" --records /dev/full
    has "records to a full disk" "ntsim run: /dev/full: cannot write the record dump: No space left on device"
fi
grep -q "event types present" "$tmp/out" && { echo "cli_ntsim: run -q printed a summary" >&2; fail=1; }

# Progress: executes started before the scenario's end run on past it, and
# the line says so (it used to read "simulated 0.171 of 0.100 ms").
printf 'version: 1\nname: overshoot\ncores: 1\nduration_ns: 20000\n' >"$tmp/over.yaml"
check "progress past the duration" 0 "$bin" run "$tmp/over.yaml" -q --progress -o "$tmp/ov"
grep -q "^ntsim: simulated [0-9.]* ms (0.020 ms, then the executes in flight), [0-9]* events" \
    "$tmp/out" || { echo "cli_ntsim: progress past the duration: $(grep simulated "$tmp/out")" >&2; fail=1; }

# Counts that do not fit are refused, not wrapped (4294967297 = 2^32 + 1).
check "threads wrap" 2 "$bin" run --stress --threads 4294967297
has "threads wrap" "--threads must be 1..64, got '4294967297'"
check "ncs wrap" 2 "$bin" run --stress --ncs 4294967298
has "ncs wrap" "--ncs must be 1..256, got '4294967298'"
check "threads negative" 2 "$bin" run --stress --threads -1

# Same scenario and seed: byte-identical files.
check "rerun" 0 "$bin" run -q -o "$tmp/b"
for f in trace.json trace.ntff notifications.ntff; do
    cmp -s "$tmp/a/$f" "$tmp/b/$f" || { echo "cli_ntsim: rerun: $f differs" >&2; fail=1; }
done

# Bad scenarios: exit 3, file:line:col: field.
check "bad scenario" 3 "$bin" run conformance/testdata/scenarios/negative_cores.yaml -o "$tmp/c"
has "bad scenario" "negative_cores.yaml:4:8: cores: -2 is out of range [1, 256]"

# decode: a truncated record dump, a malformed .ntff; the format is told by
# content (D-READ): a name says nothing, --ntff and --records force it.
head -c 113 /dev/zero >"$tmp/short.bin"
check "truncated dump" 3 "$bin" decode "$tmp/short.bin"
has "truncated dump" "short.bin: not a JSON fetch document, an NTFF ntrace_info or a record dump: size 113 is not a multiple of 112"
check "truncated dump, forced" 3 "$bin" decode --records "$tmp/short.bin"
has "truncated dump, forced" "short.bin: size 113 is not a multiple of 112: a truncated record dump"
printf '\377\377\377' >"$tmp/bad.ntff"
check "bad ntff" 3 "$bin" decode --ntff "$tmp/bad.ntff"
has "bad ntff" "not a valid NTFF ntrace_info"
check "bad ntff by content" 3 "$bin" decode "$tmp/bad.ntff"
has "bad ntff by content" "bad.ntff: not a JSON fetch document, an NTFF ntrace_info or a record dump: size 3"
cp "$tmp/a/trace.ntff" "$tmp/ntrace.pb"
check "decode ntrace.pb" 0 "$bin" decode "$tmp/ntrace.pb"
cmp -s "$tmp/out" "$tmp/trace.ntff.txt" ||
    { echo "cli_ntsim: decode of trace.ntff named ntrace.pb differs from protoc's" >&2; fail=1; }
check "decode a fetch document" 3 "$bin" decode "$tmp/a/trace.json"
has "decode a fetch document" "trace.json: a JSON fetch document: ntsim decode prints NTFF or record dumps"
for f in trace.pftrace trace.chrome.json timeline.html; do
    check "decode $f" 3 "$bin" decode "$tmp/a/$f"
    check "export $f" 3 "$bin" export "$tmp/a/$f" -o "$tmp/from_timeline.pftrace"
done
has "export timeline.html" "timeline.html: an HTML timeline page: ntsim reads fetch JSON, NTFF or record dumps"
check "export trace.pftrace" 3 "$bin" export "$tmp/a/trace.pftrace" -o "$tmp/from_timeline.html"
has "export trace.pftrace" "trace.pftrace: a Perfetto trace: ntsim reads fetch JSON, NTFF or record dumps"
check "view trace.chrome.json" 3 "$bin" view "$tmp/a/trace.chrome.json" -o "$tmp/from_timeline.html"
has "view trace.chrome.json" "trace.chrome.json: a Chrome trace JSON: ntsim reads fetch JSON, NTFF or record dumps"
head -c 224 /dev/zero >"$tmp/two.bin"
check "record dump" 0 "$bin" decode "$tmp/two.bin"
has "record dump" '"event_type":"generic"'
check "missing dump" 3 "$bin" decode "$tmp/no-such.bin"
has "missing dump" "$tmp/no-such.bin: cannot open: No such file or directory"
check "directory as dump" 3 "$bin" decode "$tmp"
has "directory as dump" "$tmp: not a regular file (a directory)"

# replay: pass, fail (with a repro line), unreadable.
check "replay" 0 "$bin" replay vectors/notify.yaml
has "replay" "replay: $(grep -c '^ *- id: ' vectors/notify.yaml) passed, 0 failed"
check "replay wrong" 1 "$bin" replay conformance/testdata/wrong/layout_hw_notify.yaml
has "replay wrong" "layout.hw_notify.hint: offset: expected 0x06, got 0x04"
has "replay wrong" "repro: ntsim replay conformance/testdata/wrong/layout_hw_notify.yaml --id layout.hw_notify"
check "replay one id" 0 "$bin" replay vectors/notify.yaml --id notify.dma
has "replay one id" "replay: 1 passed, 0 failed"
check "replay bad file" 3 "$bin" replay conformance/testdata/bad/unknown_key.yaml
has "replay bad file" "unknown_key.yaml:10:5: vectors[0].sizee: unknown key"

# record, then replay what was recorded.
check "record" 0 "$bin" record sim/scenarios/ring_overflow.yaml -o "$tmp/rec.yaml"
check "replay recorded" 0 "$bin" replay "$tmp/rec.yaml"
has "replay recorded" "replay: 1 passed, 0 failed"

# The timelines (D-TIMELINE): run writes them, the same bytes again on a
# rerun; export and view convert a trace; bad input exits 3 naming the event.
for f in trace.pftrace trace.chrome.json timeline.html; do
    [ -s "$tmp/a/$f" ] || { echo "cli_ntsim: run did not write $f" >&2; fail=1; }
    cmp -s "$tmp/a/$f" "$tmp/b/$f" || { echo "cli_ntsim: rerun: $f differs" >&2; fail=1; }
done
for sub in export view; do
    check "help $sub" 0 "$bin" "$sub" --help
    has "help $sub" "usage: ntsim $sub"
done
check "export json" 0 "$bin" export "$tmp/a/trace.json" -o "$tmp/x.pftrace"
protoc --decode=perfetto.protos.Trace -Iengine engine/timeline/perfetto_trace.proto <"$tmp/x.pftrace" \
    >/dev/null || { echo "cli_ntsim: protoc cannot decode an exported .pftrace" >&2; fail=1; }
check "export ntff" 0 "$bin" export "$tmp/a/trace.ntff" -o "$tmp/x.json"
jq -e '.traceEvents | length > 100' "$tmp/x.json" >/dev/null ||
    { echo "cli_ntsim: export to Chrome JSON: not a trace" >&2; fail=1; }
check "view" 0 "$bin" view "$tmp/a/trace.json" -o "$tmp/x.html"
grep -q '<script type="application/json" id="timeline-data">' "$tmp/x.html" ||
    { echo "cli_ntsim: view: no timeline data" >&2; fail=1; }
check "export unknown format" 2 "$bin" export "$tmp/a/trace.json" -o "$tmp/x.txt"
printf '{"events":[{"event_type":"generic","phase":"later"}]}' >"$tmp/bad.json"
check "export bad input" 3 "$bin" export "$tmp/bad.json" -o "$tmp/y.pftrace"
has "export bad input" "bad.json: events[0].phase: not start, stop, instant or unknown"
check "view a directory" 3 "$bin" view "$tmp" -o "$tmp/y.html"
# A command never writes its output over its own input: not by the same
# name, another spelling, or a link (issue 27: export overwrote its input).
cp "$tmp/a/trace.json" "$tmp/in.json"
ln -s in.json "$tmp/link.json"
for out in "$tmp/in.json" "$tmp/./in.json" "$tmp/link.json"; do
    check "export over its input ($out)" 2 "$bin" export "$tmp/in.json" -o "$out"
    has "export over its input ($out)" "refusing to write over the input"
    check "view over its input ($out)" 2 "$bin" view "$tmp/link.json" -o "$out"
done
cmp -s "$tmp/in.json" "$tmp/a/trace.json" || { echo "cli_ntsim: export or view changed its input" >&2; fail=1; }
# What ntsim writes, export reads back exactly (issue 27: item 3; 2^63 and up
# were "too big integer"). One GENERIC INSTANT record (type 0, phase 2 at
# 0x58) whose thread_id, id, nc_local_id, tracking_id, timestamp_ns (0x08 to
# 0x2f) and nrta_seq_id (0x60, has_nrta_seq_id at 0x68) are 2^64 - 1; decode
# writes it with the engine's JSON writer; that document and the record
# itself export to the same Chrome trace, which carries the ids.
{ printf '\000\000\000\000\000\000\000\000'
  for field in 1 2 3 4 5; do printf '\377\377\377\377\377\377\377\377'; done
  head -c 40 /dev/zero
  printf '\002\000\000\000\000\000\000\000\377\377\377\377\377\377\377\377'
  printf '\001\000\000\000\000\000\000\000'; } >"$tmp/max.records"
"$bin" decode "$tmp/max.records" >"$tmp/max.json"
check "export u64 max (json)" 0 "$bin" export "$tmp/max.json" -o "$tmp/max_json.chrome.json"
check "export u64 max (records)" 0 "$bin" export "$tmp/max.records" -o "$tmp/max_rec.chrome.json"
for key in tracking_id thread_id id; do
    grep -qF "\"$key\":18446744073709551615" "$tmp/max_json.chrome.json" ||
        { echo "cli_ntsim: export u64 max: $key is not 2^64 - 1 in the Chrome trace" >&2; fail=1; }
done
cmp -s "$tmp/max_json.chrome.json" "$tmp/max_rec.chrome.json" ||
    { echo "cli_ntsim: export u64 max: the document and the record give different traces" >&2; fail=1; }
cp sim/scenarios/default.yaml "$tmp/sc.yaml"
check "record over its scenario" 2 "$bin" record "$tmp/sc.yaml" -o "$tmp/sc.yaml"
has "record over its scenario" "refusing to write over the scenario"
cmp -s "$tmp/sc.yaml" sim/scenarios/default.yaml || { echo "cli_ntsim: record changed its scenario" >&2; fail=1; }
# No output of a run is one of its inputs (issue 35, item 1; D-OUTPUT): the
# record dump, a trace file of -o DIR, the inspect session's ntrace.pb, by
# the same name or another (a hard link); each refused before anything is
# opened (before: exit 0, the scenario replaced). Nor is it another output.
mkdir -p "$tmp/in/d" "$tmp/in/e"
for f in s.yaml d/trace.json e/ntrace.pb; do cp sim/scenarios/default.yaml "$tmp/in/$f"; done
ln "$tmp/in/s.yaml" "$tmp/in/hard.yaml"
check "run --records over its scenario" 2 "$bin" run "$tmp/in/s.yaml" -o "$tmp/in/o" --records "$tmp/in/s.yaml"
has "run --records over its scenario" "ntsim run: $tmp/in/s.yaml: refusing to write over the scenario"
check "run --records over a hard link to it" 2 "$bin" run "$tmp/in/s.yaml" -o "$tmp/in/o" \
    --records "$tmp/in/hard.yaml"
has "run --records over a hard link to it" "ntsim run: $tmp/in/hard.yaml is $tmp/in/s.yaml itself: refusing to write over the scenario"
check "run -o its scenario's directory" 2 "$bin" run "$tmp/in/d/trace.json" -o "$tmp/in/d"
has "run -o its scenario's directory" "ntsim run: $tmp/in/d/trace.json: refusing to write over the scenario"
check "inspect over the scenario" 2 env NEURON_RT_INSPECT_ENABLE=1 NEURON_RT_INSPECT_OUTPUT_DIR="$tmp/in/e" \
    "$bin" run "$tmp/in/e/ntrace.pb" -o "$tmp/in/o"
has "inspect over the scenario" "ntsim run: $tmp/in/e/ntrace.pb: refusing to write over the scenario"
check "run --records onto its trace.json" 2 "$bin" run -o "$tmp/in/o" --records "$tmp/in/o/./trace.json"
has "run --records onto its trace.json" "ntsim run: $tmp/in/o/trace.json and $tmp/in/o/./trace.json are the same file: each output must be a file of its own"
for f in s.yaml d/trace.json e/ntrace.pb; do
    cmp -s "$tmp/in/$f" sim/scenarios/default.yaml || { echo "cli_ntsim: a run changed its input $f" >&2; fail=1; }
done
[ ! -e "$tmp/in/o" ] || { echo "cli_ntsim: a refused run made its output directory" >&2; fail=1; }

# The inspect session's variables (D-INSPECT-ENV). A malformed one names the
# variable and the part, exits 2, and nothing runs: not even -o DIR appears.
I=NEURON_RT_INSPECT
check "inspect: reversed range" 2 env ${I}_ENABLE=1 ${I}_EVENT_FILTER_NC=4-2 "$bin" run -o "$tmp/i0"
has "inspect: reversed range" "${I}_EVENT_FILTER_NC: '4-2': range ends before it starts"
[ ! -e "$tmp/i0" ] || { echo "cli_ntsim: a malformed filter still ran" >&2; fail=1; }
check "inspect: unknown type" 2 env ${I}_ENABLE=1 ${I}_EVENT_FILTER_TYPE=hardware,devic_exec \
    "$bin" run -o "$tmp/i0"
has "inspect: unknown type" "${I}_EVENT_FILTER_TYPE: 'devic_exec': unknown event type"
check "inspect: enable word" 2 env ${I}_ENABLE=true "$bin" run -o "$tmp/i0"
has "inspect: enable word" "${I}_ENABLE: 'true': expected 0 or 1"
check "inspect: every error" 2 env ${I}_DEVICE_PROFILE=2 ${I}_EVENT_FILTER_NC=256 \
    ${I}_EVENT_FILTER_TYPE=^ "$bin" run -o "$tmp/i0"
has "inspect: every error" "${I}_DEVICE_PROFILE: '2': expected 0, 1, model or session"
has "inspect: every error" "${I}_EVENT_FILTER_NC: '256': 256 is past the last NC, 255"
has "inspect: every error" "${I}_EVENT_FILTER_TYPE: '^': '^' without an event type"
has "inspect: every error" "nothing was run: 3 ${I}_* problems above"

# A filter that names no NC of the run (the default has NCs 0 and 1) is valid
# (another instance may have them) but captures nothing: the run goes on and
# says so, naming the variable (issue 27).
check "inspect: no NC of the run" 0 env ${I}_ENABLE=1 ${I}_OUTPUT_DIR="$tmp/insp100" \
    ${I}_EVENT_FILTER_NC=100 "$bin" run -o "$tmp/i100"
has "inspect: no NC of the run" "ntsim run: warning: ${I}_EVENT_FILTER_NC: no NC of this run is in the filter (its NCs are 0..1): nothing will be captured"
has "inspect: no NC of the run" "inspect session: $tmp/insp100/ntrace.pb: 0 events;"

# A filter: the hardware types but hw_notify, on NC 1 (facts §1's HARDWARE set,
# by their interned names). The run captures exactly the events of the
# unfiltered default run (no ring overflows there) that pass the filter, its
# summary shows six types, and ntrace.pb is trace.ntff's bytes: the same
# records through event_to_proto with the same options. (check() owns $want.)
hw6='"cc_exec_barrier","nc_exec_running","cc_running","numerical_err","timestamp_sync_point","nc_model_switch"'
filtered=$(jq "[.events[] | select(.nc_idx == 1 and (.event_type | IN($hw6)))] | length" \
       "$tmp/a/trace.json") || fail=1
check "inspect: filter" 0 env ${I}_ENABLE=1 ${I}_OUTPUT_DIR="$tmp/insp" \
    ${I}_EVENT_FILTER_TYPE=hardware,^hw_notify ${I}_EVENT_FILTER_NC=1 "$bin" run -o "$tmp/i1"
has "inspect: filter" "6 of 46 event types present"
has "inspect: filter" "in the trace ${filtered:-?},"
has "inspect: filter" "inspect session: $tmp/insp/ntrace.pb: ${filtered:-?} events; capturing 6 of 46 event types on 1 of 256 NCs; device profile off"
cmp -s "$tmp/i1/trace.ntff" "$tmp/insp/ntrace.pb" ||
    { echo "cli_ntsim: inspect: ntrace.pb differs from trace.ntff" >&2; fail=1; }
protoc --decode=ntff.ntrace_info -Iengine engine/convert/ntff.proto <"$tmp/insp/ntrace.pb" \
    >"$tmp/ntrace.txt" || { echo "cli_ntsim: protoc cannot decode ntrace.pb" >&2; fail=1; }
types=$(sed -n 's/^  event_type: //p' "$tmp/ntrace.txt" | sort -n | uniq | tr '\n' ' ')
[ "$types" = "6 7 8 13 25 26 " ] ||
    { echo "cli_ntsim: inspect: ntrace.pb has event types '$types', want '6 7 8 13 25 26 '" >&2; fail=1; }
events=$(grep -c '^events {' "$tmp/ntrace.txt")
on_nc1=$(grep -c '^  nc_idx: 1$' "$tmp/ntrace.txt")
[ "$events" = "${filtered:-?}" ] && [ "$on_nc1" = "$events" ] ||
    { echo "cli_ntsim: inspect: ntrace.pb has $events events ($on_nc1 on NC 1), want ${filtered:-?}" >&2; fail=1; }

# The gid map of the harvest: trn1's visible logical NCs are 6..9 of 16 devices
# x 2 cores (sim/scenarios/trn1.yaml), so nc_idx 2 and 3 are logical NCs 8 and
# 9, both on device 4: every event of ntrace.pb has nd_idx 4.
check "inspect: instance" 0 env ${I}_ENABLE=1 ${I}_OUTPUT_DIR="$tmp/i5" ${I}_EVENT_FILTER_NC=2-3 \
    ${I}_EVENT_FILTER_TYPE=device_exec "$bin" run sim/scenarios/trn1.yaml -q -o "$tmp/i5o"
cmp -s "$tmp/i5o/trace.ntff" "$tmp/i5/ntrace.pb" ||
    { echo "cli_ntsim: inspect: trn1's ntrace.pb differs from its trace.ntff" >&2; fail=1; }
protoc --decode=ntff.ntrace_info -Iengine engine/convert/ntff.proto <"$tmp/i5/ntrace.pb" >"$tmp/i5.txt" ||
    fail=1
places=$(grep -E '^  (nd_idx|nc_idx|event_type):' "$tmp/i5.txt" | sort -u | tr '\n' ' ')
[ "$places" = "  event_type: 7   nc_idx: 2   nc_idx: 3   nd_idx: 4 " ] ||
    { echo "cli_ntsim: inspect: trn1's ntrace.pb: '$places'" >&2; fail=1; }

# The default directory is ./output; variables ntsim does not know, or that
# do nothing, are warned of and the run goes on.
abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
mkdir -p "$tmp/cwd"
check "inspect: default dir" 0 sh -c "cd '$tmp/cwd' && env ${I}_ENABLE=1 \
    ${I}_EVENT_FILTER_TYPES=software '$abs' run -q -o out"
has "inspect: default dir" "warning: ${I}_EVENT_FILTER_TYPES: not a variable ntsim honours"
[ -s "$tmp/cwd/output/ntrace.pb" ] || { echo "cli_ntsim: inspect: no ./output/ntrace.pb" >&2; fail=1; }
check "inspect: not enabled" 0 env ${I}_EVENT_FILTER_TYPE=hardware ${I}_OUTPUT_DIR="$tmp/i2" \
    "$bin" run -o "$tmp/i2o"
has "inspect: not enabled" "warning: ${I}_ENABLE: not 1, so there is no inspect session"
has "inspect: not enabled" "46 of 46 event types present"
[ ! -e "$tmp/i2" ] || { echo "cli_ntsim: inspect: a disabled session wrote $tmp/i2" >&2; fail=1; }
check "inspect: system profile off" 0 env ${I}_ENABLE=1 ${I}_SYSTEM_PROFILE=0 \
    ${I}_DEVICE_PROFILE=session ${I}_OUTPUT_DIR="$tmp/i3" "$bin" run -o "$tmp/i3o"
has "inspect: system profile off" "inspect session: system profile off, no ntrace.pb; device profile session"
has "inspect: system profile off" "46 of 46 event types present"
[ ! -e "$tmp/i3" ] || { echo "cli_ntsim: inspect: no system profile, yet $tmp/i3" >&2; fail=1; }

# An output directory that cannot be made: exit 1, the path named, nothing run.
: >"$tmp/plain"
check "inspect: bad dir" 1 env ${I}_ENABLE=1 ${I}_OUTPUT_DIR="$tmp/plain/sub" "$bin" run -o "$tmp/i4"
has "inspect: bad dir" "${I}_OUTPUT_DIR: $tmp/plain/sub: cannot create the output directory: Not a directory"
[ ! -e "$tmp/i4" ] || { echo "cli_ntsim: inspect: ran with no output directory" >&2; fail=1; }

# A scenario by name, from any directory (D-SCENARIO-NAMES): the program
# finds its data from where it is, never from the working directory.
check "name from elsewhere" 0 sh -c "cd / && '$abs' run trn2_48xl -q -o '$tmp/n48'"
[ -s "$tmp/n48/trace.json" ] || { echo "cli_ntsim: run trn2_48xl from / wrote no trace.json" >&2; fail=1; }
check "name not found" 3 sh -c "cd / && '$abs' run trn2_4xl -o '$tmp/nx'"
has "name not found" "trn2_4xl: no such file, and no shipped scenario of that name; the shipped scenarios ("
has "name not found" "sim/scenarios): clock_drift, default, "
has "name not found" ", trn2_48xl, trn2_lnc2"
check "path not found" 3 "$bin" run "$tmp/no/such.yaml" -o "$tmp/nx"
has "path not found" "$tmp/no/such.yaml: no such file; the shipped scenarios ("
[ ! -e "$tmp/nx" ] || { echo "cli_ntsim: a scenario not found still made $tmp/nx" >&2; fail=1; }
# Installed: <prefix>/bin/ntsim reads <prefix>/share/ntsim/scenarios, not the
# tree it was built in.
mkdir -p "$tmp/prefix/bin" "$tmp/prefix/share/ntsim/scenarios"
cp "$abs" "$tmp/prefix/bin/ntsim"
sed 's/^name: ring_overflow$/name: only_this/' sim/scenarios/ring_overflow.yaml \
    >"$tmp/prefix/share/ntsim/scenarios/only_this.yaml"
check "installed name" 0 sh -c "cd / && '$tmp/prefix/bin/ntsim' run only_this -o '$tmp/p1'"
has "installed name" "scenario only_this from $tmp/prefix/share/ntsim/scenarios/only_this.yaml,"
check "installed, the tree's name" 3 sh -c "cd / && '$tmp/prefix/bin/ntsim' run default -o '$tmp/p2'"
has "installed, the tree's name" "the shipped scenarios ($tmp/prefix/share/ntsim/scenarios): only_this"
# A build directory of any depth (build/clang/x/) in another source tree.
mkdir -p "$tmp/tree/sim/scenarios" "$tmp/tree/build/clang/x"
: >"$tmp/tree/sim/sim.mk"
cp "$abs" "$tmp/tree/build/clang/x/ntsim"
sed 's/^name: ring_overflow$/name: deep_one/' sim/scenarios/ring_overflow.yaml \
    >"$tmp/tree/sim/scenarios/deep_one.yaml"
check "build tree name" 0 sh -c "cd / && '$tmp/tree/build/clang/x/ntsim' run deep_one -o '$tmp/p3'"
has "build tree name" "scenario deep_one from $tmp/tree/sim/scenarios/deep_one.yaml,"

# stress: real threads, invariants only.
check "stress" 0 "$bin" run --stress --threads 3 --ncs 2 --seconds 0.3
has "stress" "invariants: all held"

# --- the newcomer's stumbles (issue 38, D-CLI-USAGE, D-RUN-LOG) -------------------
# split NAME WANT_RC CMD...: runs CMD, stdout in $tmp/out, stderr in $tmp/err
split() {
    name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "cli_ntsim: $name: exit $rc, want $want" >&2
        sed 's/^/    /' "$tmp/err" | head -5 >&2
        fail=1
    fi
}
err_has() { # err_has NAME TEXT: the last command's stderr contains TEXT
    grep -qF -- "$2" "$tmp/err" || { echo "cli_ntsim: $1: stderr lacks: $2" >&2; fail=1; }
}
err_lacks() { # err_lacks NAME TEXT
    if grep -qF -- "$2" "$tmp/err"; then echo "cli_ntsim: $1: stderr has: $2" >&2; fail=1; fi
}
err_lines() { # err_lines NAME N: the last command's stderr is N lines
    n=$(wc -l <"$tmp/err")
    [ "$n" -eq "$2" ] || { echo "cli_ntsim: $1: $n lines on stderr, want $2" >&2; fail=1; }
}
# A stress option without --stress did nothing, silently: refused, nothing run.
split "threads without stress" 2 "$bin" run --threads 8 -o "$tmp/st"
err_has "threads without stress" "ntsim run: --threads is for --stress"
[ ! -e "$tmp/st" ] || { echo "cli_ntsim: run --threads ran a scenario" >&2; fail=1; }
split "seconds without stress" 2 "$bin" run trn1 --seconds 1 -o "$tmp/st"
err_has "seconds without stress" "ntsim run: --seconds is for --stress"
# export without -o: the missing OUT named, not a wrong extension.
split "export without -o" 2 "$bin" export "$tmp/a/trace.json"
err_has "export without -o" "ntsim export: -o OUT is missing"
err_lacks "export without -o" "must end in"
split "export bad extension" 2 "$bin" export "$tmp/a/trace.json" -o "$tmp/t.jsn"
err_has "export bad extension" "-o OUT must end in .pftrace, .json or .html (got '$tmp/t.jsn')"
# A usage error is its problem and where the help is: two lines, never the help.
for sub in run record replay decode export view stats diff testee; do
    split "$sub bad option" 2 "$bin" "$sub" --frobnicate
    err_lines "$sub bad option" 2
    err_has "$sub bad option" "ntsim $sub: unknown option '--frobnicate'"
    err_has "$sub bad option" "(ntsim $sub --help says more)"
    err_lacks "$sub bad option" "usage:"
done
split "no command" 2 "$bin"
err_lines "no command" 2
split "misspelt command" 2 "$bin" exprot
err_has "misspelt command" "ntsim: unknown command 'exprot' (did you mean export?)"
# Did you mean: an option, a scenario key, a vector kind, an inspect variable.
split "misspelt option" 2 "$bin" run --qiuet
err_has "misspelt option" "ntsim run: unknown option '--qiuet' (did you mean --quiet?)"
printf 'name: typo\nduraton_ns: 5000\n' >"$tmp/typo.yaml"
split "misspelt scenario key" 3 "$bin" run "$tmp/typo.yaml" -o "$tmp/typo"
err_has "misspelt scenario key" "typo.yaml:2:1: duraton_ns: unknown key (did you mean duration_ns?)"
sed 's/^kind: notify$/kind: notfy/' vectors/notify.yaml >"$tmp/kind.yaml"
split "misspelt kind" 3 "$bin" replay "$tmp/kind.yaml"
err_has "misspelt kind" "kind: unknown kind 'notfy' (did you mean notify?)"
if [ -x "$(dirname "$bin")/check_ntsim" ]; then
    split "misspelt --kind" 2 "$(dirname "$bin")/check_ntsim" --kind jsn
    err_has "misspelt --kind" "--kind: no kind 'jsn' (did you mean json?)"
    # The runner says a usage error as the command does: two lines, never the help.
    cn="$(dirname "$bin")/check_ntsim"
    split "runner bad option" 2 "$cn" --frobnicate
    err_lines "runner bad option" 2
    err_has "runner bad option" "$cn: unknown option '--frobnicate'"
    err_has "runner bad option" "($cn --help says more)"
    err_lacks "runner bad option" "usage:"
    split "runner misspelt option" 2 "$cn" --shrad 0/2
    err_has "runner misspelt option" "$cn: unknown option '--shrad' (did you mean --shard?)"
    split "runner missing value" 2 "$cn" --kind
    err_has "runner missing value" "$cn: --kind needs a value"
    split "runner stray argument" 2 "$cn" vectors
    err_lines "runner stray argument" 2
    err_has "runner stray argument" "$cn: unexpected argument 'vectors'"
fi
split "misspelt inspect variable" 0 env NEURON_RT_INSPECT_ENABEL=1 "$bin" run -q -o "$tmp/ie"
err_has "misspelt inspect variable" "NEURON_RT_INSPECT_ENABEL: not a variable ntsim honours (did you mean NEURON_RT_INSPECT_ENABLE?)"
# A timeline given as a trace: named, and the trace beside it named.
split "view a chrome trace" 3 "$bin" view "$tmp/a/trace.chrome.json" -o "$tmp/v.html"
err_has "view a chrome trace" "$tmp/a/trace.chrome.json: a Chrome trace JSON: ntsim reads fetch JSON, NTFF or record dumps"
err_has "view a chrome trace" "give it the trace it was drawn from, $tmp/a/trace.json"
# The scenario's deliberate errors: counted, said once in the summary; -q
# prints nothing at all.
split "run -q" 0 "$bin" run -q -o "$tmp/q"
[ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] ||
    { echo "cli_ntsim: run -q printed:" >&2; cat "$tmp/out" "$tmp/err" | head -5 >&2; fail=1; }
split "run's expected errors" 0 "$bin" run -o "$tmp/q"
err_lacks "run's expected errors" "Invalid notification type"
n=$(grep -c 'expected: 4 engine errors "Invalid notification type: N" (N = 9, 10, -7 x2)' "$tmp/out")
[ "$n" -eq 1 ] || { echo "cli_ntsim: run: the expected errors said $n times, want once" >&2; fail=1; }

# The devices (D-TIMELINE-ORDER): trn1's visible NCs 0-3 are its physical
# cores 6-9, on devices 3 and 4 (2 cores each): a process each in run's
# timelines and in an export of its NTFF; a fetch document names no device.
check "trn1" 0 "$bin" run trn1 -q -o "$tmp/t1"
for f in "$tmp/t1/trace.chrome.json" "$tmp/t1/from_ntff.json"; do
    [ "$f" = "$tmp/t1/trace.chrome.json" ] || check "export trn1's NTFF" 0 "$bin" export "$tmp/t1/trace.ntff" -o "$f"
    for d in 3 4; do
        grep -qF "\"process_name\",\"pid\":$((0x7F000000 + d)),\"tid\":0,\"args\":{\"name\":\"neuron device $d\"}" "$f" ||
            { echo "cli_ntsim: $f: no process 'neuron device $d'" >&2; fail=1; }
    done
done
grep -qF "<h1>ntsim timeline: ntsim host, 4 NCs (0-3) on 2 neuron devices (3-4)</h1>" "$tmp/t1/timeline.html" ||
    { echo "cli_ntsim: trn1's page does not name its 2 devices" >&2; fail=1; }
check "export trn1's JSON" 0 "$bin" export "$tmp/t1/trace.json" -o "$tmp/t1/from_json.json"
grep -qF '"name":"neuron device (unknown)"' "$tmp/t1/from_json.json" ||
    { echo "cli_ntsim: a fetch document's export names a device" >&2; fail=1; }

if [ "$fail" -eq 0 ]; then
    echo "cli_ntsim: the ntsim command behaves as documented: ok"
fi
exit "$fail"
