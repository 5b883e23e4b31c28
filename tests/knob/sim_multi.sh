#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The world switches of several files (issue 35, src/knob/sim_kind.c): a
# reboot with another command line (sim/board/cmdline: proc/cmdline and
# the isolated and nohz_full CPUs the kernel derives from it) and a
# process stopped (sim/load/stress-ng: the state letter of its stat and
# status files and its task's) are each ONE knob: one journal entry, made
# before the write, whose undo puts every file back byte for byte, also
# after the writer was killed half way (TUNETOP_TEST_FAULT=...=KILL) or a
# file refused its write (the others rolled back). Refused off-world.
# (sim/board/kernel, the same machinery: tests/world/rtbs.sh.)
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

fresh am5729
out=$(tt set 'sim/board/cmdline=root=/dev/mmcblk0p1 isolcpus=1' 2>&1)
is "$?" 2 "plain fixture: set sim/board/cmdline exits 2"
like "$out" "only in a simulated world" "plain fixture: it says why: $out"
pristine && ok 0 "plain fixture: the tree is untouched" || ok 1 "plain fixture: the tree is untouched"

export TUNETOP_WORLD_SEED=35
root="$TMPD/world"
if ! out=$("$TUNETOP" world am5729-affinity "$root" 2>&1); then
	case $out in
	*disable-demo* | *"not installed"*) skip "the world switches" "no simulated board in this build"; done_testing; exit 0 ;;
	esac
fi
CPU=sys/devices/system/cpu
FILES="proc/cmdline $CPU/isolated $CPU/nohz_full proc/1181/stat proc/1181/status proc/1181/task/1181/stat proc/1181/task/1181/status"
mkdir -p "$TMPD/orig"
save() { for f in $FILES; do mkdir -p "$TMPD/$1/$(dirname "$f")" && cp "$root/$f" "$TMPD/$1/$f"; done; }
# same DIR: the names of the switches' files that differ from DIR's copy
same() { for f in $FILES; do cmp -s "$TMPD/$1/$f" "$root/$f" || printf '%s ' "$f"; done; }
save orig
like "$(tt knobs sim)" "sim/board/cmdline +console=.*a kernel command line +\\(SIMULATED\\)" \
	"world: knobs lists the command line as a SIMULATED switch"
out=$(tt set 'sim/board/kernel=rt' 2>&1)
like "$out" "sim/board/kernel: no such SIMULATED switch in this world \\(switches: board/cmdline load/stress-ng\\)" \
	"world: a switch of another world is refused, naming this world's"

# the reboot: three files, one journal entry (W before the write)
BOOT="$(cat "$root/proc/cmdline") isolcpus=domain,1 nohz_full=1"
out=$(tt set "sim/board/cmdline=$BOOT" sim/load/stress-ng=stopped 2>&1)
is "$?" 0 "set sim/board/cmdline=... sim/load/stress-ng=stopped exits 0"
is "$(cat "$root/proc/cmdline")" "$BOOT" "proc/cmdline is the new command line"
is "$(cat "$root/$CPU/isolated") $(cat "$root/$CPU/nohz_full")" "1 1" "isolated and nohz_full as the kernel derives them"
is "$(cut -d' ' -f3 "$root/proc/1181/stat") $(sed -n 's/^State:\t//p' "$root/proc/1181/task/1181/status")" "T T (stopped)" \
	"stress-ng's worker stopped in its stat and its task's status"
is "$(grep -c '^W	.*addr=sim/board/cmdline' "$STATE/journal")" 1 "the reboot is one journal entry"
like "$(grep '^W	.*addr=sim/board/cmdline' "$STATE/journal")" "raw=.*isolated.*nohz_full" \
	"which records every file's bytes"
out=$(tt undo 2>&1)
is "$?" 0 "undo exits 0"
is "$(same orig)" "" "undo puts every file back byte for byte"

# a file refuses its write: the files already written are put back
out=$(TUNETOP_TEST_FAULT="cpu/nohz_full=EIO" tt set "sim/board/cmdline=$BOOT" 2>&1)
ok "$(test $? -ne 0; echo $?)" "a refused nohz_full: set fails"
is "$(same orig)" "" "... and proc/cmdline and isolated are as they were"

# killed half way (after proc/cmdline, before isolated): restore repairs all
TUNETOP_TEST_FAULT="cpu/isolated=KILL" tt set "sim/board/cmdline=$BOOT" >/dev/null 2>&1
ok "$(test $? -ge 128; echo $?)" "the writer is killed half way"
is "$(cat "$root/proc/cmdline") | $(cat "$root/$CPU/isolated")" "$BOOT | " "it left the command line new, isolated old"
out=$(tt restore 2>&1)
is "$?" 0 "restore after the crash exits 0"
like "$out" "sim/board/cmdline: .* -> console=" "restore names the switch"
is "$(same orig)" "" "restore puts every file back byte for byte"

# another knob changes a file of the switch meanwhile: undoing the switch
# alone keeps that change, the switch's own field goes back
tt set sim/load/stress-ng=stopped >/dev/null 2>&1
tt set thread/1181/affinity=0-1 >/dev/null 2>&1
id=$(grep '^W	.*addr=sim/load/stress-ng' "$STATE/journal" | tail -n 1 | sed 's/.*	seq=\([0-9]*\)	.*/\1/')
out=$(tt undo "$id" 2>&1)
is "$?" 0 "undo of the switch alone (change $id) exits 0"
is "$(sed -n 's/^State:\t//p; s/^Cpus_allowed_list:\t//p' "$root/proc/1181/status" | tr '\n' ' ')" "R (running) 0-1 " \
	"the worker runs again, the later affinity stays"
tt undo >/dev/null 2>&1
is "$(same orig)" "" "the affinity's undo too: every file as it was"

done_testing
