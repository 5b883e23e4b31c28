#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# README.md's screenshots of the monitor, taken from the world rk3588-npu
# (issue 35): tunetop --demo=rk3588-npu in a private tmux server, 120x40,
# the fixed seed; the Cores screen (the A55 cluster collapsed to 408 MHz),
# the Findings screen on governor-collapse, then the Cores screen after its
# fix key (performance: 1800 MHz, the app's time down). Every capture is
# SIMULATED. The section between the markers
#   <!-- world-screens begin --> ... <!-- world-screens end -->
# of README (default README.md next to this script) is rewritten; with
# README "-", the section is printed instead.
#   TUNETOP=build/tunetop sh scripts/screenshots.sh [README]
# tests/tui/screenshots.sh checks that README.md's section is what this
# script makes (numbers aside: the world runs on the wall clock).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
readme=${1:-$top/README.md}
TUNETOP=${TUNETOP:-$top/build/tunetop}
LIMIT=${SCREENSHOT_LIMIT:-30} # seconds for each condition (a busy machine)
command -v tmux >/dev/null 2>&1 || { echo "screenshots.sh: tmux is not installed" >&2; exit 1; }
[ -x "$TUNETOP" ] || { echo "screenshots.sh: $TUNETOP: no tunetop built (set TUNETOP)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-shots.XXXXXX")
sock="tunetop-shots-$$"
tmx() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tmx kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
term=tmux-256color
infocmp "$term" >/dev/null 2>&1 || term=screen-256color
mkdir -p "$tmp/config"
tmx new-session -d -s s -x 120 -y 40 \
	"env TERM=$term LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config TUNETOP_WORLD_SEED=35 NO_COLOR=1 $TUNETOP --demo=rk3588-npu -d 2 2>$tmp/err"
screen() { tmx capture-pane -p -t s; }
# wait REGEX: until the pane shows it (extended), else fail naming it
wait_for() {
	i=0
	while [ "$i" -lt $((LIMIT * 10)) ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "screenshots.sh: timeout waiting for /$1/; the pane shows:" >&2
	screen >&2
	cat "$tmp/err" >&2
	exit 1
}
# app_below MS: until the app's mean on screen is below MS
app_mean_below() {
	i=0
	while [ "$i" -lt $((LIMIT * 10)) ]; do
		m=$(screen | sed -nE 's/.*SIMULATED app [0-9.]+ ms  mean ([0-9.]+) sd.*/\1/p' | head -1)
		[ -n "$m" ] && awk -v m="$m" -v w="$1" 'BEGIN { exit !(m < w) }' && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "screenshots.sh: the app's mean stayed at ${m:-?} ms (wanted below $1)" >&2
	exit 1
}
# the temporary root named as in every run (or its cut end dropped),
# trailing blanks cut
tidy() {
	sed -e 's/tunetop-world\.[A-Za-z0-9]\{6\}/tunetop-world.XXXXXX/' -e 's/  \.\.\.[^ ]*$//' -e 's/[ ]*$//'
}
# shot FIRST LAST: lines FIRST..LAST of the pane, tidied
shot() {
	screen | sed -n "$1,$2p" | tidy
}

wait_for 'SIMULATED app [0-9.]+ ms  mean [0-9.]+ sd [0-9.]+ /50'
wait_for 'policy0 +4x A55 +gov interactive .*cur 408 '

before=$(shot 1 16)
tmx send-keys -t s '!'
wait_for 'governor-collapse +cpufreq'
i=0
while [ "$i" -lt 8 ] && ! screen | grep -q '^ governor-collapse: cpufreq'; do
	tmx send-keys -t s Down
	sleep 0.1
	i=$((i + 1))
done
wait_for '^ governor-collapse: cpufreq'
wait_for 'a or Enter applies it'
findings=$(screen | sed -n '1,/a or Enter applies it/p' | tidy)
tmx send-keys -t s a
wait_for 'changes [1-9]'
tmx send-keys -t s 1
wait_for 'policy0 +4x A55 +gov performance .*cur 1800 '
app_mean_below 36 # the window of 50 frames all after the fix, about
after=$(shot 1 10)

fence='```'
section=$(
	cat <<EOF2
<!-- world-screens begin -->
**The monitor** in a simulated world (\`tunetop --demo=rk3588-npu\`, all
numbers SIMULATED): an NPU app on an RK3588 whose frame time follows the knobs
(doc/teach.md); the header shows its last frame, mean and SD. It waits in the
NPU ioctl, so \`interactive\` drops the clusters to 408 MHz (governor collapse):

$fence
$before
$fence

The Findings screen (\`!\`) names it, with the evidence and a one-key fix:

$fence
$findings
$fence

After \`a\`: the clusters at their top OPP and the app's time down from
~49 ms toward ~35 ms (screens \`1\`-\`0\` show clocks, RT, the journal,
threads, IRQs, isolation and latency; \`F1\` lists the keys):

$fence
$after
$fence
<!-- world-screens end -->
EOF2
)
if [ "$readme" = - ]; then
	printf '%s\n' "$section"
	exit 0
fi
grep -qx '<!-- world-screens begin -->' "$readme" && grep -qx '<!-- world-screens end -->' "$readme" || {
	echo "screenshots.sh: $readme: no <!-- world-screens begin/end --> markers" >&2
	exit 1
}
printf '%s\n' "$section" >"$tmp/section"
awk -v f="$tmp/section" '
	$0 == "<!-- world-screens begin -->" { while ((getline l < f) > 0) print l; skip = 1; next }
	$0 == "<!-- world-screens end -->" { skip = 0; next }
	!skip' "$readme" >"$tmp/readme"
cat "$tmp/readme" >"$readme"
