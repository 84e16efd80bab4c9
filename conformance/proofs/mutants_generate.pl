#!/usr/bin/perl
# conformance/proofs/mutants_generate.pl: the mutants of one engine file, for
# mutants.pl (which `require`s it; its header lists the operators and how a
# mutant is named). Every sub here works on a file's text alone: masking
# comments, strings and preprocessor lines, tokens, the operators, numbering,
# applying a mutant's edits and showing its line. perl-base only.
use strict;
use warnings;
no warnings 'portable'; # hex() of 64-bit literals

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

1;
