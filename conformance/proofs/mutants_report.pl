#!/usr/bin/perl
# conformance/proofs/mutants_report.pl: make mutants' report, written by
# mutants.pl and merged from shards by `mutants.pl --merge` (make
# mutants-merge); `require`d by mutants.pl. perl-base only.
#
# A report (build/mutants/report.txt, or report.shard-K-of-N.txt for a
# MUTANT_SHARD=K/N run):
#
#   # make mutants: ...                               (comments)
#   # selection: SEL mutants of ALL (hash H), shard K/N, judged by MODE
#   mutants: ...                                      the summary (score_lines)
#     compiled ...
#     score ...
#
#   FILE:LINE OP[#K] CHANGE RESULT | the mutated line    [detail]
#   ...
#   # Survivors and timeouts: ...
#   ## FILE:LINE OP CHANGE (NNNN.diff)                 each survivor's diff
#   problem: ...                                      what fails the run besides the score
#
# The selection line is what makes shards mergeable: every shard of one run
# has the same selection (its size and the hash of its ids, whatever N is)
# and a shard index; the merge takes each K of 0..N-1 once, and the shards'
# mutants must be the selection, each once.
use strict;
use warnings;

# FNV-1a, 32 bits: exact in perl's integers (a product stays below 2^56).
sub fnv1a32 {
    my ($s) = @_;
    my $h = 2166136261;
    for my $c (unpack 'C*', $s) {
        $h = (($h ^ $c) * 16777619) % 4294967296;
    }
    return $h;
}

sub fmt_time {
    my $s = shift;
    return sprintf('%dh%02dm%02ds', $s / 3600, ($s / 60) % 60, $s % 60) if $s >= 3600;
    return sprintf('%dm%02ds', $s / 60, $s % 60) if $s >= 60;
    return sprintf('%ds', $s);
}

# The selection's fingerprint: its ids in order, hashed.
sub selection_hash {
    return sprintf('%08x', fnv1a32(join("\n", @_)));
}

# The results a report line can hold.
my $RESULT = qr/killed|survived|equivalent|timeout|no-compile|same-code/;

