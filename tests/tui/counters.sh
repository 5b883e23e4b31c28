#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf counters in the TUI and the Remote cores section (issue 6).
# Live: the Cores screen's counter columns (software ones with numbers on a
# CPU kept busy by a pipe ping-pong this test starts pinned to CPU 0,
# hardware ones n/a with the reason said once where there is no PMU), the
# counters open only while the Cores screen is shown (perf fds in
# /proc/PID/fd), the counters pane of the Threads screen on a helper thread
# that sleeps 10 ms in a loop (~100 context switches/s), following the
# selection and closing its fds when the thread exits, C hiding it. The
# `events` key of tunetoprc: honoured, and a bad name reported on one line
# with the default set used. Fixtures: Remote cores on the STM32MP157
# (remoteproc0, rpmsg-tty, the mailbox rows marked R), absent on the RK3588;
# no counters on a root that is not the live system.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

PP="$TT_BUILDDIR/tests/live/pingpong"
HELPER="$TT_BUILDDIR/tests/live/threads_helper"
ppid=
hpid=
trap 'kill $ppid $hpid 2>/dev/null; tui_cleanup' EXIT

# perf_fds NAME: perf_event file descriptors held by the tunetop in pane NAME
perf_fds() {
	ls -l "/proc/$(tui_pid "$1")/fd" 2>/dev/null | grep -c 'anon_inode:\[perf_event\]'
}
# wait_fds NAME TEST N [SECONDS]: until "perf_fds NAME" -TEST N (eq, gt...)
wait_fds() {
	_i=0
	while [ $_i -lt $((${4:-5} * 10)) ]; do
		[ "$(perf_fds "$1")" "-$2" "$3" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	diag "perf fds of $1: $(perf_fds "$1") (wanted -$2 $3)"
	return 1
}
cfg() { # write tunetoprc
	mkdir -p "$XDG_CONFIG_HOME/tunetop"
	printf 'config_version=1\n%s' "$1" >"$XDG_CONFIG_HOME/tunetop/tunetoprc"
}

# Does this machine have a core PMU? (the build machine, a VM, has none)
hw_pmu=no
for d in /sys/bus/event_source/devices/*; do
	case ${d##*/} in
	cpu | cpu_core | cpu_atom | armv* | arm_cortex* | arm_neoverse*) hw_pmu=yes ;;
	esac
done
root_user=no
[ "$(id -u)" -eq 0 ] && root_user=yes
diag "hardware PMU: $hw_pmu, root: $root_user, perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)"

# ---- Cores: the counter columns on the live machine -------------------------------
if [ -x "$PP" ]; then
	"$PP" -c 0 100000000 >/dev/null 2>&1 &
	ppid=$!
fi
cfg ''
tui_start c 100 30 -- --state-dir "$TMPD/st-c"
tui_wait c "$CORES_HDR"'.* IPC +(LLCm|L1Dr|Cmis)/s +Csw/s +Mig/s'
ok $? "cores: IPC, cache misses/s, switches/s, migrations/s columns"
tui_wait c '^ Counters:'; ok $? "cores: a Counters legend line"
if [ "$root_user" = yes ]; then
	# CPU 0 runs the ping-pong: thousands of switches per second
	tui_wait_cell c "$CORES_HDR" '^ +0 ' Csw/s '[0-9.]+k?' &&
		tui_wait_cell c "$CORES_HDR" '^ +0 ' Mig/s '[0-9.]+k?'
	ok $? "cores: software counters show numbers (CPU 0 busy with a ping-pong)"
	ok=0
	for c in $(seq 1 $(($(getconf _NPROCESSORS_ONLN) - 1))); do
		tui_wait_cell c "$CORES_HDR" "^ +$c " Csw/s '[0-9.]+k?' &&
			tui_wait_cell c "$CORES_HDR" "^ +$c " Mig/s '[0-9.]+k?' || ok=1
	done
	ok $ok "cores: ... on every CPU"
	if [ "$hw_pmu" = no ]; then
		tui_wait_cell c "$CORES_HDR" '^ +0 ' IPC 'n/a' &&
			[ "$(tui_cell c "$CORES_HDR" '^ +0 ' "$(tui_screen c | grep -oE '(LLCm|L1Dr|Cmis)/s' | head -1)")" = n/a ]
		ok $? "cores: hardware columns n/a without a PMU"
		tui_wait c 'Counters: IPC, (LLCm|L1Dr|Cmis)/s n/a: no hardware PMU \(ENOENT\)'
		ok $? "cores: the reason, once, on the legend line"
		is "$(tui_screen c | grep -c 'no hardware PMU')" 1 "cores: said once, not per CPU"
	else
		tui_wait_cell c "$CORES_HDR" '^ +0 ' IPC '[0-9]+\.[0-9]+\*?'
		ok $? "cores: hardware counters show numbers (this machine has a PMU)"
		skip "hardware n/a reason" "this machine has a hardware PMU"
		skip "said once" "this machine has a hardware PMU"
	fi
