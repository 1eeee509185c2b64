#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `idlelab report`: inputs of every kind made by the binary itself (small runs), the page
# and every inline SVG read by a real XML parser (xmllint), chart titles, legends and
# tooltips against the input JSON, the data tables cell by cell against the input JSON
# (perl's JSON::PP), nothing pointing outside the page, refused inputs and options leaving
# nothing behind, and the page loaded in headless Chromium: no console error, the SVGs in
# the DOM, a screenshot. A verdict: its summary line at the top, called cells strong, the
# others faint, a sensitive one hatched, a legend that fits (measured by Chromium), a row
# without a platform or scenario refused.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/traces

need_cmd xmllint "report" "xmllint not installed (apt-get install libxml2-utils, or scripts/install-deps.sh --test)"
if ! "$IDLELAB" stats -f json "$FIX/vm.trace" >/dev/null 2>&1; then
	skip "report" "built without jansson"
	finish
	exit
fi

expect 0 "report --help" "$IDLELAB" report --help
check "it prints the usage line" grep -q '^usage: idlelab report RESULT\.\.\. -o DIR' "$OUT"

# ---- inputs ----------------------------------------------------------------------------------
expect 0 "run menu -f json" "$IDLELAB" run -g menu -p pseries -s wakeup --time 100ms -f json -o "$TMP/run-menu.json"
expect 0 "run teo -f json" "$IDLELAB" run -g teo -p pseries -s wakeup --time 100ms -f json -o "$TMP/run-teo.json"
expect 0 "compare -f json" "$IDLELAB" compare -g menu,teo,ladder -p i5-10600k -s wakeup -s fio:device=nvme \
	--iter 2 --time 100ms -f json -o "$TMP/cmp.json"
expect 0 "battery -o" "$IDLELAB" battery -g menu,teo -p rk3588 --time 50ms -j 2 -o "$TMP/bat.json"
expect 0 "sweep -o DIR" "$IDLELAB" sweep -g menu,teo -p pseries -s wakeup --param mode=pipe,timer \
	--param interval_us=5,30,120,500 --time 100ms -j 2 -o "$TMP/sw"
expect 0 "replay -f json" "$IDLELAB" replay -p haltpoll-vm -g menu,teo,haltpoll -r haltpoll -f json \
	-o "$TMP/replay.json" "$FIX/vm.trace"
expect 0 "stats -f json" "$IDLELAB" stats -p haltpoll-vm -f json -o "$TMP/stats.json" "$FIX/vm.trace"

R=$TMP/rep
PAGE=$R/index.html
expect 0 "report of all seven" "$IDLELAB" report "$TMP/run-menu.json" "$TMP/run-teo.json" "$TMP/cmp.json" \
	"$TMP/bat.json" "$TMP/sw" "$TMP/replay.json" "$TMP/stats.json" --baseline teo --title 'Lab & traces' -o "$R"
check "DIR holds index.html and nothing else" test "$(ls -A "$R")" = index.html
check "stderr names the page" grep -q "wrote $PAGE" "$ERR"

# ---- parsers ---------------------------------------------------------------------------------
check "the page is well-formed XML (xmllint)" xmllint --noout "$PAGE"
xmllint --html --noout "$PAGE" 2>"$TMP/html.err"
check "the HTML parser has no complaint but HTML5/SVG tag names" \
	sh -c "! grep 'error' '$TMP/html.err' | grep -v 'Tag [a-z]* invalid'"
