#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One list of knob families (issue 33): outside the registry
# (src/knob/registry.c) and the family files (src/knob/fam_*.c) no code
# compares a family name - no strcmp(family, ...) or strcmp(d->fam...), no
# address prefix compare like str_starts(addr, "cpufreq/"), no list of
# family prefixes {"cpufreq/", "cpuidle/", ...}. The names come from the
# registry itself. A line that compares something else spelled like a
# family (a thread's comm "irq/35-eth0") says so with "not a knob address".
# The checker runs on a copy with planted violations, so it can be seen to
# fail.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

# check SRC: prints "FILE:LINE:..." for every family compare outside the
# registry; exit status 1 if there is one.
check() {
	f=$(knob_families "$1" | sort -u | tr '\n' '|' | sed 's/|$//')
	[ -n "$f" ] || { echo "no families in $1/knob/registry.c"; return 1; }
	out=$(grep -rnE "str(n)?(case)?cmp\([^;]*\"($f)/|str_starts\([^;]*\"($f)/\"|\"($f)/\"[[:space:]]*,[[:space:]]*\"($f)/\"|str(n)?(case)?cmp\(([^;]*[^a-z_])?(fam|family)\b" \
		"$1" --include='*.[ch]' |
		grep -vE "^$1/knob/(fam_[a-z_]+|registry)\.c:" | grep -v 'not a knob address')
	[ -n "$out" ] && { printf '%s\n' "$out"; return 1; }
	return 0
}

fams=$(knob_families "$TT_SRCDIR/src" | sort -u | tr '\n' ' ')
like "$fams" "cpufreq .*workqueue" "the families come from the registry: $fams"
out=$(check "$TT_SRCDIR/src")
is "$?" 0 "no family-name compare outside src/knob/registry.c and src/knob/fam_*.c"
[ -n "$out" ] && diag "$(printf '%s' "$out" | head -5)"

# the checker catches what it should
mkdir -p "$TMPD/src/knob" "$TMPD/src/cmd" "$TMPD/src/model"
cp "$TT_SRCDIR/src/knob/registry.c" "$TMPD/src/knob/"
printf 'static int f(const char *a) { return knob_is_assignment(a); }\n' >"$TMPD/src/cmd/ok.c"
printf 'if (!strncmp(comm, "irq/", 4)) /* a thread name, not a knob address */\n' >"$TMPD/src/model/comm.c"
printf 'if (!strcmp(d->family, "cpufreq")) return 1;\n' >"$TMPD/src/knob/fam_cpufreq.c"
check "$TMPD/src" >/dev/null
is "$?" 0 "a clean planted tree passes (a family file may compare its own name)"
plant() { # plant FILE LINE DESCRIPTION: the check fails on it and names it
	printf '%s\n' "$2" >"$TMPD/src/$1"
	out=$(check "$TMPD/src")
	is "$?" 1 "planted: $3"
	like "$out" "src/$1:1:" "  and names $1:1"
	rm "$TMPD/src/$1"
}
plant cmd/bad1.c 'static const char *const fam[] = {"cpufreq/", "cpuidle/", "mm/"};' \
	"a list of family prefixes (cmd_exec.c's old list)"
plant knob/bad2.c '	bool cpufreq = !strcmp(it->ref.def->family, "cpufreq");' \
	"strcmp(def->family, ...) in effect.c"
plant model/bad3.c '	if (!strncmp(addr, "thread/", 7))' "an address prefix compare"
plant knob/bad4.c '	if (str_starts(a, "workqueue/"))' "str_starts on a family prefix"
plant knob/bad5.c '	if (!strcmp(fam, name))' "strcmp(fam, ...)"
done_testing
