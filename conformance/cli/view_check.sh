#!/bin/sh
# conformance/cli/view_check.sh NTSIM: `make view-check`. The page `ntsim run`
# writes (out/timeline.html) opened in a real browser, Debian's headless
# chromium: a screenshot to PNG, and the DOM after the page's script ran
# (--dump-dom), which must hold every lane and every span that the run's
# Chrome trace JSON lists (counted with jq: thread_name metadata and X events)
# and the axis the script draws.
set -u
bin=$1
dir=${VIEW_CHECK_OUT:-build/view-check}
fail=0
rm -rf "$dir"
mkdir -p "$dir"
"$bin" run -q -o "$dir" 2>/dev/null || { echo "view-check: ntsim run failed" >&2; exit 1; }
page=$(cd "$dir" && pwd)/timeline.html
png=$(cd "$dir" && pwd)/timeline.png
browser() { # a fresh profile each time; no network, no first-run or sync
    profile=$(mktemp -d)
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" "$@" 2>"$dir/chromium.err"
    rc=$?
    rm -rf "$profile"
    return $rc
}
browser --window-size=1400,900 --screenshot="$png" "file://$page" >/dev/null ||
    { echo "view-check: chromium could not take the screenshot" >&2; fail=1; }
browser --dump-dom "file://$page" >"$dir/dom.html" ||
    { echo "view-check: chromium could not dump the DOM" >&2; fail=1; }
# A PNG: its signature, and more than a blank page's bytes.
if [ "$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ] ||
    [ "$(wc -c <"$png")" -lt 20000 ]; then
    echo "view-check: $png is not a rendered page" >&2
    fail=1
fi
want_lanes=$(jq '[.traceEvents[] | select(.ph == "M" and .name == "thread_name")] | length' \
    "$dir/trace.chrome.json")
want_spans=$(jq '[.traceEvents[] | select(.ph == "X")] | length' "$dir/trace.chrome.json")
lanes=$(grep -o '<g class="lane"' "$dir/dom.html" | wc -l)
spans=$(grep -o '<rect class="span' "$dir/dom.html" | wc -l)
ticks=$(grep -o 'class="tick-label"' "$dir/dom.html" | wc -l)
names=$(jq -r '.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .args.name' \
    "$dir/trace.chrome.json" | sed 's/&/\&amp;/g' | while read -r n; do
        grep -qF "data-lane=\"$n\"" "$dir/dom.html" && echo ok; done | wc -l)
echo "view-check: chromium's DOM: $lanes lanes ($names named as in the JSON), $spans spans," \
     "$ticks axis labels; the Chrome JSON: $want_lanes threads, $want_spans spans"
[ "$lanes" -eq "$want_lanes" ] && [ "$names" -eq "$want_lanes" ] ||
    { echo "view-check: lanes differ" >&2; fail=1; }
[ "$spans" -eq "$want_spans" ] || { echo "view-check: spans differ" >&2; fail=1; }
[ "$ticks" -eq 11 ] || { echo "view-check: the page's script did not run" >&2; fail=1; }
[ "$fail" -eq 0 ] && echo "view-check: screenshot $png: ok"
exit "$fail"