else
	tui_wait c 'Counters: .*n/a: .*(root|CAP_PERFMON)'
	ok $? "cores: not root: n/a with the permission reason"
	skip "software numbers" "not root (perf_event_paranoid)"
	skip "every CPU" "not root"
	skip "hardware n/a" "not root"
	skip "said once" "not root"
fi
wait_fds c gt 0; ok $? "cores: per-CPU counters open while shown ($(perf_fds c) fds)"
cpu_fds=$(perf_fds c)
tui_keys c 2
wait_fds c eq 0; ok $? "clocks: counters closed after leaving the Cores screen"
tui_keys c 1
wait_fds c gt 0; ok $? "cores again: reopened"
tui_keys c F1 NPage
tui_wait c 'Csw/s Mig/s +context switches'; ok $? "help explains the counter columns"
tui_keys c q
tui_wait_exit c; ok $? "quits"
is "$(tui_status c)" 0 "exit status 0"
[ -n "$ppid" ] && kill "$ppid" 2>/dev/null
ppid=

# column_counters=0: no columns, nothing opened
cfg 'column_counters=0
'
tui_start off 100 30 -- --state-dir "$TMPD/st-off"
tui_wait off "$CORES_HDR"; ok $? "column_counters=0: cores draws"
tui_wait_not off 'IPC|Csw/s|Counters:' 2; ok $? "column_counters=0: no counter columns"
sleep 1
is "$(perf_fds off)" 0 "column_counters=0: no perf fds"
tui_keys off q
tui_wait_exit off

# ---- the events key ---------------------------------------------------------------
cfg 'events=context-switches, cpu-migrations
'
tui_start ev 100 30 -- --state-dir "$TMPD/st-ev"
tui_wait ev "$CORES_HDR"'.* Csw/s +Mig/s'; ok $? "events key: switches and migrations columns"
tui_wait_not ev ' IPC ' 2; ok $? "events key: no IPC column without cycles/instructions"
tui_keys ev F2
tui_wait ev 'Counters: events .* context-switches, cpu-migrations'
ok $? "setup lists the events key with its value"
tui_keys ev q
tui_wait_exit ev

cfg 'events=cycles,frobnicate
'
tui_start bad 120 30 -- --state-dir "$TMPD/st-bad"
tui_wait bad "Settings: line 2: events: unknown event 'frobnicate' .*using the default set"
ok $? "bad events key: one clear line"
tui_wait bad ' IPC +(LLCm|L1Dr|Cmis)/s +Csw/s +Mig/s'; ok $? "bad events key: the default set is used"
tui_keys bad F2
tui_wait bad 'Counters: events .*\(default: cycles,instructions'; ok $? "setup shows the default set"
tui_wait bad "line 2: events: unknown event 'frobnicate'"; ok $? "setup lists the problem"
tui_keys bad q
tui_wait_exit bad
cfg ''

