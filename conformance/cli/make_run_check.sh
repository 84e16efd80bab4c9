#!/bin/sh
# conformance/cli/make_run_check.sh MAKE DIR: make run's closing line says
# what the run wrote (issue 38): the page to open after a run with timelines,
# and "no timelines this time" after one past --timeline-max-events, whose
# earlier timelines are gone (D-OUTPUT), so the line never points at a page
# of another run.
make=${1:?usage: make_run_check.sh MAKE DIR}
dir=${2:?usage: make_run_check.sh MAKE DIR}
fail=0
rm -rf "$dir"
log=$dir.log
say() { echo "make_run_check: $*" >&2; fail=1; }
$make -s --no-print-directory run OUT="$dir" RUN_ARGS=-q >"$log" 2>&1 || say "make run failed: $(cat "$log")"
grep -qx "make run: open $dir/timeline.html in a browser; $dir/trace.pftrace in ui.perfetto.dev" "$log" ||
    say "a run with timelines did not point at its page: $(tail -1 "$log")"
[ -e "$dir/timeline.html" ] || say "no $dir/timeline.html after a run with timelines"
$make -s --no-print-directory run OUT="$dir" RUN_ARGS="-q --timeline-max-events 100" >"$log" 2>&1 ||
    say "make run past --timeline-max-events failed: $(cat "$log")"
grep -qx "make run: no timelines this time (see above); ntsim export $dir/trace.json -o OUT.html makes one" "$log" ||
    say "a run without timelines did not say so: $(tail -1 "$log")"
[ ! -e "$dir/timeline.html" ] || say "the earlier run's $dir/timeline.html is still there"
rm -rf "$dir" "$log"
[ "$fail" = 0 ] && echo "make_run_check: make run's closing line names what the run wrote: ok"
exit "$fail"
