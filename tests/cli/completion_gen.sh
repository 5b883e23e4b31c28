#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The completion scripts are generated (issue 33): the build puts
# `tunetop --complete bash|zsh` (the command table, the knob family registry)
# into contrib/completion/*.in at their "# @GENERATED@" line. The templates
# list no command, option or family by hand; the built scripts name exactly
# the commands of `tunetop --help` and the families of src/knob/registry.c,
# so a command or family added to a table is completed without touching the
# scripts; a planted mismatch (a command or family missing) is caught; both
# shells complete a family whose objects `tunetop knobs` does not list.
. "$TT_SRCDIR/tests/lib.sh"

IN="$TT_SRCDIR/contrib/completion"
OUT="$TT_BUILDDIR/contrib/completion"

# the built script is the template with the binary's words at the marker
for sh in bash zsh; do
	case $sh in bash) t=tunetop.bash ;; zsh) t=_tunetop ;; esac
	"$TUNETOP" --complete $sh >"$TMPD/words.$sh"
	ok $? "tunetop --complete $sh exits 0"
	is "$(grep -c '^# @GENERATED@$' "$IN/$t.in")" 1 "$t.in has one # @GENERATED@ line"
	sed -e "/^# @GENERATED@\$/{r $TMPD/words.$sh" -e 'd;}' "$IN/$t.in" >"$TMPD/$t"
	cmp -s "$TMPD/$t" "$OUT/$t"
	ok $? "the built $t is $t.in with tunetop --complete $sh at that line"
done
"$TUNETOP" --complete fish >/dev/null 2>&1
is $? 2 "tunetop --complete fish: exit 2"

# the templates list nothing the tables hold
# (their code, not comments)
is "$(grep -hvE '^[[:space:]]*#' "$IN/tunetop.bash.in" "$IN/_tunetop.in" |
	grep -cE '_tunetop_commands=|^ *(snapshot|exec)\)|workqueue|cpufreq/')" 0 \
	"the .in files list no command, option or family"

help_cmds=$("$TUNETOP" --help | sed -n 's/^  tunetop \([a-z][a-z]*\).*/\1/p' | sort -u | tr '\n' ' ')
fams=$(grep -o '&fam_[a-z_]*' "$TT_SRCDIR/src/knob/registry.c" | sed 's|&fam_\(.*\)|\1/|' | sort -u | tr '\n' ' ')
like "$fams" "cpufreq/ .*workqueue/" "src/knob/registry.c registers the families ($(echo $fams | wc -w))"

# drift SCRIPT SHELL: what SCRIPT's commands and families differ in from
# tunetop --help and the registry ("" when none)
drift() {
	if [ "$2" = bash ]; then
		c=$(sed -n 's/^_tunetop_commands="\(.*\)"$/\1/p' "$1")
		f=$(sed -n 's/^_tunetop_families="\(.*\)"$/\1/p' "$1")
	else
		c=$(sed -n "s/^ *'\([a-z]*\):.*/\1/p" "$1")
		f=$(sed -n 's/^_tunetop_families=(\(.*\))$/\1/p' "$1")
	fi
	c=$(echo $c | tr ' ' '\n' | sort -u | tr '\n' ' ')
	f=$(echo $f | tr ' ' '\n' | sort -u | tr '\n' ' ')
	[ "$c" = "$help_cmds" ] || echo "commands: [$c] vs [$help_cmds]"
	[ "$f" = "$fams" ] || echo "families: [$f] vs [$fams]"
}
is "$(drift "$OUT/tunetop.bash" bash)" "" "bash: exactly the commands of tunetop --help and the registry's families"
is "$(drift "$OUT/_tunetop" zsh)" "" "zsh: the same"
# planted: a command and a family the tables do not have, one they have gone
sed 's/^_tunetop_commands="\(.*\)"/_tunetop_commands="\1 frobnicate"/' "$OUT/tunetop.bash" >"$TMPD/p1"
like "$(drift "$TMPD/p1" bash)" "^commands:" "planted: an extra command is caught"
sed 's|workqueue/||' "$OUT/tunetop.bash" >"$TMPD/p2"
like "$(drift "$TMPD/p2" bash)" "^families:" "planted: a missing family is caught"
grep -v "^ *'journal:" "$OUT/_tunetop" >"$TMPD/p3"
like "$(drift "$TMPD/p3" zsh)" "^commands:" "planted: a command missing in zsh is caught"

# a family with no objects on the fixture (thread/<tid>) is completed too
command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"
got=$(bash -c '. "$0"; COMP_WORDS=(tunetop --root "$1" set thr); COMP_CWORD=4; _tunetop
	printf "%s\n" "${COMPREPLY[@]}"' "$OUT/tunetop.bash" "$FIXTURES/rk3588" 2>&1 | tr '\n' ' ')
is "$got" "thread/ " "bash: 'set thr' completes the family thread/ (from the registry)"
got=$(bash -c '. "$0"; COMP_WORDS=(tunetop exec wo); COMP_CWORD=2; _tunetop
	printf "%s\n" "${COMPREPLY[@]}"' "$OUT/tunetop.bash" 2>&1 | tr '\n' ' ')
is "$got" "workqueue/ " "bash: 'exec wo' completes workqueue/"
if command -v zsh >/dev/null 2>&1; then
	got=$(zsh -f -c '
		compadd() { :; }; _describe() { :; }; _message() { :; }
		_multi_parts() { print -l -- ${(M)${(P)${@[-1]}}:#${PREFIX}*}; }
		words=("$@"); CURRENT=$#; PREFIX=${words[-1]}
		. "$0"' "$OUT/_tunetop" "$TUNETOP" --root "$FIXTURES/rk3588" set thr 2>&1 | tr '\n' ' ')
	is "$got" "thread/ " "zsh: 'set thr' completes the family thread/"
else
	skip "zsh: 'set thr' completes the family thread/" "zsh is not installed"
fi
done_testing
