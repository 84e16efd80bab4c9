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
# equivalents-file entries).
#
# Writes build/mutants/report.txt (one line per mutant: its id, its result and
# the mutated line; survivors' diffs at the end) and build/mutants/diffs/*.diff
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
    'capture.c'        => 'capture,ring,abuse,services,concurrency',
    'chrome_trace.c'   => 'perfetto,timeline',
    'clock_align.c'    => 'timeline,perfetto,sim',
    'config.c'         => 'capture,inspect_env',
    'data_view.c'      => 'timeline,perfetto',
    'event_table.c'    => 'event_table',
    'grace.c'          => 'capture,abuse,concurrency',
    'intern.c'         => 'services,json',
    'json.c'           => 'json',
    'log.c'            => 'services',
    'notify.c'         => 'convert',
    'ntff.c'           => 'convert',
    'pftrace.c'        => 'perfetto,timeline',
    'ring.c'           => 'ring,capture,concurrency',
    'timeline.c'       => 'timeline,perfetto',
    'timeline_html.c'  => 'timeline,perfetto',
    'timeline_lanes.c' => 'timeline,perfetto',
);

# --- the source mask: code only ----------------------------------------------------

# Returns ($mask, \%macro_line): the text with comments, string and character
# literal contents and preprocessor directives blanked (newlines kept, so
# offsets and lines agree), and the lines that belong to #define bodies.
sub mask_source {
    my ($t) = @_;
    my $m = $t;
    my $n = length $t;
    my $blank = sub {
        my ($from, $to) = @_;
        my $s = substr($m, $from, $to - $from);
        $s =~ s/[^\n]/ /g;
        substr($m, $from, $to - $from) = $s;
    };
    my $i = 0;
    while ($i < $n) {
        my $c = substr($t, $i, 1);
        my $d = substr($t, $i + 1, 1);
        if ($c eq '/' && $d eq '*') {
            my $e = index($t, '*/', $i + 2);
            $e = $n - 2 if $e < 0;
            $blank->($i, $e + 2);
            $i = $e + 2;
        } elsif ($c eq '/' && $d eq '/') {
            my $e = index($t, "\n", $i);
            $e = $n if $e < 0;
            $blank->($i, $e);
            $i = $e;
        } elsif ($c eq '"' || $c eq "'") {
            my $j = $i + 1;
            while ($j < $n) {
                my $x = substr($t, $j, 1);
                last if $x eq $c || $x eq "\n";
                $j += $x eq '\\' ? 2 : 1;
            }
            $blank->($i + 1, $j) if $j > $i + 1;
            $i = $j + 1;
        } else {
            $i++;
        }
    }
    # Preprocessor directives, continuation lines included.
    my %macro;
    my @lines = split /\n/, $m, -1;
    my @raw = split /\n/, $t, -1;
    my $off = 0;
    for (my $l = 0; $l < @lines; $l++) {
        if ($lines[$l] =~ /^\s*#\s*(\w+)/) {
            my $define = $1 eq 'define';
            my $first = $l;
            my $last = $l;
            $last++ while $last < $#raw && $raw[$last] =~ /\\\s*$/;
            my $o = $off;
            for my $k ($first .. $last) {
                my $len = length $lines[$k];
                if ($define) {
                    $macro{$k + 1} = 1;
                    if ($k == $first && $lines[$k] =~ /^(\s*#\s*define\s+\w+(?:\([^)]*\))?)/) {
                        $blank->($o, $o + length $1);
                    }
                    # the line-continuation backslash
                    if ($raw[$k] =~ /\\\s*$/) {
                        my $b = rindex($raw[$k], '\\');
                        $blank->($o + $b, $o + $b + 1);
                    }
                } else {
                    $blank->($o, $o + $len);
                }
                $o += $len + 1;
            }
            for my $k ($first .. $last) {
                $off += length($lines[$k]) + 1;
            }
            $l = $last;
            next;
        }
        $off += length($lines[$l]) + 1;
    }
    return ($m, \%macro);
}

# --- tokens -------------------------------------------------------------------------

my %KEYWORD = map { $_ => 1 } qw(
    sizeof return case goto else do if while for switch default break continue typedef
    static const struct enum union extern inline volatile register restrict _Alignof
    _Alignas _Atomic _Static_assert _Generic _Noreturn _Thread_local unsigned signed void
    char short int long float double _Bool bool);

# Tokens of the mask: [kind, text, offset], kind one of id num flt op str.
sub tokenize {
    my ($m) = @_;
    my @tok;
    pos($m) = 0;
    while (pos($m) < length $m) {
        if ($m =~ /\G\s+/gc) {
            next;
        } elsif ($m =~ /\G([A-Za-z_]\w*)/gc) {
            push @tok, ['id', $1, $-[1]];
        } elsif ($m =~ /\G(\d+\.\d*(?:[eE][-+]?\d+)?[fFlL]?|\.\d+(?:[eE][-+]?\d+)?[fFlL]?|\d+[eE][-+]?\d+[fFlL]?)/gc) {
            push @tok, ['flt', $1, $-[1]];
        } elsif ($m =~ /\G(0[xX][0-9A-Fa-f]+[uUlL]*|\d+[uUlL]*)/gc) {
            push @tok, ['num', $1, $-[1]];
        } elsif ($m =~ /\G(["'])/gc) {
            push @tok, ['str', $1, $-[1]];
        } elsif ($m =~ /\G(<<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*\/%&|^]=|\S)/gc) {
            push @tok, ['op', $1, $-[1]];
        } else {
            last;
        }
    }
    # A string or character literal is two 'str' tokens in the mask: keep one.
    my @out;
    my $open = 0;
    for my $t (@tok) {
        if ($t->[0] eq 'str') {
            $open = !$open;
            push @out, $t if $open;
            next;
        }
        push @out, $t;
    }
    return \@out;
}

# Does token $i end an operand (so that the operator after it is binary)?
sub ends_operand {
    my ($tok, $i) = @_;
    return 0 if $i < 0;
    my ($k, $x) = @{ $tok->[$i] };
    return 1 if $k eq 'num' || $k eq 'flt' || $k eq 'str';
    return !$KEYWORD{$x} if $k eq 'id';
    return $x eq ')' || $x eq ']';
}

# --- the mutants of one file --------------------------------------------------------

my %ROR = ('<' => '<=', '<=' => '<', '>' => '>=', '>=' => '>', '==' => '!=', '!=' => '==');
my %AOR_BIN = ('+' => '-', '-' => '+', '*' => '/', '/' => '*', '%' => '/');
my %AOR_ASSIGN = ('+=' => '-=', '-=' => '+=', '*=' => '/=', '/=' => '*=', '++' => '--', '--' => '++');
my %BOR_BIN = ('&' => '|', '|' => '&', '^' => '&', '<<' => '>>', '>>' => '<<');
my %BOR_ASSIGN = ('&=' => '|=', '|=' => '&=', '<<=' => '>>=', '>>=' => '<<=');
my %LCR = ('&&' => '||', '||' => '&&');

sub line_of {
    my ($starts, $off) = @_;
    my ($lo, $hi) = (0, $#$starts);
    while ($lo < $hi) {
        my $mid = int(($lo + $hi + 1) / 2);
        if ($starts->[$mid] <= $off) { $lo = $mid } else { $hi = $mid - 1 }
    }
    return $lo + 1;
}

sub trim { my $s = shift; $s =~ s/^\s+|\s+$//g; $s =~ s/\s+/ /g; return $s }

sub c_literal_value {
    my ($lit) = @_;
    (my $digits = $lit) =~ s/[uUlL]+$//;
    my $suffix = substr($lit, length $digits);
    if ($digits =~ /^0[xX]/) {
        return (hex($digits), $digits, $suffix, 16);
    }
    return (undef) if $digits =~ /^0\d/; # octal: left alone
    return ($digits + 0, $digits, $suffix, 10);
}

sub c_literal_text {
    my ($v, $digits, $suffix, $base) = @_;
    if ($base == 16) {
        my $upper = $digits =~ /[A-F]/;
        my $x = sprintf($upper ? '%X' : '%x', $v);
        return substr($digits, 0, 2) . $x . $suffix;
    }
    return sprintf('%u', $v) . $suffix;
}

# An expression statement's mask text: a call, an assignment or ++/--, and not
# a declaration, a jump or a control statement.
sub is_expression_statement {
    my ($s) = @_;
    $s = trim($s);
    return 0 unless $s =~ /;$/;
    return 0 if $s =~ /[{}]/;
    my ($first) = $s =~ /^([A-Za-z_]\w*)/;
    return 0 if defined $first && $KEYWORD{$first};
    return 0 if $s =~ /^(?:[A-Za-z_]\w*\s+)+\**\s*[A-Za-z_]\w*\s*(?:=|;|\[|,)/;  # T x = ...
    return 0 if $s =~ /^[A-Za-z_]\w*\s*\*+\s*[A-Za-z_]\w*\s*(?:=|;|\[|,)/;       # T *x = ...
    return 0 if $s =~ /^[A-Za-z_]\w*\s*:/;                                       # a label
    return 1 if $s =~ /(?<![=!<>])=(?!=)|\+\+|--/;
    return 1 if $s =~ /[A-Za-z_]\w*\s*\(/;
    return 0;
}

# The mutants of one file: a list of hashes
#   {file, line, op, change, code, edits => [[offset, length, text], ...]}
# in the order of the file; ids are completed by number_mutants.
sub file_mutants {
    my ($file, $text) = @_;
    my ($m, $macro) = mask_source($text);
    my @starts = (0);
    while ($text =~ /\n/g) { push @starts, pos($text) }
    my @src_lines = split /\n/, $text, -1;
    my $tok = tokenize($m);
    my @mut;
    my $add = sub {
        my ($off, $op, $change, $edits, $line) = @_;
        $line //= line_of(\@starts, $off);
        push @mut, { file => $file, line => $line, op => $op, change => $change,
                     code => trim($src_lines[$line - 1]), edits => $edits, at => $off };
    };
    for (my $i = 0; $i < @$tok; $i++) {
        my ($k, $x, $off) = @{ $tok->[$i] };
        my $next = $i + 1 < @$tok ? $tok->[$i + 1][1] : '';
        my $binary = ends_operand($tok, $i - 1);
        my $spaced = substr($m, $off - 1, 1) =~ /\s/
                     && substr($m, $off + length $x, 1) =~ /\s/;
        if ($k eq 'op') {
            if (exists $ROR{$x}) {
                $add->($off, 'ROR', "'$x' -> '$ROR{$x}'", [[$off, length $x, $ROR{$x}]]);
            } elsif (exists $LCR{$x}) {
                $add->($off, 'LCR', "'$x' -> '$LCR{$x}'", [[$off, length $x, $LCR{$x}]]);
            } elsif (exists $AOR_ASSIGN{$x}) {
                $add->($off, 'AOR', "'$x' -> '$AOR_ASSIGN{$x}'", [[$off, length $x, $AOR_ASSIGN{$x}]]);
            } elsif (exists $BOR_ASSIGN{$x}) {
                $add->($off, 'BOR', "'$x' -> '$BOR_ASSIGN{$x}'", [[$off, length $x, $BOR_ASSIGN{$x}]]);
            } elsif (exists $AOR_BIN{$x} && $binary
                     && ($x eq '/' || $x eq '%' || $x eq '-' || $x eq '+' || $spaced)
                     && $next ne ')' && $next ne '*' && $next ne ',') {
                $add->($off, 'AOR', "'$x' -> '$AOR_BIN{$x}'", [[$off, length $x, $AOR_BIN{$x}]]);
            } elsif (exists $BOR_BIN{$x} && $binary && ($x ne '&' || $spaced)
                     && $next ne ')' && $next ne ',') {
                $add->($off, 'BOR', "'$x' -> '$BOR_BIN{$x}'", [[$off, length $x, $BOR_BIN{$x}]]);
            }
        } elsif ($k eq 'num') {
            my ($v, $digits, $suffix, $base) = c_literal_value($x);
            next unless defined $v;
            if ($v < 18446744073709551615) {
                my $up = c_literal_text($v + 1, $digits, $suffix, $base);
                $add->($off, 'CRP', "'$x' -> '$up'", [[$off, length $x, $up]]);
            }
            if ($v > 0) {
                my $down = c_literal_text($v - 1, $digits, $suffix, $base);
                $add->($off, 'CRP', "'$x' -> '$down'", [[$off, length $x, $down]]);
            }
        } elsif ($k eq 'id' && ($x eq 'if' || $x eq 'while') && $next eq '(') {
            # the matching parenthesis
            my $depth = 0;
            my $j = $i + 1;
            for (; $j < @$tok; $j++) {
                my $y = $tok->[$j][1];
                next if $tok->[$j][0] ne 'op';
                $depth++ if $y eq '(';
                $depth-- if $y eq ')';
                last if $depth == 0;
            }
            next if $j >= @$tok;
            my $open = $tok->[$i + 1][2];
            my $close = $tok->[$j][2];
            $add->($off, 'NEG', "'$x' negated", [[$close, 0, ')'], [$open + 1, 0, '!(']]);
        }
    }
    push @mut, statement_mutants($file, $text, $m, $macro, $tok, \@starts, \@src_lines);
    return @mut;
}

# SDL and SWP: expression statements that start a line and end one.
sub statement_mutants {
    my ($file, $text, $m, $macro, $tok, $starts, $src_lines) = @_;
    my @stmts;  # [first_tok, last_tok, first_line, last_line, prev_tok_text]
    my $paren = 0;
    my $start = 0;
    for (my $i = 0; $i < @$tok; $i++) {
        my ($k, $x) = @{ $tok->[$i] };
        if ($k eq 'op') {
            $paren++ if $x eq '(' || $x eq '[';
            $paren-- if $x eq ')' || $x eq ']';
        }
        next unless $paren == 0 && $k eq 'op' && ($x eq ';' || $x eq '{' || $x eq '}');
        if ($x eq ';' && $start <= $i) {
            push @stmts, [$start, $i];
        }
        $start = $i + 1;
    }
    my @out;
    my @cand;
    for my $s (@stmts) {
        my ($sa, $sb) = @$s;
        # The statement proper: the first token that begins a line, after
        # nothing or a control header, 'else', 'do' or a label, from which on
        # the text is an expression statement.
        my ($first, $line_a);
        for (my $j = $sa; $j <= $sb; $j++) {
            my $off = $tok->[$j][2];
            my $l = line_of($starts, $off);
            my $line_start = $starts->[$l - 1];
            next unless substr($m, $line_start, $off - $line_start) =~ /^\s*$/;
            my $before = trim(substr($m, $tok->[$sa][2], $off - $tok->[$sa][2]));
            next unless $before eq '' || $before =~ /^(?:else|do)$/
                || $before =~ /^(?:else\s+)?(?:if|while|for|switch)\s*\(.*\)$/
                || $before =~ /^(?:case\b.*|default|[A-Za-z_]\w*)\s*:$/;
            my $to = $tok->[$sb][2] + 1;
            next unless is_expression_statement(substr($m, $off, $to - $off));
            ($first, $line_a) = ($j, $l);
            last;
        }
        next unless defined $line_a;
        my $from = $tok->[$first][2];
        my $to = $tok->[$sb][2] + 1;
        my $line_b = line_of($starts, $to - 1);
        next if $macro->{$line_a} || $macro->{$line_b};
        # ends its last line (only blanks after the ';' in the mask)
        my $eol = $line_b < @$starts ? $starts->[$line_b] - 1 : length $m;
        next unless substr($m, $to, $eol - $to) =~ /^\s*$/;
        my $stext = substr($m, $from, $to - $from);
        next unless is_expression_statement($stext);
        my $prev = $first > 0 ? $tok->[$first - 1][1] : '';
        my $nl = () = $stext =~ /\n/g;
        push @out, { file => $file, line => $line_a, op => 'SDL', change => 'deleted',
                     code => trim($src_lines->[$line_a - 1]), at => $from,
                     edits => [[$from, $to - $from, '{ }' . ("\n" x $nl)]] };
        push @cand, [$from, $to, $line_a, $line_b, $prev];
    }
    # SWP: adjacent one-line statements, the first not the body of a control
    # header (its previous token ends a statement or a block, or a label).
    for (my $c = 0; $c + 1 < @cand; $c++) {
        my ($f1, $t1, $la1, $lb1, $p1) = @{ $cand[$c] };
        my ($f2, $t2, $la2, $lb2, $p2) = @{ $cand[$c + 1] };
        next unless $la1 == $lb1 && $la2 == $lb2 && $la2 == $la1 + 1;
        next unless $p1 eq ';' || $p1 eq '{' || $p1 eq '}' || $p1 eq ':';
        next unless $p2 eq ';';
        my $s1 = substr($text, $f1, $t1 - $f1);
        my $s2 = substr($text, $f2, $t2 - $f2);
        next if $s1 eq $s2;
        next if independent_writes(substr($m, $f1, $t1 - $f1), substr($m, $f2, $t2 - $f2));
        push @out, { file => $file, line => $la1, op => 'SWP',
                     change => "<-> '" . trim($s2) . "'",
                     code => trim($src_lines->[$la1 - 1]), at => $f1,
                     edits => [[$f2, $t2 - $f2, $s1], [$f1, $t1 - $f1, $s2]] };
    }
    return @out;
}

# Two side-effect-free assignments that neither read nor write what the other
# writes: swapping them cannot change anything, so SWP does not generate it.
# Each must be `LVALUE = EXPR;` (or a compound assignment) with no call and no
# ++/--, each LVALUE a variable or a member path (no '*', no '[': those may
# alias), and the last name of each LVALUE must not occur in the other
# statement (different members of one struct never overlap; this assumes no
# two members of one union are written back to back, which engine/ never does).
sub independent_writes {
    my ($m1, $m2) = @_;
    my @lv;
    for my $s ($m1, $m2) {
        my $t = trim($s);
        return 0 if $t =~ /[A-Za-z_]\w*\s*\(|\+\+|--/;
        return 0 unless $t =~ /^([A-Za-z_][\w\s.>-]*?)\s*(?:[-+*\/%&|^]|<<|>>)?=(?!=)/;
        my $lv = $1;
        return 0 if $lv =~ /[*\[]/ || $lv =~ /-(?!>)/;
        my ($last) = $lv =~ /(\w+)\s*$/;
        push @lv, $last;
    }
    my %ids1 = map { $_ => 1 } $m1 =~ /([A-Za-z_]\w*)/g;
    my %ids2 = map { $_ => 1 } $m2 =~ /([A-Za-z_]\w*)/g;
    return !$ids2{$lv[0]} && !$ids1{$lv[1]};
}

# Occurrence numbers and ids.
sub number_mutants {
    my (@mut) = @_;
    @mut = sort { $a->{file} cmp $b->{file} || $a->{line} <=> $b->{line}
                  || $a->{at} <=> $b->{at} || $a->{op} cmp $b->{op}
                  || $a->{change} cmp $b->{change} } @mut;
    my %seen;
    for my $x (@mut) {
        my $key = "$x->{file}:$x->{line} $x->{op} $x->{change}";
        $x->{k} = ++$seen{$key};
        $x->{id} = "$x->{file}:$x->{line} $x->{op}" . ($x->{k} > 1 ? "#$x->{k}" : '')
                   . " $x->{change}";
        $x->{key} = join("\0", $x->{file}, $x->{op}, $x->{k}, $x->{change}, $x->{code});
    }
    return @mut;
}

sub apply_edits {
    my ($text, $edits) = @_;
    for my $e (sort { $b->[0] <=> $a->[0] } @$edits) {
        substr($text, $e->[0], $e->[1]) = $e->[2];
    }
    return $text;
}

# The mutated line(s) of a mutant, for the report.
sub mutated_line {
    my ($x, $orig) = @_;
    my $mt = apply_edits($orig, $x->{edits});
    my @l = split /\n/, $mt, -1;
    return trim($l[$x->{line} - 1] // '');
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

sub fmt_time {
    my $s = shift;
    return sprintf('%dh%02dm%02ds', $s / 3600, ($s / 60) % 60, $s % 60) if $s >= 3600;
    return sprintf('%dm%02ds', $s / 60, $s % 60) if $s >= 60;
    return sprintf('%ds', $s);
}

# FNV-1a, 32 bits: exact in perl's integers (a product stays below 2^56).
sub fnv1a32 {
    my ($s) = @_;
    my $h = 2166136261;
    for my $c (unpack 'C*', $s) {
        $h = (($h ^ $c) * 16777619) % 4294967296;
    }
    return $h;
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
    read_conf($ARGV[0]) if @ARGV;
    my $build = env_or('MUTANT_BUILD', 'build');
    my $out = "$build/mutants";
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
    # The sanitizer stages: the suite's objects built as make asan and make
    # tsan build them (MUTANT_SANITIZERS="asan tsan"; per stage MUTANT_<S>_BUILD,
    # _CFLAGS, _LIBS, _ENV from the Makefile).
    my @stages;
    for my $name (split ' ', env_or('MUTANT_SANITIZERS', '')) {
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
            ($status, $detail) = run_suite($w, 'build/mutant/check_ntsim', $timeout,
                                           'build/mutant/run.log', {}, '--ntsim', 'build/mutant/ntsim',
                                           @first);
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
               . " && CK_FORK=no CK_VERBOSITY=silent build/mutant/check_ntsim --ntsim build/mutant/ntsim"
               . " >build/mutant/run.log 2>&1") == 0
            or die "mutants: the suite fails on the unmutated engine (see $w/build/mutant/run.log)\n";
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
        printf STDERR "mutants: %d of %d mutants selected, %d jobs, unmutated suite %ds, timeout %ds%s\n",
            scalar @sel, scalar @all, $jobs, $base_s, $timeout, $note;
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
    my $compiled = @sel - ($tot{'no-compile'} // 0);
    my $equiv = ($tot{equivalent} // 0) + ($tot{'same-code'} // 0);
    my $detected = ($tot{killed} // 0) + ($tot{timeout} // 0);
    my $denom = $compiled - $equiv;
    my $score = $denom > 0 ? 100 * $detected / $denom : 100;
    my $elapsed = time - $t0;
    my $what = $sample && $sample < @all ? "a sample of " . scalar(@sel) . " (MUTANT_SAMPLE=$sample MUTANT_SEED=$seed)"
             : scalar(@sel) . (@sel == @all ? ' (all)' : ' (selected)');
    my @sum = (
        sprintf('mutants: %s of %d generated from engine/*.c, %s', $what, scalar @all, fmt_time($elapsed)),
        sprintf('  compiled %d, killed %d (%d of them by the sanitizer stages), timeout %d, survived %d,'
                . ' equivalent %d (%d listed, %d same-code), no-compile %d',
                $compiled, $tot{killed} // 0, $tot{sanitizer} // 0, $tot{timeout} // 0, $tot{survived} // 0, $equiv,
                $tot{equivalent} // 0, $tot{'same-code'} // 0, $tot{'no-compile'} // 0),
        sprintf('  score %.1f%% = (killed + timeout) %d / (compiled - equivalent) %d; minimum %s%%',
                $score, $detected, $denom, $min_score),
    );
    open my $rep, '>', "$out/report.txt" or die "mutants: cannot write $out/report.txt\n";
    print $rep "# make mutants: conformance/proofs/mutants.pl (its header lists the operators and results)\n";
    print $rep "# FILE:LINE OP[#K] CHANGE RESULT | the mutated line\n";
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
        system('mkdir', '-p', "$dir/a/engine", "$dir/b/engine");
        spew("$dir/a/$x->{file}", $orig{$x->{file}});
        spew("$dir/b/$x->{file}", apply_edits($orig{$x->{file}}, $x->{edits}));
        my $d = `cd '$dir' && diff -u --label a/$x->{file} --label b/$x->{file} a/$x->{file} b/$x->{file}`;
        spew("$out/diffs/$name.diff", $d);
        print $rep "\n## $x->{id} ($name.diff)\n$d";
    }
    print $rep "\n$_\n" for @problems;
    close $rep;
    print STDERR "$_\n" for @sum;
    print STDERR "report: $out/report.txt\n";
    print STDERR "$_\n" for @notes;
    if (@surv) {
        print STDERR "survivors and timeouts:\n";
        print STDERR "  $_->[0]{id}  ($out/diffs/" . sprintf('%04d', $_->[1]) . ".diff)\n" for @surv;
    }
    print STDERR "mutants: $_\n" for @problems;
    my $fail = @problems || $score < $min_score;
    print STDERR "mutants: score below $min_score%\n" if $score < $min_score;
    return $fail ? 1 : 0;
}

exit main();
