#!/usr/bin/python3
"""conformance/cli/junit_check.py FILE SUMMARY_LINE: check_ntsim --junit's file,
read by a consumer nobody here wrote (Debian's python3-junitparser), must
count what the run's summary line counts (D-JUNIT). With --shards WHOLE
SHARD...: the shards of a run add up to the whole run (below).

The summary lines:

  conformance: P passed, F failed, S skipped     (the vectors and unit tests)
  generate: N cases in T s: P passed, F failed, S skipped, D discarded, E errors (...)

Every testcase is counted by its result as junitparser reads it (a failure,
an error, a skip or none), and the suites' own attributes must say the same.
A failure or an error must carry its message (the failure block), a skip its
reason. Prints one line: the counts, and exits 0 when they match."""
import re
import sys

from junitparser import Error, Failure, JUnitXml, Skipped


def outcomes(path):
    """{(classname, name): outcome} of a run's vectors: passed, failed,
    error, another shard (skipped as one), or skipped: REASON."""
    out = {}
    for suite in JUnitXml.fromfile(path):
        for case in suite:
            r = case.result[0] if case.result else None
            if r is None:
                o = 'passed'
            elif isinstance(r, Skipped):
                o = 'another shard' if r.message.startswith('in shard ') else f'skipped: {r.message}'
            else:
                o = 'failed' if isinstance(r, Failure) else 'error'
            if case.classname != 'unit':
                out[(case.classname, case.name)] = o
    return out


def shards(whole_path, shard_paths):
    """The vectors each shard ran (all but those it left to another shard)
    are disjoint, their union is every vector of the whole run, and each
    has the outcome it has in the whole run."""
    whole = outcomes(whole_path)
    problems, ran = [], {}
    for path in shard_paths:
        part = outcomes(path)
        if set(part) != set(whole):
            problems.append(f'{path}: lists other vectors than {whole_path}')
        for key, o in part.items():
            if o == 'another shard':
                continue
            if key in ran:
                problems.append(f'{key[1]}: run by {ran[key]} and by {path}')
            ran[key] = path
            if o != whole.get(key):
                problems.append(f'{key[1]}: {o} in {path}, {whole.get(key)} in the whole run')
    missing = [k[1] for k in whole if k not in ran]
    if missing:
        problems.append(f'{len(missing)} vectors run by no shard: {", ".join(missing[:5])}')
    for p in problems:
        print(f'junit_check: {p}', file=sys.stderr)
    print(f'junit_check: {len(shard_paths)} shards took {len(ran)} vectors, each once; the whole '
          f'run has {len(whole)}{"" if problems else ", with the same outcomes"}')
    sys.exit(1 if problems else 0)


def main():
    if sys.argv[1] == '--shards':
        shards(sys.argv[2], sys.argv[3:])
    path, line = sys.argv[1], sys.argv[2]
    m = re.match(r'conformance: (\d+) passed, (\d+) failed, (\d+) skipped$', line)
    g = re.match(r'generate: (\d+) cases in [0-9.]+ s: (\d+) passed, (\d+) failed, (\d+) skipped, '
                 r'(\d+) discarded, (\d+) errors', line)
    if m:
        want = {'passed': int(m[1]), 'failed': int(m[2]), 'errors': 0, 'skipped': int(m[3])}
    elif g:
        want = {'passed': int(g[2]), 'failed': int(g[3]), 'errors': int(g[5]) + int(g[6]),
                'skipped': int(g[4])}
    else:
        sys.exit(f"junit_check: not a summary line: {line!r}")
    got = {'passed': 0, 'failed': 0, 'errors': 0, 'skipped': 0}
    problems = []
    xml = JUnitXml.fromfile(path)
    suites = list(xml)
    if not suites:
        problems.append('no testsuite')
    tests = 0
    for suite in suites:
        n = {'failed': 0, 'errors': 0, 'skipped': 0, 'tests': 0}
        for case in suite:
            n['tests'] += 1
            results = case.result
            if len(results) > 1:
                problems.append(f'{case.name}: {len(results)} results')
            r = results[0] if results else None
            if r is None:
                got['passed'] += 1
            elif isinstance(r, Failure) or isinstance(r, Error):
                key = 'failed' if isinstance(r, Failure) else 'errors'
                got[key] += 1
                n[key] += 1
                if not r.message:
                    problems.append(f'{case.name}: a {key} without its message')
            elif isinstance(r, Skipped):
                got['skipped'] += 1
                n['skipped'] += 1
                if not r.message:
                    problems.append(f'{case.name}: skipped without a reason')
            if not case.classname:
                problems.append(f'{case.name}: no classname')
        tests += n['tests']
        for key, attr in (('tests', suite.tests), ('failed', suite.failures),
                          ('errors', suite.errors), ('skipped', suite.skipped)):
            if int(attr) != n[key]:
                problems.append(f'suite {suite.name}: its {key} attribute says {attr}, its '
                                f'testcases {n[key]}')
    if got != want:
        problems.append(f'the testcases count {got}, the summary line {want}')
    if tests != sum(want.values()):
        problems.append(f'{tests} testcases, the summary line {sum(want.values())}')
    for p in problems:
        print(f'junit_check: {path}: {p}', file=sys.stderr)
    print(f"junit_check: {path}: {tests} testcases: {got['passed']} passed, {got['failed']} "
          f"failed, {got['errors']} errors, {got['skipped']} skipped"
          f"{'' if problems else ', as the summary line says'}")
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
