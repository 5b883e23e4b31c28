#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's cost table from the rows `make bench` measured (issue 34).
#   cost_table.sh ROWS [FILE]
# ROWS holds one line per measurement, "LABEL|TUNETOP|HTOP|UNIT" (numbers
# as measured, HTOP empty where htop has no counterpart), written by
# tests/bench/tui.sh and threads_vs_htop.sh in this run. Prints the markdown
# table; with FILE, also puts it between the lines
# "<!-- cost-table begin -->" and "<!-- cost-table end -->" of FILE (the
# rest of FILE unchanged). Exit 1 with no rows or no such markers in FILE.
set -u
rows=$1
file=${2:-}
[ -s "$rows" ] || { echo "cost_table: no measurements in $rows" >&2; exit 1; }
table=$(awk -F'|' -v date="$(date -u +%Y-%m-%d)" -v cpus="$(nproc 2>/dev/null || echo '?')" '
BEGIN {
	print "| measured by `make bench` (" date ", " cpus " CPUs) | tunetop | htop | tunetop / htop |"
	print "|---|---|---|---|"
}
NF >= 4 {
	t = sprintf("%.2f %s", $2, $4)
	h = ($3 == "") ? "" : sprintf("%.2f %s", $3, $4)
	r = ($3 != "" && $3 + 0 > 0) ? sprintf("%.2f", $2 / $3) : ""
	print "| " $1 " | " t " | " h " | " r " |"
}' "$rows")
printf '%s\n' "$table"
[ -n "$file" ] || exit 0
grep -qx '<!-- cost-table begin -->' "$file" && grep -qx '<!-- cost-table end -->' "$file" || {
	echo "cost_table: $file has no cost-table markers" >&2
	exit 1
}
printf '%s\n' "$table" >"$file.table.$$"
awk -v tf="$file.table.$$" '
	$0 == "<!-- cost-table end -->" { skip = 0 }
	!skip { print }
	$0 == "<!-- cost-table begin -->" { while ((getline l < tf) > 0) print l; skip = 1 }
' "$file" >"$file.tmp.$$" && mv "$file.tmp.$$" "$file"
rc=$?
rm -f "$file.table.$$"
[ $rc = 0 ] && echo "cost_table: the table of $file rewritten"
exit $rc
