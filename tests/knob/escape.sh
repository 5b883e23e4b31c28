#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A --root tree holds: a symlink in it that leads outside (absolute, a
# relative ../../.. one, a directory link) is neither written nor read
# through. `set` fails with one line naming the file and EXDEV, the outside
# file keeps its bytes, `snapshot` and `capture` do not show its content.
# Links that stay inside the tree still work. Each case runs with openat2()
# and with the component walk used where the kernel lacks it
# (TUNETOP_TEST_NO_OPENAT2=1).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

S1=sys/devices/system/cpu/cpu0/cpuidle/state1
OUT="$TMPD/outside"
mkdir -p "$OUT"

# escape CASE: make $root's state1/disable and state1/desc (or state1
# itself) lead to files outside holding SECRET-CASE (snapshot --json shows
# an idle state's desc); $outside is the disable file
escape() {
	fresh rk3588
	case $1 in
	absolute)
		printf 'SECRET-absolute\n' >"$OUT/absolute"
		printf 'SECRET-absolute-desc\n' >"$OUT/absolute-desc"
		rm "$root/$S1/disable" "$root/$S1/desc"
		ln -s "$OUT/absolute" "$root/$S1/disable"
		ln -s "$OUT/absolute-desc" "$root/$S1/desc"
		outside="$OUT/absolute"
		;;
	relative)
		printf 'SECRET-relative\n' >"$OUT/relative"
		printf 'SECRET-relative-desc\n' >"$OUT/relative-desc"
		# 7 levels up from state1 is $root; enough more to reach / for
		# any $TMPD, then down to the outside file
		up=../../../../../../../..
		for _ in $(echo "$TMPD" | tr '/' ' '); do up="$up/.."; done
		rm "$root/$S1/disable" "$root/$S1/desc"
		ln -s "$up$OUT/relative" "$root/$S1/disable"
		ln -s "$up$OUT/relative-desc" "$root/$S1/desc"
		outside="$OUT/relative"
		;;
	directory)
		rm -rf "$OUT/state1" && cp -a "$root/$S1" "$OUT/state1"
		printf 'SECRET-directory\n' >"$OUT/state1/disable"
		printf 'SECRET-directory-desc\n' >"$OUT/state1/desc"
		rm -rf "${root:?}/$S1" && ln -s "$OUT/state1" "$root/$S1"
		outside="$OUT/state1/disable"
		;;
	esac
	cp -a "$OUT" "$TMPD/before-all"
	cp -a "$outside" "$TMPD/before"
}

for walk in 0 1; do
	export TUNETOP_TEST_NO_OPENAT2=$walk
	how=$([ "$walk" = 1 ] && echo "walk" || echo "openat2")
	for c in absolute relative directory; do
		escape "$c"
		[ -n "$root" ] && [ "$(cat "$outside")" = "SECRET-$c" ]
		ok $? "$how/$c: the outside file is in place"
		err=$(tt set cpuidle/cpu0/state1/disable=1 2>&1 >/dev/null)
		rc=$?
		is "$rc" 1 "$how/$c: set fails"
		is "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" 1 "$how/$c: with one line"
		like "$err" "$root/$S1/disable: symlink leaves the root \\(EXDEV\\)" \
			"$how/$c: naming the file and why"
		cmp -s "$outside" "$TMPD/before"
		ok $? "$how/$c: the outside file is byte for byte unchanged"
		# the cpu-sleep name of a directory link is not read either
		tt set cpuidle/cpu0/cpu-sleep/disable=1 >/dev/null 2>&1
		cmp -s "$outside" "$TMPD/before"
		ok $? "$how/$c: unchanged after set by state name too"
		snap=$(tt snapshot --interval 0 2>"$TMPD/err")
		ok $? "$how/$c: snapshot exits 0"
		snapj=$(tt snapshot --json --interval 0 2>/dev/null)
		case "$snap$snapj" in
		*SECRET*) ok 1 "$how/$c: snapshot does not read the outside file" ;;
		*) ok 0 "$how/$c: snapshot does not read the outside file" ;;
		esac
		like "$(cat "$TMPD/err")" "^tunetop snapshot: $root/$S1(/disable)?: symlink leaves the root \\(EXDEV\\); not read$" \
			"$how/$c: snapshot says which file it did not read"
		rm -rf "$TMPD/cap"
		tt capture "$TMPD/cap" >/dev/null 2>&1
		if grep -rq SECRET "$TMPD/cap" 2>/dev/null; then
			ok 1 "$how/$c: capture does not copy the outside file"
		else
			ok 0 "$how/$c: capture does not copy the outside file"
		fi
		tt restore >/dev/null 2>&1
		same_tree "$OUT" "$TMPD/before-all"
		ok $? "$how/$c: nothing outside changed"
		rm -rf "$TMPD/before-all"
	done

	# A link that stays inside the tree is followed: the file it names is
	# replaced, the link stays a link.
	fresh rk3588
	rm "$root/$S1/disable" && ln -s ../state0/disable "$root/$S1/disable"
	tt set cpuidle/cpu0/state1/disable=1 >/dev/null 2>&1
	ok $? "$how/inside: set through a link inside the tree"
	[ -L "$root/$S1/disable" ] && [ "$(cat "$root/$S1/../state0/disable")" = 1 ]
	ok $? "$how/inside: wrote the file the link names, the link is kept"
	tt restore >/dev/null 2>&1
	ok $? "$how/inside: restore"
	[ -L "$root/$S1/disable" ] && [ "$(cat "$root/$S1/../state0/disable")" = 0 ]
	ok $? "$how/inside: restored through the link"
	# cpu0/cpufreq -> ../cpufreq/policy0 (a directory link inside)
	fresh rk3588
	[ -L "$root/sys/devices/system/cpu/cpu0/cpufreq" ]
	ok $? "$how/inside: cpu0/cpufreq is a link in the fixture"
	out=$(tt snapshot --json --interval 0 2>&1 >/dev/null)
	is "$out" "" "$how/inside: snapshot of the plain fixture refuses nothing"
	tt set cpufreq/policy0/governor=performance >/dev/null 2>&1 && tt restore >/dev/null 2>&1 && pristine
	ok $? "$how/inside: set and restore of a governor leave the fixture as it was"
done
unset TUNETOP_TEST_NO_OPENAT2

# No temporary file is left next to a written file.
fresh rk3588
tt set 'cpuidle/*/cpu-sleep/disable=1' >/dev/null 2>&1
is "$(find "$root" -name '*.tunetop-*' | wc -l | tr -d ' ')" 0 "set leaves no temporary files"
tt restore >/dev/null 2>&1
pristine
ok $? "restore: the tree is as it was"
done_testing