# ---- Threads: counters of the selected thread ------------------------------------
if [ -x "$HELPER" ]; then
	"$HELPER" -n 1 -p ttctr -w 10 >"$TMPD/helper.out" 2>&1 &
	hpid=$!
	i=0
	while ! grep -q '^ready' "$TMPD/helper.out" 2>/dev/null && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	tid=$(awk '$1 == "tid" { print $3 }' "$TMPD/helper.out")
	tui_start th 110 30 -- --screen threads --state-dir "$TMPD/st-th"
	tui_wait th 'NAME'
	tui_keys th F4
	tui_wait th 'Filter'
	tui_keys th "$tid" Enter
	tui_wait th "^ +[0-9]+ +$tid .*ttctr0"; ok $? "threads: the helper thread is listed and selected"
	tui_wait th "Counters of $tid ttctr0"; ok $? "threads: counters pane for the selected thread"
	tui_wait th 'context switches [0-9]' 10; ok $? "threads: context switches/s measured"
	# The thread's own count from /proc over the same 2 s (a 10 ms sleep
	# loop gives ~100/s on an idle machine, fewer when its wake-ups come
	# late on a loaded one): the pane's rate must agree with it within a
	# factor of 2. tests/live/perf_stat.sh compares counts exactly.
	nsw() { awk '/ctxt_switches/ { s += $2 } END { print s + 0 }' "/proc/$hpid/task/$tid/status"; }
	c0=$(nsw) t0=$(date +%s.%N)
	sleep 2
	cs=$(tui_screen th | sed -n 's/.*context switches \([0-9.]*\).*/\1/p' | head -1)
	c1=$(nsw) t1=$(date +%s.%N)
	ref=$(awk -v a="$c0" -v b="$c1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.1f", (b - a) / (e - s) }')
	awk -v v="$cs" -v r="$ref" 'BEGIN { exit !(v > 0 && v >= r / 2 - 5 && v <= r * 2 + 5) }'
	ok $? "threads: switches/s of a 10 ms sleep loop agree with /proc (got $cs, /proc $ref)"
	tui_wait th 'CPU migrations [0-9]'; ok $? "threads: migrations/s"
	tui_wait th 'page faults [0-9]'; ok $? "threads: page faults/s"
	if [ "$hw_pmu" = no ]; then
		tui_wait th 'cycles n/a .*instructions n/a .*IPC n/a'; ok $? "threads: hardware counters n/a"
		tui_wait th 'cycles, instructions, .* n/a: no hardware PMU \(ENOENT\)'
		ok $? "threads: the reason once"
	else
		skip "threads: hardware n/a" "this machine has a PMU"
		skip "threads: reason" "this machine has a PMU"
	fi
	wait_fds th gt 0; ok $? "threads: the thread's counters are open ($(perf_fds th) fds)"
	tui_keys th C
	tui_wait th 'Thread counters hidden'; ok $? "threads: C hides the pane"
	wait_fds th eq 0; ok $? "threads: ... and closes its fds"
	tui_keys th C
	tui_wait th "Counters of $tid"; ok $? "threads: C shows it again"
	wait_fds th gt 0; ok $? "threads: reopened"
	kill -USR1 "$hpid" # the named thread exits
	tui_wait th "thread $tid has exited|no thread selected"; ok $? "threads: the exit is noticed"
	wait_fds th eq 0; ok $? "threads: the exited thread's counters are closed"
	tui_keys th Escape
	tui_wait th "Counters of [0-9]+ "; ok $? "threads: the selection moves on and is counted"
	tui_keys th 1
	tui_wait th "$CORES_HDR"
	wait_fds th eq "$cpu_fds"
	ok $? "threads -> cores: the thread's counters closed, only the per-CPU ones open"
	tui_keys th q
	tui_wait_exit th
	kill "$hpid" 2>/dev/null
	hpid=
else
	for d in listed pane switches range migrations faults hw reason open hide hidefds show reopen exit closed moves cores; do
		skip "threads: $d" "threads_helper not built"
	done
fi

# ---- fixtures: Remote cores, no counters ---------------------------------------------
st=$(copy_fixture stm32mp157)
tui_start rp 100 30 -- --root "$st" --state-dir "$TMPD/st-rp" --screen irqs
tui_wait rp 'Remote cores \(remoteproc\): 1 processor, 1 rpmsg channel, 2 interrupts'
ok $? "stm32mp157: Remote cores section"
tui_wait rp 'remoteproc0 +m4 +running +firmware rproc-m4-fw\.elf'; ok $? "stm32mp157: name, state, firmware"
tui_wait rp 'trace: .*Virtual UART0'; ok $? "stm32mp157: last trace line"
tui_wait rp 'rpmsg rpmsg-tty +src n/a +dst 0 +virtio0\.rpmsg-tty\.-1\.0'; ok $? "stm32mp157: rpmsg channel"
is "$(tui_screen rp | grep -c '^5[12] .* R .*4c001000\.mailbox')" 4 \
	"stm32mp157: the two mailbox rows, marked R, in the list and in the section"
tui_wait rp 'R serves a remote core'; ok $? "stm32mp157: R in the legend"
tui_keys rp e
tui_wait rp 'Remote cores \(remoteproc / RPMsg\)'; ok $? "stm32mp157: explain offers remote cores"
tui_keys rp Escape 1
tui_wait rp 'CPU +Type'; ok $? "fixture: cores screen"
tui_wait_not rp ' IPC | Csw/s' 2; ok $? "fixture: no counter columns (not the live system)"
is "$(perf_fds rp)" 0 "fixture: nothing opened"
tui_keys rp q
tui_wait_exit rp
same_tree "$st" "$FIXTURES/stm32mp157"; ok $? "stm32mp157: nothing written"

rk=$(copy_fixture rk3588)
tui_start rk 100 30 -- --root "$rk" --state-dir "$TMPD/st-rk" --screen irqs
tui_wait rk 'TOTAL/s'; ok $? "rk3588: IRQs screen"
tui_wait_not rk 'Remote cores|R serves' 2; ok $? "rk3588: no Remote cores section"
tui_keys rk q
tui_wait_exit rk

done_testing
