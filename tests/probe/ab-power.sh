#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Power as a secondary metric of ab (issue 17): on a copied rk3588 with an
# ina226-style energy counter, a CMD that adds more energy per run when the
# knob is 1 gives arm B the higher mean watts (JSON mean_watts per arm,
# watts per window, the text line); without a sensor mean_watts is null and
# the text has no power line.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

KNOB='cpuidle/*/cpu-sleep/disable'
ROOT=$(copy_fixture rk3588)
export ROOT
hw="$ROOT/sys/class/hwmon/hwmon9"
mkdir -p "$hw"
echo ina226 >"$hw/name"
echo vdd_soc >"$hw/energy1_label"
echo 1000000 >"$hw/energy1_input"

# 4 J per run with cpu-sleep disabled, 0.5 J otherwise
cat >"$TMPD/burn.sh" <<'EOF2'
#!/bin/sh
read -r v <"$ROOT/sys/devices/system/cpu/cpu0/cpuidle/state1/disable"
f="$ROOT/sys/class/hwmon/hwmon9/energy1_input"
read -r e <"$f"
if [ "$v" = 1 ]; then e=$((e + 4000000)); else e=$((e + 500000)); fi
echo "$e" >"$f.tmp" && mv "$f.tmp" "$f"
sleep 0.01
EOF2
chmod +x "$TMPD/burn.sh"

"$TUNETOP" --root "$ROOT" --state-dir "$TMPD/st" ab "$KNOB=0,1" --cmd "$TMPD/burn.sh" \
	--window 0.3 --settle 50 --rounds 2 --json >"$TMPD/ab.json" 2>"$TMPD/err"
is "$?" 0 "ab --cmd --json with an energy sensor: exit 0"
[ -s "$TMPD/err" ] && diag "stderr: $(cat "$TMPD/err")"
is "$(jq -r '[.arms[].mean_watts | type] | join(",")' "$TMPD/ab.json")" "number,number" "mean_watts per arm"
is "$(jq -r '(.arms[1].mean_watts > .arms[0].mean_watts)' "$TMPD/ab.json")" "true" \
	"arm B (4 J per run) draws more than arm A (0.5 J per run)"
is "$(jq -r '[.windows[] | select(.watts != null and .watts > 0)] | length' "$TMPD/ab.json")" "8" \
	"every window has positive watts"

"$TUNETOP" --root "$ROOT" --state-dir "$TMPD/st" ab "$KNOB=0,1" --cmd "$TMPD/burn.sh" \
	--window 0.3 --settle 50 --rounds 2 >"$TMPD/ab.txt" 2>"$TMPD/err"
is "$?" 0 "ab --cmd text: exit 0"
like "$(cat "$TMPD/ab.txt")" '^power \(mean over the windows, hwmon/RAPL\): A [0-9.]+ W, B [0-9.]+ W \(B . A \+[0-9.]+ W\)' \
	"text: mean watts per arm and B - A"

# no sensor: null, no line
rm -rf "$hw"
printf '#!/bin/sh\nsleep 0.01\n' >"$TMPD/nap.sh"
chmod +x "$TMPD/nap.sh"
"$TUNETOP" --root "$ROOT" --state-dir "$TMPD/st" ab "$KNOB=0,1" --cmd "$TMPD/nap.sh" \
	--window 0.2 --settle 20 --rounds 1 --json >"$TMPD/n.json" 2>"$TMPD/err"
is "$?" 0 "ab without a sensor: exit 0"
is "$(jq -r '[.arms[].mean_watts] | map(tostring) | join(",")' "$TMPD/n.json")" "null,null" "no sensor: mean_watts null"

done_testing
