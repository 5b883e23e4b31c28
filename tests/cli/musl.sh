#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# musl (issue 16): a static headless build with musl-gcc (what a Buildroot
# image with musl runs), out of tree in a temporary directory:
#   configure CC=musl-gcc --disable-tui --with-inih=bundled --without-libpfm
#   --without-sensors --without-zstd LDFLAGS=-static --enable-werror
# (Debian has no musl ncurses nor libinih, hence --disable-tui and the
# bundled parser; the kernel's uapi headers come from linux-libc-dev).
# Then the musl binary must
#   - print the same snapshots as this build for every fixture (same_snapshots,
#     tests/lib.sh: as tests/cli/cross_armhf.sh does under qemu-arm);
#   - say in one line that it has no TUI;
#   - run a FIFO probe and exec --fifo/--rr and set a thread's policy: musl's
#     sched_setscheduler()/sched_getscheduler() are ENOSYS stubs, tunetop
#     makes the system calls itself (src/core/sched_sys.c).
. "$TT_SRCDIR/tests/lib.sh"

command -v musl-gcc >/dev/null || skip_all "musl-gcc not installed (apt-get install musl-tools)"
[ -z "${TT_SKIP_CROSS:-}" ] || skip_all "cross builds already tested in the first build of run-all.sh"
ma=$(gcc -print-multiarch 2>/dev/null)
[ -n "$ma" ] && [ -d "/usr/include/$ma/asm" ] || skip_all "no kernel uapi headers for $ma (apt-get install linux-libc-dev)"

# musl-gcc sees only musl's headers: add the kernel's uapi ones (linux/,
# asm/, asm-generic/) and nothing else of glibc's /usr/include
kh="$TMPD/kernel-headers"
mkdir -p "$kh"
ln -s /usr/include/linux "$kh/linux"
ln -s /usr/include/asm-generic "$kh/asm-generic"
ln -s "/usr/include/$ma/asm" "$kh/asm"

b="$TMPD/musl"
mkdir -p "$b"
(cd "$b" && "$TT_SRCDIR/configure" --disable-dependency-tracking CC=musl-gcc CPPFLAGS="-isystem $kh" LDFLAGS=-static \
	--disable-tui --with-inih=bundled --without-libpfm --without-sensors --without-zstd --without-zlib --without-tracefs \
	--enable-werror CFLAGS="-O2" >configure.log 2>&1)
ok $? "configure CC=musl-gcc --disable-tui --with-inih=bundled --enable-werror" ||
	tail -5 "$b/configure.log" | sed 's/^/# /'
like "$(cat "$b/configure.log")" 'TUI: +no' "configure's summary: TUI no"
make -C "$b" -j2 tunetop >"$b/make.log" 2>&1
ok $? "build the musl binary without a warning" || grep -E 'error|warning' "$b/make.log" | head -20 | sed 's/^/# /'
m="$b/tunetop"
like "$(file -b "$m" 2>/dev/null)" 'statically linked|static-pie linked' "the binary is static"
ok "$([ ! -e "$b/src/ui/tunetop-tui.o" ]; echo $?)" "no src/ui object in the build"

out=$("$m" </dev/null 2>&1)
rc=$?
is "$rc" 2 "tunetop with no command exits 2 without a TUI"
is "$out" "tunetop: built without the TUI (--disable-tui): use snapshot, watch or serve" \
	"... and says so in one line"

same_snapshots musl "$m"

# scheduling through the raw system calls
if [ "$(id -u)" != 0 ]; then
	skip "FIFO probe, exec --fifo/--rr, thread policy" "needs root (CAP_SYS_NICE)"
	done_testing
	exit
fi
command -v chrt >/dev/null || skip_all "chrt not installed (util-linux)"
st="$TMPD/state"

"$m" --state-dir "$st" probe --cpus 0 -D 1 --policy fifo --prio 7 --json >"$TMPD/probe.json" 2>"$TMPD/probe.err"
is "$?" 0 "musl: probe --policy fifo --prio 7 runs" || sed 's/^/# /' "$TMPD/probe.err"
j=$(cat "$TMPD/probe.json")
like "$j" '"sched_policy": *"SCHED_FIFO"' "the probe thread ran SCHED_FIFO (its JSON)"
like "$j" '"sched_priority": *7,' "... at priority 7"
like "$j" '"realtime_refused": *false' "real time was not refused"
like "$j" '"samples": *[1-9]' "the probe reports samples"

out=$("$m" --state-dir "$st" exec --fifo 9 -- chrt -p 0 2>&1)
is "$?" 0 "musl: exec --fifo 9 -- chrt -p 0"
like "$out" "policy: SCHED_FIFO" "chrt in the child sees SCHED_FIFO"
like "$out" "priority: 9" "... priority 9"
out=$("$m" --state-dir "$st" exec --rr 3 -- chrt -p 0 2>&1)
like "$out" "policy: SCHED_RR" "exec --rr 3: chrt sees SCHED_RR"

# ab --cmd runs the command SCHED_OTHER even from a FIFO tunetop (musl's
# posix_spawn ignores POSIX_SPAWN_SETSCHEDULER: the spawning thread drops
# its own policy, src/probe/ab.c)
root=$(copy_fixture rk3588)
cat >"$TMPD/pol.sh" <<'EOS'
#!/bin/sh
echo "value: 1 ms"
chrt -p $$ >&2
EOS
chmod +x "$TMPD/pol.sh"
chrt -f 5 "$m" --root "$root" --state-dir "$TMPD/abst" ab 'cpuidle/*/cpu-sleep/disable=0,1' \
	--window 0 --settle 0 --rounds 1 --cmd "$TMPD/pol.sh" --metric 'value: ([0-9.]+) ms' \
	>"$TMPD/ab.out" 2>"$TMPD/ab.err"
is "$?" 0 "musl: ab --cmd under chrt -f 5"
like "$(cat "$TMPD/ab.err")" "policy: SCHED_OTHER" "the command ran SCHED_OTHER"
unlike "$(cat "$TMPD/ab.err")" "policy: SCHED_FIFO" "never SCHED_FIFO"

# the thread policy knob on a process this test started
sleep 60 &
sp=$!
out=$("$m" --state-dir "$st" set --no-verify "process/$sp/policy=fifo:5" 2>&1)
is "$?" 0 "musl: set process/$sp/policy=fifo:5" || diag "$out"
like "$(chrt -p $sp)" "SCHED_FIFO" "chrt -p shows SCHED_FIFO"
like "$(chrt -p $sp)" "priority: 5" "... priority 5"
like "$("$m" --state-dir "$st" get "process/$sp/policy" 2>&1)" "/$sp/policy=fifo:5$" "get reads it back"
"$m" --state-dir "$st" restore --force >/dev/null 2>&1
like "$(chrt -p $sp)" "SCHED_OTHER" "restore puts SCHED_OTHER back"
kill $sp 2>/dev/null
wait $sp 2>/dev/null
done_testing
