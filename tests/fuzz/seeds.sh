#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Seed corpora for the fuzz harnesses, made from the test fixtures, the
# shipped profiles and themes, and the built tunetop (snapshots, recordings
# and a journal of the fixtures), plus the few hand-made seeds in
# tests/fuzz/seeds/. Nothing generated here is kept in the repository.
#   seeds.sh OUTDIR    (env: TT_SRCDIR, FIXTURES, TUNETOP)
# Makes OUTDIR/NAME/ for every harness fuzz_NAME.
set -eu
: "${TT_SRCDIR:?}" "${FIXTURES:?}" "${TUNETOP:?}"
out=$1
hand=$TT_SRCDIR/tests/fuzz/seeds
rm -rf "$out"
for n in json replay irqs softirqs threads rt journal profile theme config tar cpulist str procstat report accel kconfig whyev; do
	mkdir -p "$out/$n"
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
boards=$(cd "$FIXTURES" && for b in *; do [ -d "$b/proc" ] && echo "$b"; done)

# accel: the rknpu and devfreq load files of the fixtures, syscall lines
for f in $(cd "$FIXTURES" && find . -path '*rknpu/load' -o -path '*devfreq*/load' | sort); do
	cp "$FIXTURES/$f" "$out/accel/$(echo "$f" | tr '/.' '__')"
done
printf 'NPU load:  37%%\n' >"$out/accel/rknpu-one-core"
printf '29 0x5 0xc0186b04 0xffffd2a8 0x0 0x0 0x0 0xffffd210 0xffff8a4b0a8c\n' >"$out/accel/syscall"
printf 'running\n' >"$out/accel/syscall-running"
printf '/dev/dri/renderD128' >"$out/accel/node"
# kconfig: the config texts and their gzip
for c in "$FIXTURES"/kconfig/config-*; do
	cp "$c" "$out/kconfig/$(basename "$c")"
	gzip -9 -n -c "$c" >"$out/kconfig/$(basename "$c").gz"
done

