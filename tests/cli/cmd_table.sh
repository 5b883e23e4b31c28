#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The command table (src/cmd/table.c) is the one source of the help: every
# command `tunetop --help` lists answers `CMD --help` with exit 0, lines of
# at most 80 columns and one line per option; every option its parser
# accepts (the table's rows through cmd_getopt, exec's own parser) is
# listed, and every listed option is one it accepts and handles. The man page's synopsis and
# the completion scripts name exactly the table's commands, and the man
# page's synopsis of each command names the options of its usage lines.
# Exit codes as the man page's EXIT STATUS says (explain NOSUCH: 2).
. "$TT_SRCDIR/tests/lib.sh"

FIX="$FIXTURES/rk3588"
MAN="$TT_SRCDIR/man/tunetop.8"
T() { timeout 20 "$TUNETOP" --root "$FIX" "$@"; }

help=$("$TUNETOP" --help); ok $? "tunetop --help exits 0"
is "$(printf '%s\n' "$help" | awk 'length($0) > 80' | head -3)" "" "tunetop --help: no line over 80 columns"
cmds=$(printf '%s\n' "$help" | sed -n 's/^  tunetop \([a-z][a-z]*\).*/\1/p' | awk '!s[$0]++' | tr '\n' ' ')
like "$cmds" "^snapshot .*exec " "tunetop --help lists the commands ($(echo $cmds | wc -w))"

# opts_of: the options a --help's "Options:" lines name ("  -i, --interval MS  ...")
opts_of() {
	sed -n '/^Options:$/,$p' | sed -n 's/^  \(-[^ ].*\)/\1/p' | sed 's/  .*//; s/ [A-Z][A-Za-z:]*$//' |
		tr ',' '\n' | sed 's/^ *//; s/\[=.*//; s/ .*//' | grep -v -- '^--\?h\(elp\)\?$' | sort -u
}
# src_opts CMD: the options CMD's parser accepts besides the table's (the
# getopt commands parse through cmd_getopt(), whose options are the table's
# rows: none of their own; exec's own parser: its literals), one per line
src_opts() {
	if [ "$1" = exec ]; then
		grep -o '"--\?[a-z][a-z-]*"' "$TT_SRCDIR/src/cmd/cmd_exec.c" | tr -d '"' | grep '^-'
	fi | grep -v -- '^--\?h\(elp\)\?$' | sort -u
}
# taken CMD OPT [ARG]: the command's switch handles what cmd_getopt returns
# for OPT (its --help is reached, or a complaint names the option's value),
# not its default case (the usage, "unknown option")
taken() {
	c=$1
	shift
	T "$c" "$@" --help >/dev/null 2>"$TMPD/t.err" && return 0
	! head -1 "$TMPD/t.err" | grep -q -i '^usage:\|unknown option\|unrecognized option\|invalid option'
}
long=""
unlisted=""
unaccepted=""
for c in $cmds; do
	"$TUNETOP" "$c" --help >"$TMPD/h.$c" 2>"$TMPD/e.$c"
	rc=$?
	[ $rc -eq 0 ] && [ -s "$TMPD/h.$c" ] && [ ! -s "$TMPD/e.$c" ] || long="$long $c(rc=$rc)"
	awk -v c="$c" 'length($0) > 80 { print c ": " $0 }' "$TMPD/h.$c" >>"$TMPD/long"
	listed=$(opts_of <"$TMPD/h.$c" | tr '\n' ' ')
	src=$(src_opts "$c" | tr '\n' ' ')
	for o in $src; do
		case " $listed " in *" $o "*) continue ;; esac
		unlisted="$unlisted $c:$o"
	done
	if [ "$c" = exec ]; then
		for o in $listed; do
			case " $src " in *" $o "*) continue ;; esac
			unaccepted="$unaccepted $c:$o"
		done
		continue
	fi
	# each Options: line, with a value when it names one ("--interval MS"):
	# all at once first (one run), one by one when that stops early
	sed -n '/^Options:$/,$p' "$TMPD/h.$c" | sed -n 's/^  \(-[^ ].*\)/\1/p' | sed 's/  .*//' |
		grep -v '^-h,' | while read -r line; do
		o=$(printf '%s\n' "$line" | sed 's/^-[a-zA-Z], //; s/[ [].*//')
		[ "$o" = --csv ] && continue # not with --json: taken on its own
		echo "$o"
		case $line in
		*" "[A-Z]*) case $o in # a value its check accepts, so that one run takes all
			--policy) echo fifo ;; --primary) echo p99 ;; --record-format) echo auto ;;
			*) echo 100 ;;
			esac ;;
		esac
	done >"$TMPD/o.$c"
	# shellcheck disable=SC2046 # one word a line
	if grep -q -- ', --csv' "$TMPD/h.$c"; then
		taken "$c" --csv || unaccepted="$unaccepted $c:--csv"
	fi
	T "$c" $(cat "$TMPD/o.$c") --help >/dev/null 2>&1 && continue
	while read -r o; do
		case $o in -*) ;; *) continue ;; esac
		case $(grep -A1 -x -- "$o" "$TMPD/o.$c" | sed -n 2p) in
		-* | "") set -- ;;
		*) set -- 1 ;;
		esac
		taken "$c" "$o" "$@" || unaccepted="$unaccepted $c:$o"
	done <"$TMPD/o.$c"
