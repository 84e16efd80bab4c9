#!/bin/sh
# conformance/proofs/add_format.sh [CC]: proves docs/architecture.md's
# checklist for adding an output format is exactly right, on a scratch copy
# of the tree.
#
# It adds a throwaway format, `scratch` (a line per record: type, phase,
# time), with the checklist's ten edits, one function per edit:
#    1. edit_writer      engine/timeline/scratch.c: ntsim__write_scratch
#    2. edit_engine_mk   scratch.c in engine/engine.mk
#    3. edit_map         its XX(scratch, ...) row in NTSIM_OUTPUT_FORMAT_MAP
#                        (engine/timeline/output_formats.h)
#    4. edit_test        conformance/unit/engine/timeline/check_scratch.c: its
#                        exact bytes, through the registry, in suite `scratch`
#    5. edit_unit_mk     check_scratch.c in conformance/unit/unit.mk
#    6. edit_suites_h    make_scratch_suite in conformance/runner/check_suites.h
#    7. edit_main        its row in conformance/runner/check_main.c's table
#    8. edit_readme      its row in README.md's table of timelines
#    9. edit_decision    D-SCRATCH in docs/decisions.md
#   10. edit_file_map    its two files in docs/architecture.md's file map
#
# Then: with all ten the whole suite, the file map and the README's list of
# formats pass, `ntsim run`
# writes trace.scratch and `ntsim export` of its record dump writes the same
# bytes to OUT.scratch (the checklist is enough); with any one left out, the build, the suite or the file map fails
# (none is superfluous). Exit 0 when both hold.
cc=${1:-cc}
proof=add_format
. "$(dirname "$0")/checklist.sh"
checklist_base

edit_writer() {
    cat >"$tmp/t/engine/timeline/scratch.c" <<'C'
/* engine/timeline/scratch.c: the throwaway format of add_format.sh: a line
 * per record, its type, phase and time. */
#include <inttypes.h>

#include "output_formats.h"

NRT_STATUS ntsim__write_scratch(const nrt_sys_trace_event_t *events, size_t count,
                                const ntsim_timeline_options_t *options, FILE *out)
{
    (void)options;
    if (out == NULL || (events == NULL && count > 0))
        return NRT_INVALID;
    for (size_t i = 0; i < count; i++)
        if (fprintf(out, "%u %u %" PRIu64 "\n", (unsigned)events[i].trace_type,
                    (unsigned)events[i].phase, events[i].timestamp_ns) < 0)
            return NRT_FAILURE;
    return NRT_SUCCESS;
}
C
}
edit_engine_mk() {
    perl -0pi -e 's/(output_formats\.c)/$1 scratch.c/' "$tmp/t/engine/engine.mk"
}
edit_map() {
    perl -0pi -e 's/(\n       "D-TIMELINE-HTML"\))\n/$1 \\\n    XX(scratch, "a scratch file", "trace.scratch", ".scratch", "a line per record (add_format.sh)", "D-SCRATCH")\n/' \
        "$tmp/t/engine/timeline/output_formats.h"
}
edit_test() {
    cat >"$tmp/t/conformance/unit/engine/timeline/check_scratch.c" <<'C'
/* conformance/unit/engine/timeline/check_scratch.c: the throwaway format of
 * add_format.sh, through the registry: two records, two lines. */
#include "check_timeline.h"

START_TEST(test_scratch_writes_a_line_per_record)
{
    nrt_sys_trace_event_t r[2] = {{0}};
    r[0].trace_type = (nrt_sys_trace_event_type_t)5;
    r[0].timestamp_ns = 100;
    r[1].trace_type = (nrt_sys_trace_event_type_t)7;
    r[1].phase = NRT_SYS_TRACE_EVENT_PHASE_INSTANT;
    r[1].timestamp_ns = 250;
    const ntsim_output_format_t *f = ntsim_output_format_named("scratch");
    ck_assert_ptr_nonnull(f);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(f->write(r, 2, NULL, m), NRT_SUCCESS);
    ck_assert_int_eq(fclose(m), 0);
    ck_assert_str_eq(text, "5 0 100\n7 2 250\n");
    free(text);
}
END_TEST

Suite *make_scratch_suite(void)
{
    Suite *s = suite_create("scratch");
    TCase *tc = tcase_create("scratch");
    tcase_add_test(tc, test_scratch_writes_a_line_per_record);
    suite_add_tcase(s, tc);
    return s;
}
C
}
edit_unit_mk() {
    perl -0pi -e 's/(check_output_formats\.c)/$1 check_scratch.c/' "$tmp/t/conformance/unit/unit.mk"
}
edit_suites_h() {
    perl -0pi -e 's/(\nSuite \*make_output_formats_suite\(void\);[^\n]*\n)/$1Suite *make_scratch_suite(void);\n/' \
        "$tmp/t/conformance/runner/check_suites.h"
}
edit_main() {
    perl -0pi -e 's/(\n    \{"output_formats", make_output_formats_suite\},)/$1\n    {"scratch", make_scratch_suite},/' \
        "$tmp/t/conformance/runner/check_main.c"
}
edit_readme() {
    perl -0pi -e 's/(\n\| `timeline\.html` \|[^\n]*)\n/$1\n| `trace.scratch` | a line per record (add_format.sh) | cat |\n/' \
        "$tmp/t/README.md"
}
edit_decision() {
    cat >>"$tmp/t/docs/decisions.md" <<'MD'

## D-SCRATCH: the throwaway format of add_format.sh

A line per record: its type, phase and time, in decimal.

Sources: S1.record.layout.
Contradicts: nothing.
MD
}
edit_file_map() {
    perl -0pi -e 's/(\nengine\/timeline\/output_formats\.\[ch\][^\n]*)\n/$1\nengine\/timeline\/scratch.c             the throwaway format\n/; s/(\nconformance\/unit\/engine\/timeline\/check_output_formats\.c[^\n]*)\n/$1\nconformance\/unit\/engine\/timeline\/check_scratch.c  its bytes\n/' \
        "$tmp/t/docs/architecture.md"
}

