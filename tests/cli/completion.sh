#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Shell completion (contrib/completion): bash's COMPREPLY for commands,
# options, profiles, themes and knob addresses read from a --root fixture;
# every command and option that `tunetop --help` / `tunetop CMD --help` names
# is completed by bash and listed in the zsh function (drift); zsh: syntax,
# and the function run with stub completion builtins.
. "$TT_SRCDIR/tests/lib.sh"

BASHC="$(dirname "$TUNETOP")/contrib/completion/tunetop.bash" # built from its .in
ZSHC="$(dirname "$TUNETOP")/contrib/completion/_tunetop"
FIX="$FIXTURES/rk3588"
command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"

# comp WORD... : COMPREPLY (sorted, one line, space-separated) when the last
# WORD is being completed on the line "$TUNETOP WORD..."
comp() {
	bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tunetop
		printf "%s\n" "${COMPREPLY[@]}"' "$BASHC" "$TUNETOP" "$@" 2>&1 |
		sort -u | tr '\n' ' ' | sed 's/ $//'
}
# help_opts: the options a --help text on stdin names: in its usage lines
# (the first and the indented ones after it, and "  tunetop [" lines) and at
# the start of its option lines ("  -i, --interval US   ..."), not in prose
help_opts() {
	awk 'NR == 1 || (cont && /^       /) { print; cont = 1; next } { cont = 0 }
		/^  tunetop \[/ { print; next }
		/^ {1,6}-/ { sub(/^ +/, ""); sub(/  .*/, ""); print }' |
		grep -oE -- '(^|[][ |,])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[][ |,]*//' | sort -u
}
# zsh_opts CMD: the options _tunetop lists for CMD, and the global ones
zsh_opts() {
	sed -n -e "s/^ *$1) cmd_opts=(\(.*\)) ;;\$/\1/p" -e 's/^ *global_opts=(\(.*\))$/\1/p' "$ZSHC" |
		tr '\n' ' '
}
# has LIST WORD: is WORD one of LIST's space-separated words?
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }

bash -n "$BASHC"
ok $? "tunetop.bash parses (bash -n)"
out=$(bash -c '. "$0"; complete -p tunetop' "$BASHC")
is "$out" "complete -F _tunetop tunetop" "it registers _tunetop for tunetop"

# ---- commands and options --------------------------------------------------
help_cmds=$("$TUNETOP" --help | sed -n 's/^  tunetop \([a-z][a-z]*\).*/\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//')
like "$help_cmds" "apply.*set.*snapshot" "tunetop --help lists commands ($(echo $help_cmds | wc -w))"
got=$(comp "")
is "$got" "$help_cmds" "after 'tunetop ': exactly the commands of tunetop --help"
is "$(comp se)" "serve set" "after 'tunetop se': serve set"
is "$(comp --root "$FIX" kn)" "knobs" "commands after a global option with its argument"

# every option a command's --help names is completed after 'tunetop CMD -'
# (and listed in the zsh function)
missing=""
zmissing=""
for c in $help_cmds; do
	opts=$("$TUNETOP" "$c" --help 2>&1 | help_opts)
	got=$(comp "$c" -)
	zgot=$(zsh_opts "$c")
	for o in $opts; do
		has "$got" "$o" || missing="$missing $c:$o"
		has "$zgot" "$o" || zmissing="$zmissing $c:$o"
	done
	grep -qE "^ +'$c:" "$ZSHC" || zmissing="$zmissing $c"
done
is "${missing# }" "" "bash completes every option of every 'tunetop CMD --help'"
is "${zmissing# }" "" "zsh lists every command and option"
# the global options and the monitor's (tunetop --help)
gopts=$("$TUNETOP" --help | help_opts)
like "$(echo $gopts)" "--demo.*--root" "tunetop --help names the global and the monitor's options"
got=$(comp -)
missing=""
for o in $gopts; do has "$got" "$o" || missing="$missing $o"; done
is "${missing# }" "" "bash completes every option of tunetop --help after 'tunetop -'"
got=$(comp watch --)
missing=""
for o in --json --csv --counters --events --record --record-format --root; do
	has "$got" "$o" || missing="$missing $o"
done
is "${missing# }" "" "after 'tunetop watch --': its options and the global ones"
unlike "$got" "(^| )(--list|--dry-run|--demo)( |$)" "but not other commands' options"
is "$(comp watch --record-format "")" "auto json zstd" "--record-format values"
is "$(comp probe --policy "")" "fifo other rr" "--policy values"
is "$(comp --screen cl)" "clocks" "--screen names"

