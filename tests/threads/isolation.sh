#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The isolation audit in `snapshot --threads` (text and JSON "isolation"
# key) on a copied stm32mp157 fixture (isolcpus=1 nohz_full=1) whose
# proc/interrupts changes between the two samples: eth0 (IRQ 56) and the
# arch timer count on CPU 1, so both are intruders; eth0 with the fix
# irq/56/affinity=0, the per-CPU timer with a note. Device IRQs whose
# affinity includes CPU 1 are flagged whether or not they fired, movable
# by what the kernel says (a writable smp_affinity_list), not by which
# files exist. A --root tree's threads are its own proc/'s (never the
# host's): this one has no processes, so no thread is audited. And the
# audit on the live machine (no isolation here).
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture stm32mp157)
irqf="$root/proc/interrupts"
# eth0 may run on both CPUs (the default mask), so its counts on CPU 1 are
# the intrusion the audit offers to move (with affinity 0 already, as the
# fixture has it, there would be nothing to move: see the unit test)
echo 0-1 >"$root/proc/irq/56/smp_affinity_list"
echo 3 >"$root/proc/irq/56/smp_affinity"
echo 1 >"$root/proc/irq/56/effective_affinity_list"
echo 2 >"$root/proc/irq/56/effective_affinity"
# the display controller (IRQ 60, never fires) is pinned to the isolated
# CPU by configuration, and its /proc/irq/60 has only smp_affinity_list
# (writable): flagged although it did not fire, movable, with its fix
rm -f "$root/proc/irq/60/smp_affinity" "$root/proc/irq/60/effective_affinity"
echo 1 >"$root/proc/irq/60/smp_affinity_list"
echo 1 >"$root/proc/irq/60/effective_affinity_list"
# the usb IRQ 47 too, but the kernel made its affinity files read-only
# (managed): flagged, not movable; IRQ 48 has no /proc/irq/48 to ask
echo 1 >"$root/proc/irq/47/smp_affinity_list"
echo 2 >"$root/proc/irq/47/smp_affinity"
chmod a-w "$root/proc/irq/47/smp_affinity_list" "$root/proc/irq/47/smp_affinity"
rm -r "$root/proc/irq/48"
cp -a "$root" "$TMPD/before"
bump() { # bump FILE: CPU 1 counts of IRQ 56 and 24 go up, i2c on CPU 0
	sed -e 's/^ 56:      88412          0/ 56:      88412        120/' \
		-e 's/^ 24:     999679      41022/ 24:     999679      41122/' \
		-e 's/^ 27:       1022          0/ 27:       1030          0/' "$1" >"$1.new" && mv "$1.new" "$1"
}
run_snap() { # run_snap ARGS...: snapshot over 3 s; the counts change after 1 s
	# (the first sample is taken long before that, even in a loaded ASan build)
	cp "$FIXTURES/stm32mp157/proc/interrupts" "$irqf"
	(sleep 1; bump "$irqf") &
	_b=$!
	"$TUNETOP" --root "$root" snapshot --threads --interval 3000 "$@"
	_rc=$?
	wait "$_b"
	return $_rc
}

out=$(run_snap 2>&1)
is "$?" 0 "snapshot --threads on the copied fixture"
like "$out" "Isolation audit: CPUs 1 \(isolated 1, nohz_full 1\), housekeeping 0" "text: audited and housekeeping CPUs"
like "$out" "  1 +irq +56 eth0 +[0-9.]+/s +irq/56/affinity=0" "text: eth0 on CPU 1 with the fix"
like "$out" "  1 +irq +24 arch_timer .* - +# scheduler tick" "text: the per-CPU timer, with what helps"
ok "$(printf '%s\n' "$out" | grep -Ec '^  1 +irq +27 ')" "text: i2c (CPU 0 only) is not flagged"
like "$out" "  1 +irq +60 5a001000.display-controller +0.0/s +irq/60/affinity=0  # affinity includes isolated CPU 1" \
	"text: IRQ 60 pinned to CPU 1 flagged although it did not fire, movable with only smp_affinity_list"