done
# no command but exec parses with an option table of its own
is "$(grep -l 'struct option\|getopt_long(' "$TT_SRCDIR"/src/cmd/cmd_*.c | tr '\n' ' ')" "" \
	"the commands parse through cmd_getopt (no struct option of their own)"
is "${long# }" "" "every CMD --help exits 0 with its help on stdout"
is "$(cat "$TMPD/long" 2>/dev/null)" "" "every CMD --help: no line over 80 columns"
is "${unlisted# }" "" "every option a command's parser accepts is on a line of its --help"
is "${unaccepted# }" "" "every option a --help lists is one its parser accepts (and its switch handles)"
# and at run time, a few: listed options are taken, others refused
T snapshot --stable --help >/dev/null 2>&1; is $? 0 "snapshot --stable --help: taken"
T undo -n 1 --help >/dev/null 2>&1; is $? 0 "undo -n 1 --help: taken"
T exec --dry-run --help >/dev/null 2>&1; is $? 0 "exec --dry-run --help: taken"
T capture --json x >/dev/null 2>&1; is $? 2 "capture --json: refused (capture has no options)"
like "$(opts_of <"$TMPD/h.probe" | tr '\n' ' ')" "--cpus .*--rpmsg-timeout-ms" "probe --help: one line per option"
is "$(grep -c -- '--interval' "$TMPD/h.probe")" 1 "probe --help: --interval on one line"

# ---- the man page's synopsis: the same commands, each form's options --------
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g; s/\\f[BIRP]//g' >"$TMPD/syn"
mcmds=$(sed -n 's/^tunetop \([a-z][a-z]*\).*/\1/p' "$TMPD/syn" | awk '!s[$0]++' | sort | tr '\n' ' ')
is "$mcmds" "$(echo $cmds | tr ' ' '\n' | sort | tr '\n' ' ')" "the man page's SYNOPSIS lists exactly the table's commands"
# each command's synopsis options: man page block vs the usage lines of --help
drift=""
for c in $cmds; do
	awk -v c="$c" '$1 == "tunetop" { on = ($2 == c) } on && /^ *(tunetop|\[)/ { print }' "$TMPD/syn" |
		grep -o -- '--[a-z][a-z-]*' | sort -u >"$TMPD/m.$c"
	sed '/^Options:$/,$d' "$TMPD/h.$c" | sed -n '1p; /^  *\(tunetop\|\[\)/p' |
		grep -o -- '--[a-z][a-z-]*' | sort -u >"$TMPD/u.$c"
	cmp -s "$TMPD/m.$c" "$TMPD/u.$c" ||
		drift="$drift $c:$(diff "$TMPD/m.$c" "$TMPD/u.$c" | sed -n 's/^\([<>]\) /\1/p' | tr '\n' ',')"
done
is "${drift# }" "" "the man page's synopsis of each command names the options of its usage (< man, > --help)"

# ---- completion scripts: exactly the table's commands ------------------------
bc=$(sed -n 's/^_tunetop_commands="\(.*\)"/\1/p' "$(dirname "$TUNETOP")/contrib/completion/tunetop.bash" | tr ' ' '\n' | sort | tr '\n' ' ')
is "$bc" "$mcmds" "bash completion: exactly the table's commands"
zc=$(sed -n "s/^ *'\([a-z]*\):.*/\1/p" "$(dirname "$TUNETOP")/contrib/completion/_tunetop" | sort | tr '\n' ' ')
is "$zc" "$mcmds" "zsh completion: exactly the table's commands"
# (tests/cli/completion.sh: every option of every CMD --help is completed)

# ---- exit codes (man page, EXIT STATUS) --------------------------------------
T explain NOSUCH >/dev/null 2>"$TMPD/err"; is $? 2 "explain NOSUCH: exit 2 (unknown address)"
is "$(head -1 "$TMPD/err")" "tunetop explain: no entry for 'NOSUCH' (see tunetop explain --list)" "explain NOSUCH: one line naming it"
T explain cpufreq/policy0/governor >/dev/null 2>&1; is $? 0 "explain ADDRESS: exit 0"
T get nosuch/knob >/dev/null 2>&1; is $? 2 "get nosuch/knob: exit 2 (unknown address)"
T set --dry-run cpufreq/policy0/governor=bogus >/dev/null 2>&1; is $? 2 "set VALUE not allowed: exit 2"
"$TUNETOP" frobnicate >/dev/null 2>&1; is $? 2 "unknown command: exit 2"
T events --bogus >/dev/null 2>"$TMPD/err"; is $? 2 "unknown option: exit 2"
like "$(head -1 "$TMPD/err")" "^tunetop events: unrecognized option '--bogus'" "getopt's message carries the command's prefix"
like "$(sed -n 2p "$TMPD/err")" "^usage: tunetop events " "then the usage from the table"
T get >/dev/null 2>"$TMPD/err"; is $? 2 "get without PATTERN: exit 2"
is "$(head -1 "$TMPD/err")" "usage: tunetop get PATTERN..." "its usage from the table"
done_testing
