#!/usr/bin/perl
# conformance/proofs/mutants.pl: make mutants. Mutation testing of engine/*.c: every
# mutant is one small wrong change to one engine file; the suite
# (check_ntsim, vectors and unit tests) must fail on it.
#
# Run by the Makefile (make mutants) as `mutants.pl BUILD/mutants.conf`: the
# file holds the compiler, flags and object lists, and the options below, as
# MUTANT_*=VALUE lines (a variable set in the environment wins over the
# file's); written for perl-base alone (a fresh Debian machine has it even
# without the perl package): no module outside it.
#
# The operators (one mutant per occurrence, on code only: never in comments,
# strings, character literals or preprocessor lines other than #define bodies):
#
#   ROR  relational       '<' -> '<=', '<=' -> '<', '>' -> '>=', '>=' -> '>',
#                         '==' -> '!=', '!=' -> '=='
#   AOR  arithmetic       binary '+' <-> '-', '*' -> '/', '/' -> '*', '%' -> '/',
#                         '+=' <-> '-=', '*=' -> '/=', '/=' -> '*=', '++' <-> '--'
#   BOR  bitwise, shift   binary '&' -> '|', '|' -> '&', '^' -> '&',
#                         '<<' <-> '>>', '&=' -> '|=', '|=' -> '&=', '<<=' <-> '>>='
#   LCR  logical          '&&' <-> '||'
#   CRP  constants        an integer literal N -> N+1 and, when N > 0, N -> N-1
#                         (base and suffix kept; floating literals are left alone)
#   NEG  negated cond.    'if (c)' -> 'if (!(c))', 'while (c)' -> 'while (!(c))'
#   SDL  deleted stmt     an expression statement (a call, an assignment, ++/--)
#                         that starts its line and ends its last line -> '{ }'
#   SWP  swapped writes   two such statements, each on one line, on adjacent
#                         lines of one block -> their order swapped
#
# A mutant's id is stable across edits elsewhere in the file:
#
#   FILE:LINE OP[#K] CHANGE
#
# LINE is the line of the change (SDL, SWP: the statement's first line), K the
# occurrence among identical changes on that line (omitted when 1), CHANGE
# what was done ("'<' -> '<='", "'if' negated", "deleted", "<-> 'next line'").
# Together with the changed line's code (trimmed), the id is how
# conformance/proofs/equivalent_mutants.txt names a mutant (its header has the
# format); an entry whose line moved but whose code did not still matches.
#
# Each mutant is built as the suite's binary: the tree is copied once per job
# to build/mutants/work/jobN, then per mutant one source file is swapped, that
# object recompiled, the library re-archived, check_ntsim and ntsim relinked (the
# suite runs that ntsim as its testee process: --ntsim). A
# mutant whose object (debug info stripped) equals the original's is
# 'same-code': the compiler proved it equivalent, it is not run. The others
# run the whole suite in one process (CK_FORK=no) under a timeout, the suites
# that test the mutated file first (%FIRST_SUITES), stopping at the first
# failed check (Check's TAP log, read as it is written). A
# survivor is then built and run as `make asan` runs the suite (ASan, UBSan,
# LeakSanitizer: an out-of-bounds access or a leak fails it), and, unless the
# equivalents file lists it, as `make tsan` does (a data race or a misused
# mutex fails it; the concurrency suite only, the one whose tests start
# threads):
#
#   killed      the suite failed (a failed check, a crash, an abort), in the
#               plain build or a sanitizer's ("[asan: ...]", "[tsan: ...]")
#   survived    the suite passed
#   equivalent  survived, and listed in conformance/proofs/equivalent_mutants.txt
#   timeout     the suite did not finish in MUTANT_TIMEOUT seconds
#   no-compile  the compiler refused the mutant (counted apart, not run)
#   same-code   the compiler produced the original object code
#
# score = (killed + timeout) / (compiled - equivalent - same-code).
#
# Options (environment): MUTANT_JOBS (default 2), MUTANT_FILES (file names or
# paths: "json.c config.c"), MUTANT_SAMPLE=N with MUTANT_SEED=S (the N mutants
# whose keys hash lowest with S, sub stable_sample: the same on any machine,
# and unchanged by edits elsewhere in the tree), MUTANT_RETRY=1 (only the survivors and timeouts of the last
# report; MUTANT_RETRY="FILE...": of those reports), MUTANT_TIMEOUT (seconds;
# default 6x the unmutated run, at least 30), MUTANT_SANITIZERS (default
# "asan tsan"; empty: no sanitizer stage), MUTANT_MIN_SCORE (percent, default
# 95), MUTANT_LIST=1 (print the mutants, run nothing; MUTANT_LIST=entries: as
# equivalents-file entries), MUTANT_OUT (where the work and the report go;
# default BUILD/mutants), MUTANT_SHARD=K/N (every N-th mutant of the
# selection from the K-th: one machine's part of a CI job matrix; the
# report is report.shard-K-of-N.txt, whose score is not judged on its own).
#
# `mutants.pl --merge OUT MIN_SCORE REPORT...` (make mutants-merge) adds the
# shards' reports of one run up into OUT and one score (mutants_report.pl):
# every shard 0..N-1 once, of one selection (its size and the hash of its
# ids), each mutant once; the merged score is the unsharded run's.
#
# MUTANT_SUITE says what judges each mutant (docs/measurements.md compares
# them on one sample):
#   suite     (default) the whole suite, as above: unit tests, vectors, the
#             process tests, then the sanitizer stages
#   vectors   the committed vectors alone (the mutated check_ntsim with
#             CK_RUN_SUITE=vectors: every kind, in process); no sanitizer stage
#   generate  generative conformance alone: the unmutated check_ntsim (the
#             reference, in process) judges the mutant's `ntsim testee` on
#             MUTANT_GENERATE_ARGS (default "--generate 2000 --seed 2029"),
#             stopping at the first failing case; no sanitizer stage. Only
#             what the testee protocol reaches can be killed this way (the
#             timelines, the simulator's own paths cannot).
#
# Writes build/mutants/report.txt (one line per mutant: its id, its result and
# the mutated line; survivors' diffs at the end; mutants_report.pl has its
# format) and build/mutants/diffs/*.diff
# (one per survivor: `patch -p1 < FILE` on a clean tree rebuilds it). Exits 1
# when the score is below MUTANT_MIN_SCORE, when an entry of the equivalents
# file matches no generated mutant, when a mutant listed as equivalent is
# killed, or when the suite fails on the unmutated engine.
use strict;
use warnings;
no warnings 'portable'; # hex() of 64-bit literals
use POSIX qw(WNOHANG);

