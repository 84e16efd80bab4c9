#!/usr/bin/perl
# conformance/cli/man_pages.pl: the man pages, made from the programs' own
# --help, and checked (D-MAN-PAGES).
#
#   man_pages.pl page TEMPLATE PROGRAM VERSION OUT
#       OUT from docs/man/NAME.1.in: @HELP@ becomes `PROGRAM --help`,
#       @COMMANDS@ a section per command `PROGRAM --help` lists (each its
#       `PROGRAM COMMAND --help`), @FILES@ the data map (sim/locate.h's
#       NTSIM_DATA_MAP: what `make install` puts in share/ntsim),
#       @VERSION@ VERSION. Written beside OUT and renamed into place.
#   man_pages.pl check MANDIR NTSIM CHECK_NTSIM        (make check)
#       each page renders with groff -ww without a warning; its text holds
#       every option of every --help it was made from, a section for every
#       ntsim command, and every piece of the data map with its installed
#       path; no @PLACEHOLDER@ is left.
#
# The help is the one text: a page cannot say what the program does not,
# and an option added to --help is in the page at the next build. Run from
# the top of the tree. perl-base only.
use strict;
use warnings;

my $MAP = 'sim/locate.h';

sub slurp {
    my ($p) = @_;
    open my $fh, '<', $p or die "man_pages: cannot read $p: $!\n";
    local $/;
    return scalar <$fh>;
}

# [ID, tree path, installed path, what] per row of NTSIM_DATA_MAP.
sub data_map {
    my $t = slurp($MAP);
    $t =~ s/\\\n/ /g;
    my @rows;
    while ($t =~ /XX\((\w+),\s*"([^"]+)",\s*"([^"]+)",\s*"([^"]+)"\)/g) {
        push @rows, [$1, $2, $3, $4];
    }
    die "man_pages: $MAP: no NTSIM_DATA_MAP row\n" unless @rows;
    return @rows;
}

# What PROGRAM ARGS prints on stdout (exit 0 required), the program's path
# replaced by its name (usage lines print argv[0]).
sub run_help {
    my ($prog, @args) = @_;
    open my $fh, '-|', $prog, @args or die "man_pages: cannot run $prog: $!\n";
    local $/;
    my $out = <$fh> // '';
    close $fh or die "man_pages: '$prog @args' failed (status $?)\n";
    (my $name = $prog) =~ s{.*/}{};
    $out =~ s/\Q$prog\E/$name/g;
    return $out;
}

# Text as roff that shows it as it is, line for line.
sub roff_text {
    my ($s) = @_;
    my @out;
    for my $l (split /\n/, $s, -1) {
        $l =~ s/\\/\\e/g;
        $l =~ s/-/\\-/g;
        $l = "\\&$l" if $l =~ /^[.']/;
        push @out, $l;
    }
    pop @out while @out && $out[-1] eq '';
    return ".nf\n" . join("\n", @out) . "\n.fi\n";
}

# The commands `ntsim --help` lists under "commands:" (help aside).
sub commands {
    my ($help) = @_;
    my ($block) = $help =~ /^commands:\n(.*?)(?:\n\n|\z)/ms or return ();
    my %seen;
    return grep { $_ ne 'help' && !$seen{$_}++ } $block =~ /^  ([a-z]+)\b/mg;
}

sub page {
    my ($template, $prog, $version, $out) = @_;
    my $t = slurp($template);
    my $help = run_help($prog, '--help');
    $t =~ s/^\@HELP\@\n/roff_text($help)/me;
    if ($t =~ /^\@COMMANDS\@$/m) {
        my $cmds = '';
        for my $c (commands($help)) {
            $cmds .= ".SS $c\n" . roff_text(run_help($prog, $c, '--help'));
        }
        $t =~ s/^\@COMMANDS\@\n/$cmds/m;
    }
    my $files = ".PP\nIn these paths PREFIX is the directory above the program's own bin/ "
        . "(an installed program reads PREFIX/share/ntsim, where make install puts it); a "
        . "program in a build tree reads the source tree above it, at the path in parentheses.\n";
    for my $r (data_map()) {
        $files .= ".TP\n.I PREFIX/share/ntsim/$r->[2]\n$r->[3] ($r->[1])\n";
    }
    $files =~ s/-/\\-/g;
    $t =~ s/^\@FILES\@\n/$files/m;
    $t =~ s/\@VERSION\@/$version/g;
    open my $fh, '>', "$out.tmp" or die "man_pages: cannot write $out.tmp: $!\n";
    print $fh $t;
    close $fh or die "man_pages: cannot write $out.tmp: $!\n";
    rename "$out.tmp", $out or die "man_pages: cannot rename onto $out: $!\n";
    return 0;
}

# The page as text (groff, no warning allowed) and the warnings.
sub render {
    my ($page) = @_;
    my $warn = `groff -man -Tutf8 -ww -z '$page' 2>&1`;
    my $text = `groff -man -Tutf8 -P-cbou '$page' 2>/dev/null`;
    $text =~ s/\x{2010}|\xe2\x80\x90/-/g; # a hyphen groff may typeset: an option is searched as typed
    return ($text, $warn);
}

sub check {
    my ($dir, $ntsim, $check) = @_;
    my @fail;
    my %help = ("$dir/ntsim.1" => [run_help($ntsim, '--help')],
                "$dir/check_ntsim.1" => [run_help($check, '--help')]);
    my @cmds = commands($help{"$dir/ntsim.1"}[0]);
    push @{ $help{"$dir/ntsim.1"} }, map { run_help($ntsim, $_, '--help') } @cmds;
    push @fail, "ntsim --help lists no command" unless @cmds;
    my @map = data_map();
    for my $page (sort keys %help) {
        -f $page or do { push @fail, "$page: missing (make builds it)"; next };
        my ($text, $warn) = render($page);
        push @fail, "$page: groff warns: $_" for grep { /\S/ } split /\n/, $warn;
        push @fail, "$page: a placeholder is left: $1" if slurp($page) =~ /^(?!\.\\").*(\@[A-Z]+\@)/m;
        my %opts;
        $opts{$_} = 1 for map { /(--[a-z][a-z-]*)/g } @{ $help{$page} };
        for my $o (sort keys %opts) {
            push @fail, "$page: does not show $o, which --help does" unless index($text, $o) >= 0;
        }
        for my $r (@map) {
            push @fail, "$page: FILES lacks share/ntsim/$r->[2]"
                unless index($text, "share/ntsim/$r->[2]") >= 0;
        }
        if ($page =~ /\/ntsim\.1$/) {
            for my $c (@cmds) {
                push @fail, "$page: no section for the command $c" unless $text =~ /^   $c$/m;
            }
        }
    }
    print STDERR "man_pages: $_\n" for @fail;
    return 1 if @fail;
    printf "man_pages: ntsim.1 (%d commands) and check_ntsim.1 hold every option of their --help "
         . "and the %d pieces of data ntsim ships; groff renders them without a warning: ok\n",
         scalar @cmds, scalar @map;
    return 0;
}

my $mode = shift @ARGV // '';
exit page(@ARGV) if $mode eq 'page' && @ARGV == 4;
exit check(@ARGV) if $mode eq 'check' && @ARGV == 3;
die "usage: man_pages.pl page TEMPLATE PROGRAM VERSION OUT | check MANDIR NTSIM CHECK_NTSIM\n";