# (\@summary lines, $score) from the results' totals (%$tot: killed,
# survived, ..., sanitizer: killed by a sanitizer stage).
sub score_lines {
    my ($what, $all, $elapsed, $judged, $tot, $min_score, $count) = @_;
    my $compiled = $count - ($tot->{'no-compile'} // 0);
    my $equiv = ($tot->{equivalent} // 0) + ($tot->{'same-code'} // 0);
    my $detected = ($tot->{killed} // 0) + ($tot->{timeout} // 0);
    my $denom = $compiled - $equiv;
    my $score = $denom > 0 ? 100 * $detected / $denom : 100;
    my @sum = (
        sprintf('mutants: %s of %d generated from engine/*.c, %s; judged by %s', $what, $all,
                fmt_time($elapsed), $judged),
        sprintf('  compiled %d, killed %d (%d of them by the sanitizer stages), timeout %d, survived %d,'
                . ' equivalent %d (%d listed, %d same-code), no-compile %d',
                $compiled, $tot->{killed} // 0, $tot->{sanitizer} // 0, $tot->{timeout} // 0,
                $tot->{survived} // 0, $equiv, $tot->{equivalent} // 0, $tot->{'same-code'} // 0,
                $tot->{'no-compile'} // 0),
        sprintf('  score %.1f%% = (killed + timeout) %d / (compiled - equivalent) %d; minimum %s%%',
                $score, $detected, $denom, $min_score),
    );
    return (\@sum, $score);
}

# One report read back: { selection => {sel, all, hash, k, n, mode, judged},
# seconds, lines => [[id, result, text]], diffs => text, problems => [..] }.
sub read_report {
    my ($path) = @_;
    open my $fh, '<', $path or die "mutants: cannot read $path: $!\n";
    my %r = (lines => [], diffs => '', problems => [], path => $path);
    my $in_diffs = 0;
    while (my $l = <$fh>) {
        chomp $l;
        if ($l =~ /^# selection: (\d+) mutants of (\d+) \(hash (\w+)\), shard (\d+)\/(\d+), judged by (\S+) \((.*)\)$/) {
            $r{selection} = { sel => $1, all => $2, hash => $3, k => $4, n => $5, mode => $6,
                              judged => $7 };
        } elsif ($l =~ /^mutants: .*, (?:(\d+)h)?(?:(\d+)m)?(\d+)s; judged by/) {
            $r{seconds} = ($1 // 0) * 3600 + ($2 // 0) * 60 + $3;
        } elsif ($l =~ /^problem: (.*)$/) {
            push @{ $r{problems} }, $1;
        } elsif ($l =~ /^# Survivors and timeouts/) {
            $in_diffs = 1;
        } elsif ($in_diffs) {
            $r{diffs} .= "$l\n";
        } elsif ($l =~ /^(\S+:\d+ [A-Z]{3}(?:#\d+)? .*?) ($RESULT) \| /) {
            push @{ $r{lines} }, [$1, $2, $l];
        }
    }
    die "mutants: $path: no '# selection:' line (a report of make mutants, this version)\n"
        unless $r{selection};
    return \%r;
}

# make mutants-merge: the shard reports of one run as one report (written
# to $out) and one score; 0, or 1 when the shards do not add up to the
# selection, when a shard had problems, or below the minimum score.
sub merge_reports {
    my ($out, $min_score, @paths) = @_;
    die "mutants: --merge needs the shards' reports (MUTANT_REPORTS)\n" unless @paths;
    my @r = map { read_report($_) } @paths;
    my $s0 = $r[0]{selection};
    my (@problems, %k, %seen, %tot);
    my $elapsed = 0;
    for my $r (@r) {
        my $s = $r->{selection};
        for my $f (qw(sel all hash n mode)) {
            push @problems, "$r->{path}: $f $s->{$f}, but $r[0]{path} has $s0->{$f}: not shards of one run"
                if $s->{$f} ne $s0->{$f};
        }
        push @problems, "$r->{path}: shard $s->{k}/$s->{n} again (also $k{$s->{k}})" if $k{$s->{k}};
        $k{$s->{k}} //= $r->{path};
        $elapsed = $r->{seconds} if ($r->{seconds} // 0) > $elapsed;
        for my $x (@{ $r->{lines} }) {
            my ($id, $result, $text) = @$x;
            push @problems, "$r->{path}: $id is also in $seen{$id}" if $seen{$id};
            $seen{$id} //= $r->{path};
            $tot{$result}++;
            $tot{sanitizer}++ if $result eq 'killed' && $text =~ /\[\w+san: /;
        }
    }
    my @missing = grep { !$k{$_} } 0 .. $s0->{n} - 1;
    push @problems, "shard(s) " . join(', ', map { "$_/$s0->{n}" } @missing) . " missing" if @missing;
    my $count = keys %seen;
    push @problems, "the shards hold $count mutants, the selection $s0->{sel}" if $count != $s0->{sel};
    my %p;
    push @problems, grep { !$p{$_}++ } map { @{ $_->{problems} } } @r;
    my $what = "$s0->{sel} (merged from $s0->{n} shards, the longest " . fmt_time($elapsed) . ')';
    my ($sum, $score) = score_lines($what, $s0->{all}, $elapsed, $s0->{judged}, \%tot, $min_score,
                                    $count);
    open my $rep, '>', "$out.tmp" or die "mutants: cannot write $out.tmp: $!\n";
    print $rep "# make mutants-merge: conformance/proofs/mutants_report.pl, of: @paths\n";
    print $rep "# FILE:LINE OP[#K] CHANGE RESULT | the mutated line\n";
    print $rep "# selection: $s0->{sel} mutants of $s0->{all} (hash $s0->{hash}), shard 0/1, "
             . "judged by $s0->{mode} ($s0->{judged})\n";
    print $rep "$_\n" for @$sum;
    print $rep "\n";
    print $rep "$_->[2]\n" for sort { $a->[0] cmp $b->[0] } map { @{ $_->{lines} } } @r;
    my $diffs = join '', map { $_->{diffs} } @r;
    print $rep "\n# Survivors and timeouts: the diff of each (in the shards' build/mutants/diffs/)\n$diffs"
        if $diffs ne '';
    print $rep "problem: $_\n" for @problems;
    close $rep or die "mutants: cannot write $out.tmp: $!\n";
    rename "$out.tmp", $out or die "mutants: cannot rename onto $out: $!\n";
    print STDERR "$_\n" for @$sum;
    print STDERR "report: $out\n";
    print STDERR "mutants: $_\n" for @problems;
    print STDERR "mutants: score below $min_score%\n" if $score < $min_score;
    return @problems || $score < $min_score ? 1 : 0;
}

1;