my $EQUIV_FILE = 'conformance/proofs/equivalent_mutants.txt';

# The suites that test each engine file most directly: a mutant's run puts
# them first (check_ntsim --first), so a killed mutant fails in a fraction of
# the whole run. Only the time changes: a survivor runs every suite either
# way. A file missing here runs the suites in the usual order.
my %FIRST_SUITES = (
    'alloc.c'          => 'services,capture',
    'capture.c'        => 'capture,capture_start,ring,abuse,services,concurrency',
    'chrome_trace.c'   => 'chrome_trace,timeline_writers',
    'clock_align.c'    => 'clock_align,timeline_runs,sim',
    'config.c'         => 'config,capture,inspect_env',
    'data_view.c'      => 'timeline,clock_align,chrome_trace,pftrace',
    'decode.c'         => 'read,read_roundtrip,abuse',
    'event_table.c'    => 'event_table',
    'grace.c'          => 'capture,abuse,concurrency',
    'input.c'          => 'input,read,read_roundtrip,loader,scenario_keys,facts',
    'intern.c'         => 'intern,services,json',
    'json.c'           => 'json',
    'json_reader.c'    => 'json_reader,read_errors,read,read_roundtrip',
    'log.c'            => 'services',
    'notify.c'         => 'notify',
    'ntff.c'           => 'ntff,intern',
    'ntff_wire.c'      => 'read_errors,read,read_roundtrip,json_reader',
    'output_formats.c' => 'output_formats,timeline_writers',
    'pftrace.c'        => 'pftrace,timeline_writers',
    'read.c'           => 'read_errors,read,read_roundtrip,json_reader',
    'read_json.c'      => 'read_errors,read,read_roundtrip,json_reader',
    'read_ntff.c'      => 'read_errors,read,read_roundtrip,json_reader',
    'read_values.c'    => 'read_errors,read,read_roundtrip,json_reader',
    'ring.c'           => 'ring,ring_push,ring_pop,ring_evict,ring_owner,capture,concurrency',
    'session.c'        => 'capture_start,json,capture,concurrency',
    'timeline.c'       => 'timeline,timeline_flows,clock_align,timeline_lanes,timeline_runs',
    'timeline_html.c'  => 'timeline_html,timeline_writers',
    'timeline_lanes.c' => 'timeline_lanes,timeline,timeline_html',
);

# The mutants of a file: mutants_generate.pl; the report and the merge of
# shards' reports: mutants_report.pl; both beside this file.
BEGIN {
    (my $here = __FILE__) =~ s{[^/]*$}{};
    $here = "./$here" unless $here =~ m{^/}; # require searches @INC for other relative paths
    require($here . 'mutants_generate.pl');
    require($here . 'mutants_report.pl');
}

# --- the equivalents file ------------------------------------------------------------

