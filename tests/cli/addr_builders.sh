#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Typed knob addresses (issue 33): outside src/knob no code builds a knob
# address with a printf-style format - no "cpufreq/%s/governor",
# "thread/%d/affinity=%s" or "(irq/%d/affinity)" in a message; such an
# address comes from a builder of src/knob/knob_addr.h (knob_addr_*()),
# which tests/unit/test_knob_addr expands on every fixture. A string counts
# when it starts (or a word in it starts) with a registered family name and
# a '/' and has a conversion before its next space or quote; a path that
# merely contains a family name ("proc/irq/%d") does not. The family names
# come from the registry (src/knob/registry.c, knob_families in
# tests/lib.sh). The checker runs on a copy
# with planted violations, so it can be seen to fail.
. "$TT_SRCDIR/tests/lib.sh"
[ -z "${TT_SKIP_SOURCE_ONLY:-}" ] || skip_all "checks the sources, the same in every build: ran in the first build of run-all.sh"

# check SRC: prints "FILE:LINE:..." for every printf-built knob address
# outside SRC/knob; exit status 1 if there is one.
check() {
	f=$(knob_families "$1" | tr '\n' '|' | sed 's/|$//')
	[ -n "$f" ] || { echo "no families in $1/knob/registry.c"; return 1; }
	out=$(grep -rnE "(\"|\"[^\"]*[ (:=])($f)/[^\" ]*%[-0-9.*lhzjt]*[a-zA-Z]" "$1" \
		--include='*.[ch]' --include='*.def' | grep -v "^$1/knob/")
	[ -n "$out" ] && { printf '%s\n' "$out"; return 1; }
	return 0
}

fams=$(knob_families "$TT_SRCDIR/src" | tr '\n' ' ')
like "$fams" "cpufreq .*workqueue" "the families come from the registry: $fams"
out=$(check "$TT_SRCDIR/src")
is "$?" 0 "no knob address built by a printf format outside src/knob"
[ -n "$out" ] && diag "$(printf '%s\n' "$out" | head -10)"
is "$(grep -c '^struct knob_addr knob_addr_[a-z_]*(' "$TT_SRCDIR/src/knob/knob_addr.h")" \
	"$(grep -ho '^KNOB_ADDR_BUILDER(knob_addr_[a-z_]*,' "$TT_SRCDIR"/src/knob/fam_*.c | sort -u | wc -l)" \
	"every builder of knob_addr.h is defined in a family file"

# the checker catches what it should
mkdir -p "$TMPD/src/knob" "$TMPD/src/ui" "$TMPD/src/model"
cp "$TT_SRCDIR/src/knob/registry.c" "$TMPD/src/knob/"
cat >"$TMPD/src/ui/ok.c" <<'EOF'
	tui_set1(t, "%s=%s", knob_addr_irq_affinity_n(irq).s, list);
	snprintf(path, sizeof(path), "proc/irq/%d/smp_affinity_list", irq);
	snprintf(p, sizeof(p), "sys/devices/system/cpu/cpufreq/%s", name);
	ui_explain_add(it, n, max, "Governor", "cpufreq/*/governor");
	printf("100%% of thread/1 affinity");
EOF
printf 'return knob_addr_fmt("cpufreq/%%s/governor", policy);\n' >"$TMPD/src/knob/fam_cpufreq.c"
check "$TMPD/src" >/dev/null
is "$?" 0 "a clean planted tree passes (paths, constants and src/knob's builders)"
plant() { # plant FILE LINE DESCRIPTION: the check fails on it and names it
	printf '%s\n' "$2" >"$TMPD/src/$1"
	out=$(check "$TMPD/src")
	is "$?" 1 "planted: $3"
	like "$out" "src/$1:1:" "  and names $1:1"
	rm "$TMPD/src/$1"
}
plant ui/bad1.c '	snprintf(a, sizeof(a), "irq/%d/affinity", row->irq);' "an snprintf-built address"
plant ui/bad2.c '	tui_set1(t, "devfreq/%s/governor=%s", dv->name, items[k]);' \
	"a printf-style assignment"
plant model/bad3.c '		 "threaded handler of IRQ %d: it follows irq/%d/affinity",' \
	"an address inside a message"
plant ui/bad4.c '	a = xasprintf("cpuidle/*/state%d/disable=%d", st, 1);' "a wildcard address"
plant model/bad5.c '	snprintf(f, sizeof(f), "workqueue/cpumask=%s", hx);' "a family without objects"
done_testing