# whyev: the recorded event streams of tests/fixtures/why/
cp "$FIXTURES"/why/*.events "$out/whyev/"

# A NUL-separated pair: the two-sample harnesses derive rates from it.
pair() { { cat "$1"; printf '\000'; cat "$2"; } >"$3"; }

for b in $boards; do
	f=$FIXTURES/$b
	# /proc files
	[ -f "$f/proc/interrupts" ] && cp "$f/proc/interrupts" "$out/irqs/$b" &&
		pair "$f/proc/interrupts" "$f/proc/interrupts" "$out/irqs/$b-pair"
	[ -f "$f/proc/softirqs" ] && cp "$f/proc/softirqs" "$out/softirqs/$b" &&
		pair "$f/proc/softirqs" "$f/proc/softirqs" "$out/softirqs/$b-pair"
	[ -f "$f/proc/stat" ] && cp "$f/proc/stat" "$out/procstat/$b" &&
		pair "$f/proc/stat" "$f/proc/stat" "$out/procstat/$b-pair"
	for d in sys/kernel/debug/sched/debug proc/sched_debug; do
		[ -f "$f/$d" ] && cp "$f/$d" "$out/rt/$b" && pair "$f/$d" "$f/$d" "$out/rt/$b-pair"
	done
	# JSON: a snapshot document, which `tunetop report` also reads
	"$TUNETOP" --root "$f" snapshot --json --interval 0 >"$out/json/$b.json" 2>/dev/null || true
	cp "$out/json/$b.json" "$out/replay/$b-snapshot.json"
	# CPU lists and masks, numbers: the sysfs files they come from
	for p in sys/devices/system/cpu/online sys/devices/system/cpu/possible \
		sys/devices/system/cpu/isolated sys/devices/system/cpu/nohz_full \
		sys/devices/system/cpu/cpufreq/policy0/related_cpus \
		sys/devices/system/cpu/cpufreq/policy0/affected_cpus \
		proc/irq/default_smp_affinity; do
		[ -f "$f/$p" ] && cp "$f/$p" "$out/cpulist/$b-$(echo "$p" | tr / _)"
	done
	for p in $(cd "$f" && find proc/irq -name 'smp_affinity*' -o -name 'effective_affinity*' | sort | head -4); do
		cp "$f/$p" "$out/cpulist/$b-$(echo "$p" | tr / _)"
	done
	for p in $(cd "$f" && find sys/devices/system/cpu/cpufreq/policy0 sys/class/thermal/thermal_zone0 \
		proc/sys/kernel -maxdepth 1 -type f -name '*_freq' -o -name temp -o -name 'sched_rt_*' \
		2>/dev/null | sort | head -8); do
		cp "$f/$p" "$out/str/$b-$(echo "$p" | tr / _)"
	done
done
# recordings of two samples (a small board and a big one), zstd-compressed
# (the default when built with libzstd) and plain
for b in stm32mp157 rk3588; do
	[ -d "$FIXTURES/$b" ] || continue
	"$TUNETOP" --root "$FIXTURES/$b" watch --json -i 10 -n 2 --record "$out/replay/$b.rec" \
		>/dev/null 2>&1 || true
	"$TUNETOP" --root "$FIXTURES/$b" watch --json -i 10 -n 2 --record-format json \
		--record "$out/replay/$b-plain.rec" >/dev/null 2>&1 || true
done
# the other lines a recording holds (events and probe windows), after a header
cat >"$out/replay/lines.rec" <<'REC'
{"type":"header","format":"tunetop-record","version":1,"tunetop":"0.1.0","source":"tui","root":"/","interval_ms":1000,"simulated":true,"board":"RK3588","start_ns":1}
{"type":"event","seq":1,"t_ns":2,"kind":"knob","addr":"cpufreq/policy0/governor","old":"schedutil","new":"performance","state":"active","journal_id":1,"journal_time_ns":2}
{"type":"event","seq":2,"t_ns":3,"kind":"note","text":"marker \u00e9\ud83d\ude00"}
{"type":"probe","seq":3,"t_ns":4,"cpus":"0-3","interval_us":1000,"samples":100,"overflows":0,"min_us":1.5,"mean_us":2.25,"p50_us":2,"p99_us":9.5,"max_us":12,"buckets":[[1,50],[2,40],[8,10]]}
{"type":"sample","seq":4,"t_ns":5,"snapshot":{"cpus":[{"cpu":0,"online":true}],"policies":[],"findings":[{"id":"x","severity":"warn","fix":["a=b"]}]}}
{"type":"end","seq":5,"t_ns":6}
REC
head -1 "$out/replay/lines.rec" >"$out/json/header.json"

# report: recordings, a snapshot, and short A/B and probe results (JSON)
cp "$out/replay/"*.rec "$out/report/" 2>/dev/null || true
cp "$out/json/stm32mp157.json" "$out/report/" 2>/dev/null || true
"$TUNETOP" probe --cpus 0 -i 1000 -D 0.3 --policy other --json >"$out/report/probe.json" 2>/dev/null ||
	rm -f "$out/report/probe.json"
if [ -d "$FIXTURES/rk3588" ]; then
	cp -a "$FIXTURES/rk3588" "$tmp/abroot"
	mkdir -m 700 "$tmp/abstate"
	"$TUNETOP" --root "$tmp/abroot" --state-dir "$tmp/abstate" ab \
		cpufreq/policy0/governor=performance,powersave --window 0.1 --settle 0 --rounds 1 \
		--cpus 0 --json >"$out/report/ab.json" 2>/dev/null || rm -f "$out/report/ab.json"
fi

# threads: this shell's and a kernel thread's files, and a pair
for p in /proc/self /proc/2; do
	n=$(basename "$p")
	for f in stat status sched; do
		cat "$p/$f" >"$out/threads/$n-$f" 2>/dev/null || rm -f "$out/threads/$n-$f"
	done
done
[ -f "$out/threads/self-stat" ] && pair "$out/threads/self-stat" "$out/threads/self-stat" "$out/threads/pair"

# journal: a few changes and an undo on a copy of a fixture
if [ -d "$FIXTURES/rk3588" ]; then
	cp -a "$FIXTURES/rk3588" "$tmp/root"
	mkdir -m 700 "$tmp/state"
	"$TUNETOP" --root "$tmp/root" --state-dir "$tmp/state" set cpufreq/policy0/governor=performance \
		cpufreq/policy0/max_khz=1008000 >/dev/null 2>&1 || true
	"$TUNETOP" --root "$tmp/root" --state-dir "$tmp/state" undo >/dev/null 2>&1 || true
	"$TUNETOP" --root "$tmp/root" --state-dir "$tmp/state" set cpufreq/policy4/governor=powersave \
		>/dev/null 2>&1 || true
	if [ -f "$tmp/state/journal" ]; then
		cp "$tmp/state/journal" "$out/journal/fixture"
		# the same without its CRCs, for the harness's '+' mode
		{ printf '+'; sed 's/	crc=[0-9a-f]*$//' "$tmp/state/journal"; } >"$out/journal/fixture-nocrc"
		"$TUNETOP" --root "$tmp/root" --state-dir "$tmp/state" journal --json \
			>"$out/json/journal.json" 2>/dev/null || true
	fi
fi
cp "$hand/journal" "$out/journal/hand"

# profiles and themes as shipped
for f in "$TT_SRCDIR"/profiles/*.profile; do cp "$f" "$out/profile/"; done
for f in "$TT_SRCDIR"/themes/*.theme; do cp "$f" "$out/theme/"; done
cp "$hand/tunetoprc" "$out/config/tunetoprc"

# ustar archives (512-byte records, no padding to 10 KiB): directories,
# files and symlinks of a fixture, and a deep tree whose names need the
# ustar prefix field
if (cd "$FIXTURES" && tar --format=ustar -b 1 -cf "$tmp/a.tar" rk3588/sys/class/hwmon \
	rk3588/proc/irq/11 rk3588/proc/cmdline) 2>/dev/null; then
	cp "$tmp/a.tar" "$out/tar/rk3588.tar"
fi
if (cd "$FIXTURES" && tar --format=ustar -b 1 -cf "$tmp/b.tar" stm32mp157/sys/devices/platform/mlahb) 2>/dev/null; then
	cp "$tmp/b.tar" "$out/tar/deep.tar"
fi

# one seed per line of the hand-made CPU lists
i=0
while IFS= read -r l; do
	i=$((i + 1))
	printf '%s\n' "$l" >"$out/cpulist/hand-$i"
done <"$hand/cpulist"
for v in 0 18446744073709551615 -1 " 42 " 0x1f ff 950.000000 -0.000001 "1 2"; do
	i=$((i + 1))
	printf '%s\n' "$v" >"$out/str/hand-$i"
done
# no empty corpus directory
for d in "$out"/*; do
	[ -n "$(ls "$d")" ] || printf '\n' >"$d/empty"
done
