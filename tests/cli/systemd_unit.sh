#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/systemd/tunetop@.service: systemd accepts it (systemd-analyze
# verify, no warning), and its ExecStart / ExecStop lines, run as written
# (only --root added, pointing at a copied RK3588 fixture), apply the
# instance's profile and put the tree back byte for byte.
. "$TT_SRCDIR/tests/lib.sh"

unit="$TT_BUILDDIR/contrib/systemd/tunetop@.service"
[ -f "$unit" ] || (cd "$TT_BUILDDIR" && make -s contrib/systemd/tunetop@.service) >/dev/null 2>&1
[ -f "$unit" ] || skip_all "contrib/systemd/tunetop@.service was not generated"
bindir=$(sed -n 's/^ExecStart=\(.*\)\/tunetop .*/\1/p' "$unit")
ok "$([ -n "$bindir" ] && ! grep -q '@bindir@' "$unit"; echo $?)" "the unit's @bindir@ is substituted ($bindir)"

# systemd-analyze verify: the template as an instance, its binary path
# pointing at this build's tunetop so that the executable check can pass
if command -v systemd-analyze >/dev/null 2>&1; then
	d="$TMPD/units"
	mkdir -p "$d"
	sed "s#$bindir/tunetop#$TUNETOP#g" "$unit" >"$d/tunetop@.service"
	ln -s tunetop@.service "$d/tunetop@rk3588-npu.service"
	(cd "$d" && systemd-analyze verify --man=no tunetop@rk3588-npu.service) >"$TMPD/verify.out" 2>&1
	is "$?" 0 "systemd-analyze verify accepts tunetop@rk3588-npu.service"
	is "$(cat "$TMPD/verify.out")" "" "with no warning"
	# a misspelt key is what verify must catch: the check is not blind
	sed 's/^ExecStop=/ExecStpo=/' "$d/tunetop@.service" >"$d/bad@.service"
	ln -s bad@.service "$d/bad@x.service"
	(cd "$d" && systemd-analyze verify --man=no bad@x.service) >"$TMPD/bad.out" 2>&1
	like "$(cat "$TMPD/bad.out")" "Unknown key 'ExecStpo'" "a broken unit is reported"
	# the example of a service run through tunetop exec, its paths pointed
	# at this build and at an app that exists
	ex="$TT_SRCDIR/contrib/systemd/app-with-tunetop.service.example"
	printf '#!/bin/sh\nexit 0\n' >"$d/run"
	chmod +x "$d/run"
	sed "s#/usr/bin/tunetop#$TUNETOP#; s#/opt/app/run#$d/run#" "$ex" >"$d/myapp.service"
	(cd "$d" && systemd-analyze verify --man=no myapp.service) >"$TMPD/ex.out" 2>&1
	is "$?" 0 "systemd-analyze verify accepts the exec example unit"
	is "$(cat "$TMPD/ex.out")" "" "with no warning"
else
	for i in 1 2 3 4 5; do skip "systemd-analyze verify" "systemd is not installed"; done
fi

# the example's ExecStart, as written (--root on a copied fixture added, the
# app a script that reads the governor it runs under): the profile holds
# while the app runs and the tree is back byte for byte after
ex="$TT_SRCDIR/contrib/systemd/app-with-tunetop.service.example"
exroot="$TMPD/exroot"
cp -a "$FIXTURES/rk3588" "$exroot"
printf '#!/bin/sh\ncat "%s/sys/devices/system/cpu/cpufreq/policy4/scaling_governor" >"%s/seen"\n' "$exroot" "$TMPD" >"$TMPD/app"
chmod +x "$TMPD/app"
exstart=$(sed -n 's/^ExecStart=//p' "$ex" | sed "s#^/usr/bin/tunetop #$TUNETOP --root $exroot #; s#/run/tunetop/#$TMPD/run/#; s#/opt/app/run#$TMPD/app#")
like "$exstart" " exec -p rk3588-npu -- $TMPD/app\$" "the example runs the app through tunetop exec -p PROFILE --"
$exstart >"$TMPD/exstart.out" 2>&1
is "$?" 0 "the example's ExecStart: exit 0" || diag "$(cat "$TMPD/exstart.out")"
is "$(cat "$TMPD/seen" 2>/dev/null)" performance "the app ran under the profile"
same_tree "$FIXTURES/rk3588" "$exroot"
ok $? "the example's ExecStart: the tree is back byte for byte when the app ends"

# the unit's own command lines, with %i = rk3588-npu, on a copied fixture
root=$(copy_fixture rk3588)
line() { sed -n "s/^$1=//p" "$unit" | sed "s#%i#rk3588-npu#g; s#^$bindir/tunetop #$TUNETOP --root $root #; s#/run/tunetop/#$TMPD/run/#"; }
start=$(line ExecStart)
stop=$(line ExecStop)
like "$start" "apply rk3588-npu$" "ExecStart applies the instance's profile"
like "$stop" "restore$" "ExecStop restores"
$start >"$TMPD/start.out" 2>&1
is "$?" 0 "ExecStart: exit 0" || diag "$(cat "$TMPD/start.out")"
is "$(cat "$root/sys/devices/system/cpu/cpufreq/policy4/scaling_governor")" performance "ExecStart: the big cores run at performance"
same_tree "$FIXTURES/rk3588" "$root" >/dev/null 2>&1
isnt_ok=$?
ok "$([ $isnt_ok -ne 0 ]; echo $?)" "ExecStart changed the tree"
[ -s "$TMPD/run/rk3588-npu/journal" ]
ok $? "the instance's journal is under its own state directory"
$stop >"$TMPD/stop.out" 2>&1
is "$?" 0 "ExecStop: exit 0" || diag "$(cat "$TMPD/stop.out")"
same_tree "$FIXTURES/rk3588" "$root"
ok $? "ExecStop: the tree is back byte for byte"
done_testing
