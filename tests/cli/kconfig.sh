#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel configuration (issue 17): /proc/config.gz (gzip made here from
# tests/fixtures/kconfig/), else /boot/config-RELEASE, absent, and broken
# (truncated gzip, garbage) on copies of the rk3588 fixture: the text line,
# the JSON member, one clear line for bad input and no crash; the findings
# of a command line asking for what the kernel was built without.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/findings/common.sh"

K=$FIXTURES/kconfig
root=$(copy_fixture rk3588)
rel=$(cat "$root/proc/sys/kernel/osrelease")
# the fixture ships its kernel's /boot config (the demo shows it): gone here
rm -f "$root/boot/config-$rel"
snap() { "$TUNETOP" --root "$root" snapshot --interval 0 --stable "$@" 2>"$TMPD/err"; }

# ---- absent: one line naming the places looked
out=$(snap)
is "$?" 0 "absent: snapshot exits 0"
is "$(printf '%s\n' "$out" | grep -c '^kconfig')" 1 "absent: one kconfig line"
like "$out" "kconfig  no kernel config: looked in /proc/config.gz, /boot/config-$rel" \
	"absent: says where it looked"
json=$(snap --json)
like "$json" '"kernel_config":\{"source":null,"looked":\["/proc/config.gz","/boot/config-'"$rel"'"\],"problem":null,"preempt":null,"options":null\}' \
	"absent: JSON options null with the places looked"

# ---- /boot/config-RELEASE (plain text)
mkdir -p "$root/boot"
cp "$K/config-generic" "$root/boot/config-$rel"
out=$(snap)
like "$out" "kconfig  /boot/config-$rel  preempt VOLUNTARY \\(dynamic\\)  HZ 250" "boot: source, model, HZ"
like "$out" 'NO_HZ_FULL=n RCU_NOCB_CPU=- CPU_ISOLATION=y IRQ_FORCED_THREADING=y' "boot: options (n, absent -, y)"
like "$out" 'idle governors: ladder menu teo haltpoll\(m\)' "boot: idle governors, module marked"
json=$(snap --json)
like "$json" '"source":"/boot/config-'"$rel"'"' "boot: JSON source"
like "$json" '"HZ":"250"' "boot: JSON HZ value"
like "$json" '"UCLAMP_TASK":"n"' "boot: JSON not set -> n"
like "$json" '"RCU_NOCB_CPU":null' "boot: JSON absent -> null"

# ---- /proc/config.gz (gzip) wins over /boot
gzip -9 -c "$K/config-rt" >"$root/proc/config.gz"
out=$(snap)
if printf '%s\n' "$out" | grep -q 'built without zlib'; then
	like "$out" "kconfig  /boot/config-$rel .*proc/config.gz: built without zlib" \
		"without zlib: the /boot config is used and config.gz says why not"
	zlib=no
else
	zlib=yes
	like "$out" 'kconfig  /proc/config.gz  preempt PREEMPT_RT  HZ 1000' "gz: read through zlib"
	unlike "$out" 'problem|truncated' "gz: no problem noted"
	json=$(snap --json)
	like "$json" '"source":"/proc/config.gz"' "gz: JSON source"
	like "$json" '"PREEMPT_RT":"y"' "gz: JSON PREEMPT_RT"
	like "$json" '"CPU_FREQ_GOV_POWERSAVE":"m"' "gz: JSON module"
fi

# ---- broken: truncated gzip, garbage; with and without a /boot fallback
head -c 60 "$root/proc/config.gz" >"$TMPD/trunc.gz"
cp "$TMPD/trunc.gz" "$root/proc/config.gz"
out=$(snap)
is "$?" 0 "truncated gzip: exits 0"
if [ $zlib = yes ]; then
	like "$out" "kconfig  /boot/config-$rel .*\\(.*/proc/config.gz: truncated gzip data\\)" \
		"truncated gzip: falls back to /boot and says why in one line"
fi
rm "$root/boot/config-$rel"
out=$(snap)
is "$?" 0 "truncated gzip, no /boot: exits 0"
is "$(printf '%s\n' "$out" | grep -c '^kconfig')" 1 "truncated gzip, no /boot: one line"
if [ $zlib = yes ]; then
	like "$out" 'kconfig  no kernel config: looked in .*; .*/proc/config.gz: truncated gzip data' \
		"truncated gzip, no /boot: the reason"
	like "$(snap --json)" '"problem":"[^"]*/proc/config.gz: truncated gzip data"' \
		"truncated gzip: JSON problem"
fi
printf 'garbage\001\002 not gzip\n' >"$root/proc/config.gz"
out=$(snap)
is "$?" 0 "garbage config.gz: exits 0"
[ $zlib = yes ] && like "$out" 'proc/config.gz: not gzip data' "garbage config.gz: the reason"
printf 'this is no kernel config\n' >"$TMPD/plain"
gzip -c "$TMPD/plain" >"$root/proc/config.gz"
out=$(snap)
is "$?" 0 "gzip of garbage: exits 0"
[ $zlib = yes ] && like "$out" 'proc/config.gz: not a kernel config \(no CONFIG_ line\)' \
	"gzip of garbage: the reason"
is "$(wc -l <"$TMPD/err")" 0 "nothing on stderr"

# ---- findings: the command line asks for what the kernel lacks
rm -f "$root/proc/config.gz"
cp "$K/config-generic" "$root/boot/config-$rel"
echo "root=/dev/mmcblk0p2 isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3 threadirqs" >"$root/proc/cmdline"
echo 2-3 >"$root/sys/devices/system/cpu/isolated"
f=$(findings "$root")
has "$f" "kconfig-cmdline warn" "nohz_full= without NO_HZ_FULL fires"
is "$(printf '%s\n' "$f" | grep -c '^kconfig-cmdline ')" 2 "two of them: nohz_full and rcu_nocbs (threadirqs and isolcpus are built in)"
json=$(snap --json)
like "$json" '"id":"kconfig-cmdline","severity":"warn","subject":"nohz_full"' "subject nohz_full"
like "$json" '"id":"kconfig-cmdline","severity":"warn","subject":"rcu_nocbs"' "subject rcu_nocbs"
like "$json" 'CONFIG_RCU_NOCB_CPU is absent' "an absent option is named as absent"
cp "$K/config-rt" "$root/boot/config-$rel"
hasnt "$(findings "$root")" kconfig-cmdline "an RT config with all of them: silent"
sed 's/^CONFIG_IRQ_FORCED_THREADING=y/# CONFIG_IRQ_FORCED_THREADING is not set/' "$K/config-rt" >"$root/boot/config-$rel"
like "$(snap --json)" '"id":"kconfig-cmdline","severity":"warn","subject":"threadirqs"' \
	"threadirqs without IRQ_FORCED_THREADING fires"
rm "$root/boot/config-$rel"
hasnt "$(findings "$root")" kconfig-cmdline "no config: silent (nothing to compare with)"
done_testing
