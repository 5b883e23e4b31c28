#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds for small images (issue 16): configure --disable-demo
# --with-inih=bundled out of tree in a temporary directory, then
#  - configure's summary says so, the binary does not link libinih;
#  - `make install DESTDIR=` installs no demo board, and `--demo` (and
#    `learn --demo`) print one line and exit 2;
#  - the bundled INI parser reads every shipped profile and theme, and a
#    set of edge cases, exactly as libinih does (tests/unit/ini_dump in both
#    builds), and `apply --list` / `apply -n PROFILE` print the same;
#  - configure --disable-tui: `tunetop --help` says the monitor is not built
#    and lists none of the options only the TUI takes.
. "$TT_SRCDIR/tests/lib.sh"

[ -z "${TT_SKIP_CROSS:-}" ] || skip_all "variant builds already tested in the first build of run-all.sh"
[ -x "$TT_BUILDDIR/tests/unit/ini_dump" ] || skip_all "tests/unit/ini_dump not built (run through make check)"
grep -q '^#define HAVE_TUI 1' "$TT_BUILDDIR/config.h" || skip_all "this build has no TUI (ncursesw)"

b="$TMPD/small"
mkdir -p "$b"
# both builds' configure share one cache (same compiler and CFLAGS: the
# second one's checks of the compiler and the libc are read, ~8 CPU-s)
cache="$TMPD/config.cache"
(cd "$b" && "$TT_SRCDIR/configure" --cache-file="$cache" --disable-dependency-tracking --enable-werror --disable-demo \
	--with-inih=bundled --without-libpfm --without-sensors --without-zstd --without-tracefs CFLAGS="-O1" \
	>configure.log 2>&1)
ok $? "configure --disable-demo --with-inih=bundled --enable-werror" || tail -5 "$b/configure.log" | sed 's/^/# /'
like "$(cat "$b/configure.log")" 'demo board: +no' "configure's summary: demo board no"
like "$(cat "$b/configure.log")" 'libinih: +bundled' "configure's summary: libinih bundled"
make -C "$b" -j2 tunetop tests/unit/ini_dump >"$b/make.log" 2>&1
ok $? "build tunetop and ini_dump without a warning" || grep -E 'error|warning' "$b/make.log" | head -20 | sed 's/^/# /'
unlike "$(LC_ALL=C readelf -d "$b/tunetop" 2>&1)" 'libinih' "the bundled build does not link libinih"
like "$(cat "$b/configure.log")" 'libtracefs: +no' "configure's summary: libtracefs no (--without-tracefs)"
unlike "$(LC_ALL=C readelf -d "$b/tunetop" 2>&1)" 'libtrace(fs|event)' "--without-tracefs: libtracefs is not linked"
out=$("$b/tunetop" probe --cpus 0 -D 0.2 --policy other --why 2>&1 >/dev/null </dev/null)
is "$?" 0 "--without-tracefs: probe --why still measures (exit 0)"
like "$out" "--why: built without libtracefs and libtraceevent \\(configure --with-tracefs\\): measuring without the causes" \
	"--without-tracefs: probe --why says so in one line"
ok "$([ ! -e "$b/rk3588-demo.tar" ]; echo $?)" "no demo board built in the build tree"

# install: everything but the demo board
make -C "$b" install DESTDIR="$TMPD/dest" >"$b/install.log" 2>&1
ok $? "make install DESTDIR=..." || tail -5 "$b/install.log" | sed 's/^/# /'
ok "$([ -x "$TMPD/dest/usr/local/bin/tunetop" ]; echo $?)" "the program is installed"
ok "$([ -f "$TMPD/dest/usr/local/share/tunetop/profiles/rt-latency.profile" ]; echo $?)" "profiles are installed"
is "$(find "$TMPD/dest" -name '*demo*' | wc -l | tr -d ' ')" 0 "no demo board installed"

msg="tunetop: built without the simulated board (--disable-demo)"
out=$("$b/tunetop" --demo 2>&1 </dev/null)
rc=$?
is "$rc" 2 "tunetop --demo exits 2"
is "$out" "$msg" "tunetop --demo: one line"
out=$("$b/tunetop" learn --demo 1 2>&1 </dev/null)
rc=$?
is "$rc" 2 "learn --demo exits 2"
is "$out" "tunetop learn: ${msg#tunetop: }" "learn --demo: the same reason, with the command's prefix"