EDITS="edit_writer edit_engine_mk edit_map edit_test edit_unit_mk edit_suites_h edit_main
       edit_readme edit_decision edit_file_map"
# The file each edit changes or makes, in the same order.
FILES="engine/timeline/scratch.c engine/engine.mk engine/timeline/output_formats.h
       conformance/unit/engine/timeline/check_scratch.c conformance/unit/unit.mk
       conformance/runner/check_suites.h conformance/runner/check_main.c README.md
       docs/decisions.md docs/architecture.md"

suite() { # the whole suite in process, the file map, the README's formats, and the command's use
    (cd "$tmp/t" && CK_VERBOSITY=silent ./build/check_ntsim && sh conformance/proofs/file_map.sh &&
        sh conformance/proofs/readme_formats.sh ./build/ntsim) >"$tmp/suite.log" 2>&1 &&
        (cd "$tmp/t" && ./build/ntsim run -q -o out --records out/trace.records 2>/dev/null &&
            [ -s out/trace.scratch ] &&
            ./build/ntsim export out/trace.records -o out/x.scratch >/dev/null &&
            cmp -s out/trace.scratch out/x.scratch) >"$tmp/run.log" 2>&1
}

# --- all ten edits: the suite passes -----------------------------------------------
fresh
set -- $FILES
for e in $EDITS; do
    applied "$e" "$1"
    shift
done
if ! build; then
    say "with every edit, the build failed:"; grep -m5 -E 'error' "$tmp/build.log" | sed 's/^/    /'
    exit 1
fi
if suite; then
    say "1-10 applied: $(grep '^conformance:' "$tmp/suite.log"); ntsim run wrote trace.scratch," \
        "ntsim export of its record dump the same bytes"
else
    say "with every edit, the suite, the file map or the command failed:"
    grep -E '^FAIL|file_map|conformance:' "$tmp/suite.log" | head -8
    sed 's/^/    /' "$tmp/run.log" | head -5
    exit 1
fi

# --- each edit left out: the build, the suite or the file map fails ---------------------
leave_each_out
checklist_done 10
