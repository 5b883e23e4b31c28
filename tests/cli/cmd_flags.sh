#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What an entry without CMD_PRIV promises (src/cmd/table.c, doc/design.md
# §3): it makes no privileged call, so an unprivileged user who owns the
# --root tree and the state dir runs it to exit 0 with no EPERM/EACCES.
# Every command of the table (`tunetop --complete`) is either marked
# CMD_PRIV in table.c or has its run below (a new command without one
# fails here). Run as `nobody` (setpriv) when the test runs as root, else
# as the test's user.
. "$TT_SRCDIR/tests/lib.sh"

TABLE="$TT_SRCDIR/src/cmd/table.c"
# the entries whose flags name CMD_PRIV: an entry starts with {"NAME", cmd_
priv=$(awk '/^\t\{"[a-z]+", cmd_/ { split($0, a, "\""); n = a[2] }
	/CMD_PRIV/ && n != "" { print n }' "$TABLE" | sort -u | tr '\n' ' ')
like "$priv" "probe" "table.c: probe is CMD_PRIV (the awk reads the flags)"
# every command of the table, as the completion scripts have them
cmds=$("$TUNETOP" --complete bash | sed -n 's/^_tunetop_commands="\(.*\)"$/\1/p')
like "$cmds" "^snapshot watch .*exec" "the commands from tunetop --complete"

W="$TMPD/nobody"
mkdir -p "$W/state" && chmod 700 "$W/state"
root="$W/root"
cp -a "$FIXTURES/rk3588" "$root"
as=""
# tests/lib.sh asks for the monitor at nice 0 (TUNETOP_SELF_NICE): under a
# niced make the runs inherit nice 10, and going back to 0 is a lowering
# that needs CAP_SYS_NICE ("self placement: nice 0: Permission denied"), a
# privilege this test asked for, not the command. The runs start at nice 0
# (root lowers it before dropping to nobody, as tests/knob/safety.sh); a
# user who cannot asks for the nice it runs at.
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || skip_all "running as root without setpriv"
	chown -R 65534:65534 "$W"
	chmod 755 "$TMPD"
	as="nice -n $((0 - $(nice))) setpriv --reuid=65534 --regid=65534 --clear-groups --"
elif [ "$(nice)" -gt 0 ]; then
	TUNETOP_SELF_NICE=$(nice)
	export TUNETOP_SELF_NICE
fi
P="$TT_SRCDIR/profiles/rk3588-npu.profile"
# run CMD ARGS...: tunetop as the unprivileged user on the owned copy
run() { $as env HOME="$W" "$TUNETOP" --root "$root" --state-dir "$W/state" -q "$@"; }
run snapshot --json -i 0 >"$W/snap.json" 2>/dev/null

for c in $cmds; do
	case " $priv " in *" $c "*) continue ;; esac
	expect=0
	case "$c" in
	snapshot) set -- snapshot -i 0 ;;
	watch) set -- watch -i 10 -n 2 ;;
	capture) set -- capture "$W/cap" ;;
	serve) set -- serve --listen 127.0.0.1:0; expect=124 ;; # runs until stopped
	events) set -- events ;;
	explain) set -- explain cpufreq/policy0/governor ;;
	report) set -- report "$W/snap.json" ;;
	learn) set -- learn ;;
	world) set -- world --list ;;
	why) set -- why "$FIXTURES/why/higher-prio.events" ;;
	knobs) set -- knobs ;;
	get) set -- get cpufreq/policy0/governor ;;
	set) set -- set cpufreq/policy0/governor=performance ;;
	apply) set -- apply "$P" ;;
	undo) set -- undo ;;
	restore) set -- restore ;;
	journal) set -- journal ;;
	*) ok 1 "$c: no CMD_PRIV in table.c and no unprivileged run here (add one)"; continue ;;
	esac
	if [ "$c" = serve ]; then
		err=$($as env HOME="$W" timeout 1 "$TUNETOP" --root "$root" --state-dir "$W/state" \
			-q "$@" 2>&1 >/dev/null)
	else
		err=$(run "$@" 2>&1 >/dev/null)
	fi
	rc=$?
	is "$rc" "$expect" "$c: runs unprivileged ($*)"
	unlike "$err" "EPERM|EACCES|[Pp]ermission denied|needs root" "$c: no privilege refused"
done
done_testing
