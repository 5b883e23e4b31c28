#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Where the monitor's own threads run (issue 20): the housekeeping CPUs at
# nice 10 by default, never RT; --self-cpus / --self-nice; bad values are a
# one-line usage error. Checked on the real process with taskset and ps.
. "$TT_SRCDIR/tests/lib.sh"

# watch_place ARGS...: start `tunetop watch` with ARGS, print
# "<affinity mask> <nice> <policy>" of the running process, stop it
watch_place() {
	# a fresh file: the last call's output must not pass for this one's
	rm -f "$TMPD/watch.out"
	# shellcheck disable=SC2086
	$as "$TUNETOP" watch -i 200 -n 300 "$@" >"$TMPD/watch.out" 2>&1 &
	wp=$!
	i=0
	while [ ! -s "$TMPD/watch.out" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	m=$(taskset -p "$wp" 2>/dev/null | sed 's/.*: //')
	n=$(ps -o ni= -p "$wp" | tr -d ' ')
	c=$(ps -o cls= -p "$wp" | tr -d ' ')
	kill "$wp" 2>/dev/null
	wait "$wp" 2>/dev/null
	echo "$m $n $c"
}
as="" # a prefix for the command: nice, setpriv
ncpu=$(getconf _NPROCESSORS_ONLN)
all=$(printf '%x' $(((1 << ncpu) - 1)))

# the default never lowers the nice the test runs at (a niced make)
dn=$(nice)
[ "$dn" -lt 10 ] && dn=10
out=$(TUNETOP_SELF_NICE='' watch_place)
is "$out" "$all $dn TS" "default: every housekeeping CPU (none isolated here), nice $dn, SCHED_OTHER"
out=$(watch_place --self-cpus 0 --self-nice 5)
is "$out" "1 5 TS" "--self-cpus 0 --self-nice 5: on CPU 0 at nice 5"
if command -v chrt >/dev/null; then
	chrt -f 10 "$TUNETOP" watch -i 200 -n 300 >"$TMPD/rt.out" 2>&1 &
	rp=$!
	i=0
	while [ ! -s "$TMPD/rt.out" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	like "$(chrt -p "$rp")" "SCHED_OTHER" "started under chrt -f: never RT, back to SCHED_OTHER"
	kill "$rp" 2>/dev/null
	wait "$rp" 2>/dev/null
fi

# bad values: one line, exit 2
for bad in "--self-cpus 1000:no online CPU" "--self-cpus abc:not a CPU list" \
	"--self-nice 30:a nice value from -20 to 19" "--self-nice x:a nice value"; do
	arg=${bad%%:*} want=${bad#*:}
	# shellcheck disable=SC2086
	err=$("$TUNETOP" watch -i 100 -n 1 $arg 2>&1 >/dev/null)
	is "$?" 2 "$arg: exit 2"
	like "$err" "$want" "$arg: says why"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "$arg: one line"
done

# isolcpus=1 (an emulated host whose isolated file says 1): off CPU 1
if [ "$ncpu" -ge 2 ]; then
	TT_SHAPE_ISOLATED=1 TUNETOP_SELF_NICE='' sh "$TT_SRCDIR/tests/hostshape.sh" run none \
		"$TUNETOP" watch -i 200 -n 300 >"$TMPD/iso.out" 2>&1 &
	hp=$!
	i=0
	while [ ! -s "$TMPD/iso.out" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	tp=$(pgrep -n -f "tunetop watch -i 200 -n 300")
	if [ -n "$tp" ]; then
		m=$(taskset -p "$tp" | sed 's/.*: //')
		want=$(printf '%x' $((((1 << ncpu) - 1) & ~2)))
		is "$m" "$want" "isolated CPU 1: tunetop runs on the others (mask $want)"
	else
		skip "isolcpus emulation" "the host shape could not start ($(head -1 "$TMPD/iso.out"))"
	fi
	kill "$tp" 2>/dev/null
	wait "$hp" 2>/dev/null
fi

# Started under nice 15 by a user without CAP_SYS_NICE (nobody when the
# test runs as root, issue 33): the default nice 10 would be a lowering, so
# it keeps 15 and says nothing; an explicit --self-nice 0 is one line.
if [ "$(nice)" -gt 15 ]; then
	skip "under nice 15" "the test already runs at nice $(nice)"
elif [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null 2>&1; then
	skip "under nice 15" "running as root without setpriv"
else
	mkdir -p "$TMPD/home"
	as="nice -n $((15 - $(nice)))"
	if [ "$(id -u)" = 0 ]; then
		chown 65534:65534 "$TMPD/home"
		chmod 755 "$TMPD"
		as="$as setpriv --reuid=65534 --regid=65534 --clear-groups --"
	fi
	as="$as env HOME=$TMPD/home TUNETOP_SELF_NICE="
	out=$(watch_place)
	is "${out#* }" "15 TS" "nice 15, default: stays at nice 15"
	is "$(grep -c 'self placement' "$TMPD/watch.out")" 0 "nice 15, default: no warning"
	out=$(watch_place --self-nice 0)
	is "${out#* }" "15 TS" "nice 15, --self-nice 0 without the privilege: still 15"
	is "$(grep -c 'self placement: nice 0: Permission denied' "$TMPD/watch.out")" 1 \
		"nice 15, --self-nice 0 without the privilege: one line says so"
	as=""
fi

like "$("$TUNETOP" explain self 2>&1)" "housekeeping" "explain self says where tunetop runs and why"
done_testing