like "$out" "  1 +irq +56 eth0 .*# affinity includes isolated CPU 1; fired [0-9.]+/s" "text: eth0 says which, with the rate as evidence"
like "$out" "  1 +irq +47 dwc2_hsotg:usb1 +0.0/s +- +# affinity includes isolated CPU 1; not movable: the kernel made /proc/irq/47/smp_affinity_list read-only" \
	"text: read-only affinity: not movable"
ok "$(printf '%s\n' "$out" | grep -Ec '^  1 +irq +48 ')" "text: IRQ 48 (no /proc/irq/48, fixture affinity unknown, did not fire) is not flagged"
out1=$("$TUNETOP" --root "$root" snapshot --threads 2>&1)
like "$out1" "  1 +irq +60 5a001000.display-controller +(n/a|0\.0/s) +irq/60/affinity=0  # affinity includes isolated CPU 1" \
	"unchanged counts: flagged by configuration all the same"
like "$out" "threads not audited: this root has no processes \(no proc/PID\)" "text: a tree without processes: no thread audited (not the host's)"
ok "$(printf '%s\n' "$out" | grep -Ec '^  1 +thread ')" "text: no thread intruders on a fixture root"

if command -v python3 >/dev/null 2>&1; then
	run_snap --json >"$TMPD/snap.json" 2>&1
	is "$?" 0 "snapshot --json --threads"
	r=$(python3 - "$TMPD/snap.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iso = d["isolation"]
print("cpus", iso["isolated_cpus"], iso["nohz_full_cpus"], iso["audited_cpus"], iso["housekeeping_cpus"])
print("rates", iso["have_rates"])
for i in iso["intruders"]:
    if i["kind"] == "irq":
        print("irq", i["cpu"], i["label"], i["movable"], i["fix"], round(i["rate_per_s"]) > 0)
        print("why", i["label"], i["reason"])
    else:
        print("thread intruder on a fixture root")
print("rt", type(iso["rt_unpinned"]).__name__, type(iso["rt_migrating"]).__name__, iso["workload_threads"])
PY
)
	is "$?" 0 "JSON parses, isolation key present"
	like "$r" "cpus 1 1 1 0" "JSON: isolated, nohz_full, audited, housekeeping"
	like "$r" "rates True" "JSON: rates over the interval"
	like "$r" "irq 1 56 True irq/56/affinity=0 True" "JSON: eth0 intruder with its fix"
	like "$r" "irq 1 24 False None True" "JSON: timer intruder, not movable"
	like "$r" "irq 1 60 True irq/60/affinity=0 False" "JSON: IRQ 60 by configuration, movable, fix"
	like "$r" "why 60 affinity includes isolated CPU 1" "JSON: the reason says which"
	like "$r" "irq 1 47 False None False" "JSON: read-only IRQ 47 not movable"
	ok "$(printf '%s\n' "$r" | grep -c '^irq 1 27 ')" "JSON: i2c not flagged"
	like "$r" "rt list list None" "JSON: rt arrays; workload_threads null (threads not audited)"
	ok "$(printf '%s\n' "$r" | grep -c 'thread intruder')" "JSON: no thread intruders on a fixture root"
else
	for d in "json" "parses" "cpus" "rates" "eth0" "timer" "irq60" "reason" "irq47" "i2c" "rt" "threads"; do skip "JSON $d" "no python3"; done
fi

# the fix applies through the knob engine and restores byte for byte
cp "$FIXTURES/stm32mp157/proc/interrupts" "$irqf"
"$TUNETOP" --root "$root" --state-dir "$TMPD/st" set irq/56/affinity=0 >/dev/null 2>&1
is "$(cat "$root/proc/irq/56/smp_affinity_list")" 0 "the suggested fix moves eth0 to CPU 0"
"$TUNETOP" --root "$root" --state-dir "$TMPD/st" restore >/dev/null 2>&1
if same_tree "$TMPD/before" "$root"; then ok 0 "restored: copy equals what it was"; else
	ok 1 "restored: copy equals what it was"
fi

# live: no isolation on the build machine, the audit still reports RT threads
out=$("$TUNETOP" snapshot --threads --interval 200 2>&1)
is "$?" 0 "live snapshot --threads"
like "$out" "Isolation audit: (no isolated or nohz_full CPUs|CPUs [0-9])" "live: the audit section is there"

done_testing