# ---- profiles and themes ---------------------------------------------------
want=$("$TUNETOP" apply --list | awk '/^[^ \t]/ { print $1 }' | sort -u | tr '\n' ' ' | sed 's/ $//')
like "$want" "rt-latency" "apply --list names the profiles"
is "$(comp apply "")" "$want" "after 'tunetop apply ': the profiles"
is "$(comp apply rk)" "rk3588-bigcores rk3588-npu" "after 'tunetop apply rk': those starting with rk"
is "$(comp exec -p rt)" "rt-latency" "after 'tunetop exec -p rt': the profile"
got=$(comp --theme "")
missing=""
for t in default monochrome $(cd "$TT_SRCDIR/themes" && ls *.theme | sed 's/\.theme$//'); do
	has "$got" "$t" || missing="$missing $t"
done
is "${missing# }" "" "after '--theme ': the built-in and installed themes ($got)"
mkdir -p "$TMPD/themes"
: >"$TMPD/themes/mine.theme"
got=$(TUNETOP_THEMES_DIR="$TMPD/themes" comp --theme mi)
is "$got" "mine" "and those of TUNETOP_THEMES_DIR"

# ---- knob addresses from the --root fixture --------------------------------
is "$(comp --root "$FIX" set cpufreq/pol)" "cpufreq/policy0/ cpufreq/policy4/ cpufreq/policy6/" \
	"'tunetop --root rk3588 set cpufreq/pol': the policies, one segment at a time"
is "$(comp --root="$FIX" set cpufreq/pol)" "cpufreq/policy0/ cpufreq/policy4/ cpufreq/policy6/" \
	"the same with --root=DIR"
is "$(comp set --root "$FIX" cpufreq/pol)" "cpufreq/policy0/ cpufreq/policy4/ cpufreq/policy6/" \
	"and with --root after the command"
want=$("$TUNETOP" --root "$FIX" knobs | awk 'NR > 1 && $1 ~ /^cpuidle\// { split($1, p, "/"); print (p[3] == "" ? $1 "=" : p[1] "/" p[2] "/") }' |
	sort -u | tr '\n' ' ' | sed 's/ $//')
like "$want" "cpuidle/cpu0/ .*cpuidle/cpu7/ cpuidle/governor=" "tunetop knobs lists cpuidle addresses on rk3588"
is "$(comp --root "$FIX" set cpuidle/)" "$want" "'set cpuidle/': the CPUs and cpuidle/governor="
is "$(comp --root "$FIX" set cpuidle/cpu3/state1/d)" "cpuidle/cpu3/state1/disable=" \
	"a whole address for set ends in ="
is "$(comp --root "$FIX" get cpufreq/policy4/gov)" "cpufreq/policy4/governor" "and not for get"
is "$(comp --root "$FIX" set cpufreq/policy0/governor=perf)" "cpufreq/policy0/governor=performance" \
	"ADDRESS=VALUE: the values tunetop knobs allows"
is "$(comp --root "$FIX" set cpufreq/policy0/governor = "")" \
	"conservative interactive ondemand performance powersave schedutil userspace" \
	"the same when bash split the word at ="
is "$(comp --root "$TMPD/no-such-root" set cpufreq/)" "" "no addresses from a root without knobs"

# ---- zsh ------------------------------------------------------------------
if ! command -v zsh >/dev/null 2>&1; then
	skip "_tunetop parses (zsh -n)" "zsh is not installed"
	skip "zsh completes commands, profiles and knob addresses" "zsh is not installed"
else
	zsh -n "$ZSHC"
	ok $? "_tunetop parses (zsh -n)"
	# zcomp WORD...: what _tunetop offers for the last WORD, with the
	# completion builtins replaced by stubs that print their candidates
	zcomp() {
		zsh -f -c '
			compadd() { local -a a; while (( $# )); do case $1 in
				--) shift; a+=("$@"); break ;;
				-a) shift; a+=("${(@P)1}"); shift ;;
				-[SPJVXx]) shift 2 ;; -*) shift ;; *) a+=("$1"); shift ;; esac; done
				print -l -- ${(M)a:#${PREFIX}*}; }
			_describe() { print -l -- ${(M)${${(P)${@[-1]}}%%:*}:#${PREFIX}*}; }
			_multi_parts() { print -l -- ${(M)${(P)${@[-1]}}:#${PREFIX}*}; }
			compset() { PREFIX=${PREFIX#*=}; }
			_message() { :; }; _files() { :; }; _directories() { :; }; _normal() { :; }
			words=("$@"); CURRENT=$#; PREFIX=${words[-1]}
			. "$0"' "$ZSHC" "$TUNETOP" "$@" 2>&1 | sort -u | tr '\n' ' ' | sed 's/ $//'
	}
	is "$(zcomp "")" "$help_cmds" "zsh: the commands after 'tunetop '"
	is "$(zcomp apply rt)" "rt-latency" "zsh: profiles after 'tunetop apply rt'"
	like "$(zcomp --root "$FIX" set cpufreq/pol)" "^cpufreq/policy0/governor .*cpufreq/policy6/" \
		"zsh: knob addresses of the --root fixture"
	is "$(zcomp watch --record-format "")" "auto json zstd" "zsh: --record-format values"
fi
done_testing
