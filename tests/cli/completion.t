#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Bash completion (completion/idlelab): sourced in bash, driven as bash drives it (COMP_LINE,
# COMP_POINT, COMP_WORDS, COMP_CWORD, then the function), COMPREPLY checked against what the
# binary itself lists: commands, options, presets, platforms, scenarios and parameters,
# formats, readers, kgov's actions, files.
. "$(dirname "$0")/lib.sh"
need_cmd bash "bash completion" "bash is not installed"
COMPLETION=$TOP/completion/idlelab

# The command word is "idlelab", found on PATH, as for a user.
mkdir -p "$TMP/bin"
ln -s "$IDLELAB" "$TMP/bin/idlelab"
PATH=$TMP/bin:$PATH
export PATH

# comp LINE: the candidates for LINE with the cursor at its end, one per line (sorted).
# COMP_WORDS is split as bash splits it, at COMP_WORDBREAKS too ("fio:dev" is "fio" ":" "dev").
comp() {
	bash -c '
		. "$1"
		COMP_LINE=$2
		COMP_POINT=${#2}
		words=() w=""
		line=$2
		for ((i = 0; i < ${#line}; i++)); do
			c=${line:i:1}
			if [[ $c == [[:blank:]] ]]; then
				[ -n "$w" ] && words+=("$w"); w=""
			elif [[ $COMP_WORDBREAKS == *"$c"* ]]; then
				[ -n "$w" ] && words+=("$w"); words+=("$c"); w=""
			else
				w+=$c
			fi
		done
		words+=("$w")
		COMP_WORDS=("${words[@]}")
		COMP_CWORD=$((${#words[@]} - 1))
		_idlelab
		printf "%s\n" "${COMPREPLY[@]}"' comp "$COMPLETION" "$1" | sed '/^$/d' | sort
}

# has LINE WORD...: every WORD is a candidate; only LINE WORD...: exactly those.
has() {
	line=$1
	shift
	comp "$line" >"$TMP/got"
	for w in "$@"; do
		grep -qxF -- "$w" "$TMP/got" || { echo "# '$line': no '$w' in: $(tr '\n' ' ' <"$TMP/got")"; return 1; }
	done
}
only() {
	line=$1
	shift
	comp "$line" >"$TMP/got"
	: >"$TMP/want"
	[ $# -eq 0 ] || printf '%s\n' "$@" | sort >"$TMP/want"
	cmp -s "$TMP/got" "$TMP/want" || { echo "# '$line': got $(tr '\n' ' ' <"$TMP/got")"; return 1; }
}

check "bash -n completion/idlelab" bash -n "$COMPLETION"
check "it registers _idlelab for idlelab" sh -c "bash -c '. \"$COMPLETION\"; complete -p idlelab' | grep -q '_idlelab idlelab'"

# Commands: exactly those of idlelab --help.
"$IDLELAB" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' >"$TMP/commands"
# shellcheck disable=SC2046
check "idlelab <TAB>: every command" only "idlelab " $(cat "$TMP/commands")
check "idlelab st<TAB>: step stats states" only "idlelab st" step stats states
check "idlelab --<TAB>: --help --version" only "idlelab --" --help --version

# Presets: run -g te<TAB> offers every teo preset of idlelab governors and the teo alias.
teo=$("$IDLELAB" governors -f csv | cut -d, -f1 | grep '^te')
# shellcheck disable=SC2086
check "run -g te<TAB>: the teo presets and alias ($(echo $teo | wc -w) + teo)" only "idlelab run -g te" $teo teo
check "run -g te<TAB> includes teo-6.12.117" has "idlelab run -g te" teo-6.12.117
check "battery -g menu-6.16,te<TAB>: after the comma, the first kept" has "idlelab battery -g menu-6.16,te" menu-6.16,teo-7.1 menu-6.16,teo
check "run --governor=me<TAB>" has "idlelab run --governor=me" menu-6.17 menu
check "run -g <TAB> offers file:" has "idlelab run -g " file: oracle
printf 'x' >"$TMP/mygov.so"
check "run -g file:<TMP>/my<TAB>: the .so (after the ':' bash breaks at)" only "idlelab run -g file:$TMP/my" "$TMP/mygov.so"
check "replay -r teo-6.1<TAB>" has "idlelab replay x.trace -g menu -r teo-6.1" teo-6.12.117 teo-6.1.192
check "kgov check --against menu-6.12<TAB>" only "idlelab kgov check x.c --against menu-6.12" menu-6.12.117
check "measure -g <TAB>: nothing (kernel governors of the machine)" only "idlelab measure -g "

# Platforms, formats, readers.
# shellcheck disable=SC2046
check "run -p <TAB>: every built-in platform" only "idlelab run -p " $("$IDLELAB" platforms -f csv | tail -n +2 | cut -d, -f1)
check "run -p rk<TAB>" only "idlelab run -p rk" rk3399 rk3588
check "platforms <TAB>: the built-ins" has "idlelab platforms " skx haltpoll-vm
check "run -f <TAB>: table tsv csv json" only "idlelab run -f " table tsv csv json
check "governors -f <TAB>: what it takes (no tsv)" only "idlelab governors -f " table csv json
check "stats -F <TAB>: the trace readers" has "idlelab stats x -F " ftrace trace-cmd perf idlestat systrace
check "replay --sleep-length <TAB>: its values" only "idlelab replay x -g menu --sleep-length " auto timers wakeups
printf 'x' >"$TMP/dump.txt"
check "states --dump <TAB>: files" only "idlelab states --dump $TMP/du" "$TMP/dump.txt"
check "states --diff <TAB>: files" has "idlelab states --diff $TMP/du" "$TMP/dump.txt"

# Scenarios and their parameters.
# shellcheck disable=SC2046
check "run -s <TAB>: every scenario" has "idlelab run -s " $("$IDLELAB" help --complete scenarios)
check "run -s fi<TAB>: fio: (a scenario takes parameters)" only "idlelab run -s fi" fio:
check "run -s fio:<TAB>: fio's parameters and the common ones" has "idlelab run -s fio:" device= jobs= lat_us= cpus= tick_hz=
check "run -s fio:dev<TAB>" only "idlelab run -s fio:dev" device=
check "run -s fio:device=<TAB>: the device classes" only "idlelab run -s fio:device=" nvme sda mmcblk nullb mtdblock dm-slow
check "run -s fio:device=nvme,jo<TAB>: the next parameter" only "idlelab run -s fio:device=nvme,jo" nvme,jobs=
check "compare -s wakeup:mode=<TAB>" has "idlelab compare -s wakeup:mode=" timer
check "sweep -s wakeup --param int<TAB>: the scenario's parameter" only "idlelab sweep -s wakeup --param int" interval_us=
check "sweep --ens<TAB>: the ensemble, from its usage" only "idlelab sweep --ens" --ensemble
check "sweep -s idle --param bg_<TAB>: the background's rate" only "idlelab sweep -s idle --param bg_" \
	bg_rate_pct=
check "kgov --seed takes a number: nothing offered" only "idlelab kgov check x.c --seed "

# Options: every option of every command's help text.
for cmd in $(cat "$TMP/commands"); do
	opts=$("$IDLELAB" help "$cmd" | awk '/^  (-[A-Za-z0-9],? |    --|--)/ { s = $0; sub(/^ +/, "", s); sub(/  .*/, "", s)
		n = split(s, w, /[ ,]+/); for (i = 1; i <= n; i++) if (w[i] ~ /^--/) print w[i] }' | sort -u)
	# shellcheck disable=SC2086
	check "$cmd --<TAB>: its $(echo $opts | wc -w) long options" has "idlelab $cmd --" $opts --help
done
check "run --perf<TAB>" only "idlelab run --perf" --perfetto --perfetto-limit --perfetto-window
check "an option's value is not taken for a positional (kgov -o x <TAB>)" has "idlelab kgov -o x " build check

# Positionals and files.
check "kgov <TAB>: the actions, diff included" only "idlelab kgov " build check record verify diff
check "kgov d<TAB>: diff" only "idlelab kgov d" diff

# kgov: each action's own options, each once (-o is build's and record's; --against check's
# and verify's; --as record's, and diff's when its help says so).
comp "idlelab kgov diff a.c b.c --" >"$TMP/diffopts"
check "kgov diff --<TAB>: no option twice" test -z "$(sort "$TMP/diffopts" | uniq -d)"
check "kgov diff --<TAB>: its own options" has "idlelab kgov diff a.c b.c --" --steps --seed --platform \
	--random-platforms --scenario --show --format --progress --no-progress --help
check "kgov diff --<TAB>: not --against, --output (check's, verify's, build's, record's)" \
	sh -c "! grep -qx -e --against -e --output '$TMP/diffopts'"
if "$IDLELAB" help kgov | grep -Eq -- '--as PRESET +([a-z]+, )*diff'; then
	check "kgov diff --<TAB>: --as (its help says diff takes it)" grep -qx -- --as "$TMP/diffopts"
else
	check "kgov diff --<TAB>: not --as (its help says record's only)" sh -c "! grep -qx -- --as '$TMP/diffopts'"
fi
comp "idlelab kgov check x.c --" >"$TMP/checkopts"
check "kgov check --<TAB>: --against and --steps" sh -c "grep -qx -- --against '$TMP/checkopts' &&
	grep -qx -- --steps '$TMP/checkopts'"
check "kgov check --<TAB>: not diff's --show nor --scenario" sh -c "! grep -qx -e --show -e --scenario '$TMP/checkopts'"
comp "idlelab kgov --" >"$TMP/kgovopts"
check "kgov --<TAB> (no action yet): every option once" test -z "$(sort "$TMP/kgovopts" | uniq -d)"
check "kgov diff --scenario rk35<TAB>: PLATFORM: forms" only "idlelab kgov diff a.c b.c --scenario rk35" rk3588:
comp "idlelab kgov diff a.c b.c --scenario " >"$TMP/plats"
check "kgov diff --scenario <TAB>: every platform, each with ':'" sh -c \
	"test \"\$(grep -c ':\$' '$TMP/plats')\" -eq \"\$(wc -l < '$TMP/plats')\" && grep -qx 'skx:' '$TMP/plats' &&
	! grep -qx 'fio' '$TMP/plats'"
check "kgov diff --scenario rk3588:fi<TAB>: the scenario after the platform" \
	only "idlelab kgov diff a.c b.c --scenario rk3588:fi" fio:
check "kgov diff --scenario rk3588:fio:device=n<TAB>" has "idlelab kgov diff a.c b.c --scenario rk3588:fio:device=n" \
	nvme nullb

# verdict -m: the metrics the verdict judges, as a comma list.
# shellcheck disable=SC2046
check "verdict -m <TAB>: every verdict metric" only "idlelab verdict -m " \
	$("$IDLELAB" help --complete verdict-metrics)
check "verdict -m <TAB> has score and energy" has "idlelab verdict -m " score energy wakeup_p99_us
check "verdict -m score,idle_m<TAB>: after the comma" only "idlelab verdict -m score,idle_m" \
	score,idle_misses score,idle_miss_ratio
check "verdict --metric=ab<TAB>" only "idlelab verdict --metric=ab" aboves
# shellcheck disable=SC2046
check "help <TAB>: the commands" only "idlelab help " $(cat "$TMP/commands")
check "scenarios f<TAB>" only "idlelab scenarios f" fio
mkdir -p "$TMP/traces"
: >"$TMP/traces/a.trace"
check "stats <TAB>: files" only "idlelab stats $TMP/traces/" "$TMP/traces/a.trace"
check "step --input <TAB>: files" only "idlelab step --input $TMP/traces/a" "$TMP/traces/a.trace"
check "review --trace <TAB>: files" only "idlelab review x.patch --trace $TMP/traces/a" "$TMP/traces/a.trace"
check "review --trace-platform sk<TAB>: the built-ins" only "idlelab review x.patch --trace-platform sk" skx
check "review --tr<TAB>: its trace options" has "idlelab review x.patch --tr" --trace --trace-platform --tree
check "review --no-sh<TAB>: --no-shipped-traces" only "idlelab review x.patch --no-sh" --no-shipped-traces
check "measure -g menu -- sle<TAB>: commands" has "idlelab measure -g menu -- sle" sleep

# What a command's usage spells out: a stand-in binary whose verdict has the options of
# issue 13 ("[-p LIST|all]", "[--fail-on worse|any]"); every other call goes to the real one.
cat >"$TMP/bin/idlelab-fake" <<FAKE
#!/bin/sh
if [ "\$1 \$2" = "help verdict" ]; then
	echo 'usage: idlelab verdict -g BASE,NEW [-p LIST|all] [--fail-on worse|any] [-f table|csv]'
	echo
	echo '  -p, --platform LIST    platforms'
	echo '      --fail-on MODE     exit 3 when'
	echo '  -f, --format F         table or csv'
	exit 0
fi
exec '$IDLELAB' "\$@"
FAKE
chmod +x "$TMP/bin/idlelab-fake"
check "verdict --fail-on <TAB>: the values its usage spells" only "idlelab-fake verdict --fail-on " worse any
check "verdict -p al<TAB>: all, where the usage offers it" only "idlelab-fake verdict -p al" all
check "run -p al<TAB>: no all where it does not" only "idlelab run -p al"
check "verdict -f <TAB>: the formats its -f line names" only "idlelab-fake verdict -f " table csv

# Without COMP_LINE (another caller): COMP_WORDS alone.
check "COMP_WORDS alone: idlelab run -f <TAB>" sh -c "bash -c '. \"$COMPLETION\"; COMP_WORDS=(idlelab run -f \"\"); COMP_CWORD=3; _idlelab; printf \"%s \" \"\${COMPREPLY[@]}\"' | grep -q 'table tsv csv json'"
finish
