#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Effect verification (issue 21) on the live machine, acting only on what
# this test starts: a busy loop's affinity and nice, verified from its
# /proc stat and sched_getattr. Then, in the emulated haltpoll host
# (tests/hostshape.sh: a temporary tree bind-mounted over
# /sys/devices/system/cpu in a private mount namespace, never the real
# /sys), a background emulated kernel that ignores per-state disable under
# the haltpoll governor and honours it under menu: the disable is reported
# not in effect, naming haltpoll, and verified once the governor is menu.
. "$TT_SRCDIR/tests/lib.sh"

tt() { "$TUNETOP" "$@"; }

# jfield ADDR FIELD [FILE]: FIELD of the journal --json entries for ADDR
jfield() {
	awk -v a="\"address\": \"$1\"," -v f="\"$2\": " '
		index($0, a) { on = 1 }
		on && index($0, f) { sub(/^[^:]*: /, ""); sub(/,$/, ""); print; on = 0 }' "$3"
}

# ---- a thread of our own
sh -c 'while :; do :; done' &
pid=$!
tt journal --json >/dev/null 2>&1

out=$(tt set --verify 1000 "thread/$pid/affinity=0" 2>&1)
ok $? "set thread/$pid/affinity=0"
like "$out" "^effect: thread/$pid/affinity: verified: ran [0-9]+ times in [0-9.]+ s, last on CPU 0" \
	"affinity verified: it ran, last on CPU 0"
like "$(taskset -p "$pid" 2>&1)" 'current affinity mask: 1$' "taskset shows mask 1"

out=$(tt set --verify 1000 "thread/$pid/nice=5" 2>&1)
ok $? "set thread/$pid/nice=5"
like "$out" "^effect: thread/$pid/nice: verified: sched_getattr reports 5" "nice verified by sched_getattr"
tt journal --json >"$TMPD/j.json" 2>&1
is "$(jfield "thread/$pid/affinity" effect "$TMPD/j.json")" '"verified"' "journal --json: affinity verified"
is "$(jfield "thread/$pid/nice" effect "$TMPD/j.json")" '"verified"' "journal --json: nice verified"

tt restore >/dev/null 2>&1
ok $? "restore"
is "$(ps -o ni= -p "$pid" | tr -d ' ')" 0 "nice back to 0"
like "$(taskset -p "$pid" 2>&1)" "current affinity mask: $(taskset -p $$ | sed 's/.*: //')\$" "affinity back"
kill "$pid"
wait "$pid" 2>/dev/null

# ---- the emulated haltpoll host
if ! sh "$TT_SRCDIR/tests/hostshape.sh" run haltpoll true >/dev/null 2>&1; then
	skip "haltpoll host: disable not in effect, verified under menu" "needs root and unshare"
	done_testing
	exit
fi

O=$TMPD/hp
mkdir -p "$O"
cat >"$TMPD/haltpoll.sh" <<'EOF'
# runs in the namespace: /sys/devices/system/cpu is the generated tree
C=/sys/devices/system/cpu
O=$1
export TUNETOP_STATE_DIR="$O/state"
grep -qw menu "$C/cpuidle/available_governors" ||
	printf '%s menu\n' "$(cat "$C/cpuidle/available_governors")" >"$C/cpuidle/available_governors"
# the kernel: haltpoll enters state1 whatever its disable says; menu
# enters state1 only while it is enabled, else POLL (state0). The kernel
# switches governors synchronously (every CPU leaves idle first), so each
# CPU's step reads the governor and bumps the counter with builtins only
# (no fork between the two), in place as sysfs shows a counter: tunetop
# keeps the live root's files open (pread at offset 0), and a counter never
# gets shorter.
(
	i=0
	while [ "$i" -lt 6000 ] && [ ! -e "$O/stop" ]; do
		for d in "$C"/cpu[0-9]*/cpuidle; do
			read -r gov <"$C/cpuidle/current_governor"
			s=state1
			if [ "$gov" != haltpoll ]; then
				read -r dis <"$d/state1/disable"
				[ "$dis" = 1 ] && s=state0
			fi
			read -r u <"$d/$s/usage"
			printf '%s\n' $((u + 3)) 1<>"$d/$s/usage"
		done
		i=$((i + 1))
		sleep 0.05
	done
) &
k=$!
cat "$C/cpuidle/current_governor" >"$O/gov_before"
"$TUNETOP" set --verify 1500 'cpuidle/*/state1/disable=1' >"$O/set1" 2>&1
echo $? >"$O/set1.rc"
"$TUNETOP" knobs --json cpuidle/cpu1/state1/disable >"$O/knobs" 2>&1
"$TUNETOP" set --verify 1500 cpuidle/governor=menu >"$O/set2" 2>&1
echo $? >"$O/set2.rc"
"$TUNETOP" journal --json >"$O/journal" 2>&1
"$TUNETOP" restore >"$O/restore" 2>&1
echo $? >"$O/restore.rc"
cat "$C/cpuidle/current_governor" >"$O/gov_after"
cat "$C"/cpu[0-9]*/cpuidle/state1/disable | sort -u | tr '\n' ' ' >"$O/dis_after"
touch "$O/stop"
wait "$k"
EOF
sh "$TT_SRCDIR/tests/hostshape.sh" run haltpoll sh "$TMPD/haltpoll.sh" "$O"
is "$?" 0 "the haltpoll host ran"
rd() { cat "$O/$1" 2>/dev/null; }
is "$(rd gov_before)" haltpoll "the emulated host's governor is haltpoll"
is "$(rd set1.rc)" 0 "set 'cpuidle/*/state1/disable=1': exit 0"
like "$(rd set1)" "^warning: cpuidle/cpu1/state1/disable=1 is not in effect: haltpoll idle \(state1\) entered [0-9]+ times on CPU 1 .*the haltpoll cpuidle governor ignores per-state disable: set cpuidle/governor=menu" \
	"the warning says state1 was entered and names haltpoll"
like "$(rd knobs)" '"effect": "not_seen"' "knobs --json: not_seen"
like "$(rd knobs)" '"effect_evidence": "[^"]*(usage|entered)' "knobs --json: the evidence"
is "$(rd set2.rc)" 0 "set cpuidle/governor=menu: exit 0"
like "$(rd set2)" '^effect: cpuidle/cpu1/state1/disable: verified: ' "the disables re-watched: verified"
is "$(jfield cpuidle/cpu0/state1/disable effect "$O/journal")" '"verified"' "journal --json: cpu0 disable verified"
is "$(jfield cpuidle/cpu1/state1/disable effect "$O/journal")" '"verified"' "journal --json: cpu1 disable verified"
is "$(rd restore.rc)" 0 "restore"
is "$(rd gov_after)" haltpoll "restore: governor haltpoll again"
is "$(rd dis_after)" "0 " "restore: every state1 enabled again"
[ -n "$(rd set1)" ] || diag "$(ls "$O")"
done_testing