# the INI parser: system libinih ($TT_BUILDDIR) vs bundled ($b)
e="$TMPD/ini"
mkdir -p "$e"
printf '\357\273\277[s]\nbom = yes\n' >"$e/bom.ini"
printf '; comment\n# comment\n  ; indented comment\n\n[sec]\na = 1 ; inline\nb=2;not inline\nc : colon\n  d = spaced name  \ne =\n' >"$e/basic.ini"
printf '[m]\nkey = first\n  second line\n\n  after blank ; comment\n[m2]\n  continued into nothing\n' >"$e/multi.ini"
printf '[crlf]\r\nx = 1\r\n  y\r\n' >"$e/crlf.ini"
printf '[unclosed\nno equals here\n[ok]\nbad_name = refused by the handler\nz = 3\n' >"$e/errors.ini"
printf '[%s]\nk = v\n%s = long name\n' "$(printf 'S%.0s' $(seq 1 70))" "$(printf 'n%.0s' $(seq 1 70))" >"$e/caps.ini"
printf '[long]\nv = %s\nw = after\n' "$(printf 'x%.0s' $(seq 1 450))" >"$e/longline.ini"
printf '[p ; c]\nk = v\n[q] trailing\nk2 = v2\n' >"$e/sections.ini"
printf '[c]\nk = v\n  x ;y\n  x;y\n\t tab ; z  \n  # hash\n  ; semi\nn = 1 # not comment\n' >"$e/cont.ini"
printf '' >"$e/empty.ini"
printf 'noeol = 1' >"$e/noeol.ini"
printf '[profile]\ndescription = edge\n\tcontinued\n[knobs]\nsys/kernel/x = 1 ; c\n' >"$e/edge.profile"
printf '[colors]\nheader = white,blue,bold\n  bad continuation\nnot a role = red\n[other]\nx=1\n' >"$e/edge.theme"
set -- "$TT_SRCDIR"/profiles/*.profile "$TT_SRCDIR"/themes/*.theme "$e"/*
"$TT_BUILDDIR/tests/unit/ini_dump" "$@" >"$TMPD/ini.system" 2>&1
"$b/tests/unit/ini_dump" "$@" >"$TMPD/ini.bundled" 2>&1
if cmp -s "$TMPD/ini.system" "$TMPD/ini.bundled"; then
	ok 0 "$# files (profiles, themes, edge cases) parse the same with the bundled inih"
else
	ok 1 "$# files (profiles, themes, edge cases) parse the same with the bundled inih"
	diff "$TMPD/ini.system" "$TMPD/ini.bundled" | head -30 | sed 's/^/# /'
fi
like "$(cat "$TMPD/ini.bundled")" 'ini_parse: 1$' "an edge case reports its first bad line"
like "$(cat "$TMPD/ini.bundled")" 'description <Generic RT latency' "a shipped profile is read"

for args in "apply --list" "apply -n rt-latency" "apply -n rk3588-npu"; do
	# shellcheck disable=SC2086
	"$TUNETOP" --root "$FIXTURES/rk3588" --state-dir "$TMPD/st1" $args >"$TMPD/a.system" 2>&1
	r1=$?
	# shellcheck disable=SC2086
	"$b/tunetop" --root "$FIXTURES/rk3588" --state-dir "$TMPD/st2" $args >"$TMPD/a.bundled" 2>&1
	r2=$?
	sed -i "s|$TMPD/st[12]|STATE|g" "$TMPD/a.system" "$TMPD/a.bundled"
	is "$r2" "$r1" "$args: same exit status ($r1)"
	if cmp -s "$TMPD/a.system" "$TMPD/a.bundled"; then
		ok 0 "$args: same output"
	else
		ok 1 "$args: same output"
		diff "$TMPD/a.system" "$TMPD/a.bundled" | head -20 | sed 's/^/# /'
	fi
done

# --disable-tui: the usage text has no TUI-only option and says why
n="$TMPD/notui"
mkdir -p "$n"
(cd "$n" && "$TT_SRCDIR/configure" --cache-file="$cache" --disable-dependency-tracking --enable-werror --disable-tui --disable-demo \
	--with-inih=bundled --without-libpfm --without-sensors --without-zstd CFLAGS="-O1" >configure.log 2>&1)
ok $? "configure --disable-tui --enable-werror" || tail -5 "$n/configure.log" | sed 's/^/# /'
make -C "$n" -j2 tunetop >"$n/make.log" 2>&1
ok $? "build tunetop without the TUI, without a warning" || grep -E 'error|warning' "$n/make.log" | head -20 | sed 's/^/# /'
out=$("$n/tunetop" --help 2>&1 </dev/null)
is $? 0 "--disable-tui: tunetop --help exits 0"
like "$out" 'built without the interactive monitor \(--disable-tui\)' "--disable-tui: --help says the TUI is not built"
for opt in '-d TENTHS' --theme --keep --no-color --screen --replay; do
	unlike "$out" "$opt" "--disable-tui: --help does not list the TUI's $opt"
done
like "$out" 'tunetop watch ' "--disable-tui: --help still lists the commands"
like "$("$TUNETOP" --help 2>&1)" 'tunetop \[--demo\] \[-d TENTHS\] \[--theme NAME\]' \
	"the TUI build's --help lists the monitor's options"
out=$("$n/tunetop" --root "$FIXTURES/rk3588" 2>&1 </dev/null)
is $? 2 "--disable-tui: tunetop with no command exits 2"
is "$out" "tunetop: built without the TUI (--disable-tui): use snapshot, watch or serve" \
	"--disable-tui: tunetop with no command says why"
done_testing
