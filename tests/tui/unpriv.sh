#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without privileges tunetop is READ-ONLY, says why, and refuses actions
# with the reason: an unprivileged user (nobody) on a fixture it cannot
# write, and on the live machine. Also a live smoke run as the test user
# (nothing is written: no action key is pressed).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

# live, as whoever runs the tests: the screens draw (n/a where this machine
# has nothing), and q quits
tui_start live 100 30 -- --state-dir "$TMPD/live-st"
tui_wait live 'live'; ok $? "live: header says live"
tui_wait live "$CORES_HDR"; ok $? "live: cores screen draws"
tui_keys live 2
tui_wait live 'Device +Kind'; ok $? "live: clocks screen draws"
tui_keys live 3
tui_wait live 'RT bandwidth +period'; ok $? "live: rt screen draws"
tui_keys live q
tui_wait_exit live; ok $? "live: quits"
is "$(tui_status live)" 0 "live: exit status 0"

if [ "$(id -u)" -ne 0 ]; then
	# already unprivileged: the live machine must be read-only
	tui_start u 100 30 -- --state-dir "$TMPD/u-st"
	tui_wait u 'READ-ONLY'; ok $? "unprivileged live run is READ-ONLY"
	tui_wait u 'not root'; ok $? "and says why"
	tui_keys u g
	tui_wait u 'Refused: not root'; ok $? "actions are refused with the reason"
	tui_keys u q
	tui_wait_exit u
	skip "run as nobody" "the tests do not run as root"
	done_testing
	exit
fi
command -v setpriv >/dev/null 2>&1 || {
	skip "run as nobody" "setpriv missing"
	done_testing
	exit
}
chmod o+x "$TMPD"
if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$TUNETOP" 2>/dev/null; then
	skip "run as nobody" "nobody cannot execute $TUNETOP"
	done_testing
	exit
fi
root=$(copy_fixture rk3588)
chmod -R o+rX "$root"
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups env XDG_CONFIG_HOME=$TMPD/nobody-config HOME=/nonexistent"
TUNETOP_SAVED=$TUNETOP
TUNETOP="$as_nobody $TUNETOP_SAVED"
tui_start n 120 40 -- --root "$root" --state-dir "$TMPD/nobody-st"
TUNETOP=$TUNETOP_SAVED
tui_wait n 'policy4 +2x A76 +gov interactive'; ok $? "nobody: the fixture is shown"
tui_wait n ' READ-ONLY '; ok $? "nobody: header says READ-ONLY"
tui_wait n 'READ-ONLY: not root'; ok $? "nobody: status line says why"
tui_keys n Down g
tui_wait n 'Refused: not root'; ok $? "nobody: g (governor) refused with the reason"
tui_keys n i
tui_wait n 'Refused: not root'; ok $? "nobody: i (idle state) refused"
tui_keys n 3 r
tui_wait n 'Refused: not root'; ok $? "nobody: r (RT runtime) refused"
tui_keys n u
tui_wait n 'Refused: not root|Nothing to undo'; ok $? "nobody: u refused or nothing to do"
tui_keys n q
tui_wait_exit n; ok $? "nobody: quits"
is "$(tui_status n)" 0 "nobody: exit status 0"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "nobody: nothing written"

# nobody on the live machine
TUNETOP="$as_nobody $TUNETOP_SAVED"
tui_start nl 100 30 -- --state-dir "$TMPD/nobody-live-st"
TUNETOP=$TUNETOP_SAVED
tui_wait nl ' READ-ONLY '; ok $? "nobody, live: READ-ONLY"
tui_wait nl 'not root \(run with sudo'; ok $? "nobody, live: says why"
tui_keys nl q
tui_wait_exit nl; ok $? "nobody, live: quits"

done_testing