mkdir "$TMP/svg"
awk -v dir="$TMP/svg" '/^<svg /{ n++; f = sprintf("%s/%02d.svg", dir, n) } f { print > f } /^<\/svg>/ { close(f); f = "" }' "$PAGE"
nsvg=$(ls "$TMP/svg" | wc -l)
check "the page has at least 12 charts ($nsvg)" test "$nsvg" -ge 12
check "as many <svg> as </svg>" test "$(grep -c '^<svg ' "$PAGE")" = "$(grep -c '^</svg>' "$PAGE")"
bad=0
for f in "$TMP"/svg/*.svg; do
	xmllint --noout "$f" 2>>"$TMP/svg.err" || bad=$((bad + 1))
done
check "every SVG parses as XML on its own ($nsvg)" test "$bad" = 0
[ "$bad" = 0 ] || sed 's/^/#   /' "$TMP/svg.err" | head -n 10

# The text of one chart's <text> elements, one per line (the SVG namespace through local-name()).
svg_texts() {
	xmllint --xpath '//*[local-name()="text"]/text()' "$1" 2>/dev/null
	echo
}
# The chart file whose title is $1.
svg_titled() {
	grep -l "aria-label=\"$1\"" "$TMP"/svg/*.svg | head -n 1
}

for title in "Score relative to teo" "Idle misses per governor" "Idle time per state (snooze, CEDE)" \
	"Idle entries per state (POLL, C1_ACPI, C2_ACPI, C3_ACPI)" "Idle entries per state (WFI, cpu-sleep)" \
	"Energy" "Average power" "Residency histogram: vm.trace" \
	"Above % against interval_us, mode=pipe" "Below % against interval_us, mode=pipe" \
	"Above % against interval_us, mode=timer" "Below % against interval_us, mode=timer"; do
	check "chart: $title" test -n "$(svg_titled "$title")"
done
f=$(svg_titled "Above % against interval_us, mode=pipe")
svg_texts "$f" >"$TMP/sweep-texts"
check "sweep legend: menu and teo" sh -c "grep -qx menu '$TMP/sweep-texts' && grep -qx teo '$TMP/sweep-texts'"
check "sweep x axis: the parameter with its unit" grep -qx 'interval_us (µs)' "$TMP/sweep-texts"
check "sweep x axis: log ticks 10 and 100" sh -c "grep -qx 10 '$TMP/sweep-texts' && grep -qx 100 '$TMP/sweep-texts'"
check "sweep: log scale noted" grep -qx 'log scale on x' "$TMP/sweep-texts"
f=$(svg_titled "Idle misses per governor")
svg_texts "$f" >"$TMP/miss-texts"
check "miss legend: below and above" sh -c "grep -qx 'below (state too shallow)' '$TMP/miss-texts' &&
	grep -qx 'above (state too deep)' '$TMP/miss-texts'"
check "miss chart: the replay's governors" grep -qx 'haltpoll-7.0' "$TMP/miss-texts"
check "miss chart: the trace's CPU" grep -qx 'cpu 0' "$TMP/miss-texts"

# ---- numbers against the input JSON ----------------------------------------------------------
# Every tooltip of the sweep curves: "GOV — interval_us=X: Y%" with Y = aboves/idles in % of
# the sweep's rows (one iteration), mode=pipe.
perl -MJSON::PP -e '
	binmode STDOUT, ":encoding(UTF-8)";
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	for my $r (@{$d->{sweep}}) {
		next unless $r->{mode} eq "pipe" && $r->{idles} > 0;
		printf "%s \x{2014} interval_us=%s: %.2f%%\n", $r->{governor}, $r->{interval_us},
			100 * $r->{aboves} / $r->{idles};
	}' "$TMP/sw/sweep.json" | sort >"$TMP/want-tips"
f=$(svg_titled "Above % against interval_us, mode=pipe")
xmllint --xpath '//*[local-name()="circle"]/*[local-name()="title"]/text()' "$f" | sed 's/&#x2014;/—/' |
	sort >"$TMP/got-tips"
check "sweep points are the input's above % (8 points)" sh -c "test \$(wc -l <'$TMP/want-tips') = 8 &&
	cmp -s '$TMP/want-tips' '$TMP/got-tips'"
[ -s "$TMP/got-tips" ] || echo "#   no tooltips found"

# The bar of menu against teo in compare's wakeup table: the mean score of the iterations.
want=$(perl -MJSON::PP -e '
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	my %sum; my %n;
	for my $r (@{$d->{wakeup}}) { $sum{$r->{gov}} += $r->{wakeup_us}; $n{$r->{gov}}++; }
	my ($m, $t) = ($sum{menu} / $n{menu}, $sum{teo} / $n{teo});
	printf "%+.1f%%", ($m - $t) / abs($t) * 100;' "$TMP/cmp.json")
check "relative bar: menu against teo in wakeup, $want" \
	grep -q "<title>wakeup · pipe-50us — menu: $want (wakeup_us ↓)</title>" "$PAGE"

# Every cell of the data tables of three inputs, against the JSON (numbers as numbers).
json_cells() {
	perl -MJSON::PP -e '
		my $json = JSON::PP->new;
		my $text = do { local $/; open my $f, "<", $ARGV[0] or die; <$f> };
		# Tables and columns in file order: read the keys as they come.
		my $d = $json->decode($text);
		my @tables = $text =~ /^  "((?:[^"\\]|\\.)*)": \[/mg;
		for my $t (@tables) {
			my @rows = @{$d->{$t}};
			my @cols = ($text =~ /\Q"$t"\E: \[\s*\{(.*?)\n    \}/s)[0] =~ /^      "((?:[^"\\]|\\.)*)":/mg;
			for my $r (@rows) { print defined $r->{$_} ? "$r->{$_}\n" : "-\n" for @cols; }
		}' "$1"
}
html_cells() {
	xmllint --html --xpath "//table[@data-file='$2']//td" "$1" 2>/dev/null |
		perl -ne 'while (/<td[^>]*>(.*?)<\/td>/g) { my $v = $1; $v =~ s/&lt;/</g; $v =~ s/&gt;/>/g;
			$v =~ s/&quot;/"/g; $v =~ s/&#39;/\x27/g; $v =~ s/&amp;/&/g; print "$v\n"; }'
}
same_cells() {
	perl -e '
		open my $a, "<", $ARGV[0] or die; open my $b, "<", $ARGV[1] or die;
		my @a = <$a>; my @b = <$b>; chomp(@a, @b);
		die "count @{[scalar @a]} != @{[scalar @b]}\n" unless @a == @b && @a > 0;
		my $num = qr/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
		for my $i (0 .. $#a) {
			next if $a[$i] eq $b[$i];
			next if $a[$i] =~ $num && $b[$i] =~ $num && $a[$i] == $b[$i];
			die "cell $i: \"$a[$i]\" != \"$b[$i]\"\n";
		}' "$1" "$2"
}
for input in cmp.json sw/sweep.json stats.json; do
	json_cells "$TMP/$input" >"$TMP/want-cells"
	html_cells "$PAGE" "$input" >"$TMP/got-cells"
	check "data tables of $input: every cell as in the JSON ($(wc -l <"$TMP/want-cells") cells)" \
		same_cells "$TMP/want-cells" "$TMP/got-cells"
done
check "the seeds' table: average, max, min against teo" \
	sh -c "grep -q '>wakeup_us relative to teo (negative is better)</p>' '$PAGE' &&
	grep -q 'data-gov=\"menu\" data-stat=\"average\"' '$PAGE'"
check "the title is escaped" grep -q '<title>Lab &amp; traces</title>' "$PAGE"

# ---- lab against seeds (fidelity --json), governors against the open-loop bound -----------
# The fidelity input is a short scoreboard run committed as a fixture (docs/report.md says how
# it was made); the bound comes from replay, whose JSON ends with the bound and gap tables.
FIDJ=$TOP/tests/fixtures/report-fidelity.json
expect 0 "replay with its bound" "$IDLELAB" replay "$FIX/vm.trace" -p haltpoll-vm -g menu,teo -f json \
	-o "$TMP/bound.json"
check "the replay has a bound and a gap table" sh -c "grep -q '\"bound (open loop' '$TMP/bound.json' &&
	grep -q '\"gap to bound (' '$TMP/bound.json'"
R3=$TMP/rep3
expect 0 "report of a fidelity result and a replay" "$IDLELAB" report "$FIDJ" "$TMP/bound.json" -o "$R3"
P3=$R3/index.html
check "that page is well-formed XML (xmllint)" xmllint --noout "$P3"
check "the inputs table says fidelity" grep -q '<td>report-fidelity.json</td><td>fidelity</td>' "$P3"
check "sections and contents: lab against seeds, open-loop bound" sh -c "grep -q '<section id=\"fidelity\">' '$P3' &&
	grep -q '<section id=\"bound\">' '$P3' && grep -q 'href=\"#fidelity\"' '$P3' && grep -q 'href=\"#bound\"' '$P3'"
mkdir "$TMP/svg3"
awk -v dir="$TMP/svg3" '/^<svg /{ n++; f = sprintf("%s/%02d.svg", dir, n) } f { print > f } /^<\/svg>/ { close(f); f = "" }' "$P3"
titled3() {
	grep -l "aria-label=\"$1\"" "$TMP"/svg3/*.svg | head -n 1
}
# The texts of an element kind's <title> children, entities decoded, sorted.
tips() {
	xmllint --xpath "//*[local-name()=\"$2\"]/*[local-name()=\"title\"]/text()" "$1" 2>/dev/null |
		perl -CS -pe 's/&#x([0-9a-fA-F]+);/chr(hex($1))/ge; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g;
			s/&#39;/\x27/g; s/&amp;/&/g' | sort
}
f=$(titled3 "Lab against seeds: report-fidelity.json")
check "scatter: lab against seeds" test -n "$f"
# Every number compared in size, with both values > 0, is one point: its tooltip holds the
# seeds' value, the lab's mean and interval and the ratio, as the JSON has them.
perl -MJSON::PP -CS -e '
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	for my $r (@{$d->{"fidelity numbers"}}) {
		next unless $r->{sized} eq "yes" && defined $r->{lab_mean} && $r->{seeds} > 0 && $r->{lab_mean} > 0;
		printf "%s %s %s: seeds %.4g, lab %.4g \x{b1} %.3g (\x{d7}%.3f)\n", $r->{group}, $r->{seeds_label},
			$r->{metric}, $r->{seeds}, $r->{lab_mean}, $r->{lab_ci95} // 0, $r->{lab_mean} / $r->{seeds};
	}' "$FIDJ" | sort >"$TMP/want-fid"
[ -n "$f" ] && tips "$f" circle >"$TMP/got-fid"
check "scatter: one point per sized number, tooltips as in the JSON ($(wc -l <"$TMP/want-fid") points)" \
	sh -c "test \$(wc -l <'$TMP/want-fid') -gt 20 && cmp -s '$TMP/want-fid' '$TMP/got-fid'"
check "scatter: the ±25 % band and the y = x line" sh -c "grep -q '<title>within ±25 % of the seeds</title>' '$f' &&
	grep -q 'stroke=\"#4a7a4a\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"' '$f'"
check "scatter: log axes" sh -c "svg_texts() { xmllint --xpath '//*[local-name()=\"text\"]/text()' \"\$1\"; };
	svg_texts '$f' | grep -q \"the seeds' value (log scale)\" && svg_texts '$f' | grep -q 'the lab.s mean (log scale)'"
svg_texts "$f" >"$TMP/fid-texts"
check "scatter legend: the row families" sh -c "grep -qx 'rk3399 fio' '$TMP/fid-texts' &&
	grep -qx 'pseries wakeup' '$TMP/fid-texts' && grep -qx 'i5-10600k pingpong' '$TMP/fid-texts'"
check "scatter: error bars (CI caps)" test "$(grep -c '<line .*stroke-width="1.2"' "$f")" -gt 20
f=$(grep -l 'aria-label="Seeds&#39; findings in the lab: report-fidelity.json"' "$TMP"/svg3/*.svg | head -n 1)
check "bars: the seeds' findings" test -n "$f"
perl -MJSON::PP -CS -e '
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	for my $r (@{$d->{"fidelity comparisons"}}) {
		next if $r->{seeds} eq "=";
		printf "%s %s: %s vs %s: seeds a %s b, lab a %s b, holds on %d/%d lab seeds\n", $r->{group},
			$r->{metric}, $r->{a}, $r->{b}, $r->{seeds}, $r->{lab}, $r->{holds}, $r->{lab_seeds};
	}' "$FIDJ" | sort >"$TMP/want-finding"
[ -n "$f" ] && tips "$f" rect >"$TMP/got-finding"
check "bars: one per finding, directions and seeds as in the JSON ($(wc -l <"$TMP/want-finding") findings)" \
	sh -c "test \$(wc -l <'$TMP/want-finding') -gt 10 && cmp -s '$TMP/want-finding' '$TMP/got-finding'"
# Blue where the lab's direction is the seeds', red where it is not: both kinds occur here.
bar_colours() {
	perl -ne 'while (/fill="(#[0-9a-f]+)"><title>[^<]*seeds a (\S+) b, lab a (\S+) b/g) {
		print(($2 eq $3) == ($1 eq "#2166ac") && ($1 eq "#2166ac" || $1 eq "#b2182b") ? "ok $1\n" : "bad\n"); }' "$1"
}
bar_colours "$f" | sort | uniq -c >"$TMP/bar-colours"
check "bars: blue when the lab goes the seeds' way, red when not ($(tr -s ' \n' ' ' <"$TMP/bar-colours"))" \
	sh -c "! grep -q bad '$TMP/bar-colours' && grep -q 'ok #2166ac' '$TMP/bar-colours' &&
	grep -q 'ok #b2182b' '$TMP/bar-colours'"
f=$(titled3 "Open-loop bound: bound.json")
check "chart: the open-loop bound" test -n "$f"
perl -MJSON::PP -CS -e '
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	my ($b) = grep { /^bound / } keys %$d;
	for my $r (@{$d->{$b}}) {
		printf "bound, \x{3bb} = %s: %.3f mJ at %.1f \x{b5}s added latency\n",
			$r->{lambda_nj_per_us} eq "inf" ? "inf" : "$r->{lambda_nj_per_us} nJ/\x{b5}s", $r->{energy_mj},
			$r->{added_latency_us};
	}' "$TMP/bound.json" | sort >"$TMP/want-bound"
[ -n "$f" ] && tips "$f" circle | grep '^bound' >"$TMP/got-bound"
check "frontier: a marker per bound row ($(wc -l <"$TMP/want-bound") points)" \
	sh -c "test \$(wc -l <'$TMP/want-bound') -ge 2 && cmp -s '$TMP/want-bound' '$TMP/got-bound'"
check "frontier: a line through them" grep -q '<polyline ' "$f"
perl -MJSON::PP -CS -e '
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	my ($g) = grep { /^gap to bound/ } keys %$d;
	for my $r (@{$d->{$g}}) { (my $v = $r->{verdict}) =~ s/^gap to bound: //; print "$r->{governor}: $v\n"; }
	' "$TMP/bound.json" | sort >"$TMP/want-gap"
svg_texts "$f" | grep ': [+-][0-9.]* % energy at equal added latency$' | sort >"$TMP/got-gap"
check "frontier: each governor labelled with its gap ($(wc -l <"$TMP/want-gap"): $(head -n 1 "$TMP/got-gap"))" \
	sh -c "grep -q '^menu-7.1: ' '$TMP/want-gap' && cmp -s '$TMP/want-gap' '$TMP/got-gap'"
check "no lab-against-seeds section without a fidelity input" sh -c "! grep -q 'id=\"fidelity\"' '$PAGE'"
expect 0 "report of a compare without --bound" "$IDLELAB" report "$TMP/cmp.json" -o "$TMP/rep4"
check "no bound section without a bound table" sh -c "! grep -q -e 'id=\"bound\"' -e 'Open-loop bound' '$TMP/rep4/index.html'"
expect 0 "run --bound -f json" "$IDLELAB" run -g menu -p pseries -s wakeup --time 50ms --bound -f json \
	-o "$TMP/run-bound.json"
expect 0 "report of it" "$IDLELAB" report "$TMP/run-bound.json" -o "$TMP/rep6"
check "a run's bound is drawn too, with its governor" sh -c "grep -q 'aria-label=\"Open-loop bound: run-bound.json\"' \
	'$TMP/rep6/index.html' && grep -q '>menu: [+-][0-9.]* % energy at equal added latency<' '$TMP/rep6/index.html'"
expect 0 "compare --bound -f json" "$IDLELAB" compare -g menu,teo -p pseries -s wakeup --time 50ms --bound -f json \
	-o "$TMP/cmp-bound.json"
expect 0 "report reads it (its gap tables are not linux-pm tables)" "$IDLELAB" report "$TMP/cmp-bound.json" \
	-o "$TMP/rep5"
check "its data section has the gap table" grep -q 'gap to bound wakeup' "$TMP/rep5/index.html"
perl -MJSON::PP -e '
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	delete $d->{fidelity}; print encode_json($d);' "$FIDJ" >"$TMP/fid-no-kv.json"
expect 1 "a fidelity result without its summary table is not one" "$IDLELAB" report "$TMP/fid-no-kv.json" \
	-o "$TMP/none"
check "the message lists fidelity among the kinds" grep -q "verdict or fidelity)" "$ERR"

# ---- a verdict: its summary line first, called cells strong, the others faint ----------------
expect 0 "verdict -f json" "$IDLELAB" verdict -g menu-4,menu-5 -p rk3588,haltpoll-vm -s fio:device=nvme \
	-s pingpong:cpus=6 --iter 5 --time 200ms -f json -o "$TMP/vd.json"
# One cell made "sensitive" (the verdict's fourth class: its sign depends on the model).
perl -MJSON::PP -e '
	my $d = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
	for my $c (@{$d->{verdict_cells}}) {
		next unless $c->{verdict} eq "same" && $c->{metric_key} eq "score";
		$c->{verdict} = "sensitive"; last;
	}
	print JSON::PP->new->canonical->encode($d);' "$TMP/vd.json" >"$TMP/vd-sens.json"
expect 0 "report of a verdict" "$IDLELAB" report "$TMP/vd-sens.json" -o "$TMP/rep7"
P7=$TMP/rep7/index.html
check "the verdict page is well-formed XML" xmllint --noout "$P7"
line=$(perl -MJSON::PP -e 'my $d = decode_json(do { local $/; <STDIN> }); print $d->{verdict_summary}[0]{line}' \
	<"$TMP/vd.json")
check "the summary line is on the page" grep -qF "$(printf '%s' "$line" | sed 's/&/\&amp;/g')" "$P7"
check "... at the top: after the title, before the contents and every chart" sh -c \
	"awk '/<h1>/ {h=NR} /class=\"verdict-line\"/ && !v {v=NR} /<nav>/ {n=NR} /<svg / && !s {s=NR}
	     END {exit !(h && v > h && v < n && v < s)}' '$P7'"
# The heat map cells: each <rect> with a tooltip, its fill, and what follows it until the next.
perl -ne '
	if (/<rect [^>]*fill="#([0-9a-f]{6})"><title>([^<]*)<\/title>/) {
		my ($c, $t) = ($1, $2);
		next unless $t =~ /, (better|worse|same|sensitive)$/;
		my @v = map { hex } unpack("(A2)*", $c);
		my $max = 0;   # how far from the white background (247): 0 white, 1 full colour
		for (@v) { my $d = abs(247 - $_) / 247; $max = $d if $d > $max }
		printf "%s %.3f\n", $1, $max;
	}' "$P7" >"$TMP/cells"
check "the heat maps have called cells" grep -Eq '^(better|worse) ' "$TMP/cells"
check "... and cells not called" grep -q '^same ' "$TMP/cells"
check "called cells are strongly coloured" \
	awk '/^(better|worse) / && $2 < 0.30 {bad = 1} END {exit bad}' "$TMP/cells"
check "cells not called are faint, whatever their change" \
	awk '/^(same|sensitive) / && $2 > 0.26 {bad = 1} END {exit bad}' "$TMP/cells"
perl -0ne 'while (/<title>([^<]*), (better|worse|same|sensitive)<\/title><\/rect>\n((?:<(?:rect|line)[^>]*\/>\n)*)/g) {
	my ($k, $after) = ($2, $3);
	my $outline = $after =~ /fill="none" stroke="#111111"/ ? "solid" : $after =~ /stroke-dasharray/ ? "dashed" : "none";
	my $hatch = () = $after =~ /<line /g;
	print "$k $outline $hatch\n" }' "$P7" >"$TMP/marks"
check "called cells outlined, solid" awk '/^(better|worse) / && $2 != "solid" {bad = 1} END {exit bad}' "$TMP/marks"
check "cells not called: no outline, no hatching" awk '/^same / && ($2 != "none" || $3) {bad = 1} END {exit bad}' "$TMP/marks"
check "the sensitive cell: hatched, dashed outline" grep -Eq '^sensitive dashed [1-9]' "$TMP/marks"
check "the legend names the classes" sh -c "grep -q '>called<' '$P7' && grep -q '>not called<' '$P7' &&
	grep -q '>sensitive: the sign depends on the model<' '$P7' && grep -q 'tooltip: its interval, p and verdict' '$P7'"
printf '{"verdict":[{"key":"baseline","value":"a"}],"verdict_cells":[{"gov":"b","baseline":"a","platform":"p","scenario":null,"metric_key":"score","verdict":"same"}]}' \
	>"$TMP/vd-bad.json"
expect 1 "a verdict row without a scenario: refused" "$IDLELAB" report "$TMP/vd-bad.json" -o "$TMP/none"
check "the message names the file, the row and the field" \
	grep -q "vd-bad.json: a verdict whose verdict_cells row 1 has no scenario" "$ERR"
expect 1 "the fuzzers' input (a row whose scenario is an object): refused" "$IDLELAB" report \
	"$TOP/fuzz/corpus/report/regress-heatmap-no-platform" -o "$TMP/none"
check "... naming the file" grep -q "regress-heatmap-no-platform: a verdict whose verdict_cells row 3 has no scenario" "$ERR"

# ---- offline -------------------------------------------------------------------------------
grep -o 'https\?://[^"]*' "$PAGE" | grep -v -x -e 'http://www.w3.org/2000/svg' -e 'http://www.w3.org/1999/xhtml' \
	>"$TMP/urls"
check "no URL but the XML namespaces" test ! -s "$TMP/urls"
check "no src= at all" sh -c "! grep -q 'src=' '$PAGE'"
check "every href= points inside the page" sh -c "! grep -o 'href=\"[^\"]*\"' '$PAGE' | grep -v '^href=\"#'"
for pg in "$PAGE" "$P7"; do
	check "no script, no stylesheet link, no url(): $(basename "$(dirname "$pg")")" \
		sh -c "! grep -qi -e '<script' -e '<link' -e 'url(' -e '@import' '$pg'"
done

# ---- refused inputs and options: exit code, message, nothing written -------------------------
mkdir "$TMP/keep"
echo old >"$TMP/keep/index.html"
echo '{"tables": [1, 2]}' >"$TMP/other.json"
expect 1 "not an idlelab result" "$IDLELAB" report "$TMP/cmp.json" "$TMP/other.json" -o "$TMP/keep"
check "the message names the file" grep -q "other.json: not a result idlelab report reads" "$ERR"
check "the old page is untouched" test "$(cat "$TMP/keep/index.html")" = old
check "no temporary file left" test "$(ls -A "$TMP/keep")" = index.html
expect 1 "a CSV is not JSON" "$IDLELAB" report "$TMP/sw/sweep.csv" -o "$TMP/none"
check "the message says where" grep -q "sweep.csv: not JSON: line 1" "$ERR"
check "no DIR made" test ! -e "$TMP/none"
expect 1 "a missing file" "$IDLELAB" report "$TMP/missing.json" -o "$TMP/none"
check "the message names it" grep -q "missing.json: No such file" "$ERR"
expect 2 "an unknown baseline" "$IDLELAB" report "$TMP/cmp.json" --baseline nope -o "$TMP/none"
check "the message lists the governors" grep -q "no governor 'nope'.*menu teo ladder" "$ERR"
check "no DIR made" test ! -e "$TMP/none"
expect 2 "an unknown metric" "$IDLELAB" report "$TMP/sw" --metric above_pct,nope -o "$TMP/none"
check "the message names it and the choices" grep -q "no metric 'nope' (this sweep has: above_pct" "$ERR"
expect 2 "a non-numeric x" "$IDLELAB" report "$TMP/sw" --x mode -o "$TMP/none"
expect 2 "no -o" "$IDLELAB" report "$TMP/cmp.json"
expect 2 "no input" "$IDLELAB" report -o "$TMP/none"
check "no DIR made by any of them" test ! -e "$TMP/none"

expect 0 "the score over the sweep" "$IDLELAB" report "$TMP/sw/sweep.json" --metric score,watts --x interval_us \
	-o "$TMP/rep2"
check "score curves" grep -q 'aria-label="wakeup_us against interval_us, mode=timer"' "$TMP/rep2/index.html"
check "watts curves" grep -q 'aria-label="watts against interval_us, mode=pipe"' "$TMP/rep2/index.html"
check "no above % without asking" sh -c "! grep -q 'aria-label=\"Above %' '$TMP/rep2/index.html'"

# ---- headless Chromium ---------------------------------------------------------------------
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip "the page in headless Chromium" "chromium not installed (apt-get install chromium, or scripts/install-deps.sh --test)"
	finish
	exit
fi
chrome() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--disable-background-networking --disable-component-update --no-first-run \
		--user-data-dir="$TMP/chromium-profile" --host-resolver-rules='MAP * ~NOTFOUND' \
		--enable-logging=stderr --v=0 "$@"
}
# The console check can fail: a page with an error is caught.
printf '<!DOCTYPE html><html><body><script>console.error("canary"); nope();</script></body></html>' \
	>"$TMP/canary.html"
chrome --dump-dom "file://$TMP/canary.html" >/dev/null 2>"$TMP/canary.err"
check "the console check sees a page's errors" grep -q 'Uncaught ReferenceError' "$TMP/canary.err"

chrome --screenshot="$TMP/shot.png" --window-size=1280,2000 "file://$PAGE" >/dev/null 2>"$TMP/shot.err"
check "screenshot written" test -s "$TMP/shot.png"
check "it is a PNG" test "$(head -c 8 "$TMP/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
size=$(wc -c <"$TMP/shot.png")
check "and not a blank page ($size bytes)" test "$size" -gt 50000
chrome --dump-dom "file://$PAGE" >"$TMP/dom.html" 2>"$TMP/dom.err"
check "the DOM has every chart ($(grep -c '<svg ' "$TMP/dom.html") svg)" \
	test "$(grep -o '<svg ' "$TMP/dom.html" | wc -l)" -eq "$nsvg"
check "the DOM has the data tables" grep -q 'data-file="stats.json"' "$TMP/dom.html"
cat "$TMP/shot.err" "$TMP/dom.err" >"$TMP/chrome.err"
check "no console message or uncaught error from the page" \
	sh -c "! grep -e 'CONSOLE' -e 'Uncaught' '$TMP/chrome.err'"
check "no failed request" sh -c "! grep -e 'net::ERR' -e 'Failed to load' '$TMP/chrome.err'"
# The heat maps' texts inside their SVG, measured by Chromium's layout: a copy of the verdict
# page with a script that opens every <details> and compares each unrotated text's box with
# its SVG's width. A copy with one text moved past the edge shows the check can fail.
cat >"$TMP/measure.js" <<'EOF2'
<script>
document.querySelectorAll("details").forEach(function (d) { d.open = true; });
var bad = [];
document.querySelectorAll("svg").forEach(function (s) {
	if (!/change of the mean/.test(s.getAttribute("aria-label")))
		return;
	var w = s.viewBox.baseVal.width;
	s.querySelectorAll("text:not([transform])").forEach(function (t) {
		var b = t.getBBox();
		if (b.x < 0 || b.x + b.width > w)
			bad.push(t.textContent);
	});
});
document.body.setAttribute("data-overflow", bad.length + ":" + bad.join("|"));
</script>
EOF2
overflow_page() {
	JS=$TMP/measure.js perl -pe 'BEGIN { local $/; open my $f, "<", $ENV{JS} or die; $js = <$f> }
		s|</body>|$js</body>|' "$1" >"$2"
}
overflow_page "$P7" "$TMP/rep7/measure.html"
sed 's|>not called<|>not called, and a text long enough to run past the right edge of the heat map without doubt at all, surely<|' \
	"$P7" >"$TMP/rep7/canary.html"
overflow_page "$TMP/rep7/canary.html" "$TMP/rep7/measure-canary.html"
chrome --dump-dom "file://$TMP/rep7/measure-canary.html" >"$TMP/dom-canary.html" 2>/dev/null
check "the overflow check sees a text past the edge" grep -q 'data-overflow="[1-9]' "$TMP/dom-canary.html"
chrome --dump-dom "file://$TMP/rep7/measure.html" >"$TMP/dom7.html" 2>/dev/null
check "every heat-map text (legend included) fits its SVG" grep -q 'data-overflow="0:"' "$TMP/dom7.html"
chrome --screenshot="$TMP/shot7.png" --window-size=1280,2000 "file://$P7" >/dev/null 2>"$TMP/shot7.err"
check "the verdict page renders" test -s "$TMP/shot7.png"
check "no console message from it" sh -c "! grep -e 'CONSOLE' -e 'Uncaught' -e 'net::ERR' '$TMP/shot7.err'"
chrome --screenshot="$TMP/shot3.png" --window-size=1280,3000 "file://$P3" >/dev/null 2>"$TMP/shot3.err"
size=$(wc -c <"$TMP/shot3.png" 2>/dev/null || echo 0)
check "the lab-against-seeds and bound page renders ($size bytes)" test "$size" -gt 50000
chrome --dump-dom "file://$P3" >"$TMP/dom3.html" 2>"$TMP/dom3.err"
check "its DOM has the scatter and the frontier" sh -c "grep -q 'Lab against seeds: report-fidelity.json' '$TMP/dom3.html' &&
	grep -q 'Open-loop bound: bound.json' '$TMP/dom3.html'"
check "no console message from it" sh -c "! grep -e 'CONSOLE' -e 'Uncaught' -e 'net::ERR' '$TMP/shot3.err' '$TMP/dom3.err'"
finish