# Entries: FILE:LINE OP[#K] CHANGE `CODE`: PROOF
sub read_equivalents {
    my ($path) = @_;
    my @eq;
    open my $fh, '<', $path or return (\@eq, []);
    my @err;
    my $n = 0;
    while (my $l = <$fh>) {
        $n++;
        chomp $l;
        next if $l =~ /^\s*(#|$)/;
        if ($l =~ /^(\S+):(\d+) ([A-Z]{3})(?:#(\d+))? (.+?) `([^`]*)`: (\S.*)$/) {
            push @eq, { file => $1, line => $2, op => $3, k => $4 // 1, change => $5,
                        code => trim($6), proof => $7, at => "$path:$n",
                        key => join("\0", $1, $3, $4 // 1, $5, trim($6)) };
        } else {
            push @err, "$path:$n: not 'FILE:LINE OP[#K] CHANGE `CODE`: PROOF'";
        }
    }
    return (\@eq, \@err);
}

# --- running ----------------------------------------------------------------------------

# The Makefile's MUTANT_*=VALUE lines (mutants.conf), read once by main.
my %CONF;
sub read_conf {
    my ($path) = @_;
    open my $fh, '<', $path or die "mutants: cannot read $path: $!\n";
    while (my $l = <$fh>) {
        chomp $l;
        next if $l eq '';
        $l =~ /^(MUTANT_\w+)=(.*)$/ or die "mutants: $path:$.: not a MUTANT_*=VALUE line\n";
        $CONF{$1} = $2;
    }
}

sub env_or {
    my ($k, $d) = @_;
    return $ENV{$k} if defined $ENV{$k} && $ENV{$k} ne '';
    return defined $CONF{$k} && $CONF{$k} ne '' ? $CONF{$k} : $d;
}

sub sh_quote { my $s = shift; $s =~ s/'/'\\''/g; return "'$s'" }

sub slurp {
    my ($p) = @_;
    open my $fh, '<', $p or die "mutants: cannot read $p: $!\n";
    local $/;
    my $t = <$fh>;
    return $t;
}

sub spew {
    my ($p, $t) = @_;
    open my $fh, '>', $p or die "mutants: cannot write $p: $!\n";
    print $fh $t;
    close $fh or die "mutants: cannot write $p: $!\n";
}

# The sample: the N mutants whose keys (file, operator, occurrence, change
# and the line's code: no line number) hash lowest with the seed. A mutant
# stays in or out of the sample whatever changes elsewhere in the tree (an
# edit in another file, a line that only moved), so a sample that was
# triaged stays triaged; only mutants of code that changed come and go.
sub stable_sample {
    my ($seed, $n, @x) = @_;
    my %h = map { $_ => fnv1a32("$seed\0$x[$_]{key}") } 0 .. $#x;
    my @pick = (sort { $h{$a} <=> $h{$b} || $x[$a]{key} cmp $x[$b]{key} } 0 .. $#x)[0 .. $n - 1];
    return @x[sort { $a <=> $b } @pick];
}

# Runs the suite in directory $dir in one process (CK_FORK=no), reading
# Check's TAP log as it is written: the first 'not ok' ends the run (the
# verdict is the same as the whole run's, sooner). Returns (status, detail):
# killed, survived or timeout.
sub run_suite {
    my ($dir, $bin, $timeout, $log, $env, @args) = @_;
    local $^F = 255; # the pipe stays open across exec
    pipe(my $r, my $wr) or die "mutants: pipe: $!\n";
    my $pid = fork;
    die "mutants: fork: $!\n" unless defined $pid;
    if ($pid == 0) {
        # A process group of its own, so that a kill ends whatever the
        # suite started too (a testee, a CLI under test), not just the suite.
        setpgrp(0, 0);
        close $r;
        chdir $dir or POSIX::_exit(126);
        open STDOUT, '>', $log or POSIX::_exit(126);
        open STDERR, '>&', \*STDOUT or POSIX::_exit(126);
        $ENV{CK_FORK} = 'no';
        $ENV{CK_VERBOSITY} = 'silent';
        $ENV{CK_TAP_LOG_FILE_NAME} = '/dev/fd/' . fileno($wr);
        delete $ENV{CK_XML_LOG_FILE_NAME};
        $ENV{$_} = $env->{$_} for keys %$env;
        exec { $bin } $bin, @args or POSIX::_exit(127);
    }
    setpgrp($pid, $pid); # also here: a kill may come before the child's own call (errors: it made it)
    # Out of the terminal's group, the suite no longer sees a ^C: pass it on.
    local $SIG{INT} = local $SIG{TERM} = sub { kill 'KILL', -$pid; POSIX::_exit(130) };
    close $wr;
    my ($status, $detail) = ('', '');
    my $ok = eval {
        local $SIG{ALRM} = sub { die "timeout\n" };
        alarm $timeout;
        while (my $l = <$r>) {
            if ($l =~ /^not ok \d+ - (.*)/) {
                ($status, $detail) = ('killed', $1);
                kill 'KILL', -$pid; # the group
                last;
            }
        }
        alarm 0;
        1;
    };
    alarm 0;
    if (!$ok) {
        die $@ unless $@ eq "timeout\n";
        kill 'KILL', -$pid; # the group
        ($status, $detail) = ('timeout', "no verdict in ${timeout}s");
    }
    close $r;
    waitpid($pid, 0);
    my $rc = $?;
    return ($status, $detail) if $status ne '';
    return ('survived', '') if $rc == 0;
    return ('killed', ($rc & 127 ? 'signal ' . ($rc & 127) : 'exit ' . ($rc >> 8))
                      . ' (' . last_line("$dir/$log") . ')');
}

# The sanitizer's first report line of a log, else its last line.
sub last_line {
    my ($p) = @_;
    open my $fh, '<', $p or return '';
    my $last = '';
    while (<$fh>) {
        chomp;
        return $1 if /((?:ERROR: \w+Sanitizer|runtime error).*)/;
        $last = $_ if /\S/;
    }
    return $last;
}

sub main {
    # make mutants-merge: mutants.pl --merge OUT MIN_SCORE REPORT...
    return merge_reports(@ARGV[1 .. $#ARGV]) if @ARGV && $ARGV[0] eq '--merge';
    read_conf($ARGV[0]) if @ARGV;
    my $build = env_or('MUTANT_BUILD', 'build');
    my $out = env_or('MUTANT_OUT', "$build/mutants"); # the work, the results, the report
    my @files = sort(glob('engine/*.c'), glob('engine/*/*.c'));
    my %orig = map { $_ => slurp($_) } @files;
    my @all = number_mutants(map { file_mutants($_, $orig{$_}) } @files);

    # The equivalents file is checked against every generated mutant, whatever
    # the selection: an entry that matches none has rotted.
    my ($eq, $eq_err) = read_equivalents($EQUIV_FILE);
    my @problems = @$eq_err;
    my @notes;
    my %by_key;
    push @{ $by_key{$_->{key}} }, $_ for @all;
    for my $e (@$eq) {
        my $c = $by_key{$e->{key}};
        if (!$c) {
            push @problems, "$e->{at}: no mutant '$e->{file}:$e->{line} $e->{op}"
                . ($e->{k} > 1 ? "#$e->{k}" : '') . " $e->{change}' on `$e->{code}`"
                . " (the code changed: check the proof and update the entry, or remove it)";
            next;
        }
        my ($best) = sort { abs($a->{line} - $e->{line}) <=> abs($b->{line} - $e->{line}) } @$c;
        if ($best->{equiv}) {
            push @problems, "$e->{at}: the same mutant as $best->{equiv}{at}";
            next;
        }
        $best->{equiv} = $e;
        push @notes, "$e->{at}: $best->{file} line $e->{line} is now $best->{line} (update it)"
            if $best->{line} != $e->{line};
    }

    # The selection.
    my @sel = @all;
    if (my $f = env_or('MUTANT_FILES', '')) {
        my @want = split /[\s,]+/, $f;
        @sel = grep {
            my $file = $_->{file};
            grep { $file eq $_ || $file eq "engine/$_" || $file =~ m{/\Q$_\E$} } @want;
        } @sel;
        for my $w (@want) {
            die "mutants: MUTANT_FILES: no engine file '$w'\n"
                unless grep { $_ eq $w || $_ eq "engine/$w" || m{/\Q$w\E$} } @files;
        }
    }
    my $retry = env_or('MUTANT_RETRY', '');
    if ($retry) {
        my %again;
        my @from = $retry eq '1' ? ("$out/report.txt") : split ' ', $retry;
        for my $from (@from) {
            open my $fh, '<', $from or die "mutants: MUTANT_RETRY needs $from\n";
            while (<$fh>) {
                $again{$1} = 1 if /^(\S+:\d+ .*?) (?:survived|timeout) \| /;
            }
        }
        @sel = grep { $again{$_->{id}} } @sel;
    }
    my $sample = env_or('MUTANT_SAMPLE', 0);
    my $seed = env_or('MUTANT_SEED', 1);
    if ($sample && $sample < @sel) {
        @sel = stable_sample($seed, $sample, @sel);
    }
    # MUTANT_SHARD=K/N: every N-th mutant of the selection from the K-th, so
    # that N machines of a CI's job matrix each run one shard and
    # make mutants-merge adds their reports up (mutants_report.pl).
    my ($shard_k, $shard_n) = (0, 1);
    if (my $sh = env_or('MUTANT_SHARD', '')) {
        ($shard_k, $shard_n) = $sh =~ m{^(\d+)/([1-9]\d*)$}
            or die "mutants: MUTANT_SHARD must be K/N with 0 <= K < N, not '$sh'\n";
        die "mutants: MUTANT_SHARD must be K/N with 0 <= K < N, not '$sh'\n" if $shard_k >= $shard_n;
    }
    my $sel_count = @sel;
    my $sel_hash = selection_hash(map { $_->{id} } @sel);
    @sel = @sel[grep { $_ % $shard_n == $shard_k } 0 .. $#sel];
    my $report = $shard_n > 1 ? "$out/report.shard-$shard_k-of-$shard_n.txt" : "$out/report.txt";

    if (env_or('MUTANT_LIST', '')) {
        for my $x (@sel) {
            if (env_or('MUTANT_LIST', '') eq 'entries') { # equivalent_mutants.txt skeletons
                print "$x->{id} `$x->{code}`: \n";
            } else {
                printf "%s | %s\n", $x->{id}, mutated_line($x, $orig{$x->{file}});
            }
        }
        my %per;
        $per{$_->{op}}++ for @sel;
        printf STDERR "%d mutants (%s)\n", scalar @sel,
            join(', ', map { "$_ $per{$_}" } sort keys %per);
        print STDERR "$_\n" for @problems, @notes;
        return @problems ? 1 : 0;
    }

    my $jobs = env_or('MUTANT_JOBS', 2);
    die "mutants: MUTANT_JOBS must be a positive integer\n" unless $jobs =~ /^[1-9]\d*$/;
    my $min_score = env_or('MUTANT_MIN_SCORE', 95);
    my $cc = env_or('MUTANT_CC', 'cc');
    my $cflags = env_or('MUTANT_CFLAGS', '');
    my $inc = env_or('MUTANT_INC', '-Iinclude -Iengine -Ibuild/gen');
    my $libs = env_or('MUTANT_LIBS', '');
    my @link_objs = split ' ', env_or('MUTANT_LINK_OBJS', '');
    my @engine_objs = split ' ', env_or('MUTANT_ENGINE_OBJS', '');
    # The ntsim command's objects: each mutant links its own ntsim too, which
    # the suite runs as a testee process (--ntsim), so that the process tests
    # see the same mutated engine as the in-process ones (against the original
    # ntsim, a test comparing the two would kill every mutant that changes
    # anything, whatever the vectors say).
    my @ntsim_objs = split ' ', env_or('MUTANT_NTSIM_OBJS', '');
    die "mutants: run me through make mutants (no MUTANT_LINK_OBJS: give BUILD/mutants.conf)\n"
        unless @link_objs && @engine_objs && @ntsim_objs;
    my $mode = env_or('MUTANT_SUITE', 'suite');
    die "mutants: MUTANT_SUITE must be suite, vectors or generate, not '$mode'\n"
        unless $mode =~ /^(suite|vectors|generate)$/;
    my @gen_args = split ' ', env_or('MUTANT_GENERATE_ARGS', '--generate 2000 --seed 2029');
    # The reference that judges a mutant's testee: the unmutated suite binary.
    my $ref_check = "$ENV{PWD}/$build/check_ntsim";
    $ref_check = "$build/check_ntsim" if $build =~ m{^/};
    die "mutants: MUTANT_SUITE=generate needs $ref_check (make mutants builds it)\n"
        if $mode eq 'generate' && !-x $ref_check;
    # What judges one mutant's binaries in directory $w: run_suite's arguments.
    my $judge = sub {
        my ($w, $timeout, @first) = @_;
        return run_suite($w, $ref_check, $timeout, 'build/mutant/run.log', {}, '--testee',
                         'build/mutant/ntsim testee', @gen_args, '--max-failures', '1',
                         '--shrink-steps', '0', '--progress', '0') if $mode eq 'generate';
        return run_suite($w, 'build/mutant/check_ntsim', $timeout, 'build/mutant/run.log',
                         { CK_RUN_SUITE => 'vectors' }, '--ntsim', 'build/mutant/ntsim')
            if $mode eq 'vectors';
        return run_suite($w, 'build/mutant/check_ntsim', $timeout, 'build/mutant/run.log', {},
                         '--ntsim', 'build/mutant/ntsim', @first);
    };

    # The sanitizer stages: the suite's objects built as make asan and make
    # tsan build them (MUTANT_SANITIZERS="asan tsan"; per stage MUTANT_<S>_BUILD,
    # _CFLAGS, _LIBS, _ENV from the Makefile).
    my @stages;
    for my $name ($mode eq 'suite' ? split(' ', env_or('MUTANT_SANITIZERS', '')) : ()) {
        my $u = uc $name;
        push @stages, { name => $name, build => env_or("MUTANT_${u}_BUILD", "$build/$name"),
                        cflags => env_or("MUTANT_${u}_CFLAGS", ''), libs => env_or("MUTANT_${u}_LIBS", ''),
                        env => { map { split /=/, $_, 2 } split ' ', env_or("MUTANT_${u}_ENV", '') },
                        timeout => 0 };
    }
    # Paths under $(BUILD) become paths under the job's own build/.
    my $rel = sub { my $p = shift; $p =~ s{^\Q$build\E/}{build/}; return $p };
    $inc = join ' ', map { $rel->($_) } split ' ', $inc;
    @link_objs = map { $rel->($_) } @link_objs;
    @engine_objs = map { $rel->($_) } @engine_objs;
    @ntsim_objs = map { $rel->($_) } @ntsim_objs;
    for my $sg (@stages) {
        $sg->{ntsim_objs} = [map { (my $o = $_) =~ s{^build/}{build/$sg->{name}/}; $o } @ntsim_objs];
        $sg->{link_objs} = [map { (my $o = $_) =~ s{^build/}{build/$sg->{name}/}; $o } @link_objs];
        $sg->{engine_objs} = [map { (my $o = $_) =~ s{^build/}{build/$sg->{name}/}; $o } @engine_objs];
    }

    my $t0 = time;
    system('rm', '-rf', "$out/work", "$out/results", "$out/diffs") == 0 or die "mutants: rm failed\n";
    system('mkdir', '-p', "$out/results", "$out/diffs") == 0 or die "mutants: mkdir failed\n";
    for my $j (1 .. $jobs) {
        my $w = "$out/work/job$j";
        system('mkdir', '-p', "$w/build/mutant") == 0 or die "mutants: mkdir $w failed\n";
        system('cp', '-R', 'include', 'engine', 'conformance', 'sim', 'vectors', 'docs', $w) == 0
            or die "mutants: cannot copy the tree to $w\n";
        system('cp', '-R', "$build/obj", "$build/gen", "$w/build/") == 0
            or die "mutants: cannot copy $build/obj, $build/gen to $w\n";
        for my $sg (@stages) {
            system('mkdir', '-p', "$w/build/$sg->{name}") == 0
                && system('cp', '-R', "$sg->{build}/obj", "$w/build/$sg->{name}/") == 0
                or die "mutants: cannot copy $sg->{build}/obj to $w\n";
        }
    }


    # One mutant in job $j: 0 on success; writes results/$idx.
    my $build_and_run = sub {
        my ($j, $x, $idx, $timeout) = @_;
        my $w = "$out/work/job$j";
        my $file = $x->{file};
        (my $base = $file) =~ s{.*/}{};
        (my $obj = $base) =~ s/\.c$/.o/;
        my ($status, $detail) = ('', '');
        my $started = time;
        my @first = $FIRST_SUITES{$base} ? ('--first', $FIRST_SUITES{$base}) : ();
        if (defined $x) {
            spew("$w/$file", apply_edits($orig{$file}, $x->{edits}));
            my $rc = system("cd " . sh_quote($w) . " && $cc $cflags $inc -c $file"
                            . " -o build/mutant/$obj >build/mutant/cc.log 2>&1");
            spew("$w/$file", $orig{$file});
            if ($rc != 0) {
                my ($first) = grep { /error|warning/ } split /\n/, slurp("$w/build/mutant/cc.log");
                $first //= 'compiler failed';
                $first =~ s/^.*?:\d+:\d+: //;
                ($status, $detail) = ('no-compile', $first);
            } else {
                # same-code: the object, debug info stripped, equals the original's
                my $ref = "$w/build/mutant/$obj.orig";
                if (!-e $ref) {
                    system("cd " . sh_quote($w) . " && $cc $cflags $inc -c $file -o build/mutant/orig.o"
                           . " && objcopy --strip-debug build/mutant/orig.o build/mutant/$obj.orig") == 0
                        or die "mutants: cannot build the original $file\n";
                }
                system('objcopy', '--strip-debug', "$w/build/mutant/$obj", "$w/build/mutant/stripped.o") == 0
                    or die "mutants: objcopy failed\n";
                if (system('cmp', '-s', "$w/build/mutant/stripped.o", $ref) == 0) {
                    ($status, $detail) = ('same-code', '');
                }
            }
        }
        if ($status eq '') {
            my @objs = map { my $o = $_; $o =~ m{/\Q$obj\E$} && $o =~ m{/engine/} ? "build/mutant/$obj" : $o }
                       @engine_objs;
            my $cmd = "cd " . sh_quote($w) . " && rm -f build/mutant/libntsim.a"
                . " && ar rcs build/mutant/libntsim.a @objs"
                . " && $cc $cflags -o build/mutant/check_ntsim @link_objs build/mutant/libntsim.a $libs"
                . " && $cc $cflags -o build/mutant/ntsim @ntsim_objs build/mutant/libntsim.a $libs"
                . " >build/mutant/link.log 2>&1";
            system($cmd) == 0 or die "mutants: link failed for $x->{id} (see $w/build/mutant/link.log)\n";
            ($status, $detail) = $judge->($w, $timeout, @first);
        }
        # A survivor again under the sanitizers, as make asan and make tsan
        # run the suite: ASan for every survivor, the later stages (TSan) for
        # the survivors the equivalents file does not explain.
        for my $sg (@stages) {
            last if $status ne 'survived';
            last if $sg->{name} ne $stages[0]{name} && $x->{equiv};
            my $d = "build/mutant/$sg->{name}";
            spew("$w/$file", apply_edits($orig{$file}, $x->{edits}));
            my $rc = system("cd " . sh_quote($w) . " && mkdir -p $d && $cc $sg->{cflags} $inc -c $file"
                            . " -o $d/$obj >$d/cc.log 2>&1");
            spew("$w/$file", $orig{$file});
            if ($rc != 0) {
                $detail = "the $sg->{name} build refused it";
                next;
            }
            my @objs = map { my $o = $_; $o =~ m{/engine/\Q$obj\E$} ? "$d/$obj" : $o }
                       @{ $sg->{engine_objs} };
            system("cd " . sh_quote($w) . " && rm -f $d/libntsim.a && ar rcs $d/libntsim.a @objs"
                   . " && $cc $sg->{cflags} -o $d/check_ntsim @{ $sg->{link_objs} } $d/libntsim.a"
                   . " $sg->{libs} && $cc $sg->{cflags} -o $d/ntsim @{ $sg->{ntsim_objs} } $d/libntsim.a"
                   . " $sg->{libs} >$d/link.log 2>&1") == 0
                or die "mutants: $sg->{name} link failed for $x->{id} (see $w/$d/link.log)\n";
            my ($s2, $d2) = run_suite($w, "$d/check_ntsim", $sg->{timeout}, "$d/run.log", $sg->{env},
                                      '--ntsim', "$d/ntsim", @first);
            ($status, $detail) = ('killed', "$sg->{name}: $d2") if $s2 ne 'survived';
        }
        $detail =~ s/[\t\n]/ /g;
        spew("$out/results/$idx", "$status\t" . (time - $started) . "\t$detail\n");
        return 0;
    };

    # The unmutated suite must pass, and sets the timeout.
    my $timeout = env_or('MUTANT_TIMEOUT', 0);
    {
        my $w = "$out/work/job1";
        my @objs = @engine_objs;
        my $b0 = time;
        system("cd " . sh_quote($w) . " && ar rcs build/mutant/libntsim.a @objs"
               . " && $cc $cflags -o build/mutant/check_ntsim @link_objs build/mutant/libntsim.a $libs"
               . " && $cc $cflags -o build/mutant/ntsim @ntsim_objs build/mutant/libntsim.a $libs"
               . " >build/mutant/link.log 2>&1") == 0
            or die "mutants: cannot link the unmutated suite (see $w/build/mutant/link.log)\n";
        my ($st0, $d0) = $judge->($w, 3600);
        $st0 eq 'survived'
            or die "mutants: the $mode run fails on the unmutated engine ($d0; see $w/build/mutant/run.log)\n";
        my $base_s = time - $b0;
        # Every --first name must be a suite: an unknown one makes
        # check_ntsim exit 2, which would count as a kill.
        my %suite = map { chomp; ($_ => 1) }
                    `cd @{[sh_quote($w)]} && build/mutant/check_ntsim --list-suites 2>/dev/null`;
        for my $f (sort keys %FIRST_SUITES) {
            my @bad = grep { !$suite{$_} } split /,/, $FIRST_SUITES{$f};
            die "mutants: \%FIRST_SUITES{'$f'} names no suite '@bad' (check_ntsim --list-suites)\n" if @bad;
        }
        $timeout ||= $base_s * 6 > 30 ? $base_s * 6 : 30;
        my $note = '';
        for my $sg (@stages) {
            my $d = "build/mutant/$sg->{name}";
            my $a0 = time;
            system("cd " . sh_quote($w) . " && mkdir -p $d && ar rcs $d/libntsim.a @{ $sg->{engine_objs} }"
                   . " && $cc $sg->{cflags} -o $d/check_ntsim @{ $sg->{link_objs} } $d/libntsim.a"
                   . " $sg->{libs} && $cc $sg->{cflags} -o $d/ntsim @{ $sg->{ntsim_objs} } $d/libntsim.a"
                   . " $sg->{libs}") == 0
                or die "mutants: cannot link the $sg->{name} suite in $w\n";
            my ($st) = run_suite($w, "$d/check_ntsim", 900, "$d/run.log", $sg->{env}, '--ntsim', "$d/ntsim");
            $st eq 'survived'
                or die "mutants: the $sg->{name} suite fails on the unmutated engine (see $w/$d/run.log)\n";
            my $as = time - $a0;
            $sg->{timeout} = env_or('MUTANT_TIMEOUT', 0) || ($as * 6 > 60 ? $as * 6 : 60);
            $note .= sprintf(', %s suite %ds (timeout %ds)', $sg->{name}, $as, $sg->{timeout});
        }
        printf STDERR "mutants: %d of %d mutants selected, %d jobs, judged by the %s, unmutated run %ds, timeout %ds%s\n",
            scalar @sel, scalar @all, $jobs,
            $mode eq 'suite' ? 'whole suite' : $mode eq 'vectors' ? 'committed vectors alone'
                                                                  : "generator alone (@gen_args)",
            $base_s, $timeout, $note;
    }

    # Workers: one child per mutant, at most $jobs at a time, each on a free
    # job directory.
    my $tty = -t STDERR;
    my %running;  # pid -> [job, index]
    my @free = (1 .. $jobs);
    my %count;
    my $done = 0;
    my $next = 0;
    my $last_print = 0;
    my $progress = sub {
        my $force = shift;
        my $el = time - $t0;
        my $left = $done ? int($el * (@sel - $done) / $done) : 0;
        my $line = sprintf('mutants: %d/%d  killed %d  survived %d  timeout %d  no-compile %d'
                           . '  same-code %d  %s elapsed, ~%s left',
                           $done, scalar @sel, map({ $count{$_} // 0 } qw(killed survived timeout no-compile same-code)),
                           fmt_time($el), fmt_time($left));
        if ($tty) {
            print STDERR "\r$line\e[K";
            print STDERR "\n" if $force;
        } elsif ($force || time - $last_print >= 30) {
            print STDERR "$line\n";
            $last_print = time;
        }
    };
    while ($done < @sel) {
        while (@free && $next < @sel) {
            my $j = shift @free;
            my $idx = $next++;
            my $pid = fork;
            die "mutants: fork failed: $!\n" unless defined $pid;
            if ($pid == 0) {
                my $rc = eval { $build_and_run->($j, $sel[$idx], $idx, $timeout) };
                if (!defined $rc) { print STDERR $@; POSIX::_exit(2) }
                POSIX::_exit(0);
            }
            $running{$pid} = [$j, $idx];
        }
        my $pid = waitpid(-1, 0);
        last if $pid <= 0;
        my ($j, $idx) = @{ delete $running{$pid} };
        push @free, $j;
        die "mutants: the worker of $sel[$idx]{id} failed\n" if $?;
        my ($status) = split /\t/, slurp("$out/results/$idx");
        $count{$status}++;
        $done++;
        $progress->(0);
    }
    $progress->(1);

    # The report.
    my %tot;
    my @lines;
    my @surv;
    for my $idx (0 .. $#sel) {
        my $x = $sel[$idx];
        my ($status, $secs, $detail) = split /\t/, slurp("$out/results/$idx");
        chomp $detail;
        if ($x->{equiv}) {
            if ($status eq 'survived') {
                $status = 'equivalent';
            } elsif ($status eq 'killed' || $status eq 'timeout') {
                push @problems, "$x->{equiv}{at}: listed as equivalent, but $status ($detail): remove it";
            }
        }
        $tot{$status}++;
        my $ml = mutated_line($x, $orig{$x->{file}});
        my $l = "$x->{id} $status | $ml";
        my $by_stage = $status eq 'killed' && $detail =~ /^\w+san: /;
        $l .= "    [$detail]" if $detail ne '' && ($status ne 'killed' || $by_stage);
        $tot{sanitizer}++ if $by_stage;
        push @lines, $l;
        push @surv, [$x, $idx] if $status eq 'survived' || $status eq 'timeout';
    }
    my $elapsed = time - $t0;
    my $what = $sample && $sample < @all ? "a sample of $sel_count (MUTANT_SAMPLE=$sample MUTANT_SEED=$seed)"
             : $sel_count . ($sel_count == @all ? ' (all)' : ' (selected)');
    $what .= ", shard $shard_k/$shard_n: " . scalar(@sel) if $shard_n > 1;
    my $judged = $mode eq 'suite' ? 'the whole suite'
               : $mode eq 'vectors' ? 'the committed vectors alone (MUTANT_SUITE=vectors)'
               : "the generator alone (MUTANT_SUITE=generate: @gen_args)";
    my ($sum, $score) = score_lines($what, scalar @all, $elapsed, $judged, \%tot, $min_score,
                                    scalar @sel);
    my @sum = @$sum;
    open my $rep, '>', $report or die "mutants: cannot write $report\n";
    print $rep "# make mutants: conformance/proofs/mutants.pl (its header lists the operators and results)\n";
    print $rep "# FILE:LINE OP[#K] CHANGE RESULT | the mutated line\n";
    print $rep "# selection: $sel_count mutants of " . scalar(@all) . " (hash $sel_hash), shard "
             . "$shard_k/$shard_n, judged by $mode ($judged)\n";
    print $rep "$_\n" for @sum;
    print $rep "\n";
    print $rep "$_\n" for @lines;
    if (@surv) {
        print $rep "\n# Survivors and timeouts: the diff of each (patch -p1 < build/mutants/diffs/N.diff)\n";
    }
    for my $s (@surv) {
        my ($x, $idx) = @$s;
        my $name = sprintf('%04d', $idx);
        my $dir = "$out/work/diff";
        (my $sub = $x->{file}) =~ s{/[^/]*$}{}; # engine/capture/ring.c: engine/capture
        system('mkdir', '-p', "$dir/a/$sub", "$dir/b/$sub") == 0 or die "mutants: mkdir $dir failed\n";
        spew("$dir/a/$x->{file}", $orig{$x->{file}});
        spew("$dir/b/$x->{file}", apply_edits($orig{$x->{file}}, $x->{edits}));
        my $d = `cd '$dir' && diff -u --label a/$x->{file} --label b/$x->{file} a/$x->{file} b/$x->{file}`;
        spew("$out/diffs/$name.diff", $d);
        print $rep "\n## $x->{id} ($name.diff)\n$d";
    }
    print $rep "problem: $_\n" for @problems;
    close $rep;
    print STDERR "$_\n" for @sum;
    print STDERR "report: $report\n";
    print STDERR "$_\n" for @notes;
    if (@surv) {
        print STDERR "survivors and timeouts:\n";
        print STDERR "  $_->[0]{id}  ($out/diffs/" . sprintf('%04d', $_->[1]) . ".diff)\n" for @surv;
    }
    print STDERR "mutants: $_\n" for @problems;
    # A shard's score is a part: make mutants-merge judges the whole.
    my $low = $score < $min_score && $shard_n == 1;
    print STDERR "mutants: score below $min_score%\n" if $low;
    return @problems || $low ? 1 : 0;
}

exit main();
