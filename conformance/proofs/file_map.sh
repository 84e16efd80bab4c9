#!/bin/sh
# conformance/proofs/file_map.sh: the file map of docs/architecture.md (the
# block between its "file map: begin" and "file map: end" comments) is the
# tree, run by `make check`:
#   1. every path it names exists: a file, a `NAME.[ch]` pair (both), a
#      pattern with `*` (at least one match) or a folder (`DIR/`);
#   2. every file under include/, engine/, sim/ and conformance/ is named:
#      by its path, its pair, a pattern, or a folder the map names;
#   3. the docs (README.md, docs/*.md, vectors/README.md, the READMEs under
#      sim/ and conformance/) name no path under those folders, or vectors/
#      and docs/, that does not exist.
# Run from the top of the tree. Exit 0 when all three hold.
exec perl - "$@" <<'PERL'
use strict;
use warnings;

my $map_doc = 'docs/architecture.md';
my @fail;
open my $fh, '<', $map_doc or die "file_map: cannot read $map_doc: $!\n";
my ($in, $n, @entries) = (0, 0);
while (my $l = <$fh>) {
    $n++;
    if ($l =~ /<!-- file map: begin -->/) { $in = 1; next }
    if ($l =~ /<!-- file map: end -->/) { $in = 0; next }
    next unless $in;
    next if $l =~ /^```/ || $l =~ /^\s*$/;
    my ($path) = $l =~ /^(\S+)/;
    push @entries, { path => $path, line => $n };
}
close $fh;
push @fail, "$map_doc: no file map (the begin and end comments)" unless @entries;

# What each entry names, as files; and the folders it covers.
my (%named, @globs, @dirs);
for my $e (@entries) {
    my ($p, $at) = ($e->{path}, "$map_doc:$e->{line}");
    if ($p =~ m{/$}) {
        -d $p ? push(@dirs, $p) : push(@fail, "$at: $p: no such folder");
    } elsif ($p =~ /\*/) {
        my @m = grep { -f } glob($p);
        @m ? push(@globs, $p) : push(@fail, "$at: $p: matches no file");
        $named{$_} = 1 for @m;
    } elsif ($p =~ /^(.*)\.\[ch\]$/) {
        for my $f ("$1.c", "$1.h") {
            -f $f ? ($named{$f} = 1) : push(@fail, "$at: $f: no such file");
        }
    } else {
        -f $p ? ($named{$p} = 1) : push(@fail, "$at: $p: no such file");
    }
}

# 2. Every file of the four folders is named.
my @files = split /\n/, `find include engine sim conformance -type f | sort`;
for my $f (@files) {
    next if $named{$f};
    next if grep { index($f, $_) == 0 } @dirs;
    push @fail, "$f: not in the file map of $map_doc (add its line)";
}

# 3. The docs name no path that is not there.
my @docs = grep { -f } ('README.md', glob('docs/*.md'), 'vectors/README.md',
                        glob('sim/*/README.md'), glob('conformance/*/*.md'));
for my $d (@docs) {
    open my $dh, '<', $d or die "file_map: cannot read $d: $!\n";
    my $ln = 0;
    while (my $l = <$dh>) {
        $ln++;
        while ($l =~ m{(?<![\w./-])((?:include|engine|sim|conformance|vectors|docs)/[\w./-]*[\w])}g) {
            my $p = $1;
            next if $p =~ /\*|\[/;          # a pattern
            next unless $p =~ m{\.\w+$} || -d $p; # a file, or an existing folder
            next if -e $p;
            push @fail, "$d:$ln: $p: no such file";
        }
    }
    close $dh;
}

if (@fail) {
    print STDERR "file_map: $_\n" for @fail;
    exit 1;
}
printf "file_map: %s names %d entries, every one there, and every file of include, engine, sim and conformance: ok\n",
    $map_doc, scalar @entries;
exit 0;
PERL
