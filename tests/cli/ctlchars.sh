#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Text output is text (issue 32, item 6): control characters in names read
# from a tree or a recording (device-tree model, thermal zone type, a knob
# value) come out escaped as \x1b in the text snapshot, CSV, watch, report
# and get, never as the raw byte that retitles or clears a terminal.
. "$TT_SRCDIR/tests/lib.sh"

R=$(copy_fixture rk3588)
ESC=$(printf '\033')
printf 'Evil \033]0;pwned\007board \033[2J\302\233\0' >"$R/sys/firmware/devicetree/base/model"
printf 'soc\033[2Jthermal\n' >"$R/sys/class/thermal/thermal_zone0/type"
printf 'inter\033[2Jactive\n' >"$R/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
# raw ESC (or the C1 CSI) anywhere in FILE?
has_raw() { LC_ALL=C grep -aq "$(printf '[\033\007]\|\302\233')" "$1"; }

"$TUNETOP" --root "$R" snapshot --interval 0 >"$TMPD/text" 2>"$TMPD/err"
ok $? "snapshot exits 0"
has_raw "$TMPD/text"; ok $((!$?)) "text snapshot: no raw ESC, BEL or CSI byte"
like "$(grep -a '^board' "$TMPD/text")" 'Evil \\x1b\]0;pwned\\x07board \\x1b\[2J\\xc2\\x9b' \
	"text snapshot: the model with \\x1b escapes"
like "$(cat "$TMPD/text")" 'soc\\x1b\[2Jthermal' "text snapshot: the thermal type escaped"
"$TUNETOP" --root "$R" snapshot --csv --interval 0 >"$TMPD/csv"
has_raw "$TMPD/csv"; ok $((!$?)) "CSV: no raw control byte"
"$TUNETOP" --root "$R" watch -i 50 -n 2 --record "$TMPD/rec.json" >"$TMPD/watch"
ok $? "watch --record exits 0"
has_raw "$TMPD/watch"; ok $((!$?)) "watch text: no raw control byte"
"$TUNETOP" report "$TMPD/rec.json" >"$TMPD/report"
ok $? "report exits 0"
has_raw "$TMPD/report"; ok $((!$?)) "report text: no raw control byte"
like "$(cat "$TMPD/report")" 'Evil \\x1b\]0;pwned' "report: the recorded model escaped"
like "$(cat "$TMPD/report")" 'soc\\x1b\[2Jthermal' "report: the recorded thermal type escaped"
"$TUNETOP" --root "$R" get cpufreq/policy0/governor >"$TMPD/get"
has_raw "$TMPD/get"; ok $((!$?)) "get: no raw control byte"
is "$(cat "$TMPD/get")" 'cpufreq/policy0/governor=inter\x1b[2Jactive' "get: the value escaped"
"$TUNETOP" --root "$R" knobs cpufreq/policy0 >"$TMPD/knobs"
has_raw "$TMPD/knobs"; ok $((!$?)) "knobs: no raw control byte"
# set: the old value (from the tree) in the report and in a refusal
"$TUNETOP" --root "$R" set cpufreq/policy0/governor=performance >"$TMPD/set" 2>&1
ok $? "set exits 0"
has_raw "$TMPD/set"; ok $((!$?)) "set: no raw control byte in its report"
like "$(cat "$TMPD/set")" 'inter\\x1b\[2Jactive' "set: the old value escaped"
# the recording itself is JSON: the escape is JSON's own, the name intact
like "$(cat "$TMPD/rec.json")" 'soc\\u001b\[2Jthermal' "the recording keeps the name (JSON \\u001b)"
done_testing
