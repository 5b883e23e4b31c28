#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The debugfs clock list is configurable (issue 2): the global option
# --clocks LIST (anywhere on the line, also --clocks=LIST) replaces the
# default list (scmi_clk_npu, scmi_clk_ddr, ...) for snapshot, watch and the
# TUI; tunetoprc clocks= does it for the TUI. Bad names are one line and
# exit 2. Copied RK3588 fixture (sys/kernel/debug/clk).
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture rk3588)

names() { # the names of the "clocks" array of a JSON snapshot
	python3 -c 'import json,sys; print(",".join(c["name"] for c in json.load(open(sys.argv[1]))["clocks"]))' "$1"
}

"$TUNETOP" --root "$root" snapshot --interval 0 --json >"$TMPD/def.json"
ok $? "snapshot without --clocks"
is "$(names "$TMPD/def.json")" "scmi_clk_npu,scmi_clk_ddr" "default list: scmi_clk_npu and scmi_clk_ddr (those present)"

"$TUNETOP" --root "$root" --clocks scmi_clk_cpul,scmi_clk_dsu,no_such_clk snapshot --interval 0 --json >"$TMPD/a.json"
ok $? "--clocks LIST before the command"
is "$(names "$TMPD/a.json")" "scmi_clk_cpul,scmi_clk_dsu,no_such_clk" "exactly the listed clocks, in order"
like "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["clocks"]; print(c[0]["rate_hz"], c[2]["rate_hz"], c[2]["error"])' "$TMPD/a.json")" \
	'^[1-9][0-9]* None ENOENT$' "listed clock has a rate; a missing one is null with ENOENT"

"$TUNETOP" --root "$root" snapshot --interval 0 --clocks=scmi_clk_cpub01 >"$TMPD/b.txt"
ok $? "--clocks=LIST after the command (text)"
like "$(sed -n '/^clocks (debugfs)/,/^$/p' "$TMPD/b.txt")" 'scmi_clk_cpub01 +other +[0-9]+ MHz' "text report lists scmi_clk_cpub01"
grep -q 'scmi_clk_npu' "$TMPD/b.txt" && sed -n '/^clocks (debugfs)/,/^$/p' "$TMPD/b.txt" | grep -q scmi_clk_npu
ok $((!$?)) "text report does not list the default scmi_clk_npu"

"$TUNETOP" --root "$root" --clocks scmi_clk_dsu watch --json -i 100 -n 2 >"$TMPD/w.jsonl"
ok $? "watch with --clocks"
is "$(python3 -c 'import json,sys; print(";".join(",".join(c["name"] for c in json.loads(l)["clocks"]) for l in open(sys.argv[1])))' "$TMPD/w.jsonl")" \
	"scmi_clk_dsu;scmi_clk_dsu" "watch: every sample has the listed clock only"

# learn samples with the same list (lesson 3 on the simulated board, recorded)
"$TUNETOP" --clocks scmi_clk_gpu learn 3 --auto --demo --record "$TMPD/l3.jsonl" </dev/null >/dev/null 2>&1
ok $? "learn 3 --demo with --clocks"
is "$(python3 -c '
import json, sys
s = set()
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j.get("type") == "sample":
        s.add(",".join(c["name"] for c in j["snapshot"]["clocks"]))
print(";".join(sorted(s)))' "$TMPD/l3.jsonl")" "scmi_clk_gpu" "learn: every recorded sample has the listed clock only"

for bad in "" "scmi_clk_npu,,scmi_clk_ddr" "scmi_clk_npu," "../clk" "clk npu" "clk;rm"; do
	"$TUNETOP" --root "$root" --clocks "$bad" snapshot --interval 0 >"$TMPD/o" 2>"$TMPD/e"
	is "$?" 2 "--clocks '$bad': exit 2"
	is "$(wc -l <"$TMPD/e" | tr -d ' ')" 1 "--clocks '$bad': one line of error"
	like "$(cat "$TMPD/e")" '^tunetop: --clocks ' "--clocks '$bad': names the option"
	is "$(wc -c <"$TMPD/o" | tr -d ' ')" 0 "--clocks '$bad': nothing on stdout"
done
"$TUNETOP" --root "$root" snapshot --clocks >"$TMPD/o" 2>"$TMPD/e"
is "$?" 2 "--clocks without a value: exit 2"
"$TUNETOP" --help | grep -q -- '--clocks LIST'
ok $? "--help lists --clocks LIST"

done_testing
